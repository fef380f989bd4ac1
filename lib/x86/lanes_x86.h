/* lanes_x86.h -- the manager of the x86 batch entries: lanes refilled as
 *                their messages end, padded last blocks, tags per lane */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/*
 * Included at the end of a lanes file, which defines before it:
 *   LANES_N      lanes per vector set
 *   LANES_HIBIT  the 2^128 bit of a full block in its top limb
 *   LANES_FN     the name of the batch entry (struct polymac_kernel.lanes)
 *   struct lanes_vec      h, r (and multiples) by lane, 64-byte aligned
 *   set_lane(v, l, key)   lane l starts a message: r from key, h = 0
 *   lane_tag(v, l, tag, s)   lane l's tag, constant time
 *   run_steps(v, p, step, hib, n)   n blocks in every lane
 * Lane bookkeeping depends on message lengths only, which are public;
 * the arithmetic on key and message bytes is the same for every value.
 */
#ifndef LANES_FN
#error "define LANES_FN and the lane functions before including lanes_x86.h"
#endif

#include <string.h>

/* What an idle lane reads (step 0): its r is 0, so its h stays 0. */
static const uint8_t lanes_zero_block[16];

enum { LANE_IDLE, LANE_FULL, LANE_PAD };

struct lanes_mgr {
    const uint8_t *p[LANES_N];
    size_t step[LANES_N];
    uint64_t hib[LANES_N];
    size_t left[LANES_N];        /* blocks left in the current segment */
    size_t idx[LANES_N];         /* entry the lane carries */
    unsigned stage[LANES_N];
    uint8_t pad[LANES_N][16];    /* the padded last block */
    size_t next;                 /* next entry to start */
};

static void lanes_idle(struct lanes_vec *v, struct lanes_mgr *g, unsigned l)
{
    static const uint8_t zero_key[32];
    set_lane(v, l, zero_key);
    g->stage[l] = LANE_IDLE;
    g->p[l] = lanes_zero_block;
    g->step[l] = 0;
    g->hib[l] = 0;
    g->left[l] = 0;
}

/* Lane l takes the next message that has blocks (an empty message's tag
 * is s); idle when the batch has none left. */
static void lanes_take(struct lanes_vec *v, struct lanes_mgr *g, unsigned l,
                       uint8_t *const out[], const uint8_t *const msgs[],
                       const size_t lens[], const uint8_t *const keys[], size_t n)
{
    while (g->next < n) {
        size_t i = g->next++, len = lens[i], rest = len % 16;
        if (len == 0) {
            memcpy(out[i], keys[i] + 16, 16);     /* h = 0: the tag is s */
            continue;
        }
        set_lane(v, l, keys[i]);
        g->idx[l] = i;
        if (rest)
            polymac_pad_last(g->pad[l], msgs[i] + (len - rest), rest);
        if (len >= 16) {
            g->stage[l] = LANE_FULL;
            g->p[l] = msgs[i];
            g->hib[l] = LANES_HIBIT;
            g->left[l] = len / 16;
        } else {
            g->stage[l] = LANE_PAD;
            g->p[l] = g->pad[l];
            g->hib[l] = 0;
            g->left[l] = 1;
        }
        g->step[l] = 16;
        return;
    }
    lanes_idle(v, g, l);
}

void LANES_FN(uint8_t *const out[], const uint8_t *const msgs[], const size_t lens[],
              const uint8_t *const keys[], size_t n);

void LANES_FN(uint8_t *const out[], const uint8_t *const msgs[], const size_t lens[],
              const uint8_t *const keys[], size_t n)
{
    _Alignas(64) struct lanes_vec v;
    struct lanes_mgr g;
    g.next = 0;
    for (unsigned l = 0; l < LANES_N; l++)
        lanes_take(&v, &g, l, out, msgs, lens, keys, n);
    for (;;) {
        size_t m = SIZE_MAX;
        for (unsigned l = 0; l < LANES_N; l++)
            if (g.stage[l] != LANE_IDLE && g.left[l] < m)
                m = g.left[l];
        if (m == SIZE_MAX)
            break;                              /* every lane idle: done */
        run_steps(&v, g.p, g.step, g.hib, m);
        for (unsigned l = 0; l < LANES_N; l++) {
            if (g.stage[l] == LANE_IDLE)
                continue;
            g.p[l] += m * 16;
            g.left[l] -= m;
            if (g.left[l])
                continue;
            size_t i = g.idx[l];
            if (g.stage[l] == LANE_FULL && lens[i] % 16) {
                g.stage[l] = LANE_PAD;
                g.p[l] = g.pad[l];
                g.hib[l] = 0;
                g.left[l] = 1;
                continue;
            }
            lane_tag(&v, l, out[i], keys[i] + 16);
            lanes_take(&v, &g, l, out, msgs, lens, keys, n);
        }
    }
    polymac_wipe(&v, sizeof v);
    polymac_wipe(g.pad, sizeof g.pad);
}
