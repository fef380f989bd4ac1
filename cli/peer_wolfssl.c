/* peer_wolfssl.c -- wolfSSL's Poly1305 for polymac bench, loaded at run
 *                   time; its own file because its header clashes with
 *                   Nettle's, and the header gives the state's size */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include <stdio.h>
#include <string.h>

#include "peers.h"

#ifdef HAVE_WOLFSSL_H
/* Only the Poly1305 struct and the build configuration come from the
 * headers (options.h first, as wolfSSL requires); the functions come from
 * dlsym. */
#include <wolfssl/options.h>
#include <wolfssl/version.h>
#include <wolfssl/wolfcrypt/poly1305.h>

/* The code path wolfSSL's headers say the library was built with. */
#if defined(WOLFSSL_X86_64_BUILD) && defined(USE_INTEL_SPEEDUP)
#define WOLF_PATH "AVX/AVX2 assembly chosen at run time (USE_INTEL_SPEEDUP)"
#elif defined(WOLFSSL_ARMASM) && defined(__aarch64__)
#define WOLF_PATH "ARMv8 assembly (WOLFSSL_ARMASM)"
#elif defined(POLY130564)
#define WOLF_PATH "portable C, 64-bit limbs (POLY130564)"
#else
#define WOLF_PATH "portable C, 32-bit limbs (POLY130532)"
#endif

static struct {
    int (*setkey)(Poly1305 *, const byte *key, word32 len);
    int (*update)(Poly1305 *, const byte *m, word32 len);
    int (*final)(Poly1305 *, byte *tag);
} wf;

static int wolfssl_auth(uint8_t tag[16], const uint8_t *msg, size_t len, const uint8_t key[32])
{
    Poly1305 st;
    if (wf.setkey(&st, key, 32))
        return -1;
    while (len) {                       /* its lengths are 32-bit */
        word32 n = len > 0x40000000u ? 0x40000000u : (word32)len;
        if (wf.update(&st, msg, n))
            return -1;
        msg += n;
        len -= n;
    }
    return wf.final(&st, tag) ? -1 : 0;
}

static int wolfssl_stream(uint8_t tag[16], const uint8_t *msg, size_t len, size_t piece,
                          const uint8_t key[32])
{
    Poly1305 st;
    if (piece > 0x40000000u || wf.setkey(&st, key, 32))
        return -1;
    for (size_t off = 0; off < len; off += piece)
        if (wf.update(&st, msg + off, (word32)(len - off < piece ? len - off : piece)))
            return -1;
    return wf.final(&st, tag) ? -1 : 0;
}

void peer_load_wolfssl(struct peer *p)
{
    const char *(*version)(void);
    void *lib = peer_open(p);
    if (!lib || PEER_SYM(p, lib, wf.setkey, "wc_Poly1305SetKey")
        || PEER_SYM(p, lib, wf.update, "wc_Poly1305Update")
        || PEER_SYM(p, lib, wf.final, "wc_Poly1305Final")
        || PEER_SYM(p, lib, version, "wolfSSL_lib_version"))
        return;
    snprintf(p->note, sizeof p->note, "%s (header %s); %s, as its options.h says",
             version(), LIBWOLFSSL_VERSION_STRING, WOLF_PATH);
    p->auth = wolfssl_auth;
    p->stream = wolfssl_stream;
}

#else

void peer_load_wolfssl(struct peer *p)
{
    /* without the header this build does not know the state's size */
    snprintf(p->note, sizeof p->note,
             "%s was not found at configure time (a cross build never "
             "looks), so this polymac has no code for it", "wolfssl/wolfcrypt/poly1305.h");
}

#endif
