/* test_threads.c -- many threads race through first use, backend
 *                   selection and MAC computation (run under TSan) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/* Two builds of this file (test/trust/meson.build): against the shared
 * library, where the constructor has chosen a kernel before main, and
 * against a copy of the library built without that constructor, so the
 * threads below are the ones that make the first choice (as in a static
 * link that dropped it).  Every tag must be right whichever kernel each
 * thread sees; tools/trust-checks runs both under ThreadSanitizer. */
#include <pthread.h>
#include <stdatomic.h>

#include "../common.h"

#define NTHREADS 16
#define NCASES 48
#define MAXMSG 2600

static int iterations = 300;

static const char *const names[] = {
    "generic-r26", "generic-r26x2", "generic-r64", "x86-avx2", "x86-avx512",
    "x86-avx512ifma", "aarch64-neon", "arm-neon", "power-vsx", "power-p9", "s390x-vx",
    "auto", "", NULL, "no-such-kernel",
};
#define NNAMES (sizeof names / sizeof *names)

static struct tcase {
    uint8_t key[32];
    uint8_t ref[16];
    size_t len;
    uint8_t msg[MAXMSG];
} cases[NCASES];

static pthread_barrier_t start;
static atomic_uint failures, macs, selects;

static void report(const char *what, int t, int c)
{
    if (atomic_fetch_add(&failures, 1) < 10)
        fprintf(stderr, "thread %d case %d: %s\n", t, c, what);
}

static void one_mac(int t, uint64_t *seed)
{
    int c = (int)(test_rand(seed) % NCASES);
    const struct tcase *k = &cases[c];
    uint8_t tag[16];
    if (polymac_auth(tag, k->msg, k->len, k->key) != 0 || memcmp(tag, k->ref, 16) != 0)
        report("one-shot tag wrong", t, c);
    if (polymac_verify(k->ref, k->msg, k->len, k->key) != 0)
        report("verify refused the right tag", t, c);
    polymac_state st;
    size_t a = k->len ? (size_t)(test_rand(seed) % k->len) : 0;
    size_t b = a + (k->len - a ? (size_t)(test_rand(seed) % (k->len - a)) : 0);
    if (polymac_init(&st, k->key) || polymac_update(&st, k->msg, a)
        || polymac_update(&st, k->msg + a, b - a)
        || polymac_update(&st, k->msg + b, k->len - b) || polymac_final(&st, tag)
        || memcmp(tag, k->ref, 16) != 0)
        report("streamed tag wrong", t, c);
    atomic_fetch_add(&macs, 1);
}

static void one_select(int t, uint64_t *seed)
{
    const char *n = names[test_rand(seed) % NNAMES];
    int rc = polymac_backend_select(n);
    if (rc != 0 && rc != POLYMAC_EBACKEND && rc != POLYMAC_EUNSUPPORTED)
        report("select returned an undocumented code", t, -1);
    if (rc == 0 && n && strcmp(n, "no-such-kernel") == 0)
        report("an unknown name was selected", t, -1);
    atomic_fetch_add(&selects, 1);
}

static void *worker(void *arg)
{
    int t = (int)(intptr_t)arg;
    uint64_t seed = 0x7423u + (uint64_t)t * 0x9e3779b97f4a7c15u;
    const char *list[16];
    pthread_barrier_wait(&start);
    /* first use: every entry point, all at once */
    switch (t % 5) {
    case 0: one_mac(t, &seed); break;
    case 1: if (!polymac_backend_name()) report("no active kernel", t, -1); break;
    case 2: one_select(t, &seed); break;
    case 3: if (polymac_backend_list(list, 16) < 1) report("no usable kernel", t, -1); break;
    case 4: {
        polymac_state st;
        if (polymac_init(&st, cases[0].key) || polymac_update(&st, cases[0].msg, cases[0].len)
            || polymac_final_verify(&st, cases[0].ref))
            report("first streamed MAC wrong", t, 0);
        break;
    }
    }
    for (int i = 0; i < iterations; i++) {
        if (test_rand(&seed) % 4 == 0)
            one_select(t, &seed);
        one_mac(t, &seed);
        if (i % 50 == 0 && polymac_backend_list(list, 16) < 1)
            report("no usable kernel", t, -1);
    }
    return NULL;
}

START_TEST(race)
{
    pthread_t th[NTHREADS];
    ck_assert_int_eq(pthread_barrier_init(&start, NULL, NTHREADS), 0);
    for (int t = 0; t < NTHREADS; t++)
        ck_assert_int_eq(pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t), 0);
    for (int t = 0; t < NTHREADS; t++)
        pthread_join(th[t], NULL);
    pthread_barrier_destroy(&start);
    printf("%u MACs (one-shot, streamed, verify), %u selections, %u failures, %d threads\n",
           atomic_load(&macs), atomic_load(&selects), atomic_load(&failures), NTHREADS);
    ck_assert_uint_eq(atomic_load(&failures), 0);
    ck_assert_ptr_nonnull(polymac_backend_name());
    ck_assert_int_eq(polymac_backend_select(NULL), 0);
}
END_TEST

/* A test of the test: an unsynchronised counter that ThreadSanitizer must
 * report (tools/trust-checks expects the report). */
static int planted_counter;

static void *planted_worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < 1000; i++)
        planted_counter++;
    return NULL;
}

static int planted_race(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, planted_worker, NULL);
    pthread_create(&b, NULL, planted_worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("planted race ran (%d); ThreadSanitizer should have reported it\n", planted_counter);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--planted-race") == 0)
        return planted_race();
    if (argc > 1)
        iterations = atoi(argv[1]);
    if (sodium_init() < 0)
        return 1;
    /* the oracle only: no polymac call before the threads start */
    uint64_t seed = 0x7e57u;
    for (int c = 0; c < NCASES; c++) {
        struct tcase *k = &cases[c];
        k->len = c < 8 ? (size_t)c * 17 : (size_t)(test_rand(&seed) % MAXMSG);
        test_fill(k->key, 32, &seed);
        test_fill(k->msg, k->len, &seed);
        if (c % 7 == 3)
            memset(k->msg, 0xff, k->len);
        crypto_onetimeauth_poly1305(k->ref, k->msg, k->len, k->key);
    }
    /* no fork: the race is in this process */
    setenv("CK_FORK", "no", 1);
    Suite *s = suite_create("threads");
    TCase *tc = tcase_create("threads");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, race);
    suite_add_tcase(s, tc);
    return test_run(s);
}
