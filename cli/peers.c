/* peers.c -- libsodium, OpenSSL 3 (its default provider and libpolymac's),
 *            libgcrypt and Nettle Poly1305, one-shot and (but Nettle)
 *            streamed, for polymac bench, loaded at run time by soname */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peers.h"

/* No peer header is included here: the prototypes below are the peers'
 * stable ABI (their sonames pin it), and every peer must give the RFC 8439
 * tag before polymac bench times it, so a mismatch is caught, not timed. */

void *peer_open(struct peer *p)
{
    void *lib = dlopen(p->soname, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        snprintf(p->note, sizeof p->note, "%s", why ? why : "dlopen failed");
    }
    return lib;
}

int peer_sym(struct peer *p, void *lib, const char *name, void *slot, size_t size)
{
    dlerror();
    void *f = dlsym(lib, name);
    if (!f || size != sizeof f) {
        snprintf(p->note, sizeof p->note, "%s has no %s", p->soname, name);
        return -1;
    }
    memcpy(slot, &f, sizeof f);   /* object to function pointer, as POSIX allows */
    return 0;
}

/* ---- libsodium: crypto_onetimeauth_poly1305 ---- */

static int (*na_auth)(unsigned char *, const unsigned char *, unsigned long long,
                      const unsigned char *);

static int sodium_auth(uint8_t tag[16], const uint8_t *msg, size_t len, const uint8_t key[32])
{
    return na_auth(tag, msg, len, key);
}

/* crypto_onetimeauth_poly1305_init/update/final on a state of
 * crypto_onetimeauth_poly1305_statebytes() (256 in 1.0.18), checked to fit */
static struct {
    int (*init)(void *st, const unsigned char *key);
    int (*update)(void *st, const unsigned char *in, unsigned long long len);
    int (*final)(void *st, unsigned char *out);
} na;
static _Alignas(64) unsigned char na_state[512];

static int sodium_stream(uint8_t tag[16], const uint8_t *msg, size_t len, size_t piece,
                         const uint8_t key[32])
{
    if (na.init(na_state, key))
        return -1;
    for (size_t off = 0; off < len; off += piece)
        if (na.update(na_state, msg + off, len - off < piece ? len - off : piece))
            return -1;
    return na.final(na_state, tag) ? -1 : 0;
}

static void load_sodium(struct peer *p)
{
    int (*init)(void), (*has_sse2)(void);
    const char *(*version)(void);
    void *lib = peer_open(p);
    if (!lib || PEER_SYM(p, lib, init, "sodium_init")
        || PEER_SYM(p, lib, version, "sodium_version_string")
        || PEER_SYM(p, lib, na_auth, "crypto_onetimeauth_poly1305"))
        return;
    if (init() < 0) {
        snprintf(p->note, sizeof p->note, "sodium_init failed");
        return;
    }
    /* libsodium picks its SSE2 Poly1305 when the CPU has SSE2 (x86 only),
     * its portable poly1305-donna otherwise */
#if defined(__x86_64__) || defined(__i386__)
    int sse2 = 0;
    if (PEER_SYM(p, lib, has_sse2, "sodium_runtime_has_sse2") == 0)
        sse2 = has_sse2();
    snprintf(p->note, sizeof p->note, "%s; sodium_runtime_has_sse2()=%d: %s", version(),
             sse2, sse2 ? "SSE2 code" : "portable C (donna)");
#else
    (void)has_sse2;
    snprintf(p->note, sizeof p->note, "%s; portable C (donna)", version());
#endif
    p->auth = sodium_auth;
    size_t (*statebytes)(void);
    if (PEER_SYM(p, lib, statebytes, "crypto_onetimeauth_poly1305_statebytes") == 0
        && statebytes() <= sizeof na_state
        && PEER_SYM(p, lib, na.init, "crypto_onetimeauth_poly1305_init") == 0
        && PEER_SYM(p, lib, na.update, "crypto_onetimeauth_poly1305_update") == 0
        && PEER_SYM(p, lib, na.final, "crypto_onetimeauth_poly1305_final") == 0)
        p->stream = sodium_stream;
}

/* ---- OpenSSL 3: EVP_MAC fetched once, one reused context; per message
 * init with the key, update, final.  Two rows: the default provider, and
 * libpolymac's provider module (provider/) in a library context of its
 * own ---- */

struct evp {
    int (*init)(void *ctx, const unsigned char *key, size_t keylen, const void *params);
    int (*update)(void *ctx, const unsigned char *in, size_t len);
    int (*final)(void *ctx, unsigned char *out, size_t *outl, size_t outsize);
    void *ctx;
};
static struct evp ossl, ossl_pm;

static int evp_auth(const struct evp *e, uint8_t tag[16], const uint8_t *msg, size_t len,
                    const uint8_t key[32])
{
    size_t out = 0;
    if (!e->init(e->ctx, key, 32, NULL) || !e->update(e->ctx, msg, len)
        || !e->final(e->ctx, tag, &out, 16))
        return -1;
    return out == 16 ? 0 : -1;
}

static int openssl_auth(uint8_t tag[16], const uint8_t *msg, size_t len, const uint8_t key[32])
{
    return evp_auth(&ossl, tag, msg, len, key);
}

static int openssl_stream(uint8_t tag[16], const uint8_t *msg, size_t len, size_t piece,
                          const uint8_t key[32])
{
    size_t out = 0;
    if (!ossl.init(ossl.ctx, key, 32, NULL))
        return -1;
    for (size_t off = 0; off < len; off += piece)
        if (!ossl.update(ossl.ctx, msg + off, len - off < piece ? len - off : piece))
            return -1;
    return ossl.final(ossl.ctx, tag, &out, 16) && out == 16 ? 0 : -1;
}

static int openssl_polymac_auth(uint8_t tag[16], const uint8_t *msg, size_t len,
                                const uint8_t key[32])
{
    return evp_auth(&ossl_pm, tag, msg, len, key);
}

/* libcrypto's EVP_MAC calls into e, and a context of POLY1305 fetched
 * from libctx with props; 0 on success, else -1 with the reason in p->note */
static int evp_open(struct peer *p, void *lib, struct evp *e, void *libctx, const char *props)
{
    void *(*fetch)(void *libctx, const char *alg, const char *props);
    void *(*ctx_new)(void *mac);
    void (*mac_free)(void *mac);
    if (PEER_SYM(p, lib, fetch, "EVP_MAC_fetch") || PEER_SYM(p, lib, ctx_new, "EVP_MAC_CTX_new")
        || PEER_SYM(p, lib, mac_free, "EVP_MAC_free") || PEER_SYM(p, lib, e->init, "EVP_MAC_init")
        || PEER_SYM(p, lib, e->update, "EVP_MAC_update")
        || PEER_SYM(p, lib, e->final, "EVP_MAC_final"))
        return -1;
    void *mac = fetch(libctx, "POLY1305", props);
    if (!mac) {
        snprintf(p->note, sizeof p->note, "EVP_MAC_fetch(POLY1305, %s) failed", props ? props : "NULL");
        return -1;
    }
    e->ctx = ctx_new(mac);
    mac_free(mac);
    if (!e->ctx) {
        snprintf(p->note, sizeof p->note, "EVP_MAC_CTX_new failed");
        return -1;
    }
    return 0;
}

/* Which Poly1305 blocks routine OpenSSL's x86-64 code binds, from the
 * capability words it reports (OPENSSL_ia32cap, after any mask the user
 * set in that environment variable): words 1 and 2 of its vector are
 * CPUID(1).ECX and CPUID(7).EBX. */
static const char *openssl_x86_path(const char *cpuinfo)
{
#if defined(__x86_64__)
    const char *s = cpuinfo ? strstr(cpuinfo, "OPENSSL_ia32cap=") : NULL;
    char *end;
    if (!s)
        return "";
    unsigned long long lo = strtoull(s + 16, &end, 16), hi;
    if (*end != ':')
        return "";
    hi = strtoull(end + 1, NULL, 16);
    unsigned long w1 = (unsigned long)(lo >> 32), w2 = (unsigned long)(hi & 0xffffffffu);
    const unsigned long ifma = 1ul << 31 | 1ul << 21 | 1ul << 16;   /* VL, IFMA, F */
    if ((w2 & ifma) == ifma)
        return " -> AVX-512 IFMA (base 2^44) code";
    if (w2 & 1ul << 5)
        return w2 & 1ul << 16 ? " -> AVX2/AVX-512F vector code" : " -> AVX2 vector code";
    if (w1 & 1ul << 28)
        return " -> AVX vector code";
    return " -> scalar x86-64 code";
#else
    (void)cpuinfo;
    return "";
#endif
}

static void load_openssl(struct peer *p)
{
    const char *(*version)(int);
    void *lib = peer_open(p);
    if (!lib || PEER_SYM(p, lib, version, "OpenSSL_version") || evp_open(p, lib, &ossl, NULL, NULL))
        return;
    /* OPENSSL_VERSION is 0, OPENSSL_CPU_INFO 9 ("CPUINFO: ...") */
    const char *cpu = version(9);
    if (cpu && !strncmp(cpu, "CPUINFO: ", 9))
        cpu += 9;
    snprintf(p->note, sizeof p->note, "%s; %s%s", version(0), cpu ? cpu : "no CPUINFO",
             openssl_x86_path(cpu));
    p->auth = openssl_auth;
    p->stream = openssl_stream;
}

/* The provider module polymac.so, from libcrypto's module directory or
 * OPENSSL_MODULES (a build tree: OPENSSL_MODULES=build/provider). */
static void load_openssl_polymac(struct peer *p)
{
    void *(*libctx_new)(void);
    void *(*prov_load)(void *libctx, const char *name);
    const char *(*version)(int);
    void *lib = peer_open(p);
    if (!lib || PEER_SYM(p, lib, version, "OpenSSL_version")
        || PEER_SYM(p, lib, libctx_new, "OSSL_LIB_CTX_new")
        || PEER_SYM(p, lib, prov_load, "OSSL_PROVIDER_load"))
        return;
    void *libctx = libctx_new();
    if (!libctx || !prov_load(libctx, "polymac")) {
        const char *dir = getenv("OPENSSL_MODULES");
        snprintf(p->note, sizeof p->note,
                 "OSSL_PROVIDER_load(polymac) failed: no polymac.so in %s (set OPENSSL_MODULES "
                 "to its directory)", dir ? dir : "libcrypto's module directory");
        return;
    }
    if (evp_open(p, lib, &ossl_pm, libctx, "provider=polymac"))
        return;
    snprintf(p->note, sizeof p->note, "%s; EVP_MAC POLY1305 from the provider polymac "
             "(libpolymac's automatic kernel)", version(0));
    p->auth = openssl_polymac_auth;
    p->kernel = "auto";   /* the process's libpolymac: automatic selection */
}

/* ---- libgcrypt: one handle; per message reset, setkey, write, read ---- */

enum {                                   /* from gcrypt.h (libgcrypt.so.20) */
    GCRY_RESET = 4, GCRY_DISABLE_SECMEM = 37, GCRY_INITIALIZATION_FINISHED = 38,
    GCRY_PRINT_CONFIG = 53, GCRY_MAC_POLY1305_ALGO = 501,
};

static struct {
    unsigned (*ctl)(void *hd, int cmd, void *buf, size_t len);
    unsigned (*setkey)(void *hd, const void *key, size_t len);
    unsigned (*write)(void *hd, const void *buf, size_t len);
    unsigned (*read)(void *hd, void *buf, size_t *len);
    void *hd;
    int used;   /* gcry_mac_reset refuses a handle that never had a key */
} gc;

static int gcrypt_stream(uint8_t tag[16], const uint8_t *msg, size_t len, size_t piece,
                         const uint8_t key[32])
{
    size_t out = 16;
    if ((gc.used && gc.ctl(gc.hd, GCRY_RESET, NULL, 0)) || gc.setkey(gc.hd, key, 32))
        return -1;
    gc.used = 1;
    for (size_t off = 0; off < len; off += piece)
        if (gc.write(gc.hd, msg + off, len - off < piece ? len - off : piece))
            return -1;
    return gc.read(gc.hd, tag, &out) ? -1 : 0;
}

static int gcrypt_auth(uint8_t tag[16], const uint8_t *msg, size_t len, const uint8_t key[32])
{
    return gcrypt_stream(tag, msg, len, len ? len : 1, key);
}

/* The "hwflist:" line of libgcrypt's configuration report: the CPU
 * features its dispatch uses (since 1.10, intel-avx512 selects its AVX-512
 * Poly1305; without it, 64-bit C). */
static void gcrypt_hwflags(unsigned (*control)(int, ...), char *out, size_t cap)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    out[0] = 0;
    if (!f)
        return;
    control(GCRY_PRINT_CONFIG, f);
    fclose(f);
    const char *h = buf ? strstr(buf, "hwflist:") : NULL;
    if (h) {
        size_t len = strcspn(h + 8, "\n");
        snprintf(out, cap, "%.*s", (int)len, h + 8);
        if (len && out[strlen(out) - 1] == ':')
            out[strlen(out) - 1] = 0;
    }
    free(buf);
}

static void load_gcrypt(struct peer *p)
{
    const char *(*check_version)(const char *);
    unsigned (*control)(int, ...);
    unsigned (*mac_open)(void **hd, int algo, unsigned flags, void *ctx);
    void *lib = peer_open(p);
    if (!lib || PEER_SYM(p, lib, check_version, "gcry_check_version")
        || PEER_SYM(p, lib, control, "gcry_control")
        || PEER_SYM(p, lib, mac_open, "gcry_mac_open")
        || PEER_SYM(p, lib, gc.ctl, "gcry_mac_ctl")
        || PEER_SYM(p, lib, gc.setkey, "gcry_mac_setkey")
        || PEER_SYM(p, lib, gc.write, "gcry_mac_write")
        || PEER_SYM(p, lib, gc.read, "gcry_mac_read"))
        return;
    const char *v = check_version(NULL);
    if (!v) {
        snprintf(p->note, sizeof p->note, "gcry_check_version failed");
        return;
    }
    control(GCRY_DISABLE_SECMEM, 0);
    control(GCRY_INITIALIZATION_FINISHED, 0);
    if (mac_open(&gc.hd, GCRY_MAC_POLY1305_ALGO, 0, NULL) != 0) {
        snprintf(p->note, sizeof p->note, "gcry_mac_open(GCRY_MAC_POLY1305) failed");
        return;
    }
    char hw[256];
    gcrypt_hwflags(control, hw, sizeof hw);
    snprintf(p->note, sizeof p->note, "%s; hwflist %s", v, hw[0] ? hw : "(none reported)");
    p->auth = gcrypt_auth;
    p->stream = gcrypt_stream;
}

/* ---- Nettle: its public API offers Poly1305-AES only; its plain
 * Poly1305 block functions are exported under its internal symbol
 * version.  The context is opaque here: a buffer larger than Nettle's
 * struct poly1305_ctx (56 bytes in 3.8). ---- */

union nettle_ctx {
    uint64_t align[32];
    unsigned char b[256];
};
union nettle_b16 {
    uint8_t b[16];
    uint64_t u64[2];
};

static struct {
    void (*set_key)(union nettle_ctx *, const uint8_t key[16]);
    void (*block)(union nettle_ctx *, const uint8_t *m, unsigned high);
    void (*digest)(union nettle_ctx *, union nettle_b16 *s);
} nt;

static int nettle_auth(uint8_t tag[16], const uint8_t *msg, size_t len, const uint8_t key[32])
{
    union nettle_ctx ctx;
    union nettle_b16 s;
    nt.set_key(&ctx, key);
    for (; len >= 16; len -= 16, msg += 16)
        nt.block(&ctx, msg, 1);
    if (len) {
        uint8_t last[16] = {0};
        memcpy(last, msg, len);
        last[len] = 1;
        nt.block(&ctx, last, 0);
    }
    memcpy(s.b, key + 16, 16);
    nt.digest(&ctx, &s);
    memcpy(tag, s.b, 16);
    return 0;
}

static void load_nettle(struct peer *p)
{
    int (*major)(void), (*minor)(void);
    void *lib = peer_open(p);
    if (!lib || PEER_SYM(p, lib, nt.set_key, "_nettle_poly1305_set_key")
        || PEER_SYM(p, lib, nt.block, "_nettle_poly1305_block")
        || PEER_SYM(p, lib, nt.digest, "_nettle_poly1305_digest")
        || PEER_SYM(p, lib, major, "nettle_version_major")
        || PEER_SYM(p, lib, minor, "nettle_version_minor"))
        return;
    snprintf(p->note, sizeof p->note,
             "%d.%d; internal _nettle_poly1305_* block functions (the library "
             "reports no code path)", major(), minor());
    p->auth = nettle_auth;
}

/* The sonames of the peers whose layouts come from their headers: those
 * of the libraries the headers came with (cli/meson.build); without a
 * header the peer is not loaded, and the name only says which. */
#ifndef IPSECMB_SONAME
#define IPSECMB_SONAME "libIPSec_MB.so"
#endif
#ifndef WOLFSSL_SONAME
#define WOLFSSL_SONAME "libwolfssl.so"
#endif

size_t peers_load(struct peer *out, size_t cap)
{
    static const struct {
        const char *name, *soname;
        void (*load)(struct peer *);
    } known[] = {
        {"libsodium", "libsodium.so.23", load_sodium},
        {"openssl", "libcrypto.so.3", load_openssl},
        {"openssl+polymac", "libcrypto.so.3", load_openssl_polymac},
        {"libgcrypt", "libgcrypt.so.20", load_gcrypt},
        {"nettle", "libnettle.so.8", load_nettle},
        {"intel-ipsec-mb", IPSECMB_SONAME, peer_load_ipsecmb},
        {"wolfssl", WOLFSSL_SONAME, peer_load_wolfssl},
    };
    size_t n = 0;
    for (size_t i = 0; i < sizeof known / sizeof known[0] && n < cap; i++, n++) {
        out[n] = (struct peer){known[i].name, known[i].soname, NULL, NULL, NULL, ""};
        known[i].load(&out[n]);
        if (!out[n].auth && !out[n].note[0])
            snprintf(out[n].note, sizeof out[n].note, "not loaded");
    }
    return n;
}
