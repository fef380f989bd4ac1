/* test_selftest.c -- the dispatcher's load-time self-test skips a kernel
 *                    that is wrong on its vector path (test builds only) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/* Built only with -Dtest_kernels=true, where the registry starts with
 * "test-broken" (lib/poly1305_test_broken.c): no CPU requirement, right
 * tags below 8 blocks per call, a dropped block from 8 on.  Linked with
 * the internal archive to reach that kernel directly. */
#include "common.h"
#include "trust/spawn.h"
#include "dispatch.h"

#ifndef POLYMAC_TEST_KERNELS
#error "test_selftest needs a build with -Dtest_kernels=true"
#endif

static const struct polymac_kernel *broken(void)
{
    const struct polymac_kernel *k = polymac_kernel_at(0);
    ck_assert_ptr_nonnull(k);
    ck_assert_str_eq(k->name, "test-broken");
    return k;
}

/* The planted fault is subtle: right on the scalar path, so the self-test
 * must run the vector path to notice. */
START_TEST(broken_kernel_is_subtle)
{
    const struct polymac_kernel *k = broken();
    _Alignas(POLYMAC_KS_ALIGN) unsigned char ks[POLYMAC_KS_BYTES];
    static uint8_t msg[2061];
    uint8_t key[32], tag[16], ref[16];
    uint64_t seed = 0x5e1f7e57u;
    for (size_t len = 0; len < 8 * 16; len++) {
        test_fill(key, 32, &seed);
        test_fill(msg, len, &seed);
        oracle(ref, msg, len, key);
        polymac_auth_with(k, ks, tag, msg, len, key);
        ck_assert_msg(memcmp(tag, ref, 16) == 0, "short length %zu should be right", len);
    }
    for (size_t len = 8 * 16; len <= sizeof msg; len += 61) {
        test_fill(key, 32, &seed);
        test_fill(msg, len, &seed);
        oracle(ref, msg, len, key);
        polymac_auth_with(k, ks, tag, msg, len, key);
        ck_assert_msg(memcmp(tag, ref, 16) != 0, "length %zu should be wrong", len);
    }
}
END_TEST

/* In-process: never chosen, never listed, never selectable by name. */
START_TEST(never_published)
{
    const char *names[32];
    size_t n = polymac_backend_list(names, 32);
    ck_assert_uint_ge(n, 1);
    ck_assert_str_ne(polymac_backend_name(), "test-broken");
    for (size_t i = 0; i < n && i < 32; i++)
        ck_assert_str_ne(names[i], "test-broken");
    ck_assert_str_eq(polymac_backend_name(), names[0]);

    ck_assert_int_eq(polymac_backend_select("generic-r26"), 0);
    ck_assert_int_eq(polymac_backend_select("test-broken"), POLYMAC_EUNSUPPORTED);
    ck_assert_str_eq(polymac_backend_name(), "generic-r26");   /* unchanged */
    ck_assert_int_eq(polymac_backend_select(NULL), 0);
    ck_assert_str_eq(polymac_backend_name(), names[0]);

    /* the published kernel gets long messages right */
    static uint8_t msg[4096 + 13];
    uint8_t key[32], tag[16], ref[16];
    uint64_t seed = 77;
    test_fill(key, 32, &seed);
    test_fill(msg, sizeof msg, &seed);
    oracle(ref, msg, sizeof msg, key);
    ck_assert_int_eq(polymac_auth(tag, msg, sizeof msg, key), 0);
    ck_assert_tag_eq(tag, ref);
}
END_TEST

static char out[4096], err[4096];

/* A fresh process, as a user would start one. */
START_TEST(debug_says_skipped)
{
    if (!can_reexec())
        return;
    int rc = run_self("--child", NULL, "1", out, sizeof out, err, sizeof err);
    printf("child stdout: %s\nchild stderr: %s", out, err);
    ck_assert_int_eq(rc, 0);
    ck_assert_ptr_nonnull(strstr(err, "polymac: kernel test-broken failed its self-test; skipped"));
    ck_assert_ptr_nonnull(strstr(err, "polymac: active kernel "));
    ck_assert_ptr_null(strstr(err, "active kernel test-broken"));
    ck_assert_ptr_null(strstr(out, "test-broken"));
}
END_TEST

START_TEST(silent_without_debug)
{
    if (!can_reexec())
        return;
    int rc = run_self("--child", NULL, NULL, out, sizeof out, err, sizeof err);
    ck_assert_int_eq(rc, 0);
    ck_assert_msg(err[0] == 0, "stderr not empty: %s", err);
    ck_assert_ptr_null(strstr(out, "test-broken"));
    rc = run_self("--child", NULL, "0", out, sizeof out, err, sizeof err);
    ck_assert_int_eq(rc, 0);
    ck_assert_msg(err[0] == 0, "stderr not empty: %s", err);
}
END_TEST

/* Asking for the broken kernel by name does not get it either. */
START_TEST(override_cannot_force_it)
{
    if (!can_reexec())
        return;
    int rc = run_self("--child", "test-broken", "1", out, sizeof out, err, sizeof err);
    printf("child stdout: %s\nchild stderr: %s", out, err);
    ck_assert_int_eq(rc, 0);
    ck_assert_ptr_nonnull(strstr(err, "kernel test-broken failed its self-test; skipped"));
    ck_assert_ptr_nonnull(strstr(err, "POLYMAC_BACKEND=test-broken ignored"));
    ck_assert_ptr_null(strstr(out, "test-broken"));
    ck_assert_ptr_nonnull(strstr(out, "auto"));      /* child: active == best */
}
END_TEST

static int child(void)
{
    const char *names[32];
    size_t n = polymac_backend_list(names, 32);
    const char *active = polymac_backend_name();
    printf("active %s%s\n", active, n && strcmp(active, names[0]) == 0 ? " (auto)" : "");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--child") == 0)
        return child();
    if (argc > 1 && strcmp(argv[1], "--ping") == 0)
        return puts("pong") < 0;
    if (sodium_init() < 0)
        return 1;
    Suite *s = suite_create("selftest");
    TCase *tc = tcase_create("selftest");
    tcase_add_test(tc, broken_kernel_is_subtle);
    tcase_add_test(tc, never_published);
    tcase_add_test(tc, debug_says_skipped);
    tcase_add_test(tc, silent_without_debug);
    tcase_add_test(tc, override_cannot_force_it);
    suite_add_tcase(s, tc);
    return test_run(s);
}
