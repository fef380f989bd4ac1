/* polymac.c -- command-line tool: info, tag, verify, bench */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include "polymac.h"
#include "../test/aead_layout.h"
#include "cpu.h"
#include "peers.h"

#ifndef POLYMAC_BENCH_PEERS
/* built with -Dbench_peers=disabled: no peer code at all */
size_t peers_load(struct peer *out, size_t cap)
{
    (void)out;
    (void)cap;
    return 0;
}
#endif

static const char usage_info[] =
    "usage: polymac info\n"
    "\n"
    "Prints the library version, the CPU features it sees, the kernels usable\n"
    "here (best first), the active kernel and why it was chosen.\n";

static const char usage_tag[] =
    "usage: polymac tag (--key HEX64 | --key-file KEYFILE) [--] [FILE]\n"
    "\n"
    "Prints the Poly1305 tag (RFC 8439) of FILE, or of standard input when\n"
    "FILE is absent or -, as 32 hex digits.  Exits 0, or 2 on any error.\n"
    "\n"
    "Give exactly one of --key and --key-file, once.  A key file holds exactly\n"
    "32 raw bytes, or 64 hex digits and an optional newline.  --key-file -\n"
    "reads the key from standard input; the message is then a FILE.  -- ends\n"
    "the options, so that FILE may start with -.\n";

static const char usage_verify[] =
    "usage: polymac verify (--key HEX64 | --key-file KEYFILE) --tag HEX32 [--] [FILE]\n"
    "\n"
    "Checks a Poly1305 tag in constant time.  Exits 0 (and prints OK) when the\n"
    "tag matches, 1 when it does not, 2 on any error.  The key, --, FILE and\n"
    "--key-file - work as in polymac tag (see polymac tag --help); --tag is\n"
    "given once.\n";

static const char usage_bench[] =
    "usage: polymac bench [--quick] [--csv] [--stream] [--batch] [--aead] [--rounds N]\n"
    "                     [--sizes N,N,...]\n"
    "\n"
    "Times the one-shot MAC (a new key per message) of every usable kernel and\n"
    "of the peer libraries found at run time (libsodium, OpenSSL, libgcrypt,\n"
    "Nettle, intel-ipsec-mb, wolfSSL: loaded with dlopen by soname; one line\n"
    "each says which were found, their code path, or why not).  Medians of\n"
    "interleaved rounds, in MB/s and time-stamp-counter cycles per byte.\n"
    "  --quick     fewer, shorter rounds\n"
    "  --csv       comma-separated values on stdout; the peer lines go to\n"
    "              stderr, unless stderr is the same file (--csv >x 2>&1)\n"
    "  --stream    also polymac_update in pieces of 1024 and 13 bytes, and the\n"
    "              peers' streaming calls (all but Nettle and intel-ipsec-mb)\n"
    "  --batch     instead: batches of 8 x 64 B, 16 x 256 B, 32 x 64 B and IMIX\n"
    "              (48 of 64, 594, 1518 B, 7:4:1), each message with its own\n"
    "              key: polymac_auth_batch against polymac_auth one by one\n"
    "              and intel-ipsec-mb's job manager (active kernel only); then\n"
    "              AEAD packets, 16 x (20 B AAD, 1200 B) and 32 x (no AAD, 64 to\n"
    "              1420 B): polymac_aead_verify_batch against polymac_aead_verify\n"
    "  --aead      instead: the AEAD tag (polymac_aead_auth) of (AAD, ciphertext)\n"
    "              pairs against polymac_auth of the same padded bytes (active\n"
    "              kernel only); with --batch, --batch's tables\n"
    "  --rounds N  rounds per size, 1 to 63 (default 11, --quick 5)\n"
    "  --sizes L   message sizes in bytes, comma-separated: 1 to 16 sizes,\n"
    "              each from 1 to 1073741824 (2^30)\n"
    "--rounds and --sizes are given at most once.\n";

static const char usage[] =
    "usage: polymac info\n"
    "       polymac tag    (--key HEX64 | --key-file KEYFILE) [--] [FILE]\n"
    "       polymac verify (--key HEX64 | --key-file KEYFILE) --tag HEX32 [--] [FILE]\n"
    "       polymac bench  [--quick] [--csv] [--stream] [--batch] [--aead] [--rounds N]\n"
    "                      [--sizes N,N,...]\n"
    "       polymac COMMAND --help\n"
    "       polymac --help | --version\n"
    "\n"
    "tag prints the Poly1305 tag (RFC 8439) of FILE, or of standard input\n"
    "when no FILE is given.  verify exits 0 when the tag matches, 1 when it\n"
    "does not, 2 on any error.  A key file holds 32 raw bytes or 64 hex digits\n"
    "(and an optional newline); --key-file - reads it from standard input.\n"
    "bench compares the kernels, and the peer libraries it finds at run time.\n"
    "\n"
    "Exit status: 0 success (verify: the tag matches), 1 verify: the tag does\n"
    "not match, 2 bad usage or any error (including a failed write of the\n"
    "output).\n"
    "\n"
    "WARNING: a Poly1305 key is a one-time key.  Never authenticate two\n"
    "different messages with the same key: anyone who sees both tags can\n"
    "forge tags for other messages.\n"
    "\n"
    "POLYMAC_BACKEND=NAME chooses the kernel (see polymac info);\n"
    "POLYMAC_DEBUG=1 explains the choice on stderr.\n";

static int is_help(const char *a)
{
    return !strcmp(a, "--help") || !strcmp(a, "-h");
}

/* Prints a subcommand's help on stdout (exit status 0). */
static int help(const char *text)
{
    fputs(text, stdout);
    return 0;
}

/* "polymac: MESSAGE" on stderr; returns 2. */
__attribute__((format(printf, 1, 2)))
static int die(const char *fmt, ...)
{
    va_list ap;
    fputs("polymac: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 2;
}

/* "polymac: WHAT NAME: strerror(err)"; returns 2. */
static int die_errno(const char *what, const char *name, int err)
{
    fprintf(stderr, "polymac: %s %s: %s\n", what, name, strerror(err));
    return 2;
}

/* Parses exactly 2n hex digits into out; 0 on success. */
static int parse_hex(const char *s, uint8_t *out, size_t n)
{
    if (strlen(s) != 2 * n)
        return -1;
    for (size_t i = 0; i < 2 * n; i++) {
        char c = s[i];
        int v = (c >= '0' && c <= '9') ? c - '0'
              : (c >= 'a' && c <= 'f') ? c - 'a' + 10
              : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
        if (v < 0)
            return -1;
        if (i % 2 == 0)
            out[i / 2] = (uint8_t)(v << 4);
        else
            out[i / 2] |= (uint8_t)v;
    }
    return 0;
}

/* Clears key material with stores the compiler keeps. */
static void wipe(void *p, size_t n)
{
    volatile uint8_t *v = p;
    while (n--)
        *v++ = 0;
}

/* Parses a whole decimal number from lo to hi: digits only (no sign, space
 * or trailing byte), no overflow; 0 on success. */
static int parse_num(const char *s, unsigned long lo, unsigned long hi, unsigned long *out)
{
    char *end;
    if (*s < '0' || *s > '9')   /* strtoul would skip space and negate "-1" */
        return -1;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (*end || errno || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* Reads the key from a key file, or from standard input when path is -:
 * exactly 32 raw bytes, or 64 hex digits and an optional newline (LF or
 * CR LF), nothing else.  0 on success; the buffer is wiped either way. */
static int read_key_file(const char *path, uint8_t key[32])
{
    char buf[67];               /* one byte more than the longest key file */
    int from_stdin = !strcmp(path, "-");
    const char *name = from_stdin ? "- (standard input)" : path;
    FILE *f = from_stdin ? stdin : fopen(path, "rb");
    if (!f)
        return die_errno("cannot open key file", path, errno);
    errno = 0;
    size_t n = fread(buf, 1, sizeof buf, f);
    int err = ferror(f) ? (errno ? errno : EIO) : 0;
    if (!from_stdin)
        fclose(f);
    size_t d = n;               /* the bytes before the optional newline */
    if (d && buf[d - 1] == '\n') {
        d--;
        if (d && buf[d - 1] == '\r')
            d--;
    }
    const char *why = NULL;
    if (!err) {
        if (n == 32) {
            memcpy(key, buf, 32);
        } else if (n == 0) {
            why = "is empty";
        } else if (n == sizeof buf) {
            why = "is too long";
        } else if (d != 64) {
            why = "has the wrong length";
        } else {
            buf[64] = 0;
            if (parse_hex(buf, key, 32))
                why = "holds a byte that is not a hex digit";
        }
    }
    wipe(buf, sizeof buf);
    if (err)
        return die_errno("cannot read key file", name, err);
    if (why) {
        wipe(key, 32);
        return die("key file %s %s: it must hold exactly 32 raw bytes, or 64 hex digits "
                   "and an optional newline", name, why);
    }
    return 0;
}

/* tag and verify.  Options and FILE in any order until --; the key is
 * read only once the whole command line is known to be good. */
static int cmd_mac(int argc, char **argv, int verify)
{
    uint8_t key[32], want[16], tag[16];
    const char *key_hex = NULL, *key_file = NULL, *tag_hex = NULL, *file = NULL;
    int options = 1;            /* 0 after --: every argument is a FILE */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char **value = NULL;
        if (options && !strcmp(a, "--")) {
            options = 0;
            continue;
        }
        if (options && is_help(a))
            return help(verify ? usage_verify : usage_tag);
        if (options && !strcmp(a, "--key"))
            value = &key_hex;
        else if (options && !strcmp(a, "--key-file"))
            value = &key_file;
        else if (options && verify && !strcmp(a, "--tag"))
            value = &tag_hex;
        if (value) {
            if (i + 1 == argc)
                return die("%s needs a value (see polymac %s --help)", a, argv[0]);
            if (*value)
                return die("%s given twice (see polymac %s --help)", a, argv[0]);
            if ((value == &key_hex && key_file) || (value == &key_file && key_hex))
                return die("--key and --key-file are alternatives: give one of them");
            *value = argv[++i];
        } else if (options && a[0] == '-' && a[1]) {
            return die("%s: unknown option %s (see polymac %s --help; -- ends the options)",
                       argv[0], a, argv[0]);
        } else if (!file) {
            file = a;
        } else {
            return die("more than one input file given: %s", a);
        }
    }
    if (!key_hex && !key_file)
        return die("a key is required: --key HEX64 or --key-file KEYFILE");
    if (verify && !tag_hex)
        return die("verify needs --tag HEX32");
    if (file && !strcmp(file, "-"))
        file = NULL;
    if (key_file && !strcmp(key_file, "-") && !file)
        return die("--key-file - reads the key from standard input, so the message "
                   "cannot come from there too: give it as FILE");
    if (verify && parse_hex(tag_hex, want, 16))
        return die("--tag needs 32 hex digits (a 16-byte tag)");
    if (key_hex && parse_hex(key_hex, key, 32)) {
        wipe(key, sizeof key);
        return die("--key needs 64 hex digits (a 32-byte key)");
    }
    if (key_file && read_key_file(key_file, key))
        return 2;

    FILE *in = stdin;
    if (file && !(in = fopen(file, "rb"))) {
        wipe(key, sizeof key);
        return die_errno("cannot open", file, errno);
    }
    polymac_state st;
    static uint8_t buf[1 << 16];
    size_t n;
    polymac_init(&st, key);
    wipe(key, sizeof key);      /* the state holds it now; final wipes that */
    errno = 0;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        polymac_update(&st, buf, n);
    /* a directory opens, then fails its first read with EISDIR */
    int err = ferror(in) ? (errno ? errno : EIO) : 0;
    if (in != stdin)
        fclose(in);
    if (err) {
        polymac_final(&st, tag);   /* wipes the state */
        return die_errno("cannot read", file ? file : "standard input", err);
    }
    if (verify) {
        if (polymac_final_verify(&st, want) != 0) {
            fprintf(stderr, "polymac: tag does not match\n");
            return 1;
        }
        printf("OK\n");
        return 0;
    }
    polymac_final(&st, tag);
    for (int i = 0; i < 16; i++)
        printf("%02x", tag[i]);
    printf("\n");
    return 0;
}

static int cmd_info(int argc, char **argv)
{
    if (argc > 1) {
        if (is_help(argv[1]))
            return help(usage_info);
        return die("info takes no argument: %s (see polymac info --help)", argv[1]);
    }
    char feats[256];
    const char *names[32];
    size_t n = polymac_backend_list(names, 32);
    const char *active = polymac_backend_name();
    const char *env = getenv("POLYMAC_BACKEND");

    polymac_cpu_describe(polymac_cpu_bits(), feats, sizeof feats);
    printf("libpolymac %s\n", polymac_version());
    printf("cpu features: %s\n", feats);
    printf("usable kernels (best first):");
    for (size_t i = 0; i < n && i < 32; i++)
        printf(" %s", names[i]);
    printf("\nactive kernel: %s\n", active);
    if (!env || !*env || !strcmp(env, "auto")) {
        printf("reason: automatic selection (best kernel this CPU supports)\n");
    } else if (!strcmp(env, active)) {
        printf("reason: POLYMAC_BACKEND=%s\n", env);
    } else {
        /* Ask the library why: it refuses the name with a reason code
         * (and if it now accepts it, as in a set-user-ID program where the
         * library ignored the variable, put the choice back). */
        int rc = polymac_backend_select(env);
        if (rc == 0)
            polymac_backend_select(active);
        printf("reason: automatic selection; POLYMAC_BACKEND=%s ignored: %s\n", env,
               rc == POLYMAC_EBACKEND ? "no such kernel in this build"
               : rc == POLYMAC_EUNSUPPORTED ? "this CPU does not support it (or it failed its self-test)"
               : "the program is set-user-ID");
    }
    return 0;
}

/* ---- bench ---- */

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static uint64_t ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#else
    return 0;
#endif
}

struct contender {
    char name[48];
    const char *kernel;        /* polymac kernel name, or NULL */
    int (*peer)(uint8_t *, const uint8_t *, size_t, const uint8_t *);
    peer_stream_fn pstream;    /* a peer's streaming calls, in pieces of stream */
    int stream;                /* > 0: polymac_update in pieces of this size */
    long iters;
    double mbps[64];
    double cpb[64];
};

static uint8_t sink;

/* Times one batch: iters messages of len bytes, each with its own key. */
static void run_batch(struct contender *c, const uint8_t *msg, size_t len,
                      const uint8_t keys[16][32], long iters, double *ns, uint64_t *tk)
{
    uint8_t tag[16];
    if (c->kernel)
        polymac_backend_select(c->kernel);
    double t0 = now_ns();
    uint64_t k0 = ticks();
    for (long i = 0; i < iters; i++) {
        const uint8_t *key = keys[i & 15];
        if (c->peer) {
            c->peer(tag, msg, len, key);
        } else if (c->pstream) {
            c->pstream(tag, msg, len, (size_t)c->stream, key);
        } else if (c->stream) {
            polymac_state st;
            polymac_init(&st, key);
            for (size_t off = 0; off < len; off += (size_t)c->stream)
                polymac_update(&st, msg + off,
                               len - off < (size_t)c->stream ? len - off : (size_t)c->stream);
            polymac_final(&st, tag);
        } else {
            polymac_auth(tag, msg, len, key);
        }
        sink ^= tag[0];
    }
    *tk = ticks() - k0;
    *ns = now_ns() - t0;
}

/* Whether two descriptors are the same open file (2>&1). */
static int same_file(int a, int b)
{
    struct stat sa, sb;
    return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev
           && sa.st_ino == sb.st_ino;
}

/* fprintf to f, or nothing when f is NULL. */
__attribute__((format(printf, 2, 3)))
static void note(FILE *f, const char *fmt, ...)
{
    va_list ap;
    if (!f)
        return;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- bench --batch ---- */

#ifdef POLYMAC_BENCH_PEERS
typedef int (*peer_batch_fn)(uint8_t *const tags[], const uint8_t *const msgs[],
                             const size_t lens[], const uint8_t *const keys[], size_t n);
extern peer_batch_fn peer_ipsecmb_batch;   /* peer_ipsecmb.c */
#else
static int (*peer_ipsecmb_batch)(uint8_t *const *, const uint8_t *const *, const size_t *,
                                 const uint8_t *const *, size_t);
#endif

/* The bench's inputs: bytes of a xorshift generator from state *x (the
 * same data every run, no tool needed beyond the library). */
static void bench_fill(uint8_t *p, size_t n, uint64_t *x)
{
    for (size_t i = 0; i < n; i++) {
        *x ^= *x << 13; *x ^= *x >> 7; *x ^= *x << 17;
        p[i] = (uint8_t)*x;
    }
}

/* One workload of polymac bench --batch: n messages, each with its own key. */
struct batch_work {
    const char *name;
    size_t n;
    uint8_t *tags[48];
    const uint8_t *msgs[48];
    size_t lens[48];
    const uint8_t *keys[48];
};

/* Times iters batches: 0 polymac_auth_batch, 1 polymac_auth one by one,
 * 2 intel-ipsec-mb's manager.  Returns ns per batch. */
static double time_batch(const void *work, int how, long iters)
{
    const struct batch_work *w = work;
    double t0 = now_ns();
    for (long it = 0; it < iters; it++) {
        if (how == 0) {
            polymac_auth_batch(w->tags, (const void *const *)w->msgs, w->lens, w->keys, w->n);
        } else if (how == 1) {
            for (size_t i = 0; i < w->n; i++)
                polymac_auth(w->tags[i], w->msgs[i], w->lens[i], w->keys[i]);
        } else {
            peer_ipsecmb_batch(w->tags, w->msgs, w->lens, w->keys, w->n);
        }
        sink ^= w->tags[0][0];
    }
    return (now_ns() - t0) / (double)iters;
}

/* The medians of rounds interleaved timings of nhow ways (time(w, h,
 * iters) gives ns per call of way h), each calibrated so that one timing
 * lasts at least target_ns: ns per call into med[h]. */
static void interleaved(double (*time)(const void *, int, long), const void *w, int nhow,
                        int rounds, double target_ns, double med[])
{
    long iters[4];
    double t[4][64];
    for (int h = 0; h < nhow; h++) {      /* calibrate: one timing >= target */
        long it = 1;
        while (time(w, h, it) * (double)it < target_ns && it < (1l << 30))
            it *= 2;
        iters[h] = it;
    }
    for (int r = 0; r < rounds; r++)      /* A B C, C A B, ...: drift hits all alike */
        for (int j = 0; j < nhow; j++) {
            int h = (j + r) % nhow;
            t[h][r] = time(w, h, iters[h]);
        }
    for (int h = 0; h < nhow; h++)
        med[h] = median(t[h], rounds);
}

/* One AEAD workload: n packets, each with its own key, AAD and
 * ciphertext; their padded layouts side by side for polymac_auth. */
struct aead_work {
    const char *name;
    size_t n;
    const uint8_t *tags[32];
    const void *aads[32], *cts[32];
    size_t alens[32], clens[32];
    const uint8_t *keys[32];
    int results[32];
};

/* Times iters batches: 0 polymac_aead_verify_batch, 1 polymac_aead_verify
 * one by one.  Returns ns per batch. */
static double time_aead_batch(const void *work, int how, long iters)
{
    const struct aead_work *w = work;
    double t0 = now_ns();
    for (long it = 0; it < iters; it++) {
        int rc = 0;
        if (how == 0) {
            rc = polymac_aead_verify_batch(w->tags, w->aads, w->alens, w->cts, w->clens, w->keys,
                                           w->n, (int *)w->results);
        } else {
            for (size_t i = 0; i < w->n; i++)
                rc |= polymac_aead_verify(w->tags[i], w->aads[i], w->alens[i], w->cts[i],
                                          w->clens[i], w->keys[i]);
        }
        sink ^= (uint8_t)rc;
    }
    return (now_ns() - t0) / (double)iters;
}

/* polymac bench --batch, AEAD rows: 16 QUIC-like packets (20 B AAD,
 * 1200 B) and 32 WireGuard-like ones (no AAD, 64 to 1420 B). */
static void bench_aead_batch(int rounds, double target_ns)
{
    static uint8_t arena[32 * 1536], aad[32 * 32], keys[32][32], tags[32][16];
    static struct aead_work ws[2] = {{.name = "16 x (20 + 1200 B)", .n = 16},
                                     {.name = "32 x (0 + 64-1420 B)", .n = 32}};
    uint64_t x = 0x2545f4914f6cdd1dull;
    bench_fill(arena, sizeof arena, &x);
    bench_fill(aad, sizeof aad, &x);
    bench_fill(&keys[0][0], sizeof keys, &x);
    for (int w = 0; w < 2; w++)
        for (size_t i = 0; i < ws[w].n; i++) {
            ws[w].alens[i] = w ? 0 : 20;
            ws[w].clens[i] = w ? 64 + (i * 1356) / 31 : 1200;   /* 64, ..., 1420 */
            ws[w].aads[i] = aad + 32 * i;
            ws[w].cts[i] = arena + 1536 * i;
            ws[w].keys[i] = keys[i];
            polymac_aead_auth(tags[i], ws[w].aads[i], ws[w].alens[i], ws[w].cts[i],
                              ws[w].clens[i], keys[i]);
            ws[w].tags[i] = tags[i];
        }
    printf("\nAEAD packets, each with its own key: polymac_aead_verify_batch against "
           "polymac_aead_verify one by one, ns per batch\n");
    printf("%-22s %12s %12s %10s\n", "batch", "batch call", "sequential", "seq/batch");
    for (int w = 0; w < 2; w++) {
        double med[2];
        /* the tags of the second workload are recomputed: other lengths */
        for (size_t i = 0; i < ws[w].n; i++)
            polymac_aead_auth(tags[i], ws[w].aads[i], ws[w].alens[i], ws[w].cts[i],
                              ws[w].clens[i], keys[i]);
        interleaved(time_aead_batch, &ws[w], 2, rounds, target_ns, med);
        printf("%-22s %12.1f %12.1f %9.2fx\n", ws[w].name, med[0], med[1], med[1] / med[0]);
    }
}

/* One message for polymac bench --aead: its AAD and ciphertext, and the
 * same bytes padded as RFC 8439 lays them out, for polymac_auth. */
struct aead_one_work {
    const uint8_t *aad, *ct, *padded, *key;
    size_t alen, clen, plen;
    uint8_t *tag;
};

/* 0 polymac_aead_auth, 1 polymac_auth of the padded bytes: ns per call. */
static double time_aead_one(const void *work, int how, long iters)
{
    const struct aead_one_work *w = work;
    double t0 = now_ns();
    for (long it = 0; it < iters; it++) {
        if (how == 0)
            polymac_aead_auth(w->tag, w->aad, w->alen, w->ct, w->clen, w->key);
        else
            polymac_auth(w->tag, w->padded, w->plen, w->key);
        sink ^= w->tag[0];
    }
    return (now_ns() - t0) / (double)iters;
}

/* polymac bench --aead: the AEAD tag against polymac_auth of the padded
 * layout it stands for, (AAD, ciphertext) sizes as TLS, QUIC, WireGuard
 * and bulk storage use them. */
static int cmd_bench_aead(int rounds, double target_ns)
{
    static const size_t sz[][2] = {{13, 64}, {13, 1024}, {20, 1200}, {0, 1420}, {0, 16384},
                                   {13, 65536}};
    static uint8_t aad[32], ct[65536], padded[65536 + 64], key[32], tag[16];
    uint64_t x = 0x853c49e6748fea9bull;
    bench_fill(aad, sizeof aad, &x);
    bench_fill(ct, sizeof ct, &x);
    bench_fill(key, sizeof key, &x);
    printf("AEAD tag (RFC 8439: AAD, ciphertext, each padded to 16, lengths); kernel %s; "
           "median of %d interleaved rounds, ns per call\n", polymac_backend_name(), rounds);
    printf("%-18s %12s %14s %10s\n", "AAD + ciphertext", "aead_auth", "auth (padded)",
           "aead/auth");
    for (size_t i = 0; i < sizeof sz / sizeof sz[0]; i++) {
        struct aead_one_work w = {aad, ct, padded, key, sz[i][0], sz[i][1], 0, tag};
        w.plen = aead_layout(padded, aad, w.alen, ct, w.clen);
        uint8_t t1[16], t2[16];
        polymac_aead_auth(t1, aad, w.alen, ct, w.clen, key);
        polymac_auth(t2, padded, w.plen, key);
        if (memcmp(t1, t2, 16))
            return die("bench --aead: the AEAD tag differs from polymac_auth's of the padded "
                       "bytes (%zu + %zu B)", w.alen, w.clen);
        double med[2];
        char name[32];
        interleaved(time_aead_one, &w, 2, rounds, target_ns, med);
        snprintf(name, sizeof name, "%zu + %zu B", w.alen, w.clen);
        printf("%-18s %12.1f %14.1f %9.3fx\n", name, med[0], med[1], med[0] / med[1]);
    }
    return 0;
}

static int cmd_bench_batch(int rounds, double target_ns)
{
    static uint8_t arena[48 * 1536], keys[48][32], tags[48][16];
    static struct batch_work ws[4];
    static const char *const wname[4] = {"8 x 64 B", "16 x 256 B", "32 x 64 B",
                                         "IMIX 48 (7:4:1)"};
    static const size_t wn[4] = {8, 16, 32, 48};
    for (int w = 0; w < 4; w++) {
        ws[w].name = wname[w];
        ws[w].n = wn[w];
    }
    /* IMIX: 64, 594 and 1518 bytes in the ratio 7:4:1, interleaved */
    static const size_t imix[12] = {64, 594, 64, 64, 1518, 594, 64, 64, 594, 64, 594, 64};
    uint64_t x = 0x9e3779b97f4a7c15ull;
    bench_fill(arena, sizeof arena, &x);
    bench_fill(&keys[0][0], sizeof keys, &x);
    for (int w = 0; w < 4; w++)
        for (size_t i = 0; i < ws[w].n; i++) {
            ws[w].lens[i] = w == 0 || w == 2 ? 64 : w == 1 ? 256 : imix[i % 12];
            ws[w].msgs[i] = arena + i * 1536;
            ws[w].keys[i] = keys[i];
            ws[w].tags[i] = tags[i];
        }
    int peer = 0;
    if (peer_ipsecmb_batch) {
        peer = 1;
        /* timed only after it gives the library's tags */
        uint8_t want[48][16];
        for (int w = 0; w < 4 && peer; w++) {
            for (size_t i = 0; i < ws[w].n; i++)
                polymac_auth(want[i], ws[w].msgs[i], ws[w].lens[i], ws[w].keys[i]);
            memset(tags, 0, sizeof tags);
            if (peer_ipsecmb_batch(ws[w].tags, ws[w].msgs, ws[w].lens, ws[w].keys, ws[w].n)
                || memcmp(tags, want, ws[w].n * 16))
                peer = 0;
        }
        if (!peer)
            printf("intel-ipsec-mb: wrong tags from its manager, left out\n");
    }
    int nhow = peer ? 3 : 2;
    printf("batch of messages, each with its own key; kernel %s; median of %d interleaved "
           "rounds, ns per batch\n", polymac_backend_name(), rounds);
    printf("%-18s %12s %12s %12s %10s %10s\n", "batch", "batch call", "sequential",
           peer ? "ipsec-mb" : "(ipsec-mb)", "seq/batch", "ipsec/batch");
    for (int w = 0; w < 4; w++) {
        double med[3];
        interleaved(time_batch, &ws[w], nhow, rounds, target_ns, med);
        printf("%-18s %12.1f %12.1f ", ws[w].name, med[0], med[1]);
        if (peer)
            printf("%12.1f %9.2fx %9.2fx\n", med[2], med[1] / med[0], med[2] / med[0]);
        else
            printf("%12s %9.2fx %10s\n", "-", med[1] / med[0], "-");
    }
    if (!peer)
        printf("(intel-ipsec-mb not loaded: polymac bench lists why)\n");
    bench_aead_batch(rounds, target_ns);
    return 0;
}

/* Parses --sizes: 1 to 16 sizes from 1 to 2^30, comma-separated, each a
 * whole decimal number.  Returns the count, or 0 after the message. */
static int parse_sizes(const char *arg, size_t sizes[16])
{
    const char *why = NULL;
    int n = 0;
    if (!*arg)
        why = "no size given";
    for (const char *p = arg; !why;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char item[24];
        unsigned long v;
        if (!len) {
            why = "an empty size";      /* ",1", "1,,2", "1," */
        } else if (strspn(p, "0123456789") < len) {
            why = "a size that is not a decimal number";
        } else if (n == 16) {
            why = "more than 16 sizes";
        } else {
            if (len < sizeof item) {
                memcpy(item, p, len);
                item[len] = 0;
            }
            if (len >= sizeof item || parse_num(item, 1, 1ul << 30, &v))
                why = "a size out of range";
            else
                sizes[n++] = (size_t)v;
        }
        if (!comma)
            break;
        p = comma + 1;
    }
    if (why) {
        die("--sizes '%s': %s (it takes 1 to 16 sizes, each from 1 to 1073741824, "
            "comma-separated)", arg, why);
        return 0;
    }
    return n;
}

static int cmd_bench(int argc, char **argv)
{
    size_t sizes[16] = {16, 64, 256, 1024, 8192, 65536, 1048576};
    int nsizes = 7, rounds = 0, csv = 0, stream = 0, batch = 0, aead = 0, quick = 0;
    int have_sizes = 0;
    double target_ns = 2e6;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {         /* ends the options; bench takes no operand */
            if (i + 1 < argc)
                return die("bench takes no operand: %s (see polymac bench --help)", argv[i + 1]);
        } else if (is_help(a)) {
            return help(usage_bench);
        } else if (!strcmp(a, "--csv")) {
            csv = 1;
        } else if (!strcmp(a, "--quick")) {
            quick = 1;
            target_ns = 5e5;
        } else if (!strcmp(a, "--stream")) {
            stream = 1;
        } else if (!strcmp(a, "--batch")) {
            batch = 1;
        } else if (!strcmp(a, "--aead")) {
            aead = 1;
        } else if (!strcmp(a, "--rounds") || !strcmp(a, "--sizes")) {
            int is_rounds = a[2] == 'r';
            if (i + 1 == argc)
                return die("%s needs a value (see polymac bench --help)", a);
            if (is_rounds ? rounds != 0 : have_sizes)
                return die("%s given twice (see polymac bench --help)", a);
            const char *v = argv[++i];
            unsigned long r;
            if (!is_rounds) {
                if (!(nsizes = parse_sizes(v, sizes)))
                    return 2;
                have_sizes = 1;
            } else if (parse_num(v, 1, 63, &r)) {
                return die("--rounds takes a whole number from 1 to 63: %s", v);
            } else {
                rounds = (int)r;
            }
        } else if (a[0] == '-') {
            return die("unknown bench option %s (see polymac bench --help)", a);
        } else {
            return die("bench takes no operand: %s (see polymac bench --help)", a);
        }
    }
    if (!rounds)                /* --rounds wins over --quick in either order */
        rounds = quick ? 5 : 11;

    if (aead && !batch)
        return cmd_bench_aead(rounds, target_ns);
    if (batch) {
        struct peer peers[8];
        peers_load(peers, 8);        /* binds intel-ipsec-mb's batch entry if found */
        return cmd_bench_batch(rounds, target_ns);
    }

    /* contenders: automatic choice, every usable kernel, then the peers */
    static struct contender cs[40];
    int nc = 0;
    const char *names[16];
    size_t nk = polymac_backend_list(names, 16);
    char autoname[32];
    snprintf(autoname, sizeof autoname, "%s", polymac_backend_name());
    snprintf(cs[nc].name, sizeof cs[nc].name, "polymac auto (%s)", autoname);
    cs[nc++].kernel = "auto";
    for (size_t i = 0; i < nk && i < 16; i++) {
        snprintf(cs[nc].name, sizeof cs[nc].name, "%s", names[i]);
        cs[nc++].kernel = names[i];
    }
    static const int pieces[2] = {1024, 13};
    if (stream) {
        for (int p = 0; p < 2; p++)
            for (size_t i = 0; i < nk && i < 16 && nc < 40; i++) {
                snprintf(cs[nc].name, sizeof cs[nc].name, "%s stream/%d", names[i], pieces[p]);
                cs[nc].kernel = names[i];
                cs[nc++].stream = pieces[p];
            }
    }
    /* peers: found at run time; one line each says what was loaded (and
     * its code path) or why not, on stdout above the table, or on stderr
     * when stdout is CSV */
    struct peer peers[8];
    size_t np = peers_load(peers, 8);
    FILE *pout = csv ? stderr : stdout;
    if (csv && same_file(STDOUT_FILENO, STDERR_FILENO) && !isatty(STDERR_FILENO))
        pout = NULL;            /* bench --csv >x 2>&1: keep x valid CSV */
    int first_peer = nc;
    if (!np)
        note(pout, "peers: none (this polymac was built with -Dbench_peers=disabled)\n");
    for (size_t i = 0; i < np && nc < 40; i++) {
        if (!peers[i].auth) {
            note(pout, "peer %-15s %-17s not loaded: %s\n", peers[i].name, peers[i].soname,
                 peers[i].note);
            continue;
        }
        /* a peer is timed only after it gives the right tag */
        static const uint8_t k[32] = {0x85, 0xd6, 0xbe, 0x78, 0x57, 0x55, 0x6d, 0x33,
                                      0x7f, 0x44, 0x52, 0xfe, 0x42, 0xd5, 0x06, 0xa8,
                                      0x01, 0x03, 0x80, 0x8a, 0xfb, 0x0d, 0xb2, 0xfd,
                                      0x4a, 0xbf, 0xf6, 0xaf, 0x41, 0x49, 0xf5, 0x1b};
        static const char m[] = "Cryptographic Forum Research Group";
        uint8_t want[16], got[16];
        polymac_auth(want, m, sizeof m - 1, k);
        if (peers[i].auth(got, (const uint8_t *)m, sizeof m - 1, k) != 0
            || memcmp(got, want, 16) != 0
            || peers[i].auth(got, (const uint8_t *)m, sizeof m - 1, k) != 0
            || memcmp(got, want, 16) != 0) {
            note(pout, "peer %-15s %-17s gives a wrong tag, left out: %s\n", peers[i].name,
                 peers[i].soname, peers[i].note);
            continue;
        }
        note(pout, "peer %-15s %-17s %s\n", peers[i].name, peers[i].soname, peers[i].note);
        snprintf(cs[nc].name, sizeof cs[nc].name, "%s", peers[i].name);
        cs[nc].kernel = peers[i].kernel;   /* openssl+polymac: libpolymac's auto */
        cs[nc++].peer = peers[i].auth;
    }
    /* with --stream, the peers' streaming calls in the same pieces, each
     * checked in 13-byte pieces first */
    int first_stream_peer = nc;
    for (int p = 0; stream && p < 2; p++)
        for (size_t i = 0; i < np && nc < 40; i++) {
            static const uint8_t k[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                          17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
                                          30, 31, 32};
            static const char m[] = "Cryptographic Forum Research Group, in pieces";
            uint8_t want[16], got[16];
            if (!peers[i].auth || !peers[i].stream)
                continue;
            polymac_auth(want, m, sizeof m - 1, k);
            if (peers[i].stream(got, (const uint8_t *)m, sizeof m - 1, 13, k) != 0
                || memcmp(got, want, 16) != 0) {
                if (p == 0)
                    note(pout, "peer %-15s streamed gives a wrong tag, left out\n",
                         peers[i].name);
                continue;
            }
            snprintf(cs[nc].name, sizeof cs[nc].name, "%s stream/%d", peers[i].name, pieces[p]);
            cs[nc].pstream = peers[i].stream;
            cs[nc++].stream = pieces[p];
        }

    size_t maxlen = 0;
    for (int s = 0; s < nsizes; s++)
        if (sizes[s] > maxlen)
            maxlen = sizes[s];
    uint8_t *msg = malloc(maxlen ? maxlen : 1);
    uint8_t keys[16][32];
    if (!msg)
        return die("out of memory");
    uint64_t x = 0x9e3779b97f4a7c15ull;
    bench_fill(msg, maxlen, &x);
    bench_fill(&keys[0][0], sizeof keys, &x);

    /* warm up for about 300 ms so the first size is not measured while the
     * core is still raising its clock */
    {
        uint8_t tag[16];
        double t0 = now_ns();
        while (now_ns() - t0 < 3e8)
            for (int i = 0; i < 64; i++)
                polymac_auth(tag, msg, maxlen < 4096 ? maxlen : 4096, keys[i & 15]);
    }
    /* the progress line only for a person watching: never into a file or
     * pipe that collects the output (bench --csv >x 2>&1) */
    int progress = isatty(STDERR_FILENO);
    fflush(NULL);
    for (int s = 0; s < nsizes; s++) {
        size_t len = sizes[s];
        double ns;
        uint64_t tk;
        if (progress) {
            fprintf(stderr, "\rpolymac bench: %zu bytes (%d/%d)...      ", len, s + 1, nsizes);
            fflush(stderr);
        }
        for (int c = 0; c < nc; c++) {        /* calibrate: one batch >= target */
            long it = 1;
            for (;;) {
                run_batch(&cs[c], msg, len, (const uint8_t (*)[32])keys, it, &ns, &tk);
                if (ns >= target_ns || it > (1l << 27))   /* it * 8 fits a 32-bit long */
                    break;
                it = ns < target_ns / 16 ? it * 8 : (long)(it * target_ns / ns) + 1;
            }
            cs[c].iters = it;
        }
        double mb[40][64], cb[40][64];
        for (int r = 0; r < rounds; r++)      /* A B C ... A B C: drift hits all alike */
            for (int c = 0; c < nc; c++) {
                run_batch(&cs[c], msg, len, (const uint8_t (*)[32])keys, cs[c].iters, &ns, &tk);
                double bytes = (double)len * (double)cs[c].iters;
                mb[c][r] = bytes / ns * 1e3;      /* MB/s = 10^6 bytes per second */
                cb[c][r] = (double)tk / bytes;
            }
        for (int c = 0; c < nc; c++) {
            cs[c].mbps[s] = median(mb[c], rounds);
            cs[c].cpb[s] = median(cb[c], rounds);
        }
    }
    if (progress)
        fprintf(stderr, "\r%60s\r", "");
    polymac_backend_select(NULL);

    free(msg);
#if defined(__x86_64__) || defined(__i386__)
    const char *cunit = "c/B(TSC)";
#else
    const char *cunit = "c/B(n/a)";
#endif
    if (csv) {
        printf("size,contender,mb_per_s,cycles_per_byte,ns_per_message\n");
        for (int s = 0; s < nsizes; s++)
            for (int c = 0; c < nc; c++)
                printf("%zu,%s,%.1f,%.3f,%.1f\n", sizes[s], cs[c].name, cs[c].mbps[s],
                       cs[c].cpb[s], (double)sizes[s] / cs[c].mbps[s] * 1e3);
        return 0;
    }
    printf("one-shot MAC, each message with its own key; median of %d interleaved rounds\n",
           rounds);
    printf("%-30s", "MB/s  (cycles/byte)");
    for (int s = 0; s < nsizes; s++)
        printf(" %17zu", sizes[s]);
    printf("\n");
    for (int c = 0; c < nc; c++) {
        printf("%-30s", cs[c].name);
        for (int s = 0; s < nsizes; s++) {
#if defined(__x86_64__) || defined(__i386__)
            printf(" %9.0f (%5.2f)", cs[c].mbps[s], cs[c].cpb[s]);
#else
            printf(" %9.0f (  n/a)", cs[c].mbps[s]);   /* no time-stamp counter read */
#endif
        }
        printf("\n");
    }
    if (first_stream_peer > first_peer) {
        printf("%-30s", "auto / best peer");
        for (int s = 0; s < nsizes; s++) {
            double best = 0;
            for (int c = first_peer; c < first_stream_peer; c++)
                if (cs[c].mbps[s] > best)
                    best = cs[c].mbps[s];
            printf(" %16.2fx", cs[0].mbps[s] / best);
        }
        printf("\n");
    }
    /* streamed: the automatic kernel's row in those pieces against the
     * peers' best in the same pieces */
    for (int p = 0; stream && nc > first_stream_peer && p < 2; p++) {
        int mine = -1;
        for (int c = 0; c < first_peer; c++)
            if (cs[c].stream == pieces[p] && cs[c].kernel && !strcmp(cs[c].kernel, autoname))
                mine = c;
        if (mine < 0)
            continue;
        char label[32];
        snprintf(label, sizeof label, "stream/%d auto / best peer", pieces[p]);
        printf("%-30s", label);
        for (int s = 0; s < nsizes; s++) {
            double best = 0;
            for (int c = first_stream_peer; c < nc; c++)
                if (cs[c].stream == pieces[p] && cs[c].mbps[s] > best)
                    best = cs[c].mbps[s];
            printf(" %16.2fx", best > 0 ? cs[mine].mbps[s] / best : 0.0);
        }
        printf("\n");
    }
    printf("(%s: %s)\n", cunit, "cycles of the time-stamp counter per byte");
    return 0;
}

static int run(int argc, char **argv)
{
    if (argc < 2) {
        fputs("usage: polymac info | tag | verify | bench ...  (see polymac --help)\n", stderr);
        return 2;
    }
    if (is_help(argv[1]))
        return help(usage);
    if (!strcmp(argv[1], "--version")) {
        printf("polymac %s\n", polymac_version());
        return 0;
    }
    if (!strcmp(argv[1], "info"))
        return cmd_info(argc - 1, argv + 1);
    if (!strcmp(argv[1], "tag"))
        return cmd_mac(argc - 1, argv + 1, 0);
    if (!strcmp(argv[1], "verify"))
        return cmd_mac(argc - 1, argv + 1, 1);
    if (!strcmp(argv[1], "bench"))
        return cmd_bench(argc - 1, argv + 1);
    return die("unknown command %s (see polymac --help)", argv[1]);
}

int main(int argc, char **argv)
{
    int rc = run(argc, argv);
    /* Output is buffered: a full disk or a closed pipe shows only when it
     * is flushed.  A tag that never reached its reader is an error. */
    int werr = 0;               /* -1: failed, reason unknown */
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout))
        werr = errno ? errno : -1;
    errno = 0;
    if (fclose(stdout) != 0 && !werr)
        werr = errno ? errno : -1;
    if (werr) {
        fprintf(stderr, "polymac: write error on standard output%s%s\n",
                werr > 0 ? ": " : "", werr > 0 ? strerror(werr) : "");
        return 2;
    }
    return rc;
}
