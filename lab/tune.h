/* tune.h -- what a kernel's tune wrapper hands lab/tune: its thresholds
 *           and the forced builds that time them */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_TUNE_H
#define POLYMAC_TUNE_H

#include <stddef.h>
#include <stdint.h>

#include "kernel.h"

/*
 * Each x86 kernel's source is compiled again for lab/tune, several times
 * (lab/meson.build: one static library per TUNE_VARIANT), by a wrapper
 * lab/tune_<kernel>.c that defines the kernel's break-even macros (each
 * #ifndef-overridable in the source) and renames the kernel object before
 * it includes the source.  Variant 0 leaves the macros alone: it gives the
 * rows below, and runs with the values of the library's row for this CPU
 * (x86/tuning.c; lab/tune compiles the probe and the table in again).
 */

/* How a row times a length of n blocks (docs/performance.md, "Lab tools"). */
enum tune_mode {
    TUNE_COLD,   /* one-shot: clamp, init, blocks(n), emit, a new key each
                    call; slow NULL: the front end's radix-2^64 one-shot */
    TUNE_WARM,   /* a stream's later calls: 16 calls of blocks(n), then
                    emit, on a state whose powers exist (made by fast:
                    init, blocks(TUNE_PREP)); per call */
    TUNE_LIVE,   /* 16 calls of blocks(n) on a state whose lanes are live
                    (made by fast: init, blocks(TUNE_PREP), blocks(16));
                    per call */
    TUNE_FIRST,  /* a stream's first vector call: as TUNE_WARM, on a state
                    the slow build made (init, blocks(TUNE_PREP) through
                    its scalar code: no powers, and the prep's blocks
                    counted towards the cold break-even); per call */
};

/* blocks of the first call that makes a warm state */
#define TUNE_PREP 64

struct tune_row {
    const char *kernel;        /* registry name */
    const char *name;          /* the threshold's macro */
    uint32_t (*compiled)(void); /* its value in the library: the CPU's row
                                   (x86/tuning.c) or the kernel's constant */
    enum tune_mode mode;
    /* the build where the path the threshold guards runs from nmin on,
     * and the build where it never runs (NULL: the scalar one-shot) */
    const struct polymac_kernel *fast, *slow;
    const char *against;       /* what slow runs, for the table */
    size_t nmin, nmax;         /* the lengths timed; nmax 0: a default */
};

/* A threshold no call of lab/tune reaches (16 MB); a plain int, so
 * that a kernel may also use its macros in #if and in int arithmetic. */
#define TUNE_NEVER 1000000

/* A row's compiled value, as variant 0 of a wrapper reads it. */
#define TUNE_COMPILED(fn, macro)                                                  \
    static uint32_t fn(void)                                                      \
    {                                                                             \
        return (uint32_t)(macro);                                                 \
    }

#define TUNE_CAT_(a, b) a##b
#define TUNE_CAT(a, b) TUNE_CAT_(a, b)

#endif
