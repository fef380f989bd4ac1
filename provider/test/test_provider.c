/* test_provider.c -- the polymac provider's EVP_MAC "POLY1305" against the
 *                    default provider's, call for call */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/*
 *   test_provider MODULEDIR               every scenario below, on both
 *                                         providers, compared
 *   test_provider MODULEDIR --contexts N  N contexts created, used and
 *                                         freed (the leak run, under ASan
 *                                         or valgrind)
 *
 * A scenario is a sequence of EVP_MAC calls; each call's return value,
 * output length, tag and OpenSSL error reason are recorded.  The default
 * provider runs each scenario in a child process, since some misuse
 * crashes it in OpenSSL releases before the fix of OpenSSL PR #31382
 * (update or final without a key).  Where the child dies, every call
 * before the fatal one must still agree, and the polymac provider must
 * refuse the fatal call with the error a fixed OpenSSL gives (the
 * scenario's `fatal` reason) instead.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/proverr.h>
#include <openssl/provider.h>

#include "../../test/rand.h"
#include "../../test/rfc8439.h"

#define MAX_STEPS 256

struct step {
    int rc;                /* the call's return value */
    int loose;             /* the reason differs between OpenSSL releases:
                              polymac's must only be an error */
    int reason;            /* ERR_GET_REASON of the last error, 0 for none */
    size_t outl;           /* what final reported */
    unsigned char tag[16];
};

struct trace {
    int n;
    struct step s[MAX_STEPS];
    int fd;                /* the child writes each step here as it is made */
};

/* record T RC: one call's outcome; the error queue is emptied */
static void record(struct trace *t, int rc, size_t outl, const unsigned char *tag)
{
    /* a failed EVP_MAC_final leaves *outl undefined in OpenSSL 3.0 */
    struct step st = {rc, 0, 0, rc > 0 ? outl : 0, {0}};
    unsigned long e = ERR_peek_last_error();
    if (e)
        st.reason = ERR_GET_REASON(e);
    ERR_clear_error();
    if (tag && rc > 0)
        memcpy(st.tag, tag, 16);
    if (t->n < MAX_STEPS)
        t->s[t->n++] = st;
    if (t->fd >= 0 && write(t->fd, &st, sizeof st) != (ssize_t)sizeof st)
        _exit(3);
}

static void rec_init(struct trace *t, EVP_MAC_CTX *c, const unsigned char *key, size_t keylen,
                     const OSSL_PARAM *params)
{
    record(t, EVP_MAC_init(c, key, keylen, params), 0, NULL);
}

static void rec_update(struct trace *t, EVP_MAC_CTX *c, const unsigned char *in, size_t len)
{
    record(t, EVP_MAC_update(c, in, len), 0, NULL);
}

static void rec_final(struct trace *t, EVP_MAC_CTX *c, size_t outsize)
{
    unsigned char tag[64];
    size_t outl = 0;
    memset(tag, 0xa5, sizeof tag);
    int rc = EVP_MAC_final(c, tag, &outl, outsize);
    record(t, rc, outl, tag);
}

/* ---- the scenarios ---- */

static unsigned char msg[8192], key2[32];

static void sc_rfc(struct trace *t, EVP_MAC *mac)
{
    EVP_MAC_CTX *c = EVP_MAC_CTX_new(mac);
    rec_init(t, c, rfc8439_key, 32, NULL);
    rec_update(t, c, (const unsigned char *)rfc8439_text, strlen(rfc8439_text));
    rec_final(t, c, 16);
    record(t, memcmp(t->s[t->n - 1].tag, rfc8439_tag, 16) == 0, 0, NULL);
    EVP_MAC_CTX_free(c);
}

/* the key as OSSL_MAC_PARAM_KEY: through set_params, and through init */
static void sc_key_param(struct trace *t, EVP_MAC *mac)
{
    EVP_MAC_CTX *c = EVP_MAC_CTX_new(mac);
    OSSL_PARAM p[2] = {OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_KEY, key2, 32),
                       OSSL_PARAM_construct_end()};
    record(t, EVP_MAC_CTX_set_params(c, p), 0, NULL);
    rec_init(t, c, NULL, 0, NULL);
    rec_update(t, c, msg, 1000);
    rec_final(t, c, 16);
    rec_init(t, c, NULL, 0, p);
    rec_update(t, c, msg, 1001);
    rec_final(t, c, 64);
    EVP_MAC_CTX_free(c);
}

/* one message in pieces of every small length and a few long ones */
static void sc_pieces(struct trace *t, EVP_MAC *mac)
{
    EVP_MAC_CTX *c = EVP_MAC_CTX_new(mac);
    for (size_t step = 1; step <= 67; step += 3) {
        rec_init(t, c, key2, 32, NULL);
        size_t off = 0;
        for (size_t k = 0; off < sizeof msg; k++) {
            size_t n = (step * (k + 1)) % 97;
            if (k % 11 == 0)
                n += 1000;
            if (n > sizeof msg - off)
                n = sizeof msg - off;
            if (EVP_MAC_update(c, msg + off, n) != 1)
                break;
            off += n;
        }
        record(t, off == sizeof msg, 0, NULL);
        rec_final(t, c, 16);
    }
    EVP_MAC_CTX_free(c);
}

/* dup of a live context: both go on with different data, the original
 * freed before the copy finishes */
static void sc_dup(struct trace *t, EVP_MAC *mac)
{
    for (size_t cut = 0; cut < 200; cut += 13) {
        EVP_MAC_CTX *c = EVP_MAC_CTX_new(mac);
        rec_init(t, c, key2, 32, NULL);
        rec_update(t, c, msg, cut);
        EVP_MAC_CTX *d = EVP_MAC_CTX_dup(c);
        record(t, d != NULL, 0, NULL);
        rec_update(t, c, msg + cut, 300);
        rec_final(t, c, 16);
        EVP_MAC_CTX_free(c);
        if (d) {
            rec_update(t, d, msg + cut + 1, 299);
            rec_update(t, d, msg, 5000);
            rec_final(t, d, 16);
            EVP_MAC_CTX_free(d);
        }
    }
}

/* reinit: a new key after final, init without a key before and after data */
static void sc_reinit(struct trace *t, EVP_MAC *mac)
{
    EVP_MAC_CTX *c = EVP_MAC_CTX_new(mac);
    rec_init(t, c, key2, 32, NULL);
    rec_update(t, c, msg, 77);
    rec_final(t, c, 16);
    rec_init(t, c, rfc8439_key, 32, NULL);   /* a new message, a new key */
    rec_update(t, c, (const unsigned char *)rfc8439_text, strlen(rfc8439_text));
    rec_final(t, c, 16);
    rec_init(t, c, NULL, 0, NULL);           /* after final: refused */
    rec_init(t, c, key2, 32, NULL);
    rec_init(t, c, NULL, 0, NULL);           /* nothing absorbed yet: fine */
    rec_update(t, c, msg, 0);
    rec_init(t, c, NULL, 0, NULL);           /* an empty update counts */
    rec_update(t, c, msg, 33);
    rec_init(t, c, NULL, 0, NULL);           /* after data: refused */
    rec_final(t, c, 16);
    rec_init(t, c, key2, 32, NULL);          /* empty message */
    rec_final(t, c, 16);
    EVP_MAC_CTX_free(c);
}

/* size: of the algorithm and of a context; the parameter lists */
static void sc_size(struct trace *t, EVP_MAC *mac)
{
    size_t size = 0;
    OSSL_PARAM p[2] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size),
                       OSSL_PARAM_construct_end()};
    record(t, EVP_MAC_get_params(mac, p), size, NULL);
    EVP_MAC_CTX *c = EVP_MAC_CTX_new(mac);
    record(t, 1, EVP_MAC_CTX_get_mac_size(c), NULL);
    rec_init(t, c, key2, 32, NULL);
    record(t, 1, EVP_MAC_CTX_get_mac_size(c), NULL);
    record(t, OSSL_PARAM_locate_const(EVP_MAC_gettable_params(mac), OSSL_MAC_PARAM_SIZE) != NULL,
           0, NULL);
    record(t, OSSL_PARAM_locate_const(EVP_MAC_settable_ctx_params(mac), OSSL_MAC_PARAM_KEY) != NULL,
           0, NULL);
    EVP_MAC_CTX_free(c);
}

/* wrong keys: lengths, a NULL key as parameter, a key of the wrong type;
 * the context keeps working with its previous key */
static void sc_bad_key(struct trace *t, EVP_MAC *mac)
{
    EVP_MAC_CTX *c = EVP_MAC_CTX_new(mac);
    rec_init(t, c, key2, 31, NULL);
    rec_init(t, c, key2, 33, NULL);
    rec_init(t, c, key2, 0, NULL);
    rec_init(t, c, key2, 64, NULL);
    OSSL_PARAM p[2] = {OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_KEY, NULL, 32),
                       OSSL_PARAM_construct_end()};
    record(t, EVP_MAC_CTX_set_params(c, p), 0, NULL);
    p[0] = OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_KEY, key2, 16);
    record(t, EVP_MAC_CTX_set_params(c, p), 0, NULL);
    /* a key of the wrong type: OpenSSL 3.0 refuses it with no error on
     * the queue, 3.5 takes its bytes (invalid key length for these 31) */
    p[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_KEY, (char *)"0123456789abcdef0123456789abcde", 0);
    record(t, EVP_MAC_CTX_set_params(c, p), 0, NULL);
    t->s[t->n - 1].loose = 1;
    rec_init(t, c, rfc8439_key, 32, NULL);
    rec_init(t, c, key2, 31, NULL);          /* refused; the RFC key stays */
    rec_update(t, c, (const unsigned char *)rfc8439_text, strlen(rfc8439_text));
    rec_final(t, c, 16);
    EVP_MAC_CTX_free(c);
}

/* outputs: NULL with and without a length (a size query, an error), too small */
static void sc_output(struct trace *t, EVP_MAC *mac)
{
    EVP_MAC_CTX *c = EVP_MAC_CTX_new(mac);
    size_t outl = 0;
    unsigned char tag[16];
    rec_init(t, c, key2, 32, NULL);
    rec_update(t, c, msg, 100);
    record(t, EVP_MAC_final(c, NULL, NULL, 16), 0, NULL);
    record(t, EVP_MAC_final(c, NULL, &outl, 16), outl, NULL);
    outl = 0;
    record(t, EVP_MAC_final(c, tag, &outl, 15), outl, NULL);
    record(t, EVP_MAC_final(c, tag, &outl, 0), outl, NULL);
    rec_final(t, c, 16);                     /* still the right tag */
    EVP_MAC_CTX_free(c);
}

static void sc_no_key_update(struct trace *t, EVP_MAC *mac)
{
    EVP_MAC_CTX *c = EVP_MAC_CTX_new(mac);
    rec_init(t, c, NULL, 0, NULL);
    rec_update(t, c, msg, 100);
    rec_final(t, c, 16);
    EVP_MAC_CTX_free(c);
}

static void sc_no_key_final(struct trace *t, EVP_MAC *mac)
{
    EVP_MAC_CTX *c = EVP_MAC_CTX_new(mac);
    rec_final(t, c, 16);
    rec_init(t, c, key2, 32, NULL);
    rec_final(t, c, 16);
    EVP_MAC_CTX_free(c);
}

/* a finished message taking more data, and a second final */
static void sc_after_final(struct trace *t, EVP_MAC *mac)
{
    EVP_MAC_CTX *c = EVP_MAC_CTX_new(mac);
    rec_init(t, c, key2, 32, NULL);
    rec_update(t, c, msg, 100);
    rec_final(t, c, 16);
    rec_update(t, c, msg, 1000);
    rec_final(t, c, 16);
    EVP_MAC_CTX_free(c);
}

/* fatal: the reason for the call that crashes unfixed OpenSSL releases
 * (PROV_R_*; 0: none may crash) */
static const struct {
    const char *name;
    void (*run)(struct trace *, EVP_MAC *);
    int fatal;
} scenarios[] = {
    {"RFC 8439 2.5.2", sc_rfc, 0},
    {"key as OSSL_MAC_PARAM_KEY", sc_key_param, 0},
    {"update in pieces", sc_pieces, 0},
    {"dup of a live context", sc_dup, 0},
    {"reinit", sc_reinit, 0},
    {"size", sc_size, 0},
    {"wrong key length or type", sc_bad_key, PROV_R_INVALID_KEY_LENGTH},   /* a NULL key */
    {"NULL or small output", sc_output, 0},
    {"update without a key", sc_no_key_update, PROV_R_NO_KEY_SET},
    {"final without a key", sc_no_key_final, PROV_R_NO_KEY_SET},
    /* OpenSSL's own code wipes its state at final and has no answer here;
     * libpolymac refuses a finished state */
    {"update and final after final", sc_after_final, ERR_R_INTERNAL_ERROR},
};

/* The default provider's trace, from a child; *signal_out is how it
 * died: its signal, minus its exit status, or 0 when it did not. */
static int run_default(EVP_MAC *mac, int i, struct trace *t, int *signal_out)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        /* a crash here is OpenSSL's, expected: no sanitizer report of it
         * (a sanitizer's handler would print one and exit), no core */
        signal(SIGSEGV, SIG_DFL);
        signal(SIGBUS, SIG_DFL);
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, STDERR_FILENO);
        close(fds[0]);
        struct trace *ct = calloc(1, sizeof *ct);
        ct->fd = fds[1];
        scenarios[i].run(ct, mac);
        _exit(0);
    }
    close(fds[1]);
    t->n = 0;
    t->fd = -1;
    while (t->n < MAX_STEPS
           && read(fds[0], &t->s[t->n], sizeof t->s[0]) == (ssize_t)sizeof t->s[0])
        t->n++;
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    /* died: by a signal, or by a sanitizer's exit after catching one */
    *signal_out = WIFSIGNALED(status) ? WTERMSIG(status)
                  : WIFEXITED(status) && WEXITSTATUS(status) != 0 ? -WEXITSTATUS(status) : 0;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

static int compare(void)
{
    EVP_MAC *def = EVP_MAC_fetch(NULL, "POLY1305", "provider=default");
    EVP_MAC *pm = EVP_MAC_fetch(NULL, "POLY1305", "provider=polymac");
    if (!def || !pm) {
        fprintf(stderr, "EVP_MAC_fetch failed: default %p, polymac %p\n", (void *)def, (void *)pm);
        ERR_print_errors_fp(stderr);
        return 1;
    }
    printf("fetched POLY1305 from %s and %s\n",
           OSSL_PROVIDER_get0_name(EVP_MAC_get0_provider(def)),
           OSSL_PROVIDER_get0_name(EVP_MAC_get0_provider(pm)));
    int failed = 0;
    static struct trace a, b;
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++) {
        int sig = 0, bad = 0;
        if (run_default(def, (int)i, &a, &sig) < 0)
            return 1;
        b.n = 0;
        b.fd = -1;
        scenarios[i].run(&b, pm);
        int n = a.n < b.n ? a.n : b.n;
        for (int k = 0; k < n; k++) {
            const struct step *x = &a.s[k], *y = &b.s[k];
            int reason_ok = x->reason == y->reason || (y->loose && y->rc <= 0 && y->reason);
            if (x->rc != y->rc || !reason_ok || x->outl != y->outl
                || memcmp(x->tag, y->tag, 16)) {
                printf("  %s: call %d differs: default rc %d reason %d outl %zu, "
                       "polymac rc %d reason %d outl %zu%s\n", scenarios[i].name, k + 1,
                       x->rc, x->reason, x->outl, y->rc, y->reason, y->outl,
                       memcmp(x->tag, y->tag, 16) ? ", tags differ" : "");
                bad = 1;
            }
        }
        if (sig) {
            /* the call the default provider died in: refused here */
            const struct step *y = a.n < b.n ? &b.s[a.n] : NULL;
            if (!y || y->rc > 0 || y->reason != ERR_GET_REASON(scenarios[i].fatal)) {
                printf("  %s: the default provider died (%s %d) at call %d; polymac %s "
                       "(rc %d, reason %d, want 0 and %d)\n", scenarios[i].name,
                       sig > 0 ? "signal" : "exit status", sig > 0 ? sig : -sig, a.n + 1,
                       y ? "did not refuse it with the expected error" : "made no such call",
                       y ? y->rc : -1, y ? y->reason : -1, ERR_GET_REASON(scenarios[i].fatal));
                bad = 1;
            } else {
                printf("  %s: the default provider died (%s %d) at call %d, "
                       "polymac refused it (error reason %d)\n", scenarios[i].name,
                       sig > 0 ? "signal" : "exit status", sig > 0 ? sig : -sig, a.n + 1,
                       y->reason);
            }
        } else if (a.n != b.n) {
            printf("  %s: %d calls with default, %d with polymac\n", scenarios[i].name, a.n, b.n);
            bad = 1;
        }
        printf("%s: %s (%d calls)\n", bad ? "FAIL" : "PASS", scenarios[i].name, b.n);
        failed += bad;
    }
    EVP_MAC_free(def);
    EVP_MAC_free(pm);
    return failed != 0;
}

/* N contexts, each keyed, fed, duplicated every other time, finished
 * and freed; the tags checked against the first context's */
static int contexts(long n)
{
    EVP_MAC *pm = EVP_MAC_fetch(NULL, "POLY1305", "provider=polymac");
    unsigned char want[16], tag[16];
    size_t outl;
    if (!pm)
        return 1;
    for (long i = 0; i < n; i++) {
        EVP_MAC_CTX *c = EVP_MAC_CTX_new(pm), *d = NULL;
        if (!c || !EVP_MAC_init(c, key2, 32, NULL) || !EVP_MAC_update(c, msg, 100))
            return fprintf(stderr, "context %ld failed\n", i), 1;
        if (i % 2) {
            d = EVP_MAC_CTX_dup(c);
            if (!d || !EVP_MAC_final(d, tag, &outl, 16) || memcmp(tag, want, 16))
                return fprintf(stderr, "dup %ld failed\n", i), 1;
        }
        if (!EVP_MAC_final(c, i ? tag : want, &outl, 16) || (i && memcmp(tag, want, 16)))
            return fprintf(stderr, "context %ld: wrong tag\n", i), 1;
        if (i % 3 == 0)   /* a context freed live */
            EVP_MAC_init(c, key2, 32, NULL), EVP_MAC_update(c, msg, 17);
        EVP_MAC_CTX_free(d);
        EVP_MAC_CTX_free(c);
    }
    EVP_MAC_free(pm);
    printf("%ld contexts created, used and freed\n", n);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_provider MODULEDIR [--contexts N]\n");
        return 2;
    }
    uint64_t seed = 0x9e3779b97f4a7c15u;
    test_fill(msg, sizeof msg, &seed);
    test_fill(key2, sizeof key2, &seed);
    OSSL_PROVIDER_set_default_search_path(NULL, argv[1]);
    OSSL_PROVIDER *pdef = OSSL_PROVIDER_load(NULL, "default");
    OSSL_PROVIDER *ppm = OSSL_PROVIDER_load(NULL, "polymac");
    if (!pdef || !ppm) {
        fprintf(stderr, "OSSL_PROVIDER_load failed (default %p, polymac %p from %s)\n",
                (void *)pdef, (void *)ppm, argv[1]);
        ERR_print_errors_fp(stderr);
        return 1;
    }
    int rc = argc > 3 && !strcmp(argv[2], "--contexts") ? contexts(atol(argv[3])) : compare();
    OSSL_PROVIDER_unload(ppm);
    OSSL_PROVIDER_unload(pdef);
    return rc;
}
