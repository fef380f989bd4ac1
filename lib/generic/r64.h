/* r64.h -- scalar radix-2^64 Poly1305 arithmetic, shared by generic-r64 and
 *          the short-message paths of the SIMD kernels */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_R64_H
#define POLYMAC_R64_H

#include "../util.h"

/* 64-bit targets compute with unsigned __int128.  32-bit ones have no
 * 64x64->128 multiply: there the same state is computed in 32-bit words
 * (polymac_r64_core32), for the SIMD kernels' scalar path (arm-neon);
 * their portable kernel stays generic-r26x2 (no generic-r64). */
#if defined(__SIZEOF_INT128__)
typedef unsigned __int128 polymac_u128;
#endif

/* h = h0 + h1 2^64 + h2 2^128, partially reduced: h2 < 2^63 between
 * blocks (polymac_r64_core says why).  r = r0 + r1 2^64 (clamped, so
 * r0, r1 < 2^60 and 4 | r1). */
struct polymac_r64 {
    uint64_t h0, h1, h2;
    uint64_t r0, r1;
};

static inline void polymac_r64_init(struct polymac_r64 *st, const uint8_t r[16])
{
    st->h0 = st->h1 = st->h2 = 0;
    polymac_clamp64(&st->r0, &st->r1, r);     /* a no-op on a clamped r */
}

/* The block loop runs as inline assembly where the architecture's folder
 * has it (x86/, aarch64/, power/, s390x/, riscv64/: r64_asm.h, which says
 * why and when); same arithmetic and limbs as the C loop below, so both give
 * bit-identical h.  Sanitizer builds (POLYMAC_SANITIZED, util.h: they
 * cannot see inside assembly) and POLYMAC_R64_PORTABLE builds (tools/
 * run-tests runs the kernel suites on one) use C. */
#if defined(__GNUC__) && !defined(POLYMAC_R64_PORTABLE) && !defined(POLYMAC_SANITIZED)
#  if defined(__x86_64__)
#    include "../x86/r64_asm.h"
#  elif defined(__aarch64__)
#    include "../aarch64/r64_asm.h"
#  elif defined(__powerpc64__)
#    include "../power/r64_asm.h"
#  elif defined(__s390x__)
#    include "../s390x/r64_asm.h"
#  elif defined(__riscv) && __riscv_xlen == 64
#    include "../riscv64/r64_asm.h"
#  endif
#endif

/* h = (h + m) r mod p for each block, partially reduced.  With
 * h = h0 + h1 2^64 + h2 2^128 and r = r0 + r1 2^64 (4 | r1):
 *   h1 r1 2^128 = h1 (r1/4) 2^130        == s1 h1           (s1 = 5 r1/4)
 *   h2 r1 2^192 = h2 (r1/4) 2^64 2^130   == s1 h2 2^64
 *   h2 r0 2^128 = (4 q + t) r0 2^128     == 5 r0 q + t r0 2^128  (q = h2/4, t = h2%4)
 * so the product lands in three columns with no reduction step after the
 * multiplies: the 2^130 fold of h2 happens on the way in, off the critical
 * path (the arrangement of Nettle's x86-64 code).  h2 is not kept small:
 * it stays below 2^63 (a < 2^125.5, b + (a >> 64) < 2^125.4, so the new
 * h2 < 2^61.4 + 3 r0 < 2^62.3; with a carry and hibit added it is still
 * below 2^63).  Keeping h2 below 8 instead (a reduction after the
 * multiplies, as OpenSSL does) saves two full multiplies but lengthens
 * the chain from one block to the next: measured slower on Intel, in C
 * and in assembly alike.  Works on plain scalars so callers can keep h in
 * registers. */
#if !defined(__SIZEOF_INT128__)
static inline void polymac_r64_fold(uint64_t h[3], uint64_t h0, uint64_t h1, uint64_t h2);

/*
 * polymac_r64_core in 32-bit words, for targets without unsigned __int128:
 * h = w0 + w1 2^32 + w2 2^64 + w3 2^96 + w4 2^128 (the same bits as h0,
 * h1, h2), r = k0 + k1 2^32 + k2 2^64 + k3 2^96.  Clamping leaves k < 2^28
 * and 4 | k1, k2, k3, so a product at 2^128 and above folds exactly:
 * k 2^128 = (k/4) 2^130 == 5 k/4 = k + (k >> 2) =: s.  Sixteen 32x32->64
 * products a block plus three small ones by w4 (the shape of OpenSSL's
 * poly1305-armv4 scalar code):
 *   d0 = w0 k0 + w1 s3 + w2 s2 + w3 s1
 *   d1 = w0 k1 + w1 k0 + w2 s3 + w3 s2 + w4 s1
 *   d2 = w0 k2 + w1 k1 + w2 k0 + w3 s3 + w4 s2
 *   d3 = w0 k3 + w1 k2 + w2 k1 + w3 k0 + w4 s3
 *   d4 = w4 k0
 * then the carries, and the bits from 2^130 up folded back times 5, so
 * that w4 <= 4 between blocks (h2 far below r64's bound of 2^63).  With
 * w4 <= 6 after the block is added, each d is below 2^62.3, and the new
 * w4 (d4 plus d3's carry) below 2^31.4.
 */
static inline void polymac_r64_core32(uint64_t h[3], uint64_t r0, uint64_t r1,
                                      const uint8_t *in, size_t nblocks, uint32_t hibit)
{
    const uint32_t k0 = (uint32_t)r0, k1 = (uint32_t)(r0 >> 32);
    const uint32_t k2 = (uint32_t)r1, k3 = (uint32_t)(r1 >> 32);
    const uint32_t s1 = k1 + (k1 >> 2), s2 = k2 + (k2 >> 2), s3 = k3 + (k3 >> 2);
    uint64_t f[3];
    polymac_r64_fold(f, h[0], h[1], h[2]);            /* any h2: w4 <= 4 */
    uint32_t w0 = (uint32_t)f[0], w1 = (uint32_t)(f[0] >> 32);
    uint32_t w2 = (uint32_t)f[1], w3 = (uint32_t)(f[1] >> 32), w4 = (uint32_t)f[2];

    for (; nblocks; nblocks--, in += 16) {
        uint64_t t = (uint64_t)w0 + polymac_load32le(in);
        w0 = (uint32_t)t;
        t = (t >> 32) + w1 + polymac_load32le(in + 4);
        w1 = (uint32_t)t;
        t = (t >> 32) + w2 + polymac_load32le(in + 8);
        w2 = (uint32_t)t;
        t = (t >> 32) + w3 + polymac_load32le(in + 12);
        w3 = (uint32_t)t;
        w4 += (uint32_t)(t >> 32) + hibit;            /* <= 6 */

        uint64_t d0 = (uint64_t)w0 * k0 + (uint64_t)w1 * s3 + (uint64_t)w2 * s2
                      + (uint64_t)w3 * s1;
        uint64_t d1 = (uint64_t)w0 * k1 + (uint64_t)w1 * k0 + (uint64_t)w2 * s3
                      + (uint64_t)w3 * s2 + w4 * s1;
        uint64_t d2 = (uint64_t)w0 * k2 + (uint64_t)w1 * k1 + (uint64_t)w2 * k0
                      + (uint64_t)w3 * s3 + w4 * s2;
        uint64_t d3 = (uint64_t)w0 * k3 + (uint64_t)w1 * k2 + (uint64_t)w2 * k1
                      + (uint64_t)w3 * k0 + w4 * s3;
        uint32_t d4 = w4 * k0;
        d1 += d0 >> 32;
        d2 += d1 >> 32;
        d3 += d2 >> 32;
        w4 = d4 + (uint32_t)(d3 >> 32);
        /* h mod 2^130 + 5 (h >> 130) */
        t = (uint64_t)(uint32_t)d0 + (w4 >> 2) * 5;
        w0 = (uint32_t)t;
        t = (t >> 32) + (uint32_t)d1;
        w1 = (uint32_t)t;
        t = (t >> 32) + (uint32_t)d2;
        w2 = (uint32_t)t;
        t = (t >> 32) + (uint32_t)d3;
        w3 = (uint32_t)t;
        w4 = (w4 & 3) + (uint32_t)(t >> 32);
    }
    h[0] = w0 | (uint64_t)w1 << 32;
    h[1] = w2 | (uint64_t)w3 << 32;
    h[2] = w4;
}
#endif

static inline void polymac_r64_core(uint64_t h[3], uint64_t r0, uint64_t r1,
                                    const uint8_t *in, size_t nblocks, uint64_t hibit)
{
#if !defined(__SIZEOF_INT128__)
    polymac_r64_core32(h, r0, r1, in, nblocks, (uint32_t)hibit);
#else
    const uint64_t s1 = (r1 >> 2) * 5;                /* < 2^60.4 */
    uint64_t h0 = h[0], h1 = h[1], h2 = h[2];

#ifdef POLYMAC_R64_LOOP
    polymac_r64_loop(&h0, &h1, &h2, r0, r1, s1, in, nblocks, hibit);
#else
    const uint64_t r0x5 = r0 * 5;                     /* < 2^62.4 */
    while (nblocks--) {
        /* h += m, with 64-bit carries (GCC spills 128-bit sums to memory) */
        uint64_t m0 = polymac_load64le(in), m1 = polymac_load64le(in + 8);
        h0 += m0;
        uint64_t c = h0 < m0;
        h1 += c;
        c = h1 < c;
        h1 += m1;
        c += h1 < m1;
        h2 += c + hibit;                              /* < 2^63 */

        polymac_u128 a = (polymac_u128)h0 * r0 + (polymac_u128)h1 * s1
                         + (polymac_u128)(h2 >> 2) * r0x5;
        polymac_u128 b = (polymac_u128)h0 * r1 + (polymac_u128)h1 * r0
                         + (polymac_u128)h2 * s1;
        h0 = (uint64_t)a;
        b += (uint64_t)(a >> 64);
        h1 = (uint64_t)b;
        h2 = (uint64_t)(b >> 64) + (h2 & 3) * r0;
        in += 16;
    }
#endif
    h[0] = h0;
    h[1] = h1;
    h[2] = h2;
#endif
}

static inline void polymac_r64_blocks(struct polymac_r64 *st, const uint8_t *in,
                                      size_t nblocks, uint64_t hibit)
{
#ifdef POLYMAC_R64_BLOCKS
    polymac_r64_blocks_arch(st, in, nblocks, hibit);
#else
    uint64_t h[3] = {st->h0, st->h1, st->h2};
    polymac_r64_core(h, st->r0, st->r1, in, nblocks, hibit);
    st->h0 = h[0];
    st->h1 = h[1];
    st->h2 = h[2];
#endif
}

/* h mod 2^130 + 5 (h >> 130): the same value mod p, with h2 <= 4. */
static inline void polymac_r64_fold(uint64_t h[3], uint64_t h0, uint64_t h1, uint64_t h2)
{
    uint64_t c = (h2 >> 2) * 5;
#if !defined(__SIZEOF_INT128__)
    h0 += c;
    c = h0 < c;
    h1 += c;
    h[0] = h0;
    h[1] = h1;
    h[2] = (h2 & 3) + (h1 < c);
#else
    polymac_u128 t = (polymac_u128)h0 + c;
    h[0] = (uint64_t)t;
    t = (t >> 64) + h1;
    h[1] = (uint64_t)t;
    h[2] = (h2 & 3) + (uint64_t)(t >> 64);
#endif
}

/* Fully reduces h mod p (constant time) and returns it in (*lo, *hi);
 * h2 may be anything below 2^63. */
static inline void polymac_r64_reduce(uint64_t h0, uint64_t h1, uint64_t h2,
                                      uint64_t *lo, uint64_t *hi)
{
    uint64_t f[3];
    polymac_r64_fold(f, h0, h1, h2);
    h0 = f[0];
    h1 = f[1];
    h2 = f[2];
    /* g = h + 5 - 2^130; use it when h >= p, i.e. when g has bit 130 */
#if !defined(__SIZEOF_INT128__)
    uint64_t g0 = h0 + 5, c = g0 < 5;
    uint64_t g1 = h1 + c;
    uint64_t g2 = h2 + (g1 < c);
#else
    polymac_u128 t = (polymac_u128)h0 + 5;
    uint64_t g0 = (uint64_t)t;
    t = (t >> 64) + h1;
    uint64_t g1 = (uint64_t)t;
    uint64_t g2 = h2 + (uint64_t)(t >> 64);
#endif
    uint64_t mask = (uint64_t)0 - (g2 >> 2);      /* all ones when h >= p */
    *lo = (h0 & ~mask) | (g0 & mask);
    *hi = (h1 & ~mask) | (g1 & mask);
}

/* (h mod p + s) mod 2^128 into tag, h2 below 2^63: polymac_r64_reduce
 * (h2's bits from 2^130 folded in times 5; g = h + 5, which reaches 2^130
 * exactly when h >= p, chosen by a mask, no branch) and the sum with s,
 * in the architecture's assembly where r64_asm.h has it. */
static inline void polymac_r64_finish(uint8_t tag[16], uint64_t h0, uint64_t h1,
                                      uint64_t h2, const uint8_t s[16])
{
#ifdef POLYMAC_R64_FINISH
    polymac_r64_finish_arch(tag, h0, h1, h2, s);
#else
    uint64_t lo, hi;
    polymac_r64_reduce(h0, h1, h2, &lo, &hi);
    polymac_add_s_store(tag, lo, hi, s);
#endif
}

/* The tag from h in radix 2^64: reduced, plus s, stored.  Every kernel's
 * emit ends here; wiping is the caller's (it knows what it stored). */
static inline void polymac_r64_tag(const struct polymac_r64 *st, uint8_t tag[16],
                                   const uint8_t s[16])
{
    polymac_r64_finish(tag, st->h0, st->h1, st->h2, s);
}

static inline void polymac_r64_emit(struct polymac_r64 *st, uint8_t tag[16],
                                    const uint8_t s[16])
{
    polymac_r64_tag(st, tag, s);
    polymac_wipe(st, sizeof *st);
}

/* The whole one-shot MAC in radix 2^64.  h and r stay in local scalars
 * (registers); only the padded copy of a partial block touches memory,
 * and it is wiped.  Callers keep the stack rule with polymac_r64_oneshot. */
static inline void polymac_r64_auth(uint8_t tag[16], const uint8_t *msg, size_t len,
                                    const uint8_t key[32])
{
#ifdef POLYMAC_R64_AUTH
    uint64_t h[3];
    polymac_r64_auth_arch(h, msg, len, key);
    polymac_r64_finish(tag, h[0], h[1], h[2], key + 16);
#else
    uint64_t h[3] = {0, 0, 0}, r0, r1;
    size_t rest = len % 16;
    polymac_clamp64(&r0, &r1, key);
    polymac_r64_core(h, r0, r1, msg, len / 16, 1);
    if (rest) {
        uint8_t last[16];
        polymac_pad_last(last, msg + (len - rest), rest);
        polymac_r64_core(h, r0, r1, last, 1, 0);
        polymac_wipe(last, sizeof last);
    }
    polymac_r64_finish(tag, h[0], h[1], h[2], key + 16);
#endif
}

/*
 * polymac_r64_auth under the stack rule (kernel.h), the short messages'
 * one-shot of every kernel with an auth.  Where the one-shot is x86-64
 * assembly (one asm block from the key's load to h: no compiler can
 * spill r), h, r and the key stay in registers and the code is inlined
 * into its caller.  Elsewhere the loop is C, and compilers spill r, s1 or
 * h into the frame (GCC 12 on s390x spills r1): the code runs out of
 * line, and its dead frame is zeroed right after, as deep as
 * POLYMAC_R64_STACK_BYTES (the frame -fstack-usage gives, rounded up with
 * room to spare).
 */
#ifdef POLYMAC_R64_ASM
static inline void polymac_r64_oneshot(uint8_t tag[16], const uint8_t *msg, size_t len,
                                       const uint8_t key[32])
{
    polymac_r64_auth(tag, msg, len, key);
}
#else
#if defined(__aarch64__) || defined(__powerpc64__)
#define POLYMAC_R64_STACK_BYTES 256     /* frames of 112 (aarch64), 208 (ppc64le) */
#else
#define POLYMAC_R64_STACK_BYTES 512     /* s390x: 280, a 160-byte register save area */
#endif
__attribute__((noinline)) static void polymac_r64_oneshot_frame(uint8_t tag[16],
                                                                const uint8_t *msg, size_t len,
                                                                const uint8_t key[32])
{
    polymac_r64_auth(tag, msg, len, key);
}

static inline void polymac_r64_oneshot(uint8_t tag[16], const uint8_t *msg, size_t len,
                                       const uint8_t key[32])
{
    polymac_r64_oneshot_frame(tag, msg, len, key);
    polymac_burn_stack(POLYMAC_R64_STACK_BYTES);
}
#endif

/* Radix conversions for SIMD kernels that keep h in smaller limbs.
 * r26: five limbs of 26 bits (the top limb may exceed 26 bits slightly
 * when h is only partially reduced; to_r26 keeps all bits). */
static inline void polymac_r64_to_r26(const struct polymac_r64 *st, uint64_t l[5])
{
    uint64_t h[3];
    polymac_r64_fold(h, st->h0, st->h1, st->h2);      /* h2 <= 4 */
    l[0] = h[0] & 0x3ffffff;
    l[1] = (h[0] >> 26) & 0x3ffffff;
    l[2] = ((h[0] >> 52) | (h[1] << 12)) & 0x3ffffff;
    l[3] = (h[1] >> 14) & 0x3ffffff;
    l[4] = (h[1] >> 40) | (h[2] << 24);
}

/* Takes limbs of up to 63 bits each (carries not yet propagated) and
 * stores their sum h = l0 + l1 2^26 + ... + l4 2^104 in st, partially
 * reduced (h2 <= 4). */
static inline void polymac_r64_from_r26(struct polymac_r64 *st, const uint64_t l[5])
{
#if !defined(__SIZEOF_INT128__)
    /* one carry pass leaves limbs below 2^26 and c = h >> 130 */
    uint64_t a[5], c = 0, f[3];
    for (int i = 0; i < 5; i++) {
        uint64_t t = l[i] + c;
        a[i] = t & 0x3ffffff;
        c = t >> 26;
    }
    polymac_r64_fold(f, a[0] | a[1] << 26 | a[2] << 52, a[2] >> 12 | a[3] << 14 | a[4] << 40,
                     a[4] >> 24 | c << 2);
    st->h0 = f[0];
    st->h1 = f[1];
    st->h2 = f[2];
#else
    polymac_u128 t = (polymac_u128)l[0] + ((polymac_u128)l[1] << 26)
                     + ((polymac_u128)l[2] << 52);
    uint64_t h0 = (uint64_t)t;
    t = (t >> 64) + ((polymac_u128)l[3] << 14) + ((polymac_u128)l[4] << 40);
    uint64_t f[3];
    polymac_r64_fold(f, h0, (uint64_t)t, (uint64_t)(t >> 64));
    st->h0 = f[0];
    st->h1 = f[1];
    st->h2 = f[2];
#endif
}

#if defined(__SIZEOF_INT128__)
/* r44: three limbs of 44, 44 and 42 bits (radix 2^44, for IFMA). */
static inline void polymac_r64_to_r44(const struct polymac_r64 *st, uint64_t l[3])
{
    uint64_t h[3];
    polymac_r64_fold(h, st->h0, st->h1, st->h2);      /* h2 <= 4 */
    l[0] = h[0] & 0xfffffffffff;
    l[1] = ((h[0] >> 44) | (h[1] << 20)) & 0xfffffffffff;
    l[2] = (h[1] >> 24) | (h[2] << 40);
}

/* The sum l0 + l1 2^44 + l2 2^88 of limbs of up to 63 bits each into
 * h[3], not reduced: h2 below 2^24, as polymac_r64_finish takes it. */
static inline void polymac_r64_sum44(uint64_t h[3], const uint64_t l[3])
{
    polymac_u128 t = (polymac_u128)l[0] + ((polymac_u128)l[1] << 44);
    h[0] = (uint64_t)t;
    t = (t >> 64) + ((polymac_u128)l[2] << 24);
    h[1] = (uint64_t)t;
    h[2] = (uint64_t)(t >> 64);
}

/* The same sum stored in st, partially reduced. */
static inline void polymac_r64_from_r44(struct polymac_r64 *st, const uint64_t l[3])
{
    uint64_t h[3], f[3];
    polymac_r64_sum44(h, l);
    polymac_r64_fold(f, h[0], h[1], h[2]);
    st->h0 = f[0];
    st->h1 = f[1];
    st->h2 = f[2];
}
#endif

#endif
