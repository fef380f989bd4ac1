/* peers.h -- other Poly1305 libraries, loaded at run time with dlopen and
 *            called the way a careful user would, for polymac bench (not
 *            part of the library) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_PEERS_H
#define POLYMAC_PEERS_H

#include <stddef.h>
#include <stdint.h>

/* One-shot MAC, key setup included; returns 0 on success. */
typedef int (*peer_auth_fn)(uint8_t tag[16], const uint8_t *msg, size_t len,
                            const uint8_t key[32]);

/* The same MAC through the peer's streaming calls, the message given in
 * pieces of piece bytes (the last one shorter); returns 0 on success. */
typedef int (*peer_stream_fn)(uint8_t tag[16], const uint8_t *msg, size_t len, size_t piece,
                              const uint8_t key[32]);

struct peer {
    const char *name;      /* "libsodium", "openssl", ... */
    const char *soname;    /* what dlopen asks for */
    peer_auth_fn auth;     /* NULL: not loaded, see note */
    peer_stream_fn stream; /* NULL: no streaming calls (or not loaded) */
    /* the libpolymac kernel to select before timing it: "auto" for a peer
     * that computes through libpolymac (openssl+polymac), else NULL */
    const char *kernel;
    /* loaded: version and code path as the library reports them;
     * not loaded: why (dlerror, a missing symbol, a failed set-up) */
    char note[384];
};

/* Tries every known peer, in a fixed order, and fills up to cap entries
 * (loaded or not, each with its note); returns the count.  The tool links
 * none of them: each is found by soname at run time. */
size_t peers_load(struct peer *out, size_t cap);

/* ---- for the peer files only ---- */

/* dlopen(soname) or NULL with the reason in p->note. */
void *peer_open(struct peer *p);
/* dlsym(lib, name) stored into the function pointer at slot (size bytes);
 * 0 on success, else -1 with the missing name in p->note. */
int peer_sym(struct peer *p, void *lib, const char *name, void *slot, size_t size);
#define PEER_SYM(p, lib, fn, name) peer_sym((p), (lib), (name), &(fn), sizeof(fn))

/* Each fills p (name, soname, and auth or the reason in note). */
void peer_load_ipsecmb(struct peer *p);   /* peer_ipsecmb.c */
void peer_load_wolfssl(struct peer *p);   /* peer_wolfssl.c */

#endif
