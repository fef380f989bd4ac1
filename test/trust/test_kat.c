/* test_kat.c -- the self-test's known answers (lib/selftest_kat.h)
 *               recomputed with libsodium */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/* Every tag the dispatcher's self-test compares with must be libsodium's
 * crypto_onetimeauth_poly1305 of the same key and message, so that a
 * reviewer can rerun this and trust that no answer came from our own code.
 * `test_kat --print` prints the tag tables of lib/selftest_kat.h as
 * libsodium computes them (how they were made).  It also checks the
 * block counts per kernel call that the header's comment claims for the
 * streams, by splitting the pieces as the front end's buffer does. */
#include "../common.h"
#include "selftest_kat.h"

/* 0, or -1 when the message does not fit (the tests fail on it) */
static int oneshot_ref(uint8_t tag[16], unsigned i)
{
    static uint8_t msg[POLYMAC_KAT_MSG_MAX];
    uint8_t key[32];
    size_t len = polymac_kat_oneshot_len[i];
    if (len > sizeof msg)
        return -1;
    memset(msg, 0xff, len);
    memset(key, 0xff, sizeof key);
    return crypto_onetimeauth_poly1305(tag, msg, len, key);
}

static int stream_ref(uint8_t tag[16], unsigned i)
{
    static uint8_t msg[POLYMAC_KAT_MSG_MAX];
    uint8_t key[32];
    size_t len = polymac_kat_stream_len(i);
    if (len > sizeof msg)
        return -1;
    polymac_kat_fill(key, sizeof key, polymac_kat_stream[i].key_seed);
    polymac_kat_fill(msg, len, polymac_kat_stream[i].msg_seed);
    /* one call over the whole message: the pieces are ours to test */
    return crypto_onetimeauth_poly1305(tag, msg, len, key);
}

static void print_tag(const uint8_t t[16], const char *label)
{
    printf("    /* %s */\n    {", label);
    for (int j = 0; j < 16; j++)
        printf("0x%02x%s", t[j], j < 15 ? ", " : "},\n");
}

START_TEST(oneshot_answers)
{
    uint8_t ref[16];
    for (unsigned i = 0; i < POLYMAC_KAT_ONESHOTS; i++) {
        ck_assert_int_eq(oneshot_ref(ref, i), 0);
        ck_assert_msg(memcmp(ref, polymac_kat_oneshot_tag[i], 16) == 0,
                      "one-shot %zu bytes: lib/selftest_kat.h differs from libsodium",
                      polymac_kat_oneshot_len[i]);
    }
}
END_TEST

START_TEST(stream_answers)
{
    uint8_t ref[16];
    for (unsigned i = 0; i < POLYMAC_KAT_STREAMS; i++) {
        ck_assert_int_eq(stream_ref(ref, i), 0);
        ck_assert_msg(memcmp(ref, polymac_kat_stream_tag[i], 16) == 0,
                      "stream %u: lib/selftest_kat.h differs from libsodium", i);
    }
}
END_TEST

/* The streams' keys are not all 0xff (the one-shots have that), and every
 * message fits the self-test's buffer. */
START_TEST(stream_inputs)
{
    for (unsigned i = 0; i < POLYMAC_KAT_STREAMS; i++) {
        uint8_t key[32];
        unsigned ff = 0;
        polymac_kat_fill(key, sizeof key, polymac_kat_stream[i].key_seed);
        for (int j = 0; j < 32; j++)
            ff += key[j] == 0xff;
        ck_assert_uint_lt(ff, 4);
        ck_assert_uint_le(polymac_kat_stream_len(i), POLYMAC_KAT_MSG_MAX);
        ck_assert_uint_eq(polymac_kat_stream[i].pieces[POLYMAC_KAT_PIECES_MAX - 1], 0);
    }
}
END_TEST

/* The blocks() calls the front end makes for a stream's pieces: a piece
 * that leaves fewer than 32 bytes buffered goes into the buffer; else the
 * buffer's blocks completed (one, or two when a whole block waits there),
 * then the piece's whole blocks, its rest buffered.  At the end a
 * waiting block, then the padded final block, counted as 0. */
static size_t front_calls(unsigned i, size_t *calls, size_t cap)
{
    size_t n = 0, buf = 0;
    for (unsigned j = 0; j < POLYMAC_KAT_PIECES_MAX && polymac_kat_stream[i].pieces[j]; j++) {
        size_t len = polymac_kat_stream[i].pieces[j];
        if (len < 32 - buf) {
            buf += len;
            continue;
        }
        if (buf) {
            const size_t full = buf < 16 ? 16 : 32;
            len -= full - buf;
            ck_assert_uint_lt(n, cap);
            calls[n++] = full / 16;
        }
        if (len >= 16) {
            ck_assert_uint_lt(n, cap);
            calls[n++] = len / 16;
        }
        buf = len % 16;
    }
    if (buf >= 16) {
        ck_assert_uint_lt(n, cap);
        calls[n++] = 1;
        buf -= 16;
    }
    if (buf) {
        ck_assert_uint_lt(n, cap);
        calls[n++] = 0;
    }
    return n;
}

START_TEST(stream_calls_as_documented)
{
    static const size_t want0[] = {1, 2, 10, 11, 1, 7, 1, 1, 7, 16, 8, 1, 4, 9,
                                   2, 15, 2, 32, 2, 2, 2, 2, 2, 2, 2, 2, 0};
    static const size_t want1[] = {20, 5, 16, 11, 8, 2, 1, 0};
    size_t got[64];
    size_t n = front_calls(0, got, 64);
    ck_assert_uint_eq(n, sizeof want0 / sizeof want0[0]);
    ck_assert_mem_eq(got, want0, sizeof want0);
    n = front_calls(1, got, 64);
    ck_assert_uint_eq(n, sizeof want1 / sizeof want1[0]);
    ck_assert_mem_eq(got, want1, sizeof want1);
}
END_TEST

/* The one-shot lengths other than the first two leave a partial group
 * after full ones for group widths 2, 4, 8 and 16. */
START_TEST(oneshot_partial_groups)
{
    for (unsigned i = 2; i < POLYMAC_KAT_ONESHOTS; i++) {
        size_t blocks = polymac_kat_oneshot_len[i] / 16;
        for (size_t w = 2; w <= 16; w *= 2) {
            ck_assert_uint_ge(blocks, w);
            ck_assert_uint_ne(blocks % w, 0);
        }
    }
}
END_TEST

static int print_tables(void)
{
    uint8_t t[16];
    char label[32];
    puts("static const uint8_t polymac_kat_oneshot_tag[POLYMAC_KAT_ONESHOTS][16] = {");
    for (unsigned i = 0; i < POLYMAC_KAT_ONESHOTS; i++) {
        if (oneshot_ref(t, i))
            return 1;
        snprintf(label, sizeof label, "%zu", polymac_kat_oneshot_len[i]);
        print_tag(t, label);
    }
    puts("};");
    puts("static const uint8_t polymac_kat_stream_tag[POLYMAC_KAT_STREAMS][16] = {");
    for (unsigned i = 0; i < POLYMAC_KAT_STREAMS; i++) {
        if (stream_ref(t, i))
            return 1;
        snprintf(label, sizeof label, "stream %u, %zu bytes", i, polymac_kat_stream_len(i));
        print_tag(t, label);
    }
    puts("};");
    return 0;
}

int main(int argc, char **argv)
{
    if (sodium_init() < 0)
        return 1;
    if (argc > 1 && strcmp(argv[1], "--print") == 0)
        return print_tables();
    Suite *s = suite_create("kat");
    TCase *tc = tcase_create("kat");
    tcase_add_test(tc, oneshot_answers);
    tcase_add_test(tc, stream_answers);
    tcase_add_test(tc, stream_inputs);
    tcase_add_test(tc, stream_calls_as_documented);
    tcase_add_test(tc, oneshot_partial_groups);
    suite_add_tcase(s, tc);
    return test_run(s);
}
