/* poly1305_s390x_vx.c -- z13 vector-facility kernel: radix 2^26, four blocks
 *                        in flight with vector multiply-and-add */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include "../simd/r26x4.h"
#include "../registry.h"

#include <vecintrin.h>

typedef __vector unsigned char vu8;
typedef __vector unsigned int vu32;
typedef __vector unsigned long long vu64;

/* Technique (after the vector section of OpenSSL's poly1305-s390x.pl):
 * limb i of four consecutive blocks shares one register, two blocks per
 * 64-bit lane (r26x4.h).  VMALOF multiplies the low words (h plus blocks
 * 0 and 1) by r^4 and VMALEF the high words (blocks 2 and 3) by r^2, each
 * adding into the same five 64-bit accumulators in one instruction, so
 * advancing four blocks is 50 multiply-adds, one carry chain and nothing
 * else: the carried accumulators are the next step's h as they stand.
 *
 * s390x is big-endian: message words are byte-reversed by the same VPERM
 * that gathers them into lanes, and every scalar load goes through
 * polymac_load*le.
 *
 * z14's VMSLG (64x64 multiply-sum, like POWER9's vmsumudm) would allow a
 * radix-2^44 kernel; we do not use it.  It would need a runtime bit for the
 * vector-enhancements facility (HWCAP_S390_VXE) and a second kernel that no emulator here can
 * time, and nobody has published a figure showing it beats this loop.
 *
 * Break-even (not measured here: qemu cannot time).  By OpenSSL's
 * published figures for its scalar base 2^64 code on z196 and later and
 * for this vector method on z13+ (docs/log.md, Figures moved out of lib/
 * comments) the vector method is well ahead; its vector path starts at
 * 128 bytes, computing the powers on first use as we do.  Hence 8 blocks
 * before the powers exist and 4 once they do; below that the scalar
 * radix-2^64 code of r64.h runs.  A build may set either (lab/tune
 * measures them where it can time). */
#ifndef POLYMAC_VX_COLD
#define POLYMAC_VX_COLD 8
#endif
#ifndef POLYMAC_VX_WARM
#define POLYMAC_VX_WARM 4
#endif

/* VL has no alignment requirement, and vec_xl claims none: one VL with a
 * displacement per load (memcpy here made GCC add address arithmetic and
 * prefetches to the loop). */
static inline vu8 vx_load(const void *p)
{
    return vec_xl(0, (const unsigned char *)p);
}

/* The VERIM masks of vx_load4: the bits a limb takes from the next word. */
#define VX_INS1 0x3ffffc0u
#define VX_INS2 0x3fff000u
#define VX_INS3 0x3fc0000u

/* Splits four blocks at pa, pb, pc, pd into limb vectors: 64-bit lane 0
 * holds block a in its low word and c in its high word, lane 1 b and d
 * (big-endian element order c, a, d, b).  hib holds each word's 2^128
 * bit (1 << 24, or 0); mask (26 bits) and ins1..ins3 (the VERIM masks)
 * are made once by the caller. */
static inline void vx_load4p(vu32 m[5], const uint8_t *pa, const uint8_t *pb,
                             const uint8_t *pc, const uint8_t *pd, vu32 hib, vu32 mask,
                             vu32 ins1, vu32 ins2, vu32 ins3)
{
    /* words 0 and 1 (2 and 3) of two blocks x, y as y0 x0 y1 x1, each
     * with its bytes reversed: big-endian lanes holding little-endian
     * values */
    const vu8 lo01 = {19, 18, 17, 16, 3, 2, 1, 0, 23, 22, 21, 20, 7, 6, 5, 4};
    const vu8 hi23 = {27, 26, 25, 24, 11, 10, 9, 8, 31, 30, 29, 28, 15, 14, 13, 12};
    vu8 a = vx_load(pa), b = vx_load(pb);
    vu8 c = vx_load(pc), d = vx_load(pd);
    vu64 ac01 = (vu64)vec_perm(a, c, lo01), bd01 = (vu64)vec_perm(b, d, lo01);
    vu64 ac23 = (vu64)vec_perm(a, c, hi23), bd23 = (vu64)vec_perm(b, d, hi23);
    vu32 w0 = (vu32)vec_mergeh(ac01, bd01), w1 = (vu32)vec_mergel(ac01, bd01);
    vu32 w2 = (vu32)vec_mergeh(ac23, bd23), w3 = (vu32)vec_mergel(ac23, bd23);

    /* VERIM (t & ~mask) | (rotl(s, n) & mask) inserts the next word's
     * bits above the shifted ones: two instructions a limb */
    m[0] = w0 & mask;
    m[1] = __builtin_s390_verimf(w0 >> 26, w1, ins1, 6);
    m[2] = __builtin_s390_verimf(w1 >> 20, w2, ins2, 12);
    m[3] = __builtin_s390_verimf(w2 >> 14, w3, ins3, 18);
    m[4] = (w3 >> 8) | hib;
}

/* Four consecutive blocks at in (the one-shot loop's group). */
static inline void vx_load4(vu32 m[5], const uint8_t *in, vu32 hib, vu32 mask, vu32 ins1,
                            vu32 ins2, vu32 ins3)
{
    vx_load4p(m, in, in + 16, in + 32, in + 48, hib, mask, ins1, ins2, ins3);
}

/* d = h r per lane, before carrying: the low words of x (h plus the
 * blocks) times the low words of r, the high words of m (the blocks two
 * later; x has the same high words) times the high words, the latter
 * first since they do not wait for h.  Products that land at 2^130 and
 * above use s = 5 r.  Bounds: x < 2^27.01, s < 2^28.33, so ten products
 * stay below 2^58.2. */
static inline void vx_mul(vu64 d[5], const vu32 x[5], const vu32 m[5], const vu32 r[10])
{
    #pragma GCC unroll 5
    for (int k = 0; k < 5; k++) {
        d[k] = vec_mule(m[0], r[k]);
        #pragma GCC unroll 4
        for (int i = 1; i < 5; i++)
            d[k] = vec_meadd(m[i], i <= k ? r[k - i] : r[10 + k - i], d[k]);
        #pragma GCC unroll 5
        for (int i = 0; i < 5; i++)
            d[k] = vec_moadd(x[i], i <= k ? r[k - i] : r[10 + k - i], d[k]);
    }
}

/* Lazy carry on 64-bit lanes (two chains interleaved, one fold of the top
 * times 5).  Afterwards every limb is below 2^26 + 2^10 with a zero high
 * word: h for the next step. */
static inline void vx_carry(vu64 d[5])
{
    const vu64 mask = {0x3ffffff, 0x3ffffff};
    vu64 c;
    c = d[0] >> 26; d[0] &= mask; d[1] += c;
    c = d[3] >> 26; d[3] &= mask; d[4] += c;
    c = d[1] >> 26; d[1] &= mask; d[2] += c;
    c = d[4] >> 26; d[4] &= mask; d[0] += c + (c << 2);
    c = d[2] >> 26; d[2] &= mask; d[3] += c;
    c = d[0] >> 26; d[0] &= mask; d[1] += c;
    c = d[3] >> 26; d[3] &= mask; d[4] += c;
}

/* GCC's -O3 on s390x adds prefetches for the message to this loop (three
 * PFD per iteration, on top of the loads that follow at once). */
#if defined(__GNUC__) && !defined(__clang__)
#  define VX_NO_PREFETCH __attribute__((optimize("no-prefetch-loop-arrays")))
#else
#  define VX_NO_PREFETCH
#endif

/* One group: d = (h + the four blocks at in) r, per lane, not carried. */
static inline void vx_group(vu64 d[5], const uint8_t *in, vu32 hib, vu32 mask, vu32 ins1,
                            vu32 ins2, vu32 ins3, const vu32 r[10])
{
    vu32 m[5], x[5];
    vx_load4(m, in, hib, mask, ins1, ins2, ins3);
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++)
        x[i] = (vu32)d[i] + m[i];
    vx_mul(d, x, m, r);
}

/* Absorbs 4 ngroups blocks (ngroups >= 1) into h26 and leaves the sum of
 * the lanes, uncarried (each below 2^60), in out. */
VX_NO_PREFETCH static void vx_groups(const struct polymac_r26x4 *st, const uint8_t *in,
                      size_t ngroups, uint32_t hibit, uint64_t out[5])
{
    vu32 r4[10], rl[10];
    vu64 d[5];
    const vu32 hib = vec_splats(hibit << 24);
    vu32 mask = vec_splats(0x3ffffffu);
    vu32 ins1 = vec_splats(VX_INS1), ins2 = vec_splats(VX_INS2), ins3 = vec_splats(VX_INS3);

    /* GCC rebuilds constants it can make in one instruction (VGMF) inside
     * the loop rather than keep them in registers: an empty asm that may
     * have changed them makes them values it must keep. */
    __asm__("" : "+v"(mask), "+v"(ins1), "+v"(ins2), "+v"(ins3));

    /* Every small loop is unrolled fully so that GCC keeps these arrays
     * in registers; otherwise GCC 12 runs the loops through the stack. */
    #pragma GCC unroll 10
    for (int i = 0; i < 10; i++) {
        r4[i] = (vu32)vx_load(st->r4[i]);
        rl[i] = (vu32)vx_load(st->rl[i]);
    }
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++)
        d[i] = (vu64){st->c.h26[i], 0};       /* h joins lane 0's low block */

    for (; ngroups > 1; ngroups--, in += 64) {
        vx_group(d, in, hib, mask, ins1, ins2, ins3, r4);
        vx_carry(d);
    }
    vx_group(d, in, hib, mask, ins1, ins2, ins3, rl);
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++)
        out[i] = d[i][0] + d[i][1];
}

/* ---- The batch entry (lib/kernel.h's lanes): one message per word ----
 *
 * A batch message has its own key, so a vector can carry four messages at
 * once, one in each 32-bit word, each multiplied by its own r: the same
 * register of message limbs feeds VMALOF for the messages in the low words
 * (a, b) and VMALEF for those in the high words (c, d), into two sets of
 * five 64-bit accumulators, the same 50 multiply-adds a step as the
 * one-shot loop's four blocks.  Each set is carried as vx_carry carries
 * (the same limbs: test/unit/bounds.c, "s390x-vx lanes"), and the next step
 * adds the low set as it stands and the high set shifted into the high
 * words.  A group of four runs in lockstep: a shorter message starts late,
 * behind zero blocks without the 2^128 bit, which leave h = 0, so that
 * every message ends at the group's last block (its padded block, if
 * any, with the rest of the group's last).  qemu cannot time code, so the
 * step is costed with llvm-mca (lab/kernel-cost, the "lanes" row)
 * against the scalar loop a batch would run one message at a time. */

/* Messages of at most this many bytes go through the lanes (max_len). */
#ifndef VX_LANES_MAX
#define VX_LANES_MAX 2048
#endif

/* The fewest messages worth the lanes (min_same, min_mixed): a group of three
 * costs what four cost, about two scalar messages' blocks in the model
 * (lab/kernel-cost); one or two left over go through the scalar code. */
#ifndef VX_LANES_MIN
#define VX_LANES_MIN 3
#endif

/* The 32-bit word of message a, b, c, d of a group in a vector. */
static const unsigned vx_word[4] = {POLYMAC_R26X4_LO, 2 + POLYMAC_R26X4_LO,
                                    POLYMAC_R26X4_HI, 2 + POLYMAC_R26X4_HI};

/* One lockstep step: (h + the blocks at p[0..3]) r per word, carried. */
static inline void vx_lanes_step(vu64 lo[5], vu64 hi[5], const uint8_t *const p[4],
                                 vu32 hib, vu32 mask, vu32 ins1, vu32 ins2, vu32 ins3,
                                 const vu32 r[10])
{
    vu32 m[5], x[5];
    vx_load4p(m, p[0], p[1], p[2], p[3], hib, mask, ins1, ins2, ins3);
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++)
        x[i] = m[i] + (vu32)lo[i] + (vu32)(hi[i] << 32);
    #pragma GCC unroll 5
    for (int k = 0; k < 5; k++) {
        lo[k] = vec_mulo(x[0], r[k]);
        hi[k] = vec_mule(x[0], r[k]);
        #pragma GCC unroll 4
        for (int i = 1; i < 5; i++) {
            const vu32 y = i <= k ? r[k - i] : r[10 + k - i];
            lo[k] = vec_moadd(x[i], y, lo[k]);
            hi[k] = vec_meadd(x[i], y, hi[k]);
        }
    }
    vx_carry(lo);
    vx_carry(hi);
}

/* The tags of four messages (a message of length 0 may have msg NULL). */
VX_NO_PREFETCH static void vx_lanes_group(uint8_t *const tag[4], const uint8_t *const msg[4],
                                          const size_t len[4], const uint8_t *const key[4])
{
    static const uint8_t zero[16];
    uint32_t rw[10][4];                 /* r's limbs, then 5 r's, a word a message */
    uint8_t pad[4][16];
    size_t full[4], start[4], nb = 0;
    vu32 r[10];
    vu64 lo[5], hi[5];
    vu32 mask = vec_splats(0x3ffffffu);
    vu32 ins1 = vec_splats(VX_INS1), ins2 = vec_splats(VX_INS2), ins3 = vec_splats(VX_INS3);
    __asm__("" : "+v"(mask), "+v"(ins1), "+v"(ins2), "+v"(ins3));   /* as vx_groups */

    for (unsigned j = 0; j < 4; j++) {
        uint64_t r0, r1;
        polymac_clamp64(&r0, &r1, key[j]);
        const uint32_t l[5] = {(uint32_t)r0 & 0x3ffffff, (uint32_t)(r0 >> 26) & 0x3ffffff,
                               (uint32_t)((r0 >> 52) | (r1 << 12)) & 0x3ffffff,
                               (uint32_t)(r1 >> 14) & 0x3ffffff, (uint32_t)(r1 >> 40)};
        for (int i = 0; i < 5; i++) {
            rw[i][vx_word[j]] = l[i];
            rw[5 + i][vx_word[j]] = 5 * l[i];
        }
        full[j] = len[j] / 16;
        if (len[j] % 16)
            polymac_pad_last(pad[j], msg[j] + 16 * full[j], len[j] % 16);
        const size_t b = (len[j] + 15) / 16;
        nb = b > nb ? b : nb;
    }
    for (unsigned j = 0; j < 4; j++)
        start[j] = nb - (len[j] + 15) / 16;
    #pragma GCC unroll 10
    for (int i = 0; i < 10; i++)
        r[i] = (vu32)vx_load(rw[i]);
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++)
        lo[i] = hi[i] = (vu64){0, 0};

    /* phases in which no message starts or reaches its padded block:
     * each word's address moves by 16 or stays (zero or padded block) */
    for (size_t t = 0; t < nb;) {
        const uint8_t *p[4];
        size_t step[4], end = nb;
        uint32_t hw[4];
        for (unsigned j = 0; j < 4; j++) {
            const size_t w = vx_word[j];
            if (t < start[j]) {
                p[j] = zero;
                step[j] = 0;
                hw[w] = 0;
                end = start[j] < end ? start[j] : end;
            } else if (t < start[j] + full[j]) {
                p[j] = msg[j] + 16 * (t - start[j]);
                step[j] = 16;
                hw[w] = 1u << 24;
                end = start[j] + full[j] < end ? start[j] + full[j] : end;
            } else {
                p[j] = pad[j];
                step[j] = 0;
                hw[w] = 0;
            }
        }
        const vu32 hib = (vu32)vx_load(hw);
        for (; t < end; t++) {
            vx_lanes_step(lo, hi, p, hib, mask, ins1, ins2, ins3, r);
            for (unsigned j = 0; j < 4; j++)
                p[j] += step[j];
        }
    }

    /* a and b in the low set's 64-bit lanes 0 and 1, c and d in the high
     * set's */
    for (unsigned j = 0; j < 4; j++) {
        const vu64 *const v = j < 2 ? lo : hi;
        uint64_t l[5];
        struct polymac_r64 h;
        for (int i = 0; i < 5; i++)
            l[i] = v[i][j & 1];
        polymac_r64_from_r26(&h, l);
        polymac_r64_finish(tag[j], h.h0, h.h1, h.h2, key[j] + 16);
        polymac_wipe(l, sizeof l);
        polymac_wipe(&h, sizeof h);
    }
    polymac_wipe(rw, sizeof rw);
    polymac_wipe(pad, sizeof pad);
}

/* A batch: groups of four in order of block count (polymac_block_class,
 * longest first; a burst of one length in its own order); three left
 * over share a group with an empty message, one or two go through the
 * scalar code. */
static void vx_lanes(uint8_t *const out[], const uint8_t *const msgs[], const size_t lens[],
                     const uint8_t *const keys[], size_t n)
{
    static const uint8_t nokey[32];
    uint8_t spare[16];
    uint8_t *tg[4];
    const uint8_t *mg[4], *kg[4];
    size_t lg[4], k = 0;
    unsigned classes = 0, one = 1;

    for (size_t i = 0; i < n; i++) {
        one &= lens[i] == lens[0];
        classes |= 1u << polymac_block_class(lens[i]);
    }
    if (one)
        classes = 1;
    while (classes) {
        const unsigned cls = 31u - (unsigned)__builtin_clz(classes);
        classes &= ~(1u << cls);
        for (size_t i = 0; i < n; i++) {
            if (!one && polymac_block_class(lens[i]) != cls)
                continue;
            tg[k] = out[i];
            mg[k] = msgs[i];
            lg[k] = lens[i];
            kg[k] = keys[i];
            if (++k == 4) {
                vx_lanes_group(tg, mg, lg, kg);
                k = 0;
            }
        }
    }
    if (k == 3) {
        tg[3] = spare;
        mg[3] = NULL;
        lg[3] = 0;
        kg[3] = nokey;
        vx_lanes_group(tg, mg, lg, kg);
    } else {
        for (size_t i = 0; i < k; i++)
            polymac_r64_auth(tg[i], mg[i], lg[i], kg[i]);
    }
}

static const struct polymac_lanes vx_lanes_entry = {
    .run = vx_lanes, .max_len = VX_LANES_MAX, .min_same = VX_LANES_MIN, .min_mixed = VX_LANES_MIN,
};

POLYMAC_R26X4_KERNEL(s390x_vx, "s390x-vx", POLYMAC_CPU_S390X_VX,
                      POLYMAC_VX_COLD, POLYMAC_VX_WARM, vx_groups,
                      .lanes = &vx_lanes_entry);
