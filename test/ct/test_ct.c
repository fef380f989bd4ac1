/* test_ct.c -- constant-time check under valgrind memcheck: key, message
 *              and expected tag are secret (undefined to memcheck) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/* Memcheck reports a conditional jump or a memory address that depends on
 * undefined bytes.  Marking the secrets undefined (the technique of
 * Adam Langley's ctgrind) turns every secret-dependent branch or table
 * index into such a report; only the verify result is declassified, and
 * the computed tag, to check that it is right.
 *
 *   valgrind --error-exitcode=99 test_ct KERNEL        one kernel: auth,
 *       streaming (several splits), verify and final_verify, right and
 *       wrong tags, every length class of the kernel's paths; the AEAD
 *       tag's verify, one-shot and streamed
 *   valgrind --error-exitcode=99 test_ct KERNEL --planted-compare
 *   valgrind --error-exitcode=99 test_ct KERNEL --planted-index
 *       tests of the test: an early-exit tag compare and a secret-indexed
 *       table lookup, which memcheck must report (exit 99)
 *
 * Exit 0 clean, 1 wrong result, 2 usage or not under valgrind, 77 kernel
 * not built in or not runnable here.  Run it with POLYMAC_BACKEND=KERNEL
 * in the environment: the library's load-time self-test then runs that
 * kernel only, and never one valgrind cannot execute (AVX-512). */
#include <sodium.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/memcheck.h>

#include "polymac.h"
#include "../rand.h"
#include "planted.h"

#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

static uint64_t seed = 0xc7c7c7c7u;

static void fill(uint8_t *p, size_t n) { test_fill(p, n, &seed); }

static int failures;

static void check(int ok, const char *what, size_t len)
{
    if (!ok) {
        fprintf(stderr, "FAIL: %s (length %zu)\n", what, len);
        failures++;
    }
}

/* Lengths that reach every path of every kernel: empty, partial blocks,
 * below and above the SIMD break-even points (4, 8, 16 blocks), the vector
 * loops with tails of each size. */
static const size_t lens[] = {0, 1, 15, 16, 17, 33, 63, 64, 65, 127, 128, 129, 255, 256,
                              257, 300, 511, 512, 527, 1024, 1031, 2061, 4096 + 13};
#define NLENS (sizeof lens / sizeof *lens)
#define MAXLEN (4096 + 13)

static uint8_t area[MAXLEN + 64];

/* libsodium's Poly1305 of RFC 8439's AEAD layout: the AEAD tag's reference. */
static void aead_ref(uint8_t tag[16], const uint8_t *aad, size_t alen, const uint8_t *ct,
                     size_t clen, const uint8_t key[32])
{
    static uint8_t padded[MAXLEN + 48];
    size_t pa = (alen + 15) / 16 * 16, pc = (clen + 15) / 16 * 16;
    memset(padded, 0, sizeof padded);
    memcpy(padded, aad, alen);
    memcpy(padded + pa, ct, clen);
    for (int b = 0; b < 8; b++) {
        padded[pa + pc + b] = (uint8_t)((uint64_t)alen >> (8 * b));
        padded[pa + pc + 8 + b] = (uint8_t)((uint64_t)clen >> (8 * b));
    }
    crypto_onetimeauth_poly1305(tag, padded, pa + pc + 16, key);
}

/* The AEAD verify calls, AAD the first alen bytes of msg and the
 * ciphertext the rest; key, message and expected tag secret. */
static void run_aead(const uint8_t *msg, size_t len, size_t alen, const uint8_t *key,
                     const uint8_t aref[16])
{
    uint8_t want[16];
    polymac_aead_state st;
    memcpy(want, aref, 16);
    SECRET(want, 16);
    int rc = polymac_aead_verify(want, msg, alen, msg + alen, len - alen, key);
    PUBLIC(&rc, sizeof rc);
    check(rc == 0, "aead_verify of the right tag", len);
    rc = polymac_aead_init(&st, key);
    rc |= polymac_aead_update_aad(&st, msg, alen);
    rc |= polymac_aead_update_ct(&st, msg + alen, (len - alen) / 2);
    rc |= polymac_aead_update_ct(&st, msg + alen + (len - alen) / 2, len - alen - (len - alen) / 2);
    int v = polymac_aead_final_verify(&st, want);
    PUBLIC(&v, sizeof v);
    check(rc == 0 && v == 0, "aead_final_verify of the right tag", len);
    PUBLIC(want, 16);
    want[len % 16] ^= (uint8_t)(1u << (len % 8));
    SECRET(want, 16);
    rc = polymac_aead_verify(want, msg, alen, msg + alen, len - alen, key);
    PUBLIC(&rc, sizeof rc);
    check(rc == POLYMAC_EBADTAG, "aead_verify of a wrong tag", len);
}

static void run_kernel(void)
{
    uint8_t key[32], ref[16], tag[16], want[16];
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
            crypto_onetimeauth_poly1305(ref, msg, len, key);
            uint8_t aref[16];
            const size_t alen = len % 21 < len ? len % 21 : len;
            aead_ref(aref, msg, alen, msg + alen, len - alen, key);

            SECRET(key, 32);
            SECRET(msg, len);

            /* one-shot */
            int rc = polymac_auth(tag, msg, len, key);
            PUBLIC(tag, 16);
            check(rc == 0 && memcmp(tag, ref, 16) == 0, "auth", len);

            /* streaming, split at public points */
            size_t cuts[3] = {len / 3, len / 3 + (len > 40 ? 17 : 0), len};
            for (int s = 0; s < 2; s++) {
                polymac_state st;
                size_t at = 0;
                rc = polymac_init(&st, key);
                for (int c = 0; c < 3; c++) {
                    size_t to = s ? (c < 2 ? (cuts[c] & ~(size_t)15) : len) : cuts[c];
                    if (to < at)
                        to = at;
                    rc |= polymac_update(&st, msg + at, to - at);
                    at = to;
                }
                rc |= polymac_final(&st, tag);
                PUBLIC(tag, 16);
                check(rc == 0 && memcmp(tag, ref, 16) == 0, "streaming", len);
            }

            /* verify: the expected tag is secret, the verdict public */
            memcpy(want, ref, 16);
            SECRET(want, 16);
            rc = polymac_verify(want, msg, len, key);
            PUBLIC(&rc, sizeof rc);
            check(rc == 0, "verify of the right tag", len);
            PUBLIC(want, 16);
            want[len % 16] ^= (uint8_t)(1u << (len % 8));
            SECRET(want, 16);
            rc = polymac_verify(want, msg, len, key);
            PUBLIC(&rc, sizeof rc);
            check(rc == POLYMAC_EBADTAG, "verify of a wrong tag", len);

            polymac_state st;
            rc = polymac_init(&st, key);
            rc |= polymac_update(&st, msg, len);
            int v = polymac_final_verify(&st, want);
            PUBLIC(&v, sizeof v);
            check(rc == 0 && v == POLYMAC_EBADTAG, "final_verify of a wrong tag", len);
            memcpy(want, ref, 16);
            SECRET(want, 16);
            rc = polymac_init(&st, key);
            rc |= polymac_update(&st, msg, len);
            v = polymac_final_verify(&st, want);
            PUBLIC(&v, sizeof v);
            check(rc == 0 && v == 0, "final_verify of the right tag", len);

            run_aead(msg, len, alen, key, aref);

            PUBLIC(key, 32);
            PUBLIC(msg, len);
        }
    }
}

static int planted(const char *which)
{
    uint8_t key[32], msg[100], tag[16], want[16];
    fill(key, 32);
    fill(msg, sizeof msg);
    crypto_onetimeauth_poly1305(want, msg, sizeof msg, key);
    SECRET(key, 32);
    SECRET(msg, sizeof msg);
    SECRET(want, 16);
    if (polymac_auth(tag, msg, sizeof msg, key) != 0)
        return 1;
    int rc;
    if (strcmp(which, "--planted-compare") == 0)
        rc = leaky_compare(tag, want);
    else
        rc = (int)(leaky_lookup(tag) & 1);
    PUBLIC(&rc, sizeof rc);
    printf("planted leak ran (%d); memcheck should have reported it\n", rc);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_ct KERNEL [--planted-compare|--planted-index]\n");
        return 2;
    }
    if (!RUNNING_ON_VALGRIND) {
        fprintf(stderr, "test_ct: run me under valgrind (memcheck)\n");
        return 2;
    }
    if (sodium_init() < 0)
        return 1;
    /* no polymac_backend_list: it would self-test every kernel, and
     * valgrind cannot execute AVX-512 */
    int rc = polymac_backend_select(argv[1]);
    if (rc == POLYMAC_EBACKEND || rc == POLYMAC_EUNSUPPORTED) {
        printf("SKIP: kernel %s %s\n", argv[1],
               rc == POLYMAC_EBACKEND ? "is not built in" : "cannot run here (under valgrind)");
        return 77;
    }
    if (rc != 0 || strcmp(polymac_backend_name(), argv[1]) != 0) {
        fprintf(stderr, "could not select %s\n", argv[1]);
        return 1;
    }
    if (argc > 2)
        return planted(argv[2]);
    run_kernel();
    printf("kernel %s: %zu lengths x 2 inputs x (auth, 2 streamed, 2 verify, 2 final_verify, "
           "2 aead_verify, aead_final_verify)%s\n",
           argv[1], NLENS, failures ? ": FAILED" : "");
    return failures ? 1 : 0;
}
