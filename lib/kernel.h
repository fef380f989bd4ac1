/* kernel.h -- the contract every Poly1305 kernel keeps */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_KERNEL_H
#define POLYMAC_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "cpu.h"

/* Entries of a kernel's lanes_counts table. */
#define POLYMAC_LANES_COUNTS 4

/* Bytes of kernel state the front end provides, aligned to
 * POLYMAC_KS_ALIGN.  Every kernel _Static_asserts that its state fits. */
#define POLYMAC_KS_BYTES 1024
#define POLYMAC_KS_ALIGN 64

/*
 * The rules every kernel state (the ks the functions below receive) obeys:
 *
 * - It is plain data: the front end may copy it with memcpy to any other
 *   POLYMAC_KS_ALIGN-aligned address between calls (a caller may move its
 *   polymac_state), so it holds no pointer, into itself or elsewhere.
 * - Any byte pattern is safe to run: a caller may hand in a state it
 *   overwrote.  Flags and counts in it are only ever compared (a forged
 *   value picks a path, and gives a wrong tag), never used as an address,
 *   an index or a loop bound; the lengths that bound loops and wipes come
 *   from the call's arguments or are constants.
 * - hibit, as the front end passes it, is 0 or 1.
 * - emit leaves no secret in ks (r, s, h, powers of r, lanes): it wipes at
 *   least every byte this message's calls wrote, and nothing beyond
 *   POLYMAC_KS_BYTES.
 * - The stack below a call holds no key-derived value once the call
 *   returns (stack_bytes below says who zeroes it).
 *
 * Byte-order loads, clamping, padding and wiping helpers: util.h.  The
 * state machine every SIMD kernel shares (break-evens, powers, radix
 * switches, emit): simd/skeleton.h.
 */
struct polymac_kernel {
    const char *name;        /* "generic-r26", "x86-avx2", ... */
    uint32_t cpu_required;   /* POLYMAC_CPU_* bits; 0 for generic */
    uint32_t cpu_avoid;      /* automatic selection skips the kernel on a
                                CPU with any of these bits (it stays
                                selectable by name) */
    /* Starts a message: h = 0, r already clamped (16 bytes little-endian).
     * ks is POLYMAC_KS_BYTES, POLYMAC_KS_ALIGN-aligned, uninitialised. */
    void (*init)(void *ks, const uint8_t r[16]);
    /* Absorbs nblocks full 16-byte blocks; hibit is 1 for full blocks and 0
     * for the padded final partial block (the front end pads it).  in has no
     * alignment.  nblocks may be 0. */
    void (*blocks)(void *ks, const uint8_t *in, size_t nblocks, uint32_t hibit);
    /* Writes (h mod p + s) mod 2^128 little-endian and wipes every secret
     * the kernel stored in ks (it knows how much of ks it used, so a short
     * message does not pay for wiping precomputed powers it never made). */
    void (*emit)(void *ks, uint8_t tag[16], const uint8_t s[16]);
    /* Optional (NULL: init, blocks and emit): the whole one-shot MAC,
     * tag = Poly1305 of msg[0..len) under key (r unclamped, then s), any
     * len (msg may be NULL when len is 0), with ks (POLYMAC_KS_BYTES,
     * aligned) as scratch.  The same tag as init, blocks and emit; the
     * same rules for what it leaves in ks and on the stack.  For a kernel
     * whose one-shot path is cheaper when nothing follows the blocks
     * (x86-avx512ifma sums its lanes at once and makes the tag from h in
     * registers; in a stream it keeps the lanes for the next call and
     * sums them in emit). */
    void (*auth)(void *ks, uint8_t tag[16], const uint8_t *msg, size_t len,
                 const uint8_t key[32]);
    /* One-shot messages of at most this many bytes are computed by the
     * front end's inline radix-2^64 code (r64.h), with h, r and the key in
     * registers; a kernel that would run that same scalar code below its
     * break-even sets its break-even here.  Through init/blocks/emit a
     * 16-byte message pays twice as much for state round trips and calls.
     * 0 (the default) always uses the kernel's own functions. */
    size_t scalar_max;
    /* Where the value lives instead, for a kernel whose break-even
     * depends on the CPU (the x86 kernels: the CPU probe sets it from the
     * row it chose, x86/tuning.c); NULL: scalar_max above.  Kernel entries
     * stay const: only this size is written, never a function pointer. */
    const size_t *scalar_max_at;
    /* The stack policy (one for every kernel; README, Security): no
     * key-derived value (powers of r broadcast or spilled by the
     * compiler, limbs of r, h) is left in dead stack once a call into
     * the kernel returns; wiping named arrays cannot reach what the
     * compiler spills, so whole dead frames are zeroed.  Either the
     * kernel does it, right after each of its deep functions returns
     * and only for the path that ran, with its own widest stores (the
     * x86 kernels: lib/x86/burn.h), and declares 0 here; or it declares
     * here the bytes of stack below the front end's call its functions
     * may use, and the front end zeroes that much after every call into
     * it.  Depths are measured (frames, pushes, realignment, red zone)
     * and rounded up; test/test_stack.c fails when a key-derived word
     * survives below a call. */
    uint32_t stack_bytes;
    /* The same after a streamed piece of fewer than four blocks, which
     * every kernel runs in scalar code: 0 where that code is the
     * radix-2^64 one (h, r in registers), so that a stream of short
     * pieces does not pay for wiping kilobytes after each. */
    uint32_t stack_bytes_short;
    /* Optional batch entry (NULL: the batch front end runs each message
     * through the one-shot path).  out[i] = the tag of msgs[i][0..lens[i])
     * under keys[i] (32 bytes: r unclamped, then s), for i < n, n >= 1;
     * msgs[i] is valid for lens[i] bytes (it may be NULL when lens[i] is
     * 0), at any alignment; no out[i] overlaps a message or a key.  One
     * message per vector lane (or two interleaved in scalar code), each
     * with its own r; how the lanes take a batch of mixed lengths is the
     * kernel's.  Messages are public in length only: the
     * padding of a last partial block and the final reduction of each
     * lane are constant-time.  Keeps to stack_bytes of stack, like the
     * other functions, and wipes what it stored of r, h and s.  The front
     * end hands it only messages of at most lanes_max bytes; longer ones
     * go through the kernel's one-shot path. */
    void (*lanes)(uint8_t *const out[], const uint8_t *const msgs[],
                  const size_t lens[], const uint8_t *const keys[], size_t n);
    size_t lanes_max;
    /* The fewest messages worth the lanes entry (measured: README,
     * Batch), by the length of the longest: the first entry whose upto
     * covers it gives the count for messages of one length (same) and of
     * mixed lengths (mixed); an entry with upto 0 ends the table, and
     * past the table any count will do.  A run of the batch front end
     * with fewer messages of at most lanes_max bytes runs each through
     * the one-shot path (one set of lanes costs about as much for one
     * message as for eight, and a loop of one-shot calls overlaps
     * consecutive short messages in an out-of-order core by itself).
     * Counts at most 64 (a run).  The entry itself computes any batch it
     * is given. */
    struct polymac_lanes_count {
        size_t upto, same, mixed;
    } lanes_counts[POLYMAC_LANES_COUNTS];
    /* Optional: a batch of at most 64 messages, as the caller passed it
     * to polymac_auth_batch, before the front end has checked its
     * entries (the arrays are not NULL, n >= 1, and n is at least the
     * lanes' count for messages of lens[0] bytes).  Returns 1, having
     * written nothing, when it does not take the batch (the lengths are
     * not all lens[0], lens[0] is 0 or above lanes_max, or a tag lies in
     * the span of the messages and keys where a tag written early could
     * change an input read later): the front end goes on as usual;
     * POLYMAC_EINVAL when a tag, key or message is NULL, having written
     * nothing; 0 when it has written every tag.  It checks eight entries
     * an instruction where the front end checks one, and writes the
     * tags in place. */
    int (*lanes_batch)(uint8_t *const tags[], const void *const msgs[],
                       const size_t lens[], const uint8_t *const keys[], size_t n);
};

#endif
