/* kernel.h -- the contract every Poly1305 kernel keeps */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_KERNEL_H
#define POLYMAC_KERNEL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cpu.h"

/* Bytes of kernel state the front end provides, aligned to
 * POLYMAC_KS_ALIGN.  Every kernel _Static_asserts that its state fits. */
#define POLYMAC_KS_BYTES 1024
#define POLYMAC_KS_ALIGN 64

/* Little-endian loads and stores that work at any address and on
 * big-endian hosts (s390x); compilers turn them into single moves. */
static inline uint64_t polymac_load64le(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

static inline uint32_t polymac_load32le(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap32(v);
#endif
    return v;
}

static inline void polymac_store64le(uint8_t *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    memcpy(p, &v, 8);
}

static inline void polymac_store32le(uint8_t *p, uint32_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap32(v);
#endif
    memcpy(p, &v, 4);
}

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
    /* One-shot messages of at most this many bytes are computed by the
     * front end's inline radix-2^64 code (r64.h), with h, r and the key in
     * registers; a kernel that would run that same scalar code below its
     * break-even sets its break-even here.  Through init/blocks/emit a
     * 16-byte message pays twice as much for state round trips and calls.
     * 0 (the default) always uses the kernel's own functions. */
    size_t scalar_max;
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
     * message per vector lane, each with its own r; a lane whose message
     * ends takes the next one.  Messages are public in length only: the
     * padding of a last partial block and the final reduction of each
     * lane are constant-time.  Keeps to stack_bytes of stack, like the
     * other functions, and wipes what it stored of r, h and s.  The front
     * end hands it only messages of at most lanes_max bytes; longer ones
     * go through the kernel's one-shot path. */
    void (*lanes)(uint8_t *const out[], const uint8_t *const msgs[],
                  const size_t lens[], const uint8_t *const keys[], size_t n);
    size_t lanes_max;
};

/*
 * A SIMD kernel's cold break-even counted over a message.  Before the
 * powers of r exist, the blocks its scalar code has already taken in this
 * message count towards the break-even, so that a stream of pieces shorter
 * than it still reaches the vector code once enough of it has gone by (the
 * powers, paid once, are repaid by the warm calls that follow).  The
 * kernel keeps seen in its state with polymac_seen_add; it saturates at
 * POLYMAC_SEEN_MAX and is only ever compared, so a forged value picks a
 * path, never an address or a loop bound.
 */
#define POLYMAC_SEEN_MAX 1024u

/* Whether a call of nblocks reaches the cold break-even cold. */
static inline int polymac_seen_reaches(uint32_t seen, size_t nblocks, size_t cold)
{
    return nblocks + (seen < POLYMAC_SEEN_MAX ? seen : POLYMAC_SEEN_MAX) >= cold;
}

/* seen after the scalar code took nblocks more. */
static inline uint32_t polymac_seen_add(uint32_t seen, size_t nblocks)
{
    if (seen >= POLYMAC_SEEN_MAX || nblocks >= POLYMAC_SEEN_MAX - seen)
        return POLYMAC_SEEN_MAX;
    return seen + (uint32_t)nblocks;
}

/* r from the first half of the key, with the bits RFC 8439 section 2.5
 * clears, as two little-endian 64-bit words. */
static inline void polymac_clamp64(uint64_t *r0, uint64_t *r1, const uint8_t key[16])
{
    *r0 = polymac_load64le(key) & UINT64_C(0x0ffffffc0fffffff);
    *r1 = polymac_load64le(key + 8) & UINT64_C(0x0ffffffc0ffffffc);
}

/* The final partial block: rest (1..15) bytes, then 0x01, then zeros. */
static inline void polymac_pad_last(uint8_t last[16], const uint8_t *p, size_t rest)
{
    memset(last, 0, 16);
    memcpy(last, p, rest);
    last[rest] = 1;
}

/* Clears secrets so that the compiler cannot drop the stores as dead. */
static inline void polymac_wipe(void *p, size_t n)
{
    memset(p, 0, n);
    __asm__ __volatile__("" : : "r"(p) : "memory");
}

/* Adds s to the 128-bit value (h0, h1) and stores the tag: the last step
 * of every kernel's emit. */
static inline void polymac_add_s_store(uint8_t tag[16], uint64_t h0,
                                       uint64_t h1, const uint8_t s[16])
{
    uint64_t s0 = polymac_load64le(s), s1 = polymac_load64le(s + 8);
    uint64_t t0 = h0 + s0;
    uint64_t c = t0 < s0;
    polymac_store64le(tag, t0);
    polymac_store64le(tag + 8, h1 + s1 + c);
}

#endif
