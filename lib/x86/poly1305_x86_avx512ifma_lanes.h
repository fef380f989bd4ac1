/* poly1305_x86_avx512ifma_lanes.h -- x86-avx512ifma's batch entry: up to
 *                                    sixteen messages at once, radix 2^44 */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/*
 * Included by poly1305_x86_avx512ifma.c, whose arithmetic it shares
 * (ifma_mulred, ifma_split, the carry analysis at the top of that file).
 *
 * One message per 64-bit lane, each lane with its own r (limbs and 20 r1,
 * 20 r2) and its own h: eight lanes per zmm register, and in the
 * refilling loop two such sets (A: lanes 0-7, B: lanes 8-15) when it has
 * more than eight messages.  A run takes as many steps as the live lane with the
 * fewest blocks left in its current segment (its full blocks, then its
 * padded last block, whose 2^128 bit is 0); then the lanes whose message
 * ended emit their tags and take the next messages of the batch.
 *
 * Everything that touches key or message bytes is vector code, the same
 * for every value: the keys of the lanes that start are loaded, clamped,
 * split and multiplied by 20 together and blended in under a mask; the
 * tags of a set are carried, reduced mod p (a masked select, no branch),
 * added to s and stored together.  Only lengths, which are public, decide
 * branches and which lanes a mask covers.
 *
 * A set takes two blocks per step with each lane's r^2: h = (h + m1)
 * r^2 + m2 r, both products summed before one carry chain
 * (ifma_mul2red_t).  On Intel Emerald Rapids the lanes are bound by ports
 * 0 and 5, where every 512-bit instruction of a step runs (IFMAs, adds,
 * shuffles; the shifts on port 0 only): about 80 instructions a step of
 * one set.  So instructions are what the code below saves, latency only
 * at the ends of a chain.  A batch of one length takes ifma_lanes_same,
 * eight messages at a time (no refills); a mixed one takes it for the
 * lengths that many of its entries share, the refilling loop below for
 * the rest (ifma_lanes_mixed).
 *
 * An idle lane (the batch has no message left for it) reads the blocks of
 * a live lane, so that its loads stay in bounds; it has r = 0 (and h stays
 * 0) if it never had a message, else it goes on with its last r and h,
 * whose tag is never emitted.
 */

#define IFMA_LANES_N 16

/* Messages of at most this many bytes go through the lanes; longer ones
 * through the one-shot vector path.  Overridable with -D; measured on
 * Intel Emerald Rapids (README, Batch), and again with the groups of
 * ifma_lanes_mixed: at 1536, IMIX's four 1518-byte messages in lanes of
 * their own made the batch 10% slower than through the one-shot path. */
#ifndef IFMA_LANES_MAX
#define IFMA_LANES_MAX 1024
#endif

/* The fewest messages worth the lanes (lib/kernel.h's lanes_min): one
 * set of eight lanes costs about as much for one message as for eight.
 * Measured on Intel Emerald Rapids (polymac-ab --batch, TSC cycles,
 * the lanes against polymac_auth one by one, both for n messages):
 * n = 4: 16 B 123 / 75, 64 B 196 / 163, 256 B 442 / 586, 1 KiB 1439 /
 * 1065; n = 5: 16 B 125 / 94, 64 B 169 / 204, 256 B 396 / 733, 1 KiB
 * 1264 / 1332; n = 3 loses at every length but 256 B (382 / 440). */
#ifndef IFMA_LANES_MIN
#define IFMA_LANES_MIN 4
#endif

/* lib/kernel.h's lanes_direct: a batch of up to eight messages of one
 * length (not 0) runs on one set (ifma_lanes_same), which has loaded
 * every block and key, s included, before it stores the first tag.
 * Without the front end's tag buffer 8 x 64 B took 174 TSC cycles, not
 * 186 (Emerald Rapids, polymac-ab --batch 8). */
#define IFMA_LANES_DIRECT 8

enum { IFMA_LANE_IDLE, IFMA_LANE_FULL, IFMA_LANE_PAD };

/* The bookkeeping of the lanes: lengths and addresses only, plus the
 * padded last blocks (message bytes). */
struct ifma_lanes_mgr {
    const uint8_t *p[IFMA_LANES_N];      /* the lane's next block */
    const uint8_t *key[IFMA_LANES_N];    /* its key (the zero key when idle) */
    uint64_t hb[IFMA_LANES_N];           /* 2^128 bit of its blocks, at bit 40 */
    size_t left[IFMA_LANES_N];           /* blocks left in the segment */
    size_t idx[IFMA_LANES_N];            /* entry the lane carries */
    unsigned stage[IFMA_LANES_N];
    _Alignas(64) uint8_t pad[IFMA_LANES_N][16];   /* padded last blocks */
};

/* A set of eight lanes: h, r, and r^2 when a step takes two blocks. */
struct ifma_lanes_set {
    struct ifma_h h;
    struct ifma_pow r, r2;
};

static const uint8_t ifma_lanes_zero_key[32];

/* 16 bytes at q[j] + off as lanes j = 0..7: the two registers of four
 * blocks each that ifma_split takes. */
IFMA_INLINE void ifma_lanes_gather(const uint8_t *const q[8], size_t off, __m512i *x,
                                   __m512i *y)
{
#define IFMA_LD(j) _mm_loadu_si128((const __m128i *)(q[j] + off))
    __m256i a = _mm256_inserti128_si256(_mm256_castsi128_si256(IFMA_LD(0)), IFMA_LD(1), 1);
    __m256i b = _mm256_inserti128_si256(_mm256_castsi128_si256(IFMA_LD(2)), IFMA_LD(3), 1);
    __m256i c = _mm256_inserti128_si256(_mm256_castsi128_si256(IFMA_LD(4)), IFMA_LD(5), 1);
    __m256i d = _mm256_inserti128_si256(_mm256_castsi128_si256(IFMA_LD(6)), IFMA_LD(7), 1);
#undef IFMA_LD
    *x = _mm512_inserti64x4(_mm512_castsi256_si512(a), b, 1);
    *y = _mm512_inserti64x4(_mm512_castsi256_si512(c), d, 1);
}

/* The blocks at q[j] + off, lane j, carried (limbs below 2^44, 2^44, 2^41). */
IFMA_INLINE struct ifma_h ifma_lanes_blocks(const uint8_t *const q[8], size_t off, __m512i hb)
{
    __m512i x, y;
    ifma_lanes_gather(q, off, &x, &y);
    return ifma_split(x, y, hb);
}

/*
 * The two-block steps carry their products with ifma_carry (fewer
 * instructions, ifma_mul2red_t): two sets are bound by the ports, and
 * so is one set after its first steps.  The steps at
 * the end of a chain, where one set waits for its carries (the one-block
 * step, a group's last step of a full and a padded block), keep the
 * shorter-latency ifma_shift_carry (ifma_mul2red).  Bounds (the
 * analysis at the top of poly1305_x86_avx512ifma.c, doubled sums,
 * tools/bounds.c's lanes model): every factor below
 * 2^45.1, so l_i < 2^55.1, g0 < 2^41.7, g1 < 2^39.9, g2 < 2^38.7;
 * c = (l2 >> 42) + (g2 << 10) < 2^48.8 and h0 + 5 c < 2^51.2; the result
 * has h0 < 2^44, h1 < 2^44 + 2^8, h2 < 2^42, and every IFMA shift and
 * multiplication by 5 of ifma_carry is exact (below 2^52).
 */

/* a p + b q mod p per lane: both products into the same six sums, b q
 * first (it does not wait for h). */
IFMA_INLINE struct ifma_h ifma_mul2red(struct ifma_h a, struct ifma_pow p, struct ifma_h b,
                                       struct ifma_pow q)
{
    return ifma_shift_carry(ifma_prod(ifma_prod(ifma_acc_zero(), b, q), a, p));
}

/* The same with ifma_carry, whose shifts by 8 and 10 and multiplication by
 * 5 are IFMAs: 14 instructions a carry instead of 21, 7 of them fewer on
 * port 0, which alone runs the shifts and shares the IFMAs with port 5.
 * The count decides in the steps (16 x 1 KiB 8% faster, README, Batch;
 * one set 1-3% from 128 B, the same below; the last step of a padded
 * group 1-2% slower with it on one set).  The bounds hold for both
 * (tools/bounds.c checks the IFMA inputs and exact products of the
 * lanes' step). */
IFMA_INLINE struct ifma_h ifma_mul2red_t(struct ifma_h a, struct ifma_pow p, struct ifma_h b,
                                         struct ifma_pow q)
{
    return ifma_carry(ifma_prod(ifma_prod(ifma_acc_zero(), b, q), a, p));
}

/* (h + m) r, one block per lane */
IFMA_INLINE struct ifma_h ifma_lanes_step1(struct ifma_h h, struct ifma_h m,
                                           struct ifma_pow r)
{
    return ifma_shift_carry(ifma_prod(ifma_acc_zero(), ifma_add(h, m), r));
}

/* d takes p in the lanes under mask k. */
IFMA_INLINE void ifma_pow_take(struct ifma_pow *d, __mmask8 k, const struct ifma_pow *p)
{
    d->r0 = _mm512_mask_mov_epi64(d->r0, k, p->r0);
    d->r1 = _mm512_mask_mov_epi64(d->r1, k, p->r1);
    d->r2 = _mm512_mask_mov_epi64(d->r2, k, p->r2);
    d->s1 = _mm512_mask_mov_epi64(d->s1, k, p->s1);
    d->s2 = _mm512_mask_mov_epi64(d->s2, k, p->s2);
}

/*
 * The lanes under mask k start the messages whose keys q[j] holds: r
 * clamped and split, 20 r1 and 20 r2, r^2, h = 0.  The other
 * lanes keep theirs.  The keys of every lane are read (an idle lane's is
 * the zero key), so no lane's key picks an instruction.
 */
IFMA_INLINE void ifma_lanes_keys(struct ifma_lanes_set *s, const uint8_t *const q[8],
                                 __mmask8 k)
{
    __m512i x, y;
    ifma_lanes_gather(q, 0, &x, &y);
    const __m512i c0 = _mm512_set1_epi64(0x0ffffffc0fffffffLL);
    const __m512i c1 = _mm512_set1_epi64(0x0ffffffc0ffffffcLL);
    /* clamping is bytewise the same for both words of a key, lane by lane:
     * masks alternating in the unsplit registers */
    const __m512i cm = _mm512_mask_blend_epi64(0xaa, c0, c1);
    struct ifma_h r = ifma_split(_mm512_and_si512(x, cm), _mm512_and_si512(y, cm),
                                 _mm512_setzero_si512());
    const struct ifma_pow p = ifma_mkpow(r.h0, r.h1, r.h2);
    const __m512i z = _mm512_setzero_si512();
    ifma_pow_take(&s->r, k, &p);
    s->h.h0 = _mm512_mask_mov_epi64(s->h.h0, k, z);
    s->h.h1 = _mm512_mask_mov_epi64(s->h.h1, k, z);
    s->h.h2 = _mm512_mask_mov_epi64(s->h.h2, k, z);
    const struct ifma_h sq = ifma_sqr_clamped(&p);
    const struct ifma_pow p2 = ifma_mkpow(sq.h0, sq.h1, sq.h2);
    ifma_pow_take(&s->r2, k, &p2);
}

/* Set A, and B when two, with every lane's key from q[l]: the masks
 * cover all lanes. */
IFMA_INLINE void ifma_lanes_start(struct ifma_lanes_set *a, struct ifma_lanes_set *b,
                                  const uint8_t *const q[IFMA_LANES_N], const int two)
{
    const __m512i z = _mm512_setzero_si512();
    a->h.h0 = a->h.h1 = a->h.h2 = z;
    a->r.r0 = a->r.r1 = a->r.r2 = a->r.s1 = a->r.s2 = z;
    a->r2 = a->r;
    *b = *a;
    ifma_lanes_keys(a, q, 0xff);
    if (two)
        ifma_lanes_keys(b, q + 8, 0xff);
}

/*
 * The tags of the set's eight lanes into t (lane j at t + 16 j): h as the
 * steps left it (h0 < 2^44, h1 < 2^44 + 2^8, h2 < 2^42) with limb 1
 * carried into limb 2 (h1 >> 44 is 0 or 1): limbs below 2^44, 2^44 and
 * 2^42 + 1, a value h below 2^130 + 2^88 < 2 p.  Then h - p where h + 5
 * reaches 2^130 (it is then below 2^88 + 5), by mask, with no second
 * fold of bits 130 and up: the mask covers h >= 2^130 too.  Plus s of
 * key q[j], mod 2^128.
 */
IFMA_INLINE void ifma_lanes_tags(const struct ifma_lanes_set *s, const uint8_t *const q[8],
                                 uint8_t t[8][16])
{
    const __m512i m44 = _mm512_set1_epi64(IFMA_M44);
    const __m512i m42 = _mm512_set1_epi64(IFMA_M42);
    __m512i h0 = s->h.h0, h1 = s->h.h1, h2 = s->h.h2;
    h2 = _mm512_add_epi64(h2, _mm512_srli_epi64(h1, 44));
    h1 = _mm512_and_si512(h1, m44);
    /* g = h + 5 - 2^130 where that is not negative: then h >= p (g2
     * below 2^42 + 2, g below 2^131) */
    __m512i g0 = _mm512_add_epi64(h0, _mm512_set1_epi64(5));
    __m512i g1 = _mm512_add_epi64(h1, _mm512_srli_epi64(g0, 44));
    __m512i g2 = _mm512_add_epi64(h2, _mm512_srli_epi64(g1, 44));
    const __mmask8 ge = _mm512_test_epi64_mask(g2, _mm512_set1_epi64(~IFMA_M42));
    h0 = _mm512_mask_and_epi64(h0, ge, g0, m44);
    h1 = _mm512_mask_and_epi64(h1, ge, g1, m44);
    h2 = _mm512_mask_and_epi64(h2, ge, g2, m42);
    /* two 64-bit words, mod 2^128 */
    __m512i lo = _mm512_or_si512(h0, _mm512_slli_epi64(h1, 44));
    __m512i hi = _mm512_or_si512(_mm512_srli_epi64(h1, 20), _mm512_slli_epi64(h2, 24));
    /* + s */
    __m512i x, y;
    const uint8_t *sq[8];
    for (unsigned j = 0; j < 8; j++)
        sq[j] = q[j] + 16;
    ifma_lanes_gather(sq, 0, &x, &y);
    const __m512i ilo = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
    const __m512i ihi = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
    const __m512i slo = _mm512_permutex2var_epi64(x, ilo, y);
    const __m512i shi = _mm512_permutex2var_epi64(x, ihi, y);
    lo = _mm512_add_epi64(lo, slo);
    hi = _mm512_add_epi64(hi, shi);
    const __mmask8 cy = _mm512_cmplt_epu64_mask(lo, slo);
    hi = _mm512_mask_sub_epi64(hi, cy, hi, _mm512_set1_epi64(-1));
    /* back to the block order: lane j's words at 2 j, 2 j + 1 */
    const __m512i i0 = _mm512_set_epi64(11, 3, 10, 2, 9, 1, 8, 0);
    const __m512i i1 = _mm512_set_epi64(15, 7, 14, 6, 13, 5, 12, 4);
    _mm512_store_si512((void *)t[0], _mm512_permutex2var_epi64(lo, i0, hi));
    _mm512_store_si512((void *)t[4], _mm512_permutex2var_epi64(lo, i1, hi));
}

/* Entries ordered at a time (a window of the batch), longest length
 * class first (over 64 blocks, 17..64, 5..16, 0..4): a long message that
 * started late would run on alone while the other lanes idle (with 7:4:1
 * of 64, 594 and 1518 bytes, twice the steps). */
#define IFMA_LANES_WIN 64

/* The entries not yet taken: bit k of cls[c] is entry win + k, of length
 * class c, of a window of nw entries.  Apart from the manager, in
 * registers: the tags are stored through pointers that could alias the
 * manager, so its fields are loads, and a field every take updates would
 * chain the takes through memory. */
struct ifma_lanes_q {
    size_t win, nw;
    uint64_t cls[4];
};

/* The next window of the batch, classified with three compares an entry
 * (no counter in memory); 0 when the batch has no entry left. */
IFMA_INLINE int ifma_lanes_window(struct ifma_lanes_q *q, const size_t lens[], size_t n)
{
    const size_t w = q->win + q->nw;
    if (w >= n)
        return 0;
    const size_t c = n - w < IFMA_LANES_WIN ? n - w : IFMA_LANES_WIN;
    uint64_t t1 = 0, t2 = 0, t3 = 0;
    for (size_t k = 0; k < c; k++) {
        const size_t len = lens[w + k];
        t1 |= (uint64_t)(len > 4 * 16) << k;
        t2 |= (uint64_t)(len > 16 * 16) << k;
        t3 |= (uint64_t)(len > 64 * 16) << k;
    }
    q->cls[3] = t3;
    q->cls[2] = t2 & ~t3;
    q->cls[1] = t1 & ~t2;
    q->cls[0] = (c == 64 ? ~(uint64_t)0 : ((uint64_t)1 << c) - 1) & ~t1;
    q->win = w;
    q->nw = c;
    return 1;
}

/* The next entry, longest class first; n when the batch has none left. */
IFMA_INLINE size_t ifma_lanes_next(struct ifma_lanes_q *q, const size_t lens[], size_t n)
{
    for (;;) {
        for (int c = 3; c >= 0; c--) {
            const uint64_t m = q->cls[c];
            if (m) {
                q->cls[c] = m & (m - 1);
                return q->win + (size_t)__builtin_ctzll(m);
            }
        }
        if (!ifma_lanes_window(q, lens, n))
            return n;
    }
}

/* The padded last block of rest (1..15) bytes at p: a masked load, which
 * reads no byte past them, and the byte 1 after them. */
IFMA_INLINE void ifma_lanes_pad(uint8_t pad[16], const uint8_t *p, size_t rest)
{
    const __m128i v = _mm_maskz_loadu_epi8((__mmask16)((1u << rest) - 1), p);
    _mm_store_si128((__m128i *)pad, _mm_mask_set1_epi8(v, (__mmask16)(1u << rest), 1));
}

/*
 * Lane l takes the next entry with blocks (an empty message's tag is s);
 * idle when the batch has none left.  Bookkeeping only: the caller loads
 * the keys of the lanes that changed.
 */
IFMA_INLINE void ifma_lanes_take(struct ifma_lanes_mgr *g, struct ifma_lanes_q *q, unsigned l,
                                 uint8_t *const out[], const uint8_t *const msgs[],
                                 const size_t lens[], const uint8_t *const keys[], size_t n)
{
    for (;;) {
        const size_t i = ifma_lanes_next(q, lens, n);
        if (i == n)
            break;
        const size_t len = lens[i], rest = len % 16;
        if (len == 0) {
            memcpy(out[i], keys[i] + 16, 16);     /* h = 0: the tag is s */
            continue;
        }
        g->key[l] = keys[i];
        g->idx[l] = i;
        if (rest)
            ifma_lanes_pad(g->pad[l], msgs[i] + (len - rest), rest);
        if (len >= 16) {
            g->stage[l] = IFMA_LANE_FULL;
            g->p[l] = msgs[i];
            g->hb[l] = ifma_k.hibit[1];
            g->left[l] = len / 16;
        } else {
            g->stage[l] = IFMA_LANE_PAD;
            g->p[l] = g->pad[l];
            g->hb[l] = 0;
            g->left[l] = 1;
        }
        return;
    }
    g->stage[l] = IFMA_LANE_IDLE;
    g->key[l] = ifma_lanes_zero_key;
    g->hb[l] = 0;
    g->left[l] = 0;
}

/* m blocks in every lane of set A and, when two, of set B: two blocks a
 * step with r^2, then one. */
IFMA_INLINE void ifma_lanes_steps(struct ifma_lanes_set *a, struct ifma_lanes_set *b,
                                  const uint8_t *const p[IFMA_LANES_N], const uint64_t *hbs,
                                  size_t m, const int two)
{
    const __m512i hba = _mm512_loadu_si512((const void *)hbs);
    const __m512i hbb = two ? _mm512_loadu_si512((const void *)(hbs + 8)) : hba;
    struct ifma_h ha = a->h, hb = b->h;
    size_t off = 0;
    for (; m >= 2; m -= 2, off += 32) {
        ha = ifma_mul2red_t(ifma_add(ha, ifma_lanes_blocks(p, off, hba)), a->r2,
                            ifma_lanes_blocks(p, off + 16, hba), a->r);
        if (two)
            hb = ifma_mul2red_t(ifma_add(hb, ifma_lanes_blocks(p + 8, off, hbb)), b->r2,
                              ifma_lanes_blocks(p + 8, off + 16, hbb), b->r);
    }
    for (; m > 0; m--, off += 16) {
        ha = ifma_lanes_step1(ha, ifma_lanes_blocks(p, off, hba), a->r);
        if (two)
            hb = ifma_lanes_step1(hb, ifma_lanes_blocks(p + 8, off, hbb), b->r);
    }
    a->h = ha;
    if (two)
        b->h = hb;
}

/* The whole batch on two sets (two) or one. */
IFMA_INLINE void ifma_lanes_run(struct ifma_lanes_mgr *g, uint8_t *const out[],
                                const uint8_t *const msgs[], const size_t lens[],
                                const uint8_t *const keys[], size_t n, const int two)
{
    const unsigned nl = two ? 16 : 8;
    _Alignas(64) uint8_t t[8][16];
    struct ifma_lanes_set a, b;

    struct ifma_lanes_q q = {0, 0, {0, 0, 0, 0}};
    for (unsigned l = 0; l < nl; l++)
        ifma_lanes_take(g, &q, l, out, msgs, lens, keys, n);
    ifma_lanes_start(&a, &b, g->key, two);
    for (;;) {
        size_t m = SIZE_MAX;
        unsigned live = nl;
        for (unsigned l = 0; l < nl; l++)
            if (g->stage[l] != IFMA_LANE_IDLE && g->left[l] < m) {
                m = g->left[l];
                live = l;
            }
        if (live == nl)
            break;                              /* every lane idle: done */
        for (unsigned l = 0; l < nl; l++)
            if (g->stage[l] == IFMA_LANE_IDLE)
                g->p[l] = g->p[live];
        ifma_lanes_steps(&a, &b, g->p, g->hb, m, two);
        unsigned end = 0;
        for (unsigned l = 0; l < nl; l++) {
            if (g->stage[l] == IFMA_LANE_IDLE)
                continue;
            g->p[l] += m * 16;
            g->left[l] -= m;
            if (g->left[l])
                continue;
            if (g->stage[l] == IFMA_LANE_FULL && lens[g->idx[l]] % 16) {
                g->stage[l] = IFMA_LANE_PAD;
                g->p[l] = g->pad[l];
                g->hb[l] = 0;
                g->left[l] = 1;
                continue;
            }
            end |= 1u << l;
        }
        if (!end)
            continue;
        for (unsigned set = 0; set < nl / 8; set++) {
            const unsigned e = (end >> (8 * set)) & 0xff;
            if (!e)
                continue;
            ifma_lanes_tags(set ? &b : &a, g->key + 8 * set, t);
            for (unsigned j = 0; j < 8; j++)
                if (e >> j & 1)
                    memcpy(out[g->idx[8 * set + j]], t[j], 16);
            /* only lanes that start a message load a key: one that goes
             * idle keeps its r and h, whose products nobody reads */
            unsigned k = 0;
            for (unsigned j = 0; j < 8; j++)
                if (e >> j & 1) {
                    ifma_lanes_take(g, &q, 8 * set + j, out, msgs, lens, keys, n);
                    k |= (g->stage[8 * set + j] != IFMA_LANE_IDLE) << j;
                }
            if (k)
                ifma_lanes_keys(set ? &b : &a, g->key + 8 * set, (__mmask8)k);
        }
    }
    polymac_wipe(t, sizeof t);
}

/* The 2^128 bit of full blocks and of padded last blocks, every lane. */
static const uint64_t ifma_lanes_hb_full[IFMA_LANES_N] = {
    1ULL << 40, 1ULL << 40, 1ULL << 40, 1ULL << 40, 1ULL << 40, 1ULL << 40, 1ULL << 40,
    1ULL << 40, 1ULL << 40, 1ULL << 40, 1ULL << 40, 1ULL << 40, 1ULL << 40, 1ULL << 40,
    1ULL << 40, 1ULL << 40,
};
static const uint64_t ifma_lanes_hb_pad[IFMA_LANES_N];

/*
 * A group of n <= 8 messages of one length len on one set, the common
 * burst of equal packets: every lane runs the same blocks, so nothing is
 * refilled and the lanes need no bookkeeping.  Lanes from n on carry
 * message 0 under the zero key (r = 0: h stays 0) and emit nothing.
 * When the message has an odd number of full blocks and a partial one,
 * the last full block and the padded one make one step of two.  Two such
 * groups one after the other cost less than the same sixteen messages on
 * two interleaved sets (polymac-ab --batch 16, Emerald Rapids: 16 B 12%,
 * 64 B 9%, 256 B 7%, 1 KiB 4%), whose registers do not fit.
 */
IFMA_INLINE void ifma_lanes_same(uint8_t *const out[], const uint8_t *const msgs[], size_t len,
                                 const uint8_t *const keys[], size_t n, uint8_t pad[8][16])
{
    /* a full group reads the caller's arrays; a short one fills copies
     * (sized as the functions shared with two sets declare them) */
    const uint8_t *pc[IFMA_LANES_N], *kc[IFMA_LANES_N];
    const uint8_t *const *p = msgs, *const *kq = keys;
    if (n < 8) {
        for (unsigned l = 0; l < 8; l++) {
            pc[l] = msgs[l < n ? l : 0];
            kc[l] = l < n ? keys[l] : ifma_lanes_zero_key;
        }
        p = pc;
        kq = kc;
    }
    struct ifma_lanes_set a, b;
    const __m512i z = _mm512_setzero_si512();
    ifma_lanes_start(&a, &b, kq, 0);
    const size_t full = len / 16, rest = len % 16;
    const int mixed = rest && (full & 1);
    ifma_lanes_steps(&a, &b, p, ifma_lanes_hb_full, full - mixed, 0);
    if (rest) {
        const uint8_t *q[IFMA_LANES_N];
        for (unsigned l = 0; l < 8; l++) {
            ifma_lanes_pad(pad[l], p[l] + (len - rest), rest);
            q[l] = pad[l];
        }
        if (mixed) {
            const __m512i h1 = _mm512_loadu_si512((const void *)ifma_lanes_hb_full);
            const size_t off = (full - 1) * 16;
            a.h = ifma_mul2red(ifma_add(a.h, ifma_lanes_blocks(p, off, h1)), a.r2,
                               ifma_lanes_blocks(q, 0, z), a.r);
        } else {
            ifma_lanes_steps(&a, &b, q, ifma_lanes_hb_pad, 1, 0);
        }
    }
    _Alignas(64) uint8_t t[8][16];
    ifma_lanes_tags(&a, kq, t);
    for (unsigned j = 0; j < 8 && j < n; j++)
        memcpy(out[j], t[j], 16);
    polymac_wipe(t, sizeof t);
}

/*
 * The depth of dead stack each path leaves, zeroed after it (burn.h): the
 * return address, 48 bytes of pushes, up to 56 of realignment, then the
 * frame and the red zone its spills use (GCC 12, read from the
 * disassembly: the sub from rsp and the lowest rsp offset): one 584 +
 * 120, same 456 + 120, two 3080 + 120; rounded up to whole vectors.
 */
#ifndef IFMA_LANES_ONE_STACK
#define IFMA_LANES_ONE_STACK 832
#endif
#ifndef IFMA_LANES_SAME_STACK
#define IFMA_LANES_SAME_STACK 704
#endif
#ifndef IFMA_LANES_TWO_STACK
#define IFMA_LANES_TWO_STACK 3328
#endif

/* The three paths start on a cache line: their loops then keep their
 * alignment whatever code comes before them (one build to the next, the
 * same loops measured up to 5% apart with their alignment alone). */
static __attribute__((noinline, aligned(64))) void
ifma_lanes_one(struct ifma_lanes_mgr *g, uint8_t *const out[], const uint8_t *const msgs[],
               const size_t lens[], const uint8_t *const keys[], size_t n)
{
    ifma_lanes_run(g, out, msgs, lens, keys, n, 0);
}

static __attribute__((noinline, aligned(64))) void
ifma_lanes_two(struct ifma_lanes_mgr *g, uint8_t *const out[], const uint8_t *const msgs[],
               const size_t lens[], const uint8_t *const keys[], size_t n)
{
    ifma_lanes_run(g, out, msgs, lens, keys, n, 1);
}

static __attribute__((noinline, aligned(64))) void
ifma_lanes_same_one(uint8_t *const out[], const uint8_t *const msgs[], size_t len,
                    const uint8_t *const keys[], size_t n, uint8_t pad[8][16])
{
    ifma_lanes_same(out, msgs, len, keys, n, pad);
}

/* A mixed batch, IFMA_LANES_WIN entries at a time: the lengths tried a
 * window, and the fewest entries of one length that make a group. */
#define IFMA_LANES_TRIES 3
#define IFMA_LANES_GROUP 8

IFMA_INLINE size_t ifma_lanes_max(size_t a, size_t b)
{
    return a > b ? a : b;
}

/* n entries of one length len, in groups of eight. */
IFMA_INLINE void ifma_lanes_groups(uint8_t *const out[], const uint8_t *const msgs[], size_t len,
                                   const uint8_t *const keys[], size_t n, uint8_t pad[8][16])
{
    for (size_t i = 0; i < n; i += 8)
        ifma_lanes_same_one(out + i, msgs + i, len, keys + i, n - i < 8 ? n - i : 8, pad);
}

/*
 * A batch of mixed lengths, a window of 64 entries at a time: the
 * lengths that at least eight entries of the window share (a burst of a
 * few packet sizes, as in IMIX; the first three lengths met are tried)
 * run in groups of one length with no bookkeeping (ifma_lanes_same), and
 * only the other entries go through the refilling lanes, whose
 * bookkeeping costs more than the lanes it fills (17 x 64 B: 470 TSC
 * cycles as groups, 960 refilled; IMIX 1.19x faster).  Only
 * lengths decide.  Out of line, with the manager and the window's
 * arrays: a batch of one length keeps a small frame.
 */
static __attribute__((noinline)) void
ifma_lanes_mixed(uint8_t *const out[], const uint8_t *const msgs[], const size_t lens[],
                 const uint8_t *const keys[], size_t n)
{
    struct ifma_lanes_mgr g;
    size_t depth = 0;
    for (size_t w = 0; w < n; w += IFMA_LANES_WIN) {
        const size_t c = n - w < IFMA_LANES_WIN ? n - w : IFMA_LANES_WIN;
        const uint64_t all = c == 64 ? ~(uint64_t)0 : ((uint64_t)1 << c) - 1;
        uint64_t todo = all, rest = 0;
        for (unsigned t = 0; todo && t < IFMA_LANES_TRIES; t++) {
            const size_t len = lens[w + (size_t)__builtin_ctzll(todo)];
            uint64_t mk = 0;
            for (size_t k = 0; k < c; k++)
                mk |= (uint64_t)(lens[w + k] == len) << k;
            mk &= todo;
            todo &= ~mk;
            if (len == 0 || __builtin_popcountll(mk) < IFMA_LANES_GROUP) {
                rest |= mk;
                continue;
            }
            while (mk) {
                uint8_t *go[16];
                const uint8_t *gm[16], *gk[16];
                size_t gc = 0;
                for (; mk && gc < 16; mk &= mk - 1, gc++) {
                    const size_t i = w + (size_t)__builtin_ctzll(mk);
                    go[gc] = out[i];
                    gm[gc] = msgs[i];
                    gk[gc] = keys[i];
                }
                ifma_lanes_groups(go, gm, len, gk, gc, g.pad);
                depth = ifma_lanes_max(depth, IFMA_LANES_SAME_STACK);
            }
        }
        rest |= todo;
        if (!rest)
            continue;
        if (rest == all) {
            /* no group: the window's own arrays */
            if (c > 8) {
                ifma_lanes_two(&g, out + w, msgs + w, lens + w, keys + w, c);
                depth = ifma_lanes_max(depth, IFMA_LANES_TWO_STACK);
            } else {
                ifma_lanes_one(&g, out + w, msgs + w, lens + w, keys + w, c);
                depth = ifma_lanes_max(depth, IFMA_LANES_ONE_STACK);
            }
            continue;
        }
        uint8_t *ro[IFMA_LANES_WIN];
        const uint8_t *rm[IFMA_LANES_WIN], *rk[IFMA_LANES_WIN];
        size_t rl[IFMA_LANES_WIN], rc = 0;
        for (; rest; rest &= rest - 1, rc++) {
            const size_t i = w + (size_t)__builtin_ctzll(rest);
            ro[rc] = out[i];
            rm[rc] = msgs[i];
            rl[rc] = lens[i];
            rk[rc] = keys[i];
        }
        if (rc > 8) {
            ifma_lanes_two(&g, ro, rm, rl, rk, rc);
            depth = ifma_lanes_max(depth, IFMA_LANES_TWO_STACK);
        } else {
            ifma_lanes_one(&g, ro, rm, rl, rk, rc);
            depth = ifma_lanes_max(depth, IFMA_LANES_ONE_STACK);
        }
    }
    polymac_x86_burn(depth);
    polymac_wipe(g.pad, sizeof g.pad);
}

/* Whether the n >= 1 lengths are all lens[0]: eight compares an
 * instruction, the last lengths under a mask (a masked load reads no
 * element it leaves out).  A loop of scalar compares made 8 x 64 B 4.5%
 * slower (Emerald Rapids, polymac-ab --batch 8). */
_Static_assert(sizeof(size_t) == 8, "lengths compared as 64-bit lanes");

IFMA_INLINE int ifma_lanes_one_length(const size_t lens[], size_t n)
{
    const __m512i l0 = _mm512_set1_epi64((long long)lens[0]);
    __mmask8 diff = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        diff |= _mm512_cmpneq_epu64_mask(_mm512_loadu_si512((const void *)(lens + i)), l0);
    if (i < n) {
        const __mmask8 k = (__mmask8)((1u << (n - i)) - 1);
        diff |= _mm512_mask_cmpneq_epu64_mask(k, _mm512_maskz_loadu_epi64(k, lens + i), l0);
    }
    return diff == 0;
}

static void polymac_lanes_x86_avx512ifma(uint8_t *const out[], const uint8_t *const msgs[],
                                         const size_t lens[], const uint8_t *const keys[],
                                         size_t n)
{
    if (!ifma_lanes_one_length(lens, n) || !lens[0]) {
        ifma_lanes_mixed(out, msgs, lens, keys, n);
        return;
    }
    _Alignas(64) uint8_t pad[8][16];
    ifma_lanes_groups(out, msgs, lens[0], keys, n, pad);
    polymac_x86_burn(IFMA_LANES_SAME_STACK);
    if (lens[0] % 16)
        polymac_wipe(pad, sizeof pad);
}
