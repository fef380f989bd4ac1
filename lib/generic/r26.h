/* r26.h -- portable radix-2^26 Poly1305 arithmetic (32x32->64 multiplies
 *          only), shared by generic-r26 and generic-r26x2 */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_R26_H
#define POLYMAC_R26_H

#include "../util.h"

#define POLYMAC_R26_MASK 0x3ffffffu

/* A multiplier in radix 2^26 with its limbs 1..4 premultiplied by 5:
 * limb products that land at 2^130 and above fold back times 5. */
struct polymac_r26_key {
    uint32_t r[5];
    uint32_t s[5];   /* s[i] = 5 r[i]; s[0] unused */
};

/* Splits 16 little-endian bytes into five 26-bit limbs; top carries
 * hibit at bit 128. */
static inline void polymac_r26_split(uint32_t l[5], const uint8_t b[16], uint32_t hibit)
{
    uint32_t t0 = polymac_load32le(b), t1 = polymac_load32le(b + 4);
    uint32_t t2 = polymac_load32le(b + 8), t3 = polymac_load32le(b + 12);
    l[0] = t0 & POLYMAC_R26_MASK;
    l[1] = ((t0 >> 26) | (t1 << 6)) & POLYMAC_R26_MASK;
    l[2] = ((t1 >> 20) | (t2 << 12)) & POLYMAC_R26_MASK;
    l[3] = ((t2 >> 14) | (t3 << 18)) & POLYMAC_R26_MASK;
    l[4] = (t3 >> 8) | (hibit << 24);
}

static inline void polymac_r26_key_set(struct polymac_r26_key *k, const uint32_t r[5])
{
    for (int i = 0; i < 5; i++) {
        k->r[i] = r[i];
        k->s[i] = r[i] * 5;
    }
}

/* A message's start: the key from the clamped r, h = 0. */
static inline void polymac_r26_start(struct polymac_r26_key *k, uint32_t h[5],
                                     const uint8_t r[16])
{
    uint32_t l[5];
    polymac_r26_split(l, r, 0);
    polymac_r26_key_set(k, l);
    memset(h, 0, 5 * sizeof h[0]);
}

/* d += h r (mod p, before carrying).  With h limbs < 2^27 and r limbs
 * < 2^26, each d < 5 2^27 2^28.33 < 2^58: two products fit one d. */
static inline void polymac_r26_mul_acc(uint64_t d[5], const uint32_t h[5],
                                       const struct polymac_r26_key *k)
{
    const uint32_t *r = k->r, *s = k->s;
    d[0] += (uint64_t)h[0] * r[0] + (uint64_t)h[1] * s[4] + (uint64_t)h[2] * s[3]
          + (uint64_t)h[3] * s[2] + (uint64_t)h[4] * s[1];
    d[1] += (uint64_t)h[0] * r[1] + (uint64_t)h[1] * r[0] + (uint64_t)h[2] * s[4]
          + (uint64_t)h[3] * s[3] + (uint64_t)h[4] * s[2];
    d[2] += (uint64_t)h[0] * r[2] + (uint64_t)h[1] * r[1] + (uint64_t)h[2] * r[0]
          + (uint64_t)h[3] * s[4] + (uint64_t)h[4] * s[3];
    d[3] += (uint64_t)h[0] * r[3] + (uint64_t)h[1] * r[2] + (uint64_t)h[2] * r[1]
          + (uint64_t)h[3] * r[0] + (uint64_t)h[4] * s[4];
    d[4] += (uint64_t)h[0] * r[4] + (uint64_t)h[1] * r[3] + (uint64_t)h[2] * r[2]
          + (uint64_t)h[3] * r[1] + (uint64_t)h[4] * r[0];
}

/* h = d with carries propagated: limbs end below 2^26 except h[1], which
 * may reach 2^26 + 2^6 (partially reduced, fine as multiplier input). */
static inline void polymac_r26_carry(uint32_t h[5], const uint64_t d[5])
{
    uint64_t c, t;
    c = d[0] >> 26; h[0] = (uint32_t)d[0] & POLYMAC_R26_MASK;
    t = d[1] + c; c = t >> 26; h[1] = (uint32_t)t & POLYMAC_R26_MASK;
    t = d[2] + c; c = t >> 26; h[2] = (uint32_t)t & POLYMAC_R26_MASK;
    t = d[3] + c; c = t >> 26; h[3] = (uint32_t)t & POLYMAC_R26_MASK;
    t = d[4] + c; c = t >> 26; h[4] = (uint32_t)t & POLYMAC_R26_MASK;
    t = h[0] + c * 5; h[0] = (uint32_t)t & POLYMAC_R26_MASK;
    h[1] += (uint32_t)(t >> 26);
}

/* One block: h = (h + m) r. */
static inline void polymac_r26_block(uint32_t h[5], const uint8_t *in, uint32_t hibit,
                                     const struct polymac_r26_key *k)
{
    uint32_t m[5];
    uint64_t d[5] = {0, 0, 0, 0, 0};
    polymac_r26_split(m, in, hibit);
    for (int i = 0; i < 5; i++)
        h[i] += m[i];
    polymac_r26_mul_acc(d, h, k);
    polymac_r26_carry(h, d);
}

/* Fully reduces h mod p in constant time and writes (h + s) mod 2^128. */
static inline void polymac_r26_finish(uint32_t h[5], uint8_t tag[16], const uint8_t s[16])
{
    uint32_t h0 = h[0], h1 = h[1], h2 = h[2], h3 = h[3], h4 = h[4], c;
    c = h1 >> 26; h1 &= POLYMAC_R26_MASK; h2 += c;
    c = h2 >> 26; h2 &= POLYMAC_R26_MASK; h3 += c;
    c = h3 >> 26; h3 &= POLYMAC_R26_MASK; h4 += c;
    c = h4 >> 26; h4 &= POLYMAC_R26_MASK; h0 += c * 5;
    c = h0 >> 26; h0 &= POLYMAC_R26_MASK; h1 += c;

    /* g = h + 5 - 2^130; keep it when it does not borrow (h >= p) */
    uint32_t g0, g1, g2, g3, g4;
    g0 = h0 + 5; c = g0 >> 26; g0 &= POLYMAC_R26_MASK;
    g1 = h1 + c; c = g1 >> 26; g1 &= POLYMAC_R26_MASK;
    g2 = h2 + c; c = g2 >> 26; g2 &= POLYMAC_R26_MASK;
    g3 = h3 + c; c = g3 >> 26; g3 &= POLYMAC_R26_MASK;
    g4 = h4 + c - (1u << 26);
    uint32_t keep_g = (g4 >> 31) - 1;     /* all ones when no borrow */
    h0 = (h0 & ~keep_g) | (g0 & keep_g);
    h1 = (h1 & ~keep_g) | (g1 & keep_g);
    h2 = (h2 & ~keep_g) | (g2 & keep_g);
    h3 = (h3 & ~keep_g) | (g3 & keep_g);
    h4 = (h4 & ~keep_g) | (g4 & keep_g);

    /* pack into 32-bit words and add s with carries */
    uint64_t f;
    f = (uint64_t)(h0 | (h1 << 26)) + polymac_load32le(s);
    polymac_store32le(tag, (uint32_t)f);
    f = (uint64_t)((h1 >> 6) | (h2 << 20)) + polymac_load32le(s + 4) + (f >> 32);
    polymac_store32le(tag + 4, (uint32_t)f);
    f = (uint64_t)((h2 >> 12) | (h3 << 14)) + polymac_load32le(s + 8) + (f >> 32);
    polymac_store32le(tag + 8, (uint32_t)f);
    f = (uint64_t)((h3 >> 18) | (h4 << 8)) + polymac_load32le(s + 12) + (f >> 32);
    polymac_store32le(tag + 12, (uint32_t)f);
}



/* A portable radix-2^26 kernel from its state type (h[5] in it) and its
 * init and blocks: its emit (the tag, then the whole state wiped), its
 * registration with the stack policy (its deepest frame is small: the
 * front end zeroes 512 bytes below each call). */
#define POLYMAC_R26_KERNEL(sym, kname, state_t)                              \
    static void polymac_emit_##sym(void *ks, uint8_t tag[16], const uint8_t s[16]) \
    {                                                                       \
        state_t *st = ks;                                                   \
        polymac_r26_finish(st->h, tag, s);                                  \
        polymac_wipe(st, sizeof *st);                                       \
    }                                                                       \
    const struct polymac_kernel polymac_kernel_##sym = {                    \
        .name = kname,                                                      \
        .init = polymac_init_##sym,                                         \
        .blocks = polymac_blocks_##sym,                                     \
        .emit = polymac_emit_##sym,                                         \
        .stack_bytes = 512,                                                 \
    };

#endif
