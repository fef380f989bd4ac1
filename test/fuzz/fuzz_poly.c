/* fuzz_poly.c -- differential fuzzing: every usable kernel, one-shot and
 *                streamed at fuzzer-chosen split points, against libsodium */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/* Input layout (short inputs are zero-padded):
 *   byte 0        kernel for the streamed run (index into the usable list)
 *   byte 1        low 3 bits: number of split points; bit 3: copy the state
 *                 to a misaligned place mid-message; bit 4: switch the
 *                 global backend mid-message (the state must not follow)
 *   bytes 2..15   7 split points, 16-bit little-endian, taken mod len+1
 *   bytes 16..47  the key
 *   bytes 48..    the message
 * Batch mode (every input): the pieces between the split points as the
 * entries of one polymac_auth_batch / polymac_verify_batch on every kernel.
 * AEAD mode (every input): the message up to the first split point as the
 * AAD, the rest as the ciphertext; polymac_aead_auth, _verify, a batch of
 * one, a batch of nine (the ciphertext shortened by head[8] bytes a packet,
 * each packet's key its own) and a stream cut at the other split points on
 * every kernel, against libsodium's Poly1305 of the padded layout the
 * harness builds.
 * Any difference from libsodium, or any verify that accepts a wrong tag or
 * refuses the right one, aborts: libFuzzer keeps the input as a crash.
 *
 * Built two ways (test/trust/meson.build): with clang -fsanitize=fuzzer
 * as the libFuzzer target fuzz_poly, and everywhere with a small main()
 * (POLYMAC_FUZZ_REPLAY) that replays the committed corpus as a test. */
#include <sodium.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polymac.h"
#include "../aead_layout.h"

#define HEADER 48

static const char *kernels[32];
static size_t nkernels;

static void die(const char *what, const char *kernel, size_t len)
{
    fprintf(stderr, "fuzz_poly: %s (kernel %s, message length %zu)\n", what, kernel, len);
    abort();
}

static void setup(void)
{
    if (sodium_init() < 0)
        abort();
    nkernels = polymac_backend_list(kernels, 32);
    if (nkernels == 0 || nkernels > 32)
        abort();
}

/* libsodium's Poly1305 of the AEAD layout of aad and ct under key */
static void aead_ref(uint8_t ref[16], const uint8_t *aad, size_t alen, const uint8_t *ct,
                     size_t clen, const uint8_t *key)
{
    uint8_t *padded = malloc(aead_layout_len(alen, clen));
    if (!padded)
        abort();
    crypto_onetimeauth_poly1305(ref, padded, aead_layout(padded, aad, alen, ct, clen), key);
    free(padded);
}

/* The AEAD batch of AEAD_BATCH packets, enough for a kernel's lanes:
 * packet i the AAD and the ciphertext's first clen - i step bytes (step
 * from head[8], 0: one length), its key the key with byte 0 xor i; every
 * tag libsodium's, and verify flags the one wrong tag alone (head[9..11]
 * pick it; bytes of the split points, read again). */
#define AEAD_BATCH 9
static void aead_batch(const uint8_t *aad, size_t alen, const uint8_t *ct, size_t clen,
                       const uint8_t *key, const uint8_t *head, const char *kernel)
{
    uint8_t keys[AEAD_BATCH][32], refs[AEAD_BATCH][16], tags[AEAD_BATCH][16];
    uint8_t *tp[AEAD_BATCH];
    const uint8_t *kp[AEAD_BATCH], *rp[AEAD_BATCH];
    const void *ap[AEAD_BATCH], *cp[AEAD_BATCH];
    size_t al[AEAD_BATCH], cl[AEAD_BATCH];
    int res[AEAD_BATCH];
    const size_t step = head[8];
    const unsigned wrong = head[9] % AEAD_BATCH;
    for (unsigned i = 0; i < AEAD_BATCH; i++) {
        memcpy(keys[i], key, 32);
        keys[i][0] ^= (uint8_t)i;
        cl[i] = clen > i * step ? clen - i * step : 0;
        al[i] = alen;
        ap[i] = aad;
        cp[i] = cl[i] ? ct : NULL;
        kp[i] = keys[i];
        tp[i] = tags[i];
        rp[i] = refs[i];
        aead_ref(refs[i], aad, alen, ct, cl[i], keys[i]);
    }
    if (polymac_aead_auth_batch(tp, ap, al, cp, cl, kp, AEAD_BATCH) != 0)
        die("AEAD batch of several failed", kernel, clen);
    for (unsigned i = 0; i < AEAD_BATCH; i++)
        if (memcmp(tags[i], refs[i], 16) != 0)
            die("AEAD batch of several: a tag differs from libsodium", kernel, cl[i]);
    refs[wrong][head[10] & 15] ^= (uint8_t)(1u << (head[11] & 7));
    if (polymac_aead_verify_batch(rp, ap, al, cp, cl, kp, AEAD_BATCH, res) != POLYMAC_EBADTAG)
        die("AEAD batch of several accepted a wrong tag", kernel, clen);
    for (unsigned i = 0; i < AEAD_BATCH; i++)
        if (res[i] != (i == wrong ? POLYMAC_EBADTAG : 0))
            die("AEAD batch of several: a wrong verdict", kernel, cl[i]);
}

/* AEAD mode: AAD msg[0..cuts[0]), ciphertext the rest (see above). */
static void aead_mode(const uint8_t *msg, size_t len, const uint8_t *key, const size_t cuts[],
                      unsigned ncuts, const uint8_t *head)
{
    const size_t alen = ncuts ? cuts[0] : 0, clen = len - alen;
    const uint8_t *aad = alen ? msg : NULL, *ct = clen ? msg + alen : NULL;
    uint8_t ref[16], tag[16], bad[16];
    aead_ref(ref, aad, alen, ct, clen, key);
    memcpy(bad, ref, 16);
    bad[head[6] & 15] ^= (uint8_t)(1u << (head[7] & 7));
    for (size_t k = 0; k < nkernels; k++) {
        polymac_aead_state st;
        uint8_t *tp[1] = {tag};
        const uint8_t *kp[1] = {key}, *bp[1] = {bad};
        const void *ap[1] = {aad}, *cp[1] = {ct};
        int res;
        if (polymac_backend_select(kernels[k]) != 0)
            die("a listed kernel cannot be selected", kernels[k], len);
        if (polymac_aead_auth(tag, aad, alen, ct, clen, key) != 0 || memcmp(tag, ref, 16) != 0)
            die("AEAD tag differs from libsodium", kernels[k], len);
        if (polymac_aead_verify(ref, aad, alen, ct, clen, key) != 0
            || polymac_aead_verify(bad, aad, alen, ct, clen, key) != POLYMAC_EBADTAG)
            die("AEAD verify wrong", kernels[k], len);
        memset(tag, 0, 16);
        if (polymac_aead_auth_batch(tp, ap, &alen, cp, &clen, kp, 1) != 0
            || memcmp(tag, ref, 16) != 0)
            die("AEAD batch tag differs from libsodium", kernels[k], len);
        if (polymac_aead_verify_batch(bp, ap, &alen, cp, &clen, kp, 1, &res) != POLYMAC_EBADTAG
            || res != POLYMAC_EBADTAG)
            die("AEAD batch verify accepted a wrong tag", kernels[k], len);
        aead_batch(aad, alen, ct, clen, key, head, kernels[k]);
        /* streamed: the AAD whole, the ciphertext cut at the other points */
        if (polymac_aead_init(&st, key) != 0 || polymac_aead_update_aad(&st, aad, alen) != 0)
            die("AEAD init or AAD failed", kernels[k], len);
        size_t at = alen;
        for (unsigned i = 1; i <= ncuts; i++) {
            size_t to = cuts[i] > at ? cuts[i] : at;
            if (polymac_aead_update_ct(&st, msg ? msg + at : NULL, to - at) != 0)
                die("AEAD update failed", kernels[k], len);
            at = to;
        }
        if (polymac_aead_update_ct(&st, msg ? msg + at : NULL, len - at) != 0
            || polymac_aead_final(&st, tag) != 0 || memcmp(tag, ref, 16) != 0)
            die("AEAD streamed tag differs from libsodium", kernels[k], len);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t head[HEADER] = {0};
    memcpy(head, data, size < HEADER ? size : HEADER);
    const uint8_t *key = head + 16;
    const uint8_t *msg = size > HEADER ? data + HEADER : NULL;
    size_t len = size > HEADER ? size - HEADER : 0;
    uint8_t ref[16], tag[16], bad[16];

    if (!nkernels)
        setup();
    crypto_onetimeauth_poly1305(ref, msg ? msg : (const uint8_t *)"", len, key);
    memcpy(bad, ref, 16);
    bad[head[2] & 15] ^= (uint8_t)(1u << (head[3] & 7));

    /* one-shot and verify on every kernel */
    for (size_t k = 0; k < nkernels; k++) {
        if (polymac_backend_select(kernels[k]) != 0)
            die("a listed kernel cannot be selected", kernels[k], len);
        if (polymac_auth(tag, msg, len, key) != 0 || memcmp(tag, ref, 16) != 0)
            die("one-shot tag differs from libsodium", kernels[k], len);
        if (polymac_verify(ref, msg, len, key) != 0)
            die("verify refused the right tag", kernels[k], len);
        if (polymac_verify(bad, msg, len, key) != POLYMAC_EBADTAG)
            die("verify accepted a wrong tag", kernels[k], len);
    }

    /* streamed on the chosen kernel, split where the input says */
    const char *kname = kernels[head[0] % nkernels];
    size_t cuts[8];
    unsigned ncuts = head[1] & 7;
    for (unsigned i = 0; i < ncuts; i++)
        cuts[i] = (size_t)(head[2 + 2 * i] | head[3 + 2 * i] << 8) % (len + 1);
    for (unsigned i = 1; i < ncuts; i++)           /* insertion sort */
        for (unsigned j = i; j > 0 && cuts[j - 1] > cuts[j]; j--) {
            size_t t = cuts[j];
            cuts[j] = cuts[j - 1];
            cuts[j - 1] = t;
        }
    cuts[ncuts] = len;
    static unsigned char area[sizeof(polymac_state) + 64];
    polymac_state st0, *st = &st0;
    if (polymac_backend_select(kname) != 0 || polymac_init(st, key) != 0)
        die("init failed", kname, len);
    size_t at = 0;
    for (unsigned i = 0; i <= ncuts; i++) {
        if (polymac_update(st, msg ? msg + at : NULL, cuts[i] - at) != 0)
            die("update failed", kname, len);
        at = cuts[i];
        if (i == 0 && (head[1] & 8)) {
            polymac_state *cp = (polymac_state *)(area + 1 + head[0] % 63);
            memcpy(cp, st, sizeof *st);
            st = cp;
        }
        if (i == 0 && (head[1] & 16))
            polymac_backend_select(kernels[(head[0] + 1u) % nkernels]);
    }
    if (head[1] & 32) {
        if (polymac_final_verify(st, ref) != 0)
            die("final_verify refused the right tag", kname, len);
    } else {
        if (polymac_final(st, tag) != 0 || memcmp(tag, ref, 16) != 0)
            die("streamed tag differs from libsodium", kname, len);
    }
    if (polymac_final(st, tag) != POLYMAC_ESTATE)
        die("a finished state was accepted", kname, len);

    /* batch mode: the pieces between the cut points as entries of one
     * batch (entry i's key is the key with bytes 0 and 31 xor i), tags
     * and verify results on every kernel, one tag flipped */
    {
        uint8_t bkeys[8][32], btags[8][16], bref[8][16];
        uint8_t *tp[8];
        const uint8_t *kp[8], *ctp[8];
        const void *mp[8];
        size_t lp[8], from = 0;
        int res[8];
        for (unsigned i = 0; i <= ncuts; i++) {
            memcpy(bkeys[i], key, 32);
            bkeys[i][0] ^= (uint8_t)i;
            bkeys[i][31] ^= (uint8_t)i;
            mp[i] = msg ? msg + from : NULL;
            lp[i] = cuts[i] - from;
            kp[i] = bkeys[i];
            tp[i] = btags[i];
            ctp[i] = btags[i];
            crypto_onetimeauth_poly1305(bref[i], lp[i] ? mp[i] : (const uint8_t *)"", lp[i],
                                        bkeys[i]);
            from = cuts[i];
        }
        for (size_t k = 0; k < nkernels; k++) {
            if (polymac_backend_select(kernels[k]) != 0
                || polymac_auth_batch(tp, mp, lp, kp, ncuts + 1) != 0)
                die("batch failed", kernels[k], len);
            for (unsigned i = 0; i <= ncuts; i++)
                if (memcmp(btags[i], bref[i], 16) != 0)
                    die("batch tag differs from libsodium", kernels[k], lp[i]);
            unsigned flip = head[4] % (ncuts + 1);
            btags[flip][head[5] & 15] ^= 1;
            if (polymac_verify_batch(ctp, mp, lp, kp, ncuts + 1, res) != POLYMAC_EBADTAG)
                die("batch verify accepted a wrong tag", kernels[k], len);
            for (unsigned i = 0; i <= ncuts; i++)
                if (res[i] != (i == flip ? POLYMAC_EBADTAG : 0))
                    die("batch verify result wrong", kernels[k], lp[i]);
        }
    }
    aead_mode(msg, len, key, cuts, ncuts, head);
    polymac_backend_select(NULL);
    return 0;
}

#ifdef POLYMAC_FUZZ_REPLAY
/* fuzz_replay FILE|DIR...: runs each input once; a finding aborts. */
#include <dirent.h>
#include <sys/stat.h>

static size_t replayed;

static void replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    static uint8_t buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    uint8_t *copy = malloc(n ? n : 1);      /* exact size: ASan sees over-reads */
    if (!copy)
        exit(1);
    memcpy(copy, buf, n);
    LLVMFuzzerTestOneInput(copy, n);
    free(copy);
    replayed++;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        struct stat sb;
        if (stat(argv[i], &sb) != 0) {
            perror(argv[i]);
            return 1;
        }
        if (!S_ISDIR(sb.st_mode)) {
            replay_file(argv[i]);
            continue;
        }
        DIR *d = opendir(argv[i]);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            if (e->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            replay_file(path);
        }
        if (d)
            closedir(d);
    }
    printf("replayed %zu inputs on %zu kernels: no difference from libsodium\n", replayed, nkernels);
    return replayed ? 0 : 1;
}
#endif
