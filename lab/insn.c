/* insn.c -- the program lab/insn-count steps through under gdb: one
 *           polymac_auth of the AEAD's padded layout and one
 *           polymac_aead_auth of the same (AAD, ciphertext), each from a
 *           function of its own (build/lab/polymac-insn AAD CT) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polymac.h"
#include "../test/aead_layout.h"
#include "../test/rand.h"

enum { MAXLEN = 65536 };
static uint8_t aad[MAXLEN], ct[MAXLEN], padded[2 * MAXLEN + 32], key[32], tag[16];

/* the functions gdb counts from: noinline, and called once each */
__attribute__((noinline)) void insn_auth(size_t plen)
{
    polymac_auth(tag, padded, plen, key);
}

__attribute__((noinline)) void insn_aead(size_t alen, size_t clen)
{
    polymac_aead_auth(tag, aad, alen, ct, clen, key);
}

int main(int argc, char **argv)
{
    const size_t alen = argc > 1 ? strtoul(argv[1], NULL, 0) : 13;
    const size_t clen = argc > 2 ? strtoul(argv[2], NULL, 0) : 1024;
    if (alen > MAXLEN || clen > MAXLEN) {
        fprintf(stderr, "polymac-insn: lengths up to %d\n", MAXLEN);
        return 2;
    }
    uint64_t seed = 0x1a5e7ULL;
    test_fill(aad, alen, &seed);
    test_fill(ct, clen, &seed);
    test_fill(key, sizeof key, &seed);
    const size_t plen = aead_layout(padded, aad, alen, ct, clen);
    /* the dispatcher's choice made, before either is counted */
    polymac_auth(tag, padded, 16, key);
    insn_auth(plen);
    uint8_t want[16];
    memcpy(want, tag, 16);
    insn_aead(alen, clen);
    return memcmp(want, tag, 16) != 0;
}
