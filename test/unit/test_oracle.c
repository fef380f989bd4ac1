/* test_oracle.c -- one kernel against libsodium: every length, all-0xff
 *                  input, random splits, misaligned buffers and states,
 *                  copied states, long messages */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include <sys/mman.h>

#include "../common.h"

#define MAXLEN 4160   /* past 4 KiB: every lane width and threshold */

static uint8_t *buf;  /* MAXLEN + 64 bytes, used at every misalignment */

/* Every length 0..MAXLEN, random key and message, at misaligned addresses. */
START_TEST(lengths_random)
{
    uint64_t seed = 0x1234567u;
    uint8_t key[32], tag[16], ref[16];
    for (size_t len = 0; len <= MAXLEN; len++) {
        uint8_t *m = buf + (len % 64);
        test_fill(key, 32, &seed);
        test_fill(m, len, &seed);
        oracle(ref, m, len, key);
        ck_assert_int_eq(polymac_auth(tag, m, len, key), 0);
        ck_assert_msg(memcmp(tag, ref, 16) == 0, "length %zu", len);
        ck_assert_int_eq(polymac_verify(ref, m, len, key), 0);
    }
}
END_TEST

/* All-0xff key and message: every limb of every lane at its maximum, where
 * missing carries show. */
START_TEST(lengths_all_ff)
{
    uint8_t key[32], tag[16], ref[16];
    memset(key, 0xff, 32);
    memset(buf, 0xff, MAXLEN + 64);
    for (size_t len = 0; len <= MAXLEN; len++) {
        uint8_t *m = buf + (len % 61);
        oracle(ref, m, len, key);
        ck_assert_int_eq(polymac_auth(tag, m, len, key), 0);
        ck_assert_msg(memcmp(tag, ref, 16) == 0, "length %zu", len);
    }
}
END_TEST

/* 0xff message with keys whose r limbs are maximal after clamping, and
 * messages of alternating 0x00/0xff blocks. */
START_TEST(carry_patterns)
{
    static uint8_t pbuf[8448];
    uint8_t key[32], tag[16], ref[16];
    /* and 4352, 4368, 8448: two-group loops of an even and an odd length,
     * after a whole and a partial leading group */
    static const size_t lens[] = {16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 4095, 4097,
                                  4352, 4368, 8448};
    for (int pat = 0; pat < 4; pat++) {
        for (size_t i = 0; i < sizeof pbuf; i++)
            pbuf[i] = pat == 0 ? 0xff : pat == 1 ? ((i / 16) % 2 ? 0xff : 0x00)
                   : pat == 2 ? ((i % 16) == 15 ? 0x00 : 0xff) : (uint8_t)(0xff - (i % 3));
        memset(key, 0xff, 16);
        memset(key + 16, pat == 3 ? 0x00 : 0xff, 16);
        for (size_t j = 0; j < sizeof lens / sizeof *lens; j++) {
            oracle(ref, pbuf, lens[j], key);
            ck_assert_int_eq(polymac_auth(tag, pbuf, lens[j], key), 0);
            ck_assert_msg(memcmp(tag, ref, 16) == 0, "pattern %d length %zu", pat, lens[j]);
        }
    }
}
END_TEST

/* The same message fed through polymac_update split at random points,
 * with the state at every misalignment. */
START_TEST(random_splits)
{
    uint64_t seed = 0xabcdefu;
    uint8_t key[32], tag[16], ref[16];
    static unsigned char stbuf[sizeof(polymac_state) + 64];
    for (int iter = 0; iter < 600; iter++) {
        size_t len = (size_t)(test_rand(&seed) % 2049);
        polymac_state *st = (polymac_state *)(stbuf + iter % 64);
        test_fill(key, 32, &seed);
        test_fill(buf, len, &seed);
        oracle(ref, buf, len, key);
        ck_assert_int_eq(polymac_init(st, key), 0);
        size_t off = 0;
        while (off < len) {
            size_t piece;
            switch (test_rand(&seed) % 4) {
            case 0: piece = 1; break;
            case 1: piece = (size_t)(test_rand(&seed) % 17); break;
            case 2: piece = (size_t)(test_rand(&seed) % 300); break;
            default: piece = (size_t)(test_rand(&seed) % 1500); break;
            }
            if (piece > len - off)
                piece = len - off;
            ck_assert_int_eq(polymac_update(st, buf + off, piece), 0);
            off += piece;
        }
        ck_assert_int_eq(polymac_final(st, tag), 0);
        ck_assert_msg(memcmp(tag, ref, 16) == 0, "iteration %d length %zu", iter, len);
    }
}
END_TEST

/* 1-byte updates for every length up to 300, and one update per byte
 * followed by a large one. */
START_TEST(byte_updates)
{
    uint64_t seed = 0x77u;
    uint8_t key[32], tag[16], ref[16];
    polymac_state st;
    for (size_t len = 0; len <= 300; len++) {
        test_fill(key, 32, &seed);
        test_fill(buf, len + 2048, &seed);
        oracle(ref, buf, len, key);
        ck_assert_int_eq(polymac_init(&st, key), 0);
        for (size_t i = 0; i < len; i++)
            ck_assert_int_eq(polymac_update(&st, buf + i, 1), 0);
        ck_assert_int_eq(polymac_final(&st, tag), 0);
        ck_assert_msg(memcmp(tag, ref, 16) == 0, "length %zu", len);

        oracle(ref, buf, len + 2048, key);
        ck_assert_int_eq(polymac_init(&st, key), 0);
        for (size_t i = 0; i < len; i++)
            ck_assert_int_eq(polymac_update(&st, buf + i, 1), 0);
        ck_assert_int_eq(polymac_update(&st, buf + len, 2048), 0);
        ck_assert_int_eq(polymac_final(&st, tag), 0);
        ck_assert_msg(memcmp(tag, ref, 16) == 0, "length %zu + 2048", len);
    }
}
END_TEST

/* Within one message, alternate short and long updates so a vector kernel
 * goes scalar -> vector -> scalar -> vector; copy the state with memcpy to
 * a differently aligned place between updates and continue from the copy. */
START_TEST(cross_paths_and_copies)
{
    static const size_t pieces[] = {16, 4096, 32, 16, 2048, 48, 1024, 16, 512, 256, 3, 1, 4095, 13, 64, 128};
    static unsigned char a[sizeof(polymac_state) + 64], b[sizeof(polymac_state) + 64];
    static uint8_t msg[16384];
    uint64_t seed = 0xc0ffeeu;
    uint8_t key[32], tag[16], ref[16];
    for (int round = 0; round < 64; round++) {
        size_t len = 0;
        for (size_t i = 0; i < sizeof pieces / sizeof *pieces; i++)
            len += pieces[(i + (size_t)round) % 16];
        test_fill(key, 32, &seed);
        test_fill(msg, len, &seed);
        if (round % 4 == 3)
            memset(msg, 0xff, len);
        oracle(ref, msg, len, key);
        polymac_state *st = (polymac_state *)(a + round % 64);
        ck_assert_int_eq(polymac_init(st, key), 0);
        size_t off = 0;
        for (size_t i = 0; i < sizeof pieces / sizeof *pieces; i++) {
            size_t piece = pieces[(i + (size_t)round) % 16];
            ck_assert_int_eq(polymac_update(st, msg + off, piece), 0);
            off += piece;
            /* copy to the other buffer at another alignment and go on there */
            polymac_state *next = (polymac_state *)((i % 2 ? a : b) + (round * 7 + i * 13) % 64);
            memcpy(next, st, sizeof *st);
            st = next;
        }
        ck_assert_int_eq(polymac_final(st, tag), 0);
        ck_assert_msg(memcmp(tag, ref, 16) == 0, "round %d", round);
    }
}
END_TEST

/* msg (len bytes of its buffer) streamed in pieces of piece bytes against
 * the oracle, on random data or (ff) all 0xff with r all 0xff before
 * clamping; msg and the key are filled here. */
static void check_pieces(uint8_t *msg, size_t len, size_t piece, int ff, uint64_t *seed)
{
    uint8_t key[32], tag[16], ref[16];
    test_fill(key, 32, seed);
    if (ff) {
        memset(msg, 0xff, len);
        memset(key, 0xff, 16);
    } else {
        test_fill(msg, len, seed);
    }
    oracle(ref, msg, len, key);
    polymac_state st;
    ck_assert_int_eq(polymac_init(&st, key), 0);
    for (size_t off = 0; off < len; off += piece)
        ck_assert_int_eq(polymac_update(&st, msg + off, len - off < piece ? len - off : piece), 0);
    ck_assert_int_eq(polymac_final(&st, tag), 0);
    ck_assert_msg(memcmp(tag, ref, 16) == 0, "%zu bytes in pieces of %zu%s", len, piece,
                  ff ? ", all 0xff" : "");
}

/* A stream in pieces of one fixed size, for every size from 1 to 40
 * blocks, whole or with 7 bytes over: the pieces a vector kernel takes
 * scalar before its powers exist, the call at which a run of short pieces
 * reaches the cold break-even, and warm calls below and above one group,
 * on random and on all-0xff data. */
START_TEST(fixed_pieces)
{
    static uint8_t msg[3000];
    uint64_t seed = 0xf15edu;
    for (size_t i = 1; i <= 81; i++) {
        const size_t piece = 16 * (i / 2) + (i % 2 ? 7 : 0);   /* 7, 16, 23, 32, ... */
        for (int ff = 0; ff < 2; ff++)
            check_pieces(msg, sizeof msg - (piece % 5), piece, ff, &seed);
    }
}
END_TEST

/* A long stream in pieces of whole groups of 16 blocks (1 to 9 groups,
 * whole or with 7 bytes over): the call at which the groups a stream has
 * taken reach the point from which a vector kernel's loop takes two
 * groups a step (x86-avx512ifma), odd and even loops after it, on random
 * and on all-0xff data. */
START_TEST(group_pieces)
{
    static uint8_t msg[24576 + 15];
    uint64_t seed = 0x9a1e5u;
    for (size_t i = 2; i <= 19; i++) {
        const size_t piece = 256 * (i / 2) + (i % 2 ? 7 : 0);
        for (int ff = 0; ff < 2; ff++)
            check_pieces(msg, sizeof msg - (i % 3) * 5, piece, ff, &seed);
    }
}
END_TEST

/* 64 KiB, 1 MiB and odd sizes around them. */
START_TEST(large_messages)
{
    static const size_t lens[] = {65536, 65537, 65551, 65536 + 256, 65536 + 272,
                                  1048576, 1048575, 1048576 + 15};
    size_t maxl = 1048576 + 64;
    uint8_t *m = malloc(maxl);
    uint8_t key[32], tag[16], ref[16];
    uint64_t seed = 0x1a2b3cu;
    ck_assert_ptr_nonnull(m);
    test_fill(m, maxl, &seed);
    for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
        test_fill(key, 32, &seed);
        oracle(ref, m + i, lens[i], key);
        ck_assert_int_eq(polymac_auth(tag, m + i, lens[i], key), 0);
        ck_assert_msg(memcmp(tag, ref, 16) == 0, "length %zu", lens[i]);
    }
    free(m);
}
END_TEST

#if SIZE_MAX > UINT32_MAX
/* A message over 4 GiB in one call: lengths are size_t end to end.  The
 * zero pages of an anonymous mapping cost no memory; one byte near the
 * end is set so truncating the length would change the tag.  Only where
 * size_t is wider than 32 bits (main reports the skip). */
START_TEST(over_4gib)
{
    size_t len = ((size_t)1 << 32) + 4099;
    uint8_t *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    uint8_t key[32], tag[16], ref[16];
    ck_assert_ptr_ne(m, MAP_FAILED);
    memset(key, 0x5a, 32);
    m[len - 7] = 0x80;
    m[12345] = 0x01;
    oracle_long(ref, m, len, key);
    ck_assert_int_eq(polymac_auth(tag, m, len, key), 0);
    ck_assert_tag_eq(tag, ref);
    munmap(m, len);
}
END_TEST
#endif

int main(int argc, char **argv)
{
    const char *k = test_select_kernel(argc, argv);
    static uint8_t storage[MAXLEN + 64 + 64];
    buf = storage;
    Suite *s = suite_create(k);
    TCase *tc = tcase_create("oracle");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, lengths_random);
    tcase_add_test(tc, lengths_all_ff);
    tcase_add_test(tc, carry_patterns);
    tcase_add_test(tc, random_splits);
    tcase_add_test(tc, byte_updates);
    tcase_add_test(tc, cross_paths_and_copies);
    tcase_add_test(tc, fixed_pieces);
    tcase_add_test(tc, group_pieces);
    int skipped = 0;
    if (!test_quick()) {
        tcase_add_test(tc, large_messages);
#if SIZE_MAX > UINT32_MAX
        tcase_add_test(tc, over_4gib);
#else
        /* not a pass: the run reports SKIP (exit 77) when the rest passed */
        printf("SKIP: over_4gib: a message over 4 GiB needs a size_t wider than "
               "32 bits; this target's is %zu bits\n", sizeof(size_t) * 8);
        skipped = 1;
#endif
    } else {
        printf("quick mode: 1 MiB and 4 GiB messages not tested in this run\n");
    }
    suite_add_tcase(s, tc);
    int rc = test_run(s);
    return rc == 0 && skipped ? TEST_SKIP : rc;
}
