/* test_batch.c -- one kernel's batch calls against libsodium: random
 *                 batches, shared and all-0xff inputs, tags written into
 *                 other entries' messages, verify, and every misuse */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include "../common.h"

#define MAXN 400

/* One batch: pointers into an arena, the keys, the reference tags. */
struct batch {
    uint8_t *tags[MAXN];
    const void *msgs[MAXN];
    size_t lens[MAXN];
    const uint8_t *keys[MAXN];
    uint8_t keybuf[MAXN][33];        /* keys at odd addresses: keybuf[i] + 1 */
    uint8_t tagbuf[MAXN][17];        /* tags at odd addresses too */
    uint8_t ref[MAXN][16];
    size_t n;
};

static struct batch B;
static uint8_t *arena;
#define ARENA (MAXN * 2100 + 8 * 65600)

static size_t pick_len(uint64_t *seed)
{
    uint64_t x = test_rand(seed);
    switch (x % 16) {
    case 0: return 65536 + (size_t)(x >> 8) % 40;          /* a few 64 KiB */
    case 1: return (size_t)(x >> 8) % 17;                  /* within a block */
    case 2: return 64;
    case 3: return 2049 + (size_t)(x >> 8) % 7000;       /* 2-9 KiB */
    default: return (size_t)(x >> 8) % 2001;
    }
}

/* Entry i of B: message m of len bytes under key, a tag buffer at an odd
 * address, and the oracle's tag to compare with. */
static void set_entry(size_t i, const uint8_t *key, const uint8_t *m, size_t len)
{
    B.keys[i] = key;
    B.msgs[i] = m;
    B.lens[i] = len;
    B.tags[i] = B.tagbuf[i] + 1;
    oracle(B.ref[i], m, len, key);
}

/* Entry i of B: len random bytes at m under a random key of its own (at
 * an odd address). */
static void random_entry(size_t i, uint8_t *m, size_t len, uint64_t *seed)
{
    test_fill(m, len, seed);
    test_fill(B.keybuf[i] + 1, 32, seed);
    set_entry(i, B.keybuf[i] + 1, m, len);
}

/* Fills B with n entries: lengths from pick_len (at most eight above 2000
 * bytes),
 * each message at a random misalignment in the arena, each key its own. */
static void make_batch(size_t n, uint64_t *seed, int all_ff)
{
    size_t off = 0, big = 0;
    B.n = n;
    for (size_t i = 0; i < n; i++) {
        size_t len = pick_len(seed);
        if (len > 2000 && big++ >= 8)
            len %= 2001;
        off += (size_t)(test_rand(seed) % 64);
        uint8_t *m = arena + off;
        off += len;
        if (all_ff) {
            memset(m, 0xff, len);
            memset(B.keybuf[i] + 1, 0xff, 32);
        } else {
            test_fill(m, len, seed);
            test_fill(B.keybuf[i] + 1, 32, seed);
        }
        set_entry(i, B.keybuf[i] + 1, m, len);
        if (!len && test_rand(seed) % 2 == 0)
            B.msgs[i] = NULL;                 /* NULL, 0 is valid too */
    }
    ck_assert_uint_le(off, ARENA);
}

static void check_tags(const char *what)
{
    for (size_t i = 0; i < B.n; i++)
        ck_assert_msg(memcmp(B.tags[i], B.ref[i], 16) == 0, "%s: entry %zu of %zu, length %zu",
                      what, i, B.n, B.lens[i]);
}

/* The batch of B's n entries, then each tag against the oracle's. */
static void run_and_check(const char *what)
{
    ck_assert_int_eq(polymac_auth_batch(B.tags, B.msgs, B.lens, B.keys, B.n), 0);
    check_tags(what);
}

/* Random batches of 0..100 entries, then of 0..MAXN (several runs), with
 * verify of the same batch, some tags flipped. */
START_TEST(random_batches)
{
    uint64_t seed = 0xba7c4u;
    int results[MAXN];
    for (int iter = 0; iter < 300; iter++) {
        size_t n = (size_t)(test_rand(&seed) % (iter < 250 ? 101 : MAXN + 1));
        make_batch(n, &seed, iter % 25 == 7);
        run_and_check("auth");

        size_t bad = 0;
        for (size_t i = 0; i < n; i++) {
            if (test_rand(&seed) % 5 == 0) {
                B.tags[i][test_rand(&seed) % 16] ^= (uint8_t)(1u << (test_rand(&seed) % 8));
                bad++;
            }
            results[i] = 12345;
        }
        int rc = polymac_verify_batch((const uint8_t *const *)B.tags, B.msgs, B.lens, B.keys,
                                      n, results);
        ck_assert_int_eq(rc, bad ? POLYMAC_EBADTAG : 0);
        for (size_t i = 0; i < n; i++)
            ck_assert_int_eq(results[i], memcmp(B.tags[i], B.ref[i], 16) ? POLYMAC_EBADTAG : 0);
    }
}
END_TEST

/* Every batch size 1..40 of messages of every length 0..80 in turn, so
 * that lanes end and are refilled at every offset. */
START_TEST(sizes_and_lengths)
{
    uint64_t seed = 0x51e5u;
    for (size_t n = 1; n <= 40; n++) {
        size_t off = 0;
        B.n = n;
        for (size_t i = 0; i < n; i++) {
            size_t len = (n * 7 + i * 13) % 81;
            uint8_t *m = arena + off + (i % 3);
            off += len + 3;
            test_fill(m, len, &seed);
            test_fill(B.keybuf[i] + 1, 32, &seed);
            set_entry(i, B.keybuf[i] + 1, m, len);
        }
        run_and_check("sizes");
    }
}
END_TEST

/* Batches whose messages all have one length (the lanes' path without
 * refills): every size 1..40, so groups of sixteen end at every lane,
 * lengths around the block and step boundaries, all 0xff every third. */
START_TEST(equal_lengths)
{
    static const size_t lens[] = {1, 15, 16, 17, 31, 32, 33, 47, 48, 49, 63, 64,
                                  65, 100, 256, 319, 320, 600, 1023, 1024, 2047, 2048,
                                  3000, 4096, 8191, 8192, 8193};
    uint64_t seed = 0xe9a1u;
    for (size_t n = 1; n <= 40; n++)
        for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
            const size_t len = lens[li];
            const int ff = (n + li) % 3 == 0;
            size_t off = 0;
            B.n = n;
            for (size_t i = 0; i < n; i++) {
                uint8_t *m = arena + off + (i % 7);
                off += len + 7;
                if (ff) {
                    memset(m, 0xff, len);
                    memset(B.keybuf[i] + 1, 0xff, 32);
                } else {
                    test_fill(m, len, &seed);
                    test_fill(B.keybuf[i] + 1, 32, &seed);
                }
                set_entry(i, B.keybuf[i] + 1, m, len);
            }
            run_and_check("equal lengths");
        }
}
END_TEST

/* Messages of 1025-2048 bytes, which lanes may take only as whole sets
 * (kernel.h: max_len_full): 1 to 20 of mixed lengths (a set, a set and a
 * few left over, two sets), alone and among shorter ones, in an order
 * that is not by length, so that a set mixes lengths of its first class
 * and the shorter classes. */
START_TEST(longer_in_whole_sets)
{
    uint64_t seed = 0x10e5u;
    for (size_t nlong = 1; nlong <= 20; nlong++)
        for (size_t nshort = 0; nshort <= 12; nshort += 6) {
            size_t off = 0;
            int lng[32];
            B.n = nlong + nshort;
            for (size_t i = 0; i < B.n; i++)
                lng[i] = i < nlong;
            for (size_t i = B.n; i > 1; i--) {      /* the long ones anywhere */
                const size_t j = (size_t)(test_rand(&seed) % i);
                const int t = lng[i - 1];
                lng[i - 1] = lng[j];
                lng[j] = t;
            }
            for (size_t i = 0; i < B.n; i++) {
                const size_t len = lng[i] ? 1025 + (size_t)(test_rand(&seed) % 1024)
                                          : (size_t)(test_rand(&seed) % 1025);
                uint8_t *m = arena + off + (i % 5);
                off += len + 5;
                random_entry(i, m, len, &seed);
            }
            run_and_check("longer in whole sets");
        }
}
END_TEST

/* One message under many keys (all lanes reading the same bytes), all
 * 0xff keys with it, and one key for every entry. */
START_TEST(duplicates)
{
    uint64_t seed = 0xd0bu;
    static const size_t lens[] = {0, 1, 15, 16, 17, 64, 255, 1024, 1999, 65536};
    for (size_t l = 0; l < sizeof lens / sizeof *lens; l++) {
        for (int ff = 0; ff < 3; ff++) {
            size_t n = 9 + l * 5;
            uint8_t *m = arena + l;
            if (ff == 1)
                memset(m, 0xff, lens[l]);
            else
                test_fill(m, lens[l], &seed);
            B.n = n;
            for (size_t i = 0; i < n; i++) {
                if (ff == 1)
                    memset(B.keybuf[i] + 1, 0xff, 32);
                else if (ff == 2 && i > 0)
                    memcpy(B.keybuf[i] + 1, B.keybuf[0] + 1, 32);
                else
                    test_fill(B.keybuf[i] + 1, 32, &seed);
                set_entry(i, B.keybuf[i] + 1, m, lens[l]);
            }
            run_and_check("duplicates");
        }
    }
}
END_TEST

/* Tag i written over the start of entry (i + 1)'s message (and for one
 * batch over its key; a batch of one over its own message, or across its
 * own s): every message and key is read before any tag is written, in
 * one run and across many (the heap path). */
START_TEST(tags_in_other_messages)
{
    uint64_t seed = 0xa11a5u;
    static const size_t ns[] = {1, 2, 5, 8, 9, 17, 33, 64, 65, 100, 200, MAXN};
    for (size_t t = 0; t < sizeof ns / sizeof *ns; t++) {
        for (int into_keys = 0; into_keys < 2; into_keys++) {
            size_t n = ns[t], off = 0;
            uint8_t *m[MAXN];
            B.n = n;
            for (size_t i = 0; i < n; i++) {
                size_t len = 16 + (size_t)(test_rand(&seed) % 300);
                m[i] = arena + off + 1;
                off += len + 8;
                random_entry(i, m[i], len, &seed);
            }
            for (size_t i = 0; i < n; i++) {
                size_t j = (i + 1) % n;
                B.tags[i] = into_keys ? B.keybuf[j] + 1 : m[j];
            }
            if (n == 1)                    /* its own message, or its own s */
                B.tags[0] = into_keys ? B.keybuf[0] + 1 + 20 : m[0] + 3;
            run_and_check(into_keys ? "tags over keys" : "tags over messages");
        }
    }
}
END_TEST

/* The same over batches of one length (the lanes' paths without refills,
 * and the one a kernel may take without a tag buffer), 1 to 20 entries:
 * tag i over entry (i + 1)'s message, its key, or 20 bytes into its key
 * (across s). */
START_TEST(tags_in_same_length_batches)
{
    uint64_t seed = 0x5a3e1u;
    static const size_t lens[] = {0, 1, 15, 16, 17, 64, 100, 256, 1000};
    for (size_t l = 0; l < sizeof lens / sizeof *lens; l++) {
        for (size_t n = 1; n <= 20; n++) {
            for (int into = 0; into < 3; into++) {
                const size_t len = lens[l];
                uint8_t *m[MAXN];
                B.n = n;
                for (size_t i = 0; i < n; i++) {
                    m[i] = arena + i * (len + 24) + 3;
                    random_entry(i, m[i], len, &seed);
                }
                for (size_t i = 0; i < n; i++) {
                    size_t j = (i + 1) % n;
                    B.tags[i] = into == 0 && len >= 16 ? m[j]
                                : into == 1          ? B.keybuf[j] + 1
                                                     : B.keybuf[j] + 1 + 20;
                }
                run_and_check(into == 0 ? "same length, tags over messages"
                              : into == 1 ? "same length, tags over keys"
                                          : "same length, tags across s");
            }
        }
    }
}
END_TEST

/* Batches mixing empty, one-block and longer messages in every order (the
 * lanes order a mixed batch by block count, an empty message beside the
 * one-block ones), 1 to 24 entries. */
START_TEST(empty_and_short_mixed)
{
    uint64_t seed = 0xe3b7u;
    static const size_t pat[] = {0, 9, 0, 16, 1, 0, 15, 100, 0, 17, 33, 0};
    enum { NPAT = sizeof pat / sizeof *pat };
    for (size_t rot = 0; rot < NPAT; rot++) {
        for (size_t n = 1; n <= 24; n++) {
            size_t off = 0;
            B.n = n;
            for (size_t i = 0; i < n; i++) {
                const size_t len = pat[(i + rot) % NPAT];
                random_entry(i, arena + off + 5, len, &seed);
                off += len + 7;
            }
            run_and_check("empty and short, mixed");
        }
    }
}
END_TEST

/* Each documented error; nothing written when one is returned. */
START_TEST(misuse)
{
    uint64_t seed = 0xbadu;
    int results[MAXN];
    uint8_t *tags[4];
    const void *msgs[4];
    size_t lens[4];
    const uint8_t *keys[4];
    uint8_t tb[4][16], kb[4][32], mb[4][40];
    const uint8_t *ctags[4];
    for (int i = 0; i < 4; i++) {
        test_fill(kb[i], 32, &seed);
        test_fill(mb[i], 40, &seed);
        memset(tb[i], 0xa5, 16);
        tags[i] = tb[i];
        ctags[i] = tb[i];
        msgs[i] = mb[i];
        lens[i] = 40;
        keys[i] = kb[i];
        results[i] = 777;
    }
#define UNTOUCHED() do {                                                      \
        for (int u = 0; u < 4; u++) {                                         \
            for (int b = 0; b < 16; b++)                                      \
                ck_assert_uint_eq(tb[u][b], 0xa5);                           \
            ck_assert_int_eq(results[u], 777);                                \
        }                                                                     \
    } while (0)

    /* n = 0 is valid with or without arrays */
    ck_assert_int_eq(polymac_auth_batch(NULL, NULL, NULL, NULL, 0), 0);
    ck_assert_int_eq(polymac_verify_batch(NULL, NULL, NULL, NULL, 0, NULL), 0);
    ck_assert_int_eq(polymac_verify_batch(ctags, msgs, lens, keys, 0, results), 0);
    UNTOUCHED();

    ck_assert_int_eq(polymac_auth_batch(NULL, msgs, lens, keys, 4), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_auth_batch(tags, NULL, lens, keys, 4), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_auth_batch(tags, msgs, NULL, keys, 4), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_auth_batch(tags, msgs, lens, NULL, 4), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_verify_batch(NULL, msgs, lens, keys, 4, results), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_verify_batch(ctags, NULL, lens, keys, 4, results), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_verify_batch(ctags, msgs, NULL, keys, 4, results), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_verify_batch(ctags, msgs, lens, NULL, 4, results), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_verify_batch(ctags, msgs, lens, keys, 4, NULL), POLYMAC_EINVAL);
    UNTOUCHED();

    /* one bad entry, last, so that the earlier ones would have been computed */
    tags[3] = NULL;
    ctags[3] = NULL;
    ck_assert_int_eq(polymac_auth_batch(tags, msgs, lens, keys, 4), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_verify_batch(ctags, msgs, lens, keys, 4, results), POLYMAC_EINVAL);
    tags[3] = tb[3];
    ctags[3] = tb[3];
    UNTOUCHED();
    keys[3] = NULL;
    ck_assert_int_eq(polymac_auth_batch(tags, msgs, lens, keys, 4), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_verify_batch(ctags, msgs, lens, keys, 4, results), POLYMAC_EINVAL);
    keys[3] = kb[3];
    UNTOUCHED();
    msgs[3] = NULL;
    ck_assert_int_eq(polymac_auth_batch(tags, msgs, lens, keys, 4), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_verify_batch(ctags, msgs, lens, keys, 4, results), POLYMAC_EINVAL);
    UNTOUCHED();
    /* a NULL message of length 0 is valid */
    lens[3] = 0;
    ck_assert_int_eq(polymac_auth_batch(tags, msgs, lens, keys, 4), 0);
    for (int i = 0; i < 4; i++) {
        uint8_t ref[16];
        oracle(ref, mb[i], lens[i], kb[i]);
        ck_assert_tag_eq(tb[i], ref);
    }
    ck_assert_int_eq(polymac_verify_batch(ctags, msgs, lens, keys, 4, results), 0);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(results[i], 0);
#undef UNTOUCHED
}
END_TEST

/* Batches of one length of up to a run (up to eight, the front end checks
 * them in vector code: lib/batch.c): each NULL tag, key or message at
 * each position is POLYMAC_EINVAL with nothing written; a differing length, or an empty
 * message given as NULL, at each position gives the right tags, and so
 * does the batch of one length; each valid batch verifies, and with one
 * tag a bit off fails for that entry alone. */
START_TEST(misuse_small_batches)
{
    static const size_t lens_tried[] = {40, 64, 100, 1000};
    static const size_t ns[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 40, 64};
    static uint8_t tb[64][16], kb[64][32], mb[64][1000];
    uint64_t seed = 0x5ba11u;
    uint8_t ref[16];
    uint8_t *tags[64];
    const void *msgs[64];
    const uint8_t *keys[64];
    size_t lens[64];
    for (int i = 0; i < 64; i++) {
        test_fill(kb[i], 32, &seed);
        test_fill(mb[i], sizeof mb[i], &seed);
    }
    for (size_t li = 0; li < sizeof lens_tried / sizeof lens_tried[0]; li++) {
        for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++) {
            const size_t n = ns[ni];
            for (size_t p = 0; p < n; p++) {
                for (int what = 0; what < 6; what++) {
                    for (size_t i = 0; i < n; i++) {
                        memset(tb[i], 0xa5, 16);
                        tags[i] = tb[i];
                        msgs[i] = mb[i];
                        keys[i] = kb[i];
                        lens[i] = lens_tried[li];
                    }
                    if (what == 0)
                        tags[p] = NULL;
                    else if (what == 1)
                        keys[p] = NULL;
                    else if (what == 2)
                        msgs[p] = NULL;
                    else if (what == 3)
                        lens[p] = lens_tried[li] - 1 - p % 16;   /* valid */
                    else if (what == 4) {
                        lens[p] = 0;                             /* valid */
                        msgs[p] = NULL;
                    }                                            /* 5: one length */
                    const int rc = polymac_auth_batch(tags, msgs, lens, keys, n);
                    for (size_t i = 0; i < n; i++) {
                        if (what < 3) {
                            static const uint8_t untouched[16] = {
                                0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5,
                                0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5};
                            ck_assert_tag_eq(tb[i], untouched);
                        } else {
                            oracle(ref, lens[i] ? mb[i] : NULL, lens[i], kb[i]);
                            ck_assert_tag_eq(tb[i], ref);
                        }
                    }
                    ck_assert_int_eq(rc, what < 3 ? POLYMAC_EINVAL : 0);
                    /* the same batch verified: against the right tags,
                     * then with entry p's tag one bit off */
                    const uint8_t *ct[64];
                    int results[64];
                    for (size_t i = 0; i < n; i++)
                        ct[i] = tags[i];
                    int vrc = polymac_verify_batch(ct, msgs, lens, keys, n, results);
                    if (what < 3) {
                        ck_assert_int_eq(vrc, POLYMAC_EINVAL);
                        continue;
                    }
                    ck_assert_int_eq(vrc, 0);
                    for (size_t i = 0; i < n; i++)
                        ck_assert_int_eq(results[i], 0);
                    tb[p][p % 16] ^= 0x10;
                    vrc = polymac_verify_batch(ct, msgs, lens, keys, n, results);
                    ck_assert_int_eq(vrc, POLYMAC_EBADTAG);
                    for (size_t i = 0; i < n; i++)
                        ck_assert_int_eq(results[i], i == p ? POLYMAC_EBADTAG : 0);
                }
            }
        }
    }
}
END_TEST

/* The batch calls follow polymac_backend_select like polymac_auth. */
START_TEST(same_kernel_as_auth)
{
    uint64_t seed = 0x5a3eu;
    make_batch(50, &seed, 0);
    for (size_t i = 0; i < B.n; i++) {
        uint8_t t[16];
        ck_assert_int_eq(polymac_auth(t, B.msgs[i], B.lens[i], B.keys[i]), 0);
        ck_assert_tag_eq(t, B.ref[i]);
    }
    run_and_check("after auth");
}
END_TEST

/*
 * h ending at p - 1, p, p + 1 and 2^130 - 1 before the final reduction, in
 * every lane: with r = 1 a message of three blocks (2^128 - d, 0, 0) gives
 * h = 2^130 - d exactly, which a lane carries to its tag unreduced, so a
 * wrong conditional subtraction of p shows.  Batches of 8 (one set of
 * lanes) and 16 (two), each entry with its own s, the d rotating.
 */
START_TEST(h_near_p)
{
    static const unsigned ds[] = {6, 5, 4, 1, 3};
    uint64_t seed = 0x9e4u;
    for (size_t n = 1; n <= 24; n++) {
        B.n = n;
        for (size_t i = 0; i < n; i++) {
            uint8_t *m = arena + 64 * i + (i % 5);
            uint8_t *key = B.keybuf[i] + 1;
            unsigned d = ds[(i + n) % 5];
            memset(m, 0, 48);
            memset(m, 0xff, 16);
            m[0] = (uint8_t)(0x100 - d);                 /* 2^128 - d */
            memset(key, 0, 16);
            key[0] = 1;                                  /* r = 1 */
            test_fill(key + 16, 16, &seed);
            set_entry(i, key, m, (i % 4 == 3) ? 47 : 48);   /* and a padded block */
        }
        run_and_check("h near p");
    }
}
END_TEST

int main(int argc, char **argv)
{
    const char *k = test_select_kernel(argc, argv);
    arena = malloc(ARENA);
    if (!arena)
        return 1;
    Suite *s = suite_create(k);
    TCase *tc = tcase_create("batch");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, random_batches);
    tcase_add_test(tc, sizes_and_lengths);
    tcase_add_test(tc, equal_lengths);
    tcase_add_test(tc, longer_in_whole_sets);
    tcase_add_test(tc, misuse_small_batches);
    tcase_add_test(tc, duplicates);
    tcase_add_test(tc, tags_in_other_messages);
    tcase_add_test(tc, tags_in_same_length_batches);
    tcase_add_test(tc, empty_and_short_mixed);
    tcase_add_test(tc, misuse);
    tcase_add_test(tc, same_kernel_as_auth);
    tcase_add_test(tc, h_near_p);
    suite_add_tcase(s, tc);
    int rc = test_run(s);
    free(arena);
    return rc;
}
