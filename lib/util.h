/* util.h -- what kernels and the front end share beyond the contract:
 *           byte-order loads and stores, clamping, padding, wiping and
 *           the tag addition */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_UTIL_H
#define POLYMAC_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The one switch for sanitizer builds (AddressSanitizer with GCC or clang,
 * MemorySanitizer): the code they cannot see into, inline assembly and a
 * few instructions MemorySanitizer checks strictly, is replaced by plain
 * C or intrinsics computing the same. */
#if defined(__SANITIZE_ADDRESS__)
#  define POLYMAC_SANITIZED 1
#elif defined(__has_feature)
#  if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#    define POLYMAC_SANITIZED 1
#  endif
#endif

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

/* r from the first half of the key, with the bits RFC 8439 section 2.5
 * clears, as two little-endian 64-bit words. */
static inline void polymac_clamp64(uint64_t *r0, uint64_t *r1, const uint8_t key[16])
{
    *r0 = polymac_load64le(key) & UINT64_C(0x0ffffffc0fffffff);
    *r1 = polymac_load64le(key + 8) & UINT64_C(0x0ffffffc0ffffffc);
}

/* The class of a batch message by its block count: floor(log2(blocks)),
 * and 0 for the empty message (the batch lanes group messages of one
 * class). */
static inline unsigned polymac_block_class(size_t len)
{
    return len ? 63u - (unsigned)__builtin_clzll((unsigned long long)((len + 15) / 16)) : 0;
}

/* n (0..16) bytes from s to d, in at most two loads and two stores of
 * one width (overlapping when n is not a power of two): the stream's
 * buffer takes a piece's bytes without a call to memcpy. */
static inline void polymac_copy16(uint8_t *d, const uint8_t *s, size_t n)
{
    if (n >= 8) {
        uint64_t a, b;
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8);
        memcpy(d + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        memcpy(d, &a, 4);
        memcpy(d + n - 4, &b, 4);
    } else if (n) {
        const uint8_t a = s[0], b = s[n / 2], c = s[n - 1];
        d[0] = a;
        d[n / 2] = b;
        d[n - 1] = c;
    }
}

/* n (0..32) bytes from s to d: polymac_copy16, or from 16 bytes on two
 * overlapping 16-byte copies. */
static inline void polymac_copy32(uint8_t *d, const uint8_t *s, size_t n)
{
    if (n > 16) {
        uint64_t a[2], b[2];
        memcpy(a, s, 16);
        memcpy(b, s + n - 16, 16);
        memcpy(d, a, 16);
        memcpy(d + n - 16, b, 16);
    } else {
        polymac_copy16(d, s, n);
    }
}

/* The final partial block: rest (1..15) bytes, then 0x01, then zeros. */
static inline void polymac_pad_last(uint8_t last[16], const uint8_t *p, size_t rest)
{
    memset(last, 0, 16);
    memcpy(last, p, rest);
    last[rest] = 1;
}

/* Zeroes n bytes of dead stack below the caller's frame (n a multiple of
 * 8), called at the depth of the kernel call it follows (core.c). */
void polymac_burn_stack(uint32_t n);

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
