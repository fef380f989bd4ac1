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
 * powers are broadcast from the state at each product, never stored) and
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
    polymac_r26vec_to_r64(&st->v);
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

/* the batch entry: two messages at a time in scalar radix 2^64, up to 1
 * KiB: above, the vector one-shot wins (measured: docs/log.md) */
#define POLYMAC_PAIRS_BURN polymac_x86_burn
#define POLYMAC_PAIRS_MAX 1024
#include "../generic/r64_pairs.h"

/*
 * polymac_auth from the cold break-even: the skeleton's vector path over
 * the whole blocks (the powers, the loop and its sum, the last up to
 * three blocks in scalar code) called directly, then the padded partial
 * block and emit's tag and wipe, without the front end's init, blocks
 * and emit around it (their calls, flags and conversions).  The state is
 * in this frame; out of line, so that a shorter message does not pay for
 * setting it up.
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
    const size_t rest = len % 16;
    if (rest)
        polymac_pad_last(last, msg + (len - rest), rest);
    polymac_simd_init(&st.v.s, key);
    polymac_vector_x86_avx2(&st, msg, len / 16, 1);
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

/* The AEAD's spans (kernel.h: auth_spans) the same way: each span from
 * the cold break-even through the vector path (h joining lane 0 of its
 * first block), the others in scalar code. */
static __attribute__((noinline)) void
polymac_spans_vector_x86_avx2(uint8_t tag[16], const struct polymac_span sp[], size_t n,
                              const uint8_t key[32], size_t cold)
{
    _Alignas(POLYMAC_KS_ALIGN) struct avx2_state st;
    polymac_simd_init(&st.v.s, key);
    for (size_t i = 0; i < n; i++) {
        if (sp[i].nblocks >= cold) {
            polymac_vector_x86_avx2(&st, sp[i].p, sp[i].nblocks, 1);
            polymac_x86_burn(POLYMAC_AVX2_VECTOR_STACK);
        } else {
            polymac_simd_scalar(&st, &st.v.s, &polymac_simd_x86_avx2, sp[i].p, sp[i].nblocks,
                                1);
        }
    }
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
    polymac_spans_vector_x86_avx2(tag, sp, n, key, cold);
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
    .lanes = &polymac_pairs_lanes,
};

