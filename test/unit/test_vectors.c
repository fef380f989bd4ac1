/* test_vectors.c -- RFC 8439 vectors and constructed edge cases, for one kernel */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include "../common.h"

struct vec {
    const char *key;   /* hex */
    const char *msg;   /* hex */
    const char *tag;   /* hex */
};

static size_t unhex(uint8_t *out, const char *h)
{
    size_t n = 0;
    for (; h[0] && h[1]; h += 2) {
        unsigned v;
        sscanf(h, "%2x", &v);
        out[n++] = (uint8_t)v;
    }
    return n;
}

/* RFC 8439 section 2.5.2, then appendix A.3 test vectors #1 to #11 */
#define TEXT_IETF \
    "416e79207375626d697373696f6e20746f20746865204945544620696e74656e6465642062792074686520436f6e7472696275746f7220666f72207075626c69636174696f6e20617320616c6c206f722070617274206f6620616e204945544620496e7465726e65742d4472616674206f722052464320616e6420616e792073746174656d656e74206d6164652077697468696e2074686520636f6e74657874206f6620616e204945544620616374697669747920697320636f6e7369646572656420616e20224945544620436f6e747269627574696f6e222e20537563682073746174656d656e747320696e636c756465206f72616c2073746174656d656e747320696e20494554462073657373696f6e732c2061732077656c6c206173207772697474656e20616e6420656c656374726f6e696320636f6d6d756e69636174696f6e73206d61646520617420616e792074696d65206f7220706c6163652c207768696368206172652061646472657373656420746f"
static const struct vec vectors[] = {
    {"85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b",
     "43727970746f6772617068696320466f72756d2052657365617263682047726f7570",
     "a8061dc1305136c6c22b8baf0c0127a9"},
    {"0000000000000000000000000000000000000000000000000000000000000000",
     "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
     "00000000000000000000000000000000"},
    {"0000000000000000000000000000000036e5f6b5c5e06070f0efca96227a863e",
     TEXT_IETF, "36e5f6b5c5e06070f0efca96227a863e"},
    {"36e5f6b5c5e06070f0efca96227a863e00000000000000000000000000000000",
     TEXT_IETF, "f3477e7cd95417af89a6b8794c310cf0"},
    {"1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0",
     "2754776173206272696c6c69672c20616e642074686520736c6974687920746f7665730a446964206779726520616e642067696d626c6520696e2074686520776162653a0a416c6c206d696d737920776572652074686520626f726f676f7665732c0a416e6420746865206d6f6d65207261746873206f757467726162652e",
     "4541669a7eaaee61e708dc7cbcc5eb62"},
    {"0200000000000000000000000000000000000000000000000000000000000000",
     "ffffffffffffffffffffffffffffffff", "03000000000000000000000000000000"},
    {"02000000000000000000000000000000ffffffffffffffffffffffffffffffff",
     "02000000000000000000000000000000", "03000000000000000000000000000000"},
    {"0100000000000000000000000000000000000000000000000000000000000000",
     "ffffffffffffffffffffffffffffffff"
     "f0ffffffffffffffffffffffffffffff"
     "11000000000000000000000000000000",
     "05000000000000000000000000000000"},
    {"0100000000000000000000000000000000000000000000000000000000000000",
     "ffffffffffffffffffffffffffffffff"
     "fbfefefefefefefefefefefefefefefe"
     "01010101010101010101010101010101",
     "00000000000000000000000000000000"},
    {"0200000000000000000000000000000000000000000000000000000000000000",
     "fdffffffffffffffffffffffffffffff", "faffffffffffffffffffffffffffffff"},
    {"0100000000000000040000000000000000000000000000000000000000000000",
     "e33594d7505e43b900000000000000003394d7505e4379cd01000000000000000000000000000000000000000000000001000000000000000000000000000000",
     "14000000000000005500000000000000"},
    {"0100000000000000040000000000000000000000000000000000000000000000",
     "e33594d7505e43b900000000000000003394d7505e4379cd010000000000000000000000000000000000000000000000",
     "13000000000000000000000000000000"},
};

static void check_vec(const struct vec *v)
{
    uint8_t key[32], want[16], tag[16], ref[16];
    static uint8_t msg[512];
    unhex(key, v->key);
    unhex(want, v->tag);
    size_t len = unhex(msg, v->msg);
    oracle(ref, msg, len, key);
    ck_assert_tag_eq(ref, want);              /* the vector itself is right */
    ck_assert_int_eq(polymac_auth(tag, msg, len, key), 0);
    ck_assert_tag_eq(tag, want);
    ck_assert_int_eq(polymac_verify(want, msg, len, key), 0);

    polymac_state st;
    ck_assert_int_eq(polymac_init(&st, key), 0);
    ck_assert_int_eq(polymac_update(&st, msg, len / 3), 0);
    ck_assert_int_eq(polymac_update(&st, msg + len / 3, len - len / 3), 0);
    ck_assert_int_eq(polymac_final(&st, tag), 0);
    ck_assert_tag_eq(tag, want);
}

START_TEST(rfc_vector)
{
    check_vec(&vectors[_i]);
}
END_TEST

/* Build a key with r = 1 and s = 0: the final h is then the plain sum of
 * the blocks (each plus 2^128), so chosen blocks put h exactly where the
 * final reduction must decide.  Each case gives the tag as derived by
 * hand (h mod p, little-endian) and is also checked against the oracle. */
struct edge {
    const char *what;
    int nblocks;
    uint8_t fill[3];     /* block i is fill[i] repeated, with byte 0 = low[i] */
    uint8_t low[3];
    uint8_t tag0;        /* expected tag: tag0, then 15 bytes of tagrest */
    uint8_t tagrest;
};

static const struct edge edges[] = {
    /* 2 (2^128 - 1) + 2^129 - 4 = 2^130 - 6 = p - 1 */
    {"h = p - 1", 2, {0xff, 0xff}, {0xff, 0xfb}, 0xfa, 0xff},
    /* ... + 1 = p: reduces to 0 */
    {"h = p", 2, {0xff, 0xff}, {0xff, 0xfc}, 0x00, 0x00},
    /* p + 1: reduces to 1 */
    {"h = p + 1", 2, {0xff, 0xff}, {0xff, 0xfd}, 0x01, 0x00},
    /* 3 2^128 + (2^128 - 1) = 2^130 - 1 = p + 4 */
    {"h = 2^130 - 1", 3, {0xff, 0x00, 0x00}, {0xff, 0x00, 0x00}, 0x04, 0x00},
};

START_TEST(edge_final_reduction)
{
    const struct edge *e = &edges[_i];
    uint8_t key[32] = {1}, msg[48], tag[16], ref[16], want[16];
    for (int b = 0; b < e->nblocks; b++) {
        memset(msg + 16 * b, e->fill[b], 16);
        msg[16 * b] = e->low[b];
    }
    want[0] = e->tag0;
    memset(want + 1, e->tagrest, 15);
    oracle(ref, msg, 16 * (size_t)e->nblocks, key);
    ck_assert_msg(memcmp(ref, want, 16) == 0, "%s: oracle disagrees with derivation", e->what);
    ck_assert_int_eq(polymac_auth(tag, msg, 16 * (size_t)e->nblocks, key), 0);
    ck_assert_msg(memcmp(tag, want, 16) == 0, "%s: wrong tag", e->what);
}
END_TEST

/* The same edge values reached at the end of long messages (so that
 * vector kernels meet them after their lane merge): a prefix of zero
 * blocks leaves h = 0 whatever r is, then the edge blocks follow. */
START_TEST(edge_after_long_prefix)
{
    static const size_t prefixes[] = {16, 64, 128, 256, 512, 1024, 4096};
    const struct edge *e = &edges[_i];
    static uint8_t msg[4096 + 48];
    uint8_t key[32], tag[16], ref[16];
    uint64_t seed = 0x5eed0000u + (uint64_t)_i;
    for (size_t p = 0; p < sizeof prefixes / sizeof *prefixes; p++) {
        size_t pre = prefixes[p];
        memset(msg, 0, pre);
        for (int b = 0; b < e->nblocks; b++) {
            memset(msg + pre + 16 * b, e->fill[b], 16);
            msg[pre + 16 * b] = e->low[b];
        }
        size_t len = pre + 16 * (size_t)e->nblocks;
        /* zero blocks still add 2^128 each, so use a random r: the point
         * is that the lane merge meets large limbs; the oracle decides */
        test_fill(key, 32, &seed);
        oracle(ref, msg, len, key);
        ck_assert_int_eq(polymac_auth(tag, msg, len, key), 0);
        ck_assert_msg(memcmp(tag, ref, 16) == 0, "%s after %zu-byte prefix", e->what, pre);
    }
}
END_TEST

int main(int argc, char **argv)
{
    const char *k = test_select_kernel(argc, argv);
    Suite *s = suite_create(k);
    TCase *tc = tcase_create("vectors");
    tcase_add_loop_test(tc, rfc_vector, 0, (int)(sizeof vectors / sizeof vectors[0]));
    tcase_add_loop_test(tc, edge_final_reduction, 0, (int)(sizeof edges / sizeof edges[0]));
    tcase_add_loop_test(tc, edge_after_long_prefix, 0, (int)(sizeof edges / sizeof edges[0]));
    suite_add_tcase(s, tc);
    return test_run(s);
}
