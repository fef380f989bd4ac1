/* tuning.h -- the x86 kernels' thresholds per CPU: const rows, and the
 *             one the dispatcher chose for this process */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_X86_TUNING_H
#define POLYMAC_X86_TUNING_H

#include <stdatomic.h>
#include <stdint.h>

#include "../cpu.h"
#include "../kernel.h"

/* The thresholds, in blocks per call, that depend on the CPU.  Each
 * kernel's source says what its own choose (POLYMAC_AVX2_COLD, ...).
 * They only pick a path: every row holds values its kernels allow, and
 * cold break-evens of at least POLYMAC_AUTH_MIN / 16 blocks (kernel.h: the
 * front end runs shorter one-shots itself), POLYMAC_X86_TUNING_OK, which
 * the tuning-row test checks for every row. */
struct polymac_x86_tuning {
    uint32_t avx2_cold, avx2_warm, avx2_r8;
    uint32_t ifma_cold, ifma_warm, ifma_live;
};

#define POLYMAC_X86_TUNING_OK(t)                                                 \
    ((t).avx2_cold >= POLYMAC_AUTH_MIN / 16 && (t).avx2_warm >= 4 && (t).avx2_r8 >= 1 \
     && (t).ifma_cold >= POLYMAC_AUTH_MIN / 16 && (t).ifma_warm >= 1              \
     && (t).ifma_live >= 1                                                        \
     && (t).ifma_live <= 16)

/* a row for every model of its family */
#define POLYMAC_X86_ANY_MODEL 0xffffffffu

struct polymac_x86_tuning_row {
    const char *name;       /* "intel-emerald-rapids", ..., "default" */
    const char *source;     /* where its values come from */
    uint32_t vendor, family, model;     /* as polymac_cpu_id reports them */
    struct polymac_x86_tuning t;
};

/* The table, default last. */
extern const struct polymac_x86_tuning_row polymac_x86_tuning_rows[];
extern const unsigned polymac_x86_tuning_nrows;

/* The row for a CPU: its own where the table has one, else the default. */
const struct polymac_x86_tuning_row *polymac_x86_tuning_find(struct polymac_cpu_id id);

/* Chooses this CPU's row (the dispatcher calls it before it runs or
 * publishes a kernel; every call stores the same pointer). */
void polymac_x86_tuning_choose(void);

/* x86-avx512's cold break-evens (its own, compiled in; lab/tune's builds
 * of it define others) */
#define POLYMAC_X86_AVX512_MIN4_COLD 55
#define POLYMAC_X86_AVX512_MIN8_COLD 45

/* polymac_auth_cut for a CPU with these POLYMAC_CPU_* bits and row t:
 * 16 times the smallest cold break-even of the x86 kernels the bits allow
 * (x86-avx512ifma, x86-avx2, x86-avx512), at least POLYMAC_AUTH_MIN;
 * with none of them 1 GiB (every one-shot is radix 2^64 anyway). */
uint32_t polymac_x86_auth_cut(const struct polymac_x86_tuning *t, uint32_t cpu_bits);

/* The row in use: the default until the dispatcher chose. */
extern const struct polymac_x86_tuning_row *_Atomic polymac_x86_tuning_in_use;

static inline const struct polymac_x86_tuning *polymac_x86_tuning(void)
{
    return &atomic_load_explicit(&polymac_x86_tuning_in_use, memory_order_relaxed)->t;
}

#endif
