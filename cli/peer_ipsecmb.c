/* peer_ipsecmb.c -- intel-ipsec-mb's Poly1305 for polymac bench, loaded at
 *                   run time; its header gives the job and manager layout */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include <stdio.h>
#include <string.h>

#include "peers.h"

/* intel-ipsec-mb's batch submission for polymac bench --batch (NULL until
 * the library is loaded; cli/polymac.c declares it) */
typedef int (*peer_batch_fn)(uint8_t *const tags[], const uint8_t *const msgs[],
                             const size_t lens[], const uint8_t *const keys[], size_t n);
extern peer_batch_fn peer_ipsecmb_batch;

#ifdef HAVE_IPSECMB_H
/* Only the struct layouts and constants come from the header: the tool
 * links nothing of the library, whose functions come from dlsym. */
#include <intel-ipsec-mb.h>

static IMB_MGR *mgr;

/* One job per message, as a user with one message at a time would: fill
 * the next job, submit, then flush until the manager is empty. */
static int ipsecmb_auth(uint8_t tag[16], const uint8_t *msg, size_t len, const uint8_t key[32])
{
    IMB_JOB *job = mgr->get_next_job(mgr);
    job->cipher_mode = IMB_CIPHER_NULL;
    job->cipher_direction = IMB_DIR_ENCRYPT;
    job->chain_order = IMB_ORDER_HASH_CIPHER;
    job->hash_alg = IMB_AUTH_POLY1305;
    job->src = msg;
    job->dst = NULL;
    job->msg_len_to_cipher_in_bytes = 0;
    job->cipher_start_src_offset_in_bytes = 0;
    job->hash_start_src_offset_in_bytes = 0;
    job->msg_len_to_hash_in_bytes = len;
    job->u.POLY1305._key = key;
    job->auth_tag_output = tag;
    job->auth_tag_output_len_in_bytes = 16;
    int rc = 0, seen = 0;
    IMB_JOB *done = mgr->submit_job(mgr);
    if (!done)
        done = mgr->flush_job(mgr);
    for (; done; done = mgr->flush_job(mgr)) {
        seen++;
        if (done->status != IMB_STATUS_COMPLETED)
            rc = -1;
    }
    return seen == 1 ? rc : -1;
}

/* The batch as intel-ipsec-mb's users submit one: every job first (the
 * manager fills its lanes, completing jobs as lanes fill), then flush
 * until it is empty; the tags land in tags[i] as jobs complete. */
static int ipsecmb_auth_batch(uint8_t *const tags[], const uint8_t *const msgs[],
                              const size_t lens[], const uint8_t *const keys[], size_t n)
{
    size_t done_n = 0;
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        IMB_JOB *job = mgr->get_next_job(mgr);
        job->cipher_mode = IMB_CIPHER_NULL;
        job->cipher_direction = IMB_DIR_ENCRYPT;
        job->chain_order = IMB_ORDER_HASH_CIPHER;
        job->hash_alg = IMB_AUTH_POLY1305;
        job->src = msgs[i];
        job->dst = NULL;
        job->msg_len_to_cipher_in_bytes = 0;
        job->cipher_start_src_offset_in_bytes = 0;
        job->hash_start_src_offset_in_bytes = 0;
        job->msg_len_to_hash_in_bytes = lens[i];
        job->u.POLY1305._key = keys[i];
        job->auth_tag_output = tags[i];
        job->auth_tag_output_len_in_bytes = 16;
        for (IMB_JOB *done = mgr->submit_job(mgr); done; done = mgr->get_completed_job(mgr)) {
            done_n++;
            if (done->status != IMB_STATUS_COMPLETED)
                rc = -1;
        }
    }
    for (IMB_JOB *done = mgr->flush_job(mgr); done; done = mgr->flush_job(mgr)) {
        done_n++;
        if (done->status != IMB_STATUS_COMPLETED)
            rc = -1;
    }
    return done_n == n ? rc : -1;
}

peer_batch_fn peer_ipsecmb_batch;

void peer_load_ipsecmb(struct peer *p)
{
    static const char *const archs[] = {"none", "no-aesni", "sse", "avx", "avx2", "avx512"};
    IMB_MGR *(*alloc)(uint64_t flags);
    void (*init_auto)(IMB_MGR *m, IMB_ARCH *arch);
    const char *(*version)(void);
    void *lib = peer_open(p);
    if (!lib || PEER_SYM(p, lib, alloc, "alloc_mb_mgr")
        || PEER_SYM(p, lib, init_auto, "init_mb_mgr_auto")
        || PEER_SYM(p, lib, version, "imb_get_version_str"))
        return;
    if (!(mgr = alloc(0))) {
        snprintf(p->note, sizeof p->note, "alloc_mb_mgr(0) failed");
        return;
    }
    IMB_ARCH arch = IMB_ARCH_NONE;
    init_auto(mgr, &arch);
    if (mgr->imb_errno || arch == IMB_ARCH_NONE) {
        snprintf(p->note, sizeof p->note, "init_mb_mgr_auto failed (error %d)", mgr->imb_errno);
        return;
    }
    /* its AVX-512 manager binds the IFMA Poly1305 when the features it
     * detected include AVX-512 IFMA, its plain AVX-512 code otherwise */
    unsigned a = mgr->used_arch;
    int ifma = (mgr->features & IMB_FEATURE_AVX512_IFMA) != 0;
    snprintf(p->note, sizeof p->note, "%s (header %s); manager arch %s, AVX-512 IFMA %s%s",
             version(), IMB_VERSION_STR,
             a < sizeof archs / sizeof archs[0] ? archs[a] : "unknown",
             ifma ? "detected" : "not detected",
             a != IMB_ARCH_AVX512 ? "" : ifma ? " -> poly1305_mac_fma_avx512"
                                              : " -> poly1305_mac_plain_avx512");
    p->auth = ipsecmb_auth;
    peer_ipsecmb_batch = ipsecmb_auth_batch;
}

#else

peer_batch_fn peer_ipsecmb_batch;

void peer_load_ipsecmb(struct peer *p)
{
    /* without the header this build does not know the job layout */
    snprintf(p->note, sizeof p->note,
             "%s was not found at configure time (a cross build never "
             "looks), so this polymac has no code for it", "intel-ipsec-mb.h");
}

#endif
