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

/* The shortest message a kernel's auth is handed: every auth runs the
 * radix-2^64 one-shot below its cold break-even, which is at least eight
 * blocks, so the front end runs shorter ones itself, without the call. */
#define POLYMAC_AUTH_MIN 128

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
 * lanes->run.  auth always zeroes its own.
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
    uint32_t stack_bytes;
    const struct polymac_lanes *lanes;     /* optional batch capability */
};

/*
 * A batch capability: out[i] = the tag of msgs[i][0..lens[i]) under
 * keys[i], for i < n, n >= 1, every lens[i] <= max_len; no out[i]
 * overlaps an input, unless n <= reads_first: a batch that short is read
 * whole before the first tag is written.  One message per lane, each with
 * its own r; only lengths steer branches.  lib/batch.c checks the entries
 * and decides which messages go here: runs of at least min_same messages
 * of one length, or min_mixed of mixed lengths.
 */
struct polymac_lanes {
    void (*run)(uint8_t *const out[], const uint8_t *const msgs[], const size_t lens[],
                const uint8_t *const keys[], size_t n);
    size_t max_len;
    size_t min_same, min_mixed;
    size_t reads_first;
};

#endif
