/* ab.c -- two builds of libpolymac timed against each other in one
 *         process: the before/after measurement of a change */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/*
 *   polymac-ab [--stream N | --stream-vs-auth N | --batch N | --seq N | --vs-loop N] [--verify] [--state-at OFF]
 *              [--msg-at OFF] [--backend NAME] OLD.so NEW.so SIZE...
 *
 * Loads both libraries, each in a link-map namespace of its own (they
 * share a soname), and times polymac_auth on messages of each SIZE (a new
 * key for every message, from a table of 64), or with --stream N the same
 * messages through init, updates of N bytes and final, or with --batch N
 * polymac_auth_batch on N messages of SIZE bytes (one after another in
 * the buffer, each with its own key; ticks are then per batch, a round
 * max(1, 64 / N) batches; a SIZE A,B,... gives the messages those
 * lengths in turn), or with --seq N the same messages through
 * polymac_auth one by one (the batch's sequential cost), or with
 * --vs-loop N both: OLD.so runs the messages through polymac_auth one
 * by one, NEW.so through polymac_auth_batch (give the same library twice:
 * old/new is then the batch's gain over the loop, timed in one process,
 * where two processes' minima differed by up to 10%); --verify makes
 * those three verify the messages' right tags instead (polymac_verify,
 * polymac_verify_batch).  Rounds alternate
 * which library goes first, so drift and another tenant's load hit both
 * alike; each round is 64 messages.  Prints, per size, the minimum and the
 * median over 801 rounds, in clock ticks per message (TSC cycles on x86,
 * nanoseconds elsewhere: test/ticks.h), and old / new for both (above 1:
 * the new build is faster).  --backend selects the kernel in both.
 * --state-at puts a stream's state at byte OFF (0..4095, a multiple of 8)
 * of a page (by default it is on the stack); --msg-at starts the messages
 * at byte OFF (0..4095) of a page (by default 0).  Both matter: a message
 * that is not 64-byte aligned makes every vector load of the IFMA kernel
 * span two cache lines, and the low twelve bits of two addresses decide
 * whether the core takes a load for a read of an earlier store (4K
 * aliasing).
 * --stream-vs-auth N, with the same library twice: old runs polymac_auth,
 * new the same messages in pieces of N bytes (old/new is then a stream's
 * speed against one-shot's, timed in one process).
 * --aead A times the AEAD tag instead (polymac_aead_auth of A bytes of
 * AAD and a ciphertext of SIZE bytes; with a batch mode polymac_aead_*
 * of packets with A bytes of AAD each, and --vs-loop then compares
 * polymac_aead_verify one by one with polymac_aead_verify_batch);
 * --aead-vs-auth A, with the same library twice: old runs polymac_auth of
 * the padded layout, new polymac_aead_auth (old/new above 1: the AEAD
 * tag costs less).
 * Whole `polymac bench` runs cannot show a few percent on a shared host;
 * this can (docs/performance.md).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE       /* dlmopen */
#endif
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polymac.h"
#include "../test/aead_layout.h"
#include "../test/ticks.h"

enum { KEYS = 64, ROUNDS = 801, MAXLEN = 1 << 20 };

struct lib {
    const char *path;
    int (*auth)(uint8_t *, const void *, size_t, const uint8_t *);
    int (*init)(polymac_state *, const uint8_t *);
    int (*update)(polymac_state *, const void *, size_t);
    int (*final)(polymac_state *, uint8_t *);
    int (*select)(const char *);
    int (*batch)(uint8_t *const *, const void *const *, const size_t *,
                 const uint8_t *const *, size_t);
    int (*verify)(const uint8_t *, const void *, size_t, const uint8_t *);
    int (*vbatch)(const uint8_t *const *, const void *const *, const size_t *,
                  const uint8_t *const *, size_t, int *);
    int (*aauth)(uint8_t *, const void *, size_t, const void *, size_t, const uint8_t *);
    int (*averify)(const uint8_t *, const void *, size_t, const void *, size_t,
                   const uint8_t *);
    int (*avbatch)(const uint8_t *const *, const void *const *, const size_t *,
                   const void *const *, const size_t *, const uint8_t *const *, size_t, int *);
};

static int load(struct lib *l)
{
    void *h = dlmopen(LM_ID_NEWLM, l->path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "polymac-ab: %s\n", dlerror());
        return -1;
    }
    *(void **)&l->auth = dlsym(h, "polymac_auth");
    *(void **)&l->init = dlsym(h, "polymac_init");
    *(void **)&l->update = dlsym(h, "polymac_update");
    *(void **)&l->final = dlsym(h, "polymac_final");
    *(void **)&l->select = dlsym(h, "polymac_backend_select");
    *(void **)&l->batch = dlsym(h, "polymac_auth_batch");
    *(void **)&l->verify = dlsym(h, "polymac_verify");
    *(void **)&l->vbatch = dlsym(h, "polymac_verify_batch");
    *(void **)&l->aauth = dlsym(h, "polymac_aead_auth");
    *(void **)&l->averify = dlsym(h, "polymac_aead_verify");
    *(void **)&l->avbatch = dlsym(h, "polymac_aead_verify_batch");
    if (!l->auth || !l->init || !l->update || !l->final || !l->select) {
        fprintf(stderr, "polymac-ab: %s is not libpolymac\n", l->path);
        return -1;
    }
    return 0;
}

static uint8_t keys[KEYS][32], tag[16];
static uint8_t *msg;
static size_t piece;
static int stream_vs_auth;        /* --stream-vs-auth: old runs polymac_auth */
static polymac_state *placed;     /* --state-at: the stream's state */
static size_t nbatch;             /* --batch, --seq: messages a batch */
static int seq;                   /* bit i: library i runs polymac_auth (--seq, --vs-loop) */
enum { BATCH_MAX = 256 };
static uint8_t btags[BATCH_MAX][16], *bt[BATCH_MAX];
static const void *bm[BATCH_MAX];
static const uint8_t *bk[BATCH_MAX];
static size_t bl[BATCH_MAX];
static int verify;                /* --verify */
static int bres[BATCH_MAX];
static long aead = -1;            /* --aead, --aead-vs-auth: the AAD's bytes */
static int aead_vs_auth;
static uint8_t aad[4096], *padded;
static size_t padlen;
static const void *ba[BATCH_MAX];
static size_t bal[BATCH_MAX];

/* ticks for KEYS messages of len bytes, or for the round's batches */
static uint64_t run(const struct lib *l, int which, size_t len)
{
    if (nbatch) {
        const size_t reps = nbatch < KEYS ? KEYS / nbatch : 1;
        uint64_t t0 = test_ticks();
        for (size_t r = 0; r < reps; r++) {
            if (aead >= 0 && seq >> which & 1)
                for (size_t i = 0; i < nbatch; i++)
                    l->averify(bt[i], ba[i], bal[i], bm[i], bl[i], bk[i]);
            else if (aead >= 0)
                l->avbatch((const uint8_t *const *)bt, ba, bal, bm, bl, bk, nbatch, bres);
            else if (verify && seq >> which & 1)
                for (size_t i = 0; i < nbatch; i++)
                    l->verify(bt[i], bm[i], bl[i], bk[i]);
            else if (verify)
                l->vbatch((const uint8_t *const *)bt, bm, bl, bk, nbatch, bres);
            else if (seq >> which & 1)
                for (size_t i = 0; i < nbatch; i++)
                    l->auth(bt[i], bm[i], bl[i], bk[i]);
            else
                l->batch(bt, bm, bl, bk, nbatch);
        }
        return test_ticks() - t0;
    }
    uint64_t t0 = test_ticks();
    for (int i = 0; i < KEYS; i++) {
        if (aead >= 0 && aead_vs_auth && which == 0) {
            l->auth(tag, padded, padlen, keys[i]);
            continue;
        }
        if (aead >= 0) {
            l->aauth(tag, aad, (size_t)aead, msg, len, keys[i]);
            continue;
        }
        if (!piece || (stream_vs_auth && which == 0)) {
            l->auth(tag, msg, len, keys[i]);
            continue;
        }
        polymac_state local, *st = placed ? placed : &local;
        l->init(st, keys[i]);
        for (size_t o = 0; o < len; o += piece)
            l->update(st, msg + o, len - o < piece ? len - o : piece);
        l->final(st, tag);
    }
    return test_ticks() - t0;
}

static int cmpu(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int usage(void)
{
    fprintf(stderr, "usage: polymac-ab [--stream N | --stream-vs-auth N | --batch N | --seq N | --vs-loop N] [--verify] "
                    "[--aead A | --aead-vs-auth A] "
                    "[--state-at OFF] "
                    "[--msg-at OFF] [--backend NAME] OLD.so NEW.so SIZE...\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *backend = NULL;
    long state_at = -1, msg_at = 0;
    int a = 1;
    for (; a < argc && !strncmp(argv[a], "--", 2); a += 2) {
        if (!strcmp(argv[a], "--verify")) {
            verify = 1;
            a--;                        /* no value */
            continue;
        }
        if (a + 1 >= argc)
            return usage();
        if (!strcmp(argv[a], "--stream") || !strcmp(argv[a], "--stream-vs-auth")) {
            piece = strtoul(argv[a + 1], NULL, 10);
            stream_vs_auth = !strcmp(argv[a], "--stream-vs-auth");
        }
        else if (!strcmp(argv[a], "--batch") || !strcmp(argv[a], "--seq") ||
                 !strcmp(argv[a], "--vs-loop")) {
            nbatch = strtoul(argv[a + 1], NULL, 10);
            seq = !strcmp(argv[a], "--seq") ? 3 : !strcmp(argv[a], "--vs-loop") ? 1 : 0;
        }
        else if (!strcmp(argv[a], "--aead") || !strcmp(argv[a], "--aead-vs-auth")) {
            aead = strtol(argv[a + 1], NULL, 10);
            aead_vs_auth = !strcmp(argv[a], "--aead-vs-auth");
        }
        else if (!strcmp(argv[a], "--backend"))
            backend = argv[a + 1];
        else if (!strcmp(argv[a], "--state-at"))
            state_at = strtol(argv[a + 1], NULL, 10);
        else if (!strcmp(argv[a], "--msg-at"))
            msg_at = strtol(argv[a + 1], NULL, 10);
        else
            return usage();
    }
    if (argc - a < 3)
        return usage();
    struct lib lib[2] = {{.path = argv[a]}, {.path = argv[a + 1]}};
    if (load(&lib[0]) || load(&lib[1]))
        return 1;
    for (int i = 0; i < 2; i++)
        if (backend && lib[i].select(backend) != 0) {
            fprintf(stderr, "polymac-ab: %s: no usable kernel %s\n", lib[i].path, backend);
            return 1;
        }
    if (state_at > 4095 || (state_at >= 0 && state_at % 8) || msg_at < 0 || msg_at > 4095 ||
        nbatch > BATCH_MAX || (nbatch && piece) || aead > (long)sizeof aad ||
        (aead >= 0 && (piece || (aead_vs_auth && nbatch))))
        return usage();
    if (aead >= 0 && (!lib[0].aauth || !lib[1].aauth)) {
        fprintf(stderr, "polymac-ab: --aead needs polymac_aead_auth in both builds\n");
        return 1;
    }
    if ((nbatch && (!lib[0].batch || !lib[1].batch)) || (verify && !nbatch) ||
        (verify && (!lib[0].vbatch || !lib[1].vbatch))) {
        fprintf(stderr, "polymac-ab: --batch needs polymac_auth_batch in both builds, "
                        "--verify a batch mode and polymac_verify_batch\n");
        return 1;
    }
    uint8_t *pages = aligned_alloc(4096, MAXLEN + 4096);
    padded = aligned_alloc(4096, MAXLEN + 8192);
    if (!pages || !padded)
        return 1;
    msg = pages + msg_at;
    if (state_at >= 0) {
        unsigned char *page = aligned_alloc(4096, 4096 + sizeof(polymac_state));
        if (!page)
            return 1;
        placed = (polymac_state *)(void *)(page + state_at);
    }
    srand(1);
    for (int i = 0; i < KEYS; i++)
        for (int j = 0; j < 32; j++)
            keys[i][j] = (uint8_t)rand();
    for (size_t i = 0; i < MAXLEN; i++)
        msg[i] = (uint8_t)rand();
    for (size_t i = 0; i < sizeof aad; i++)
        aad[i] = (uint8_t)rand();
    for (size_t i = 0; i < nbatch; i++) {
        bt[i] = btags[i];
        bk[i] = keys[i % KEYS];
        ba[i] = aad;
        bal[i] = aead >= 0 ? (size_t)aead : 0;
    }
    printf("ticks per %s (%s), old = %s, new = %s%s%s; messages at byte %ld of a page",
           nbatch ? "batch" : "message",
#ifdef POLYMAC_TEST_TSC
           "TSC cycles",
#else
           "ns",
#endif
           lib[0].path, lib[1].path,
           stream_vs_auth ? ", old: one-shot, new: streamed"
           : piece ? ", streamed"
           : nbatch ? (seq == 3   ? ", a batch's messages through polymac_auth"
                       : seq == 1 ? ", old: polymac_auth one by one, new: polymac_auth_batch"
                                  : ", polymac_auth_batch")
                    : ", one-shot",
           backend ? ", one kernel" : "", msg_at);
    if (aead >= 0)
        printf(aead_vs_auth ? ", old: polymac_auth of the padded layout, new: polymac_aead_auth "
                              "with %ld bytes of AAD"
                            : ", AEAD with %ld bytes of AAD",
               aead);
    if (piece)
        printf(state_at >= 0 ? ", state at byte %ld of a page" : ", state on the stack", state_at);
    if (verify)
        printf(", verifying the right tags (polymac_verify, polymac_verify_batch)");
    printf("\n");
    printf("%8s %10s %10s %10s %10s %9s %9s\n", "bytes", "old min", "new min", "old med",
           "new med", "old/new", "(median)");
    static uint64_t t[2][ROUNDS];
    for (int s = a + 2; s < argc; s++) {
        char *end;
        size_t len = strtoul(argv[s], &end, 10);
        if (end == argv[s] || len > MAXLEN || (*end && (*end != ',' || !nbatch)))
            return usage();
        /* a batch's lengths: SIZE, or a list A,B,... taken in turn */
        size_t off = 0, nl = 0, list[64];
        list[nl++] = len;
        while (*end == ',' && nl < 64) {
            const char *p = end + 1;
            list[nl++] = strtoul(p, &end, 10);
            if (end == p || list[nl - 1] > MAXLEN)
                return usage();
        }
        if (*end)
            return usage();
        for (size_t i = 0; i < nbatch; i++) {
            bl[i] = list[i % nl];
            bm[i] = msg + off;
            off += bl[i];
        }
        if (off > MAXLEN)
            return usage();
        if (aead >= 0 && nbatch)        /* AEAD batches verify the right tags */
            for (size_t i = 0; i < nbatch; i++)
                lib[0].aauth(bt[i], ba[i], bal[i], bm[i], bl[i], bk[i]);
        else if (verify)                /* the right tags, to be verified */
            for (size_t i = 0; i < nbatch; i++)
                lib[0].auth(bt[i], bm[i], bl[i], bk[i]);
        if (aead >= 0)                  /* the padded layout, for --aead-vs-auth */
            padlen = aead_layout(padded, aad, (size_t)aead, msg, len);
        run(&lib[0], 0, len);
        run(&lib[1], 1, len);
        for (int r = 0; r < ROUNDS; r++) {
            int first = r & 1;
            t[first][r] = run(&lib[first], first, len);
            t[!first][r] = run(&lib[!first], !first, len);
        }
        qsort(t[0], ROUNDS, sizeof t[0][0], cmpu);
        qsort(t[1], ROUNDS, sizeof t[1][0], cmpu);
        const double per = nbatch ? (double)(nbatch < KEYS ? KEYS / nbatch : 1) : KEYS;
        printf("%8s %10.1f %10.1f %10.1f %10.1f %9.3f %9.3f\n", argv[s], t[0][0] / per,
               t[1][0] / per, t[0][ROUNDS / 2] / per, t[1][ROUNDS / 2] / per,
               (double)t[0][0] / (double)t[1][0],
               (double)t[0][ROUNDS / 2] / (double)t[1][ROUNDS / 2]);
    }
    return 0;
}
