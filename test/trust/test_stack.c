/* test_stack.c -- no key-derived value is left in the dead stack below a
 *                 call into the library */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/* For every kernel usable here and each of a list of uses of a key
 * (one-shot messages whose lengths reach every path of the kernels, a
 * verify, a streamed message in uneven pieces, a stream of short
 * pieces left open, a batch): a function makes that use and returns; then
 * a sibling function at the same depth reads its own large uninitialised
 * stack array, which now holds whatever the library left below that
 * depth, through a volatile pointer.  One use at a time, so that a later call
 * cannot overwrite what an earlier one left.  The bytes are searched for
 * words derived from the key: r's limbs in radix 2^26, 2^44 and 2^64,
 * the same for r^2..r^16 (the powers a kernel precomputes; fully reduced,
 * which is how a carried power almost always stands), their multiples by
 * 5 and 20 (the folding factors kernels keep beside them), and s.
 * Every hit fails the test.  Before the first key, one unchecked round
 * makes every call once: the first call through a lazily bound PLT entry
 * runs the dynamic linker, which saves the vector registers on the stack
 * (README, Security: registers are not covered).  Kernels the CPU cannot
 * run are not listed by polymac_backend_list and are reported as not
 * tested. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polymac.h"

#define SCAN_BYTES (64 * 1024)
#define NPOW 16

struct target {
    uint64_t v;
    unsigned width;          /* 4 or 8 bytes compared */
    char what[40];
};
static struct target targets[NPOW * 40 + 8];
static size_t ntargets;
static unsigned char seen[SCAN_BYTES];

static void add(uint64_t v, const char *what, unsigned k)
{
    /* values this small turn up in any stack; a fresh key avoids them */
    if (v < (1u << 16))
        return;
    struct target *t = &targets[ntargets++];
    t->v = v;
    t->width = v >> 32 ? 8 : 4;
    snprintf(t->what, sizeof t->what, "%s of r^%u", what, k);
}

/* a = a b mod p, canonical, in five 26-bit limbs (each column below
 * 25 * 2^52: 64-bit words, so that 32-bit targets run it too) */
__attribute__((noinline)) static void mulmod(uint64_t a[5], const uint64_t b[5])
{
    uint64_t d[5] = {0};
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) {
            uint64_t pr = a[i] * b[j];
            if (i + j < 5)
                d[i + j] += pr;
            else
                d[i + j - 5] += pr * 5;
        }
    for (int round = 0; round < 3; round++) {
        uint64_t c = 0;
        for (int i = 0; i < 5; i++) {
            d[i] += c;
            c = d[i] >> 26;
            d[i] &= 0x3ffffff;
        }
        d[0] += c * 5;
    }
    /* subtract p once if h >= p */
    uint64_t g[5], c = 5;
    for (int i = 0; i < 5; i++) {
        g[i] = (uint64_t)d[i] + c;
        c = g[i] >> 26;
        g[i] &= 0x3ffffff;
    }
    int ge = c != 0;   /* h + 5 >= 2^130 */
    for (int i = 0; i < 5; i++)
        a[i] = ge ? g[i] : (uint64_t)d[i];
}

static uint64_t le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* Out of line, like find_hits: inlined into main, either could leave a
 * key-derived value in one of main's callee-saved registers, which the
 * library's prologues would then save in the dead stack (a value the
 * test put there, not the library). */
__attribute__((noinline)) static void make_targets(const uint8_t key[32])
{
    uint64_t r0 = le64(key) & UINT64_C(0x0ffffffc0fffffff);
    uint64_t r1 = le64(key + 8) & UINT64_C(0x0ffffffc0ffffffc);
    uint64_t r[5] = {r0 & 0x3ffffff, (r0 >> 26) & 0x3ffffff,
                     ((r0 >> 52) | (r1 << 12)) & 0x3ffffff, (r1 >> 14) & 0x3ffffff, r1 >> 40};
    uint64_t p[5];
    memcpy(p, r, sizeof p);
    ntargets = 0;
    for (unsigned k = 1; k <= NPOW; k++) {
        if (k > 1)
            mulmod(p, r);
        for (int i = 0; i < 5; i++) {
            add(p[i], "26-bit limb", k);
            if (i)
                add(p[i] * 5, "5 x 26-bit limb", k);
        }
        /* the same value as two 64-bit words and three 44-bit limbs */
        uint64_t w0 = p[0] | p[1] << 26 | p[2] << 52;
        uint64_t w1 = p[2] >> 12 | p[3] << 14 | p[4] << 40;
        uint64_t m44 = (UINT64_C(1) << 44) - 1;
        uint64_t l0 = w0 & m44, l1 = (w0 >> 44 | w1 << 20) & m44;
        uint64_t l2 = w1 >> 24 | (p[4] >> 24) << 40;
        add(w0, "low 64-bit word", k);
        add(w1, "high 64-bit word", k);
        add(w1 + (w1 >> 2), "5/4 high word", k);
        add(l0, "44-bit limb 0", k);
        add(l1, "44-bit limb 1", k);
        add(l2, "44-bit limb 2", k);
        add(l1 * 20, "20 x 44-bit limb 1", k);
        add(l2 * 20, "20 x 44-bit limb 2", k);
    }
    uint64_t s0 = le64(key + 16), s1 = le64(key + 24);
    struct target *t = &targets[ntargets++];
    *t = (struct target){s0, 8, "s (low word)"};
    t = &targets[ntargets++];
    *t = (struct target){s1, 8, "s (high word)"};
}

static uint8_t msg[4096 + 77];

/* The uses of a key, one per call of use_key. */
enum { USE_STREAM = 8, USE_SHORT, USE_BATCH, USE_AEAD, USE_AEAD_VERIFY = USE_AEAD + 4,
       USE_AEAD_STREAM, USE_AEAD_BATCH, USE_AEAD_PACKETS, NUSES };
static const char *const use_name[NUSES] = {
    "auth 4096", "verify 4096", "auth 64", "auth 600", "auth 700", "auth 1024",
    "auth 1040", "auth 1100", "streamed", "short pieces", "batch",
    "aead 13 + 64", "aead 13 + 1024", "aead 20 + 4000", "aead 400 + 1000",
    "aead_verify 13 + 1000", "aead streamed", "aead batch", "aead packet batches",
};
/* AEAD one-shots: the radix-2^64 path inline, the kernel's spans (a
 * long ciphertext; a long AAD and ciphertext) or blocks */
static const size_t aead_len[4][2] = {{13, 64}, {13, 1024}, {20, 4000}, {400, 1000}};
/* one-shot lengths: past every kernel's break-even, the four-lane paths,
 * a leading partial group, a tail */
static const size_t auth_len[USE_STREAM] = {4096, 4096, 64, 600, 700, 1024, 1040, 1100};
/* a streamed message: a partial block, then vector calls cold and warm,
 * whole groups and not, short calls between them */
static const size_t pieces[] = {13, 1000, 2048, 64, 80, 48, 16, 40, 700};
/* batches under one key: the lanes, the inline scalar path, the kernel's
 * one-shot path (the first 6); one and two sets of lanes with refills
 * (all 20); one length for all, on one set (8) and two (16), and short
 * ones of one length (groups of one to three blocks: 8 of 33 B) */
#define NBATCH 20
static const size_t batch_len[NBATCH] = {16, 77, 200, 600, 1100, 4096, 64, 300, 33, 900,
                                         16, 77, 200, 600, 48, 64, 300, 33, 900, 5};
static const size_t batch_same[NBATCH] = {65, 65, 65, 65, 65, 65, 65, 65, 65, 65,
                                          65, 65, 65, 65, 65, 65, 65, 65, 65, 65};
static const size_t batch_short[8] = {33, 33, 33, 33, 33, 33, 33, 33};

/* The stream of short pieces is left open, outside the stack, so that
 * no final follows its last piece; main finishes it after the scan. */
static polymac_state open_state;

/* What a user's function does with a key; returns nothing secret. */
__attribute__((noinline)) static int use_key(const uint8_t key[32], int use)
{
    uint8_t tag[16];
    polymac_state st;
    int rc = 0;
    if (use == 1) {
        /* a wrong tag: the whole computation, then the comparison */
        memset(tag, 0, sizeof tag);
        rc = polymac_verify(tag, msg, auth_len[use], key) == POLYMAC_EBADTAG ? 0 : -1;
    } else if (use < USE_STREAM) {
        rc = polymac_auth(tag, msg, auth_len[use], key);
    } else if (use == USE_STREAM) {
        size_t off = 0;
        rc = polymac_init(&st, key);
        for (size_t i = 0; i < sizeof pieces / sizeof pieces[0]; off += pieces[i++])
            rc |= polymac_update(&st, msg + off, pieces[i]);
        rc |= polymac_final(&st, tag);
    } else if (use == USE_BATCH) {
        uint8_t tags[NBATCH][16], *tp[NBATCH];
        const void *mp[NBATCH];
        const uint8_t *kp[NBATCH];
        for (int i = 0; i < NBATCH; i++) {
            tp[i] = tags[i];
            mp[i] = msg;
            kp[i] = key;
        }
        rc = polymac_auth_batch(tp, mp, batch_len, kp, 6);
        rc |= polymac_auth_batch(tp, mp, batch_len, kp, NBATCH);
        rc |= polymac_auth_batch(tp, mp, batch_same, kp, 8);
        rc |= polymac_auth_batch(tp, mp, batch_same, kp, 16);
        rc |= polymac_auth_batch(tp, mp, batch_short, kp, 8);
        /* verified: the expected tags live in the library's rows */
        const uint8_t *ctp[NBATCH];
        int res[NBATCH];
        for (int i = 0; i < NBATCH; i++)
            ctp[i] = tags[i];
        polymac_auth_batch(tp, mp, batch_same, kp, 16);
        rc |= polymac_verify_batch(ctp, mp, batch_same, kp, 16, res);
        rc |= polymac_verify_batch(ctp, mp, batch_len, kp, NBATCH, res) == POLYMAC_EBADTAG ? 0 : -1;
        __asm__ __volatile__("" : : "r"(tags) : "memory");
    } else if (use >= USE_AEAD && use < USE_AEAD_VERIFY) {
        const size_t *l = aead_len[use - USE_AEAD];
        rc = polymac_aead_auth(tag, msg, l[0], msg + 32, l[1], key);
    } else if (use == USE_AEAD_VERIFY) {
        memset(tag, 0, sizeof tag);
        rc = polymac_aead_verify(tag, msg, 13, msg + 13, 1000, key) == POLYMAC_EBADTAG ? 0 : -1;
    } else if (use == USE_AEAD_STREAM) {
        polymac_aead_state ast;
        rc = polymac_aead_init(&ast, key);
        rc |= polymac_aead_update_aad(&ast, msg, 13);
        rc |= polymac_aead_update_aad(&ast, msg + 13, 20);
        for (size_t i = 0, off = 64; i < sizeof pieces / sizeof pieces[0]; off += pieces[i++])
            rc |= polymac_aead_update_ct(&ast, msg + off, pieces[i]);
        rc |= polymac_aead_final(&ast, tag);
    } else if (use == USE_AEAD_BATCH) {
        uint8_t tags[NBATCH][16], *tp[NBATCH];
        const uint8_t *kp[NBATCH], *ctp[NBATCH];
        const void *ap[NBATCH], *cp[NBATCH];
        size_t al[NBATCH];
        int res[NBATCH];
        for (int i = 0; i < NBATCH; i++) {
            tp[i] = tags[i];
            ctp[i] = tags[i];
            ap[i] = msg;
            cp[i] = msg + 16;
            al[i] = (size_t)i;
            kp[i] = key;
        }
        rc = polymac_aead_auth_batch(tp, ap, al, cp, batch_len, kp, NBATCH);
        rc |= polymac_aead_verify_batch(ctp, ap, al, cp, batch_len, kp, NBATCH, res);
        __asm__ __volatile__("" : : "r"(tags) : "memory");
    } else if (use == USE_AEAD_PACKETS) {
        /* the lanes' AEAD path: packets of one layout (20 + 1200 B), then
         * of mixed ones (no AAD, 64 to 1420 B), then short ones, then five
         * of the first layout (a group of four lanes and one left over) */
        uint8_t tags[NBATCH][16], *tp[NBATCH];
        const uint8_t *kp[NBATCH], *ctp[NBATCH];
        const void *ap[NBATCH], *cp[NBATCH];
        size_t al[NBATCH], cl[NBATCH];
        int res[NBATCH];
        for (int v = 0; v < 4; v++) {
            for (int i = 0; i < NBATCH; i++) {
                tp[i] = tags[i];
                ctp[i] = tags[i];
                ap[i] = msg;
                cp[i] = msg + 32;
                al[i] = v == 0 || v == 3 ? 20 : v == 1 ? 0 : (size_t)i;
                cl[i] = v == 0 || v == 3 ? 1200 : v == 1 ? 64 + (size_t)i * 71 : 16 + (size_t)i;
                kp[i] = key;
            }
            const size_t n = v == 3 ? 5 : 16;
            rc |= polymac_aead_auth_batch(tp, ap, al, cp, cl, kp, n);
            rc |= polymac_aead_verify_batch(ctp, ap, al, cp, cl, kp, n, res);
        }
        __asm__ __volatile__("" : : "r"(tags) : "memory");
    } else {
        rc = polymac_init(&open_state, key);
        for (size_t off = 0; off + 13 <= 1300; off += 13)
            rc |= polymac_update(&open_state, msg + off, 13);
        rc |= polymac_update(&open_state, msg + 1300, 50);
    }
    __asm__ __volatile__("" : : "r"(tag) : "memory");
    return rc;
}

/* A sibling of use_key at the same depth that zeroes its own frame
 * before each use: what the scan then finds was left by that use alone,
 * not by an earlier one or by make_targets, whose reference arithmetic
 * runs at this depth too. */
__attribute__((noinline)) static void clear_dead_stack(void)
{
    /* a leaf with the frame read_dead_stack has (a call to memset would
     * save a return address and move the array down), so that it clears
     * all that the scan reads */
    unsigned char area[SCAN_BYTES];
    volatile unsigned char *v = area;
    for (size_t i = 0; i < SCAN_BYTES; i++)
        v[i] = 0;
    __asm__ __volatile__("" : : "r"(area) : "memory");
}

/* A sibling of use_key at the same depth: copies its own uninitialised
 * frame, the dead stack use_key left, without calling anything first. */
__attribute__((noinline)) static void read_dead_stack(void)
{
    unsigned char area[SCAN_BYTES];
    volatile unsigned char *v = area;
    for (size_t i = 0; i < SCAN_BYTES; i++)
        seen[i] = v[i];
    __asm__ __volatile__("" : : "r"(area) : "memory");
}

__attribute__((noinline)) static size_t find_hits(const char *kernel, const char *use, size_t report)
{
    size_t hits = 0;
    for (size_t off = 0; off + 8 <= SCAN_BYTES; off += 4) {
        uint32_t w4;
        uint64_t w8;
        memcpy(&w4, seen + off, 4);
        memcpy(&w8, seen + off, 8);
        for (size_t t = 0; t < ntargets; t++) {
            if (targets[t].width == 4 ? w4 != targets[t].v : w8 != targets[t].v)
                continue;
            if (hits++ < report)
                printf("  %s, %s: %s at %zu bytes below the scan's top\n", kernel, use,
                       targets[t].what, SCAN_BYTES - off);
        }
    }
    return hits;
}

int main(void)
{
    const char *names[32];
    size_t n = polymac_backend_list(names, 32), failed = 0;
    uint64_t seed = 0x57acc0de;
    for (size_t i = 0; i < sizeof msg; i++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        msg[i] = (uint8_t)(seed >> 56);
    }
    for (size_t k = 0; k < n && k < 32; k++) {
        size_t hits = 0;
        if (polymac_backend_select(names[k]) != 0) {
            printf("FAIL: cannot select listed kernel %s\n", names[k]);
            failed++;
            continue;
        }
        /* round -1 binds every PLT entry the uses go through */
        for (int round = -1; round < 4; round++) {
            uint8_t key[32];
            for (int i = 0; i < 32; i++) {
                seed = seed * 6364136223846793005u + 1442695040888963407u;
                key[i] = (uint8_t)(seed >> 56);
            }
            make_targets(key);
            for (int use = 0; use < NUSES; use++) {
                clear_dead_stack();
                if (use_key(key, use) != 0) {
                    printf("FAIL: %s: %s: a call failed\n", names[k], use_name[use]);
                    failed++;
                }
                read_dead_stack();
                if (round >= 0)
                    hits += find_hits(names[k], use_name[use], hits < 8 ? 8 - hits : 0);
                if (use == USE_SHORT) {
                    uint8_t tag[16];
                    polymac_final(&open_state, tag);
                }
            }
        }
        printf("%s %s: %zu key-derived words in the dead stack\n", hits ? "FAIL" : "ok",
               names[k], hits);
        failed += hits != 0;
    }
    polymac_backend_select(NULL);
    printf("%zu kernels tested (those usable on this CPU), %zu failed\n", n, failed);
    return failed ? 1 : 0;
}
