/* poly1305_x86_avx512ifma.c -- x86-64 kernel: radix 2^44 with AVX-512 IFMA, 16 blocks in flight */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include <immintrin.h>

#include "../simd/skeleton.h"
#include "burn.h"
#include "hsum.h"
#include "tuning.h"
#include "poly1305_x86_avx512ifma_arith.h"
#include "../registry.h"

/*
 * The kernel in three files: its arithmetic (radix 2^44 in eight lanes,
 * the technique and the carry bounds: poly1305_x86_avx512ifma_arith.h),
 * its stream and one-shot paths (here) and its batch lanes
 * (poly1305_x86_avx512ifma_lanes.h).
 *
 * Between calls h lives in radix 2^64 (the skeleton's struct polymac_simd,
 * simd/skeleton.h), where short calls run the scalar code of r64.h
 * unchanged, except in a streamed message: from its second vector call
 * on, the sixteen lane accumulators stay in the state unmerged (the
 * skeleton's vec = 1: the lanes are IFMA's vector form of h), so that a
 * call of a stream costs what the same blocks cost inside one long
 * message, without a merge (lane products, a horizontal sum and two radix
 * conversions) on the serial chain from one call to the next.  Short
 * calls of a stream (fewer than POLYMAC_IFMA_LIVE blocks) then run
 * the scalar code on a pending part beside the lanes (ifma_short).
 */

/*
 * The break-evens, in blocks per call, between the scalar radix-2^64 code
 * and the vector path (simd/skeleton.h).  Each is the CPU's row
 * (x86/tuning.c); a definition on the command line fixes it instead
 * (lab/tune's forced builds).
 *   COLD: the first vector call for a key, which also computes
 *         r^1..r^16; the blocks the scalar code took earlier count.
 *   WARM: the powers exist and the accumulators are not live (a warm call
 *         makes them live, and the merge moves into emit).
 *   LIVE: the accumulators are live (a stream after its first vector
 *         call): ifma_absorb from here, ifma_short below, which keeps
 *         t + n below 16 for its n < LIVE, so LIVE is at most 16 (the
 *         rows are checked; ifma_live_min clamps what it reads all the same).
 */
#ifndef POLYMAC_IFMA_COLD
#define POLYMAC_IFMA_COLD (polymac_x86_tuning()->ifma_cold)
#endif
#ifndef POLYMAC_IFMA_WARM
#define POLYMAC_IFMA_WARM (polymac_x86_tuning()->ifma_warm)
#endif
#ifndef POLYMAC_IFMA_LIVE
#define POLYMAC_IFMA_LIVE (polymac_x86_tuning()->ifma_live)
#endif
/* AHEAD: the fewest blocks before an AEAD's vector span (ifma_spans_one)
 * for which the powers are made before the scalar walk of those blocks
 * rather than in ifma_oneshot after it; a compiled constant, chosen by
 * polymac-ab (docs/log.md, "The AAD's walk beside the powers"). */
#ifndef POLYMAC_IFMA_AHEAD
#define POLYMAC_IFMA_AHEAD 2
#endif
static inline size_t ifma_live_min(void)
{
    const size_t n = POLYMAC_IFMA_LIVE;
    return n <= 16 ? n : 16;
}

struct ifma_state {
    /* r; h while sm.vec != 1; whether the powers exist (level 1: pw and
     * s16 hold r^1..r^16); the blocks seen before them */
    struct polymac_simd sm;
    /* with sm.vec == 1, the lanes live: h = V r^t + (sm.sc's h if
     * pend == 1), V the lanes in v.  Only compared, and t is read masked,
     * so a forged value picks one of the stored powers. */
    uint32_t pend, t;
    /* pw[set][v][lane]: limbs v = r0, r1, r2 of r^(16 - lane) (set A, 0)
     * and of r^(8 - lane) (set B, 1): the power by which the block in that
     * lane of the last group is multiplied.  s1 = 20 r1 and s2 = 20 r2 are
     * recomputed on load (two IFMAs off the critical path), which leaves
     * room for the lanes.  64 bytes in: whole-line loads. */
    uint64_t pw[2][3][8];
    /* v[set][limb][lane]: the sixteen lane accumulators of a streamed
     * message, kept unmerged between calls: h is then the sum over lanes
     * of v times that lane's power in pw (times r^t, plus the pending
     * part). */
    uint64_t v[2][3][8];
    /* r^16 and r^32 as r0, r1, r2, s1, s2: the factors of the main loop,
     * which reads r^32 as broadcast memory operands (ifma_groups), and
     * from which a streamed call loads r^16 with five broadcasts, spending no
     * IFMA, the port that bounds the loop, on its s1 and s2.  r^32 exists
     * from level IFMA_LEVEL32: made when the message's loops reach
     * IFMA_PAIRS_MIN groups (ifma_p32). */
    uint64_t p16[5], p32[5];
    /* the groups this message's vector loops have taken, counted from
     * when the powers are made until r^32 is (ifma_p32); only compared */
    uint32_t groups;
};

_Static_assert(sizeof(struct ifma_state) <= POLYMAC_KS_BYTES, "state fits");
_Static_assert(offsetof(struct ifma_state, pw) % 64 == 0, "pw on a line");

/* The power levels: the tables of r^1..r^16 exist (the skeleton's
 * level), and r^32 beside them. */
#define IFMA_LEVEL 1u
#define IFMA_LEVEL32 2u

/* The groups of 16 blocks a message's loops take before r^32 is made:
 * from there on, a loop takes two groups a step (ifma_groups).  A stream
 * counts the groups of all its calls, so that pieces of 1 KiB (4 groups)
 * reach the two-group step too (docs/log.md, 2026-12-02). */
#ifndef IFMA_PAIRS_MIN
#define IFMA_PAIRS_MIN 8
#endif

/* The depth of dead stack the vector calls (ifma_vector,
 * ifma_oneshot) leave, zeroed after them (burn.h): the return
 * address and 40 bytes of pushes, up to 56 of realignment and one 64-byte
 * spill in the red zone (GCC 12: neither has a frame), rounded up to
 * whole vectors.  The other functions spill no key-derived vector
 * (test_stack). */
#ifndef IFMA_VECTOR_STACK
#define IFMA_VECTOR_STACK 192
#endif


/* Lane 0 of p (r^e in every lane) as a row r0, r1, r2, s1, s2. */
IFMA_INLINE void ifma_storerow(uint64_t row[5], const struct ifma_pow *p)
{
    const __m512i v[5] = { p->r0, p->r1, p->r2, p->s1, p->s2 };
    for (unsigned i = 0; i < 5; i++)
        _mm_storel_epi64((__m128i *)(void *)&row[i], _mm512_castsi512_si128(v[i]));
}

IFMA_INLINE struct ifma_pow ifma_loadpow(const struct ifma_state *st, unsigned set)
{
    return ifma_mkpow(_mm512_loadu_si512((const void *)st->pw[set][0]),
                      _mm512_loadu_si512((const void *)st->pw[set][1]),
                      _mm512_loadu_si512((const void *)st->pw[set][2]));
}

/* r^e in every lane, 1 <= e <= 16, straight from the table: broadcast
 * loads, which use the load ports only.  e comes from the caller's block
 * count, never from the state. */
IFMA_INLINE struct ifma_pow ifma_bcastmem(const struct ifma_state *st, unsigned e)
{
    /* the mask keeps even a wrong e inside the table */
    const unsigned q = (16 - e) & 15, set = q / 8, lane = q % 8;
    return ifma_mkpow(_mm512_set1_epi64((long long)st->pw[set][0][lane]),
                      _mm512_set1_epi64((long long)st->pw[set][1][lane]),
                      _mm512_set1_epi64((long long)st->pw[set][2][lane]));
}

/* r^16 in every lane, from its row. */
IFMA_INLINE struct ifma_pow ifma_p16mem(const struct ifma_state *st)
{
    struct ifma_pow p = {
        _mm512_set1_epi64((long long)st->p16[0]), _mm512_set1_epi64((long long)st->p16[1]),
        _mm512_set1_epi64((long long)st->p16[2]), _mm512_set1_epi64((long long)st->p16[3]),
        _mm512_set1_epi64((long long)st->p16[4]),
    };
    return p;
}

IFMA_INLINE struct ifma_h ifma_loadlanes(const struct ifma_state *st, unsigned set)
{
    struct ifma_h h = {
        _mm512_loadu_si512((const void *)st->v[set][0]),
        _mm512_loadu_si512((const void *)st->v[set][1]),
        _mm512_loadu_si512((const void *)st->v[set][2]),
    };
#ifdef IFMA_RELOAD_DELAY
    /* lab/reload-slack's builds only: the reloaded lanes wait on d
     * dependent multiplications, as on a slower store forwarding */
    long long d = _mm_cvtsi128_si64(_mm512_castsi512_si128(h.h1));
    for (int i = 0; i < IFMA_RELOAD_DELAY; i++)
        __asm__("imul $1, %0, %0" : "+r"(d));
    __asm__("and $0, %0" : "+r"(d));
    h.h1 = _mm512_add_epi64(h.h1, _mm512_set1_epi64(d));
#endif
    return h;
}

IFMA_INLINE void ifma_storelanes(struct ifma_state *st, unsigned set, struct ifma_h h)
{
    _mm512_storeu_si512((void *)st->v[set][0], h.h0);
    _mm512_storeu_si512((void *)st->v[set][1], h.h1);
    _mm512_storeu_si512((void *)st->v[set][2], h.h2);
}

/* r in radix 2^44 in every lane, from the state's radix-2^64 r. */
IFMA_INLINE struct ifma_h ifma_r(const struct ifma_state *st)
{
    const uint64_t lo = st->sm.sc.r0, hi = st->sm.sc.r1;
    const struct ifma_h r = {
        _mm512_set1_epi64((long long)(lo & IFMA_M44)),
        _mm512_set1_epi64((long long)(((lo >> 44) | (hi << 20)) & IFMA_M44)),
        _mm512_set1_epi64((long long)(hi >> 24)),                /* < 2^36 */
    };
    return r;
}

/* The same r as a factor: a product by it waits on no round of the
 * powers (ifma_oneshot's leading group of one, ifma_block_r). */
IFMA_INLINE struct ifma_pow ifma_rpow(const struct ifma_state *st)
{
    const struct ifma_h r = ifma_r(st);
    return ifma_mkpow(r.h0, r.h1, r.h2);
}

/*
 * The powers of r are computed in four multiplication rounds, eight lanes
 * wide: r^2; [r^2, r, r^2, r, ...] x [r^2, r^2, 1, 1, r^2, r^2, 1, 1]
 * gives r^4..r^1 twice; x [r^4 x4, 1 x4] gives r^8..r^1; x r^8 gives
 * r^16..r^9.  A factor 1 is the limbs (1, 0, 0) with s = 0: the product
 * is the other factor, carried.  The first three rounds: r^8..r^1, lane
 * j holding r^(8 - j).
 */
IFMA_INLINE struct ifma_h ifma_powers8(const struct ifma_state *st)
{
    const uint64_t hi = st->sm.sc.r1;
    const __m512i one = _mm512_set1_epi64(1);
    const struct ifma_h r = ifma_r(st);

    /* every lane r^2, by squaring: 6 products, not 9 (faster: docs/log.md,
     * Figures moved out of lib/ comments); only its s2 is read, 20 r2 <
     * 2^41, made in scalar code */
    const __m512i z = _mm512_setzero_si512();
    const struct ifma_pow rp = { r.h0, r.h1, r.h2, z,
                                 _mm512_set1_epi64((long long)(20 * (hi >> 24))) };
    const struct ifma_h q = ifma_sqr_clamped(&rp);

    /* The powers are made in the order the final factors need them,
     * lane j of set A r^(16 - j) and of set B r^(8 - j), so that no
     * lane is moved after the last product.  Even lanes r^2, odd lanes
     * r; times r^2 or 1 in lane pairs. */
    const struct ifma_h y1 = {
        _mm512_mask_blend_epi64(0x55, r.h0, q.h0),
        _mm512_mask_blend_epi64(0x55, r.h1, q.h1),
        _mm512_mask_blend_epi64(0x55, r.h2, q.h2),
    };
    const struct ifma_h f1 = {
        _mm512_mask_blend_epi64(0x33, one, q.h0),
        _mm512_maskz_mov_epi64(0x33, q.h1),
        _mm512_maskz_mov_epi64(0x33, q.h2),
    };
    const struct ifma_h y2 = ifma_mulpow(y1, f1);

    /* y2 = r^4..r^1, r^4..r^1; times [r^4 x4, 1 x4] */
    const __m512i i0 = _mm512_setzero_si512();
    const struct ifma_h f2 = {
        _mm512_mask_blend_epi64(0x0f, one, _mm512_permutexvar_epi64(i0, y2.h0)),
        _mm512_maskz_permutexvar_epi64(0x0f, i0, y2.h1),
        _mm512_maskz_permutexvar_epi64(0x0f, i0, y2.h2),
    };
    return ifma_mulpow(y2, f2);
}

/* All four rounds, x = y r^8 = r^16..r^9 the last: stores r^1..r^16 in st
 * and returns them in registers, with r^16 in every lane for the loop. */
IFMA_INLINE void ifma_powers(struct ifma_state *st, struct ifma_pow *pa,
                             struct ifma_pow *pb, struct ifma_pow *p16)
{
    const struct ifma_h y = ifma_powers8(st);
    const __m512i i0 = _mm512_setzero_si512();
    const struct ifma_h f3 = {
        _mm512_permutexvar_epi64(i0, y.h0),
        _mm512_permutexvar_epi64(i0, y.h1),
        _mm512_permutexvar_epi64(i0, y.h2),
    };
    const struct ifma_h x = ifma_mulpow(y, f3);

    /* the main loop's r^16 straight from x, not through the tables */
    *p16 = ifma_mkpow(_mm512_permutexvar_epi64(i0, x.h0), _mm512_permutexvar_epi64(i0, x.h1),
                      _mm512_permutexvar_epi64(i0, x.h2));
    ifma_storerow(st->p16, p16);
    *pa = ifma_mkpow(x.h0, x.h1, x.h2);
    *pb = ifma_mkpow(y.h0, y.h1, y.h2);
    ifma_storepow(st->pw[0], pa);
    ifma_storepow(st->pw[1], pb);
    st->sm.powers = IFMA_LEVEL;
    st->groups = 0;
}

/* r^32's row for a loop of groups groups: made from r^16 and stored once
 * the message's loops, this one included, reach IFMA_PAIRS_MIN groups;
 * NULL before that. */
IFMA_INLINE const uint64_t *ifma_p32(struct ifma_state *st, const struct ifma_pow *p16,
                                     size_t groups)
{
    if (st->sm.powers < IFMA_LEVEL32) {
        const size_t seen = st->groups + groups;
        if (seen < IFMA_PAIRS_MIN) {
            st->groups = (uint32_t)seen;
            return NULL;
        }
        const struct ifma_pow p = ifma_pow32(p16);
        ifma_storerow(st->p32, &p);
        st->sm.powers = IFMA_LEVEL32;
    }
    return st->p32;
}

/* l (limbs of radix 2^44) in lane 0, the other lanes 0. */
IFMA_INLINE struct ifma_h ifma_lane0(const uint64_t l[3])
{
    const struct ifma_h x = {
        _mm512_maskz_set1_epi64(1, (long long)l[0]),
        _mm512_maskz_set1_epi64(1, (long long)l[1]),
        _mm512_maskz_set1_epi64(1, (long long)l[2]),
    };
    return x;
}

/*
 * Makes the lanes live (sm.vec = 1), h from radix 2^64 in lane 0 of a:
 * the k leading blocks sit in the top k lanes (ifma_load_top),
 * V = V r^16 + M for each full group, and V stays in st->v, unmerged, for
 * ifma_absorb and ifma_short to carry on from; emit merges it.
 */
IFMA_INLINE void ifma_live(struct ifma_state *st, struct ifma_h a, const struct ifma_pow *p16,
                           const uint8_t *in, size_t k, size_t groups, __m512i hb)
{
    struct ifma_h b;
    if (k > 0) {
        ifma_load_top(in, k, a, hb, &a, &b);
        in += 16 * k;
    } else {
        a = ifma_add(a, ifma_load8(in, hb));
        b = ifma_load8(in + 128, hb);
        in += 256;
        groups--;
    }
    ifma_groups(&a, &b, p16, ifma_p32(st, p16, groups), in, groups, hb, NULL);
    ifma_storelanes(st, 0, a);
    ifma_storelanes(st, 1, b);
    st->sm.vec = 1;
    st->pend = 0;
    st->t = 0;
}

/*
 * A tail of n blocks at p for a vector part of nblocks blocks, or none
 * when the two are short of two groups (ifma_oneshot's first group would
 * be its last).  Where the tail leaves a leading group of one block, that
 * group's product is by r made from r itself (ifma_oneshot), which waits
 * on no round of the powers: cheaper than the tail's blocks in the scalar
 * code after the vector part, on the chain to the tag (docs/log.md, "A
 * leading group of one block, multiplied by r itself").
 */
static inline struct ifma_tail ifma_tail_of(const uint8_t *p, size_t n, uint32_t hibit,
                                            size_t nblocks)
{
    const struct ifma_tail none = { NULL, 0, 1 }, some = { p, (unsigned)n, hibit };
    return n >= 1 && n <= 2 && nblocks + n >= 32 ? some : none;
}

/*
 * The vector part of a one-shot message (polymac_auth_x86_avx512ifma,
 * and a long span of polymac_auth_spans_x86_avx512ifma): its n = nblocks
 * = 16 G + k whole blocks from h = l (radix 2^44, from polymac_r64_to_r44,
 * joined to lane 0, the first block), with the powers made here (or
 * loaded, when an earlier span made them) and held in registers, and the
 * lanes summed at once into limbs l for polymac_r64_from_r44:
 *   G = 0: (a break-even below 16 blocks) block j goes to lane j (of A
 *          for j < 8, else of B), the other lanes hold 0, and lane j is
 *          multiplied by r^(n - j).
 *   G > 0: a leading group of k blocks (if k > 0) is multiplied by r^k;
 *          V = V r^16 + M for each further group, the first group's M
 *          added without a product; the last V is multiplied lane-wise
 *          by r^16..r^1.
 * With a tail (tl->n = 1 or 2 blocks elsewhere, G >= 2 counting them:
 * ifma_tail_of), the message is the nblocks blocks at in and then those,
 * which end its last group (ifma_load8_acc_tail).
 * Keeping the lanes for emit would only move the same sum there, behind
 * a store and reload of the lanes and the powers (measured slower at 256
 * to 512 bytes: docs/log.md, x86-avx512ifma break-evens and code).  For
 * the same reason it is not the skeleton's polymac_simd_vector (powers
 * made and stored, then the loop reloading them).
 */
IFMA_INLINE void ifma_oneshot(struct ifma_state *st, const uint8_t *in, size_t nblocks,
                              const struct ifma_tail *tl, uint64_t l[3], const int pairs)
{
    const __m512i hb = ifma_hibit(1);
    const unsigned t = tl ? tl->n : 0;
    const size_t k = (nblocks + t) % 16, groups = (nblocks + t) / 16;
    struct ifma_pow pa, pb, p16;
    struct ifma_h a, b;
    const struct ifma_h x = ifma_lane0(l);

    if (st->sm.powers >= IFMA_LEVEL) {
        pa = ifma_loadpow(st, 0);
        pb = ifma_loadpow(st, 1);
        p16 = ifma_p16mem(st);
    } else {
        ifma_powers(st, &pa, &pb, &p16);
    }
    if (groups == 0) {
        /* lane j needs r^(k - j), element 16 - k + j of pa || pb */
        a = ifma_add(x, ifma_load_part(in, k < 8 ? k : 8, hb));
        if (k > 8) {
            b = ifma_load_part(in + 128, k - 8, hb);
            ifma_final(a, ifma_shiftpow(&pa, &pb, 16 - (unsigned)k),
                       b, ifma_shiftpow(&pa, &pb, 24 - (unsigned)k), 1, l);
        } else {
            const struct ifma_pow pj = ifma_shiftpow(&pa, &pb, 16 - (unsigned)k);
            ifma_final(a, pj, a, pj, 0, l);
        }
        return;
    }
    if (k > 0) {
        /* r^1 made from r itself, not taken from the table */
        const struct ifma_pow pk = k == 1 ? ifma_rpow(st) : ifma_bcast(&pa, &pb, (unsigned)k);
        a = ifma_add(x, ifma_load_part(in, k < 8 ? k : 8, hb));
        a = ifma_mulred(a, pk, ifma_load8_acc(in + 16 * k, hb));
        if (k > 8) {
            b = ifma_load_part(in + 128, k - 8, hb);
            b = ifma_mulred(b, pk, ifma_load8_acc(in + 16 * k + 128, hb));
        } else {
            b = ifma_load8(in + 16 * k + 128, hb);
        }
    } else {
        a = ifma_add(x, ifma_load8(in, hb));
        b = ifma_load8(in + 128, hb);
    }
    in += 16 * k + 256;
    ifma_groups(&a, &b, &p16, pairs ? ifma_p32(st, &p16, groups - 1) : NULL, in, groups - 1,
                hb, tl);
    /* the final factors reloaded from the state, where ifma_powers
     * stored them: held in registers across the loop they were
     * spilled, a 328-byte frame that each call then had to zero */
    ifma_final(a, ifma_loadpow(st, 0), b, ifma_loadpow(st, 1), 1, l);
}

/* ifma_oneshot, made four times: with the two-group loop, for messages
 * of IFMA_PAIRS_MIN + 1 groups and more, and without it, each with a tail
 * and without one.  In one function the two loops made the shorter
 * messages slower on Zen 5; the tail as a run-time choice made those
 * without one slower on Intel (docs/log.md, 2026-12-02 and 2026-12-03). */
#define IFMA_ONESHOT_VARIANT(name, pairs, tail)                                  \
    __attribute__((noinline)) static void name(struct ifma_state *st,            \
                                               const uint8_t *in, size_t nblocks, \
                                               const struct ifma_tail *tl,        \
                                               uint64_t l[3])                     \
    {                                                                            \
        ifma_oneshot(st, in, nblocks, tail ? tl : NULL, l, pairs);               \
    }
IFMA_ONESHOT_VARIANT(ifma_oneshot_short, 0, 0)
IFMA_ONESHOT_VARIANT(ifma_oneshot_short_tail, 0, 1)
IFMA_ONESHOT_VARIANT(ifma_oneshot_long, 1, 0)
IFMA_ONESHOT_VARIANT(ifma_oneshot_long_tail, 1, 1)

/* The variant for nblocks blocks and the tail tl (tl->n = 0: none). */
IFMA_INLINE void ifma_oneshot_call(struct ifma_state *st, const uint8_t *in, size_t nblocks,
                                   const struct ifma_tail *tl, uint64_t l[3])
{
    if ((nblocks + tl->n) / 16 > IFMA_PAIRS_MIN) {
        if (tl->n)
            ifma_oneshot_long_tail(st, in, nblocks, tl, l);
        else
            ifma_oneshot_long(st, in, nblocks, tl, l);
    } else {
        if (tl->n)
            ifma_oneshot_short_tail(st, in, nblocks, tl, l);
        else
            ifma_oneshot_short(st, in, nblocks, tl, l);
    }
}

/*
 * The vector path of a stream while h is in radix 2^64 (the lanes are not
 * live), n = nblocks = 16 G + k blocks: the skeleton's polymac_simd_blocks
 * calls it from the break-even on.  The powers (the first vector call for
 * the key; later ones load r^16 with five broadcasts), then h from radix
 * 2^64 joins the lane of the first block and the lanes are made live
 * (ifma_live), for the next call to carry on from and emit to merge.
 * Summing them at once (as ifma_oneshot does) would cost a stream of two
 * or more vector calls a second sum of the sixteen lanes.
 */
__attribute__((noinline)) static void ifma_vector(void *ks, const uint8_t *in,
                                                  size_t nblocks, uint32_t hibit)
{
    struct ifma_state *st = ks;
    struct ifma_pow pa, pb, p16;
    uint64_t l[3];
    polymac_r64_to_r44(&st->sm.sc, l);
    if (st->sm.powers >= IFMA_LEVEL)
        p16 = ifma_p16mem(st);
    else
        ifma_powers(st, &pa, &pb, &p16);
    ifma_live(st, ifma_lane0(l), &p16, in, nblocks % 16, nblocks / 16, ifma_hibit(hibit));
}

/* The lanes' extra factor r^t, masked: a forged t picks a stored power. */
static unsigned ifma_t(const struct ifma_state *st)
{
    return st->t & 15;
}

/* The pending scalar part (pend == 1) in lane 0, radix 2^44; zero
 * without it. */
IFMA_INLINE struct ifma_h ifma_pending(const struct ifma_state *st)
{
    if (st->pend == 1) {
        uint64_t l[3];
        polymac_r64_to_r44(&st->sm.sc, l);
        return ifma_lane0(l);
    }
    const __m512i z = _mm512_setzero_si512();
    const struct ifma_h x = {z, z, z};
    return x;
}

/* V = V r^e in both sets, 1 <= e <= 16. */
IFMA_INLINE void ifma_mulpow_lanes(const struct ifma_state *st, unsigned e,
                                   struct ifma_h *a, struct ifma_h *b)
{
    const __m512i z = _mm512_setzero_si512();
    const struct ifma_h zero = {z, z, z};
    const struct ifma_pow p = ifma_bcastmem(st, e);
    *a = ifma_mulred(*a, p, zero);
    *b = ifma_mulred(*b, p, zero);
}

/*
 * The vector path while the lanes are live, n = 16 G + k blocks, with
 * h = V r^t + x (x the pending scalar part, or 0):
 *   V = V r^(t + k) plus the k leading blocks in the top k lanes, x joining
 *   the first of them (if k > 0; when t + k > 16, or k = 0 and t > 0, the
 *   factor r^t is a product of its own first), then V = V r^16 + M for
 *   each group, x joining the first block when k = 0.
 * No conversion of V, no horizontal sum: a call costs what the same blocks
 * cost inside a one-shot message, plus six loads and six stores of V,
 * which store forwarding hands from one call to the next.
 */
__attribute__((noinline)) static void ifma_absorb(struct ifma_state *st, const uint8_t *in,
                                                  size_t nblocks, uint32_t hibit)
{
    const __m512i hb = ifma_hibit(hibit);
    const size_t k = nblocks % 16, groups = nblocks / 16;
    const unsigned t = ifma_t(st);
    struct ifma_h a = ifma_loadlanes(st, 0), b = ifma_loadlanes(st, 1);
    struct ifma_h x = ifma_pending(st);
    int x_live = st->pend == 1;
    unsigned pre = t + (unsigned)k;

    if (t > 0 && (k == 0 || pre > 16)) {
        ifma_mulpow_lanes(st, t, &a, &b);
        pre = (unsigned)k;
    }
    if (k > 0) {
        const struct ifma_pow pk = ifma_bcastmem(st, pre);
        struct ifma_h ea, eb;
        ifma_load_top(in, k, x, hb, &ea, &eb);
        a = ifma_mulred(a, pk, ea);
        b = ifma_mulred(b, pk, eb);
        in += 16 * k;
        x_live = 0;
    }
    if (groups > 0) {
        const struct ifma_pow p16 = ifma_p16mem(st);
        /* x (unless it joined a leading group) joins lane 0, the first
         * block; an accumulator start may exceed 52 bits
         * (ifma_load8_acc).  Tested, not added as 0 when absent: three
         * adds on the ports the loop is bound by, every call. */
        size_t loop = groups;
        if (x_live) {
            a = ifma_mulred(a, p16, ifma_add(ifma_load8_acc(in, hb), x));
            b = ifma_mulred(b, p16, ifma_load8_acc(in + 128, hb));
            in += 256;
            loop--;
        }
        ifma_groups(&a, &b, &p16, ifma_p32(st, &p16, loop), in, loop, hb, NULL);
    }
    ifma_storelanes(st, 0, a);
    ifma_storelanes(st, 1, b);
    st->pend = 0;
    st->t = 0;
}

/*
 * A short call while the lanes are live: the blocks go through the scalar
 * radix-2^64 code into the pending part (h = V r^t + pending, so the
 * pending part is simply continued and t grows by n); the lanes are
 * neither merged nor multiplied, which costs less than a merge or a lane
 * product for one block (measured: docs/log.md, x86-avx512ifma
 * break-evens and code; POLYMAC_IFMA_LIVE).  t stays
 * below 16: before it would pass 15, V = V r^t (one product, every 12 or
 * more blocks).
 */
__attribute__((noinline)) static void ifma_short(struct ifma_state *st, const uint8_t *in,
                                                 size_t nblocks, uint32_t hibit)
{
    unsigned t = ifma_t(st);
    if (st->pend != 1) {
        st->sm.sc.h0 = st->sm.sc.h1 = st->sm.sc.h2 = 0;
        st->pend = 1;
    }
    if (t + nblocks > 15) {
        struct ifma_h a = ifma_loadlanes(st, 0), b = ifma_loadlanes(st, 1);
        if (t > 0)
            ifma_mulpow_lanes(st, t, &a, &b);
        ifma_storelanes(st, 0, a);
        ifma_storelanes(st, 1, b);
        t = 0;
    }
    polymac_r64_blocks(&st->sm.sc, in, nblocks, hibit);
    st->t = t + (unsigned)nblocks;
}

/* The skeleton's to_r64: h = V r^t + x, the live lanes multiplied by r^t
 * and their powers and summed with x into radix 2^64 (the skeleton then
 * sets sm.vec = 0). */
static void ifma_merge(void *ks)
{
    struct ifma_state *st = ks;
    const unsigned t = ifma_t(st);
    const struct ifma_pow pa = ifma_loadpow(st, 0), pb = ifma_loadpow(st, 1);
    struct ifma_h a = ifma_loadlanes(st, 0), b = ifma_loadlanes(st, 1);
    uint64_t l[3], x[3] = {0, 0, 0};
    if (t > 0)
        ifma_mulpow_lanes(st, t, &a, &b);
    if (st->pend == 1)
        polymac_r64_to_r44(&st->sm.sc, x);
    ifma_final(a, pa, b, pb, 1, l);
    /* limbs below 2^60 plus x below 2^44: within from_r44's 63 bits */
    l[0] += x[0];
    l[1] += x[1];
    l[2] += x[2];
    polymac_r64_from_r44(&st->sm.sc, l);
}

/* The skeleton's after: the dead frame of ifma_vector, zeroed at the
 * depth of the call that ran it (inlined into blocks). */
IFMA_INLINE void ifma_burn(void)
{
    polymac_x86_burn(IFMA_VECTOR_STACK);
}

/* r^16's and r^32's rows (80 bytes) */
IFMA_INLINE void ifma_wipe_rows(struct ifma_state *st)
{
    unsigned char *rows = (unsigned char *)st + offsetof(struct ifma_state, p16);
    _mm512_storeu_si512((void *)rows, _mm512_setzero_si512());
    _mm_storeu_si128((__m128i *)(void *)(rows + 64), _mm_setzero_si128());
}
_Static_assert(offsetof(struct ifma_state, p32) == offsetof(struct ifma_state, p16) + 40,
               "the rows are contiguous");

/* The skeleton's wipe, for its two lengths: small, the first line, or
 * the whole state; and the one-shot path's (polymac_auth_x86_avx512ifma):
 * the first line and the powers.  Vector stores at constant offsets, two tables per
 * loop step (as one run of stores GCC makes it rep stos, which, like
 * memset, starts slower than these stores take). */
static void ifma_wipe(void *p, size_t n)
{
    struct ifma_state *st = p;
    const __m512i z = _mm512_setzero_si512();
    _mm512_storeu_si512(p, z);
    if (n == sizeof *st) {
        for (unsigned i = 0; i < 2; i++)
            for (unsigned v = 0; v < 3; v++) {
                _mm512_storeu_si512((void *)st->pw[i][v], z);
                _mm512_storeu_si512((void *)st->v[i][v], z);
            }
        ifma_wipe_rows(st);
        st->groups = 0;
    } else if (n > 64) {
        /* the one-shot path's: the powers, no lanes */
        _mm512_storeu_si512((void *)st->pw[0][0], z);
        _mm512_storeu_si512((void *)st->pw[0][1], z);
        _mm512_storeu_si512((void *)st->pw[0][2], z);
        _mm512_storeu_si512((void *)st->pw[1][0], z);
        _mm512_storeu_si512((void *)st->pw[1][1], z);
        _mm512_storeu_si512((void *)st->pw[1][2], z);
        ifma_wipe_rows(st);
        st->groups = 0;
    }
    __asm__ __volatile__("" : : "r"(p) : "memory");
}
_Static_assert(offsetof(struct ifma_state, pw) == 64, "small is the first line");
_Static_assert(offsetof(struct ifma_state, groups) + sizeof(((struct ifma_state *)0)->groups)
                   + 4 == sizeof(struct ifma_state), "the wipe covers the state");

static const struct polymac_simd_kernel ifma_kernel = {
    .level = IFMA_LEVEL,
    /* powers, to_vec and loop are for polymac_simd_vector, which IFMA
     * does not use: ifma_vector is its whole vector path, and the live
     * lanes have their own calls (polymac_blocks_x86_avx512ifma) */
    .to_r64 = ifma_merge,
    .after = ifma_burn,
    .wipe = ifma_wipe,
    /* the powers, the lanes and the rows exist only if a vector call ran: a
     * short message does not pay for wiping them */
    .small = offsetof(struct ifma_state, pw),
    .state = sizeof(struct ifma_state),
};

static void polymac_init_x86_avx512ifma(void *ks, const uint8_t r[16])
{
    polymac_simd_init(&((struct ifma_state *)ks)->sm, r);
}


/* The skeleton's blocks (the scalar code, the first vector call), out of
 * line: a streamed call of live lanes then runs without their frame. */
__attribute__((noinline)) static void ifma_blocks_skeleton(struct ifma_state *st,
                                                           const uint8_t *in, size_t nblocks,
                                                           uint32_t hibit)
{
    /* lanes without powers: a forged state, whose tag is wrong anyway; h
     * is taken as it stands in radix 2^64, so that the lanes are never
     * written without the powers that make emit wipe them (and the
     * scalar path needs no merge) */
    if (st->sm.vec == 1)
        st->sm.vec = 0;
    polymac_simd_blocks(st, &st->sm, &ifma_kernel, ifma_vector, in, nblocks, hibit,
                        POLYMAC_IFMA_COLD, POLYMAC_IFMA_WARM);
}

/* The calls of live lanes: ifma_absorb from POLYMAC_IFMA_LIVE blocks,
 * ifma_short below; the rest through the skeleton. */
static void polymac_blocks_x86_avx512ifma(void *ks, const uint8_t *in,
                                          size_t nblocks, uint32_t hibit)
{
    struct ifma_state *st = ks;

    if (st->sm.vec == 1 && st->sm.powers >= IFMA_LEVEL) {
        if (nblocks >= ifma_live_min())
            ifma_absorb(st, in, nblocks, hibit);
        else if (nblocks > 0)
            ifma_short(st, in, nblocks, hibit);
        return;
    }
    ifma_blocks_skeleton(st, in, nblocks, hibit);
}

static void polymac_emit_x86_avx512ifma(void *ks, uint8_t tag[16], const uint8_t s[16])
{
    polymac_simd_emit(ks, &((struct ifma_state *)ks)->sm, &ifma_kernel, tag, s);
}

/*
 * The one-shot MAC (kernel.h: auth).  From the cold break-even on, the
 * whole blocks go through ifma_oneshot and h comes back as limbs in
 * registers, for the partial last block (scalar code) and the tag: no
 * state round trip of h, no skeleton, no emit.  The state holds r (which
 * ifma_powers reads) and the powers, and is wiped as emit would wipe it,
 * less the lanes a one-shot message never writes.  Shorter messages run
 * the scalar code alone.
 */
static __attribute__((noinline)) void ifma_auth_vector(uint8_t tag[16], const uint8_t *msg,
                                                       size_t len, const uint8_t key[32])
{
    _Alignas(POLYMAC_KS_ALIGN) struct ifma_state st_;
    struct ifma_state *st = &st_;
    const size_t nblocks = len / 16, rest = len % 16;
    /* the last block padded first: from the vector call to the tag, h
     * stays in registers, with no call it would be spilled across */
    uint8_t last[16];
    if (rest)
        polymac_pad_last(last, msg + (len - rest), rest);
    uint64_t l[3] = {0, 0, 0};
    polymac_clamp64(&st->sm.sc.r0, &st->sm.sc.r1, key);
    st->sm.powers = 0;
    const struct ifma_tail tl = ifma_tail_of(last, rest != 0, 0, nblocks);
    ifma_oneshot_call(st, msg, nblocks, &tl, l);
    ifma_burn();
    /* unreduced, as the tag's finish takes it; folded for a scalar block */
    uint64_t x[3];
    polymac_r64_sum44(x, l);
    polymac_wipe(l, sizeof l);
    if (rest && !tl.n) {
        polymac_r64_fold(x, x[0], x[1], x[2]);
        polymac_r64_core(x, st->sm.sc.r0, st->sm.sc.r1, last, 1, 0);
    }
    polymac_r64_finish(tag, x[0], x[1], x[2], key + 16);
    ifma_wipe(st, offsetof(struct ifma_state, v));
}

static int polymac_auth_x86_avx512ifma(uint8_t tag[16], const uint8_t *msg, size_t len,
                                       const uint8_t key[32])
{
    if (len / 16 < (size_t)POLYMAC_IFMA_COLD)
        polymac_r64_oneshot(tag, msg, len, key);
    else
        ifma_auth_vector(tag, msg, len, key);
    return 0;
}

/* The span's blocks into h (radix 2^64, in locals), r from the key inside
 * the asm block where there is one (r64_asm.h): given r as C values from
 * the state, clang 14 kept them in this frame around the vector call
 * (test_stack). */
IFMA_INLINE void ifma_r64_span(uint64_t h[3], const struct polymac_span *sp,
                               const uint8_t key[32], const struct ifma_state *st)
{
#ifdef POLYMAC_R64_SPANS
    (void)st;
    polymac_r64_spans_arch(h, sp, sp->p, sp->nblocks, 1, key);
#else
    (void)key;
    polymac_r64_core(h, st->sm.sc.r0, st->sm.sc.r1, sp->p, sp->nblocks, 1);
#endif
}

/*
 * The one-shot of a message in spans (kernel.h: auth_spans, the AEAD
 * layout): each span of the cold break-even or more through ifma_oneshot,
 * h joining lane 0 of its first block, the others (the AEAD's short AAD,
 * padded blocks and lengths) through the scalar code.  Between spans h is
 * in radix 2^64 in locals, as polymac_auth_x86_avx512ifma's after its
 * vector part: through the state, the lengths block after the vector
 * part waited on two stores and reloads of h (docs/log.md).  The state
 * holds r (which ifma_powers reads) and, after the first vector span, the
 * powers for the next, and is wiped as ifma_auth_vector's.
 */
static __attribute__((noinline)) void ifma_spans_vector(uint8_t tag[16],
                                                        const struct polymac_span sp[],
                                                        size_t n, const uint8_t key[32],
                                                        size_t cold)
{
    _Alignas(POLYMAC_KS_ALIGN) struct ifma_state st_;
    struct ifma_state *st = &st_;
    uint64_t h[3] = {0, 0, 0};
    polymac_clamp64(&st->sm.sc.r0, &st->sm.sc.r1, key);
    st->sm.powers = 0;
    for (size_t i = 0; i < n; i++) {
        const size_t nb = sp[i].nblocks;
        if (nb < cold) {
            ifma_r64_span(h, &sp[i], key, st);
            continue;
        }
        /* a last span right after this one (the AEAD's padded block
         * and lengths) ends its last group */
        const struct ifma_tail tl = ifma_tail_of(sp[n - 1].p, i + 2 == n ? sp[n - 1].nblocks : 0,
                                                 1, nb);
        uint64_t l[3];
        struct polymac_r64 x = { h[0], h[1], h[2], 0, 0 };
        polymac_r64_to_r44(&x, l);
        ifma_oneshot_call(st, sp[i].p, nb, &tl, l);
        ifma_burn();
        polymac_r64_from_r44(&x, l);
        polymac_wipe(l, sizeof l);
        h[0] = x.h0;
        h[1] = x.h1;
        h[2] = x.h2;
        if (tl.n)
            break;
    }
    polymac_r64_finish(tag, h[0], h[1], h[2], key + 16);
    ifma_wipe(st, offsetof(struct ifma_state, v));
}

/* n >= 1 spans' blocks into h (radix 2^64, in locals), as ifma_r64_span,
 * in one walk. */
IFMA_INLINE void ifma_r64_spans(uint64_t h[3], const struct polymac_span *sp, size_t n,
                                const uint8_t key[32], const struct ifma_state *st)
{
#ifdef POLYMAC_R64_SPANS
    (void)st;
    polymac_r64_spans_arch(h, sp, sp->p, sp->nblocks, n, key);
#else
    for (size_t i = 0; i < n; i++)
        ifma_r64_span(h, &sp[i], key, st);
#endif
}

/* A single block m before the vector span (an AEAD's AAD of 1 to 16
 * bytes, the usual case): h = m r into l, radix 2^44, for lane 0 of the
 * span's first block, as one vector product by r (made from r itself),
 * which runs beside the powers' first round, in place of the scalar
 * walk and its conversion (docs/log.md, "A one-block AAD as one vector
 * product by r").  Its limbs are a product's, as a lane's after any step
 * (test/unit/bounds.c). */
IFMA_INLINE void ifma_block_r(const struct ifma_state *st, const uint8_t *m, uint64_t l[3])
{
    const __m512i z = _mm512_setzero_si512();
    const struct ifma_h zero = {z, z, z};
    const struct ifma_h y = ifma_mulred(ifma_load_part(m, 1, ifma_hibit(1)), ifma_rpow(st),
                                        zero);
    l[0] = (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(y.h0));
    l[1] = (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(y.h1));
    l[2] = (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(y.h2));
}

/* ifma_spans_vector where span L alone reaches the cold break-even (the
 * AEAD's usual shape): the spans before it in one scalar walk (a single
 * block: ifma_block_r), span L (with the last span as its tail, if that
 * follows it), then the rest in one walk; straight-line, h in registers.
 * With POLYMAC_IFMA_AHEAD blocks or more before L, the powers are made
 * first and ifma_oneshot loads them: the walk, which their chain does not
 * wait on, runs beside it instead of ahead of it. */
static __attribute__((noinline)) void ifma_spans_one(uint8_t tag[16],
                                                     const struct polymac_span sp[], size_t n,
                                                     size_t L, const uint8_t key[32])
{
    _Alignas(POLYMAC_KS_ALIGN) struct ifma_state st_;
    struct ifma_state *st = &st_;
    uint64_t h[3] = {0, 0, 0}, l[3] = {0, 0, 0};
    polymac_clamp64(&st->sm.sc.r0, &st->sm.sc.r1, key);
    st->sm.powers = 0;
    if (L == 1 && sp[0].nblocks == 1) {
        ifma_block_r(st, sp[0].p, l);
    } else if (L) {
        size_t before = 0;
        for (size_t i = 0; i < L; i++)
            before += sp[i].nblocks;
        if (before >= POLYMAC_IFMA_AHEAD) {
            struct ifma_pow pa, pb, p16;
            ifma_powers(st, &pa, &pb, &p16);
        }
        ifma_r64_spans(h, sp, L, key, st);
        const struct polymac_r64 x = { h[0], h[1], h[2], 0, 0 };
        polymac_r64_to_r44(&x, l);
    }
    const size_t nb = sp[L].nblocks;
    const struct ifma_tail tl = ifma_tail_of(sp[n - 1].p, L + 2 == n ? sp[n - 1].nblocks : 0,
                                             1, nb);
    ifma_oneshot_call(st, sp[L].p, nb, &tl, l);
    ifma_burn();
    /* unreduced, as the tag's finish takes it; folded for a scalar walk */
    polymac_r64_sum44(h, l);
    polymac_wipe(l, sizeof l);
    if (!tl.n && L + 1 < n) {
        polymac_r64_fold(h, h[0], h[1], h[2]);
        ifma_r64_spans(h, sp + L + 1, n - L - 1, key, st);
    }
    polymac_r64_finish(tag, h[0], h[1], h[2], key + 16);
    ifma_wipe(st, offsetof(struct ifma_state, v));
}

/* Below the cold break-even in every span, the front end's radix-2^64
 * one-shot (as polymac_auth_x86_avx512ifma's). */
static int polymac_auth_spans_x86_avx512ifma(uint8_t tag[16], const struct polymac_span sp[],
                                             size_t n, const uint8_t key[32])
{
    const size_t cold = POLYMAC_IFMA_COLD;
    size_t longs = 0, L = 0;
    for (size_t i = 0; i < n && i < POLYMAC_SPANS_MAX; i++)
        if (sp[i].nblocks >= cold) {
            longs++;
            L = i;
        }
    if (!longs)
        return 1;
    if (longs == 1)
        ifma_spans_one(tag, sp, n, L, key);
    else
        ifma_spans_vector(tag, sp, n, key, cold);
    return 0;
}

/* the batch entry, on the arithmetic above */
#include "poly1305_x86_avx512ifma_lanes.h"

/* The down-clocking cores (lib/cpu.c) have no IFMA: nothing to avoid.
 * Its functions zero their own stack (burn.h). */
const struct polymac_kernel polymac_kernel_x86_avx512ifma = {
    .name = "x86-avx512ifma",
    .cpu_required = POLYMAC_CPU_X86_AVX512IFMA | POLYMAC_CPU_X86_AVX512F,
    .init = polymac_init_x86_avx512ifma,
    .blocks = polymac_blocks_x86_avx512ifma,
    .emit = polymac_emit_x86_avx512ifma,
    .auth = polymac_auth_x86_avx512ifma,
    .auth_spans = polymac_auth_spans_x86_avx512ifma,
    .stack_bytes = 0,
    .lanes = &ifma_lanes_entry,
};

