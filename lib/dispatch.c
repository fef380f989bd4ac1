/* dispatch.c -- the self-test, automatic selection and the
 *               POLYMAC_BACKEND override */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polymac.h"
#include "dispatch.h"
#include "core.h"
#include "selftest_kat.h"
#ifdef POLYMAC_HAVE_X86_TUNING
#include "x86/tuning.h"
#endif

_Atomic(const struct polymac_kernel *) polymac_active_kernel;

/* Self-test verdict per kernel: 0 not run, 1 passed, 2 failed. */
static _Atomic unsigned char verdict[POLYMAC_NKERNELS];

static int debug_on(void)
{
    const char *d = secure_getenv("POLYMAC_DEBUG");
    return d && strcmp(d, "1") == 0;
}

/*
 * The known answers (selftest_kat.h: computed by libsodium, rechecked by
 * test/trust/test_kat.c) through the paths users take: one-shot messages
 * whose block counts leave partial groups after full ones for every group
 * width, and streams of uneven pieces through the front end's init,
 * update and final, which reach the code that keeps a kernel's lanes
 * live between calls.  Under 10 KB hashed per kernel, once, for the
 * kernel selected (every usable kernel when they are listed).
 */
#ifdef POLYMAC_SELFTEST_FAIL_ALL
/* Built only into a test library (test/trust/meson.build): every kernel
 * fails, as in a miscompiled build.  No release build defines it. */
#define KAT_FLIP 1u
#else
#define KAT_FLIP 0u
#endif

static unsigned tag_diff(const uint8_t tag[16], const uint8_t want[16])
{
    unsigned diff = KAT_FLIP;
    for (int j = 0; j < 16; j++)
        diff |= tag[j] ^ want[j];
    return diff;
}

/* The batch lanes: the known answers they take (those of at most
 * max_len bytes, which is all the front end hands them) as batches of
 * 7 and 12, the answers in turn, so that a batch mixes lengths and a
 * length recurs. */
static unsigned selftest_lanes(const struct polymac_kernel *k)
{
    enum { NKAT = POLYMAC_KAT_ONESHOTS + POLYMAC_KAT_STREAMS };
    uint8_t ff[POLYMAC_KAT_MSG_MAX], sm[POLYMAC_KAT_STREAMS][POLYMAC_KAT_MSG_MAX];
    uint8_t ffkey[32], skey[POLYMAC_KAT_STREAMS][32], tags[12][16];
    uint8_t *out[12];
    const uint8_t *msgs[12], *keys[12];
    const uint8_t *want[12];
    size_t lens[12];
    unsigned use[NKAT], nuse = 0, diff = 0;
    memset(ff, 0xff, sizeof ff);
    memset(ffkey, 0xff, sizeof ffkey);
    for (unsigned i = 0; i < POLYMAC_KAT_STREAMS; i++) {
        polymac_kat_fill(skey[i], 32, polymac_kat_stream[i].key_seed);
        polymac_kat_fill(sm[i], polymac_kat_stream_len(i), polymac_kat_stream[i].msg_seed);
    }
    for (unsigned e = 0; e < NKAT; e++) {
        size_t len = e < POLYMAC_KAT_ONESHOTS ? polymac_kat_oneshot_len[e]
                                              : polymac_kat_stream_len(e - POLYMAC_KAT_ONESHOTS);
        if (len <= k->lanes->max_len)
            use[nuse++] = e;
    }
    if (!nuse)
        return 0;
    for (unsigned j = 0; j < 12; j++) {
        unsigned e = use[j % nuse], st = e - POLYMAC_KAT_ONESHOTS;
        out[j] = tags[j];
        msgs[j] = e < POLYMAC_KAT_ONESHOTS ? ff : sm[st];
        keys[j] = e < POLYMAC_KAT_ONESHOTS ? ffkey : skey[st];
        lens[j] = e < POLYMAC_KAT_ONESHOTS ? polymac_kat_oneshot_len[e]
                                           : polymac_kat_stream_len(st);
        want[j] = e < POLYMAC_KAT_ONESHOTS ? polymac_kat_oneshot_tag[e]
                                           : polymac_kat_stream_tag[st];
    }
    /* 7 and 12 entries: a kernel may run a small batch another way */
    for (unsigned nb = 7; nb <= 12; nb += 5) {
        k->lanes->run(out, msgs, lens, keys, nb);
        polymac_wipe_dead_stack(k);
        for (unsigned j = 0; j < nb; j++)
            diff |= tag_diff(tags[j], want[j]);
    }
    return diff;
}

static int selftest(const struct polymac_kernel *k)
{
    uint8_t msg[POLYMAC_KAT_MSG_MAX], key[32], tag[16];
    polymac_state st;
    unsigned diff = 0;

    memset(msg, 0xff, sizeof msg);
    memset(key, 0xff, sizeof key);
    for (unsigned i = 0; i < POLYMAC_KAT_ONESHOTS; i++) {
        polymac_auth_nocheck(k, tag, msg, polymac_kat_oneshot_len[i], key);
        diff |= tag_diff(tag, polymac_kat_oneshot_tag[i]);
    }
    for (unsigned i = 0; i < POLYMAC_KAT_STREAMS; i++) {
        const struct polymac_kat_stream *s = &polymac_kat_stream[i];
        size_t off = 0;
        polymac_kat_fill(key, sizeof key, s->key_seed);
        polymac_kat_fill(msg, polymac_kat_stream_len(i), s->msg_seed);
        polymac_init_nocheck(k, &st, key);
        for (unsigned j = 0; j < POLYMAC_KAT_PIECES_MAX && s->pieces[j]; j++) {
            if (polymac_update_nocheck(&st, msg + off, s->pieces[j]) != POLYMAC_OK)
                diff |= 1;
            off += s->pieces[j];
        }
        if (polymac_final_nocheck(&st, tag) != POLYMAC_OK)
            diff |= 1;
        diff |= tag_diff(tag, polymac_kat_stream_tag[i]);
    }
    if (k->lanes)
        diff |= selftest_lanes(k);
    return diff == 0;
}

/* Supported and correct on this CPU; runs the self-test once per kernel. */
static int usable(unsigned i)
{
    if (!polymac_kernel_supported(polymac_registry[i]))
        return 0;
    unsigned char v = atomic_load_explicit(&verdict[i], memory_order_acquire);
    if (v == 0) {
        v = selftest(polymac_registry[i]) ? 1 : 2;
        atomic_store_explicit(&verdict[i], v, memory_order_release);
        if (v == 2 && debug_on())
            fprintf(stderr, "polymac: kernel %s failed its self-test; skipped\n",
                    polymac_registry[i]->name);
    }
    return v == 1;
}

static const struct polymac_kernel *choose_auto(void)
{
    uint32_t cpu = polymac_cpu_bits();
    for (unsigned i = 0; i < polymac_registry_size; i++)
        if (!(polymac_registry[i]->cpu_avoid & cpu) && usable(i))
            return polymac_registry[i];
    /* a usable kernel the CPU should avoid beats none at all */
    for (unsigned i = 0; i < polymac_registry_size; i++)
        if (usable(i))
            return polymac_registry[i];
    /* every kernel failed its self-test (a miscompiled build): no MAC is
     * computed rather than a wrong one; the MAC calls return
     * POLYMAC_ENOKERNEL */
    return NULL;
}

/* 0, POLYMAC_EBACKEND or POLYMAC_EUNSUPPORTED; *out on success. */
static int find(const char *name, const struct polymac_kernel **out)
{
    for (unsigned i = 0; i < polymac_registry_size; i++) {
        if (strcmp(polymac_registry[i]->name, name) == 0) {
            if (!usable(i))
                return POLYMAC_EUNSUPPORTED;
            *out = polymac_registry[i];
            return 0;
        }
    }
    return POLYMAC_EBACKEND;
}

/* For the debug message: built in and supported, so refused by its self-test. */
static int supported_by_name(const char *name)
{
    for (unsigned i = 0; i < polymac_registry_size; i++)
        if (strcmp(polymac_registry[i]->name, name) == 0)
            return polymac_kernel_supported(polymac_registry[i]);
    return 0;
}

/* The CPU's tuning rows, before any kernel runs (the self-test) or is
 * published: the publication's release carries them to every reader. */
_Atomic uint32_t polymac_auth_cut = POLYMAC_AUTH_MIN;

static void choose_tuning(void)
{
#ifdef POLYMAC_HAVE_X86_TUNING
    polymac_x86_tuning_choose();
    atomic_store_explicit(&polymac_auth_cut,
                          polymac_x86_auth_cut(polymac_x86_tuning(), polymac_cpu_bits()),
                          memory_order_relaxed);
#endif
}

static const struct polymac_kernel *choose_initial(void)
{
    /* secure_getenv: a set-user-ID program ignores the override */
    const char *want = secure_getenv("POLYMAC_BACKEND");
    const struct polymac_kernel *k;
    if (want && *want && strcmp(want, "auto") != 0) {
        int rc = find(want, &k);
        if (rc == 0) {
            if (debug_on())
                fprintf(stderr, "polymac: active kernel %s (POLYMAC_BACKEND)\n", k->name);
            return k;
        }
        if (debug_on()) {
            /* print only a bounded, printable prefix of a hostile value */
            char shown[65];
            size_t n = 0;
            for (; want[n] && n < sizeof shown - 1; n++)
                shown[n] = (want[n] >= 0x20 && want[n] < 0x7f) ? want[n] : '?';
            shown[n] = 0;
            fprintf(stderr, "polymac: POLYMAC_BACKEND=%s%s ignored: %s; "
                    "using automatic selection\n", shown, want[n] ? "..." : "",
                    rc == POLYMAC_EBACKEND ? "no such kernel in this build"
                    : supported_by_name(want) ? "it failed its self-test"
                    : "this CPU does not support it");
        }
    }
    k = choose_auto();
    if (debug_on())
        fprintf(stderr, k ? "polymac: active kernel %s\n"
                : "polymac: no kernel passed its self-test%s; MAC calls fail\n",
                k ? k->name : "");
    return k;
}

const struct polymac_kernel *polymac_select_first(void)
{
    /* Racing threads compute the same answer; the first store wins and
     * later ones keep it (or a select's choice made meanwhile). */
    choose_tuning();
    const struct polymac_kernel *k = choose_initial();
    const struct polymac_kernel *expected = NULL;
    if (!atomic_compare_exchange_strong_explicit(&polymac_active_kernel, &expected, k,
                                                 memory_order_acq_rel,
                                                 memory_order_acquire))
        k = expected;
    return k;
}

/* Probe at load; correctness does not depend on it (static builds may drop
 * it, and the thread test builds without it to race through first use). */
#ifndef POLYMAC_NO_CONSTRUCTOR
__attribute__((constructor)) static void polymac_load(void)
{
    (void)polymac_active();
}
#endif

const char *polymac_backend_name(void)
{
    const struct polymac_kernel *k = polymac_active();
    return k ? k->name : "none";
}

size_t polymac_backend_list(const char **names, size_t cap)
{
    /* the order automatic selection prefers: kernels this CPU should avoid
     * (usable, but not chosen automatically) come after the rest */
    uint32_t cpu = polymac_cpu_bits();
    size_t n = 0;
    choose_tuning();
    /* first pass: kernels not avoided on this CPU; second: the avoided */
    for (int list_avoided = 0; list_avoided <= 1; list_avoided++)
        for (unsigned i = 0; i < polymac_registry_size; i++) {
            int avoided = (polymac_registry[i]->cpu_avoid & cpu) != 0;
            if (avoided != list_avoided || !usable(i))
                continue;
            if (names && n < cap)
                names[n] = polymac_registry[i]->name;
            n++;
        }
    return n;
}

int polymac_backend_select(const char *name)
{
    const struct polymac_kernel *k;
    choose_tuning();
    if (!name || !*name || strcmp(name, "auto") == 0) {
        k = choose_auto();
        if (!k)
            return POLYMAC_ENOKERNEL;
    } else {
        int rc = find(name, &k);
        if (rc)
            return rc;
    }
    atomic_store_explicit(&polymac_active_kernel, k, memory_order_release);
    return POLYMAC_OK;
}
