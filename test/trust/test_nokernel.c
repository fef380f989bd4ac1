/* test_nokernel.c -- when every kernel fails its self-test, the MAC calls
 *                    return POLYMAC_ENOKERNEL and nothing is published */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/* Linked with a test-only copy of the library built with
 * -DPOLYMAC_SELFTEST_FAIL_ALL (test/trust/meson.build), whose self-test
 * finds every known answer wrong, as in a miscompiled build.  The library
 * must then compute no tag at all rather than one from a kernel known to
 * be wrong: auth, verify and init return POLYMAC_ENOKERNEL, the backend is
 * "none", the list is empty, and no kernel can be selected. */
#include "../common.h"
#include "spawn.h"

static const uint8_t unset[16] = {0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5,
                                  0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5};

static void message(uint8_t *msg, size_t len, uint8_t key[32])
{
    uint64_t seed = 0xe0c0de;
    test_fill(key, 32, &seed);
    test_fill(msg, len, &seed);
}

START_TEST(mac_calls_fail)
{
    static uint8_t msg[3000];
    uint8_t key[32], tag[16], ref[16];
    static const size_t lens[] = {0, 1, 16, 64, 300, 2061, 3000};
    message(msg, sizeof msg, key);
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        memcpy(tag, unset, 16);
        ck_assert_int_eq(polymac_auth(tag, msg, lens[i], key), POLYMAC_ENOKERNEL);
        ck_assert_mem_eq(tag, unset, 16);                   /* no tag written */
        /* the right tag is not accepted either */
        oracle(ref, msg, lens[i], key);
        ck_assert_int_eq(polymac_verify(ref, msg, lens[i], key), POLYMAC_ENOKERNEL);
    }
    /* argument errors keep their own code */
    ck_assert_int_eq(polymac_auth(NULL, msg, 16, key), POLYMAC_EINVAL);
}
END_TEST

START_TEST(streaming_fails)
{
    polymac_state st;
    uint8_t msg[64], key[32], tag[16];
    message(msg, sizeof msg, key);
    memset(&st, 0, sizeof st);
    ck_assert_int_eq(polymac_init(&st, key), POLYMAC_ENOKERNEL);
    /* the state was not begun: every later call refuses it */
    ck_assert_int_eq(polymac_update(&st, msg, sizeof msg), POLYMAC_ESTATE);
    memcpy(tag, unset, 16);
    ck_assert_int_eq(polymac_final(&st, tag), POLYMAC_ESTATE);
    ck_assert_mem_eq(tag, unset, 16);
    ck_assert_int_eq(polymac_final_verify(&st, tag), POLYMAC_ESTATE);
}
END_TEST

START_TEST(nothing_published)
{
    const char *names[32];
    ck_assert_str_eq(polymac_backend_name(), "none");
    ck_assert_uint_eq(polymac_backend_list(names, 32), 0);
    ck_assert_uint_eq(polymac_backend_list(NULL, 0), 0);
    ck_assert_int_eq(polymac_backend_select(NULL), POLYMAC_ENOKERNEL);
    ck_assert_int_eq(polymac_backend_select("auto"), POLYMAC_ENOKERNEL);
    /* generic kernels need no CPU feature: refused by the self-test */
    ck_assert_int_eq(polymac_backend_select("generic-r26"), POLYMAC_EUNSUPPORTED);
    ck_assert_int_eq(polymac_backend_select("generic-r26x2"), POLYMAC_EUNSUPPORTED);
    ck_assert_int_eq(polymac_backend_select("no-such-kernel"), POLYMAC_EBACKEND);
    ck_assert_str_eq(polymac_backend_name(), "none");
    uint8_t key[32] = {1}, tag[16];
    ck_assert_int_eq(polymac_auth(tag, key, 1, key), POLYMAC_ENOKERNEL);
}
END_TEST

static char out[4096], err[8192];

/* A fresh process says why, only with POLYMAC_DEBUG=1, and an override
 * does not bring a kernel back. */
START_TEST(fresh_process)
{
    if (!can_reexec()) {
        printf("SKIP: fresh_process: this program cannot run itself again here\n");
        return;
    }
    int rc = run_self("--child", NULL, "1", out, sizeof out, err, sizeof err);
    printf("child stdout: %s\nchild stderr: %s", out, err);
    ck_assert_int_eq(rc, 0);
    ck_assert_ptr_nonnull(strstr(out, "backend none, 0 listed, auth -6"));
    ck_assert_ptr_nonnull(strstr(err, "polymac: kernel generic-r26 failed its self-test; skipped"));
    ck_assert_ptr_nonnull(strstr(err, "polymac: no kernel passed its self-test; MAC calls fail"));
    ck_assert_ptr_null(strstr(err, "active kernel"));

    rc = run_self("--child", "generic-r26", "1", out, sizeof out, err, sizeof err);
    printf("child stdout: %s\nchild stderr: %s", out, err);
    ck_assert_int_eq(rc, 0);
    ck_assert_ptr_nonnull(strstr(out, "backend none, 0 listed, auth -6"));
    ck_assert_ptr_nonnull(strstr(err, "POLYMAC_BACKEND=generic-r26 ignored: it failed its self-test"));

    rc = run_self("--child", NULL, NULL, out, sizeof out, err, sizeof err);
    ck_assert_int_eq(rc, 0);
    ck_assert_ptr_nonnull(strstr(out, "backend none, 0 listed, auth -6"));
    ck_assert_msg(err[0] == 0, "stderr not empty without POLYMAC_DEBUG: %s", err);
}
END_TEST

static int child(void)
{
    uint8_t key[32] = {0}, tag[16];
    int rc = polymac_auth(tag, key, sizeof key, key);
    printf("backend %s, %zu listed, auth %d\n", polymac_backend_name(),
           polymac_backend_list(NULL, 0), rc);
    return 0;
}

int main(int argc, char **argv)
{
    int rc = run_as_child(argc, argv, child);
    if (rc >= 0)
        return rc;
    if (sodium_init() < 0)
        return 1;
    Suite *s = suite_create("nokernel");
    TCase *tc = tcase_create("nokernel");
    tcase_add_test(tc, mac_calls_fail);
    tcase_add_test(tc, streaming_fails);
    tcase_add_test(tc, nothing_published);
    tcase_add_test(tc, fresh_process);
    suite_add_tcase(s, tc);
    return test_run(s);
}
