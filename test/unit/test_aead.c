/* test_aead.c -- one kernel's AEAD tag (polymac_aead_*): RFC 8439's
 *                vectors, Wycheproof's ChaCha20-Poly1305 and
 *                XChaCha20-Poly1305 files, libsodium's AEAD tags for
 *                random lengths one-shot, streamed in every split and in
 *                batches, and every misuse */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include "../common.h"

struct wp_case {
    int id, ivbits;
    const char *key, *iv, *aad, *msg, *ct, *tag;
    int valid;
};
#include "wycheproof_chacha20_poly1305.h"
#include "wycheproof_xchacha20_poly1305.h"

#define MAXLEN (65536 + 64)

static uint8_t *bufs[4];       /* AAD, plaintext, ciphertext, scratch */

static size_t unhex(uint8_t *out, const char *hex)
{
    size_t n = strlen(hex) / 2;
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        ck_assert_int_eq(sscanf(hex + 2 * i, "%2x", &v), 1);
        out[i] = (uint8_t)v;
    }
    return n;
}

/* The one-time key of RFC 8439 section 2.6: the first 32 bytes of the
 * ChaCha20 block with counter 0. */
static void one_time_key(uint8_t otk[32], const uint8_t nonce[12], const uint8_t key[32])
{
    static const uint8_t zero[32];
    crypto_stream_chacha20_ietf_xor_ic(otk, zero, 32, nonce, 0, key);
}

/* The tag of (aad, ct) through every entry point that takes a whole
 * message: one-shot, one streamed piece each, a batch of one; all equal
 * to want, and verify accepts it. */
static void check_all_paths(const uint8_t *aad, size_t alen, const uint8_t *ct, size_t clen,
                            const uint8_t otk[32], const uint8_t want[16])
{
    uint8_t tag[16], t2[16], t3[16];
    polymac_aead_state st;
    ck_assert_int_eq(polymac_aead_auth(tag, aad, alen, ct, clen, otk), 0);
    ck_assert_msg(memcmp(tag, want, 16) == 0, "one-shot, aad %zu ct %zu", alen, clen);
    ck_assert_int_eq(polymac_aead_verify(want, aad, alen, ct, clen, otk), 0);
    ck_assert_int_eq(polymac_aead_init(&st, otk), 0);
    ck_assert_int_eq(polymac_aead_update_aad(&st, aad, alen), 0);
    ck_assert_int_eq(polymac_aead_update_ct(&st, ct, clen), 0);
    ck_assert_int_eq(polymac_aead_final(&st, t2), 0);
    ck_assert_msg(memcmp(t2, want, 16) == 0, "stream, aad %zu ct %zu", alen, clen);
    uint8_t *tags[1] = {t3};
    const void *aads[1] = {aad}, *cts[1] = {ct};
    const uint8_t *keys[1] = {otk};
    ck_assert_int_eq(polymac_aead_auth_batch(tags, aads, &alen, cts, &clen, keys, 1), 0);
    ck_assert_msg(memcmp(t3, want, 16) == 0, "batch, aad %zu ct %zu", alen, clen);
}

/* RFC 8439 section 2.8.2 (seal) and appendix A.5 (open). */
START_TEST(rfc8439)
{
    static const char pt282[] = "Ladies and Gentlemen of the class of '99: If I could offer you "
                                "only one tip for the future, sunscreen would be it.";
    static const uint8_t aad282[12] = {0x50, 0x51, 0x52, 0x53, 0xc0, 0xc1, 0xc2, 0xc3,
                                       0xc4, 0xc5, 0xc6, 0xc7};
    static const uint8_t nonce282[12] = {0x07, 0, 0, 0, 0x40, 0x41, 0x42, 0x43,
                                         0x44, 0x45, 0x46, 0x47};
    uint8_t key[32], otk[32], want[16], ct[300], pt[300], aad[12], nonce[12];
    for (int i = 0; i < 32; i++)
        key[i] = (uint8_t)(0x80 + i);
    one_time_key(otk, nonce282, key);
    crypto_stream_chacha20_ietf_xor_ic(ct, (const uint8_t *)pt282, sizeof pt282 - 1, nonce282,
                                       1, key);
    unhex(want, "1ae10b594f09e26a7e902ecbd0600691");
    check_all_paths(aad282, sizeof aad282, ct, sizeof pt282 - 1, otk, want);

    unhex(key, "1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0");
    unhex(nonce, "000000000102030405060708");
    unhex(aad, "f33388860000000000004e91");
    size_t n = unhex(ct, "64a0861575861af460f062c79be643bd5e805cfd345cf389f108670ac76c8cb2"
                         "4c6cfc18755d43eea09ee94e382d26b0bdb7b73c321b0100d4f03b7f355894cf"
                         "332f830e710b97ce98c8a84abd0b948114ad176e008d33bd60f982b1ff37c855"
                         "9797a06ef4f0ef61c186324e2b3506383606907b6a7c02b0f9f6157b53c867e4"
                         "b9166c767b804d46a59b5216cde7a4e99040c5a40433225ee282a1b0a06c523e"
                         "af4534d7f83fa1155b0047718cbc546a0d072b04b3564eea1b422273f548271a"
                         "0bb2316053fa76991955ebd63159434ecebb4e466dae5a1073a6727627097a10"
                         "49e617d91d361094fa68f0ff77987130305beaba2eda04df997b714d6c6f2c29"
                         "a6ad5cb4022b02709b");
    ck_assert_uint_eq(n, 265);
    unhex(want, "eead9d67890cbb22392336fea1851f38");
    one_time_key(otk, nonce, key);
    check_all_paths(aad, sizeof aad, ct, n, otk, want);
    crypto_stream_chacha20_ietf_xor_ic(pt, ct, n, nonce, 1, key);
    ck_assert_mem_eq(pt, "Internet-Drafts are draft documents valid for a maximum of six months",
                     69);
}
END_TEST

/* One Wycheproof file: each case's one-time key and ciphertext derived
 * with libsodium (the XChaCha20 subkey with HChaCha20, its nonce 4 zero
 * bytes and the last 8 of the 24), the ciphertext compared with the
 * file's, every valid tag accepted on every path, every invalid one
 * rejected. */
static void wycheproof(const struct wp_case *cases, size_t n, int xchacha)
{
    uint8_t *aad = bufs[0], *msg = bufs[1], *ct = bufs[2], *mine = bufs[3];
    size_t valid = 0, invalid = 0, nonce_size = 0;
    for (size_t i = 0; i < n; i++) {
        const struct wp_case *c = &cases[i];
        uint8_t key[32], iv[32], tag[16], nonce[12], otk[32], sub[32];
        ck_assert_uint_eq(unhex(key, c->key), 32);
        size_t ivlen = unhex(iv, c->iv);
        if (ivlen != (xchacha ? 24u : 12u)) {
            ck_assert_int_eq(c->valid, 0);       /* InvalidNonceSize */
            nonce_size++;
            continue;
        }
        size_t alen = unhex(aad, c->aad), mlen = unhex(msg, c->msg);
        ck_assert_uint_eq(unhex(ct, c->ct), mlen);
        ck_assert_uint_eq(unhex(tag, c->tag), 16);
        if (xchacha) {
            crypto_core_hchacha20(sub, iv, key, NULL);
            memset(nonce, 0, 4);
            memcpy(nonce + 4, iv + 16, 8);
        } else {
            memcpy(sub, key, 32);
            memcpy(nonce, iv, 12);
        }
        one_time_key(otk, nonce, sub);
        crypto_stream_chacha20_ietf_xor_ic(mine, msg, mlen, nonce, 1, sub);
        if (c->valid) {
            ck_assert_msg(memcmp(mine, ct, mlen) == 0, "tcId %d: ciphertext", c->id);
            check_all_paths(alen ? aad : NULL, alen, mlen ? ct : NULL, mlen, otk, tag);
            valid++;
        } else {
            ck_assert_msg(polymac_aead_verify(tag, aad, alen, ct, mlen, otk) == POLYMAC_EBADTAG,
                          "tcId %d: an invalid tag accepted", c->id);
            invalid++;
        }
    }
    printf("wycheproof %s: %zu valid tags accepted, %zu invalid rejected, %zu with a nonce "
           "of the wrong size (no one-time key to derive)\n",
           xchacha ? "xchacha20-poly1305" : "chacha20-poly1305", valid, invalid, nonce_size);
    ck_assert_uint_eq(valid + invalid + nonce_size, n);
    ck_assert_uint_gt(invalid, 0);
}

START_TEST(wycheproof_chacha)
{
    wycheproof(wp_chacha20_poly1305, sizeof wp_chacha20_poly1305 / sizeof wp_chacha20_poly1305[0],
               0);
}
END_TEST

START_TEST(wycheproof_xchacha)
{
    wycheproof(wp_xchacha20_poly1305,
               sizeof wp_xchacha20_poly1305 / sizeof wp_xchacha20_poly1305[0], 1);
}
END_TEST

/* libsodium's ChaCha20-Poly1305 (IETF) of a random message and AAD: its
 * ciphertext into ct, its tag into want, the one-time key into otk. */
static void sodium_seal(uint8_t *ct, uint8_t want[16], uint8_t otk[32], const uint8_t *aad,
                        size_t alen, size_t clen, uint64_t *seed)
{
    uint8_t key[32], nonce[12];
    unsigned long long maclen;
    test_fill(key, 32, seed);
    test_fill(nonce, 12, seed);
    test_fill(bufs[1], clen, seed);
    ck_assert_int_eq(crypto_aead_chacha20poly1305_ietf_encrypt_detached(
                         ct, want, &maclen, bufs[1], clen, aad, alen, NULL, nonce, key),
                     0);
    one_time_key(otk, nonce, key);
}

/* Streams (aad, ct) in random pieces, empty ones among them; returns the tag. */
static void random_pieces(uint8_t tag[16], const uint8_t *aad, size_t alen, const uint8_t *ct,
                          size_t clen, const uint8_t otk[32], uint64_t *seed)
{
    polymac_aead_state st;
    ck_assert_int_eq(polymac_aead_init(&st, otk), 0);
    for (size_t off = 0; off < alen || test_rand(seed) % 4 == 0;) {
        size_t n = (size_t)(test_rand(seed) % 40);
        n = n > alen - off ? alen - off : n;
        ck_assert_int_eq(polymac_aead_update_aad(&st, aad + off, n), 0);
        off += n;
    }
    for (size_t off = 0; off < clen || test_rand(seed) % 4 == 0;) {
        size_t n = (size_t)(test_rand(seed) % 70);
        n = n > clen - off ? clen - off : n;
        ck_assert_int_eq(polymac_aead_update_ct(&st, ct + off, n), 0);
        off += n;
    }
    ck_assert_int_eq(polymac_aead_final(&st, tag), 0);
}

/* Random lengths 0..600 and a few of 64 KiB, at random misalignments:
 * one-shot, streaming in random pieces, a batch of one. */
START_TEST(sodium_random)
{
    uint64_t seed = 0x5eed0aeadULL;
    for (int i = 0; i < 400; i++) {
        size_t alen = (size_t)(test_rand(&seed) % 601), clen = (size_t)(test_rand(&seed) % 601);
        if (i % 100 == 7)
            clen = 65536 + (size_t)(test_rand(&seed) % 17);
        if (i % 100 == 8)
            alen = 65536 - (size_t)(test_rand(&seed) % 17);
        uint8_t *aad = bufs[0] + test_rand(&seed) % 64, *ct = bufs[2] + test_rand(&seed) % 64;
        uint8_t want[16], otk[32], tag[16];
        test_fill(aad, alen, &seed);
        sodium_seal(ct, want, otk, aad, alen, clen, &seed);
        check_all_paths(aad, alen, ct, clen, otk, want);
        random_pieces(tag, aad, alen, ct, clen, otk, &seed);
        ck_assert_msg(memcmp(tag, want, 16) == 0, "pieces, aad %zu ct %zu", alen, clen);
    }
}
END_TEST

/* The layouts around the paths' thresholds: AAD and ciphertext empty,
 * whole blocks or not, short (the radix-2^64 one-shot) and long (a
 * kernel's one-shot of spans, x86-avx512ifma's vector code from 20
 * blocks a span), both long, past the two-group loop; ciphertexts whose
 * padded block and lengths end the vector part's last group (x86-avx512ifma:
 * 496, 1008, 4080 with the lengths alone, 1200, 1420, 4100 with both;
 * 1024 and 16384 with the lengths, which leave a leading group of one
 * block; an AAD of one block, 1, 13 or 16 bytes, before any of these is
 * a vector product of its own); a
 * long span's last one to three blocks and the next span's first, which
 * x86-avx2 gathers into a group (the AAD's 1008 with the ciphertext, 1012
 * with its padded block; the ciphertext's 657, 680, 1008, 1200, 1208 with
 * none, all, or some of its tail's blocks); all paths. */
START_TEST(span_layouts)
{
    uint64_t seed = 0x5ba45ULL;
    static const size_t alens[] = {0,   1,   13,  16,  20,   100,  112, 319,
                                   320, 336, 513, 597, 1008, 1012, 4099};
    static const size_t clens[] = {0,   1,   15,  16,  32,   64,   96,   100,  304,  319,  320,
                                   336, 496, 657, 680, 1008, 1024, 1200, 1208, 1420, 4080, 4100,
                                   16384};
    for (size_t i = 0; i < sizeof alens / sizeof alens[0]; i++)
        for (size_t j = 0; j < sizeof clens / sizeof clens[0]; j++) {
            uint8_t *aad = bufs[0] + 1 + i, *ct = bufs[2] + j, want[16], otk[32];
            test_fill(aad, alens[i], &seed);
            sodium_seal(ct, want, otk, aad, alens[i], clens[j], &seed);
            check_all_paths(aad, alens[i], ct, clens[j], otk, want);
        }
}
END_TEST


/* Every split of the AAD and of the ciphertext into two pieces (an empty
 * piece between them), and one piece per byte, for lengths around the
 * block size. */
START_TEST(every_split)
{
    uint64_t seed = 0x5b117ULL;
    static const size_t lens[][2] = {{0, 0}, {0, 33}, {13, 0}, {16, 16}, {15, 17}, {31, 47},
                                     {40, 64}};
    for (size_t t = 0; t < sizeof lens / sizeof lens[0]; t++) {
        size_t alen = lens[t][0], clen = lens[t][1];
        uint8_t *aad = bufs[0] + 3, *ct = bufs[2] + 5, want[16], otk[32], tag[16];
        test_fill(aad, alen, &seed);
        sodium_seal(ct, want, otk, aad, alen, clen, &seed);
        for (size_t i = 0; i <= alen; i++) {
            for (size_t j = 0; j <= clen; j++) {
                polymac_aead_state st;
                ck_assert_int_eq(polymac_aead_init(&st, otk), 0);
                ck_assert_int_eq(polymac_aead_update_aad(&st, aad, i), 0);
                ck_assert_int_eq(polymac_aead_update_aad(&st, NULL, 0), 0);
                ck_assert_int_eq(polymac_aead_update_aad(&st, aad + i, alen - i), 0);
                ck_assert_int_eq(polymac_aead_update_ct(&st, ct, j), 0);
                ck_assert_int_eq(polymac_aead_update_ct(&st, NULL, 0), 0);
                ck_assert_int_eq(polymac_aead_update_ct(&st, ct + j, clen - j), 0);
                ck_assert_int_eq(polymac_aead_final_verify(&st, want), 0);
            }
        }
        polymac_aead_state st;
        ck_assert_int_eq(polymac_aead_init(&st, otk), 0);
        for (size_t i = 0; i < alen; i++)
            ck_assert_int_eq(polymac_aead_update_aad(&st, aad + i, 1), 0);
        for (size_t j = 0; j < clen; j++)
            ck_assert_int_eq(polymac_aead_update_ct(&st, ct + j, 1), 0);
        ck_assert_int_eq(polymac_aead_final(&st, tag), 0);
        ck_assert_tag_eq(tag, want);
    }
}
END_TEST

/* A live state copied with memcpy to another alignment, in each phase:
 * the copy and the original both continue to the right tag. */
START_TEST(copies)
{
    uint64_t seed = 0xc0b1e5ULL;
    static unsigned char room[2 * sizeof(polymac_aead_state) + 64];
    uint8_t *aad = bufs[0], *ct = bufs[2], want[16], otk[32], tag[16];
    test_fill(aad, 45, &seed);
    sodium_seal(ct, want, otk, aad, 45, 100, &seed);
    for (unsigned at = 0; at < 2; at++) {
        for (unsigned shift = 1; shift < 64; shift += 7) {
            polymac_aead_state st, *cp = (polymac_aead_state *)(void *)(room + shift);
            ck_assert_int_eq(polymac_aead_init(&st, otk), 0);
            ck_assert_int_eq(polymac_aead_update_aad(&st, aad, 21), 0);
            if (at)
                ck_assert_int_eq(polymac_aead_update_aad(&st, aad + 21, 24), 0);
            if (at)
                ck_assert_int_eq(polymac_aead_update_ct(&st, ct, 37), 0);
            memcpy(cp, &st, sizeof st);
            for (int k = 0; k < 2; k++) {
                polymac_aead_state *s = k ? cp : &st;
                if (!at)
                    ck_assert_int_eq(polymac_aead_update_aad(s, aad + 21, 24), 0);
                ck_assert_int_eq(polymac_aead_update_ct(s, ct + 37 * at, 100 - 37 * at), 0);
                ck_assert_int_eq(polymac_aead_final(s, tag), 0);
                ck_assert_tag_eq(tag, want);
            }
        }
    }
}
END_TEST

/* A batch of n <= 40 entries whose tags libsodium gave (want): every
 * tag of auth_batch want's, verify_batch accepts them all, and with one
 * wrong tag it flags that entry alone. */
static void check_batch(size_t n, const void *const aads[], const size_t alens[],
                        const void *const cts[], const size_t clens[],
                        const uint8_t *const keys[], uint8_t want[][16], uint64_t *seed,
                        int layout)
{
    uint8_t tagbuf[40][16], *tags[40];
    const uint8_t *ctags[40];
    int results[40];
    for (size_t i = 0; i < n; i++) {
        tags[i] = tagbuf[i];
        ctags[i] = want[i];
    }
    ck_assert_int_eq(polymac_aead_auth_batch(tags, aads, alens, cts, clens, keys, n), 0);
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(memcmp(tagbuf[i], want[i], 16) == 0,
                      "layout %d, batch of %zu: entry %zu (%zu + %zu)", layout, n, i, alens[i],
                      clens[i]);
    ck_assert_int_eq(polymac_aead_verify_batch(ctags, aads, alens, cts, clens, keys, n, results),
                     0);
    size_t bad = (size_t)(test_rand(seed) % n);
    want[bad][7] ^= 0x10;
    ck_assert_int_eq(polymac_aead_verify_batch(ctags, aads, alens, cts, clens, keys, n, results),
                     POLYMAC_EBADTAG);
    for (size_t i = 0; i < n; i++)
        ck_assert_int_eq(results[i], i == bad ? POLYMAC_EBADTAG : 0);
}

/* Batches of 1 to 40 entries of random lengths (a few of 64 KiB), each
 * its own key (check_batch). */
START_TEST(batches)
{
    enum { N = 40 };
    uint64_t seed = 0xba7c4ULL;
    uint8_t want[N][16], otk[N][32];
    const uint8_t *keys[N];
    const void *aads[N], *cts[N];
    size_t alens[N], clens[N];
    for (size_t n = 1; n <= N; n += 3) {
        size_t off = 0;
        for (size_t i = 0; i < n; i++) {
            alens[i] = (size_t)(test_rand(&seed) % 64);
            clens[i] = (size_t)(test_rand(&seed) % 1500);
            if (test_rand(&seed) % 50 == 0)
                clens[i] = 65536 + 3;
            uint8_t *a = bufs[0] + off, *c = bufs[2] + off;
            off += (alens[i] > clens[i] ? alens[i] : clens[i]) + 1;
            if (off + 2000 > 8 * MAXLEN)
                off = 0;
            test_fill(a, alens[i], &seed);
            sodium_seal(c, want[i], otk[i], a, alens[i], clens[i], &seed);
            aads[i] = alens[i] || i % 2 ? a : NULL;
            cts[i] = c;
            keys[i] = otk[i];
        }
        check_batch(n, aads, alens, cts, clens, keys, want, &seed, -1);
    }
}
END_TEST

/* Batches of 1 to 33 packets of one layout (QUIC-like, whole blocks
 * only) and of mixed ones (WireGuard-like, some with no whole block of
 * ciphertext; 2-8 KiB): every tag libsodium's, one wrong tag found. */
START_TEST(batch_layouts)
{
    enum { N = 33 };
    uint64_t seed = 0xba7c5ULL;
    uint8_t want[N][16], otk[N][32];
    const uint8_t *keys[N];
    const void *aads[N], *cts[N];
    size_t alens[N], clens[N];
    for (int v = 0; v < 7; v++)
        for (size_t n = 1; n <= N; n++) {
            for (size_t i = 0; i < n; i++) {
                static const size_t one[3][2] = {{20, 1200}, {0, 1024}, {13, 2064}};
                if (v < 3) {
                    alens[i] = one[v][0];
                    clens[i] = one[v][1];
                } else if (v == 6) {
                    /* 2-8 KiB, lanes of four-block steps */
                    alens[i] = i % 17;
                    clens[i] = 2064 + (i * 6129) / 32;
                } else if (v == 3) {
                    alens[i] = 0;
                    clens[i] = 64 + (i * 1356) / 32;
                } else if (v == 5) {
                    /* as many blocks each with the tail, split two ways:
                     * 76 whole and the lengths, or 75, a padded block
                     * and the lengths */
                    alens[i] = i % 3;
                    clens[i] = i % 2 ? 1216 : 1201 + i % 15;
                } else {
                    alens[i] = (size_t)(test_rand(&seed) % 40);
                    clens[i] = (size_t)(test_rand(&seed) % 2100);
                }
                uint8_t *a = bufs[0] + 64 * i, *c = bufs[2] + 8256 * i + i % 7;
                test_fill(a, alens[i], &seed);
                sodium_seal(c, want[i], otk[i], a, alens[i], clens[i], &seed);
                aads[i] = a;
                cts[i] = c;
                keys[i] = otk[i];
            }
            check_batch(n, aads, alens, cts, clens, keys, want, &seed, v);
        }
}
END_TEST

/* One flipped bit anywhere in the tag, the AAD or the ciphertext: verify,
 * final_verify and verify_batch all refuse. */
START_TEST(flipped_bits)
{
    uint64_t seed = 0xf11bULL;
    uint8_t *aad = bufs[0], *ct = bufs[2], want[16], otk[32];
    const size_t alen = 13, clen = 40;
    test_fill(aad, alen, &seed);
    sodium_seal(ct, want, otk, aad, alen, clen, &seed);
    uint8_t *fields[3] = {want, aad, ct};
    const size_t sizes[3] = {16, alen, clen};
    for (int f = 0; f < 3; f++) {
        for (size_t bit = 0; bit < 8 * sizes[f]; bit++) {
            fields[f][bit / 8] ^= (uint8_t)(1u << (bit % 8));
            polymac_aead_state st;
            int result;
            const uint8_t *t[1] = {want}, *k[1] = {otk};
            const void *a[1] = {aad}, *c[1] = {ct};
            ck_assert_int_eq(polymac_aead_verify(want, aad, alen, ct, clen, otk),
                             POLYMAC_EBADTAG);
            ck_assert_int_eq(polymac_aead_init(&st, otk), 0);
            ck_assert_int_eq(polymac_aead_update_aad(&st, aad, alen), 0);
            ck_assert_int_eq(polymac_aead_update_ct(&st, ct, clen), 0);
            ck_assert_int_eq(polymac_aead_final_verify(&st, want), POLYMAC_EBADTAG);
            ck_assert_int_eq(polymac_aead_verify_batch(t, a, &alen, c, &clen, k, 1, &result),
                             POLYMAC_EBADTAG);
            ck_assert_int_eq(result, POLYMAC_EBADTAG);
            fields[f][bit / 8] ^= (uint8_t)(1u << (bit % 8));
        }
    }
    ck_assert_int_eq(polymac_aead_verify(want, aad, alen, ct, clen, otk), 0);
}
END_TEST

/* Every documented error, and nothing written or changed when one is
 * returned. */
START_TEST(misuse)
{
    uint64_t seed = 0x3153ULL;
    uint8_t *aad = bufs[0], *ct = bufs[2], want[16], otk[32], tag[16], keep[16], t2_empty[16];
    polymac_aead_state st, before;
    test_fill(aad, 20, &seed);
    sodium_seal(ct, want, otk, aad, 20, 30, &seed);
    memset(tag, 0xa5, 16);
    memcpy(keep, tag, 16);

    /* one-shot */
    ck_assert_int_eq(polymac_aead_auth(NULL, aad, 20, ct, 30, otk), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_aead_auth(tag, NULL, 20, ct, 30, otk), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_aead_auth(tag, aad, 20, NULL, 30, otk), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_aead_auth(tag, aad, 20, ct, 30, NULL), POLYMAC_EINVAL);
    ck_assert_tag_eq(tag, keep);
    ck_assert_int_eq(polymac_aead_verify(NULL, aad, 20, ct, 30, otk), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_aead_verify(want, NULL, 20, ct, 30, otk), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_aead_verify(want, aad, 20, NULL, 30, otk), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_aead_verify(want, aad, 20, ct, 30, NULL), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_aead_auth(t2_empty, NULL, 0, NULL, 0, otk), 0);   /* NULL, 0 valid */

    /* streaming: NULLs, the state unchanged by each refusal */
    ck_assert_int_eq(polymac_aead_init(NULL, otk), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_aead_init(&st, NULL), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_aead_init(&st, otk), 0);
    ck_assert_int_eq(polymac_aead_update_aad(&st, aad, 7), 0);
    memcpy(&before, &st, sizeof st);
    ck_assert_int_eq(polymac_aead_update_aad(NULL, aad, 4), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_aead_update_aad(&st, NULL, 4), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_aead_update_ct(NULL, ct, 4), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_aead_update_ct(&st, NULL, 4), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_aead_final(NULL, tag), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_aead_final(&st, NULL), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_aead_final_verify(NULL, want), POLYMAC_EINVAL);
    ck_assert_mem_eq(&st, &before, sizeof st);
    ck_assert_tag_eq(tag, keep);

    /* AAD after ciphertext, even after an empty piece of it; the state
     * begun on zero bytes, so that after final every byte is zero again
     * (the library wipes what it wrote) */
    memset(&st, 0, sizeof st);
    ck_assert_int_eq(polymac_aead_init(&st, otk), 0);
    ck_assert_int_eq(polymac_aead_update_aad(&st, aad, 7), 0);
    ck_assert_int_eq(polymac_aead_update_aad(&st, aad + 7, 13), 0);
    ck_assert_int_eq(polymac_aead_update_ct(&st, ct, 0), 0);
    memcpy(&before, &st, sizeof st);
    ck_assert_int_eq(polymac_aead_update_aad(&st, aad, 1), POLYMAC_ESTATE);
    ck_assert_int_eq(polymac_aead_update_aad(&st, NULL, 0), POLYMAC_ESTATE);
    ck_assert_mem_eq(&st, &before, sizeof st);
    /* and on a copy at another alignment, which a live call would move
     * back into place: refused before anything moves */
    static unsigned char room[sizeof st + 64];
    /* at st + 1 mod 64 */
    polymac_aead_state *moved =
        (polymac_aead_state *)(void *)(room + (((uintptr_t)&st + 1 - (uintptr_t)room) & 63));
    memcpy(moved, &st, sizeof st);
    memcpy(&before, moved, sizeof st);
    ck_assert_int_eq(polymac_aead_update_aad(moved, aad, 1), POLYMAC_ESTATE);
    ck_assert_mem_eq(moved, &before, sizeof st);
    ck_assert_int_eq(polymac_aead_update_ct(&st, ct, 30), 0);
    ck_assert_int_eq(polymac_aead_final_verify(&st, want), 0);

    /* finished: every call refused, nothing written; the state all zero */
    static const unsigned char zero[POLYMAC_AEAD_STATEBYTES];
    ck_assert_mem_eq(&st, zero, sizeof st);
    ck_assert_int_eq(polymac_aead_update_aad(&st, aad, 1), POLYMAC_ESTATE);
    ck_assert_int_eq(polymac_aead_update_ct(&st, ct, 1), POLYMAC_ESTATE);
    ck_assert_int_eq(polymac_aead_final(&st, tag), POLYMAC_ESTATE);
    ck_assert_int_eq(polymac_aead_final_verify(&st, want), POLYMAC_ESTATE);
    ck_assert_tag_eq(tag, keep);
    ck_assert_mem_eq(&st, zero, sizeof st);

    /* final_verify with a NULL tag finishes the state */
    ck_assert_int_eq(polymac_aead_init(&st, otk), 0);
    ck_assert_int_eq(polymac_aead_final_verify(&st, NULL), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_aead_final(&st, tag), POLYMAC_ESTATE);

    /* forged: each byte of the AEAD's part changed (its magic, lengths,
     * check word, phase), and the header of the polymac_state inside */
    for (size_t at = POLYMAC_STATEBYTES; at < POLYMAC_STATEBYTES + 32; at++) {
        ck_assert_int_eq(polymac_aead_init(&st, otk), 0);
        ck_assert_int_eq(polymac_aead_update_aad(&st, aad, 20), 0);
        st.opaque[at] ^= 0x01;
        memcpy(&before, &st, sizeof st);
        int rc = polymac_aead_update_ct(&st, ct, 30);
        if (at >= POLYMAC_STATEBYTES + 8 && at < POLYMAC_STATEBYTES + 24) {
            /* a length: accepted, a wrong tag */
            ck_assert_int_eq(rc, 0);
            ck_assert_int_eq(polymac_aead_final_verify(&st, want), POLYMAC_EBADTAG);
            continue;
        }
        if (at >= POLYMAC_STATEBYTES + 29)
            continue;                          /* padding, unread */
        ck_assert_msg(rc == POLYMAC_ESTATE, "byte %zu changed: rc %d", at, rc);
        ck_assert_int_eq(polymac_aead_final(&st, tag), POLYMAC_ESTATE);
        ck_assert_mem_eq(&st, &before, sizeof st);
    }
    ck_assert_int_eq(polymac_aead_init(&st, otk), 0);
    st.opaque[0] ^= 0x7f;                     /* the inner state's offset */
    ck_assert_int_eq(polymac_aead_update_aad(&st, aad, 1), POLYMAC_ESTATE);
    ck_assert_int_eq(polymac_aead_final(&st, tag), POLYMAC_ESTATE);
    ck_assert_tag_eq(tag, keep);
    ck_assert_uint_eq(polymac_aead_statebytes(), sizeof(polymac_aead_state));
    ck_assert_uint_eq(polymac_aead_statebytes(), POLYMAC_AEAD_STATEBYTES);

    /* batch: NULL arrays, NULL entries, nothing written or computed */
    uint8_t *tags[2] = {tag, tag + 0};
    uint8_t t2[16];
    memset(t2, 0x5a, 16);
    tags[1] = t2;
    const uint8_t *ctags[2] = {want, want}, *keys[2] = {otk, otk};
    const void *aads[2] = {aad, aad}, *cts[2] = {ct, ct};
    size_t alens[2] = {20, 20}, clens[2] = {30, 30};
    int results[2] = {42, 42};
    ck_assert_int_eq(polymac_aead_auth_batch(NULL, NULL, NULL, NULL, NULL, NULL, 0), 0);
    ck_assert_int_eq(polymac_aead_verify_batch(NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL), 0);
    ck_assert_int_eq(polymac_aead_auth_batch(NULL, aads, alens, cts, clens, keys, 2), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_aead_auth_batch(tags, NULL, alens, cts, clens, keys, 2), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_aead_auth_batch(tags, aads, NULL, cts, clens, keys, 2), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_aead_auth_batch(tags, aads, alens, NULL, clens, keys, 2), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_aead_auth_batch(tags, aads, alens, cts, NULL, keys, 2), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_aead_auth_batch(tags, aads, alens, cts, clens, NULL, 2), POLYMAC_EINVAL);
    ck_assert_int_eq(polymac_aead_verify_batch(ctags, aads, alens, cts, clens, keys, 2, NULL),
                     POLYMAC_EINVAL);
    /* an entry NULL in each field in turn, the last entry of the batch */
    for (int f = 0; f < 4; f++) {
        const void *sa = aads[1], *sc = cts[1];
        const uint8_t *sk = keys[1];
        uint8_t *st2 = tags[1];
        const uint8_t *sct = ctags[1];
        if (f == 0) { tags[1] = NULL; ctags[1] = NULL; }
        if (f == 1) aads[1] = NULL;
        if (f == 2) cts[1] = NULL;
        if (f == 3) keys[1] = NULL;
        ck_assert_int_eq(polymac_aead_auth_batch(tags, aads, alens, cts, clens, keys, 2),
                         POLYMAC_EINVAL);
        ck_assert_int_eq(polymac_aead_verify_batch(ctags, aads, alens, cts, clens, keys, 2,
                                                   results), POLYMAC_EINVAL);
        aads[1] = sa; cts[1] = sc; keys[1] = sk; tags[1] = st2; ctags[1] = sct;
    }
    ck_assert_tag_eq(tag, keep);
    ck_assert_int_eq(t2[0], 0x5a);
    ck_assert_int_eq(results[0], 42);
    ck_assert_int_eq(results[1], 42);
    /* NULL with length 0 is valid in a batch */
    aads[1] = NULL;
    alens[1] = 0;
    ck_assert_int_eq(polymac_aead_auth_batch(tags, aads, alens, cts, clens, keys, 2), 0);
    ck_assert_tag_eq(tag, want);
}
END_TEST

/* A stream whose ciphertext passes 4 GiB (2^32 + 4113 bytes: 64 MiB
 * pieces, then a short one), with 4 GiB of AAD before it in the same
 * pieces: the 64-bit counters, on 32-bit targets too.  The reference is
 * libsodium's Poly1305 over the padded layout, streamed.  A long run of
 * its own (test name "aead over 4 GiB"). */
static int over_4gib(void)
{
    const size_t piece = (size_t)64 << 20;
    uint8_t *p = malloc(piece), otk[32], tag[16], ref[16], lens[16], zeros[16] = {0};
    if (!p) {
        printf("SKIP: over 4 GiB: 64 MiB could not be allocated\n");
        return TEST_SKIP;
    }
    uint64_t seed = 0x4619ULL, total = 0;
    int bad = 0;
    test_fill(p, piece, &seed);
    test_fill(otk, 32, &seed);
    crypto_onetimeauth_poly1305_state os;
    polymac_aead_state st;
    crypto_onetimeauth_poly1305_init(&os, otk);
    bad |= polymac_aead_init(&st, otk);
    const uint64_t alen = (uint64_t)1 << 32, clen = ((uint64_t)1 << 32) + 4113;
    for (total = 0; total < alen; total += piece) {
        crypto_onetimeauth_poly1305_update(&os, p, piece);
        bad |= polymac_aead_update_aad(&st, p, piece);
    }
    for (total = 0; total + piece <= clen; total += piece) {
        crypto_onetimeauth_poly1305_update(&os, p, piece);
        bad |= polymac_aead_update_ct(&st, p, piece);
    }
    size_t rest = (size_t)(clen - total);
    crypto_onetimeauth_poly1305_update(&os, p, rest);
    bad |= polymac_aead_update_ct(&st, p, rest);
    crypto_onetimeauth_poly1305_update(&os, zeros, (16 - rest % 16) % 16);
    for (int i = 0; i < 8; i++) {
        lens[i] = (uint8_t)(alen >> (8 * i));
        lens[8 + i] = (uint8_t)(clen >> (8 * i));
    }
    crypto_onetimeauth_poly1305_update(&os, lens, 16);
    crypto_onetimeauth_poly1305_final(&os, ref);
    bad |= polymac_aead_final(&st, tag);
    free(p);
    if (bad || memcmp(tag, ref, 16) != 0) {
        printf("FAIL: over 4 GiB: %s\n", bad ? "a call failed" : "wrong tag");
        return 1;
    }
    printf("over 4 GiB: AAD 2^32 bytes, ciphertext 2^32 + 4113, streamed with %zu-bit "
           "size_t: libsodium's tag\n", sizeof(size_t) * 8);
    return 0;
}

int main(int argc, char **argv)
{
    int longrun = argc > 2 && strcmp(argv[2], "--long") == 0;
    const char *k = test_select_kernel(argc, argv);
    if (longrun) {
        if (test_quick()) {
            printf("SKIP: over 4 GiB: quick mode (POLYMAC_TEST_QUICK) leaves out the 8 GiB "
                   "stream\n");
            return TEST_SKIP;
        }
        return over_4gib();
    }
    for (int i = 0; i < 4; i++) {
        if (!(bufs[i] = malloc(8 * MAXLEN))) {
            fprintf(stderr, "out of memory\n");
            return 1;
        }
    }
    Suite *s = suite_create(k);
    TCase *tc = tcase_create("aead");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, rfc8439);
    tcase_add_test(tc, wycheproof_chacha);
    tcase_add_test(tc, wycheproof_xchacha);
    tcase_add_test(tc, sodium_random);
    tcase_add_test(tc, every_split);
    tcase_add_test(tc, copies);
    tcase_add_test(tc, batches);
    tcase_add_test(tc, span_layouts);
    tcase_add_test(tc, batch_layouts);
    tcase_add_test(tc, flipped_bits);
    tcase_add_test(tc, misuse);
    suite_add_tcase(s, tc);
    int rc = test_run(s);
    for (int i = 0; i < 4; i++)
        free(bufs[i]);
    return rc;
}
