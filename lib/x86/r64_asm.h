/* r64_asm.h -- x86-64: the radix-2^64 block loop, the one-shot, the
 *              state's blocks, the AEAD's spans and short layout, and the
 *              tag's reduction as inline assembly (included by
 *              generic/r64.h only) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_X86_R64_ASM_H
#define POLYMAC_X86_R64_ASM_H

#include <emmintrin.h>            /* the tag's one 16-byte store */
#include <stddef.h>                /* offsetof */

/* x86-64 builds run the block loop below as inline assembly: GCC keeps
 * the 128-bit sums in flag carries there (in C it spills them to memory
 * or builds carries with setb), and the order of the multiplies, those of
 * the new message words first, is the one that keeps the multiplier busy
 * while the carry into h2 settles.  Same arithmetic, same limbs, so the
 * two paths give bit-identical h; POLYMAC_R64_PORTABLE forces the C one
 * (tools/run-tests runs the kernel suites on such a build too).  Each
 * macro below says r64.h (and aead.c, for the spans and the AEAD) takes
 * that part from here. */
#define POLYMAC_R64_ASM 1
#define POLYMAC_R64_LOOP 1
#define POLYMAC_R64_FINISH 1
#define POLYMAC_R64_BLOCKS 1
#define POLYMAC_R64_AUTH 1
#define POLYMAC_R64_SPANS 1
#define POLYMAC_R64_AEAD 1

/* One block, h = (h + m) r mod p (r64.h's polymac_r64_core says why in
 * three columns), in two parts: the add of the block in t0, t1 (from
 * memory, or built in registers for a partial block) with hb into h2,
 * then the products into h0, h1, h2.  Every asm block below that runs
 * blocks spells them with these strings, so that all run the same
 * instructions in the same order. */
#define POLYMAC_R64_ASM_LOAD "mov 0(%[in]), %[t0]\n\t" "mov 8(%[in]), %[t1]\n\t"
#define POLYMAC_R64_ASM_ADD(hb) "add %[h0], %[t0]\n\t" "adc %[h1], %[t1]\n\t" \
                                "adc " hb ", %[h2]\n\t"            /* t = h + m */
#define POLYMAC_R64_ASM_MUL                                                    \
    "mov %[r1], %%rax\n\t"                                                     \
    "mulq %[t0]\n\t"                  /* f = r1 t0 */                          \
    "mov %%rax, %[f0]\n\t"                                                     \
    "mov %%rdx, %[f1]\n\t"                                                     \
    "mov %[r0], %%rax\n\t"                                                     \
    "mulq %[t0]\n\t"                  /* a = r0 t0 */                          \
    "mov %%rax, %[h0]\n\t"                                                     \
    "mov %%rdx, %[h1]\n\t"                                                     \
    "mov %[r0], %%rax\n\t"                                                     \
    "mulq %[t1]\n\t"                  /* f += r0 t1 */                         \
    "add %%rax, %[f0]\n\t"                                                     \
    "adc %%rdx, %[f1]\n\t"                                                     \
    "mov %[s1], %%rax\n\t"                                                     \
    "mulq %[t1]\n\t"                  /* a += s1 t1 */                         \
    "add %%rax, %[h0]\n\t"                                                     \
    "adc %%rdx, %[h1]\n\t"                                                     \
    "mov %[s1], %%rax\n\t"                                                     \
    "mulq %[h2]\n\t"                  /* f += s1 h2 */                         \
    "add %%rax, %[f0]\n\t"                                                     \
    "adc %%rdx, %[f1]\n\t"                                                     \
    "mov %[h2], %[t0]\n\t"                                                     \
    "and $3, %[h2]\n\t"                                                        \
    "shr $2, %[t0]\n\t"                                                        \
    "lea (%[r0],%[r0],4), %%rax\n\t"                                           \
    "mulq %[t0]\n\t"                  /* a += 5 r0 (h2 >> 2) */                \
    "add %%rax, %[h0]\n\t"                                                     \
    "adc %%rdx, %[h1]\n\t"                                                     \
    "imul %[r0], %[h2]\n\t"           /* (h2 & 3) r0 */                        \
    "add %[f0], %[h1]\n\t"            /* h1 = (a >> 64) + f */                 \
    "adc %[f1], %[h2]\n\t"

/* A whole block from in, in advanced past it: the step each loop below
 * repeats. */
#define POLYMAC_R64_ASM_BLOCK(hb)                                              \
    POLYMAC_R64_ASM_LOAD POLYMAC_R64_ASM_ADD(hb) POLYMAC_R64_ASM_MUL           \
    "add $16, %[in]\n\t"


/* r (clamped) and s1 = 5 r1 / 4 from the key at %[f1], which then
 * serves as f1: the key's address is dead once r is loaded, and a
 * register fewer lets the block fit beside a frame pointer. */
#define POLYMAC_R64_ASM_CLAMP                                                  \
    "mov 0(%[f1]), %[r0]\n\t"                                                  \
    "mov 8(%[f1]), %[r1]\n\t"                                                  \
    "movabs $0x0ffffffc0fffffff, %[t0]\n\t"                                    \
    "and %[t0], %[r0]\n\t"                                                     \
    "movabs $0x0ffffffc0ffffffc, %[t0]\n\t"                                    \
    "and %[t0], %[r1]\n\t"                                                     \
    "mov %[r1], %[s1]\n\t"                                                     \
    "shr $2, %[s1]\n\t"                                                        \
    "lea (%[s1],%[s1],4), %[s1]\n\t"

/* A message of n bytes at in: its whole blocks (hibit 1), then its
 * partial block, if any, with hibit HB, built in registers from loads of
 * 8, 4, 2 and 1 bytes inside the message (no copy through memory): x = X
 * (1, the pad byte, for a MAC's last block; 0 for the AEAD's zero
 * padding), then the bytes from the end down, the last byte, the two
 * before it, the four before those, each shifted in below (n's bits 0, 1,
 * 2: what follows the first 8).  P makes the labels its own (P0 to P9),
 * so that an asm block can hold several. */
#define POLYMAC_R64_ASM_MESSAGE(P, X, HB)                                      \
    "sub $16, %[n]\n\t"                                                        \
    "jae " P "0f\n\t"                /* over the loop's alignment */          \
    "jmp " P "1f\n\t"                                                          \
    ".p2align 6\n"                                                             \
    P "0:\n\t"                                                                 \
    POLYMAC_R64_ASM_BLOCK("$1")                                                \
    "sub $16, %[n]\n\t"                                                        \
    "jae " P "0b\n"                                                            \
    P "1:\n\t"                                                                 \
    "add $16, %[n]\n\t"               /* n % 16 */                             \
    "jz " P "9f\n\t"                                                           \
    "mov $" X ", %%eax\n\t"                                                    \
    "lea (%[in],%[n]), %%rdx\n\t"                                              \
    "test $1, %k[n]\n\t"                                                       \
    "jz " P "2f\n\t"                                                           \
    "sub $1, %%rdx\n\t"                                                        \
    "movzbl (%%rdx), %k[t0]\n\t"                                               \
    "shl $8, %%rax\n\t"                                                        \
    "or %[t0], %%rax\n"                                                        \
    P "2:\n\t"                                                                 \
    "test $2, %k[n]\n\t"                                                       \
    "jz " P "3f\n\t"                                                           \
    "sub $2, %%rdx\n\t"                                                        \
    "movzwl (%%rdx), %k[t0]\n\t"                                               \
    "shl $16, %%rax\n\t"                                                       \
    "or %[t0], %%rax\n"                                                        \
    P "3:\n\t"                                                                 \
    "test $4, %k[n]\n\t"                                                       \
    "jz " P "4f\n\t"                                                           \
    "sub $4, %%rdx\n\t"                                                        \
    "mov (%%rdx), %k[t0]\n\t"                                                  \
    "shl $32, %%rax\n\t"                                                       \
    "or %[t0], %%rax\n"                                                        \
    P "4:\n\t"                                                                 \
    "xor %k[t1], %k[t1]\n\t"                                                   \
    "test $8, %k[n]\n\t"              /* 8 or more: m0 is 8 bytes */           \
    "jz " P "5f\n\t"                                                           \
    "mov %%rax, %[t1]\n\t"                                                     \
    "mov (%[in]), %%rax\n"                                                     \
    P "5:\n\t"                                                                 \
    "mov %%rax, %[t0]\n\t"                                                     \
    POLYMAC_R64_ASM_ADD(HB)                                                    \
    POLYMAC_R64_ASM_MUL                                                        \
    P "9:\n\t"

/* The operands of those strings, all registers: 12 named, rax and rdx,
 * so that every block fits beside a frame pointer. */
#define POLYMAC_R64_ASM_OUTS                                                   \
    [h0] "+&r"(h0), [h1] "+&r"(h1), [h2] "+&r"(h2), [in] "+&r"(in), [t0] "=&r"(t0), \
    [t1] "=&r"(t1), [f0] "=&r"(f0), [f1] "+&r"(f1), [r0] "=&r"(r0), [r1] "=&r"(r1), \
    [s1] "=&r"(s1)

/* The block loop over r passed in, for callers that keep r themselves
 * (the batch pairs, a partial block after IFMA's lanes). */
static inline void polymac_r64_loop(uint64_t *hp0, uint64_t *hp1, uint64_t *hp2, uint64_t r0,
                                    uint64_t r1, uint64_t s1, const uint8_t *in, size_t nblocks,
                                    uint64_t hibit)
{
    uint64_t h0 = *hp0, h1 = *hp1, h2 = *hp2;
    if (nblocks) {
        uint64_t t0, t1, f0, f1;
        /* Every operand is a register except hibit (public; it may be an
         * immediate or sit in memory): nothing derived from the key is
         * spilled inside the loop.  14 registers, so it fits beside a
         * frame pointer. */
        __asm__("1:\n\t"
                POLYMAC_R64_ASM_BLOCK("%[hb]")
                "sub $1, %[n]\n\t"
                "jnz 1b"
                : [h0] "+&r"(h0), [h1] "+&r"(h1), [h2] "+&r"(h2), [in] "+&r"(in),
                  [n] "+&r"(nblocks), [t0] "=&r"(t0), [t1] "=&r"(t1), [f0] "=&r"(f0),
                  [f1] "=&r"(f1)
                : [r0] "r"(r0), [r1] "r"(r1), [s1] "r"(s1), [hb] "rme"(hibit)
                : "rax", "rdx", "cc", "memory");
    }
    *hp0 = h0;
    *hp1 = h1;
    *hp2 = h2;
}

/*
 * The three callers whose r comes from the key or the state run as whole
 * asm blocks that load r themselves and keep r, s1 and h in registers from
 * the first load to the last product: given r as a C value, a compiler is
 * free to keep it in its frame around the loop, and clang 14 does (r and
 * s1 in the dead stack after every one-shot, test_stack).  What they hand
 * back is h (message-dependent, and the tag's finish takes it at once) or
 * nothing.  Their loops start at a 64-byte boundary, jumped to over the
 * padding: the 124-byte loop then fills two lines, not three, which
 * long one-shots measured faster (docs/log.md, the dead stack under
 * clang).
 */

/* polymac_r64_blocks: h from st, nblocks blocks, h back into st.  hibit
 * is an immediate or in memory ("me"): in a register it would be a 15th,
 * which GCC 12 cannot find at -O1. */
static inline void polymac_r64_blocks_arch(struct polymac_r64 *st, const uint8_t *in,
                                           size_t nblocks, uint64_t hibit)
{
    if (!nblocks)
        return;
    uint64_t h0, h1, h2, t0, t1, f0, r0, r1, s1;
    uint64_t f1 = (uint64_t)(uintptr_t)st;    /* st's address, then f1 */
    __asm__("mov %c[oh0](%[f1]), %[h0]\n\t"
            "mov %c[oh1](%[f1]), %[h1]\n\t"
            "mov %c[oh2](%[f1]), %[h2]\n\t"
            "mov %c[or0](%[f1]), %[r0]\n\t"
            "mov %c[or1](%[f1]), %[r1]\n\t"
            "mov %[r1], %[s1]\n\t"
            "shr $2, %[s1]\n\t"
            "lea (%[s1],%[s1],4), %[s1]\n\t"
            "jmp 1f\n\t"                    /* over the loop's alignment */
            ".p2align 6\n"
            "1:\n\t"
            POLYMAC_R64_ASM_BLOCK("%[hb]")
            "sub $1, %[n]\n\t"
            "jnz 1b"
            : [h0] "=&r"(h0), [h1] "=&r"(h1), [h2] "=&r"(h2), [in] "+&r"(in),
              [n] "+&r"(nblocks), [t0] "=&r"(t0), [t1] "=&r"(t1), [f0] "=&r"(f0),
              [f1] "+&r"(f1), [r0] "=&r"(r0), [r1] "=&r"(r1), [s1] "=&r"(s1)
            : [hb] "me"(hibit), [oh0] "i"(offsetof(struct polymac_r64, h0)),
              [oh1] "i"(offsetof(struct polymac_r64, h1)),
              [oh2] "i"(offsetof(struct polymac_r64, h2)),
              [or0] "i"(offsetof(struct polymac_r64, r0)),
              [or1] "i"(offsetof(struct polymac_r64, r1))
            : "rax", "rdx", "cc", "memory");
    st->h0 = h0;
    st->h1 = h1;
    st->h2 = h2;
}

/* polymac_r64_auth's blocks: r from the key, h from 0, the message
 * (its partial block padded with 1 and zeros, hibit 0); h into h[3]. */
static inline void polymac_r64_auth_arch(uint64_t h[3], const uint8_t *in, size_t len,
                                         const uint8_t key[32])
{
    uint64_t h0 = 0, h1 = 0, h2 = 0, t0, t1, f0, r0, r1, s1;
    uint64_t f1 = (uint64_t)(uintptr_t)key;   /* the key's address, then f1 */
    __asm__(POLYMAC_R64_ASM_CLAMP
            POLYMAC_R64_ASM_MESSAGE("1", "1", "$0")
            : POLYMAC_R64_ASM_OUTS, [n] "+&r"(len)
            :
            : "rax", "rdx", "cc", "memory");
    h[0] = h0;
    h[1] = h1;
    h[2] = h2;
}

/* The AEAD tag's blocks (RFC 8439 section 2.8) from h = 0: the AAD and
 * the ciphertext, each zero-padded to a block (hibit 1), then the block of
 * the two lengths; r from the key, h into h[3].  The ciphertext's address
 * and both lengths are read from stack slots (public) where the AAD's
 * registers are free again. */
static inline void polymac_r64_aead_arch(uint64_t h[3], const uint8_t *aad, size_t alen,
                                         const uint8_t *ct, size_t clen, const uint8_t key[32])
{
    uint64_t h0 = 0, h1 = 0, h2 = 0, t0, t1, f0, r0, r1, s1;
    uint64_t f1 = (uint64_t)(uintptr_t)key;   /* the key's address, then f1 */
    const uint8_t *in = aad;
    size_t n = alen;
    __asm__(POLYMAC_R64_ASM_CLAMP
            POLYMAC_R64_ASM_MESSAGE("1", "0", "$1")
            "mov %[ct], %[in]\n\t"
            "mov %[clen], %[n]\n\t"
            POLYMAC_R64_ASM_MESSAGE("2", "0", "$1")
            "mov %[alen], %[t0]\n\t"
            "mov %[clen], %[t1]\n\t"
            POLYMAC_R64_ASM_ADD("$1")
            POLYMAC_R64_ASM_MUL
            : POLYMAC_R64_ASM_OUTS, [n] "+&r"(n)
            : [ct] "m"(ct), [clen] "m"(clen), [alen] "m"(alen)
            : "rax", "rdx", "cc", "memory");
    h[0] = h0;
    h[1] = h1;
    h[2] = h2;
}

/* The blocks of n spans (an address and a count of whole blocks each,
 * hibit 1: kernel.h's struct polymac_span, whose layout aead.c asserts),
 * r from the key's first half at key (clamped here), from h = h[0..3)
 * into h.  The first span's address
 * comes in a register (the caller has it at hand: no load waits on the
 * store of the array), the others' from the array; where a span and the
 * array end sit in stack slots (public), compared with, so that 14
 * registers still do. */
struct polymac_span;
static inline void polymac_r64_spans_arch(uint64_t h[3], const struct polymac_span *sp,
                                          const uint8_t *p0, size_t nb0, size_t n,
                                          const uint8_t key[16])
{
    if (!n)
        return;
    uint64_t h0 = h[0], h1 = h[1], h2 = h[2], t0, t1, f0, r0, r1, s1;
    uint64_t f1 = (uint64_t)(uintptr_t)key;   /* the key's address, then f1 */
    const uint8_t *in = p0, *end = p0 + 16 * nb0;
    const unsigned char *at = (const unsigned char *)sp + 16, *last = (const unsigned char *)sp + 16 * n;
    __asm__(POLYMAC_R64_ASM_CLAMP
            "jmp 4f\n"
            "1:\n\t"
            "mov 8(%[at]), %%rax\n\t"         /* nblocks */
            "mov (%[at]), %[in]\n\t"          /* p */
            "add $16, %[at]\n\t"
            "shl $4, %%rax\n\t"
            "add %[in], %%rax\n\t"
            "mov %%rax, %[end]\n"
            "4:\n\t"
            "cmp %[end], %[in]\n\t"
            "jb 2f\n\t"                     /* over the loop's alignment */
            "jmp 3f\n\t"
            ".p2align 6\n"
            "2:\n\t"
            POLYMAC_R64_ASM_BLOCK("$1")
            "cmp %[end], %[in]\n\t"
            "jb 2b\n"
            "3:\n\t"
            "cmp %[last], %[at]\n\t"
            "jb 1b"
            : POLYMAC_R64_ASM_OUTS, [at] "+&r"(at), [end] "+m"(end)
            : [last] "m"(last)
            : "rax", "rdx", "cc", "memory");
    h[0] = h0;
    h[1] = h1;
    h[2] = h2;
}

/* (h mod p + s) mod 2^128 into tag, h2 below 2^63: polymac_r64_reduce's
 * steps and the sum with s in assembly (GCC 12 builds the C's 128-bit sums
 * with long chains of flag-to-register moves), one 16-byte store, which a
 * 16-byte load of the tag can forward from. */
static inline void polymac_r64_finish_arch(uint8_t tag[16], uint64_t h0, uint64_t h1,
                                           uint64_t h2, const uint8_t s[16])
{
    uint64_t c, g0, g1;
    __asm__("mov %[h2], %[c]\n\t"
            "shr $2, %[c]\n\t"
            "and $3, %[h2]\n\t"
            "lea (%[c],%[c],4), %[c]\n\t"       /* 5 (h2 >> 2) */
            "add %[c], %[h0]\n\t"
            "adc $0, %[h1]\n\t"
            "adc $0, %[h2]\n\t"                 /* h2 <= 4 */
            "mov %[h0], %[g0]\n\t"
            "mov %[h1], %[g1]\n\t"
            "mov %[h2], %[c]\n\t"
            "add $5, %[g0]\n\t"                 /* g = h + 5 */
            "adc $0, %[g1]\n\t"
            "adc $0, %[c]\n\t"
            "shr $2, %[c]\n\t"                  /* 1 when h >= p */
            "neg %[c]\n\t"
            "xor %[h0], %[g0]\n\t"
            "xor %[h1], %[g1]\n\t"
            "and %[c], %[g0]\n\t"
            "and %[c], %[g1]\n\t"
            "xor %[g0], %[h0]\n\t"
            "xor %[g1], %[h1]\n\t"
            "add %[s0], %[h0]\n\t"              /* + s */
            "adc %[s1], %[h1]"
            : [h0] "+&r"(h0), [h1] "+&r"(h1), [h2] "+&r"(h2), [c] "=&r"(c), [g0] "=&r"(g0),
              [g1] "=&r"(g1)
            : [s0] "m"(*(const uint64_t *)s), [s1] "m"(*(const uint64_t *)(s + 8))
            : "cc");
    _mm_storeu_si128((__m128i *)tag, _mm_set_epi64x((long long)h1, (long long)h0));
}

#endif
