/* common.h -- helpers shared by the Check suites: kernel choice from the
 *             command line, the libsodium oracle, a seeded PRNG */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_TEST_COMMON_H
#define POLYMAC_TEST_COMMON_H

#include <check.h>
#include <sodium.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polymac.h"
#include "rand.h"

/* meson treats exit code 77 as "skipped" */
#define TEST_SKIP 77

static inline void oracle(uint8_t tag[16], const uint8_t *m, size_t len, const uint8_t key[32])
{
    ck_assert_int_eq(crypto_onetimeauth_poly1305(tag, m, len, key), 0);
}

/* The oracle for messages over 4 GiB: libsodium's streaming API fed 1 GiB
 * at a time, so no single length passed to it exceeds 32 bits. */
static inline void oracle_long(uint8_t tag[16], const uint8_t *m, size_t len,
                               const uint8_t key[32])
{
    crypto_onetimeauth_poly1305_state os;
    crypto_onetimeauth_poly1305_init(&os, key);
    for (size_t off = 0; off < len; off += (size_t)1 << 30) {
        size_t n = len - off < ((size_t)1 << 30) ? len - off : ((size_t)1 << 30);
        crypto_onetimeauth_poly1305_update(&os, m + off, n);
    }
    crypto_onetimeauth_poly1305_final(&os, tag);
}

#define ck_assert_tag_eq(a, b) ck_assert_mem_eq((a), (b), 16)

/* The kernel under test, from argv[1]; "auto" means automatic choice.
 * Returns 0 when selected, exits TEST_SKIP when the CPU lacks it, and
 * exits 1 when the name is not built in (a build/test mismatch). */
static inline const char *test_select_kernel(int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : "auto";
    if (sodium_init() < 0) {
        fprintf(stderr, "libsodium failed to initialise\n");
        exit(1);
    }
    int rc = polymac_backend_select(name);
    if (rc == POLYMAC_EUNSUPPORTED) {
        printf("SKIP: kernel %s is built in but this CPU cannot run it\n", name);
        exit(TEST_SKIP);
    }
    if (rc != 0) {
        fprintf(stderr, "kernel %s is not built in (rc %d)\n", name, rc);
        exit(1);
    }
    printf("testing kernel %s\n", polymac_backend_name());
    return name;
}

/* Runs suite s and returns the process exit code. */
static inline int test_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}

/* Tests whose inputs are big (4 GiB, 1 MiB x many) are skipped in quick
 * runs such as those under qemu or valgrind. */
static inline int test_quick(void)
{
    const char *q = getenv("POLYMAC_TEST_QUICK");
    return q && *q && strcmp(q, "0") != 0;
}

#endif
