/* test_api.c -- every error code, backend selection, a state finished
 *               under the kernel that began it, copies, statebytes */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include "../common.h"

static const uint8_t key[32] = {
    0x85, 0xd6, 0xbe, 0x78, 0x57, 0x55, 0x6d, 0x33, 0x7f, 0x44, 0x52, 0xfe, 0x42, 0xd5, 0x06, 0xa8,
    0x01, 0x03, 0x80, 0x8a, 0xfb, 0x0d, 0xb2, 0xfd, 0x4a, 0xbf, 0xf6, 0xaf, 0x41, 0x49, 0xf5, 0x1b};
static const char text[] = "Cryptographic Forum Research Group";

START_TEST(null_arguments)
{
    uint8_t tag[16];
    polymac_state st;
    ck_assert_int_eq(polymac_auth(NULL, text, 4, key), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_auth(tag, NULL, 4, key), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_auth(tag, text, 4, NULL), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_verify(NULL, text, 4, key), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_verify(tag, NULL, 4, key), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_verify(tag, text, 4, NULL), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_init(NULL, key), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_init(&st, NULL), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_init(&st, key), 0);
    ck_assert_int_eq(polymac_update(NULL, text, 4), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_update(&st, NULL, 4), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_final(NULL, tag), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_final(&st, NULL), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_final_verify(NULL, tag), POLYMAC_EINVAL);
    /* the state survived the rejected calls */
    ck_assert_int_eq(polymac_final(&st, tag), 0);
    /* final_verify with a NULL tag is refused and still finishes the
     * state, as it does on every other path */
    ck_assert_int_eq(polymac_init(&st, key), 0);
    ck_assert_int_eq(polymac_final_verify(&st, NULL), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_final(&st, tag), POLYMAC_ESTATE);
}
END_TEST

START_TEST(empty_message)
{
    uint8_t tag[16], ref[16], t2[16];
    polymac_state st;
    oracle(ref, (const uint8_t *)"", 0, key);
    ck_assert_int_eq(polymac_auth(tag, NULL, 0, key), 0);
    ck_assert_tag_eq(tag, ref);
    ck_assert_int_eq(polymac_verify(ref, NULL, 0, key), 0);
    ck_assert_int_eq(polymac_init(&st, key), 0);
    ck_assert_int_eq(polymac_update(&st, NULL, 0), 0);
    ck_assert_int_eq(polymac_final(&st, t2), 0);
    ck_assert_tag_eq(t2, ref);
}
END_TEST

START_TEST(bad_tag)
{
    uint8_t tag[16];
    polymac_state st;
    ck_assert_int_eq(polymac_auth(tag, text, sizeof text - 1, key), 0);
    ck_assert_int_eq(polymac_verify(tag, text, sizeof text - 1, key), 0);
    for (int byte = 0; byte < 16; byte++)
        for (int bit = 0; bit < 8; bit++) {
            tag[byte] ^= (uint8_t)(1 << bit);
            ck_assert_int_eq(polymac_verify(tag, text, sizeof text - 1, key), POLYMAC_EBADTAG);
            ck_assert_int_eq(polymac_init(&st, key), 0);
            ck_assert_int_eq(polymac_update(&st, text, sizeof text - 1), 0);
            ck_assert_int_eq(polymac_final_verify(&st, tag), POLYMAC_EBADTAG);
            /* final_verify wiped the state either way */
            ck_assert_int_eq(polymac_update(&st, text, 1), POLYMAC_ESTATE);
            tag[byte] ^= (uint8_t)(1 << bit);
        }
    ck_assert_int_eq(polymac_init(&st, key), 0);
    ck_assert_int_eq(polymac_update(&st, text, sizeof text - 1), 0);
    ck_assert_int_eq(polymac_final_verify(&st, tag), 0);
}
END_TEST

START_TEST(state_lifecycle)
{
    uint8_t tag[16];
    polymac_state st;
    memset(&st, 0, sizeof st);                       /* never initialised */
    ck_assert_int_eq(polymac_update(&st, text, 4), POLYMAC_ESTATE);
    ck_assert_int_eq(polymac_final(&st, tag), POLYMAC_ESTATE);
    ck_assert_int_eq(polymac_final_verify(&st, tag), POLYMAC_ESTATE);
    ck_assert_int_eq(polymac_init(&st, key), 0);
    ck_assert_int_eq(polymac_update(&st, text, 4), 0);
    ck_assert_int_eq(polymac_final(&st, tag), 0);
    ck_assert_int_eq(polymac_final(&st, tag), POLYMAC_ESTATE);    /* final twice */
    ck_assert_int_eq(polymac_update(&st, text, 4), POLYMAC_ESTATE);
    ck_assert_int_eq(polymac_init(&st, key), 0);                  /* reusable */
    ck_assert_int_eq(polymac_final(&st, tag), 0);

    /* garbage states: never accepted, never a crash */
    uint64_t seed = 99;
    for (int i = 0; i < 2000; i++) {
        test_fill(st.opaque, sizeof st.opaque, &seed);
        ck_assert_int_eq(polymac_update(&st, text, 20), POLYMAC_ESTATE);
        ck_assert_int_eq(polymac_final(&st, tag), POLYMAC_ESTATE);
    }
}
END_TEST

START_TEST(statebytes_and_version)
{
    ck_assert_uint_eq(polymac_statebytes(), sizeof(polymac_state));
    ck_assert_uint_eq(polymac_statebytes(), POLYMAC_STATEBYTES);
    ck_assert_str_eq(polymac_version(), POLYMAC_TEST_VERSION);
}
END_TEST

START_TEST(backend_selection)
{
    const char *names[32];
    size_t n = polymac_backend_list(names, 32);
    ck_assert_uint_ge(n, 2);
    ck_assert_uint_eq(polymac_backend_list(NULL, 0), n);
    ck_assert_uint_eq(polymac_backend_list(names, 1), n);
    ck_assert_int_eq(polymac_backend_select(NULL), 0);
    ck_assert_str_eq(polymac_backend_name(), names[0]);    /* auto = best usable */
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(polymac_backend_select(names[i]), 0);
        ck_assert_str_eq(polymac_backend_name(), names[i]);
    }
    ck_assert_int_eq(polymac_backend_select("no-such-kernel"), POLYMAC_EBACKEND);
    ck_assert_str_eq(polymac_backend_name(), names[n - 1]);  /* unchanged */
    ck_assert_int_eq(polymac_backend_select(""), 0);
    ck_assert_str_eq(polymac_backend_name(), names[0]);
    ck_assert_int_eq(polymac_backend_select("auto"), 0);
    ck_assert_str_eq(polymac_backend_name(), names[0]);
    /* generic kernels are always there */
    ck_assert_int_eq(polymac_backend_select("generic-r26"), 0);
    ck_assert_int_eq(polymac_backend_select("generic-r26x2"), 0);
    polymac_backend_select(NULL);
}
END_TEST

/* A kernel built in for another ISA family, or missing CPU support:
 * refused as unsupported or unknown, never selected. */
START_TEST(unsupported_backend)
{
    static const char *all[] = {"x86-avx2", "x86-avx512", "x86-avx512ifma", "aarch64-neon", "arm-neon",
                                "power-vsx", "power-p9", "s390x-vx"};
    const char *names[32];
    size_t n = polymac_backend_list(names, 32);
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
        int usable = 0;
        for (size_t j = 0; j < n; j++)
            usable |= strcmp(all[i], names[j]) == 0;
        polymac_backend_select(NULL);
        int rc = polymac_backend_select(all[i]);
        if (usable) {
            ck_assert_int_eq(rc, 0);
        } else {
            ck_assert_msg(rc == POLYMAC_EUNSUPPORTED || rc == POLYMAC_EBACKEND,
                          "%s: rc %d", all[i], rc);
            ck_assert_str_eq(polymac_backend_name(), names[0]);
        }
    }
    polymac_backend_select(NULL);
}
END_TEST

/* A state begun under one kernel is finished by it, whatever the global
 * choice does meanwhile; every pair of usable kernels. */
START_TEST(switch_mid_stream)
{
    const char *names[32];
    size_t n = polymac_backend_list(names, 32);
    static uint8_t msg[3000];
    uint8_t ref[16], tag[16];
    uint64_t seed = 5;
    test_fill(msg, sizeof msg, &seed);
    oracle(ref, msg, sizeof msg, key);
    for (size_t a = 0; a < n; a++)
        for (size_t b = 0; b < n; b++) {
            polymac_state st;
            ck_assert_int_eq(polymac_backend_select(names[a]), 0);
            ck_assert_int_eq(polymac_init(&st, key), 0);
            ck_assert_int_eq(polymac_update(&st, msg, 1000), 0);
            ck_assert_int_eq(polymac_backend_select(names[b]), 0);
            ck_assert_int_eq(polymac_update(&st, msg + 1000, 1333), 0);
            ck_assert_int_eq(polymac_backend_select(names[(a + b) % n]), 0);
            ck_assert_int_eq(polymac_update(&st, msg + 2333, sizeof msg - 2333), 0);
            ck_assert_int_eq(polymac_final(&st, tag), 0);
            ck_assert_msg(memcmp(tag, ref, 16) == 0, "%s then %s", names[a], names[b]);
        }
    polymac_backend_select(NULL);
}
END_TEST

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    Suite *s = suite_create("api");
    TCase *tc = tcase_create("api");
    tcase_add_test(tc, null_arguments);
    tcase_add_test(tc, empty_message);
    tcase_add_test(tc, bad_tag);
    tcase_add_test(tc, state_lifecycle);
    tcase_add_test(tc, statebytes_and_version);
    tcase_add_test(tc, backend_selection);
    tcase_add_test(tc, unsupported_backend);
    tcase_add_test(tc, switch_mid_stream);
    suite_add_tcase(s, tc);
    return test_run(s);
}
