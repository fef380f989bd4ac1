/* kernel.h -- the contract every Poly1305 kernel keeps */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_KERNEL_H
#define POLYMAC_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "cpu.h"

/* Bytes of kernel state (ks) the front end provides, aligned to 64. */
#define POLYMAC_KS_BYTES 1024
#define POLYMAC_KS_ALIGN 64

/* The shortest message a kernel's auth is handed on any CPU of the
 * architecture: every auth runs the radix-2^64 one-shot below its cold
 * break-even, so the front end runs shorter ones itself, without the
 * call.  It is the smallest cold break-even of the architecture's
 * kernels, times 16: on x86-64 20 blocks (x86-avx512ifma on Intel
 * Emerald Rapids; every tuning row is checked against it,
 * POLYMAC_X86_TUNING_OK, and x86-avx512's constants are asserted),
 * elsewhere 8 (aarch64 and armhf NEON, s390x VX).  On x86-64 the front
 * end's cut is the CPU's own, at least this (dispatch.h:
 * polymac_auth_cut). */
#if defined(__x86_64__)
#define POLYMAC_AUTH_MIN 320
#else
#define POLYMAC_AUTH_MIN 128
#endif

/* A run of whole blocks at p, all with hibit 1: a message of auth_spans
 * is the concatenation of its spans (the AEAD layout of RFC 8439
 * section 2.8: the AAD's whole blocks, its padded last block, the
 * ciphertext's whole blocks, its padded last block and the lengths). */
struct polymac_span {
    const uint8_t *p;
    size_t nblocks;
};

/* The most spans a message of auth_spans has; loops over them stop there
 * too, so that compilers unroll them instead of vectorizing a loop of any
 * length. */
#define POLYMAC_SPANS_MAX 4

/* The most blocks one of n spans holds: what an auth_spans compares
 * with its break-even. */
static inline size_t polymac_spans_longest(const struct polymac_span sp[], size_t n)
{
    size_t longest = 0;
    for (size_t i = 0; i < n && i < POLYMAC_SPANS_MAX; i++)
        longest = sp[i].nblocks > longest ? sp[i].nblocks : longest;
    return longest;
}

/* A packet of the AEAD batch in a kernel's lanes (lanes->run_h): h, its
 * AAD's, as 64-bit words h0, h1, h2 (h2 <= 4); nt, the blocks after the
 * ciphertext's whole ones (1: the lengths, 2: its padded last block and
 * the lengths), which end tail: tail + 32 - 16 nt.  h and tail at 0 and
 * 32, whole blocks that a lane reads as such. */
struct polymac_aead_rec {
    uint64_t h[3];
    uint64_t nt;
    uint8_t tail[32];
};

/*
 * ks is plain data the front end may move with memcpy between calls (no
 * pointers); any byte pattern in it is safe to run (flags are compared,
 * never used as an address, index or loop bound); emit wipes what the
 * message wrote.  The front end clamps r, pads the last partial block
 * (bytes, 0x01, zeros; hibit 0) and buffers: a kernel sees whole blocks.
 *
 * Stack rule: once a call into a kernel returns, no key-derived value is
 * left in the dead stack below it.  A kernel whose functions zero their
 * own dead frames declares stack_bytes 0; otherwise the front end zeroes
 * stack_bytes below its frame after every call of init, blocks, emit and
 * lanes->run.  auth and auth_spans always zero their own.
 */
struct polymac_kernel {
    const char *name;          /* "x86-avx2" */
    uint32_t cpu_required;     /* POLYMAC_CPU_* bits the CPU must have */
    uint32_t cpu_avoid;        /* automatic selection skips it on these */
    void (*init)(void *ks, const uint8_t r[16]);                 /* h = 0 */
    void (*blocks)(void *ks, const uint8_t *in, size_t nblocks, uint32_t hibit);
    void (*emit)(void *ks, uint8_t tag[16], const uint8_t s[16]);
    /* Optional one-shot: writes the tag of msg under key (r unclamped,
     * then s) and returns 0, or returns 1 having written nothing, and
     * the front end runs init, blocks and emit.  Messages shorter than
     * POLYMAC_AUTH_MIN run the front end's radix-2^64 one-shot instead. */
    int (*auth)(uint8_t tag[16], const uint8_t *msg, size_t len, const uint8_t key[32]);
    /* Optional one-shot of a message made of n >= 1 spans (at most
     * POLYMAC_SPANS_MAX,
     * any nblocks, 0 allowed): writes its tag under key and returns 0, or
     * returns 1 having written nothing, and the front end runs the
     * radix-2^64 one-shot over the spans (the kernel's threshold, as in
     * auth).  Without it the front end runs init, blocks and emit. */
    int (*auth_spans)(uint8_t tag[16], const struct polymac_span sp[], size_t n,
                      const uint8_t key[32]);
    uint32_t stack_bytes;
    const struct polymac_lanes *lanes;     /* optional batch capability */
};

/*
 * A batch capability: out[i] = the tag of msgs[i][0..lens[i]) under
 * keys[i], for i < n, n >= 1, every lens[i] <= max_len (or max_len_full,
 * where the lanes have one); no out[i]
 * overlaps an input, unless n <= reads_first: a batch that short is read
 * whole before the first tag is written.  One message per lane, each with
 * its own r; only lengths steer branches.  lib/batch.c checks the entries
 * and decides which messages go here: runs of at least min_same messages
 * of one length, or min_mixed of mixed lengths.
 */
#define POLYMAC_LANES_SHORT_RUN 12

struct polymac_lanes {
    void (*run)(uint8_t *const out[], const uint8_t *const msgs[], const size_t lens[],
                const uint8_t *const keys[], size_t n);
    size_t max_len;
    /* Optional (full 0: none): of the messages longer than max_len, up
     * to max_len_full (run's) or max_len_h (run_h's ciphertexts), the
     * lanes take whole sets of full, and a last set only of full_min or
     * more (polymac_lanes_longer): for such lengths a set with more idle
     * lanes costs more than the one-shots */
    size_t max_len_full, full, full_min;
    size_t min_same, min_mixed;
    /* Optional (0: none): a batch of at most POLYMAC_LANES_SHORT_RUN
     * messages, every one shorter than min_len bytes, goes one by one
     * through the one-shot path (a loop of one-shots overlaps such
     * messages by itself, and the lanes' fixed cost is not paid back) */
    size_t min_len;
    size_t reads_first;
    /* Optional, the AEAD batch's: as run, but message i starts from the
     * h of recs[i] (the AAD's, which the front end runs in radix 2^64),
     * then lens[i] - 16 nt bytes of whole blocks at msgs[i], then the nt
     * blocks at the end of the record's tail (its padded last block, if
     * any, and the lengths), all with hibit 1: lens[i] a multiple of 16,
     * 32 <= lens[i] <= max_len_h + 32.  The records lie apart from the
     * inputs and the tags. */
    void (*run_h)(uint8_t *const out[], const struct polymac_aead_rec *const recs[],
                  const uint8_t *const msgs[], const size_t lens[],
                  const uint8_t *const keys[], size_t n);
    size_t max_len_h;
    /* The fewest packets run_h takes, where it asks for more than run
     * (0: min_same and min_mixed, as run) */
    size_t min_h;
};

/* How many of c messages longer than the lanes' max_len they take
 * (struct polymac_lanes: full, full_min). */
static inline size_t polymac_lanes_longer(const struct polymac_lanes *l, size_t c)
{
    if (!l->full)
        return c;
    const size_t r = c % l->full;
    return r < l->full_min ? c - r : c;
}

#endif
