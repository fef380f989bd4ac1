/* calls.c -- a stream's cost per call, split between the kernel and the
 *            front end (build/lab/polymac-calls [KERNEL] [BYTES]) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/*
 * A message of BYTES (default 64 KiB) with the active kernel (or KERNEL,
 * through polymac_backend_select), three ways, interleaved over 2001
 * rounds, medians in ticks (test/ticks.h):
 *   kernel one call: the kernel's init, one blocks call of the whole
 *                    message, emit (no front end at all);
 *   kernel pieces:   the same with a blocks call per piece;
 *   update pieces:   polymac_init, polymac_update per piece, polymac_final.
 * Per call, for pieces of 256 B to 8 KiB: the kernel's extra cost (pieces
 * against one call) and the front end's (update against the kernel's
 * pieces), each divided by the calls less one.  This is what
 * polymac-ab --stream-vs-auth cannot show: where a streamed call's cost
 * over one-shot goes.  Linked with the library's own objects.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polymac.h"
#include "core.h"
#include "dispatch.h"
#include "kernel.h"
#include "../test/ticks.h"

enum { ROUNDS = 2001, NPIECES = 6 };
static const size_t pieces[NPIECES] = {256, 512, 1024, 2048, 4096, 8192};

static int cmp(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *t)
{
    qsort(t, ROUNDS, sizeof *t, cmp);
    return t[ROUNDS / 2];
}

static uint64_t kernel_run(const struct polymac_kernel *k, const uint8_t *msg, size_t len,
                           size_t piece, const uint8_t key[32])
{
    _Alignas(POLYMAC_KS_ALIGN) unsigned char ks[POLYMAC_KS_BYTES];
    uint8_t tag[16];
    const uint64_t t0 = test_ticks();
    polymac_kernel_init(k, ks, key);
    for (size_t o = 0; o < len; o += piece)
        k->blocks(ks, msg + o, (len - o < piece ? len - o : piece) / 16, 1);
    k->emit(ks, tag, key + 16);
    const uint64_t t = test_ticks() - t0;
    polymac_wipe_dead_stack(k);
    return t;
}

static uint64_t update_run(const uint8_t *msg, size_t len, size_t piece, const uint8_t key[32])
{
    polymac_state st;
    uint8_t tag[16];
    const uint64_t t0 = test_ticks();
    polymac_init(&st, key);
    for (size_t o = 0; o < len; o += piece)
        polymac_update(&st, msg + o, len - o < piece ? len - o : piece);
    polymac_final(&st, tag);
    return test_ticks() - t0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && polymac_backend_select(argv[1]) != POLYMAC_OK) {
        fprintf(stderr, "polymac-calls: no usable kernel %s\n", argv[1]);
        return 2;
    }
    const size_t len = argc > 2 ? (size_t)strtoul(argv[2], NULL, 0) & ~(size_t)15 : 65536;
    const struct polymac_kernel *k = polymac_active();
    uint8_t *msg = aligned_alloc(64, (len + 127) & ~(size_t)63), key[32];
    static uint64_t one[ROUNDS], kp[NPIECES][ROUNDS], up[NPIECES][ROUNDS];
    if (!k || !msg || len < 16) {
        fprintf(stderr, "usage: polymac-calls [KERNEL] [BYTES, at least 16]\n");
        return 2;
    }
    for (size_t i = 0; i < len; i++)
        msg[i] = (uint8_t)(i * 7 + 1);
    for (unsigned i = 0; i < 32; i++)
        key[i] = (uint8_t)(i * 3 + 5);
    for (unsigned r = 0; r < ROUNDS; r++) {
        one[r] = kernel_run(k, msg, len, len, key);
        for (unsigned p = 0; p < NPIECES; p++) {
            kp[p][r] = kernel_run(k, msg, len, pieces[p], key);
            up[p][r] = update_run(msg, len, pieces[p], key);
        }
    }
    const uint64_t base = median(one);
    printf("%s, %zu bytes; medians of %u interleaved rounds, ticks (TSC cycles on x86)\n"
           "kernel one call: %llu\n"
           "   piece  calls  kernel pieces  update pieces  per call: kernel  front end\n",
           k->name, len, ROUNDS, (unsigned long long)base);
    for (unsigned p = 0; p < NPIECES; p++) {
        const size_t calls = (len + pieces[p] - 1) / pieces[p];
        if (calls < 2)
            continue;
        const uint64_t a = median(kp[p]), b = median(up[p]);
        printf("%8zu %6zu %14llu %14llu %17.2f %10.2f\n", pieces[p], calls,
               (unsigned long long)a, (unsigned long long)b,
               ((double)a - (double)base) / (double)(calls - 1),
               ((double)b - (double)a) / (double)(calls - 1));
    }
    free(msg);
    return 0;
}
