/* poly1305_x86_avx2.c -- AVX2 kernel: four lanes in radix 2^26 (Goll and
 *                        Gueron), scalar radix 2^64 below break-even and
 *                        for batches (two messages interleaved) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include "r26vec.h"
#include "burn.h"
#include "tuning.h"
#include "../registry.h"

/* What every message uses first (a short one wipes only v.s), then the
 * tables, then what only streams need (wiped only if a call used it). */
struct avx2_state {
    struct polymac_r26vec v;
    uint64_t table[9 * 4];    /* r^4, r^2, r^3, r^1 by lane (r26vec.h) */
    uint64_t r8[9];           /* r^8, limbs and fives, at powers level 8 */
    uint32_t lanes_live;      /* 1 while v.s.vec is 1: h = the lanes,
                                 merged (r26vec.h), and h26 is stale */
    uint32_t first;           /* 1: the vector call running made the
                                 powers (it is the message's first) */
    uint32_t lanes_used;      /* 1: a call stored lanes (emit wipes them) */
    uint32_t pad_[3];
    uint64_t lanes[5 * 4];    /* a stream's unmerged lanes */
};
_Static_assert(sizeof(struct avx2_state) <= POLYMAC_KS_BYTES, "state fits");

/* Break-evens in blocks per call, of the vector path against the scalar
 * radix-2^64 code: COLD while the powers of r are not yet computed
 * (counted over the message, simd/skeleton.h), WARM once they are.  R8:
 * the first call of at least this many blocks computes r^8 (once per
 * key) for the core's two-group loop.  Each is the CPU's row
 * (x86/tuning.c); a definition on the command line fixes it instead
 * (lab/tune's forced builds).  COLD and WARM are at least one group. */
#ifndef POLYMAC_AVX2_COLD
#define POLYMAC_AVX2_COLD (polymac_x86_tuning()->avx2_cold)
#endif
#ifndef POLYMAC_AVX2_WARM
#define POLYMAC_AVX2_WARM (polymac_x86_tuning()->avx2_warm)
#endif
#ifndef POLYMAC_AVX2_R8
#define POLYMAC_AVX2_R8 (polymac_x86_tuning()->avx2_r8)
#endif

/* The depth of dead stack the vector path leaves, zeroed after it
 * (burn.h) and after the merge outside it: the return address and 48
 * bytes of pushes, up to 24 of realignment, the frame (spills; the loop's
 * powers are broadcast from the state, r^4 at each product and r^8 once a
 * word, never stored) and
 * the 8-byte call of the merge, the deepest of GCC 12 and 14 and clang 14
 * and 19 (test/trust/burn_depths.py reads it from the library and fails
 * when this falls short), rounded up to whole vectors. */
#ifndef POLYMAC_AVX2_VECTOR_STACK
#define POLYMAC_AVX2_VECTOR_STACK 544
#endif

/* Powers level 4: the table; level 8: r^8 as well. */
POLYMAC_SIMD_INLINE void polymac_powers_x86_avx2(void *ks, uint32_t level)
{
    struct avx2_state *st = ks;
    if (st->v.s.powers < 4) {
        polymac_r26vec_table4(st->table, &st->v.s.sc);
        st->first = 1;
        st->lanes_used = 0;     /* emit reads it once powers exist */
    }
    if (level == 8)
        polymac_r26vec_square(st->r8, st->table, 4);
}

/* The lanes only if a call stored them: a one-shot message never does. */
static void polymac_wipe_x86_avx2(void *ks, size_t n)
{
    const struct avx2_state *st = ks;
    if (n == sizeof *st && st->lanes_used != 1)
        n = offsetof(struct avx2_state, lanes);
    polymac_r26vec_wipe_state(ks, n);
}

POLYMAC_SIMD_INLINE void polymac_to_vec_x86_avx2(void *ks)
{
    struct avx2_state *st = ks;
    polymac_r26vec_to_vec(&st->v);
    st->lanes_live = 0;
}

/* h back from the lanes into h26, before the scalar code or emit runs;
 * out of line, so that its vectors stay out of the short path. */
static __attribute__((noinline)) void polymac_merge_x86_avx2(struct avx2_state *st)
{
    polymac_r26v4_last(st->v.h26, st->table, polymac_r26v4_load(st->lanes));
    st->lanes_live = 0;
}

/* The depth of dead stack the merge leaves, zeroed after it where it runs
 * outside the vector path: the return address and its frame, read as
 * POLYMAC_AVX2_VECTOR_STACK is. */
#ifndef POLYMAC_AVX2_MERGE_STACK
#define POLYMAC_AVX2_MERGE_STACK 64
#endif

/* The merge only if the lanes are live (a stream's emit), zeroed after;
 * the conversion itself is scalar code in registers. */
POLYMAC_SIMD_INLINE void polymac_to_r64_x86_avx2(void *ks)
{
    struct avx2_state *st = ks;
    if (st->lanes_live == 1) {
        polymac_merge_x86_avx2(st);
        polymac_x86_burn(POLYMAC_AVX2_MERGE_STACK);
    }
    polymac_r26vec_carried_r64(&st->v);
}

POLYMAC_SIMD_INLINE size_t polymac_loop_x86_avx2(void *ks, const uint8_t *in, size_t nblocks, uint32_t hibit);

static void polymac_after_x86_avx2(void)
{
    polymac_x86_burn(POLYMAC_AVX2_VECTOR_STACK);
}

/* The depth of dead stack polymac_lanes_x86_avx2 leaves, zeroed after
 * it: the return address, its pushes and realignment, and the frame of
 * what the loop spills (the high bit, GCC 12; nothing, clang 14), read as
 * POLYMAC_AVX2_VECTOR_STACK is. */
#ifndef POLYMAC_AVX2_LANES_STACK
#define POLYMAC_AVX2_LANES_STACK 96
#endif

/* A streamed call's groups once r^8 is made: h (the lanes, or h26 in
 * lane 0) in, the loop, the lanes out unmerged, in a function of its own,
 * so that such a call costs what its blocks cost inside a one-shot
 * message (and five loads and five stores of the lanes), without the
 * vector path's set-up and its frame to zero. */
static __attribute__((noinline)) void polymac_lanes_x86_avx2(struct avx2_state *st,
                                                             const uint8_t *in, size_t ngroups,
                                                             uint32_t hibit)
{
    polymac_r26vec_core4(st->v.h26, st->table, st->r8, st->lanes, st->lanes_live == 1, in,
                         ngroups, hibit);
    st->lanes_live = 1;
}

/* The skeleton's absorb: a later call of whole groups (first is 0 after
 * the call that made the powers) from the warm break-even, the stream
 * case of polymac_loop_x86_avx2, once r^8 is made.  lanes_used is set
 * again, so that a forged state's lanes are wiped too. */
POLYMAC_SIMD_INLINE int polymac_absorb_x86_avx2(void *ks, const uint8_t *in, size_t nblocks,
                                                uint32_t hibit)
{
    struct avx2_state *st = ks;
    if (st->v.s.powers < 8 || st->first == 1 || nblocks % 4 != 0
        || nblocks < (size_t)POLYMAC_AVX2_WARM)
        return 0;
    st->lanes_used = 1;
    polymac_lanes_x86_avx2(st, in, nblocks / 4, hibit);
    polymac_x86_burn(POLYMAC_AVX2_LANES_STACK);
    return 1;
}

static const struct polymac_simd_kernel polymac_simd_x86_avx2 = {
    .level = 4,
    .powers = polymac_powers_x86_avx2,
    .to_vec = polymac_to_vec_x86_avx2,
    .to_r64 = polymac_to_r64_x86_avx2,
    .loop = polymac_loop_x86_avx2,
    .after = polymac_after_x86_avx2,
    .to_r64_burns = 1,
    .absorb = polymac_absorb_x86_avx2,
    .wipe = polymac_wipe_x86_avx2,
    .small = sizeof(struct polymac_simd),
    .state = sizeof(struct avx2_state),
};

/* Whole groups of four; the skeleton gives the rest (up to three blocks)
 * to the scalar code, cheaper than a vector step with shuffled powers. */
POLYMAC_SIMD_INLINE size_t polymac_loop_x86_avx2(void *ks, const uint8_t *in, size_t nblocks, uint32_t hibit)
{
    struct avx2_state *st = ks;
    const int warm = st->first != 1;
    st->first = 0;
    /* r^8 for the two-group loop, once a call is long enough to repay it
     * or a stream's later call has two groups */
    if (nblocks >= (size_t)POLYMAC_AVX2_R8 || (warm && nblocks >= 8))
        polymac_simd_powers(st, &st->v.s, &polymac_simd_x86_avx2, 8);
    const uint64_t *r8 = st->v.s.powers >= 8 ? st->r8 : NULL;
    /* A later call of whole groups (a streamed message) leaves the lanes
     * unmerged, so that the call costs what its blocks cost inside a
     * one-shot message (measured: docs/log.md, Constant time, self-test,
     * stack); the first vector call of a
     * message, the one-shot path, merges them. */
    const int stream = warm && nblocks % 4 == 0;
    if (!stream && st->lanes_live == 1)
        polymac_merge_x86_avx2(st);
    if (stream)
        st->lanes_used = 1;
    polymac_r26vec_core4(st->v.h26, st->table, r8, stream ? st->lanes : NULL,
                         st->lanes_live == 1, in, nblocks / 4, hibit);
    st->lanes_live = stream;
    return nblocks & ~(size_t)3;
}

POLYMAC_SIMD_FUNCTIONS(x86_avx2, struct avx2_state, v.s, polymac_simd_x86_avx2,
                       POLYMAC_AVX2_COLD, POLYMAC_AVX2_WARM)

/* the batch's short messages: two at a time in scalar radix 2^64, up to
 * 1 KiB (measured: docs/log.md); the others in the quads below */
#define POLYMAC_PAIRS_BURN polymac_x86_burn
#define POLYMAC_PAIRS_MAX 1024
#include "../generic/r64_pairs.h"

/*
 * The batch in vector lanes: four messages at a time, one a lane, each
 * multiplied by its own r and r^2 (a batch message has its own key: no
 * powers beyond r^2 to make and no lanes to sum), two blocks a lane per
 * carry chain, the cost of the one-shot's two-group step.  The quad runs
 * the whole blocks all four have, then their last blocks (the padded
 * block, hibit 0; or the AEAD's tail, hibit 1) when the four end alike;
 * each message's other blocks and its tag are scalar code.  Messages are
 * taken longest first, so that the four of a quad are close in length;
 * those with fewer than POLYMAC_AVX2_QUAD_MIN whole blocks, and the one
 * to three left over, go to the pairs (or, above their 1 KiB, the
 * one-shot; in run_h, the vector path from the cold break-even, else
 * scalar code one at a time).
 */

/* The fewest whole blocks a message of a quad has (measured: docs/log.md) */
#ifndef POLYMAC_AVX2_QUAD_MIN
#define POLYMAC_AVX2_QUAD_MIN 20
#endif
_Static_assert(POLYMAC_AVX2_QUAD_MIN >= 2, "a quad runs two-block steps");
/* The fewest whole blocks for which a quad makes r^3 and r^4 and runs
 * four blocks a carry chain (measured: docs/log.md) */
#ifndef POLYMAC_AVX2_QUAD4_MIN
#define POLYMAC_AVX2_QUAD4_MIN 64
#endif
/* ... and the fewest such messages in a batch for it: one quad of them
 * beside shorter ones did not pay for the larger frame's zeroing
 * (measured: docs/log.md) */
#ifndef POLYMAC_AVX2_QUAD4_COUNT
#define POLYMAC_AVX2_QUAD4_COUNT 8
#endif
/* The longest message the lanes take (max_len): above, the one-shot,
 * but for whole sets of four up to POLYMAC_AVX2_QUAD_MAX (max_len_full,
 * max_len_h), which a quad of four-block steps runs faster; a message
 * that long beside three short ones gains nothing in a quad (measured:
 * docs/log.md) */
#define POLYMAC_AVX2_QUAD_ANY 2048
#define POLYMAC_AVX2_QUAD_MAX 8192
/* Entries a call takes at once (the front ends hand at most 64) */
#define POLYMAC_AVX2_QUAD_RUN 64

/* One message of a batch: h from h, whole blocks at p (hibit 1), then
 * nlast blocks at last with hibit hb, the tag into out under key. */
struct polymac_quad_msg {
    const uint8_t *p, *last, *key;
    uint8_t *out;
    size_t whole, nlast;
    uint64_t h[3], hb;
};

/* Two vectors of one block a lane, message j's 16 bytes at p[j]: lanes
 * 0 and 2 in a, 1 and 3 in b, which split's unpack leaves in the order
 * 0, 1, 2, 3. */
static inline __attribute__((always_inline)) void
polymac_quad_load(__m256i *a, __m256i *b, const uint8_t *p0, const uint8_t *p1,
                  const uint8_t *p2, const uint8_t *p3)
{
    *a = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)p0)),
                                 _mm_loadu_si128((const __m128i *)p2), 1);
    *b = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)p1)),
                                 _mm_loadu_si128((const __m128i *)p3), 1);
}

/* d + m k for the block of each lane at p0..p3, k each lane's own
 * multiplier (the nine rows of a power in the table), each limb of the
 * blocks split where its round reads it. */
static inline __attribute__((always_inline)) struct r26v4
polymac_quad_mk(struct r26v4 d, const uint8_t *p0, const uint8_t *p1, const uint8_t *p2,
                const uint8_t *p3, __m256i hib, const uint64_t *k)
{
    __m256i a, b;
    polymac_quad_load(&a, &b, p0, p1, p2, p3);
    const __m256i lo = _mm256_unpacklo_epi64(a, b), hi = _mm256_unpackhi_epi64(a, b);
#pragma GCC unroll 5
    for (unsigned i = 0; i < 5; i++) {
        const unsigned j = polymac_r26v4_order[i];
        d = polymac_r26v4_round(d, polymac_r26v4_limb(lo, hi, hib, j), j, k, 0, 1);
    }
    return d;
}

/* The rows of power i (1 to 4) of each lane in a quad's table */
#define POLYMAC_QUAD_POWER(table, i) ((table) + ((i) - 1) * 9 * 4)

/* h = (h + m) r for n blocks a lane, lane j's at p[j] + 16 i, with the
 * 2^128 bit hib (2^24 in the top limb, or 0), each lane's powers of r in
 * table up to r^powers (1, 2 or 4).  With r^4, four blocks a carry chain:
 * h = (h + m0) r^4 + m1 r^3 + m2 r^2 + m3 r; with r^2, two: h = (h + m0)
 * r^2 + m1 r; the later blocks' products first (they do not wait on h).
 * Bounds (test/unit/bounds.c, model "x86-avx2 quads", any order of the
 * three steps): the four-block step's columns below 2^58.6, and every
 * step leaves limbs below 2^26 + 2^10 (the chain of r26vec_ops.h). */
static inline __attribute__((always_inline)) struct r26v4
polymac_quad_blocks(struct r26v4 h, const uint8_t *const p[4], size_t n, __m256i hib,
                    const uint64_t *table, unsigned powers)
{
    const uint8_t *p0 = p[0], *p1 = p[1], *p2 = p[2], *p3 = p[3];
    __m256i a, b;
    if (powers == 4)
        for (; n >= 4; n -= 4, p0 += 64, p1 += 64, p2 += 64, p3 += 64) {
            struct r26v4 d = polymac_quad_mk(polymac_r26v4_zero(), p0 + 48, p1 + 48, p2 + 48,
                                             p3 + 48, hib, POLYMAC_QUAD_POWER(table, 1));
            d = polymac_quad_mk(d, p0 + 32, p1 + 32, p2 + 32, p3 + 32, hib,
                                POLYMAC_QUAD_POWER(table, 2));
            d = polymac_quad_mk(d, p0 + 16, p1 + 16, p2 + 16, p3 + 16, hib,
                                POLYMAC_QUAD_POWER(table, 3));
            polymac_quad_load(&a, &b, p0, p1, p2, p3);
            h = polymac_r26v4_add(h, polymac_r26v4_split(a, b, hib));
            h = polymac_r26v4_carry(polymac_r26v4_mulrows(d, h, POLYMAC_QUAD_POWER(table, 4)));
        }
    if (powers >= 2)
        for (; n >= 2; n -= 2, p0 += 32, p1 += 32, p2 += 32, p3 += 32) {
            const struct r26v4 d = polymac_quad_mk(polymac_r26v4_zero(), p0 + 16, p1 + 16,
                                                   p2 + 16, p3 + 16, hib,
                                                   POLYMAC_QUAD_POWER(table, 1));
            polymac_quad_load(&a, &b, p0, p1, p2, p3);
            h = polymac_r26v4_add(h, polymac_r26v4_split(a, b, hib));
            h = polymac_r26v4_carry(polymac_r26v4_mulrows(d, h, POLYMAC_QUAD_POWER(table, 2)));
        }
    for (; n; n--, p0 += 16, p1 += 16, p2 += 16, p3 += 16) {
        polymac_quad_load(&a, &b, p0, p1, p2, p3);
        h = polymac_r26v4_add(h, polymac_r26v4_split(a, b, hib));
        h = polymac_r26v4_carry(polymac_r26v4_mulrows(polymac_r26v4_zero(), h,
                                                      POLYMAC_QUAD_POWER(table, 1)));
    }
    return h;
}

/*
 * The four messages m[0..3] in the lanes: the nb whole blocks each has,
 * from their h, which they hold after; then, when the four have no other
 * whole block and the same last blocks (nlast and hb), those as well,
 * and the four are done but for their tags (whole and nlast 0).  The
 * keys' r are split into limbs as the blocks are, clamped by a vector
 * mask; h enters the same way (its top word in the 2^128 bit's place).
 * Inlined into its one caller, whose frame is zeroed after it (the
 * table, the lanes' limbs).
 */
static inline __attribute__((always_inline)) void
polymac_quad_lanes(struct polymac_quad_msg *const m[4], size_t nb, int zero_h,
                   uint64_t *table, unsigned maxpow, uint64_t limbs[5 * 4])
{
    const __m256i clamp = _mm256_set_epi64x(0x0ffffffc0ffffffc, 0x0ffffffc0fffffff,
                                            0x0ffffffc0ffffffc, 0x0ffffffc0fffffff);
    __m256i a, b;
    polymac_quad_load(&a, &b, m[0]->key, m[1]->key, m[2]->key, m[3]->key);
    const struct r26v4 r = polymac_r26v4_split(_mm256_and_si256(a, clamp),
                                               _mm256_and_si256(b, clamp), _mm256_setzero_si256());
    polymac_r26v4_store_power(POLYMAC_QUAD_POWER(table, 1), r);
    /* each lane's r^2 (limbs below 2^26 + 2^10) for the steps of two
     * blocks; from POLYMAC_AVX2_QUAD4_MIN blocks r^3 and r^4 as well,
     * for the steps of four */
    const struct r26v4 r2 = polymac_r26v4_carry(polymac_r26v4_mul(r, r, polymac_r26v4_fives(r)));
    polymac_r26v4_store_power(POLYMAC_QUAD_POWER(table, 2), r2);
    const unsigned powers = maxpow == 4 && nb >= POLYMAC_AVX2_QUAD4_MIN ? 4 : 2;
    if (powers == 4) {
        polymac_r26v4_store_power(
            POLYMAC_QUAD_POWER(table, 3),
            polymac_r26v4_carry(polymac_r26v4_mul(r2, r, polymac_r26v4_fives(r))));
        polymac_r26v4_store_power(
            POLYMAC_QUAD_POWER(table, 4),
            polymac_r26v4_carry(polymac_r26v4_mul(r2, r2, polymac_r26v4_fives(r2))));
    }
    struct r26v4 h = polymac_r26v4_zero();
    if (!zero_h) {
        /* h0, h1 as a block, h2 <= 4 above bit 24 of the top limb */
        polymac_quad_load(&a, &b, (const uint8_t *)m[0]->h, (const uint8_t *)m[1]->h,
                          (const uint8_t *)m[2]->h, (const uint8_t *)m[3]->h);
        const __m256i h2 = _mm256_slli_epi64(
            _mm256_set_epi64x((long long)m[3]->h[2], (long long)m[2]->h[2],
                              (long long)m[1]->h[2], (long long)m[0]->h[2]), 24);
        h = polymac_r26v4_split(a, b, h2);
    }
    const uint8_t *p[4] = {m[0]->p, m[1]->p, m[2]->p, m[3]->p};
    h = polymac_quad_blocks(h, p, nb, _mm256_set1_epi64x(1 << 24), table, powers);
    int last = 1;
    for (unsigned j = 0; j < 4; j++) {
        m[j]->p += 16 * nb;
        m[j]->whole -= nb;
        last &= m[j]->whole == 0 && m[j]->nlast == m[0]->nlast && m[j]->hb == m[0]->hb;
    }
    if (last) {
        const uint8_t *t[4] = {m[0]->last, m[1]->last, m[2]->last, m[3]->last};
        h = polymac_quad_blocks(h, t, m[0]->nlast, _mm256_set1_epi64x(m[0]->hb ? 1 << 24 : 0),
                                table, 1);
    }
    polymac_r26v4_store(limbs, h);
    for (unsigned j = 0; j < 4; j++) {
        struct polymac_r64 rr;
        const uint64_t l[5] = {limbs[j], limbs[4 + j], limbs[8 + j], limbs[12 + j],
                               limbs[16 + j]};
        polymac_r64_from_r26(&rr, l);   /* h2 <= 4 */
        m[j]->h[0] = rr.h0;
        m[j]->h[1] = rr.h1;
        m[j]->h[2] = rr.h2;
        if (last)
            m[j]->nlast = 0;
    }
}

/* A message's blocks from its h on and its tag, in scalar code. */
static inline __attribute__((always_inline)) void polymac_quad_finish(struct polymac_quad_msg *m)
{
    if (m->whole || m->nlast) {
        uint64_t r0, r1;
        polymac_clamp64(&r0, &r1, m->key);
        polymac_r64_core(m->h, r0, r1, m->p, m->whole, 1);
        if (m->hb)      /* a constant each: the loop's hibit is then no register */
            polymac_r64_core(m->h, r0, r1, m->last, m->nlast, 1);
        else
            polymac_r64_core(m->h, r0, r1, m->last, m->nlast, 0);
    }
    polymac_r64_finish(m->out, m->h[0], m->h[1], m->h[2], m->key + 16);
}

/* The depth of dead stack the quads' functions leave, zeroed after them:
 * the return address, the pushes and realignment and the frame (the
 * table, the lanes' limbs, the order, spills), read as
 * POLYMAC_AVX2_VECTOR_STACK is; QUADS4 for the frame whose table has
 * room for r^3 and r^4. */
#ifndef POLYMAC_AVX2_QUADS_STACK
#define POLYMAC_AVX2_QUADS_STACK 1792
#endif
#ifndef POLYMAC_AVX2_QUADS4_STACK
#define POLYMAC_AVX2_QUADS4_STACK 2816
#endif

/* The quads of the n <= POLYMAC_AVX2_QUAD_RUN messages m, longest first,
 * each message of a quad finished and marked (whole = SIZE_MAX); the
 * others left as they were.  table has room for maxpow powers.  Returns
 * 1 when it ran quads (its frame then holds key-derived words); 0 when
 * there was no quad to run, and 2, with maxpow 2, when
 * POLYMAC_AVX2_QUAD4_COUNT messages have POLYMAC_AVX2_QUAD4_MIN whole
 * blocks, or four are longer than POLYMAC_AVX2_QUAD_ANY (quads of
 * four-block steps), for the frame with room for r^4 to take the batch:
 * both without running a quad, having read only lengths, which are
 * public. */
static inline __attribute__((always_inline)) int
polymac_quads_body(struct polymac_quad_msg m[], size_t n, int zero_h, uint64_t *table,
                   unsigned maxpow)
{
    uint64_t limbs[5 * 4];
    unsigned char at[POLYMAC_AVX2_QUAD_RUN];
    size_t k = 0, nlong = 0;
    /* the long enough ones, by whole blocks, longest first (lengths are
     * public) */
    for (size_t i = 0; i < n; i++) {
        if (m[i].whole < POLYMAC_AVX2_QUAD_MIN)
            continue;
        nlong += m[i].whole >= POLYMAC_AVX2_QUAD4_MIN;
        size_t j = k++;
        for (; j > 0 && m[at[j - 1]].whole < m[i].whole; j--)
            at[j] = at[j - 1];
        at[j] = (unsigned char)i;
    }
    if (k < 4)
        return 0;
    if (maxpow == 2 && (nlong >= POLYMAC_AVX2_QUAD4_COUNT
                        || m[at[3]].whole > POLYMAC_AVX2_QUAD_ANY / 16))
        return 2;
    /* four in a row of the order, unless the first would leave the cold
     * break-even's blocks or more to the scalar code after the quad's:
     * that one is left to the caller (its one-shot, or the vector path
     * from its h) */
    const size_t cold = POLYMAC_AVX2_COLD;
    int ran = 0;
    for (size_t g = 0; g + 4 <= k;) {
        struct polymac_quad_msg *const q[4] = {&m[at[g]], &m[at[g + 1]], &m[at[g + 2]],
                                               &m[at[g + 3]]};
        if (q[0]->whole - q[3]->whole >= cold) {
            g++;
            continue;
        }
        polymac_quad_lanes(q, q[3]->whole, zero_h, table, maxpow, limbs);
        for (unsigned j = 0; j < 4; j++) {
            polymac_quad_finish(q[j]);
            q[j]->whole = SIZE_MAX;
        }
        g += 4;
        ran = 1;
    }
    if (ran) {
        polymac_r26vec_wipe(table, maxpow * 9 * 4 * sizeof *table);
        polymac_r26vec_wipe(limbs, sizeof limbs);
    }
    return ran;
}

/* Two frames, so that a batch of shorter messages does not zero the
 * larger one: with room for r and r^2, and for r to r^4. */
static __attribute__((noinline)) int polymac_quads2_x86_avx2(struct polymac_quad_msg m[],
                                                             size_t n, int zero_h)
{
    uint64_t table[2 * 9 * 4];
    return polymac_quads_body(m, n, zero_h, table, 2);
}

static __attribute__((noinline)) void polymac_quads4_x86_avx2(struct polymac_quad_msg m[],
                                                              size_t n, int zero_h)
{
    uint64_t table[4 * 9 * 4];
    polymac_quads_body(m, n, zero_h, table, 4);
}

/* The quads, in the smaller frame unless it hands them to the larger one
 * (polymac_quads_body), and the zeroing of the frame that ran them: the
 * larger one's depth covers the smaller one's, called from here too. */
static inline __attribute__((always_inline)) void
polymac_quads_x86_avx2(struct polymac_quad_msg m[], size_t n, int zero_h)
{
    const int ran = polymac_quads2_x86_avx2(m, n, zero_h);
    if (ran == 2) {
        polymac_quads4_x86_avx2(m, n, zero_h);
        polymac_x86_burn(POLYMAC_AVX2_QUADS4_STACK);
    } else if (ran == 1) {
        polymac_x86_burn(POLYMAC_AVX2_QUADS_STACK);
    }
}

/* The rest of a batch, one message at a time in scalar code (run_h's
 * leftovers), its frame zeroed after as the quads' is. */
static __attribute__((noinline)) void polymac_quads_rest_x86_avx2(struct polymac_quad_msg m[],
                                                                  size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (m[i].whole != SIZE_MAX)
            polymac_quad_finish(&m[i]);
}

static int polymac_auth_x86_avx2(uint8_t tag[16], const uint8_t *msg, size_t len,
                                 const uint8_t key[32]);
static void polymac_spans_vector_x86_avx2(uint8_t tag[16], const struct polymac_span sp[],
                                          size_t n, const uint8_t key[32], size_t cold,
                                          const uint64_t *h0);

/* lanes->run's quads and the other messages through the pairs (up to
 * their 1 KiB) or the one-shot, n <= POLYMAC_AVX2_QUAD_RUN; out of line,
 * so that the pairs' batches do not set up its frame. */
static __attribute__((noinline)) void polymac_quads_run(uint8_t *const out[],
                                                        const uint8_t *const msgs[],
                                                        const size_t lens[],
                                                        const uint8_t *const keys[], size_t n)
{
    struct polymac_quad_msg m[POLYMAC_AVX2_QUAD_RUN];
    uint8_t pad[POLYMAC_AVX2_QUAD_RUN][16];
    for (size_t i = 0; i < n; i++) {
        const size_t rest = lens[i] % 16;
        m[i] = (struct polymac_quad_msg){msgs[i], pad[i], keys[i], out[i], lens[i] / 16,
                                         rest != 0, {0, 0, 0}, 0};
        if (rest)
            polymac_pad_last(pad[i], msgs[i] + (lens[i] - rest), rest);
    }
    polymac_quads_x86_avx2(m, n, 1);
    uint8_t *po[POLYMAC_AVX2_QUAD_RUN];
    const uint8_t *pm[POLYMAC_AVX2_QUAD_RUN], *pk[POLYMAC_AVX2_QUAD_RUN];
    size_t pl[POLYMAC_AVX2_QUAD_RUN], np = 0;
    for (size_t i = 0; i < n; i++) {
        if (m[i].whole == SIZE_MAX)
            continue;
        if (lens[i] > POLYMAC_PAIRS_MAX) {
            polymac_auth_x86_avx2(out[i], msgs[i], lens[i], keys[i]);
            continue;
        }
        po[np] = out[i];
        pm[np] = msgs[i];
        pl[np] = lens[i];
        pk[np++] = keys[i];
    }
    if (np)
        polymac_pairs_batch(po, pm, pl, pk, np);
    polymac_wipe(m, sizeof m[0] * n);
    polymac_wipe(pad, 16 * n);
}

/* lanes->run: the quads when four messages or more have enough blocks
 * (or one is longer than the pairs take), else the pairs alone. */
static void polymac_quads_batch(uint8_t *const out[], const uint8_t *const msgs[],
                                const size_t lens[], const uint8_t *const keys[], size_t n)
{
    for (size_t w = 0; w < n; w += POLYMAC_AVX2_QUAD_RUN) {
        const size_t c = n - w < POLYMAC_AVX2_QUAD_RUN ? n - w : POLYMAC_AVX2_QUAD_RUN;
        size_t nq = 0, over = 0;
        for (size_t i = w; i < w + c; i++) {
            nq += lens[i] >= 16 * POLYMAC_AVX2_QUAD_MIN;
            over |= lens[i] > POLYMAC_PAIRS_MAX;
        }
        if (nq < 4 && !over)
            polymac_pairs_batch(out + w, msgs + w, lens + w, keys + w, c);
        else
            polymac_quads_run(out + w, msgs + w, lens + w, keys + w, c);
    }
}

/* lanes->run_h (kernel.h): the AEAD batch's packets from their AAD's h,
 * n <= POLYMAC_AVX2_QUAD_RUN at a time: the quads, then the others in
 * scalar code. */
static void polymac_quads_batch_h(uint8_t *const out[],
                                  const struct polymac_aead_rec *const recs[],
                                  const uint8_t *const msgs[], const size_t lens[],
                                  const uint8_t *const keys[], size_t n)
{
    struct polymac_quad_msg m[POLYMAC_AVX2_QUAD_RUN];
    for (size_t w = 0; w < n; w += POLYMAC_AVX2_QUAD_RUN) {
        const size_t c = n - w < POLYMAC_AVX2_QUAD_RUN ? n - w : POLYMAC_AVX2_QUAD_RUN;
        size_t nq = 0;
        for (size_t j = 0; j < c; j++) {
            const struct polymac_aead_rec *r = recs[w + j];
            m[j] = (struct polymac_quad_msg){msgs[w + j], r->tail + 32 - 16 * r->nt, keys[w + j],
                                             out[w + j], lens[w + j] / 16 - r->nt, r->nt,
                                             {r->h[0], r->h[1], r->h[2]}, 1};
            nq += m[j].whole >= POLYMAC_AVX2_QUAD_MIN;
        }
        if (nq >= 4)
            polymac_quads_x86_avx2(m, c, 0);
        /* the packets left: from the cold break-even the vector path, as
         * polymac_aead_verify runs them; the others in scalar code */
        const size_t cold = POLYMAC_AVX2_COLD;
        for (size_t j = 0; j < c; j++) {
            if (m[j].whole == SIZE_MAX || m[j].whole < cold)
                continue;
            const struct polymac_span sp[2] = {{m[j].p, m[j].whole}, {m[j].last, m[j].nlast}};
            polymac_spans_vector_x86_avx2(m[j].out, sp, 2, m[j].key, cold, m[j].h);
            m[j].whole = SIZE_MAX;
        }
        polymac_quads_rest_x86_avx2(m, c);
        polymac_x86_burn(POLYMAC_AVX2_QUADS_STACK);
    }
    polymac_wipe(m, sizeof m[0] * (n < POLYMAC_AVX2_QUAD_RUN ? n : POLYMAC_AVX2_QUAD_RUN));
}

static const struct polymac_lanes polymac_quads_lanes = {
    .run = polymac_quads_batch,
    .max_len = POLYMAC_AVX2_QUAD_ANY,
    .max_len_full = POLYMAC_AVX2_QUAD_MAX,
    .full = 4,
    .full_min = 4,
    .min_len = POLYMAC_PAIRS_MIN_LEN,
    .min_same = 2,
    .min_mixed = 2,
    .run_h = polymac_quads_batch_h,
    .max_len_h = POLYMAC_AVX2_QUAD_MAX,
    /* below a quad, the AEAD's packets one by one, as polymac_aead_verify
     * runs them: through the lanes each AAD is staged apart, which costs
     * more (measured: docs/log.md) */
    .min_h = 4,
};

/* Below this many bytes a one-shot's odd whole blocks go first (below);
 * from it, where the 1-4% they save is less than the groups' loads cost
 * shifted off a 32-byte boundary (16 KiB one block in: 0.99; measured,
 * docs/log.md), last, as a stream's do. */
#define POLYMAC_AVX2_HEAD_MAX 4096

/*
 * polymac_auth from the cold break-even: the message's first one to
 * three whole blocks, those past its last whole group, in scalar code
 * (they run beside the powers, which do not wait on them: after the
 * groups they waited on the lanes' sum; measured, docs/log.md), then the
 * skeleton's vector path over the whole groups (the powers, the loop and
 * its sum) called directly, then the padded partial block and emit's tag
 * and wipe, without the front end's init, blocks and emit around it
 * (their calls, flags and conversions).  The state is in this frame; out
 * of line, so that a shorter message does not pay for setting it up.
 */
static __attribute__((noinline)) void polymac_auth_vector_x86_avx2(uint8_t tag[16],
                                                                   const uint8_t *msg,
                                                                   size_t len,
                                                                   const uint8_t key[32])
{
    /* the padded last block before any vector code: the padding's
     * memset may be a first call through the PLT (burn.h) */
    _Alignas(POLYMAC_KS_ALIGN) struct avx2_state st;
    uint8_t last[16];
    const size_t rest = len % 16, head = len < POLYMAC_AVX2_HEAD_MAX ? len / 16 % 4 : 0;
    if (rest)
        polymac_pad_last(last, msg + (len - rest), rest);
    polymac_simd_init(&st.v.s, key);
    if (head)
        polymac_simd_scalar(&st, &st.v.s, &polymac_simd_x86_avx2, msg, head, 1);
    polymac_vector_x86_avx2(&st, msg + 16 * head, len / 16 - head, 1);
    polymac_x86_burn(POLYMAC_AVX2_VECTOR_STACK);
    if (rest)
        polymac_simd_scalar(&st, &st.v.s, &polymac_simd_x86_avx2, last, 1, 0);
    polymac_simd_emit(&st, &st.v.s, &polymac_simd_x86_avx2, tag, key + 16);
}

/* Below the cold break-even, the radix-2^64 one-shot (the skeleton's
 * POLYMAC_SIMD_AUTH). */
static int polymac_auth_x86_avx2(uint8_t tag[16], const uint8_t *msg, size_t len,
                                 const uint8_t key[32])
{
    if (len / 16 < (size_t)POLYMAC_AVX2_COLD)
        polymac_r64_oneshot(tag, msg, len, key);
    else
        polymac_auth_vector_x86_avx2(tag, msg, len, key);
    return 0;
}

/*
 * The AEAD's spans (kernel.h: auth_spans) the same way: each span from
 * the cold break-even through the vector loop (h joining lane 0 of its
 * first block), the others in scalar code.  Where such a span's last one
 * to three blocks and the first blocks of the next span make a group (the
 * ciphertext's last blocks and the lengths), that group is gathered from
 * the two and joins the lanes as well: on their own, a 20-byte AAD and a
 * 1200-byte ciphertext left six blocks to the scalar code, where the
 * padded message's one-shot leaves two (measured: docs/log.md).
 */

/* The vector part of a span: the powers, h into lane 0, the nb >= 4
 * blocks at p in groups, and the one to three after the last whole group
 * with the first of the nt blocks at t when they make one; the lanes
 * summed and h back in radix 2^64.  Returns how many blocks of t it
 * took. */
static __attribute__((noinline)) size_t polymac_spans_groups_x86_avx2(struct avx2_state *st,
                                                                      const uint8_t *p,
                                                                      size_t nb,
                                                                      const uint8_t *t,
                                                                      size_t nt)
{
    const struct polymac_simd_kernel *k = &polymac_simd_x86_avx2;
    polymac_simd_powers(st, &st->v.s, k, nb >= (size_t)POLYMAC_AVX2_R8 ? 8 : 4);
    polymac_simd_to_vec(st, &st->v.s, k);
    const __m256i hib = _mm256_set1_epi64x(1 << 24);
    const uint64_t *r8 = st->v.s.powers >= 8 ? st->r8 : NULL;
    const size_t whole = nb / 4, rest = nb % 4;
    const int gather = rest && rest + nt >= 4;
    /* with r^8 and an even number of whole groups, the steps' single
     * last group and the gathered group one two-group step instead */
    const int pair = gather && r8 && whole % 2 == 0;
    struct r26v4 h = polymac_r26v4_add(polymac_r26vec_lane0(st->v.h26),
                                       polymac_r26v4_group(p, hib));
    h = polymac_r26vec_steps4(h, p + 64, whole - 1 - pair, hib, st->table, r8);
    size_t took = 0;
    if (gather) {
        /* a step (polymac_r26v4_step or two) whose group is gathered,
         * loaded after the product as step loads its own */
        p += 64 * whole;
        const struct r26v4 d = pair ? polymac_r26v4_two_product(h, p - 64, hib, st->table, r8)
                                    : polymac_r26v4_carry(polymac_r26v4_mulmem(h, st->table, 4));
        const uint8_t *q[4];
        for (unsigned j = 0; j < 4; j++)
            q[j] = j < rest ? p + 16 * j : t + 16 * took++;
        __m256i a, b;
        polymac_quad_load(&a, &b, q[0], q[2], q[1], q[3]);   /* blocks 0, 1 in a; 2, 3 in b */
        h = polymac_r26v4_add(d, polymac_r26v4_split(a, b, hib));
    }
    polymac_r26v4_last(st->v.h26, st->table, h);
    polymac_r26vec_carried_r64(&st->v);
    st->v.s.vec = 0;
    st->lanes_live = 0;
    st->first = 0;
    return took;
}

/* From h0 (radix 2^64, h2 <= 4: an AEAD batch packet's AAD), or from 0
 * when h0 is NULL.  h stays in radix 2^64 between the vector parts: each
 * run of spans they leave (short spans, a long span's last one to three
 * blocks) is one walk of the scalar code (polymac_simd_r64_spans). */
static __attribute__((noinline)) void
polymac_spans_vector_x86_avx2(uint8_t tag[16], const struct polymac_span sp[], size_t n,
                              const uint8_t key[32], size_t cold, const uint64_t *h0)
{
    _Alignas(POLYMAC_KS_ALIGN) struct avx2_state st;
    polymac_simd_init(&st.v.s, key);
    if (h0) {
        st.v.s.sc.h0 = h0[0];
        st.v.s.sc.h1 = h0[1];
        st.v.s.sc.h2 = h0[2];
    }
    struct polymac_span run[POLYMAC_SPANS_MAX];   /* the scalar code's spans */
    size_t nr = 0;
    size_t skip = 0;            /* blocks of this span the last one's groups took */
    for (size_t i = 0; i < n && i < POLYMAC_SPANS_MAX; i++) {
        const uint8_t *p = sp[i].p + 16 * skip;
        const size_t nb = sp[i].nblocks - skip;
        skip = 0;
        if (nb >= cold) {
            polymac_simd_r64_spans(&st.v.s, run, nr);
            nr = 0;
            const int next = i + 1 < n && i + 1 < POLYMAC_SPANS_MAX;
            skip = polymac_spans_groups_x86_avx2(&st, p, nb, next ? sp[i + 1].p : NULL,
                                                 next ? sp[i + 1].nblocks : 0);
            polymac_x86_burn(POLYMAC_AVX2_VECTOR_STACK);
            if (!skip && nb % 4)
                run[nr++] = (struct polymac_span){p + 16 * (nb & ~(size_t)3), nb % 4};
        } else if (nb) {
            run[nr++] = (struct polymac_span){p, nb};
        }
    }
    polymac_simd_r64_spans(&st.v.s, run, nr);
    polymac_simd_emit(&st, &st.v.s, &polymac_simd_x86_avx2, tag, key + 16);
}

/* Below the cold break-even in every span, the front end's radix-2^64
 * code. */
static int polymac_auth_spans_x86_avx2(uint8_t tag[16], const struct polymac_span sp[],
                                       size_t n, const uint8_t key[32])
{
    const size_t cold = POLYMAC_AVX2_COLD;
    if (polymac_spans_longest(sp, n) < cold)
        return 1;
    polymac_spans_vector_x86_avx2(tag, sp, n, key, cold, NULL);
    return 0;
}

/* Its functions zero their own stack (burn.h), the pairs' too. */
const struct polymac_kernel polymac_kernel_x86_avx2 = {
    .name = "x86-avx2",
    .cpu_required = POLYMAC_CPU_X86_AVX2,
    .init = polymac_init_x86_avx2,
    .blocks = polymac_blocks_x86_avx2,
    .emit = polymac_emit_x86_avx2,
    .auth = polymac_auth_x86_avx2,
    .auth_spans = polymac_auth_spans_x86_avx2,
    .stack_bytes = 0,
    .lanes = &polymac_quads_lanes,
};

