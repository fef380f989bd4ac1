/* count_calls.c -- an LD_PRELOAD interposer that counts the calls into
 *                  libpolymac's streaming API, to prove which code computed
 *                  a tag (a symbol binding proves nothing: OpenSSL binds
 *                  every symbol of a provider module when it loads it) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/*
 * It defines polymac_init, polymac_update and polymac_final at libpolymac's
 * version node, so the provider module's references bind here; each call
 * is counted and passed on to libpolymac's own definition (looked up in the
 * libpolymac.so.1 already loaded: the provider module, dlopened locally,
 * brought it in, so RTLD_NEXT would not find it).  At exit each process
 * appends "libpolymac calls: init N update N final N" to the file named
 * by POLYMAC_CALLS_LOG (without it, prints that to stderr when N > 0).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include <polymac.h>

static unsigned long n_init, n_update, n_final;

static void *next(const char *name)
{
    void *lib = dlopen("libpolymac.so.1", RTLD_NOW | RTLD_NOLOAD);
    void *f = lib ? dlvsym(lib, name, "POLYMAC_1") : NULL;
    if (!f) {
        fprintf(stderr, "count_calls: no %s@POLYMAC_1 in a loaded libpolymac.so.1\n", name);
        abort();
    }
    return f;
}

__attribute__((visibility("default"))) int polymac_init(polymac_state *st, const uint8_t key[32])
{
    static int (*f)(polymac_state *, const uint8_t *);
    if (!f)
        *(void **)&f = next("polymac_init");
    n_init++;
    return f(st, key);
}

__attribute__((visibility("default"))) int polymac_update(polymac_state *st, const void *msg, size_t len)
{
    static int (*f)(polymac_state *, const void *, size_t);
    if (!f)
        *(void **)&f = next("polymac_update");
    n_update++;
    return f(st, msg, len);
}

__attribute__((visibility("default"))) int polymac_final(polymac_state *st, uint8_t tag[16])
{
    static int (*f)(polymac_state *, uint8_t *);
    if (!f)
        *(void **)&f = next("polymac_final");
    n_final++;
    return f(st, tag);
}

__attribute__((destructor)) static void report(void)
{
    const char *path = getenv("POLYMAC_CALLS_LOG");
    FILE *out = path ? fopen(path, "a") : NULL;
    if (!out && !n_init && !n_update && !n_final)
        return;
    fprintf(out ? out : stderr, "libpolymac calls: init %lu update %lu final %lu\n",
            n_init, n_update, n_final);
    if (out)
        fclose(out);
}
