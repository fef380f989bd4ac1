/* poly1305_x86_avx2.c -- AVX2 kernel: four lanes in radix 2^26 (Goll and
 *                        Gueron), scalar radix 2^64 below break-even */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include "r26vec.h"
#include "burn.h"
#include "../kernels.h"

/* What a one-shot message uses first, then what only streams need. */
struct avx2_state {
    uint64_t table[9 * 4];    /* r^4, r^2, r^3, r^1 by lane (r26vec.h);
                                 first, for aligned rows */
    uint64_t r8[9];           /* r^8, limbs and fives, once hd.powers == 8 */
    struct polymac_r26vec_head hd;
    uint32_t lanes_live;      /* 1: h = the lanes, merged (r26vec.h), and
                                 hd's h is stale */
    uint32_t lanes_used;      /* 1: lanes were stored (emit wipes them) */
    uint64_t lanes[5 * 4];    /* a stream's unmerged lanes */
};
_Static_assert(sizeof(struct avx2_state) <= POLYMAC_KS_BYTES, "state fits");

/*
 * Break-even, in blocks per call, of the vector code against the scalar
 * radix-2^64 code.  COLD applies while the powers are not yet computed
 * (the call computes r^2..r^4 first), WARM once they are.  Measured on
 * Intel Emerald Rapids as docs/tuning.md describes (polymac_auth per
 * kernel for COLD, two builds with the threshold forced for WARM).
 */
#ifndef POLYMAC_AVX2_COLD_BLOCKS
#define POLYMAC_AVX2_COLD_BLOCKS 36
#endif
#ifndef POLYMAC_AVX2_WARM_BLOCKS
#define POLYMAC_AVX2_WARM_BLOCKS 4
#endif
/* The first call of at least this many blocks computes r^8 (once per
 * key) for the core's two-group loop; measured against the one-group loop
 * on Intel Emerald Rapids as docs/tuning.md describes. */
#ifndef POLYMAC_AVX2_R8_BLOCKS
#define POLYMAC_AVX2_R8_BLOCKS 32
#endif
/* the vector path needs at least one group of four */
_Static_assert(POLYMAC_AVX2_WARM_BLOCKS >= 4 && POLYMAC_AVX2_COLD_BLOCKS >= 4,
               "break-even below one group");

/* The depth of dead stack the vector path leaves, zeroed after it
 * (burn.h): 48 bytes of pushes, up to 24 of realignment and a 416-byte
 * frame (GCC 12: spills; the loop's powers are broadcast from the state
 * at each product, never stored), rounded up to whole vectors. */
#ifndef POLYMAC_AVX2_VECTOR_STACK
#define POLYMAC_AVX2_VECTOR_STACK 512
#endif

static void polymac_init_x86_avx2(void *ks, const uint8_t r[16])
{
    struct avx2_state *st = ks;
    polymac_r26vec_init(&st->hd, r);
    st->lanes_live = 0;
    st->lanes_used = 0;
}

/* h back from the lanes into h26, before any other path runs. */
static __attribute__((noinline)) void polymac_merge_x86_avx2(struct avx2_state *st)
{
    polymac_r26vec_merge4_mem(st->hd.h26, st->table, st->lanes);
    st->hd.base2_26 = 1;
    st->lanes_live = 0;
}

/* The vector path, out of line: inlined, its register and stack set-up
 * would be paid by every short message too. */
static __attribute__((noinline)) void
polymac_vector_x86_avx2(struct avx2_state *st, const uint8_t *in, size_t nblocks,
                        uint32_t hibit)
{
    unsigned have = st->hd.powers;
    const int warm = have == 4 || have == 8;
    if (!warm) {
        polymac_r26vec_table4(st->table, &st->hd.r64);
        have = st->hd.powers = 4;
    }
    /* r^8 for the two-group loop, once a call is long enough to repay it
     * or a stream's later call has two groups */
    if (have == 4 && (nblocks >= POLYMAC_AVX2_R8_BLOCKS || (warm && nblocks >= 8))) {
        polymac_r26vec_r8(st->r8, st->table);
        have = st->hd.powers = 8;
    }
    uint64_t *lanes = NULL;
    int lanes_in = 0;
    if (warm && nblocks % 4 == 0) {
        /* A later call of whole groups (a streamed message): the lanes stay
         * unmerged, so that the call costs what its blocks cost inside a
         * one-shot message.  Merging every call (the lane products, the
         * sums, the carries, on the chain from one call to the next) cost
         * about 31 TSC cycles a call (figures in docs/tuning.md).  The
         * first vector call of a message, the one-shot path, is as it
         * was. */
        st->lanes_used = 1;
        lanes = st->lanes;
        lanes_in = st->lanes_live == 1;
    } else if (st->lanes_live == 1) {
        polymac_merge_x86_avx2(st);
    }
    if (!lanes_in)
        polymac_r26vec_to26(&st->hd);
    polymac_r26vec_core4(st->hd.h26, st->table, have == 8 ? st->r8 : NULL, lanes,
                         lanes_in, in, nblocks / 4, hibit);
    if (lanes) {
        st->lanes_live = 1;
        return;
    }
    /* up to three blocks are left: the scalar code takes them (cheaper
     * than a vector step with shuffled powers), and h stays in radix 2^64 */
    if (nblocks % 4) {
        polymac_r26vec_to64(&st->hd);
        polymac_r64_blocks(&st->hd.r64, in + (nblocks & ~(size_t)3) * 16,
                           nblocks % 4, hibit);
    }
}

static void polymac_blocks_x86_avx2(void *ks, const uint8_t *in, size_t nblocks,
                                    uint32_t hibit)
{
    struct avx2_state *st = ks;
    const int warm = st->hd.powers == 4 || st->hd.powers == 8;

    if (nblocks >= POLYMAC_AVX2_WARM_BLOCKS
        && (warm || polymac_seen_reaches(st->hd.seen, nblocks, POLYMAC_AVX2_COLD_BLOCKS))) {
        polymac_vector_x86_avx2(st, in, nblocks, hibit);
        polymac_x86_burn(POLYMAC_AVX2_VECTOR_STACK);
        return;
    }
    if (st->lanes_live == 1)
        polymac_merge_x86_avx2(st);
    polymac_r26vec_scalar(&st->hd, in, nblocks, hibit);
}

/* Out of line for the same reason as the vector path.  The lanes exist
 * only if a warm call of whole groups ran. */
static __attribute__((noinline)) void polymac_wipe_all_x86_avx2(struct avx2_state *st)
{
    if (st->lanes_used != 0)
        polymac_r26vec_wipe(st, sizeof *st);
    else
        polymac_r26vec_wipe(st, offsetof(struct avx2_state, lanes));
}

static void polymac_emit_x86_avx2(void *ks, uint8_t tag[16], const uint8_t s[16])
{
    struct avx2_state *st = ks;

    if (st->lanes_live == 1)
        polymac_merge_x86_avx2(st);
    polymac_r26vec_to64(&st->hd);
    polymac_r64_tag(&st->hd.r64, tag, s);
    /* the table and h26 hold secrets only when a long enough call ran the
     * vectors; a short message wipes what generic-r64 would */
    if (st->hd.powers == 4 || st->hd.powers == 8)
        polymac_wipe_all_x86_avx2(st);
    else
        polymac_wipe(&st->hd.r64, sizeof st->hd.r64);
}

const struct polymac_kernel polymac_kernel_x86_avx2 = {
    .name = "x86-avx2",
    .cpu_required = POLYMAC_CPU_X86_AVX2,
    .init = polymac_init_x86_avx2,
    .blocks = polymac_blocks_x86_avx2,
    .emit = polymac_emit_x86_avx2,
    /* a one-shot message this short has fewer full blocks than the cold
     * break-even, so blocks() would run the scalar code anyway */
    .scalar_max = POLYMAC_AVX2_COLD_BLOCKS * 16 - 1,
    .stack_bytes = 0,            /* its functions zero their own (burn.h) */
    /* no batch lanes: four lanes in radix 2^26, one message each, lost
     * to the one-shot path at every batch measured (README, Batch) */
};

#ifdef POLYMAC_TEST_KERNELS
/* test builds only: h as given, in radix 2^64, in h26, or in the lanes
 * (which need the table: a vector call ran) (test/test_inject.c) */
int polymac_test_set_h_x86_avx2(void *ks, const struct polymac_test_h *h)
{
    struct avx2_state *st = ks;
    if (polymac_r26vec_test_set_h(&st->hd, h) == 0) {
        st->lanes_live = 0;
        return 0;
    }
    if (h->form == POLYMAC_TEST_LANES && (st->hd.powers == 4 || st->hd.powers == 8)) {
        memcpy(st->lanes, h->v, sizeof st->lanes);
        st->lanes_live = 1;
        st->lanes_used = 1;
        return 0;
    }
    return -1;
}
#endif
