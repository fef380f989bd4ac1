/* r64_asm.h -- riscv64: the radix-2^64 block loop as inline assembly
 *              (included by generic/r64.h only) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_RISCV64_R64_ASM_H
#define POLYMAC_RISCV64_R64_ASM_H

/* riscv64 builds run the block loop as inline assembly: the ISA does not
 * promise fast misaligned loads (Debian's baseline, rv64gc, lets a core
 * trap and emulate them), so GCC 14 builds each memcpy of the C loop's
 * message words as eight byte loads stored to the stack and read back as
 * one word: 34 memory operations a block.  Here the block is read with
 * aligned loads only: two doublewords, and where the message is not
 * 8-byte aligned a third, shifted together (the offset comes from the
 * pointer, public, the same for every block of a call).  The aligned
 * doubleword after the block's last byte holds that byte, so the third
 * load never reaches past the page the message ends in.  Same arithmetic
 * and limbs as the C loop (bit-identical h): the carries of the 128-bit
 * sums from sltu, as the C compiles to.  Unoptimized builds use C. */
#if defined(__OPTIMIZE__)
#define POLYMAC_R64_ASM_RISCV64 1
#define POLYMAC_R64_LOOP 1

static inline void polymac_r64_loop(uint64_t *hp0, uint64_t *hp1, uint64_t *hp2, uint64_t r0,
                                    uint64_t r1, uint64_t s1, const uint8_t *in, size_t nblocks,
                                    uint64_t hibit)
{
    uint64_t h0 = *hp0, h1 = *hp1, h2 = *hp2;
    if (nblocks) {
        const uint64_t r0x5 = r0 * 5;                 /* < 2^62.4 */
        uint64_t sh = ((uintptr_t)in & 7) * 8;        /* bits to shift, 0 if aligned */
        const uint8_t *p = (const uint8_t *)((uintptr_t)in & ~(uintptr_t)7);
        uint64_t m0, m1, m2, t, al, ah, bl, bh, x, xh, c;
        __asm__("0:\n\t"
                "ld %[m0], 0(%[p])\n\t"
                "ld %[m1], 8(%[p])\n\t"
                "beqz %[sh], 1f\n\t"
                "ld %[m2], 16(%[p])\n\t"
                "neg %[t], %[sh]\n\t"                  /* 64 - sh, mod 64 */
                "srl %[m0], %[m0], %[sh]\n\t"
                "sll %[x], %[m1], %[t]\n\t"
                "srl %[m1], %[m1], %[sh]\n\t"
                "sll %[m2], %[m2], %[t]\n\t"
                "or %[m0], %[m0], %[x]\n\t"
                "or %[m1], %[m1], %[m2]\n"
                "1:\n\t"
                /* h += m, 130 bits (h2 < 2^63 stays far from a wrap) */
                "add %[h0], %[h0], %[m0]\n\t"
                "sltu %[c], %[h0], %[m0]\n\t"
                "add %[h1], %[h1], %[c]\n\t"
                "sltu %[c], %[h1], %[c]\n\t"
                "add %[h1], %[h1], %[m1]\n\t"
                "sltu %[t], %[h1], %[m1]\n\t"
                "add %[h2], %[h2], %[hibit]\n\t"
                "add %[c], %[c], %[t]\n\t"
                "add %[h2], %[h2], %[c]\n\t"
                /* a = h0 r0 + h1 s1 + (h2 >> 2) 5 r0 */
                "mul %[al], %[h0], %[r0]\n\t"
                "mulhu %[ah], %[h0], %[r0]\n\t"
                "mul %[x], %[h1], %[s1]\n\t"
                "mulhu %[xh], %[h1], %[s1]\n\t"
                "srli %[t], %[h2], 2\n\t"
                "add %[al], %[al], %[x]\n\t"
                "sltu %[c], %[al], %[x]\n\t"
                "add %[ah], %[ah], %[xh]\n\t"
                "mul %[x], %[t], %[r0x5]\n\t"
                "mulhu %[xh], %[t], %[r0x5]\n\t"
                "add %[ah], %[ah], %[c]\n\t"
                "add %[al], %[al], %[x]\n\t"
                "sltu %[c], %[al], %[x]\n\t"
                "add %[ah], %[ah], %[xh]\n\t"
                "add %[ah], %[ah], %[c]\n\t"
                /* b = h0 r1 + h1 r0 + h2 s1 */
                "mul %[bl], %[h0], %[r1]\n\t"
                "mulhu %[bh], %[h0], %[r1]\n\t"
                "mul %[x], %[h1], %[r0]\n\t"
                "mulhu %[xh], %[h1], %[r0]\n\t"
                "add %[bl], %[bl], %[x]\n\t"
                "sltu %[c], %[bl], %[x]\n\t"
                "add %[bh], %[bh], %[xh]\n\t"
                "mul %[x], %[h2], %[s1]\n\t"
                "mulhu %[xh], %[h2], %[s1]\n\t"
                "add %[bh], %[bh], %[c]\n\t"
                "add %[bl], %[bl], %[x]\n\t"
                "sltu %[c], %[bl], %[x]\n\t"
                "add %[bh], %[bh], %[xh]\n\t"
                "add %[bh], %[bh], %[c]\n\t"
                /* h0 = a mod 2^64, h1 = b + (a >> 64) mod 2^64,
                 * h2 = (b + (a >> 64)) >> 64 + (h2 & 3) r0 */
                "andi %[t], %[h2], 3\n\t"
                "mv %[h0], %[al]\n\t"
                "add %[h1], %[bl], %[ah]\n\t"
                "sltu %[c], %[h1], %[ah]\n\t"
                "mul %[t], %[t], %[r0]\n\t"
                "add %[bh], %[bh], %[c]\n\t"
                "addi %[p], %[p], 16\n\t"
                "addi %[n], %[n], -1\n\t"
                "add %[h2], %[bh], %[t]\n\t"
                "bnez %[n], 0b"
                : [h0] "+&r"(h0), [h1] "+&r"(h1), [h2] "+&r"(h2), [p] "+&r"(p),
                  [n] "+&r"(nblocks), [m0] "=&r"(m0), [m1] "=&r"(m1), [m2] "=&r"(m2),
                  [t] "=&r"(t), [al] "=&r"(al), [ah] "=&r"(ah), [bl] "=&r"(bl),
                  [bh] "=&r"(bh), [x] "=&r"(x), [xh] "=&r"(xh), [c] "=&r"(c)
                : [r0] "r"(r0), [r1] "r"(r1), [s1] "r"(s1), [r0x5] "r"(r0x5),
                  [sh] "r"(sh), [hibit] "r"(hibit)
                : "memory");
    }
    *hp0 = h0;
    *hp1 = h1;
    *hp2 = h2;
}
#endif

#endif
