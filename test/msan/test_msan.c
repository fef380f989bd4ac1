/* test_msan.c -- constant-time check under MemorySanitizer: key, message
 *                and expected tag poisoned, every kernel run natively */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/*
 * The valgrind check (test/ct/test_ct.c) cannot execute AVX-512, so it
 * misses x86-avx512 and x86-avx512ifma.  This program runs the same idea
 * natively: the library and this program are built with clang's
 * -fsanitize=memory, the secrets are poisoned with __msan_poison, and
 * MemorySanitizer reports "use-of-uninitialized-value" when a conditional
 * branch, a memory address (a table index) or a division depends on a
 * poisoned bit.  Only the computed tag and the verify verdict are
 * unpoisoned (declassified), after checking that they are poisoned: that
 * proves the secrets really flowed through the kernel to its result, so a
 * clean run is not a run in which the taint was silently dropped.
 *
 * No uninstrumented code may touch the secrets: this program links the
 * library only (no libsodium, no Check), the library is built with
 * -Dcpu_features=disabled (cpu_features is an uninstrumented static
 * archive; the compiler's own CPU probe is used instead), and the expected
 * tags come from the library's generic-r26 kernel on unpoisoned copies,
 * itself checked against RFC 8439's vector here (every kernel is checked
 * against libsodium by the other suites).
 *
 * tools/trust-checks builds it with -fno-sanitize-memory-param-retval:
 * clang 16 and later otherwise check every argument and return value
 * eagerly, and report the verdict polymac_verify returns (poisoned, since
 * it is computed from the secret tag) at the return itself, before this
 * program can test and declassify it.  What is a report stays the same as
 * under clang 14: a branch, an address or a division on a poisoned bit.
 *
 * What MemorySanitizer (clang 14) does with what the x86 kernels use.
 * Found by reading the instrumented IR of each kernel (clang -S
 * -emit-llvm with -fsanitize=memory: the x86 intrinsics that remain are
 * listed below) and confirmed by running this check:
 *   - AVX2 and AVX-512F/BW/VL arithmetic and logic (vpaddq, vpsubq, vpand,
 *     vpor, vpmuludq from _mm*_mul_epu32), immediate shifts, loads, stores,
 *     broadcasts, blends, unpacks, shuffles with constant controls
 *     (vpermq imm, vpshufb), masked moves, the horizontal sums: clang 14
 *     emits plain IR for all of them (add, mul, and, or, lshr, shl,
 *     shufflevector, select, llvm.masked.load); MSan propagates shadow.
 *     A masked load's mask (from the public length) is checked strictly.
 *   - vpermq/vpermi2q with a vector index (_mm512_permutexvar_epi64 and
 *     _mm512_permutex2var_epi64: llvm.x86.avx512.permvar.di.512 and
 *     vpermi2var.q.512) and IFMA vpmadd52luq/vpmadd52huq
 *     (llvm.x86.avx512.vpmadd52l/h.uq.512): MSan 14 has no handler of its
 *     own, but they access no memory and every operand has the result's
 *     type, so it ORs the operands' shadows lane by lane: propagates.
 *   - vpternlogq (_mm512_ternarylogic_epi64, llvm.x86.avx512.pternlog.q.512)
 *     has an immediate operand of another type, so MSan checks it strictly:
 *     any poisoned operand is a report (a false one here: it merges secret
 *     limbs).  A sanitizer build of the library (POLYMAC_SANITIZED,
 *     lib/util.h) computes the same value with vpor and vpand in its place.
 *   - Inline asm: MSan (user space) checks every input operand strictly and
 *     makes every output clean.  The kernels' asm statements are compiler
 *     barriers or loads of public constants (zero registers, broadcasts of
 *     ifma_k, opaque copies of pointers) except polymac_v_keep in
 *     lib/x86/r26vec.h, an empty asm over the AVX2 core's secret product
 *     sums that only stops GCC re-associating them: a false report too.
 *     A sanitizer build drops it (it has no instruction: the same
 *     computation).  Without that switch this check fails at both places.
 * A strictly checked operand that is poisoned is a report, so the strict
 * rule can only make this check fail, never pass silently; the
 * poisoned-result checks below catch the opposite (taint dropped).
 *
 * The limit of the method: MSan's shadow of a sum or a product is the OR
 * of its operands' shadows, and a right shift shifts the shadow.  A carry
 * (d >> 26, >> 44, the high half of a 64x64 product) is computed from the
 * bits above the poisoned ones and so looks public: a branch or index on a
 * carry alone would not be reported.  The counts printed per kernel show
 * it: with s public some tag bits of a one-byte message come out clean
 * (112 of 128 for the radix-2^64 scalar path).  A verdict, (diff | -diff)
 * >> 63 in polymac_compare_tags, keeps the taint (the count "verdicts
 * MSan saw as public" is 0).  valgrind's memcheck
 * spreads undefinedness left through additions and does catch these, on
 * the kernels it can run (test/ct); for the AVX-512 kernels the timing
 * test (test/dudect) is the independent check.

 *   test_msan [KERNEL...]              every usable kernel when none named
 *   test_msan KERNEL --planted-compare an early-exit tag compare
 *   test_msan KERNEL --planted-index   a secret-indexed table lookup
 *       tests of the test: MSan must report them (exit 99 with
 *       MSAN_OPTIONS=exitcode=99, which tools/trust-checks sets)
 *
 * Exit 0 clean, 1 wrong result or taint lost, 2 usage or not built with
 * MemorySanitizer, 77 kernel not built in or not runnable here.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polymac.h"
#include "../rand.h"
#include "../rfc8439.h"
#include "../ct/planted.h"

#if defined(__has_feature)
#  if __has_feature(memory_sanitizer)
#    define HAVE_MSAN 1
#    include <sanitizer/msan_interface.h>
#  endif
#endif
#ifndef HAVE_MSAN
#  define HAVE_MSAN 0
#  define __msan_poison(p, n) ((void)(p), (void)(n))
#  define __msan_unpoison(p, n) ((void)(p), (void)(n))
#  define __msan_test_shadow(p, n) ((void)(p), (void)(n), (long)0)
#endif

#define SECRET(p, n) __msan_poison((p), (n))
#define PUBLIC(p, n) __msan_unpoison((p), (n))

static uint64_t seed = 0x6d73616eu;

static uint64_t rnd(void) { return test_rand(&seed); }
static void fill(uint8_t *p, size_t n) { test_fill(p, n, &seed); }

static int failures;
static unsigned verdict_clean;      /* verdicts MSan saw as public: see above */
static unsigned min_bits;           /* fewest poisoned tag bits with s public */

static void check(int ok, const char *kernel, const char *what, size_t len)
{
    if (!ok) {
        fprintf(stderr, "FAIL: %s: %s (length %zu)\n", kernel, what, len);
        failures++;
    }
}

/* every byte of p is poisoned: the secrets reached it */
static int all_poisoned(const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        if (__msan_test_shadow(b + i, 1) != 0)
            return 0;
    return 1;
}

/* how many bits of p are poisoned: x & (1 << j) has the shadow of bit j
 * only (MSan's rule for an AND with a constant) */
static unsigned poisoned_bits(const uint8_t *p, size_t n)
{
    unsigned c = 0;
    for (size_t i = 0; i < n; i++)
        for (unsigned j = 0; j < 8; j++) {
            volatile uint8_t b = (uint8_t)(p[i] & (1u << j));
            c += __msan_test_shadow((const void *)&b, 1) == 0;
        }
    return c;
}

/* Lengths that reach every path of every kernel: empty, partial blocks,
 * below and above each SIMD break-even, whole groups of 4, 8 and 16 blocks
 * and partial groups, 141 blocks + 13 bytes (no group width divides it). */
static const size_t lens[] = {0, 1, 15, 16, 17, 33, 48, 63, 64, 65, 127, 128, 129, 255, 256,
                              257, 300, 511, 512, 527, 1024, 1031, 141 * 16 + 13, 4096 + 13};
#define NLENS (sizeof lens / sizeof *lens)
#define MAXLEN (4096 + 13)

static uint8_t area[MAXLEN + 64], pub[MAXLEN];

/* the expected tag, from generic-r26 on unpoisoned copies */
static void reference(uint8_t ref[16], const uint8_t *msg, size_t len, const uint8_t key[32],
                      const char *kernel)
{
    uint8_t k[32];
    memcpy(pub, msg, len);
    memcpy(k, key, 32);
    if (polymac_backend_select("generic-r26") != 0 || polymac_auth(ref, pub, len, k) != 0
        || polymac_backend_select(kernel) != 0) {
        fprintf(stderr, "FAIL: reference tag\n");
        exit(1);
    }
}

static void run_kernel(const char *kernel)
{
    uint8_t key[32], ref[16], tag[16], want[16];
    int rc, v;
    for (size_t li = 0; li < NLENS; li++) {
        size_t len = lens[li];
        for (int variant = 0; variant < 2; variant++) {
            uint8_t *msg = area + (li * 3 + (size_t)variant) % 64;     /* misaligned too */
            fill(key, 32);
            fill(msg, len);
            if (variant == 1) {                  /* all ones: every carry */
                memset(key, 0xff, 32);
                memset(msg, 0xff, len);
            }
            reference(ref, msg, len, key, kernel);

            SECRET(key, 32);
            SECRET(msg, len);

            /* one-shot */
            rc = polymac_auth(tag, msg, len, key);
            check(all_poisoned(tag, 16), kernel, "auth: tag not poisoned (taint lost)", len);
            PUBLIC(tag, 16);
            check(rc == 0 && memcmp(tag, ref, 16) == 0, kernel, "auth", len);

            /* r and message secret, s public: every bit of the tag must
             * be poisoned through h alone, or the taint was lost */
            if (len > 0) {
                uint8_t k2[32];
                memcpy(k2, key, 32);
                PUBLIC(k2 + 16, 16);
                rc = polymac_auth(tag, msg, len, k2);
                unsigned b = poisoned_bits(tag, 16);
                if (b < min_bits)
                    min_bits = b;
                check(all_poisoned(tag, 16), kernel,
                      "auth, s public: tag bytes not all poisoned (taint lost in h)", len);
                PUBLIC(tag, 16);
                check(rc == 0 && memcmp(tag, ref, 16) == 0, kernel, "auth, s public", len);
            }

            /* streaming, split at public points: thirds, whole blocks,
             * and uneven pieces of 1, 7, 31, 100 ... bytes */
            for (int s = 0; s < 3; s++) {
                polymac_state st;
                size_t at = 0, piece = 1;
                rc = polymac_init(&st, key);
                while (at < len) {
                    size_t n = s == 0 ? len / 3 + 1 : s == 1 ? 64 : piece;
                    if (n > len - at)
                        n = len - at;
                    rc |= polymac_update(&st, msg + at, n);
                    at += n;
                    piece = piece * 3 + 4;
                }
                rc |= polymac_final(&st, tag);
                unsigned b = poisoned_bits(tag, 16);
                if (b < min_bits)
                    min_bits = b;
                check(all_poisoned(tag, 16), kernel, "streaming: tag not poisoned", len);
                PUBLIC(tag, 16);
                check(rc == 0 && memcmp(tag, ref, 16) == 0, kernel, "streaming", len);
            }

            /* verify: the expected tag is secret, the verdict public */
            memcpy(want, ref, 16);
            SECRET(want, 16);
            rc = polymac_verify(want, msg, len, key);
            verdict_clean += !all_poisoned(&rc, sizeof rc);
            PUBLIC(&rc, sizeof rc);
            check(rc == 0, kernel, "verify of the right tag", len);
            PUBLIC(want, 16);
            want[len % 16] ^= (uint8_t)(1u << (len % 8));
            SECRET(want, 16);
            rc = polymac_verify(want, msg, len, key);
            PUBLIC(&rc, sizeof rc);
            check(rc == POLYMAC_EBADTAG, kernel, "verify of a wrong tag", len);

            polymac_state st;
            rc = polymac_init(&st, key);
            rc |= polymac_update(&st, msg, len);
            v = polymac_final_verify(&st, want);
            PUBLIC(&v, sizeof v);
            check(rc == 0 && v == POLYMAC_EBADTAG, kernel, "final_verify of a wrong tag", len);
            memcpy(want, ref, 16);
            SECRET(want, 16);
            rc = polymac_init(&st, key);
            rc |= polymac_update(&st, msg, len);
            v = polymac_final_verify(&st, want);
            verdict_clean += !all_poisoned(&v, sizeof v);
            PUBLIC(&v, sizeof v);
            check(rc == 0 && v == 0, kernel, "final_verify of the right tag", len);

            PUBLIC(key, 32);
            PUBLIC(msg, len);
        }
    }
}

/* The batch calls: keys, messages and expected tags poisoned, in batches
 * that take every path of the batch front end and of a lanes entry: one
 * length for all (groups of eight and of sixteen, a padded last block
 * alone and paired with a full one), mixed lengths with refills, and
 * messages too long for the lanes beside short ones. */
#define BN 24
#define BLEN 1100
static uint8_t bmsg[BN][BLEN + 8], bkey[BN][32], btag[BN][16], bref[BN][16], bwant[BN][16];

static void run_batch(const char *kernel)
{
    static const size_t same[] = {64, 65, 33, 16, 1, 1024};
    static const size_t counts[] = {8, 16, 20, 3, 24, 9};
    uint8_t *tags[BN];
    const void *msgs[BN];
    const uint8_t *keys[BN], *want[BN];
    size_t blens[BN];
    int results[BN];
    for (int c = 0; c < 8; c++) {
        size_t n = c < 6 ? counts[c] : BN;
        for (size_t i = 0; i < n; i++) {
            size_t len = c < 6 ? same[c] : lens[(i * 5 + (size_t)c) % (NLENS - 2)];
            if (c == 7 && i % 5 == 2)
                len = BLEN;                       /* beyond the lanes */
            uint8_t *m = bmsg[i] + (i + (size_t)c) % 8;
            fill(m, len);
            fill(bkey[i], 32);
            if (c == 1) {                         /* all ones: every carry */
                memset(m, 0xff, len);
                memset(bkey[i], 0xff, 32);
            }
            reference(bref[i], m, len, bkey[i], kernel);
            msgs[i] = m;
            blens[i] = len;
            keys[i] = bkey[i];
            tags[i] = btag[i];
            want[i] = bwant[i];
            SECRET(bkey[i], 32);
            SECRET(m, len);
        }
        int rc = polymac_auth_batch(tags, msgs, blens, keys, n);
        for (size_t i = 0; i < n; i++) {
            check(all_poisoned(btag[i], 16), kernel, "auth_batch: tag not poisoned", blens[i]);
            PUBLIC(btag[i], 16);
            check(rc == 0 && memcmp(btag[i], bref[i], 16) == 0, kernel, "auth_batch",
                  blens[i]);
            /* every other expected tag wrong, all secret */
            memcpy(bwant[i], bref[i], 16);
            bwant[i][i % 16] ^= (uint8_t)((i & 1) << (i % 8));
            SECRET(bwant[i], 16);
        }
        rc = polymac_verify_batch(want, msgs, blens, keys, n, results);
        PUBLIC(&rc, sizeof rc);
        PUBLIC(results, sizeof results[0] * n);
        check(rc == (n > 1 ? POLYMAC_EBADTAG : 0), kernel, "verify_batch", n);
        for (size_t i = 0; i < n; i++) {
            check(results[i] == ((i & 1) ? POLYMAC_EBADTAG : 0), kernel,
                  "verify_batch: results[i]", blens[i]);
            PUBLIC(bwant[i], 16);
            PUBLIC(bkey[i], 32);
            PUBLIC((const uint8_t *)msgs[i], blens[i]);
        }
    }
}

static int planted(const char *which)
{
    uint8_t key[32], msg[100], tag[16], want[16];
    fill(key, 32);
    fill(msg, sizeof msg);
    fill(want, sizeof want);
    SECRET(key, 32);
    SECRET(msg, sizeof msg);
    SECRET(want, 16);
    if (polymac_auth(tag, msg, sizeof msg, key) != 0)
        return 1;
    int rc;
    if (strcmp(which, "--planted-compare") == 0)
        rc = leaky_compare(tag, want);
    else if (strcmp(which, "--planted-index") == 0)
        rc = (int)(leaky_lookup(tag) & 1);
    else
        return 2;
    PUBLIC(&rc, sizeof rc);
    printf("planted leak ran (%d); MemorySanitizer should have reported it\n", rc);
    return 0;
}

/* RFC 8439 section 2.5.2 */
static int known_answer(void)
{
    uint8_t tag[16];
    return polymac_backend_select("generic-r26") == 0
           && polymac_auth(tag, rfc8439_text, sizeof rfc8439_text - 1, rfc8439_key) == 0
           && memcmp(tag, rfc8439_tag, 16) == 0;
}

int main(int argc, char **argv)
{
    const char *names[32];
    size_t n = 0;
    const char *plant = NULL;
    if (!HAVE_MSAN) {
        fprintf(stderr, "test_msan: build me with -fsanitize=memory\n");
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--planted-", 10) == 0)
            plant = argv[i];
        else if (n < 32)
            names[n++] = argv[i];
    }
    if (!known_answer()) {
        fprintf(stderr, "FAIL: generic-r26 does not give RFC 8439's tag\n");
        return 1;
    }
    if (n == 0)
        n = polymac_backend_list(names, 32);
    int skipped = 0;
    for (size_t i = 0; i < n && i < 32; i++) {
        int rc = polymac_backend_select(names[i]);
        if (rc == POLYMAC_EBACKEND || rc == POLYMAC_EUNSUPPORTED) {
            printf("SKIP: kernel %s %s\n", names[i],
                   rc == POLYMAC_EBACKEND ? "is not built in" : "cannot run on this CPU");
            skipped++;
            continue;
        }
        if (rc != 0 || strcmp(polymac_backend_name(), names[i]) != 0) {
            fprintf(stderr, "could not select %s\n", names[i]);
            return 1;
        }
        if (plant)
            return planted(plant);
        int before = failures;
        verdict_clean = 0;
        min_bits = 128;
        run_kernel(names[i]);
        run_batch(names[i]);
        printf("kernel %s: %zu lengths x 2 inputs x (auth, auth with s public, 3 streamed, "
               "2 verify, 2 final_verify), 8 batches: %s; tag bits poisoned with s public: at least "
               "%u of 128; verdicts MSan saw as public: %u of %zu\n",
               names[i], NLENS, failures > before ? "FAILED" : "clean", min_bits,
               verdict_clean, 2 * 2 * NLENS);
    }
    if (failures)
        return 1;
    return skipped == (int)n ? 77 : 0;
}
