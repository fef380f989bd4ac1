/* test_selftest.c -- the dispatcher's load-time self-test skips kernels
 *                    that are wrong on their vector path, on a partial
 *                    group, or on a stream's live lanes (test builds only) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/* Built only with -Dtest_kernels=true, where the registry starts with
 * three broken kernels, none with a CPU requirement:
 *   - "test-broken" (test/kernels/broken.c): right tags below 8
 *     blocks per call, a dropped block from 8 on;
 *   - "test-broken-tail" (test/kernels/broken.c): wrong only
 *     when a call leaves a partial group of four after full groups;
 *   - "test-broken-stream" (test/kernels/broken.c): wrong
 *     only when a call of whole groups continues live lanes, which no
 *     one-shot message does.
 * The last two pass the self-test the library had before (64 and 2061
 * bytes, one-shot): the tests below show it, and that the self-test now
 * refuses them.  Linked with the internal archive to reach the kernels
 * and the front end's streaming functions directly. */
#include "../common.h"
#include "spawn.h"
#include "dispatch.h"
#include "core.h"
#include "selftest_kat.h"

#ifndef POLYMAC_TEST_KERNELS
#error "test_selftest needs a build with -Dtest_kernels=true"
#endif

static const char *const broken_names[] = {
    "test-broken", "test-broken-tail", "test-broken-stream",
};
#define NBROKEN (sizeof broken_names / sizeof broken_names[0])

/* The registry's kernel of that name (the test kernels need no CPU
 * feature, so polymac_kernel_at finds them). */
static const struct polymac_kernel *kernel_named(const char *name)
{
    for (unsigned i = 0; i < 32; i++) {
        const struct polymac_kernel *k = polymac_kernel_at(i);
        if (k && strcmp(k->name, name) == 0)
            return k;
    }
    ck_abort_msg("kernel %s is not in the registry", name);
    return NULL;
}

static const struct polymac_kernel *broken(void)
{
    const struct polymac_kernel *k = polymac_kernel_at(0);
    ck_assert_ptr_nonnull(k);
    ck_assert_str_eq(k->name, "test-broken");
    return k;
}

/* One-shot tag through kernel k, as the self-test computes it. */
static void oneshot_with(const struct polymac_kernel *k, uint8_t tag[16],
                         const uint8_t *msg, size_t len, const uint8_t key[32])
{
    polymac_auth_nocheck(k, tag, msg, len, key);
}

/* Streamed tag through kernel k and the front end, in the given pieces
 * (0 ends the list). */
static void stream_with(const struct polymac_kernel *k, uint8_t tag[16], const uint8_t *msg,
                        const size_t *pieces, const uint8_t key[32])
{
    polymac_state st;
    size_t off = 0;
    polymac_init_nocheck(k, &st, key);
    for (; *pieces; pieces++) {
        ck_assert_int_eq(polymac_update_nocheck(&st, msg + off, *pieces), 0);
        off += *pieces;
    }
    ck_assert_int_eq(polymac_final_nocheck(&st, tag), 0);
}

/* One-shot through k with a key and a message of len bytes drawn from
 * seed: whether the tag is the oracle's. */
static int oneshot_right(const struct polymac_kernel *k, uint8_t *msg, size_t len,
                         uint64_t *seed)
{
    uint8_t key[32], tag[16], ref[16];
    test_fill(key, 32, seed);
    test_fill(msg, len, seed);
    oracle(ref, msg, len, key);
    oneshot_with(k, tag, msg, len, key);
    return memcmp(tag, ref, 16) == 0;
}

/* Streamed through k: the calls of good (lengths, 0-terminated) give the
 * oracle's tag, those of bad do not; msg holds both, key and message drawn
 * from seed. */
static void check_streams(const struct polymac_kernel *k, uint8_t *msg, const size_t *good,
                          const size_t *bad, uint64_t *seed, const char *bad_says)
{
    uint8_t key[32], tag[16], ref[16];
    size_t good_len = 0, bad_len = 0;
    for (const size_t *p = good; *p; p++)
        good_len += *p;
    for (const size_t *p = bad; *p; p++)
        bad_len += *p;
    ck_assert_uint_le(bad_len, good_len);
    test_fill(key, 32, seed);
    test_fill(msg, good_len, seed);
    oracle(ref, msg, good_len, key);
    stream_with(k, tag, msg, good, key);
    ck_assert_tag_eq(tag, ref);
    oracle(ref, msg, bad_len, key);
    stream_with(k, tag, msg, bad, key);
    ck_assert_msg(memcmp(tag, ref, 16) != 0, "%s", bad_says);
}

/* The self-test as it was: 64 and 2061 bytes of 0xff under an all-0xff
 * key, one-shot, against libsodium.  Returns whether k passes it. */
static int old_selftest_passes(const struct polymac_kernel *k)
{
    static uint8_t msg[2061];
    uint8_t key[32], tag[16], ref[16];
    static const size_t lens[2] = {64, 2061};
    int ok = 1;
    memset(msg, 0xff, sizeof msg);
    memset(key, 0xff, sizeof key);
    for (int i = 0; i < 2; i++) {
        oracle(ref, msg, lens[i], key);
        oneshot_with(k, tag, msg, lens[i], key);
        ok &= memcmp(tag, ref, 16) == 0;
    }
    return ok;
}

/* The self-test as it is now (selftest_kat.h, whose answers test_kat
 * checks against libsodium): which parts k fails, as a bit mask (bit i:
 * one-shot i, bit 8 + i: stream i). */
static unsigned new_selftest_failures(const struct polymac_kernel *k)
{
    static uint8_t msg[POLYMAC_KAT_MSG_MAX];
    uint8_t key[32], tag[16];
    unsigned fails = 0;
    memset(msg, 0xff, sizeof msg);
    memset(key, 0xff, sizeof key);
    for (unsigned i = 0; i < POLYMAC_KAT_ONESHOTS; i++) {
        oneshot_with(k, tag, msg, polymac_kat_oneshot_len[i], key);
        if (memcmp(tag, polymac_kat_oneshot_tag[i], 16) != 0)
            fails |= 1u << i;
    }
    for (unsigned i = 0; i < POLYMAC_KAT_STREAMS; i++) {
        size_t pieces[POLYMAC_KAT_PIECES_MAX + 1] = {0};
        for (unsigned j = 0; j < POLYMAC_KAT_PIECES_MAX; j++)
            pieces[j] = polymac_kat_stream[i].pieces[j];
        polymac_kat_fill(key, sizeof key, polymac_kat_stream[i].key_seed);
        polymac_kat_fill(msg, polymac_kat_stream_len(i), polymac_kat_stream[i].msg_seed);
        stream_with(k, tag, msg, pieces, key);
        if (memcmp(tag, polymac_kat_stream_tag[i], 16) != 0)
            fails |= 1u << (8 + i);
    }
    return fails;
}

/* The planted fault is subtle: right on the scalar path, so the self-test
 * must run the vector path to notice. */
START_TEST(broken_kernel_is_subtle)
{
    const struct polymac_kernel *k = broken();
    static uint8_t msg[2061];
    uint8_t key[32], tag[16], ref[16];
    uint64_t seed = 0x5e1f7e57u;
    for (size_t len = 0; len < 8 * 16; len++) {
        test_fill(key, 32, &seed);
        test_fill(msg, len, &seed);
        oracle(ref, msg, len, key);
        oneshot_with(k, tag, msg, len, key);
        ck_assert_msg(memcmp(tag, ref, 16) == 0, "short length %zu should be right", len);
    }
    for (size_t len = 8 * 16; len <= sizeof msg; len += 61) {
        test_fill(key, 32, &seed);
        test_fill(msg, len, &seed);
        oracle(ref, msg, len, key);
        oneshot_with(k, tag, msg, len, key);
        ck_assert_msg(memcmp(tag, ref, 16) != 0, "length %zu should be wrong", len);
    }
}
END_TEST

/* test-broken-tail: wrong exactly when a call's block count leaves a
 * partial group of four after full groups, one-shot or streamed. */
START_TEST(tail_kernel_is_subtle)
{
    const struct polymac_kernel *k = kernel_named("test-broken-tail");
    static uint8_t msg[2400];
    uint64_t seed = 0x7a11u;
    ck_assert_uint_eq(k->cpu_required, 0);
    for (size_t len = 0; len <= sizeof msg; len++) {
        size_t blocks = len / 16;
        int right = oneshot_right(k, msg, len, &seed);
        if (blocks > 4 && blocks % 4 != 0)
            ck_assert_msg(!right, "length %zu should be wrong", len);
        else
            ck_assert_msg(right, "length %zu should be right", len);
    }
    /* streamed: right while every call is whole groups or under one group */
    static const size_t good[] = {64, 48, 32, 128, 256, 5, 0};
    static const size_t bad[] = {64, 80, 0};       /* a call of 5 blocks */
    check_streams(k, msg, good, bad, &seed, "a call of 5 blocks should be wrong");
}
END_TEST

/* test-broken-stream: every one-shot tag right; a stream is wrong exactly
 * when a call of whole groups follows another. */
START_TEST(stream_kernel_is_subtle)
{
    const struct polymac_kernel *k = kernel_named("test-broken-stream");
    static uint8_t msg[2400];
    uint64_t seed = 0x57ea3u;
    ck_assert_uint_eq(k->cpu_required, 0);
    for (size_t len = 0; len <= sizeof msg; len++)
        ck_assert_msg(oneshot_right(k, msg, len, &seed), "one-shot length %zu should be right",
                      len);
    /* whole groups, then two blocks, then whole groups: the lanes were
     * merged (16 bytes would wait in the front end's buffer and go with
     * the next piece's first block) */
    static const size_t good[] = {64, 32, 128, 48, 64, 5, 0};
    /* whole groups twice in a row (4 then 8 blocks) */
    static const size_t bad[] = {64, 128, 5, 0};
    check_streams(k, msg, good, bad, &seed, "continued lanes should be wrong");
}
END_TEST

/* The self-test before this one (64 and 2061 bytes, one-shot) passed both
 * new broken kernels, so it could not have refused them; the one in
 * lib/dispatch.c fails each on the parts that reach its fault, and passes
 * every real kernel this CPU runs. */
START_TEST(old_selftest_misses_new_catches)
{
    const struct polymac_kernel *tail = kernel_named("test-broken-tail");
    const struct polymac_kernel *stream = kernel_named("test-broken-stream");
    ck_assert(old_selftest_passes(tail));
    ck_assert(old_selftest_passes(stream));
    ck_assert(!old_selftest_passes(broken()));
    /* the tail kernel: 597 and 2269 bytes, and both streams (calls of 5,
     * 7, 9, 11, 15 blocks); the stream kernel: stream 0 only (calls of 16
     * then 8 blocks), no one-shot */
    ck_assert_uint_eq(new_selftest_failures(tail), (1u << 2) | (1u << 3) | (1u << 8) | (1u << 9));
    ck_assert_uint_eq(new_selftest_failures(stream), 1u << 8);
    ck_assert_uint_ne(new_selftest_failures(broken()), 0);

    const char *names[32];
    size_t n = polymac_backend_list(names, 32);
    ck_assert_uint_ge(n, 1);
    for (size_t i = 0; i < n && i < 32; i++)
        ck_assert_msg(new_selftest_failures(kernel_named(names[i])) == 0,
                      "usable kernel %s fails the known answers", names[i]);
}
END_TEST

/* In-process: never chosen, never listed, never selectable by name. */
START_TEST(never_published)
{
    const char *names[32];
    size_t n = polymac_backend_list(names, 32);
    ck_assert_uint_ge(n, 1);
    for (size_t b = 0; b < NBROKEN; b++) {
        ck_assert_str_ne(polymac_backend_name(), broken_names[b]);
        for (size_t i = 0; i < n && i < 32; i++)
            ck_assert_str_ne(names[i], broken_names[b]);
    }
    ck_assert_str_eq(polymac_backend_name(), names[0]);

    ck_assert_int_eq(polymac_backend_select("generic-r26"), 0);
    for (size_t b = 0; b < NBROKEN; b++) {
        /* built in and needing no CPU feature: refused by the self-test */
        ck_assert_uint_eq(kernel_named(broken_names[b])->cpu_required, 0);
        ck_assert_int_eq(polymac_backend_select(broken_names[b]), POLYMAC_EUNSUPPORTED);
    }
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
    for (size_t b = 0; b < NBROKEN; b++) {
        char line[128];
        snprintf(line, sizeof line, "polymac: kernel %s failed its self-test; skipped\n",
                 broken_names[b]);
        ck_assert_ptr_nonnull(strstr(err, line));
    }
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

/* Asking for a broken kernel by name does not get it either. */
START_TEST(override_cannot_force_it)
{
    if (!can_reexec())
        return;
    for (size_t b = 0; b < NBROKEN; b++) {
        char want[128];
        int rc = run_self("--child", broken_names[b], "1", out, sizeof out, err, sizeof err);
        printf("child stdout: %s\nchild stderr: %s", out, err);
        ck_assert_int_eq(rc, 0);
        snprintf(want, sizeof want, "kernel %s failed its self-test; skipped\n", broken_names[b]);
        ck_assert_ptr_nonnull(strstr(err, want));
        snprintf(want, sizeof want, "POLYMAC_BACKEND=%s ignored: it failed its self-test",
                 broken_names[b]);
        ck_assert_ptr_nonnull(strstr(err, want));
        ck_assert_ptr_null(strstr(out, "test-broken"));
        ck_assert_ptr_nonnull(strstr(out, "auto"));      /* child: active == best */
    }
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
    int rc = run_as_child(argc, argv, child);
    if (rc >= 0)
        return rc;
    if (sodium_init() < 0)
        return 1;
    Suite *s = suite_create("selftest");
    TCase *tc = tcase_create("selftest");
    tcase_add_test(tc, broken_kernel_is_subtle);
    tcase_add_test(tc, tail_kernel_is_subtle);
    tcase_add_test(tc, stream_kernel_is_subtle);
    tcase_add_test(tc, old_selftest_misses_new_catches);
    tcase_add_test(tc, never_published);
    tcase_add_test(tc, debug_says_skipped);
    tcase_add_test(tc, silent_without_debug);
    tcase_add_test(tc, override_cannot_force_it);
    suite_add_tcase(s, tc);
    return test_run(s);
}
