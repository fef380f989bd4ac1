/* test_otherbuild.c -- a state begun by one build of the library and
 *                      continued by another build is refused */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/* argv[1] is this build's libpolymac.so, argv[2] a second build of the
 * same sources whose registry differs (test/trust/meson.build builds it with
 * the generic kernels only, as a -Dx86=disabled build has; in a build
 * that has only generic kernels, with the test kernel added).  Both are
 * loaded into one process, each in its own link-map namespace (dlmopen),
 * as two copies of the library can meet in one program (a static copy in
 * a plugin, the shared one in the host) or through shared memory.  A
 * state begun by either and handed to the other must give
 * POLYMAC_ESTATE, never a tag: a registry index means another kernel in
 * the other build (x86-avx512ifma is index 0 in one, generic-r64 in the
 * other), and its state layout another thing again. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* dlmopen */
#endif
#include <dlfcn.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>

#include "polymac.h"

struct lib {
    const char *path;
    int (*init)(polymac_state *, const uint8_t *);
    int (*update)(polymac_state *, const void *, size_t);
    int (*final)(polymac_state *, uint8_t *);
    size_t (*list)(const char **, size_t);
    int (*select)(const char *);
};

static int load(struct lib *l, const char *path)
{
    void *h = dlmopen(LM_ID_NEWLM, path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "dlmopen %s: %s\n", path, dlerror());
        return -1;
    }
    l->path = path;
    *(void **)&l->init = dlsym(h, "polymac_init");
    *(void **)&l->update = dlsym(h, "polymac_update");
    *(void **)&l->final = dlsym(h, "polymac_final");
    *(void **)&l->list = dlsym(h, "polymac_backend_list");
    *(void **)&l->select = dlsym(h, "polymac_backend_select");
    if (!l->init || !l->update || !l->final || !l->list || !l->select) {
        fprintf(stderr, "%s: missing symbols\n", path);
        return -1;
    }
    return 0;
}

static uint8_t msg[3000];
static const uint8_t key[32] = {
    0x85, 0xd6, 0xbe, 0x78, 0x57, 0x55, 0x6d, 0x33, 0x7f, 0x44, 0x52, 0xfe, 0x42, 0xd5, 0x06, 0xa8,
    0x01, 0x03, 0x80, 0x8a, 0xfb, 0x0d, 0xb2, 0xfd, 0x4a, 0xbf, 0xf6, 0xaf, 0x41, 0x49, 0xf5, 0x1b};

/* Every kernel of a, every split: b refuses a's state; a itself
 * continues it to the right tag.  Returns the number of failures. */
static int cross(const struct lib *a, const struct lib *b)
{
    const char *names[32];
    size_t n = a->list(names, 32);
    int fails = 0;
    uint8_t ref[16], tag[16];
    crypto_onetimeauth_poly1305(ref, msg, sizeof msg, key);
    for (size_t k = 0; k < n && k < 32; k++) {
        if (a->select(names[k]) != 0) {
            printf("FAIL: %s refuses its own kernel %s\n", a->path, names[k]);
            fails++;
            continue;
        }
        static const size_t splits[] = {0, 5, 16, 100, 1000, 2047};
        for (size_t i = 0; i < sizeof splits / sizeof *splits; i++) {
            polymac_state st, copy;
            size_t sp = splits[i];
            if (a->init(&st, key) != 0 || a->update(&st, msg, sp) != 0) {
                printf("FAIL: %s: init/update\n", a->path);
                fails++;
                continue;
            }
            memcpy(&copy, &st, sizeof st);
            int ru = b->update(&copy, msg + sp, sizeof msg - sp);
            int rf = b->final(&copy, tag);
            if (ru != POLYMAC_ESTATE || rf != POLYMAC_ESTATE) {
                printf("FAIL: state of kernel %s (split %zu) accepted by the other build: "
                       "update %d, final %d%s\n", names[k], sp, ru, rf,
                       rf == 0 && memcmp(tag, ref, 16) != 0 ? " with a wrong tag" : "");
                fails++;
            }
            /* the build that began it still finishes it, whatever the
             * other did to the bytes (it may have moved them) */
            memcpy(&copy, &st, sizeof st);
            if (a->update(&copy, msg + sp, sizeof msg - sp) != 0 || a->final(&copy, tag) != 0
                || memcmp(tag, ref, 16) != 0) {
                printf("FAIL: %s does not finish its own state (kernel %s)\n", a->path, names[k]);
                fails++;
            }
            a->final(&st, tag);
        }
    }
    a->select(NULL);
    printf("%s -> other build: %zu kernels checked\n", a->path, n);
    return fails;
}

int main(int argc, char **argv)
{
    struct lib one, two;
    if (argc < 3) {
        fprintf(stderr, "usage: %s LIB OTHER-BUILD-LIB\n", argv[0]);
        return 2;
    }
    if (sodium_init() < 0)
        return 1;
    for (size_t i = 0; i < sizeof msg; i++)
        msg[i] = (uint8_t)(i * 131 + 7);
    if (load(&one, argv[1]) || load(&two, argv[2]))
        return 1;
    int fails = cross(&one, &two) + cross(&two, &one);
    printf("%d failures\n", fails);
    return fails ? 1 : 0;
}
