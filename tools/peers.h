/* peers.h -- other Poly1305 libraries, called the way a careful user
 *            would, for polymac bench (not part of the library) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_PEERS_H
#define POLYMAC_PEERS_H

#include <stddef.h>
#include <stdint.h>

struct peer {
    const char *name;
    /* one-shot MAC, key setup included; returns 0 on success */
    int (*auth)(uint8_t tag[16], const uint8_t *msg, size_t len, const uint8_t key[32]);
};

/* Fills up to cap peers that initialised; returns the count. */
size_t peers_load(struct peer *out, size_t cap);

#endif
