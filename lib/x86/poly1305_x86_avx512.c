/* poly1305_x86_avx512.c -- AVX-512F kernel: eight lanes in radix 2^26,
 *                          four-lane AVX2 and scalar radix 2^64 for less */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include "r26vec.h"
#include "burn.h"
#include "../kernels.h"

/* tables first, each a whole number of cache lines, for aligned rows */
struct avx512_state {
    uint64_t table8[9 * 8];   /* r^8, r^4, r^7, r^3, r^6, r^2, r^5, r^1 */
    uint64_t table4[9 * 4];   /* r^4, r^2, r^3, r^1 by lane (r26vec.h) */
    struct polymac_r26vec_head hd;
};
_Static_assert(sizeof(struct avx512_state) <= POLYMAC_KS_BYTES, "state fits");

/*
 * Break-evens, in blocks per call.  Below MIN4 the scalar radix-2^64 code
 * runs, from MIN4 the four-lane core, from MIN8 the eight-lane one.  COLD
 * applies while the powers the path needs are not yet computed (MIN8_COLD
 * also while only the four-lane ones are: conservative), WARM once they
 * are.  SCALAR_MAX, the front end's scalar one-shot limit, follows
 * MIN4_COLD.  Measured on Intel Emerald Rapids as docs/tuning.md
 * describes (polymac_auth per kernel for MIN4_COLD, two builds with the
 * threshold forced for the others).
 */
#ifndef POLYMAC_AVX512_MIN4_COLD
#define POLYMAC_AVX512_MIN4_COLD 36
#endif
#ifndef POLYMAC_AVX512_MIN4_WARM
#define POLYMAC_AVX512_MIN4_WARM 4
#endif
#ifndef POLYMAC_AVX512_MIN8_COLD
#define POLYMAC_AVX512_MIN8_COLD 46
#endif
#ifndef POLYMAC_AVX512_MIN8_WARM
#define POLYMAC_AVX512_MIN8_WARM 5
#endif
#ifndef POLYMAC_AVX512_SCALAR_MAX
#define POLYMAC_AVX512_SCALAR_MAX (POLYMAC_AVX512_MIN4_COLD * 16 - 1)
#endif
_Static_assert(POLYMAC_AVX512_MIN4_COLD >= 4 && POLYMAC_AVX512_MIN4_WARM >= 4 &&
               POLYMAC_AVX512_MIN8_COLD >= 1 && POLYMAC_AVX512_MIN8_WARM >= 1,
               "break-even below one group");

#define polymac_z_i      __m512i
#define polymac_z_add    _mm512_add_epi64
#define polymac_z_and    _mm512_and_si512
#define polymac_z_or     _mm512_or_si512
#define polymac_z_srli   _mm512_srli_epi64
#define polymac_z_slli   _mm512_slli_epi64
#define polymac_z_mul    _mm512_mul_epu32
#define polymac_z_set1   _mm512_set1_epi64
#define polymac_z_loadu(p) _mm512_loadu_si512((const void *)(p))
#define polymac_z_hsum(v) ((uint64_t)_mm512_reduce_add_epi64(v))

/* x with its 64-bit lanes moved up by n (0..7), zeros shifted in. */
static inline __m512i polymac_lanes_up(__m512i x, unsigned n)
{
    const __m512i iota = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
    __m512i idx = _mm512_sub_epi64(iota, _mm512_set1_epi64((long long)n));
    return _mm512_maskz_permutexvar_epi64((__mmask8)(0xffu << n), idx, x);
}

/*
 * Eight lanes: polymac_r26vec_core4 with 512-bit vectors and r^8 (the
 * bounds there hold unchanged: each lane's arithmetic is the same).  Two
 * 64-byte loads hold blocks 0..3 and 4..7; unpacking 64-bit halves leaves
 * the lanes in the block order 0, 4, 1, 5, 2, 6, 3, 7, which table8
 * follows.
 *
 * Any nblocks >= 1: when it is not a multiple of eight, the first group
 * starts with k = -nblocks mod 8 zero blocks that are not in the message
 * (no hibit either), and h enters with block k, the first real one.  Zero
 * blocks add nothing and block k gets the weight of a first block, r^n,
 * so the sum is unchanged, and no block is left over for a four-lane pass
 * and a scalar tail (each costs an extra final step, more than the
 * multiplications the zero lanes waste).  Masked loads read only the
 * message's bytes.  k depends on the length alone: no secret is involved.
 */
static inline __attribute__((always_inline)) void
polymac_core8(uint64_t h26[5], const uint64_t table[9 * 8], const uint8_t *in, size_t nblocks,
              uint32_t hibit, const int two)
{
    /* lane of block j, in the unpacked order */
    static const uint8_t lane_of[8] = {0, 2, 4, 6, 1, 3, 5, 7};
    const __m512i mask = _mm512_set1_epi64(POLYMAC_R26VEC_MASK);
    const __m512i hib = _mm512_set1_epi64(hibit ? (1 << 24) : 0);
    const unsigned k = (unsigned)(0 - nblocks) & 7;
    size_t ngroups = nblocks / 8 + (k != 0);
    __m512i r0, r1, r2, r3, r4, s1, s2, s3, s4;
    __m512i h0, h1, h2, h3, h4, d0, d1, d2, d3, d4;
    __m512i a, b, hb;

    /* lane 0 of each row is r^8: broadcast it for the loop */
    r0 = _mm512_set1_epi64((long long)table[0 * 8]);
    r1 = _mm512_set1_epi64((long long)table[1 * 8]);
    r2 = _mm512_set1_epi64((long long)table[2 * 8]);
    r3 = _mm512_set1_epi64((long long)table[3 * 8]);
    r4 = _mm512_set1_epi64((long long)table[4 * 8]);
    s1 = _mm512_set1_epi64((long long)table[5 * 8]);
    s2 = _mm512_set1_epi64((long long)table[6 * 8]);
    s3 = _mm512_set1_epi64((long long)table[7 * 8]);
    s4 = _mm512_set1_epi64((long long)table[8 * 8]);
    {
        const __mmask8 at = (__mmask8)(1u << lane_of[k]);
        h0 = _mm512_maskz_set1_epi64(at, (long long)h26[0]);
        h1 = _mm512_maskz_set1_epi64(at, (long long)h26[1]);
        h2 = _mm512_maskz_set1_epi64(at, (long long)h26[2]);
        h3 = _mm512_maskz_set1_epi64(at, (long long)h26[3]);
        h4 = _mm512_maskz_set1_epi64(at, (long long)h26[4]);
    }

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

    {
        __m512i lo = _mm512_unpacklo_epi64(a, b);
        __m512i hi = _mm512_unpackhi_epi64(a, b);
        POLYMAC_R26VEC_ADD_MSG(polymac_z_, h, lo, hi, mask, hb);
    }
    ngroups--;                  /* groups still to load */

    /*
     * Long inputs: two groups per carry chain, h = (h r^8 + m) r^8 + m'
     * computed as h r^16 + m r^8 + m'.  The carry chain is a quarter of a
     * step's operations and this halves it: 12% faster on that Xeon for the
     * price of r^16 (r^8 squared in scalar code, per call rather than
     * in the state, which has no room left for it).  Bounds: limbs of
     * r^16 below 2^26 + 2^12 and fives below 2^28.33 as carry_out leaves
     * them (r26vec.h), so the two products each stay below 2^57.8, their
     * sum below 2^59, inside what the carry chain handles (r26vec.h).
     */
    if (two && ngroups >= 8) {      /* two: the caller wants this loop */
        /* r^16 in a 72-byte array of this frame, and r^8 in the table,
         * broadcast at each product (embedded broadcast operands of
         * vpmuludq, POLYMAC_R26VEC_MULACC): with both powers in registers
         * beside h, m and the sums, GCC spilled into a 3 KiB frame, which
         * the kernel then zeroed after every call (burn.h) */
        uint64_t r16[9];
        __m512i m0, m1, m2, m3, m4;

        polymac_r26vec_square(r16, table, 8);
        for (; ngroups >= 2; ngroups -= 2) {
            __m512i lo, hi;
            a = _mm512_loadu_si512((const void *)in);
            b = _mm512_loadu_si512((const void *)(in + 64));
            lo = _mm512_unpacklo_epi64(a, b);
            hi = _mm512_unpackhi_epi64(a, b);
            m0 = m1 = m2 = m3 = m4 = _mm512_setzero_si512();
            POLYMAC_R26VEC_ADD_MSG(polymac_z_, m, lo, hi, mask, hib);
            POLYMAC_R26VEC_MULACC(polymac_z_, d, m, table, 8);
            POLYMAC_R26VEC_MULADD(polymac_z_, d, h, r16, 1);
            POLYMAC_R26VEC_CARRY(polymac_z_, d0, d1, d2, d3, d4, mask);
            h0 = d0; h1 = d1; h2 = d2; h3 = d3; h4 = d4;
            a = _mm512_loadu_si512((const void *)(in + 128));
            b = _mm512_loadu_si512((const void *)(in + 192));
            lo = _mm512_unpacklo_epi64(a, b);
            hi = _mm512_unpackhi_epi64(a, b);
            POLYMAC_R26VEC_ADD_MSG(polymac_z_, h, lo, hi, mask, hib);
            in += 256;
        }
    }
    for (; ngroups; ngroups--) {
        __m512i lo, hi;
        POLYMAC_R26VEC_MUL(polymac_z_, d, h, r, s);
        POLYMAC_R26VEC_CARRY(polymac_z_, d0, d1, d2, d3, d4, mask);
        h0 = d0; h1 = d1; h2 = d2; h3 = d3; h4 = d4;
        a = _mm512_loadu_si512((const void *)in);
        b = _mm512_loadu_si512((const void *)(in + 64));
        lo = _mm512_unpacklo_epi64(a, b);
        hi = _mm512_unpackhi_epi64(a, b);
        POLYMAC_R26VEC_ADD_MSG(polymac_z_, h, lo, hi, mask, hib);
        in += 128;
    }

    /* last step: each lane times its own power, then the lanes summed */
    POLYMAC_R26VEC_LAST(polymac_z_, table, 8, h, h26);
}

static inline void polymac_store8(uint64_t *p, __m512i v)
{
    _mm512_storeu_si512((void *)p, v);
}

/* The 8-lane table from the 4-lane one (lanes r^4, r^2, r^3, r): one
 * vector step, [r^4, r^4, r^3, r^3, r^2, r^2, r, r] times
 * [r^4, 1, r^4, 1, r^4, 1, r^4, 1] = [r^8, r^4, r^7, r^3, r^6, r^2, r^5, r],
 * so r^1..r^4 are computed once per key even when a state first needs
 * four lanes and later eight. */
static inline void polymac_table8(uint64_t table8[9 * 8], const uint64_t table4[9 * 4])
{
    const __m512i mask = _mm512_set1_epi64(POLYMAC_R26VEC_MASK);
    const __m512i pairs = _mm512_setr_epi64(0, 0, 2, 2, 1, 1, 3, 3);
    const __m512i one = _mm512_set1_epi64(1);
    const __m512i zero = _mm512_setzero_si512();
    __m512i x0, x1, x2, x3, x4, y0, y1, y2, y3, y4, t1, t2, t3, t4;
    __m512i p0, p1, p2, p3, p4;

#define POLYMAC_X(i) _mm512_permutexvar_epi64(pairs, _mm512_castsi256_si512( \
        _mm256_loadu_si256((const __m256i *)(table4 + (i) * 4))))
#define POLYMAC_Y(i, odd) _mm512_mask_blend_epi64(0xaa, \
        _mm512_set1_epi64((long long)table4[(i) * 4]), odd)
    x0 = POLYMAC_X(0); x1 = POLYMAC_X(1); x2 = POLYMAC_X(2);
    x3 = POLYMAC_X(3); x4 = POLYMAC_X(4);
    y0 = POLYMAC_Y(0, one); y1 = POLYMAC_Y(1, zero); y2 = POLYMAC_Y(2, zero);
    y3 = POLYMAC_Y(3, zero); y4 = POLYMAC_Y(4, zero);
#undef POLYMAC_X
#undef POLYMAC_Y
    POLYMAC_R26VEC_FIVES(polymac_z_, t, y);
    POLYMAC_R26VEC_MUL(polymac_z_, p, x, y, t);
    POLYMAC_R26VEC_CARRY(polymac_z_, p0, p1, p2, p3, p4, mask);
    POLYMAC_R26VEC_STORE_ROWS(polymac_z_, polymac_store8, table8, 8, p);
}

/* Makes sure the tables hold the powers for want lanes (4 or 8).  The
 * level read from the state is only compared: garbage reads as none. */
static void polymac_powers_x86_avx512(struct avx512_state *st, unsigned want)
{
    unsigned have = st->hd.powers;

    if (have == 8 || have == want)
        return;
    if (have != 4)
        polymac_r26vec_table4(st->table4, &st->hd.r64);
    if (want == 8)
        polymac_table8(st->table8, st->table4);
    st->hd.powers = want;
}

/* The depth of dead stack each vector path leaves, zeroed after it
 * (burn.h): pushes, the largest realignment, the frame and the 8-byte
 * call of polymac_powers_x86_avx512 (GCC 12: 48 + 56 + 128 with the
 * two-group loop, r^16 among its 128; 32 + 56 without it; 48 + 24 + 32
 * for four lanes), rounded up to whole vectors. */
#ifndef POLYMAC_AVX512_VECTOR16_STACK
#define POLYMAC_AVX512_VECTOR16_STACK 256
#endif
#ifndef POLYMAC_AVX512_VECTOR8_STACK
#define POLYMAC_AVX512_VECTOR8_STACK 128
#endif
#ifndef POLYMAC_AVX512_VECTOR4_STACK
#define POLYMAC_AVX512_VECTOR4_STACK 128
#endif

static void polymac_init_x86_avx512(void *ks, const uint8_t r[16])
{
    struct avx512_state *st = ks;
    polymac_r26vec_init(&st->hd, r);
}

/* The vector paths, out of line: inlined, their register and stack set-up
 * would be paid by every short message too.  Three functions, so that a
 * message leaves only the frame of the path it took: the two-group loop
 * of core8 (more than eight groups after the first, nblocks > 64) keeps
 * r^16 on the stack; eight lanes without it need none. */
static inline __attribute__((always_inline)) void
polymac_eight_x86_avx512(struct avx512_state *st, const uint8_t *in, size_t nblocks,
                         uint32_t hibit, const int two)
{
    polymac_r26vec_to26(&st->hd);
    /* eight lanes take every block, whatever nblocks mod 8 */
    polymac_powers_x86_avx512(st, 8);
    polymac_core8(st->hd.h26, st->table8, in, nblocks, hibit, two);
}

static __attribute__((noinline)) void
polymac_vector16_x86_avx512(struct avx512_state *st, const uint8_t *in, size_t nblocks,
                            uint32_t hibit)
{
    polymac_eight_x86_avx512(st, in, nblocks, hibit, 1);
}

static __attribute__((noinline)) void
polymac_vector8_x86_avx512(struct avx512_state *st, const uint8_t *in, size_t nblocks,
                           uint32_t hibit)
{
    polymac_eight_x86_avx512(st, in, nblocks, hibit, 0);
}

static __attribute__((noinline)) void
polymac_vector4_x86_avx512(struct avx512_state *st, const uint8_t *in, size_t nblocks,
                           uint32_t hibit)
{
    polymac_r26vec_to26(&st->hd);
    polymac_powers_x86_avx512(st, 4);
    polymac_r26vec_core4(st->hd.h26, st->table4, NULL, NULL, 0, in, nblocks / 4, hibit);
    /* up to three blocks are left: the scalar code takes them, and h
     * stays in radix 2^64 */
    if (nblocks % 4) {
        polymac_r26vec_to64(&st->hd);
        polymac_r64_blocks(&st->hd.r64, in + (nblocks & ~(size_t)3) * 16,
                           nblocks % 4, hibit);
    }
}

static void polymac_blocks_x86_avx512(void *ks, const uint8_t *in, size_t nblocks,
                                      uint32_t hibit)
{
    struct avx512_state *st = ks;
    unsigned have = st->hd.powers;
    const uint32_t seen = st->hd.seen;
    const int four = nblocks >= POLYMAC_AVX512_MIN4_WARM
                     && (have == 4 || have == 8
                         || polymac_seen_reaches(seen, nblocks, POLYMAC_AVX512_MIN4_COLD));
    const int eight = nblocks >= POLYMAC_AVX512_MIN8_WARM
                      && (have == 8 || polymac_seen_reaches(seen, nblocks, POLYMAC_AVX512_MIN8_COLD));

    if (eight && nblocks > 64) {
        polymac_vector16_x86_avx512(st, in, nblocks, hibit);
        polymac_x86_burn(POLYMAC_AVX512_VECTOR16_STACK);
        return;
    }
    if (eight) {
        polymac_vector8_x86_avx512(st, in, nblocks, hibit);
        polymac_x86_burn(POLYMAC_AVX512_VECTOR8_STACK);
        return;
    }
    if (four) {
        polymac_vector4_x86_avx512(st, in, nblocks, hibit);
        polymac_x86_burn(POLYMAC_AVX512_VECTOR4_STACK);
        return;
    }
    polymac_r26vec_scalar(&st->hd, in, nblocks, hibit);
}

/* Out of line for the same reason as the vector paths. */
static __attribute__((noinline)) void polymac_wipe_all_x86_avx512(struct avx512_state *st,
                                                                  unsigned have)
{
    if (have == 8) {
        polymac_r26vec_wipe(st, sizeof *st);
    } else {
        polymac_r26vec_wipe(st->table4, sizeof st->table4);
        polymac_r26vec_wipe(&st->hd, sizeof st->hd);
    }
}

static void polymac_emit_x86_avx512(void *ks, uint8_t tag[16], const uint8_t s[16])
{
    struct avx512_state *st = ks;
    unsigned have = st->hd.powers;

    polymac_r26vec_to64(&st->hd);
    polymac_r64_tag(&st->hd.r64, tag, s);
    /* wipe the tables only as far as a call filled them; h26 holds
     * secrets only once a vector path ran, which also set the level */
    if (have == 8 || have == 4)
        polymac_wipe_all_x86_avx512(st, have);
    else
        polymac_wipe(&st->hd.r64, sizeof st->hd.r64);
}

const struct polymac_kernel polymac_kernel_x86_avx512 = {
    .name = "x86-avx512",
    .cpu_required = POLYMAC_CPU_X86_AVX512F,
    .cpu_avoid = POLYMAC_CPU_X86_ZMM_DOWNCLOCK,
    .init = polymac_init_x86_avx512,
    .blocks = polymac_blocks_x86_avx512,
    .emit = polymac_emit_x86_avx512,
    .scalar_max = POLYMAC_AVX512_SCALAR_MAX,
    .stack_bytes = 0,            /* its functions zero their own (burn.h) */
};

#ifdef POLYMAC_TEST_KERNELS
/* test builds only: h as given, in radix 2^64 or in h26
 * (test/test_inject.c) */
int polymac_test_set_h_x86_avx512(void *ks, const struct polymac_test_h *h)
{
    struct avx512_state *st = ks;
    return polymac_r26vec_test_set_h(&st->hd, h);
}
#endif
