/* cpu.c -- the only file that asks the CPU what it can do */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "cpu.h"

/* lib/meson.build enables cpu_features on x86-64 only; elsewhere the
 * kernel's HWCAP bits are the probe */
#if defined(POLYMAC_USE_CPU_FEATURES) && defined(__x86_64__)
#  include "cpuinfo_x86.h"
#endif
#if defined(__x86_64__)
#  include <cpuid.h>
#endif
#if defined(__linux__) && !defined(__x86_64__)
#  include <sys/auxv.h>
#endif

#define PROBED (1u << 31)

/* Vendor, family and model from CPUID leaves 0 and 1, as the SDM and
 * AMD's manual combine them (and /proc/cpuinfo prints them): the extended
 * family is added to a base family of 15, the extended model is the high
 * nibble of the model for base families 6 and 15. */
struct polymac_cpu_id polymac_cpu_id(void)
{
    struct polymac_cpu_id id = {POLYMAC_CPU_VENDOR_OTHER, 0, 0};
#if defined(__x86_64__)
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d))
        return id;
    char v[13];
    memcpy(v, &b, 4);
    memcpy(v + 4, &d, 4);
    memcpy(v + 8, &c, 4);
    v[12] = 0;
    if (strcmp(v, "GenuineIntel") == 0)
        id.vendor = POLYMAC_CPU_VENDOR_INTEL;
    else if (strcmp(v, "AuthenticAMD") == 0)
        id.vendor = POLYMAC_CPU_VENDOR_AMD;
    if (a < 1 || !__get_cpuid(1, &a, &b, &c, &d))
        return id;
    uint32_t fam = (a >> 8) & 0xf, mod = (a >> 4) & 0xf;
    if (fam == 6 || fam == 15)
        mod |= ((a >> 16) & 0xf) << 4;
    if (fam == 15)
        fam += (a >> 20) & 0xff;
    id.family = fam;
    id.model = mod;
#endif
    return id;
}

static uint32_t probe(void)
{
    uint32_t b = 0;
#if defined(__x86_64__)
#  if defined(POLYMAC_USE_CPU_FEATURES)
    /* cpu_features clears the AVX/AVX-512 bits unless XCR0 shows that the
     * OS saves those registers.  Its flags are signed 1-bit fields: != 0. */
    const X86Info info = GetX86Info();
    const X86Features *f = &info.features;
    if (f->avx2 != 0)
        b |= POLYMAC_CPU_X86_AVX2;
    if (f->avx512f != 0 && f->avx512vl != 0 && f->avx512bw != 0)
        b |= POLYMAC_CPU_X86_AVX512F;
    if (f->avx512ifma != 0 && f->avx512f != 0 && f->avx512vl != 0)
        b |= POLYMAC_CPU_X86_AVX512IFMA;
    /* Skylake-SP and Cascade/Cooper Lake (cpu_features: INTEL_SKL with
     * AVX-512; client Skylake has none) drop their clock under 512-bit
     * multiplies, slowing the code around ours too. */
    if (GetX86Microarchitecture(&info) == INTEL_SKL && f->avx512f != 0)
        b |= POLYMAC_CPU_X86_ZMM_DOWNCLOCK;
#  else
    /* libgcc's probe also checks XCR0 */
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2"))
        b |= POLYMAC_CPU_X86_AVX2;
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl")
        && __builtin_cpu_supports("avx512bw"))
        b |= POLYMAC_CPU_X86_AVX512F;
    if (__builtin_cpu_supports("avx512ifma") && __builtin_cpu_supports("avx512f")
        && __builtin_cpu_supports("avx512vl"))
        b |= POLYMAC_CPU_X86_AVX512IFMA;
    /* the same down-clocking cores as above, by libgcc's names */
    if (__builtin_cpu_is("skylake-avx512") || __builtin_cpu_is("cascadelake")
        || __builtin_cpu_is("cooperlake"))
        b |= POLYMAC_CPU_X86_ZMM_DOWNCLOCK;
#  endif
#elif defined(__aarch64__)
    if (getauxval(AT_HWCAP) & (1ul << 1))   /* HWCAP_ASIMD */
        b |= POLYMAC_CPU_ARM_NEON;
#elif defined(__arm__)
    /* NEON is optional in ARMv7-A (armhf's baseline is VFPv3-D16) */
    if (getauxval(AT_HWCAP) & (1ul << 12))  /* HWCAP_NEON */
        b |= POLYMAC_CPU_ARM_NEON;
#elif defined(__powerpc64__)
    unsigned long hw = getauxval(AT_HWCAP), hw2 = getauxval(AT_HWCAP2);
    int vsx = (hw & 0x00000080ul) != 0;             /* PPC_FEATURE_HAS_VSX */
    if (vsx && (hw2 & 0x80000000ul))                /* PPC_FEATURE2_ARCH_2_07 */
        b |= POLYMAC_CPU_PPC_VSX;
    if (vsx && (hw2 & 0x00800000ul))                /* PPC_FEATURE2_ARCH_3_00 */
        b |= POLYMAC_CPU_PPC_ISA300;
    /* ISA 3.1 (POWER10): it only steers automatic selection (cpu_avoid) */
    if (hw2 & 0x00040000ul)                         /* PPC_FEATURE2_ARCH_3_1 */
        b |= POLYMAC_CPU_PPC_ISA310;
#elif defined(__s390x__)
    /* no cpu_features package for s390x: the kernel's HWCAP bits say
     * whether the vector facility is present and enabled */
    unsigned long hw = getauxval(AT_HWCAP);
    if (hw & 2048ul)                                /* HWCAP_S390_VX */
        b |= POLYMAC_CPU_S390X_VX;
#endif
    return b;
}

uint32_t polymac_cpu_bits(void)
{
    static _Atomic uint32_t cached;
    /* racing threads probe alike and store the same bits */
    uint32_t b = atomic_load_explicit(&cached, memory_order_acquire);
    if (!(b & PROBED)) {
        b = probe() | PROBED;
        atomic_store_explicit(&cached, b, memory_order_release);
    }
    return b & ~PROBED;
}

void polymac_cpu_describe(uint32_t bits, char *buf, unsigned cap)
{
    static const struct { uint32_t bit; const char *name; } names[] = {
        {POLYMAC_CPU_X86_AVX2, "avx2"},
        {POLYMAC_CPU_X86_AVX512F, "avx512f/vl/bw"},
        {POLYMAC_CPU_X86_AVX512IFMA, "avx512ifma"},
        {POLYMAC_CPU_X86_ZMM_DOWNCLOCK, "zmm-downclock"},
        {POLYMAC_CPU_ARM_NEON, "neon"},
        {POLYMAC_CPU_PPC_VSX, "vsx(isa2.07)"},
        {POLYMAC_CPU_PPC_ISA300, "isa3.00"},
        {POLYMAC_CPU_PPC_ISA310, "isa3.1"},
        {POLYMAC_CPU_S390X_VX, "vx"},
    };
    size_t used = 0;
    if (cap == 0)
        return;
    buf[0] = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!(bits & names[i].bit))
            continue;
        int n = snprintf(buf + used, cap - used, "%s%s", used ? " " : "", names[i].name);
        if (n < 0 || (size_t)n >= cap - used)
            break;
        used += (size_t)n;
    }
    if (used == 0)
        snprintf(buf, cap, "(none)");
}
