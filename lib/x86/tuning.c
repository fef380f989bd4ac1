/* tuning.c -- the x86 kernels' thresholds per CPU */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include "tuning.h"

/*
 * One row per CPU measured with lab/tune (docs/performance.md; each run
 * behind a row is in docs/log.md).  A CPU gets a row only from a
 * measurement on it; the default row, last, is for every other CPU.
 */
#define DEFAULT_ROW                                                              \
    {.avx2_cold = 36, .avx2_warm = 4, .avx2_r8 = 32,                              \
     .ifma_cold = 23, .ifma_warm = 3, .ifma_live = 3}

const struct polymac_x86_tuning_row polymac_x86_tuning_rows[] = {
    /* IFMA and AVX2 cold: where polymac_auth itself crosses over */
    {"intel-emerald-rapids", "lab/tune, Intel Xeon family 6 model 207",
     POLYMAC_CPU_VENDOR_INTEL, 6, 207,
     {.avx2_cold = 52, .avx2_warm = 20, .avx2_r8 = 21,
      .ifma_cold = 20, .ifma_warm = 5, .ifma_live = 4}},
    /* IFMA and AVX2 cold: where polymac_auth itself crosses over
     * (polymac-ab), as on Intel, not where lab/tune's harness put them;
     * IFMA warm: the default's, which polymac-ab's streams in pieces of
     * 3 to 6 blocks keep over lab/tune's 5; the rest: the medians of
     * three lab/tune runs (docs/log.md, AMD Zen 5) */
    {"amd-zen5", "lab/tune and polymac-ab, AMD EPYC family 26 model 2 (Zen 5)",
     POLYMAC_CPU_VENDOR_AMD, 26, POLYMAC_X86_ANY_MODEL,
     {.avx2_cold = 60, .avx2_warm = 20, .avx2_r8 = 20,
      .ifma_cold = 23, .ifma_warm = 3, .ifma_live = 3}},
    /* cold and warm: polymac-ab (one-shots across the break-even,
     * streams in pieces of 3 to 24 blocks); IFMA live and AVX2 r8: the
     * default's and lab/tune's median, each checked by polymac-ab
     * (docs/log.md, AMD Zen 4) */
    {"amd-zen4-genoa", "lab/tune and polymac-ab, AMD EPYC family 25 model 17 (Zen 4)",
     POLYMAC_CPU_VENDOR_AMD, 25, 17,
     {.avx2_cold = 36, .avx2_warm = 8, .avx2_r8 = 28,
      .ifma_cold = 23, .ifma_warm = 4, .ifma_live = 3}},
    /* AVX2 cold: where polymac_auth crosses over (polymac-ab); warm and
     * r8: the medians of three lab/tune runs (docs/log.md, AMD Zen 3);
     * IFMA: no such unit, the default's */
    {"amd-zen3-milan", "lab/tune and polymac-ab, AMD EPYC family 25 model 1 (Zen 3)",
     POLYMAC_CPU_VENDOR_AMD, 25, 1,
     {.avx2_cold = 40, .avx2_warm = 12, .avx2_r8 = 28,
      .ifma_cold = 23, .ifma_warm = 3, .ifma_live = 3}},
    {"default", "lab/tune, Intel Emerald Rapids, before rows per CPU",
     POLYMAC_CPU_VENDOR_OTHER, 0, 0, DEFAULT_ROW},
};
const unsigned polymac_x86_tuning_nrows =
    sizeof polymac_x86_tuning_rows / sizeof polymac_x86_tuning_rows[0];

const struct polymac_x86_tuning_row *_Atomic polymac_x86_tuning_in_use =
    &polymac_x86_tuning_rows[sizeof polymac_x86_tuning_rows / sizeof polymac_x86_tuning_rows[0]
                             - 1];

const struct polymac_x86_tuning_row *polymac_x86_tuning_find(struct polymac_cpu_id id)
{
    const unsigned last = polymac_x86_tuning_nrows - 1;
    for (unsigned i = 0; i < last; i++) {
        const struct polymac_x86_tuning_row *r = &polymac_x86_tuning_rows[i];
        if (r->vendor == id.vendor && r->family == id.family
            && (r->model == POLYMAC_X86_ANY_MODEL || r->model == id.model))
            return r;
    }
    return &polymac_x86_tuning_rows[last];
}

void polymac_x86_tuning_choose(void)
{
    atomic_store_explicit(&polymac_x86_tuning_in_use, polymac_x86_tuning_find(polymac_cpu_id()),
                          memory_order_relaxed);
}

uint32_t polymac_x86_auth_cut(const struct polymac_x86_tuning *t, uint32_t cpu_bits)
{
    const uint32_t ifma = POLYMAC_CPU_X86_AVX512IFMA | POLYMAC_CPU_X86_AVX512F;
    uint32_t cold = UINT32_C(1) << 26;         /* no vector kernel: 1 GiB */
    if ((cpu_bits & ifma) == ifma && t->ifma_cold < cold)
        cold = t->ifma_cold;
    if ((cpu_bits & POLYMAC_CPU_X86_AVX2) && t->avx2_cold < cold)
        cold = t->avx2_cold;
    if ((cpu_bits & POLYMAC_CPU_X86_AVX512F) && POLYMAC_X86_AVX512_MIN8_COLD < cold)
        cold = POLYMAC_X86_AVX512_MIN8_COLD;
    if ((cpu_bits & POLYMAC_CPU_X86_AVX512F) && POLYMAC_X86_AVX512_MIN4_COLD < cold)
        cold = POLYMAC_X86_AVX512_MIN4_COLD;
    return cold < POLYMAC_AUTH_MIN / 16 ? POLYMAC_AUTH_MIN : 16 * cold;
}
