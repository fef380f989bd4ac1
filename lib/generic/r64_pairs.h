/* r64_pairs.h -- a batch entry in scalar code: two messages at a time,
 *                interleaved in radix 2^64 */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/*
 * The batch lanes (lib/kernel.h) of x86-avx512 (and x86-avx2's short
 * messages), of aarch64-neon, power-vsx and power-p9, and of generic-r64
 * where r64.h has its x86-64, aarch64 or ppc64le assembly; each kernel's file
 * includes this header and points at polymac_pairs_lanes, which is
 * compiled with that kernel's flags (on x86-64 its dead stack is zeroed
 * with the kernel's own widest stores, burn.h; elsewhere by
 * polymac_burn_stack).  Nothing here needs a vector
 * unit: a batch message has its own key and no powers of r, so every
 * block costs one multiplication by r.  The one-shot scalar code waits
 * on the latency of its multiplies and carries; four AVX2 lanes in radix
 * 2^26 (25 vpmuludq and a carry chain per block and lane, two
 * interleaved sets of four, keys split and tags reduced in vector code)
 * lost to the one-shot path at 64 bytes; x86-avx2's own lanes, with r^2
 * a lane, win from 320 bytes.  The scalar block is bound by
 * latency, not by its seven multiplies: two messages interleaved in one
 * loop take less time a block each than one message alone, and win at
 * every length measured, 16 bytes to 2 KiB (measured: docs/log.md,
 * Figures moved out of lib/ comments).  A kernel without a lanes entry
 * runs a batch through its one-shot path, behind the batch front end's
 * checks and tag buffer (lib/batch.c), and so pays more for a batch of
 * short messages than for a loop of polymac_auth: x86-avx512 and
 * generic-r64 take the pairs for that reason (x86-avx512ifma has lanes
 * of its own).  With the pairs all three beat polymac_auth one by one
 * at 16 x 256 B and IMIX, tie it at 32 x 64 B and stay a little behind
 * at 8 x 64 B: at four blocks the pairs only tie a loop of one-shot
 * calls, whose independent messages the out-of-order core overlaps by
 * itself, and the front end's fixed cost remains (measured: the same log
 * entry).  On aarch64 and ppc64le, where qemu cannot time code, the
 * pairs' loop is costed with llvm-mca against the one-message loop
 * (lab/kernel-cost: the "pairs" rows of docs/platforms.md).
 *
 * The block step is r64.h's (polymac_r64_core: the same instructions
 * and limbs, h2 < 2^63 between blocks; test/unit/bounds.c's r64
 * model), run for message A at p and message B at p + d in one loop.
 * On x86-64 each pair's r0, r1, 5 r1 / 4 and 5 r0 are read from a stack
 * array (zeroed after the batch with the rest of the dead frame), which leaves
 * the registers to both h, the address and the products; aarch64 has the
 * registers to keep them; ppc64le reloads them before each message's
 * step, its fourteen temporaries taking the room.  Where r64.h has no assembly for the pairs
 * (sanitizer and POLYMAC_R64_PORTABLE builds) they run its steps one
 * message after the other.  A pair of equal lengths runs
 * its padded last blocks as one more paired step; otherwise the longer
 * message's remaining blocks, and the padded blocks, go through
 * polymac_r64_core one message at a time.  A batch of one length runs
 * consecutive pairs; a mixed one pairs messages in classes of similar
 * length (1, 2-3, 4-7, ... blocks, longest first), so that a pair mostly
 * runs together.  An odd message left over runs alone, polymac_auth's
 * scalar path (paired with itself it cost more: docs/log.md, Figures
 * moved out of lib/ comments).  Only lengths, which are public, decide
 * branches; the tags are polymac_r64_finish's (no branch).
 */
#ifndef POLYMAC_R64_PAIRS_H
#define POLYMAC_R64_PAIRS_H

#include "r64.h"
/* What zeroes the pairs' dead stack after a batch: a kernel may define it
 * before it includes this header (the x86 kernels: polymac_x86_burn, at
 * their own vector width); else the front end's polymac_burn_stack. */
#ifndef POLYMAC_PAIRS_BURN
#define POLYMAC_PAIRS_BURN polymac_burn_stack
#endif

/* Messages of at most this many bytes go through the pairs (max_len);
 * longer ones through the kernel's one-shot path.  A kernel may define
 * it before it includes this header (x86-avx2, whose vector one-shot
 * wins above 1 KiB), or -D. */
#ifndef POLYMAC_PAIRS_MAX
#define POLYMAC_PAIRS_MAX 2048
#endif

#define POLYMAC_PAIRS_INLINE static inline __attribute__((always_inline))

/* One block of one message in the loop below: h += m (the 2^128 bit
 * hb), then h r, the 2^130 fold of h2 on the way in, exactly as
 * polymac_r64_core. */
#define POLYMAC_PAIRS_STEP(H0, H1, H2, R0, R1, S1, R05, AT0, AT8)                  \
    "mov " AT0 ", %[t0]\n\t"                                                       \
    "mov " AT8 ", %[t1]\n\t"                                                       \
    "add %[" H0 "], %[t0]\n\t"                /* t = h + m */                      \
    "adc %[" H1 "], %[t1]\n\t"                                                     \
    "adc %[hb], %[" H2 "]\n\t"                                                     \
    "mov " R1 ", %%rax\n\t"                                                        \
    "mulq %[t0]\n\t"                          /* f = r1 t0 */                      \
    "mov %%rax, %[f0]\n\t"                                                         \
    "mov %%rdx, %[f1]\n\t"                                                         \
    "mov " R0 ", %%rax\n\t"                                                        \
    "mulq %[t0]\n\t"                          /* a = r0 t0 */                      \
    "mov %%rax, %[" H0 "]\n\t"                                                     \
    "mov %%rdx, %[" H1 "]\n\t"                                                     \
    "mov " R0 ", %%rax\n\t"                                                        \
    "mulq %[t1]\n\t"                          /* f += r0 t1 */                     \
    "add %%rax, %[f0]\n\t"                                                         \
    "adc %%rdx, %[f1]\n\t"                                                         \
    "mov " S1 ", %%rax\n\t"                                                        \
    "mulq %[t1]\n\t"                          /* a += s1 t1 */                     \
    "add %%rax, %[" H0 "]\n\t"                                                     \
    "adc %%rdx, %[" H1 "]\n\t"                                                     \
    "mov " S1 ", %%rax\n\t"                                                        \
    "mulq %[" H2 "]\n\t"                      /* f += s1 h2 */                     \
    "add %%rax, %[f0]\n\t"                                                         \
    "adc %%rdx, %[f1]\n\t"                                                         \
    "mov %[" H2 "], %[t0]\n\t"                                                     \
    "and $3, %[" H2 "]\n\t"                                                        \
    "shr $2, %[t0]\n\t"                                                            \
    "mov " R05 ", %%rax\n\t"                                                       \
    "mulq %[t0]\n\t"                          /* a += 5 r0 (h2 >> 2) */            \
    "add %%rax, %[" H0 "]\n\t"                                                     \
    "adc %%rdx, %[" H1 "]\n\t"                                                     \
    "imul " R0 ", %[" H2 "]\n\t"           /* (h2 & 3) r0 */                       \
    "add %[f0], %[" H1 "]\n\t"                /* h1 = (a >> 64) + f */             \
    "adc %[f1], %[" H2 "]\n\t"

/*
 * nblocks >= 1 blocks of message A at p and of message B at p + d, with
 * the 2^128 bit hibit (1, or 0 for padded blocks); k holds A's r0, r1,
 * s1 = 5 r1 / 4, 5 r0, then B's.  Both messages' limbs stay in
 * registers; the temporaries are shared (the core renames them).  On
 * x86-64 the keys' words are read from k, d and the end from memory (d
 * is loaded into rax, free before the first product of B's block): 14
 * registers, so that the loop fits beside a frame pointer (-O0,
 * -fno-omit-frame-pointer).
 */
POLYMAC_PAIRS_INLINE void polymac_pairs_core(uint64_t a[3], uint64_t b[3], const uint64_t k[8],
                                              const uint8_t *p, intptr_t d, size_t nblocks,
                                              uint64_t hibit)
{
#if defined(POLYMAC_R64_ASM_A64)
    /* Both messages' h and blocks in operands; the step's temporaries
     * (x8 to x13) and the keys' words (A's in x14 to x17, B's in x0 to
     * x3, loaded once) in fixed call-clobbered registers, so that the asm
     * stays within GCC's 30 operands and leaves the allocator room. */
    uint64_t ah0 = a[0], ah1 = a[1], ah2 = a[2], bh0 = b[0], bh1 = b[1], bh2 = b[2];
    uint64_t am0, am1, bm0, bm1;
    const uint8_t *pb = p + d, *const end = p + 16 * nblocks;
#define POLYMAC_PAIRS_A64(P, R0, R1, S1, R05, LOAD)                                   \
    POLYMAC_R64_A64_STEP_R("%[" P "h0]", "%[" P "h1]", "%[" P "h2]", "%[" P "m0]",       \
                           "%[" P "m1]", R0, R1, S1, R05, "x8", "x9", "x10", "x11", "x12", \
                           "x13", "%[hb]", LOAD, "")
    __asm__("ldp x14, x15, [%[k]]\n\t"
            "ldp x16, x17, [%[k], #16]\n\t"
            "ldp x0, x1, [%[k], #32]\n\t"
            "ldp x2, x3, [%[k], #48]\n\t"
            "ldp %[am0], %[am1], [%[pa]], #16\n\t"
            "ldp %[bm0], %[bm1], [%[pb]], #16\n\t"
            "cmp %[pa], %[end]\n\t"
            "b.eq 2f\n"
            "1:\n\t"
            POLYMAC_PAIRS_A64("a", "x14", "x15", "x16", "x17",
                              "ldp %[am0], %[am1], [%[pa]], #16\n\t")
            POLYMAC_PAIRS_A64("b", "x0", "x1", "x2", "x3",
                              "ldp %[bm0], %[bm1], [%[pb]], #16\n\t")
            "cmp %[pa], %[end]\n\t"
            "b.ne 1b\n"
            "2:\n\t"
            POLYMAC_PAIRS_A64("a", "x14", "x15", "x16", "x17", "")
            POLYMAC_PAIRS_A64("b", "x0", "x1", "x2", "x3", "")
            : [ah0] "+&r"(ah0), [ah1] "+&r"(ah1), [ah2] "+&r"(ah2), [bh0] "+&r"(bh0),
              [bh1] "+&r"(bh1), [bh2] "+&r"(bh2), [pa] "+&r"(p), [pb] "+&r"(pb),
              [am0] "=&r"(am0), [am1] "=&r"(am1), [bm0] "=&r"(bm0), [bm1] "=&r"(bm1)
            : [end] "r"(end), [k] "r"(k), [hb] "r"(hibit)
            : "x0", "x1", "x2", "x3", "x8", "x9", "x10", "x11", "x12", "x13", "x14", "x15",
              "x16", "x17", "cc", "memory");
#undef POLYMAC_PAIRS_A64
    a[0] = ah0; a[1] = ah1; a[2] = ah2;
    b[0] = bh0; b[1] = bh1; b[2] = bh2;
#elif defined(POLYMAC_PAIRS_PPC64)
    /* Both messages' h in operands; the step's fourteen temporaries (r3
     * to r12, r14 to r17), the keys' words (r18 to r21, reloaded from k
     * before each message's step: loads off the chain), the 2^128 bit
     * (r0) and the count (ctr) fixed, so that ten operands remain for the
     * allocator.  Not at -O0, whose frame pointer would leave too few. */
    uint64_t ah0 = a[0], ah1 = a[1], ah2 = a[2], bh0 = b[0], bh1 = b[1], bh2 = b[2];
    const uint8_t *pb = p + d;
    const uint64_t c[2] = {nblocks, hibit};
#define POLYMAC_PAIRS_PPC(P)                                                         \
    POLYMAC_R64_PPC_STEP_R("%[" P "h0]", "%[" P "h1]", "%[" P "h2]", "3", "4", "5", "6",  \
                           "7", "8", "9", "10", "11", "12", "14", "15", "16", "17", "18", \
                           "19", "20", "21", "0")
    __asm__("ld 3, 0(%[c])\n\t"
            "ld 0, 8(%[c])\n\t"
            "mtctr 3\n"
            "0:\n\t"
            "ld 18, 0(%[k])\n\t"
            "ld 19, 8(%[k])\n\t"
            "ld 20, 16(%[k])\n\t"
            "ld 21, 24(%[k])\n\t"
            "ld 3, 0(%[pa])\n\t"
            "ld 4, 8(%[pa])\n\t"
            "addi %[pa], %[pa], 16\n\t"
            POLYMAC_PAIRS_PPC("a")
            "ld 18, 32(%[k])\n\t"
            "ld 19, 40(%[k])\n\t"
            "ld 20, 48(%[k])\n\t"
            "ld 21, 56(%[k])\n\t"
            "ld 3, 0(%[pb])\n\t"
            "ld 4, 8(%[pb])\n\t"
            "addi %[pb], %[pb], 16\n\t"
            POLYMAC_PAIRS_PPC("b")
            "bdnz 0b"
            : [ah0] "+&r"(ah0), [ah1] "+&r"(ah1), [ah2] "+&r"(ah2), [bh0] "+&r"(bh0),
              [bh1] "+&r"(bh1), [bh2] "+&r"(bh2), [pa] "+&b"(p), [pb] "+&b"(pb)
            : [k] "b"(k), [c] "b"(c)
            : "r0", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12", "r14",
              "r15", "r16", "r17", "r18", "r19", "r20", "r21", "ctr", "xer", "cc", "memory");
#undef POLYMAC_PAIRS_PPC
    a[0] = ah0; a[1] = ah1; a[2] = ah2;
    b[0] = bh0; b[1] = bh1; b[2] = bh2;
#elif !defined(POLYMAC_R64_ASM)
    /* sanitizer and POLYMAC_R64_PORTABLE builds (r64.h), and other
     * architectures: no assembly for two messages; the same steps one
     * message after the other */
    polymac_r64_core(a, k[0], k[1], p, nblocks, hibit);
    polymac_r64_core(b, k[4], k[5], p + d, nblocks, hibit);
#else
    uint64_t a0 = a[0], a1 = a[1], a2 = a[2], b0 = b[0], b1 = b[1], b2 = b[2];
    uint64_t t0, t1, f0, f1;
    const uint8_t *const end = p + 16 * nblocks;
    __asm__("1:\n\t"
            POLYMAC_PAIRS_STEP("a0", "a1", "a2", "0(%[k])", "8(%[k])", "16(%[k])", "24(%[k])",
                               "0(%[p])", "8(%[p])")
            "mov %[d], %%rax\n\t"
            POLYMAC_PAIRS_STEP("b0", "b1", "b2", "32(%[k])", "40(%[k])", "48(%[k])", "56(%[k])",
                               "0(%[p],%%rax)", "8(%[p],%%rax)")
            "add $16, %[p]\n\t"
            "cmp %[end], %[p]\n\t"
            "jne 1b"
            : [a0] "+&r"(a0), [a1] "+&r"(a1), [a2] "+&r"(a2), [b0] "+&r"(b0),
              [b1] "+&r"(b1), [b2] "+&r"(b2), [p] "+&r"(p), [t0] "=&r"(t0), [t1] "=&r"(t1),
              [f0] "=&r"(f0), [f1] "=&r"(f1)
            : [k] "r"(k), [d] "m"(d), [end] "m"(end), [hb] "rme"(hibit)
            : "rax", "rdx", "cc", "memory");
    a[0] = a0; a[1] = a1; a[2] = a2;
    b[0] = b0; b[1] = b1; b[2] = b2;
#endif
}
#undef POLYMAC_PAIRS_STEP

/* The rest of one message after its first done blocks: its remaining
 * full blocks up to full, then its padded last block (pad, when rest). */
POLYMAC_PAIRS_INLINE void polymac_pairs_rest(uint64_t h[3], const uint64_t k[4],
                                              const uint8_t *m, size_t done, size_t full,
                                              const uint8_t pad[16], size_t rest)
{
    if (full > done)
        polymac_r64_core(h, k[0], k[1], m + 16 * done, full - done, 1);
    if (rest)
        polymac_r64_core(h, k[0], k[1], pad, 1, 0);
}

/*
 * The tags of messages A (ma, la bytes, key ka) and B into ta and tb.
 * Out of line: its frame (the keys' words, the padded
 * blocks, what the compiler spills) is zeroed after the batch.
 */
POLYMAC_PAIRS_INLINE void polymac_pairs_run(uint8_t *ta, uint8_t *tb, const uint8_t *ma,
                                             size_t la, const uint8_t *ka, const uint8_t *mb,
                                             size_t lb, const uint8_t *kb)
{
    uint64_t k[8], a[3] = {0, 0, 0}, b[3] = {0, 0, 0};
    uint8_t pad[2][16];
    polymac_clamp64(&k[0], &k[1], ka);
    k[2] = (k[1] >> 2) * 5;
    k[3] = k[0] * 5;
    polymac_clamp64(&k[4], &k[5], kb);
    k[6] = (k[5] >> 2) * 5;
    k[7] = k[4] * 5;
    const size_t fa = la / 16, fb = lb / 16, ra = la % 16, rb = lb % 16;
    const size_t both = fa < fb ? fa : fb;
    if (both)
        polymac_pairs_core(a, b, k, ma, (intptr_t)mb - (intptr_t)ma, both, 1);
    if (ra)
        polymac_pad_last(pad[0], ma + 16 * fa, ra);
    if (rb)
        polymac_pad_last(pad[1], mb + 16 * fb, rb);
    if (fa == fb && ra && rb) {
        polymac_pairs_core(a, b, k, pad[0], pad[1] - pad[0], 1, 0);
    } else {
        polymac_pairs_rest(a, k, ma, both, fa, pad[0], ra);
        polymac_pairs_rest(b, k + 4, mb, both, fb, pad[1], rb);
    }
    polymac_r64_finish(ta, a[0], a[1], a[2], ka + 16);
    polymac_r64_finish(tb, b[0], b[1], b[2], kb + 16);
}

static __attribute__((noinline)) void polymac_pairs_one(uint8_t *ta, uint8_t *tb,
                                                        const uint8_t *ma, size_t la,
                                                        const uint8_t *ka, const uint8_t *mb,
                                                        size_t lb, const uint8_t *kb)
{
    polymac_pairs_run(ta, tb, ma, la, ka, mb, lb, kb);
}

/* One message alone: polymac_auth's scalar path.  Out of line, like
 * polymac_pairs_one, so that its frame lies in the dead stack zeroed
 * after the batch. */
static __attribute__((noinline)) void polymac_pairs_single(uint8_t *t, const uint8_t *m,
                                                           size_t len, const uint8_t *k)
{
    polymac_r64_auth(t, m, len, k);
}

/* A batch of n messages of one length len: consecutive pairs, the odd
 * last message alone. */
static __attribute__((noinline)) void polymac_pairs_same(uint8_t *const out[],
                                                         const uint8_t *const msgs[],
                                                         size_t len,
                                                         const uint8_t *const keys[], size_t n)
{
    size_t i = 0;
    for (; i + 1 < n; i += 2)
        polymac_pairs_run(out[i], out[i + 1], msgs[i], len, keys[i], msgs[i + 1], len,
                          keys[i + 1]);
    if (i < n)
        polymac_pairs_single(out[i], msgs[i], len, keys[i]);
}

/*
 * The depth of dead stack polymac_pairs_one and polymac_pairs_same leave
 * below polymac_pairs_lanes's frame, zeroed after the batch: on x86-64
 * (burn.h) the return address, six pushes, the frame (k, pad, spills)
 * and the red zone below it (both are leaves), and for polymac_pairs_one
 * its two arguments passed on the stack: the deepest of each kernel's
 * copy with GCC 12 and 14 and clang 14 and 19, the C loop's build
 * (POLYMAC_R64_PORTABLE) too (GCC 12's polymac_pairs_same there is the
 * deepest; test/trust/burn_depths.py checks it against the library),
 * rounded up to whole vectors of the widest kernel (64 bytes).
 * Elsewhere each function's whole frame: on
 * aarch64 (its first stp) polymac_pairs_same 368 (generic-r64) and 384
 * (aarch64-neon), polymac_pairs_one 352; on ppc64le (its stdu, the
 * registers it saves inside) 496 and 416; rounded up.
 */
#ifndef POLYMAC_PAIRS_STACK
#define POLYMAC_PAIRS_STACK 512
#endif

/* The lanes' min_len (kernel.h): a short batch of messages of at most
 * four blocks runs faster one by one than in pairs on x86-64 (measured:
 * docs/log.md); elsewhere, not measured, the pairs take them as before. */
#ifndef POLYMAC_PAIRS_MIN_LEN
#if defined(__x86_64__)
#define POLYMAC_PAIRS_MIN_LEN 80
#else
#define POLYMAC_PAIRS_MIN_LEN 0
#endif
#endif

static void polymac_pairs_batch(uint8_t *const out[], const uint8_t *const msgs[],
                                const size_t lens[], const uint8_t *const keys[], size_t n)
{
    size_t same = 1;
    while (same < n && lens[same] == lens[0])
        same++;
    if (same == n) {
        /* a burst of equal messages */
        polymac_pairs_same(out, msgs, lens[0], keys, n);
    } else {
        unsigned classes = 0;
        for (size_t i = 0; i < n; i++) {
            if (lens[i] == 0)
                memcpy(out[i], keys[i] + 16, 16);       /* h = 0: the tag is s */
            else
                classes |= 1u << polymac_block_class(lens[i]);
        }
        /* longest class first; a message left over from one class is
         * paired with the first of the next */
        size_t held = SIZE_MAX;
        while (classes) {
            const unsigned cls = 31u - (unsigned)__builtin_clz(classes);
            classes &= ~(1u << cls);
            for (size_t i = 0; i < n; i++) {
                if (lens[i] == 0 || polymac_block_class(lens[i]) != cls)
                    continue;
                if (held == SIZE_MAX) {
                    held = i;
                    continue;
                }
                polymac_pairs_one(out[held], out[i], msgs[held], lens[held], keys[held],
                                  msgs[i], lens[i], keys[i]);
                held = SIZE_MAX;
            }
        }
        if (held != SIZE_MAX)
            polymac_pairs_single(out[held], msgs[held], lens[held], keys[held]);
    }
    POLYMAC_PAIRS_BURN(POLYMAC_PAIRS_STACK);
}

/* The pairs from two messages on: one message paired with itself costs
 * twice polymac_auth (docs/log.md has the counts measured). */
static const struct polymac_lanes polymac_pairs_lanes = {
    .run = polymac_pairs_batch,
    .max_len = POLYMAC_PAIRS_MAX,
    .min_len = POLYMAC_PAIRS_MIN_LEN,
    .min_same = 2,
    .min_mixed = 2,
};

#endif
