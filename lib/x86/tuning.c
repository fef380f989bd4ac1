/* tuning.c -- the x86 kernels' break-evens per microarchitecture, and
 *             the row the CPU probe chose */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>

#include "tuning.h"
#include "../kernel.h"
#include "../cpu.h"

/*
 * One row per CPU measured with tools/tune, each with its source: the
 * date, the CPU and the tool (docs/tuning.md keeps the runs behind each
 * row; the README's break-even table lists the rows).  A CPU gets a row
 * only from a measurement on it; a row for a CPU not yet measured says so
 * and holds the default.  The default row, last, is the values compiled
 * in before this table existed: every CPU without a row of its own keeps
 * the behaviour it had.  On other architectures the probe chooses the
 * default row, which no kernel there reads.
 */
#define POLYMAC_X86_DEFAULT_ROW                                                   \
    {                                                                             \
        POLYMAC_X86_DEFAULT_AVX2_COLD, POLYMAC_X86_DEFAULT_AVX2_WARM,             \
        POLYMAC_X86_DEFAULT_AVX2_R8, POLYMAC_X86_DEFAULT_AVX512_MIN4_COLD,        \
        POLYMAC_X86_DEFAULT_AVX512_MIN4_WARM, POLYMAC_X86_DEFAULT_AVX512_MIN8_COLD, \
        POLYMAC_X86_DEFAULT_AVX512_MIN8_WARM, POLYMAC_X86_DEFAULT_IFMA_COLD,      \
        POLYMAC_X86_DEFAULT_IFMA_WARM, POLYMAC_X86_DEFAULT_IFMA_LANES,            \
    }

const struct polymac_x86_tuning_row polymac_x86_tuning_rows[] = {
    /* tools/tune, 2026-12-01 06:17-06:18 UTC, Intel Xeon family 6 model
     * 207 stepping 2 (Emerald Rapids), 2 cores shared (load 0.6 to 0.8):
     * three runs, the median of each threshold's three (docs/tuning.md,
     * "Rows per CPU"); except the IFMA and AVX2 cold break-evens, where
     * polymac_auth itself (tools/bench-table --against, quiet machine,
     * 06:35 UTC) crosses earlier than tools/tune's harness: AVX2's vector
     * path wins from about 50 blocks (864 B +2%, 992 B +7%; 720 B -1%);
     * IFMA's, since its one-shot entry (auth) and one-set path for 16 to
     * 23 blocks (10:00 UTC), from 20 (polymac-ab against a build whose
     * vector path starts at 16 blocks: 320 B 176 vs 182 TSC cycles,
     * 304 B 176 vs 173) */
    {"intel-emerald-rapids", "tools/tune 2026-12-01, Intel Xeon family 6 model 207 "
     "(IFMA and AVX2 cold: through polymac_auth)",
     POLYMAC_X86_VENDOR_INTEL, 6, 207,
     {.avx2_cold = 52, .avx2_warm = 20, .avx2_r8 = 21,
      .avx512_min4_cold = 55, .avx512_min4_warm = 16,
      .avx512_min8_cold = 45, .avx512_min8_warm = 13,
      .ifma_cold = 20, .ifma_warm = 5, .ifma_lanes = 4}},
    /* AMD Zen 5 (Turin, Granite Ridge: family 26): not yet measured with
     * tools/tune; the default values until a run on one fills this row */
    {"amd-zen5", "not yet measured: the default row",
     POLYMAC_X86_VENDOR_AMD, 26, POLYMAC_X86_ANY_MODEL, POLYMAC_X86_DEFAULT_ROW},
    /* every other CPU: the values compiled in until 2026-12-01, measured
     * with tools/tune on Intel Emerald Rapids (docs/tuning.md) */
    {"default", "the values compiled in until 2026-12-01 (tools/tune, Intel Emerald Rapids)",
     POLYMAC_X86_VENDOR_OTHER, 0, 0, POLYMAC_X86_DEFAULT_ROW},
};
const unsigned polymac_x86_tuning_nrows =
    sizeof polymac_x86_tuning_rows / sizeof polymac_x86_tuning_rows[0];

/* What each kernel allows (its sources say why): the vector paths need
 * one group (four blocks for the four-lane cores), and IFMA's short calls
 * keep t + n below 16.  Checked here for every row, so that no value a
 * kernel reads is one it does not allow (the rows are not constant
 * expressions: polymac_x86_tuning_use checks the row it is given, and
 * tools/tune-row checks every row). */
#define ROW_OK(r)                                                                 \
    ((r).avx2_cold >= 4 && (r).avx2_warm >= 4 && (r).avx2_r8 >= 1                 \
     && (r).avx512_min4_cold >= 4 && (r).avx512_min4_warm >= 4                    \
     && (r).avx512_min8_cold >= 1 && (r).avx512_min8_warm >= 1                    \
     && (r).ifma_cold >= 1 && (r).ifma_warm >= 1                                  \
     && (r).ifma_lanes >= 1 && (r).ifma_lanes <= 16)
_Static_assert(POLYMAC_X86_DEFAULT_AVX2_COLD >= 4 && POLYMAC_X86_DEFAULT_AVX2_WARM >= 4
                   && POLYMAC_X86_DEFAULT_AVX512_MIN4_COLD >= 4
                   && POLYMAC_X86_DEFAULT_AVX512_MIN4_WARM >= 4
                   && POLYMAC_X86_DEFAULT_IFMA_LANES >= 1 && POLYMAC_X86_DEFAULT_IFMA_LANES <= 16,
               "the default row is one every kernel allows");

int polymac_x86_tuning_ok(const struct polymac_x86_tuning *t)
{
    return ROW_OK(*t);
}

struct polymac_x86_tuning polymac_x86_tuned = POLYMAC_X86_DEFAULT_ROW;

/* The front end's inline one-shot ends where a kernel's vector code
 * starts: its cold break-even (x86-avx512's first vector call takes eight
 * lanes from MIN8_COLD, four from MIN4_COLD: the lower of the two). */
#define SCALAR_MAX(blocks) ((size_t)(blocks) * 16 - 1)
#define MIN(a, b) ((a) < (b) ? (a) : (b))

static struct polymac_x86_scalar_max scalar_max_of(const struct polymac_x86_tuning *t)
{
    struct polymac_x86_scalar_max m = {
        .avx2 = SCALAR_MAX(t->avx2_cold),
        .avx512 = SCALAR_MAX(MIN(t->avx512_min8_cold, t->avx512_min4_cold)),
        .ifma = SCALAR_MAX(t->ifma_cold),
    };
    return m;
}

struct polymac_x86_scalar_max polymac_x86_scalar_max = {
    .avx2 = SCALAR_MAX(POLYMAC_X86_DEFAULT_AVX2_COLD),
    .avx512 = SCALAR_MAX(MIN(POLYMAC_X86_DEFAULT_AVX512_MIN8_COLD,
                             POLYMAC_X86_DEFAULT_AVX512_MIN4_COLD)),
    .ifma = SCALAR_MAX(POLYMAC_X86_DEFAULT_IFMA_COLD),
};

static const struct polymac_x86_tuning_row *_Atomic in_use;

const struct polymac_x86_tuning_row *polymac_x86_tuning_find(uint32_t vendor, uint32_t family,
                                                             uint32_t model)
{
    const unsigned last = polymac_x86_tuning_nrows - 1;
    for (unsigned i = 0; i < last; i++) {
        const struct polymac_x86_tuning_row *r = &polymac_x86_tuning_rows[i];
        if (r->vendor == vendor && r->family == family
            && (r->model == POLYMAC_X86_ANY_MODEL || r->model == model))
            return r;
    }
    return &polymac_x86_tuning_rows[last];
}

/* 0: no row written yet, 1: one thread writing it, 2: written */
static _Atomic unsigned written;

void polymac_x86_tuning_use(const struct polymac_x86_tuning_row *row)
{
    /* Once per process: the first caller writes (every caller passes the
     * same row, the CPU's), the others wait until it has, so that no
     * value a kernel or the front end reads is written while it is read
     * (the probe's callers run kernels only after it returns; the probe
     * publishes its bits with release, lib/cpu.c). */
    unsigned expect = 0;
    if (!atomic_compare_exchange_strong_explicit(&written, &expect, 1, memory_order_acquire,
                                                 memory_order_acquire)) {
        while (atomic_load_explicit(&written, memory_order_acquire) != 2)
            sched_yield();      /* a dozen stores in another thread */
        return;
    }
    /* a row that fails the check (none does: the table is constant and
     * checked by tests) falls back to the default */
    if (!ROW_OK(row->t))
        row = &polymac_x86_tuning_rows[polymac_x86_tuning_nrows - 1];
    polymac_x86_tuned = row->t;
    polymac_x86_scalar_max = scalar_max_of(&row->t);
    atomic_store_explicit(&in_use, row, memory_order_relaxed);
    atomic_store_explicit(&written, 2, memory_order_release);
}

const struct polymac_x86_tuning_row *polymac_x86_tuning_row(void)
{
    const struct polymac_x86_tuning_row *r;
    (void)polymac_cpu_bits();
    r = atomic_load_explicit(&in_use, memory_order_acquire);
    return r ? r : &polymac_x86_tuning_rows[polymac_x86_tuning_nrows - 1];
}
