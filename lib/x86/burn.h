/* burn.h -- zeroing the dead stack an x86 kernel's vector code leaves */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_X86_BURN_H
#define POLYMAC_X86_BURN_H

#include <immintrin.h>
#include <stddef.h>

/*
 * The stack policy of lib/kernel.h (stack_bytes) as the x86 kernels keep
 * it: each out-of-line vector function, whose frame holds what the
 * compiler spilled there (broadcast powers of r, limbs of h), is
 * followed, in the same caller, by polymac_x86_burn of that function's
 * depth.  Called at the same depth, the burn covers the dead frame; the
 * kernel knows which path ran, so a message pays only for the frame its
 * path used, and this header, compiled into each kernel with the
 * kernel's own flags, stores 64 bytes at a time under AVX-512, 32 under
 * AVX2.  A depth is the function's pushes, the largest realignment
 * padding, its frame and the red zone it uses, read from the
 * disassembly (-fstack-usage gives the frame) and rounded up to whole
 * vectors; test/trust/test_stack.c fails when one falls short.
 */
static __attribute__((noinline)) void polymac_x86_burn_below(size_t n)
{
    /* n (a multiple of the vector width, at least one) bytes right below
     * this call's return address, claimed first (rsp moved down, then
     * back) so that nothing is stored below the stack pointer (memcheck,
     * signal handlers), with no frame or alignment gap above the area
     * that the stores would miss.  Plain stores: memset through a lazily
     * bound PLT entry would XSAVE the vector registers below the area,
     * and rep stos starts slower than these few stores take. */
#ifdef __AVX512F__
    const __m512i z = _mm512_setzero_si512();
#define POLYMAC_BURN_STEP "sub $64, %%rax\n\tvmovdqu64 %1, (%%rax)\n\t"
#elif defined(__AVX__)
    const __m256i z = _mm256_setzero_si256();
#define POLYMAC_BURN_STEP "sub $32, %%rax\n\tvmovdqu %1, (%%rax)\n\t"
#else
    /* code built for the x86-64 baseline (generic-r64's batch pairs) */
    const __m128i z = _mm_setzero_si128();
#define POLYMAC_BURN_STEP "sub $16, %%rax\n\tmovdqu %1, (%%rax)\n\t"
#endif
    __asm__ __volatile__("mov %%rsp, %%rax\n\t"
                         "sub %0, %%rsp\n"
                         "1:\n\t"
                         POLYMAC_BURN_STEP
                         "cmp %%rsp, %%rax\n\t"
                         "ja 1b\n\t"
                         "add %0, %%rsp"
                         : : "r"(n), "v"(z) : "rax", "cc", "memory");
#undef POLYMAC_BURN_STEP
}

/* A call, never a tail call: after one the area would start at the
 * caller's caller's depth, short of the dead frame's bottom by the
 * caller's own frame. */
static inline __attribute__((always_inline)) void polymac_x86_burn(size_t n)
{
    polymac_x86_burn_below(n);
    __asm__ __volatile__("");
}

#endif
