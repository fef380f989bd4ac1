/* poly1305_x86_avx512ifma_lanes.h -- x86-avx512ifma's batch entry: groups
 *                                    of eight messages, radix 2^44 */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/*
 * Included by poly1305_x86_avx512ifma.c, whose arithmetic it shares
 * (ifma_prod, the carries, ifma_split, the carry analysis at the top of
 * that file).
 *
 * One message per 64-bit lane, each lane with its own r (limbs and 20 r1,
 * 20 r2), its own r^2 and its own h: eight lanes in a zmm register, one
 * set of them per group of eight messages.  A step takes two blocks per
 * lane: h = (h + m1) r^2 + m2 r, both products summed before one carry
 * chain (ifma_mul2red_t).  On Intel Emerald Rapids the lanes are bound by
 * ports 0 and 5, where every 512-bit instruction of a step runs (IFMAs,
 * adds, shuffles; the shifts on port 0 only): about 80 instructions a
 * step.  So instructions are what the code below saves, latency only at
 * the ends of a chain.
 *
 * Everything that touches key or message bytes is vector code, the same
 * for every value: the eight keys are loaded, clamped, split, multiplied
 * by 20 and squared together; the tags are carried, reduced mod p (a
 * masked select, no branch), added to s and stored together.  Only
 * lengths, which are public, decide branches, masks and which address a
 * lane reads.
 *
 * A batch of one length runs in groups of eight with nothing to track
 * (ifma_lanes_same); a batch of mixed lengths is ordered by length, and
 * each group of eight runs in lockstep, every message aligned to end at
 * the group's last block (ifma_lanes_aligned).  Two interleaved sets of
 * eight, and lanes that take the next message when theirs ends (a
 * multi-buffer manager), both measured slower (docs/log.md, The batch).
 */

/* Messages of at most IFMA_LANES_MAX bytes go through the lanes; longer
 * ones up to IFMA_LANES_FULL_MAX (and the AEAD's up to IFMA_LANES_H_MAX)
 * only as groups of eight, the last of five or more (the front ends count
 * them: kernel.h, full), the rest through the one-shot paths: for such
 * lengths a group with more idle lanes costs more than the one-shots, a
 * fuller one much less (measured: docs/log.md).  Overridable with -D. */
#ifndef IFMA_LANES_MAX
#define IFMA_LANES_MAX 1024
#endif
#ifndef IFMA_LANES_FULL_MAX
#define IFMA_LANES_FULL_MAX 2048
#endif

/* The longest message of run_h, the AEAD batch's ciphertexts (whole
 * blocks; a lane takes up to two blocks of its record's tail besides): a
 * packet's alternative is its one-shot tag, not the one-shot vector path
 * of a plain message, and QUIC's and WireGuard's packets are up to about
 * 1.4 KiB.  At most 128 blocks: the window's classes (the tails' two
 * share the first). */
#ifndef IFMA_LANES_H_MAX
#define IFMA_LANES_H_MAX 2048
#endif
_Static_assert(IFMA_LANES_H_MAX >= IFMA_LANES_FULL_MAX && IFMA_LANES_FULL_MAX >= IFMA_LANES_MAX
               && IFMA_LANES_H_MAX <= 2048,
               "the zero blocks and the classes cover all three");

/* A set of eight lanes: h, r, and r^2 (a step takes two blocks). */
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
 * instructions, ifma_mul2red_t): the set is bound by the ports after its
 * first steps.  The steps at the end of a chain, where the set waits for
 * its carries (the one-block step, a group's last step of a full and a
 * padded block), keep the shorter-latency ifma_shift_carry
 * (ifma_mul2red).  Bounds (the
 * analysis at the top of poly1305_x86_avx512ifma.c, doubled sums,
 * test/unit/bounds.c's lanes model): every factor below
 * 2^45.1, so l_i < 2^55.1, g0 < 2^41.7, g1 < 2^39.9, g2 < 2^38.7;
 * 5 * 2^10 g2 < 2^50.4 and c = l2 >> 42 < 2^12.6; the result
 * has h0 < 2^44 + 2^15, h1 < 2^44 + 2^8, h2 < 2^42 + 2^11, and every
 * IFMA shift and multiplication by 5 of ifma_carry is exact (below 2^52).
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
 * The count decides in the steps (faster from 128 B, the same below),
 * not in the last step of a padded group, which is slower with it
 * (measured: docs/log.md, Figures moved out of lib/ comments).  The
 * bounds hold for both (test/unit/bounds.c checks the IFMA inputs and
 * exact products of the lanes' step). */
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

/* The set starts the messages whose keys q[j] holds: r clamped and
 * split, 20 r1 and 20 r2, r^2 when square, h = 0.  Every lane reads a
 * key (an unused lane the zero key), so no key picks an instruction. */
IFMA_INLINE void ifma_lanes_start(struct ifma_lanes_set *s, const uint8_t *const q[8],
                                  int square)
{
    __m512i x, y;
    ifma_lanes_gather(q, 0, &x, &y);
    const __m512i c0 = _mm512_set1_epi64(0x0ffffffc0fffffffLL);
    const __m512i c1 = _mm512_set1_epi64(0x0ffffffc0ffffffcLL);
    /* clamping is bytewise the same for both words of a key, lane by lane:
     * masks alternating in the unsplit registers */
    const __m512i cm = _mm512_mask_blend_epi64(0xaa, c0, c1);
    const struct ifma_h r = ifma_split(_mm512_and_si512(x, cm), _mm512_and_si512(y, cm),
                                       _mm512_setzero_si512());
    s->r = ifma_mkpow(r.h0, r.h1, r.h2);
    s->h.h0 = s->h.h1 = s->h.h2 = _mm512_setzero_si512();
    if (!square) {
        s->r2 = s->r;                   /* not used: the steps take one block */
        return;
    }
    const struct ifma_h sq = ifma_sqr_clamped(&s->r);
    s->r2 = ifma_mkpow(sq.h0, sq.h1, sq.h2);
}

/* run_h's records' h (kernel.h: h0, h1, h2 <= 4 as 64-bit words; the
 * fourth word, nt, is not read) at q[j] as the lanes' h: limbs below
 * 2^44, 2^44, 2^43, as a block. */
IFMA_INLINE struct ifma_h ifma_lanes_hin(const uint8_t *const q[8])
{
    __m512i x, y, u, v;
    ifma_lanes_gather(q, 0, &x, &y);
    ifma_lanes_gather(q, 16, &u, &v);
    const __m512i ilo = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
    const __m512i h2 = _mm512_permutex2var_epi64(u, ilo, v);
    return ifma_split(x, y, _mm512_slli_epi64(h2, 40));
}

/* The set's h as the steps left it, limb 0 carried into 1 and limb 1
 * into 2 (ifma_carry leaves h0 uncarried, below 2^44 + 2^15): limbs
 * below 2^44, 2^44 and 2^42 + 2^11 + 1. */
IFMA_INLINE struct ifma_h ifma_lanes_carried(const struct ifma_lanes_set *s)
{
    const __m512i m44 = _mm512_set1_epi64(IFMA_M44);
    struct ifma_h h = s->h;
    h.h1 = _mm512_add_epi64(h.h1, _mm512_srli_epi64(h.h0, 44));
    h.h0 = _mm512_and_si512(h.h0, m44);
    h.h2 = _mm512_add_epi64(h.h2, _mm512_srli_epi64(h.h1, 44));
    h.h1 = _mm512_and_si512(h.h1, m44);
    return h;
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
    const struct ifma_h c = ifma_lanes_carried(s);
    __m512i h0 = c.h0, h1 = c.h1, h2 = c.h2;
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

/* The padded last block of rest (1..15) bytes at p: a masked load, which
 * reads no byte past them, and the byte 1 after them. */
IFMA_INLINE void ifma_lanes_pad(uint8_t pad[16], const uint8_t *p, size_t rest)
{
    const __m128i v = _mm_maskz_loadu_epi8((__mmask16)((1u << rest) - 1), p);
    _mm_store_si128((__m128i *)pad, _mm_mask_set1_epi8(v, (__mmask16)(1u << rest), 1));
}

/* The 2^128 bit of full blocks and of padded last blocks, every lane. */
static const uint64_t ifma_lanes_hb_full[8] = {
    1ULL << 40, 1ULL << 40, 1ULL << 40, 1ULL << 40, 1ULL << 40, 1ULL << 40, 1ULL << 40,
    1ULL << 40,
};
static const uint64_t ifma_lanes_hb_pad[8];

/* m blocks in every lane: two a step with r^2 (when the set has it:
 * two), then one. */
IFMA_INLINE void ifma_lanes_steps(struct ifma_lanes_set *a, const uint8_t *const p[8],
                                  const uint64_t *hbs, size_t m, int two)
{
    const __m512i hb = _mm512_loadu_si512((const void *)hbs);
    struct ifma_h h = a->h;
    size_t off = 0;
    for (; two && m >= 2; m -= 2, off += 32)
        h = ifma_mul2red_t(ifma_add(h, ifma_lanes_blocks(p, off, hb)), a->r2,
                           ifma_lanes_blocks(p, off + 16, hb), a->r);
    for (; m > 0; m--, off += 16)
        h = ifma_lanes_step1(h, ifma_lanes_blocks(p, off, hb), a->r);
    a->h = h;
}

/* Messages of at most this many bytes (three blocks) run one block a
 * step by r, without the square: faster than the steps of two blocks up
 * to 48 B, while from 64 B the square pays; with both copies in the
 * library the test of the length costs longer messages next to nothing
 * (measured: docs/log.md, Figures moved out of lib/ comments). */
#ifndef IFMA_LANES_NO_SQUARE
#define IFMA_LANES_NO_SQUARE 48
#endif

/*
 * A group of n <= 8 messages of one length len (not 0), the common burst
 * of equal packets: every lane runs the same blocks, so the set needs no
 * addresses of its own.  Lanes from n on carry message 0 under the zero
 * key (r = 0: h stays 0) and emit nothing.  When the message has an odd
 * number of full blocks and a partial one, the last full block and the
 * padded one make one step of two.  Two such groups one after the other
 * cost less than the same sixteen messages on two interleaved sets
 * (measured: docs/log.md, Figures moved out of lib/ comments), whose
 * registers do not fit.
 */
IFMA_INLINE void ifma_lanes_same(uint8_t *const out[], const uint8_t *const msgs[], size_t len,
                                 const uint8_t *const keys[], size_t n, uint8_t pad[8][16],
                                 int square, const int hio,
                                 const struct polymac_aead_rec *const recs[])
{
    /* a full group reads the caller's arrays; a short one fills copies
     * (run_h: records, the zero key's bytes for the unused lanes) */
    const uint8_t *pc[8], *kc[8], *hc[8];
    const uint8_t *const *p = msgs, *const *kq = keys;
    if (n < 8 || hio) {
        for (unsigned l = 0; l < 8; l++) {
            pc[l] = msgs[l < n ? l : 0];
            kc[l] = l < n ? keys[l] : ifma_lanes_zero_key;
            hc[l] = hio && l < n ? (const uint8_t *)recs[l]->h : ifma_lanes_zero_key;
        }
        p = pc;
        kq = kc;
    }
    struct ifma_lanes_set a;
    const size_t full = len / 16, rest = len % 16;
    ifma_lanes_start(&a, kq, square);
    if (hio) {
        /* run_h: the whole blocks, then the last two: the ciphertext's
         * last block or its padded one, and the lengths (the records'
         * tails; every lane the same count, not the same split) */
        a.h = ifma_lanes_hin(hc);
        ifma_lanes_steps(&a, p, ifma_lanes_hb_full, full - 2, 1);
        const uint8_t *q1[8], *q2[8];
        for (unsigned l = 0; l < 8; l++) {
            const struct polymac_aead_rec *r = recs[l < n ? l : 0];
            q1[l] = r->nt == 2 ? r->tail : p[l] + 16 * (full - 2);
            q2[l] = r->tail + 16;
        }
        const __m512i h1 = _mm512_loadu_si512((const void *)ifma_lanes_hb_full);
        a.h = ifma_mul2red(ifma_add(a.h, ifma_lanes_blocks(q1, 0, h1)), a.r2,
                           ifma_lanes_blocks(q2, 0, h1), a.r);
    }
    const int mixed = !hio && square && rest && (full & 1);
    if (!hio)
        ifma_lanes_steps(&a, p, ifma_lanes_hb_full, full - mixed, square);
    if (rest) {
        const uint8_t *q[8];
        for (unsigned l = 0; l < 8; l++) {
            ifma_lanes_pad(pad[l], p[l] + (len - rest), rest);
            q[l] = pad[l];
        }
        if (mixed) {
            const __m512i h1 = _mm512_loadu_si512((const void *)ifma_lanes_hb_full);
            const size_t off = (full - 1) * 16;
            a.h = ifma_mul2red(ifma_add(a.h, ifma_lanes_blocks(p, off, h1)), a.r2,
                               ifma_lanes_blocks(q, 0, _mm512_setzero_si512()), a.r);
        } else {
            ifma_lanes_steps(&a, q, ifma_lanes_hb_pad, 1, 0);
        }
    }
    _Alignas(64) uint8_t t[8][16];
    ifma_lanes_tags(&a, kq, t);
    for (unsigned j = 0; j < 8 && j < n; j++)
        memcpy(out[j], t[j], 16);
    polymac_wipe(t, sizeof t);
}

/* What a lane reads before its message starts: zero blocks, which with
 * the 2^128 bit 0 leave h at 0, as many as the longest message a group
 * may have (max_len; the front end and the self-test hand the lanes no
 * longer one). */
static const uint8_t ifma_lanes_zeros[IFMA_LANES_H_MAX + 32] __attribute__((aligned(64)));

/*
 * A group of n <= 8 messages of any lengths up to max_len, in
 * lockstep: each message is aligned to end at the group's last block t -
 * 1, and the lane of a shorter one reads zero blocks (2^128 bit 0) until
 * its message starts, which leaves h at 0.  So every lane ends at the
 * same step and the tags are made together: no lane is refilled.  The
 * group costs the steps of its longest message; the caller orders a
 * batch by length, so that a group's messages are close in length.
 *
 * The lanes take the messages longest first, so the lanes reading their
 * messages at block b are the first k(b), and each lane's address, at a
 * common offset 16 b, changes once: from the zero blocks to its message
 * (bs: the message less 16 z, z its first block), when it joins.  A step
 * reads two such tables (its first and second block), the last step a
 * third, where a length that is not a whole number of blocks has its
 * padded block (run_h: a fourth as well, the last two blocks from the
 * records' tails).  Nothing else is computed per lane between steps (a
 * choice of three addresses per lane and block cost much more than a
 * group of one length: docs/log.md, Figures moved out of lib/ comments).
 * Lengths and addresses only.
 */
IFMA_INLINE void ifma_lanes_aligned(uint8_t *const out[], const uint8_t *const msgs[],
                                    const size_t lens[], const uint8_t *const keys[], size_t n,
                                    uint8_t pad[8][16], const int sorted, const int hio,
                                    const struct polymac_aead_rec *const recs[])
{
    /* ord: entries by block count, longest first (insertion, stable),
     * unless the caller has ordered them */
    unsigned ord[8];
    size_t nb[8], t0 = 0;
    for (unsigned j = 0; j < n; j++) {
        const size_t b = (lens[j] + 15) / 16;
        t0 = b > t0 ? b : t0;
        unsigned i = j;
        for (; !sorted && i > 0 && nb[i - 1] < b; i--) {
            nb[i] = nb[i - 1];
            ord[i] = ord[i - 1];
        }
        nb[i] = b;
        ord[i] = j;
    }
    const size_t t = t0 + (t0 & 1);           /* whole steps of two blocks */
    /* addresses as pointers, computed as integers (a message's base lies
     * before it: only base + 16 b for b >= z is read) */
    const uint8_t *const zero = ifma_lanes_zeros;
    const uint8_t *p1[8], *p2[8], *last[8], *last1[8], *base[8];
    size_t z[8];
    const uint8_t *kq[8], *hq[8];
    uint8_t full = 0;                          /* lanes whose last block is full */
    for (unsigned l = 0; l < 8; l++) {
        const size_t len = l < n ? lens[ord[l]] : 0, rest = len % 16;
        /* an empty message joins at the last block, as a one-block one
         * would (a caller's order by class puts them together), and reads
         * a zero block there with the 2^128 bit 0 */
        z[l] = l < n ? t - (nb[l] ? nb[l] : 1) : t;
        base[l] = l < n && len ? (const uint8_t *)((uintptr_t)msgs[ord[l]] - 16 * (uintptr_t)z[l])
                               : zero;
        last[l] = len ? base[l] : zero;
        if (rest) {
            ifma_lanes_pad(pad[l], msgs[ord[l]] + (len - rest), rest);
            last[l] = (const uint8_t *)((uintptr_t)pad[l] - 16 * (uintptr_t)(t - 1));
        }
        full |= (uint8_t)((len && !rest) << l);
        last1[l] = base[l];
        if (hio && l < n) {
            /* run_h: the last two blocks, the ciphertext's last or its
             * padded one and the lengths, from the record's tail */
            const struct polymac_aead_rec *r = recs[ord[l]];
            last[l] = (const uint8_t *)((uintptr_t)r->tail + 16 - 16 * (uintptr_t)(t - 1));
            if (r->nt == 2)
                last1[l] = (const uint8_t *)((uintptr_t)r->tail - 16 * (uintptr_t)(t - 2));
        }
        kq[l] = l < n ? keys[ord[l]] : ifma_lanes_zero_key;
        hq[l] = hio && l < n ? (const uint8_t *)recs[ord[l]]->h : ifma_lanes_zero_key;
    }
    for (unsigned l = 0; l < 8; l++)
        p1[l] = p2[l] = zero;
    struct ifma_lanes_set a;
    ifma_lanes_start(&a, kq, 1);
    const __m512i hbit = ifma_bcastk(&ifma_k.hibit[1]);
    struct ifma_h h = a.h, hs = a.h;
    /* run_h: a lane's h record joins its first block (the lane's h is 0
     * until then), the steps where lanes join only: joined, the lanes
     * that have */
    if (hio)
        hs = ifma_lanes_hin(hq);
    unsigned k1 = 0, k2 = 0, joined = 0;
    for (size_t b = 0; b < t; b += 2) {
        /* the lanes whose messages start at block b or b + 1 join */
        for (; k1 < n && z[k1] <= b; k1++)
            p1[k1] = base[k1];
        for (; k2 < n && z[k2] <= b + 1; k2++)
            p2[k2] = base[k2];
        const int end = b + 2 == t;
        const uint8_t *const *q1 = end && hio ? last1 : p1, *const *q2 = end ? last : p2;
        const __m512i hb1 = _mm512_maskz_mov_epi64((__mmask8)((1u << k1) - 1), hbit);
        const __m512i hb2 = _mm512_maskz_mov_epi64(
            end ? (__mmask8)full : (__mmask8)((1u << k2) - 1), hbit);
        struct ifma_h m2 = ifma_lanes_blocks(q2, 16 * b + 16, hb2);
        if (hio && joined != (1u << k2) - 1) {
            const __mmask8 j1 = (__mmask8)(((1u << k1) - 1) & ~joined);
            const __mmask8 j2 = (__mmask8)(((1u << k2) - 1) & ~((1u << k1) - 1) & ~joined);
            joined = (1u << k2) - 1;
            h.h0 = _mm512_mask_add_epi64(h.h0, j1, h.h0, hs.h0);
            h.h1 = _mm512_mask_add_epi64(h.h1, j1, h.h1, hs.h1);
            h.h2 = _mm512_mask_add_epi64(h.h2, j1, h.h2, hs.h2);
            m2.h0 = _mm512_mask_add_epi64(m2.h0, j2, m2.h0, hs.h0);
            m2.h1 = _mm512_mask_add_epi64(m2.h1, j2, m2.h1, hs.h1);
            m2.h2 = _mm512_mask_add_epi64(m2.h2, j2, m2.h2, hs.h2);
        }
        h = ifma_mul2red_t(ifma_add(h, ifma_lanes_blocks(q1, 16 * b, hb1)), a.r2, m2, a.r);
    }
    a.h = h;
    _Alignas(64) uint8_t tg[8][16];
    ifma_lanes_tags(&a, kq, tg);
    for (unsigned l = 0; l < n; l++)
        memcpy(out[ord[l]], tg[l], 16);
    polymac_wipe(tg, sizeof tg);
}

/*
 * The depth of dead stack each path leaves, zeroed after it (burn.h): the
 * return address, the pushes, up to 56 bytes of realignment, then the
 * frame and the red zone its spills use, the deepest of GCC 12 and 14 and
 * clang 14 and 19 (test/trust/burn_depths.py reads them from the built
 * library and fails on a shorter one; docs/log.md has the table), rounded
 * up to whole vectors.  A mixed
 * batch zeroes below ifma_lanes_mixed's frame (lengths and addresses),
 * its caller only the depth of a group called directly.
 */
#ifndef IFMA_LANES_SAME_STACK
#define IFMA_LANES_SAME_STACK 704
#endif
#ifndef IFMA_LANES_ALIGNED_STACK
#define IFMA_LANES_ALIGNED_STACK 1152
#endif
/* the groups of run_h: their h records' vectors besides (not read from
 * the disassembly yet: the aligned depth with room) */
#ifndef IFMA_LANES_H_STACK
#define IFMA_LANES_H_STACK 1152
#endif

/* The two copies of a group of one length, with and without the square
 * of r (no test of the length in the steps), and the two of a mixed
 * group, each out of line. */
static __attribute__((noinline)) void
ifma_lanes_same_sq(uint8_t *const out[], const uint8_t *const msgs[], size_t len,
                   const uint8_t *const keys[], size_t n, uint8_t pad[8][16])
{
    ifma_lanes_same(out, msgs, len, keys, n, pad, 1, 0, NULL);
}

static __attribute__((noinline)) void
ifma_lanes_same_short(uint8_t *const out[], const uint8_t *const msgs[], size_t len,
                      const uint8_t *const keys[], size_t n, uint8_t pad[8][16])
{
    ifma_lanes_same(out, msgs, len, keys, n, pad, 0, 0, NULL);
}

/* run_h's group of one length (with the tails: at least two blocks), two
 * a step */
static __attribute__((noinline)) void
ifma_lanes_same_h(uint8_t *const out[], const uint8_t *const msgs[], size_t len,
                  const uint8_t *const keys[], size_t n, uint8_t pad[8][16],
                  const struct polymac_aead_rec *const recs[])
{
    ifma_lanes_same(out, msgs, len, keys, n, pad, 1, 1, recs);
}

/* A group of one length: up to IFMA_LANES_NO_SQUARE bytes one block a
 * step, longer ones two (a copy of the code each: no test of the length
 * in the steps). */
IFMA_INLINE void ifma_lanes_same_one(uint8_t *const out[], const uint8_t *const msgs[],
                                     size_t len, const uint8_t *const keys[], size_t n,
                                     uint8_t pad[8][16], const int hio,
                                     const struct polymac_aead_rec *const recs[])
{
    if (hio)
        ifma_lanes_same_h(out, msgs, len, keys, n, pad, recs);
    else if (len > IFMA_LANES_NO_SQUARE)
        ifma_lanes_same_sq(out, msgs, len, keys, n, pad);
    else
        ifma_lanes_same_short(out, msgs, len, keys, n, pad);
}

static __attribute__((noinline)) void
ifma_lanes_aligned_one(uint8_t *const out[], const uint8_t *const msgs[], const size_t lens[],
                       const uint8_t *const keys[], size_t n, uint8_t pad[8][16])
{
    ifma_lanes_aligned(out, msgs, lens, keys, n, pad, 0, 0, NULL);
}

/* run_h's mixed group, ordered here: the window's first class holds
 * 64 to 128 blocks unordered */
static __attribute__((noinline)) void
ifma_lanes_aligned_h(uint8_t *const out[], const uint8_t *const msgs[], const size_t lens[],
                     const uint8_t *const keys[], size_t n, uint8_t pad[8][16],
                     const struct polymac_aead_rec *const recs[])
{
    ifma_lanes_aligned(out, msgs, lens, keys, n, pad, 0, 1, recs);
}

/* The same for a group the caller has ordered, longest first. */
static __attribute__((noinline)) void
ifma_lanes_aligned_sorted(uint8_t *const out[], const uint8_t *const msgs[],
                          const size_t lens[], const uint8_t *const keys[], size_t n,
                          uint8_t pad[8][16])
{
    ifma_lanes_aligned(out, msgs, lens, keys, n, pad, 1, 0, NULL);
}

/* Whether the n >= 1 lengths are all lens[0]: eight compares an
 * instruction, the last lengths under a mask (a masked load reads no
 * element it leaves out).  A loop of scalar compares was slower
 * (measured: docs/log.md, Figures moved out of lib/ comments). */
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

/* Entries ordered at a time: a window of the batch. */
#define IFMA_LANES_WIN 64

/*
 * A batch of mixed lengths, IFMA_LANES_WIN entries at a time, ordered by
 * block count, longest first (a counting sort: lengths only; the front
 * end's longest is max_len, the self-test's longer ones share the first
 * class, empty messages the last), then in
 * groups of eight: a group of one length runs as such (ifma_lanes_same),
 * any other in lockstep (ifma_lanes_aligned).  Out of line, with the
 * window's arrays: a batch of one length keeps a small frame.
 */
IFMA_INLINE void ifma_lanes_window(uint8_t *const out[], const uint8_t *const msgs[],
                                   const size_t lens[], const uint8_t *const keys[], size_t n,
                                   uint8_t pad[8][16], const int hio,
                                   const struct polymac_aead_rec *const recs[])
{
    /* class 0: 64 blocks and more, ..., class 63: 1 block or none */
    uint8_t *so[IFMA_LANES_WIN];
    const uint8_t *sm[IFMA_LANES_WIN], *sk[IFMA_LANES_WIN];
    const struct polymac_aead_rec *sr[IFMA_LANES_WIN];
    size_t sl[IFMA_LANES_WIN], depth = hio ? IFMA_LANES_H_STACK : IFMA_LANES_SAME_STACK;
    for (size_t w = 0; w < n; w += IFMA_LANES_WIN) {
        const size_t c = n - w < IFMA_LANES_WIN ? n - w : IFMA_LANES_WIN;
        /* the classes eight to a vector (lanes past c: 64, no class),
         * and the set of classes present */
        __m512i cv[IFMA_LANES_WIN / 8], lv[IFMA_LANES_WIN / 8];
        __m512i bits = _mm512_setzero_si512();
        const size_t nv = (c + 7) / 8;
        for (size_t j = 0; j < nv; j++) {
            const __mmask8 in = (__mmask8)(c - 8 * j >= 8 ? 0xff : (1u << (c - 8 * j)) - 1);
            lv[j] = _mm512_maskz_loadu_epi64(in, lens + w + 8 * j);
            /* run_h: classes of two block counts, up to its 128 blocks
             * (its groups order themselves) */
            __m512i nb = _mm512_srli_epi64(_mm512_add_epi64(lv[j], _mm512_set1_epi64(hio ? 31 : 15)),
                                           hio ? 5 : 4);
            nb = _mm512_min_epu64(_mm512_max_epu64(nb, _mm512_set1_epi64(1)),
                                  _mm512_set1_epi64(64));
            /* a length near 2^64 wraps in the add: it is past max_len,
             * which only the self-test's lengths reach (below 2^12) */
            cv[j] = _mm512_mask_sub_epi64(_mm512_set1_epi64(64), in, _mm512_set1_epi64(64), nb);
            bits = _mm512_or_si512(bits, _mm512_sllv_epi64(_mm512_set1_epi64(1), cv[j]));
        }
        const uint64_t present = (uint64_t)_mm512_reduce_or_epi64(bits);
        /* each class present, longest first: its entries as a mask
         * (compares eight at a time), appended in order; where it ends
         * and whether its lengths are one.  A counting sort, a scalar
         * pass over the classes and a per-entry note of mixed groups
         * each chained through memory and cost more (measured:
         * docs/log.md, Figures moved out of lib/ comments). */
        uint8_t qend[64], qone[64];
        size_t k = 0, nq = 0;
        for (uint64_t cm = present; cm; cm &= cm - 1, nq++) {
            const __m512i qv = _mm512_set1_epi64((long long)__builtin_ctzll(cm));
            uint64_t mk = 0;
            for (size_t j = 0; j < nv; j++)
                mk |= (uint64_t)_mm512_cmpeq_epu64_mask(cv[j], qv) << (8 * j);
            const __m512i fv = _mm512_set1_epi64((long long)lens[w + (size_t)__builtin_ctzll(mk)]);
            unsigned diff = 0;
            for (size_t j = 0; j < nv; j++)
                diff |= _mm512_mask_cmpneq_epu64_mask((__mmask8)(mk >> (8 * j)), lv[j], fv);
            for (; mk; mk &= mk - 1, k++) {
                const size_t i = w + (size_t)__builtin_ctzll(mk);
                so[k] = out[i];
                sm[k] = msgs[i];
                sl[k] = lens[i];
                sk[k] = keys[i];
                sr[k] = hio ? recs[i] : NULL;
            }
            qend[nq] = (uint8_t)k;
            qone[nq] = !diff;
        }
        /* a group of eight of one class of one length runs as such */
        size_t q = 0;
        for (size_t g = 0; g < c; g += 8) {
            const size_t m = c - g < 8 ? c - g : 8;
            while (qend[q] <= g)
                q++;
            if (sl[g] && qone[q] && qend[q] >= g + m) {
                ifma_lanes_same_one(so + g, sm + g, sl[g], sk + g, m, pad, hio, sr + g);
            } else {
                if (hio)
                    ifma_lanes_aligned_h(so + g, sm + g, sl + g, sk + g, m, pad, sr + g);
                else if (sl[g] > 16 * 63)
                    /* the first class holds 64 blocks and more unordered */
                    ifma_lanes_aligned_one(so + g, sm + g, sl + g, sk + g, m, pad);
                else
                    ifma_lanes_aligned_sorted(so + g, sm + g, sl + g, sk + g, m, pad);
                depth = hio ? IFMA_LANES_H_STACK : IFMA_LANES_ALIGNED_STACK;
            }
        }
    }
    /* the groups' dead stack, below this frame (which holds lengths and
     * addresses only), as deep as the deepest group that ran: zeroing
     * from the caller, past this frame, cost a 16-message batch more
     * (measured: docs/log.md, Figures moved out of lib/ comments) */
    polymac_x86_burn(depth);
}

static __attribute__((noinline)) void
ifma_lanes_mixed(uint8_t *const out[], const uint8_t *const msgs[], const size_t lens[],
                 const uint8_t *const keys[], size_t n, uint8_t pad[8][16])
{
    ifma_lanes_window(out, msgs, lens, keys, n, pad, 0, NULL);
}

static __attribute__((noinline)) void
ifma_lanes_mixed_h(uint8_t *const out[], const struct polymac_aead_rec *const recs[],
                   const uint8_t *const msgs[], const size_t lens[],
                   const uint8_t *const keys[], size_t n, uint8_t pad[8][16])
{
    ifma_lanes_window(out, msgs, lens, keys, n, pad, 1, recs);
}

static void polymac_lanes_x86_avx512ifma(uint8_t *const out[], const uint8_t *const msgs[],
                                         const size_t lens[], const uint8_t *const keys[],
                                         size_t n)
{
    _Alignas(64) uint8_t pad[8][16];
    size_t depth = IFMA_LANES_ALIGNED_STACK;
    if (!lens[0] || !ifma_lanes_one_length(lens, n)) {
        if (n <= 8)
            ifma_lanes_aligned_one(out, msgs, lens, keys, n, pad);
        else
            ifma_lanes_mixed(out, msgs, lens, keys, n, pad);
    } else {
        for (size_t i = 0; i < n; i += 8)
            ifma_lanes_same_one(out + i, msgs + i, lens[0], keys + i, n - i < 8 ? n - i : 8,
                                pad, 0, NULL);
        depth = IFMA_LANES_SAME_STACK;
    }
    polymac_x86_burn(depth);
    polymac_wipe(pad, sizeof pad);
}

/* run_h (kernel.h): every group through the window's code, which takes
 * groups of one length as such */
static void polymac_lanes_h_x86_avx512ifma(uint8_t *const out[],
                                           const struct polymac_aead_rec *const recs[],
                                           const uint8_t *const msgs[], const size_t lens[],
                                           const uint8_t *const keys[], size_t n)
{
    _Alignas(64) uint8_t pad[8][16];
    ifma_lanes_mixed_h(out, recs, msgs, lens, keys, n, pad);
    polymac_x86_burn(IFMA_LANES_H_STACK);
    polymac_wipe(pad, sizeof pad);
}

/* The fewest messages worth the lanes: one set of eight costs about as
 * much for one message as for eight (docs/log.md has the counts
 * measured); a group of mixed lengths runs in lockstep, which costs more. */
static const struct polymac_lanes ifma_lanes_entry = {
    .run = polymac_lanes_x86_avx512ifma,
    .max_len = IFMA_LANES_MAX,
    .max_len_full = IFMA_LANES_FULL_MAX,
    .full = 8,
    .full_min = 5,
    .min_same = 4,
    .min_mixed = 7,
    .reads_first = 8,       /* one set stages its tags (ifma_lanes_same, _aligned) */
    .run_h = polymac_lanes_h_x86_avx512ifma,
    .max_len_h = IFMA_LANES_H_MAX,
};
