/* poly1305_x86_avx512.c -- AVX-512F kernel: eight lanes in radix 2^26,
 *                          four-lane AVX2 and scalar radix 2^64 for less */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include "r26vec.h"
#include "burn.h"
#include "tuning.h"
#include "../registry.h"

/* What every message uses first (a short one wipes only v.s), then the
 * tables, each row a whole number of cache lines: table8's are. */
struct avx512_state {
    struct polymac_r26vec v;
    uint64_t table4[9 * 4];   /* r^4, r^2, r^3, r^1 by lane (r26vec.h) */
    uint64_t table8[9 * 8];   /* r^8, r^4, r^7, r^3, r^6, r^2, r^5, r^1 */
};
_Static_assert(sizeof(struct avx512_state) <= POLYMAC_KS_BYTES, "state fits");

/* Break-evens in blocks per call: below MIN4 the scalar radix-2^64 code
 * runs, from MIN4 the four-lane core, from MIN8 the eight-lane one.  COLD
 * while the powers the path needs are not yet computed (counted over the
 * message, simd/skeleton.h; MIN8_COLD also while only the four-lane ones
 * are), WARM once they are.  Constants: automatic selection prefers
 * x86-avx512ifma wherever this kernel would be chosen, so it runs by name
 * and for its batch pairs; lab/tune measured these on Intel Emerald
 * Rapids, and its forced builds define them on the command line. */
/* the front end runs one-shots under POLYMAC_AUTH_MIN itself; lab/tune's
 * builds define lower values, for the kernel's own paths */
_Static_assert(POLYMAC_X86_AVX512_MIN4_COLD >= POLYMAC_AUTH_MIN / 16
                   && POLYMAC_X86_AVX512_MIN8_COLD >= POLYMAC_AUTH_MIN / 16,
               "cold break-evens at or above the front end's cut");
#ifndef POLYMAC_AVX512_MIN4_COLD
#define POLYMAC_AVX512_MIN4_COLD POLYMAC_X86_AVX512_MIN4_COLD
#endif
#ifndef POLYMAC_AVX512_MIN4_WARM
#define POLYMAC_AVX512_MIN4_WARM 16
#endif
#ifndef POLYMAC_AVX512_MIN8_COLD
#define POLYMAC_AVX512_MIN8_COLD POLYMAC_X86_AVX512_MIN8_COLD
#endif
#ifndef POLYMAC_AVX512_MIN8_WARM
#define POLYMAC_AVX512_MIN8_WARM 13
#endif
_Static_assert(POLYMAC_AVX512_MIN4_COLD >= 4 && POLYMAC_AVX512_MIN4_WARM >= 4,
               "the four-lane core takes a group");
_Static_assert(POLYMAC_AVX512_MIN8_COLD >= 1 && POLYMAC_AVX512_MIN8_WARM >= 1,
               "a break-even of at least one block");
/* the one-shot's vector code starts at the lower cold break-even */
#define AVX512_COLD                                                              \
    (POLYMAC_AVX512_MIN8_COLD < POLYMAC_AVX512_MIN4_COLD ? POLYMAC_AVX512_MIN8_COLD \
                                                         : POLYMAC_AVX512_MIN4_COLD)

/* The depth of dead stack each vector path leaves, zeroed after it
 * (burn.h): the return address, pushes, the largest realignment, the
 * frame and the red zone below it (the two-group loop keeps r^16 in its
 * frame), the deepest of GCC 12 and 14 and clang 14 and 19 (clang 14
 * leaves eight lanes' loop a 72-byte red zone below two pushes;
 * test/trust/burn_depths.py checks each against the library), rounded
 * up to whole vectors. */
#ifndef POLYMAC_AVX512_VECTOR16_STACK
#define POLYMAC_AVX512_VECTOR16_STACK 256
#endif
#ifndef POLYMAC_AVX512_VECTOR8_STACK
#define POLYMAC_AVX512_VECTOR8_STACK 128
#endif
#ifndef POLYMAC_AVX512_VECTOR4_STACK
#define POLYMAC_AVX512_VECTOR4_STACK 128
#endif

/* x with its 64-bit lanes moved up by n (0..7), zeros shifted in. */
static inline __m512i polymac_lanes_up(__m512i x, unsigned n)
{
    const __m512i iota = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
    __m512i idx = _mm512_sub_epi64(iota, _mm512_set1_epi64((long long)n));
    return _mm512_maskz_permutexvar_epi64((__mmask8)(0xffu << n), idx, x);
}

/*
 * Eight lanes: polymac_r26vec_core4 with 512-bit vectors and r^8 (the
 * bounds of r26vec_ops.h hold unchanged: each lane's arithmetic is the
 * same).  Two 64-byte loads hold blocks 0..3 and 4..7; unpacking 64-bit
 * halves leaves the lanes in the block order 0, 4, 1, 5, 2, 6, 3, 7,
 * which table8 follows.
 *
 * Any nblocks >= 1: when it is not a multiple of eight, the first group
 * starts with k = -nblocks mod 8 zero blocks that are not in the message
 * (no hibit either), and h enters with block k, the first real one.  Zero
 * blocks add nothing and block k gets the weight of a first block, r^n,
 * so the sum is unchanged, and no block is left over for a four-lane pass
 * and a scalar tail (each costs an extra final step, more than the
 * multiplications the zero lanes waste).  Masked loads read only the
 * message's bytes.  k depends on the length alone: no secret is involved.
 *
 * With two, more than eight groups after the first run two groups per
 * carry chain (r26vec_ops.h, two) with r^16, the square of r^8 computed
 * per call (the state has no room left for it) into this frame; r^8 is
 * broadcast at each product there, as r^16 is: with both powers in
 * registers beside h, m and the sums, GCC spills.
 */
static inline __attribute__((always_inline)) void
polymac_core8(uint64_t h26[5], const uint64_t table[9 * 8], const uint8_t *in, size_t nblocks,
              uint32_t hibit, const int two)
{
    /* lane of block j, in the unpacked order */
    static const uint8_t lane_of[8] = {0, 2, 4, 6, 1, 3, 5, 7};
    const __m512i hib = _mm512_set1_epi64(hibit ? (1 << 24) : 0);
    const unsigned k = (unsigned)(0 - nblocks) & 7;
    const __mmask8 at = (__mmask8)(1u << lane_of[k]);
    size_t ngroups = nblocks / 8 + (k != 0);
    __m512i a, b, hb;
    struct r26v8 h = {_mm512_maskz_set1_epi64(at, (long long)h26[0]),
                      _mm512_maskz_set1_epi64(at, (long long)h26[1]),
                      _mm512_maskz_set1_epi64(at, (long long)h26[2]),
                      _mm512_maskz_set1_epi64(at, (long long)h26[3]),
                      _mm512_maskz_set1_epi64(at, (long long)h26[4])};

    /* the first group: 2k zero qwords, then the message's 16 - 2k */
    if (k == 0) {
        a = _mm512_loadu_si512((const void *)in);
        b = _mm512_loadu_si512((const void *)(in + 64));
        hb = hib;
    } else {
        __mmask8 real = 0;
        for (unsigned j = k; j < 8; j++)
            real |= (__mmask8)(1u << lane_of[j]);
        if (k <= 4) {
            a = polymac_lanes_up(_mm512_maskz_loadu_epi64(
                    (__mmask8)(0xffu >> (2 * k)), in), 2 * k);
            b = _mm512_loadu_si512((const void *)(in + 16 * (4 - k)));
        } else {
            a = _mm512_setzero_si512();
            b = polymac_lanes_up(_mm512_maskz_loadu_epi64(
                    (__mmask8)(0xffu >> (2 * k - 8)), in), 2 * k - 8);
        }
        hb = _mm512_maskz_mov_epi64(real, hib);
    }
    in += 16 * (8 - k);
    h = polymac_r26v8_add(h, polymac_r26v8_split(a, b, hb));
    ngroups--;                  /* groups still to load */

    if (two && ngroups >= 8) {
        uint64_t r16[9];
        polymac_r26vec_square(r16, table, 8);
        for (; ngroups >= 2; ngroups -= 2, in += 256)
            h = polymac_r26v8_two(h, in, hib, table, r16);
    }
    if (ngroups) {
        /* lane 0 of each row is r^8, broadcast for the loop (rows 4..8:
         * its fives) */
#define POLYMAC_ROW(i) _mm512_set1_epi64((long long)table[(i) * 8])
        const struct r26v8 r = {POLYMAC_ROW(0), POLYMAC_ROW(1), POLYMAC_ROW(2),
                                POLYMAC_ROW(3), POLYMAC_ROW(4)};
        const struct r26v8 s = {POLYMAC_ROW(4), POLYMAC_ROW(5), POLYMAC_ROW(6),
                                POLYMAC_ROW(7), POLYMAC_ROW(8)};
#undef POLYMAC_ROW
        for (; ngroups; ngroups--, in += 128)
            h = polymac_r26v8_step(polymac_r26v8_mul(h, r, s), in, hib);
    }
    /* last step: each lane times its own power, then the lanes summed */
    polymac_r26v8_last(h26, table, h);
}

/* The 8-lane table from the 4-lane one (lanes r^4, r^2, r^3, r): one
 * vector step, [r^4, r^4, r^3, r^3, r^2, r^2, r, r] times
 * [r^4, 1, r^4, 1, r^4, 1, r^4, 1] = [r^8, r^4, r^7, r^3, r^6, r^2, r^5, r],
 * so r^1..r^4 are computed once per key even when a state first needs
 * four lanes and later eight. */
static inline void polymac_table8(uint64_t table8[9 * 8], const uint64_t table4[9 * 4])
{
    const __m512i pairs = _mm512_setr_epi64(0, 0, 2, 2, 1, 1, 3, 3);
    const __m512i one = _mm512_set1_epi64(1), zero = _mm512_setzero_si512();
    const struct r26v4 t = polymac_r26v4_load(table4);
#define POLYMAC_X(v) _mm512_permutexvar_epi64(pairs, _mm512_castsi256_si512(v))
#define POLYMAC_Y(i, odd) \
    _mm512_mask_blend_epi64(0xaa, _mm512_set1_epi64((long long)table4[(i) * 4]), odd)
    const struct r26v8 x = {POLYMAC_X(t.l0), POLYMAC_X(t.l1), POLYMAC_X(t.l2),
                            POLYMAC_X(t.l3), POLYMAC_X(t.l4)};
    const struct r26v8 y = {POLYMAC_Y(0, one), POLYMAC_Y(1, zero), POLYMAC_Y(2, zero),
                            POLYMAC_Y(3, zero), POLYMAC_Y(4, zero)};
#undef POLYMAC_X
#undef POLYMAC_Y
    polymac_r26v8_store_power(table8, polymac_r26v8_carry(polymac_r26v8_mul(x, y, polymac_r26v8_fives(y))));
}

/* Powers level 4: table4; level 8: table8 as well, from table4. */
POLYMAC_SIMD_INLINE void polymac_powers_x86_avx512(void *ks, uint32_t level)
{
    struct avx512_state *st = ks;
    if (st->v.s.powers < 4)
        polymac_r26vec_table4(st->table4, &st->v.s.sc);
    if (level == 8)
        polymac_table8(st->table8, st->table4);
}

POLYMAC_SIMD_INLINE void polymac_to_vec_x86_avx512(void *ks)
{
    polymac_r26vec_to_vec(&((struct avx512_state *)ks)->v);
}

static void polymac_to_r64_x86_avx512(void *ks)
{
    polymac_r26vec_to_r64(&((struct avx512_state *)ks)->v);
}

/* The tables as far as a call made them. */
static void polymac_wipe_x86_avx512(void *ks, size_t n)
{
    const struct avx512_state *st = ks;
    if (n == sizeof *st && st->v.s.powers < 8)
        n = offsetof(struct avx512_state, table8);
    polymac_r26vec_wipe_state(ks, n);
}

/* The loops: whole groups of four (the skeleton gives up to three blocks
 * left to the scalar code); eight lanes take every block, whatever
 * nblocks mod 8, with or without the two-group loop. */
static size_t polymac_loop4_x86_avx512(void *ks, const uint8_t *in, size_t nblocks,
                                       uint32_t hibit)
{
    struct avx512_state *st = ks;
    polymac_r26vec_core4(st->v.h26, st->table4, NULL, NULL, 0, in, nblocks / 4, hibit);
    return nblocks & ~(size_t)3;
}

static inline __attribute__((always_inline)) size_t
polymac_eight_x86_avx512(void *ks, const uint8_t *in, size_t nblocks, uint32_t hibit, int two)
{
    struct avx512_state *st = ks;
    polymac_core8(st->v.h26, st->table8, in, nblocks, hibit, two);
    return nblocks;
}

static size_t polymac_loop8_x86_avx512(void *ks, const uint8_t *in, size_t nblocks,
                                       uint32_t hibit)
{
    return polymac_eight_x86_avx512(ks, in, nblocks, hibit, 0);
}

static size_t polymac_loop16_x86_avx512(void *ks, const uint8_t *in, size_t nblocks,
                                        uint32_t hibit)
{
    return polymac_eight_x86_avx512(ks, in, nblocks, hibit, 1);
}

/* The three vector paths, as the skeleton runs them: the same state,
 * radix and powers, each its own level and loop (blocks() below applies
 * the break-evens of each level). */
#define POLYMAC_AVX512_PATH(lvl, loopfn)                                     \
    {                                                                        \
        .level = (lvl), .loop = (loopfn), .powers = polymac_powers_x86_avx512, \
        .to_vec = polymac_to_vec_x86_avx512, .to_r64 = polymac_to_r64_x86_avx512, \
        .wipe = polymac_wipe_x86_avx512, .small = sizeof(struct polymac_simd),  \
        .state = sizeof(struct avx512_state),                                \
    }
static const struct polymac_simd_kernel polymac_simd4_x86_avx512 =
    POLYMAC_AVX512_PATH(4, polymac_loop4_x86_avx512);
static const struct polymac_simd_kernel polymac_simd8_x86_avx512 =
    POLYMAC_AVX512_PATH(8, polymac_loop8_x86_avx512);
static const struct polymac_simd_kernel polymac_simd16_x86_avx512 =
    POLYMAC_AVX512_PATH(8, polymac_loop16_x86_avx512);
#undef POLYMAC_AVX512_PATH

/* Out of line, each its own function, so that a short message pays for
 * no vector set-up and a message leaves only the frame of the path it
 * took. */
#define POLYMAC_AVX512_VECTOR(name, k)                                        \
    static __attribute__((noinline)) void name(struct avx512_state *st, const uint8_t *in, \
                                               size_t nblocks, uint32_t hibit) \
    {                                                                         \
        polymac_simd_vector(st, &st->v.s, &(k), in, nblocks, hibit);          \
    }
POLYMAC_AVX512_VECTOR(polymac_vector4_x86_avx512, polymac_simd4_x86_avx512)
POLYMAC_AVX512_VECTOR(polymac_vector8_x86_avx512, polymac_simd8_x86_avx512)
POLYMAC_AVX512_VECTOR(polymac_vector16_x86_avx512, polymac_simd16_x86_avx512)
#undef POLYMAC_AVX512_VECTOR

static void polymac_init_x86_avx512(void *ks, const uint8_t r[16])
{
    polymac_simd_init(&((struct avx512_state *)ks)->v.s, r);
}

static void polymac_blocks_x86_avx512(void *ks, const uint8_t *in, size_t nblocks,
                                      uint32_t hibit)
{
    struct avx512_state *st = ks;
    struct polymac_simd *s = &st->v.s;

    if (polymac_simd_takes(s, nblocks, POLYMAC_AVX512_MIN8_COLD, POLYMAC_AVX512_MIN8_WARM, 8)) {
        /* the two-group loop: more than eight groups after the first */
        if (nblocks > 64) {
            polymac_vector16_x86_avx512(st, in, nblocks, hibit);
            polymac_x86_burn(POLYMAC_AVX512_VECTOR16_STACK);
        } else {
            polymac_vector8_x86_avx512(st, in, nblocks, hibit);
            polymac_x86_burn(POLYMAC_AVX512_VECTOR8_STACK);
        }
    } else if (polymac_simd_takes(s, nblocks, POLYMAC_AVX512_MIN4_COLD,
                                  POLYMAC_AVX512_MIN4_WARM, 4)) {
        polymac_vector4_x86_avx512(st, in, nblocks, hibit);
        polymac_x86_burn(POLYMAC_AVX512_VECTOR4_STACK);
    } else {
        polymac_simd_scalar(st, s, &polymac_simd4_x86_avx512, in, nblocks, hibit);
    }
}

static void polymac_emit_x86_avx512(void *ks, uint8_t tag[16], const uint8_t s[16])
{
    struct avx512_state *st = ks;
    polymac_simd_emit(st, &st->v.s, &polymac_simd4_x86_avx512, tag, s);
}

/* the batch entry: two messages at a time in scalar radix 2^64, as
 * x86-avx2's (without one, a batch of short messages costs more than
 * polymac_auth one by one) */
#define POLYMAC_PAIRS_BURN polymac_x86_burn
#include "../generic/r64_pairs.h"

/* Its functions zero their own stack (burn.h), the pairs' too. */
POLYMAC_SIMD_REGISTER(x86_avx512, "x86-avx512", POLYMAC_CPU_X86_AVX512F, AVX512_COLD,
                      .cpu_avoid = POLYMAC_CPU_X86_ZMM_DOWNCLOCK,
                      .stack_bytes = 0, .lanes = &polymac_pairs_lanes);

