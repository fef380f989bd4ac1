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
    for (size_t i = 0; i < MAXLEN; i++) {
        aad[i] = (uint8_t)(i * 5 + 3);
        ct[i] = (uint8_t)(i * 7 + 1);
    }
    for (unsigned i = 0; i < 32; i++)
        key[i] = (uint8_t)(i * 3 + 5);
    const size_t pa = (alen + 15) / 16 * 16, pc = (clen + 15) / 16 * 16;
    memcpy(padded, aad, alen);
    memcpy(padded + pa, ct, clen);
    for (unsigned b = 0; b < 8; b++) {
        padded[pa + pc + b] = (uint8_t)((uint64_t)alen >> (8 * b));
        padded[pa + pc + 8 + b] = (uint8_t)((uint64_t)clen >> (8 * b));
    }
    /* the dispatcher's choice made, before either is counted */
    polymac_auth(tag, padded, 16, key);
    insn_auth(pa + pc + 16);
    uint8_t want[16];
    memcpy(want, tag, 16);
    insn_aead(alen, clen);
    return memcmp(want, tag, 16) != 0;
}
