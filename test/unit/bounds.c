/* bounds.c -- worst-case limb bounds of every kernel's multiply and carry
 *             steps, iterated to each loop's fixed point */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/*
 * The kernels' comments claim bounds (h2 < 2^63 in the radix-2^64 core,
 * limbs below 2^26 + 2^9 after the vector carry chain, IFMA inputs below
 * 2^52, ...).  This program recomputes them: interval arithmetic on the
 * largest value each limb can hold, through the same products, sums and
 * carry steps as the code, and each loop run again and again until the
 * bounds of h stop growing (the fixed point).  It fails when a bound
 * exceeds its register (32-bit multiplicand of vpmuludq/umull, 64-bit
 * accumulator, 128-bit sum) or an IFMA input or exact product reaches
 * 2^52, and prints each bound with its margin in bits.
 *
 *   bounds                  the table; exit 0 when every bound holds
 *   bounds --drop-carry     a deliberately wrong model: the last carry
 *                           (limb 0 -> 1 after the fold) left out of every
 *                           chain; every model must fail, except those
 *                           listed in carry_slack (the test of the test)
 *
 * The models follow the code: lib/generic/r64.h (polymac_r64_core),
 * r26.h (polymac_r26_mul_acc, polymac_r26_carry), r26x2, lib/x86/r26vec_ops.h
 * (carry, the one- and two-group loops, the lane sums),
 * lib/x86/poly1305_x86_avx512ifma_arith.h (ifma_mulred, ifma_mulred2), lib/power/
 * poly1305_power_p9.c (vmsumudm columns), lib/s390x/poly1305_s390x_vx.c
 * (the batch lanes).  NEON uses the four-lane
 * radix-2^26 form with the same vector carry order; arm-neon's AArch32
 * step (lib/arm/neon_steps_a32.h) narrows its limbs to 32-bit lanes
 * within it and has a model of its own.  A change to a
 * kernel's arithmetic needs the same change here.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef unsigned __int128 u128;
#define U128_MAX (~(u128)0)

static int fails, drop_carry, printing;
static char model[64];

static double lg(u128 v)
{
    return v == 0 ? 0 : log2((double)v);
}

static u128 add(u128 a, u128 b)
{
    return a > U128_MAX - b ? U128_MAX : a + b;
}

static u128 mul(u128 a, u128 b)
{
    return a != 0 && b > U128_MAX / a ? U128_MAX : a * b;
}

static u128 pow2(int k)
{
    return (u128)1 << k;
}

/* v is the largest value; it must be below 2^bits */
static void bound(const char *what, u128 v, int bits)
{
    int ok = bits < 128 ? v < pow2(bits) : v != U128_MAX;
    double margin = bits - lg(v + (v != U128_MAX));
    if (!ok)
        fails++;
    if (printing || !ok)
        printf("%-16s %-44s 2^%-7.2f < 2^%-3d margin %5.2f bits%s\n", model, what, lg(v), bits,
               margin, ok ? "" : "  EXCEEDED");
}

/* ---- radix 2^26: five limbs ---- */
struct l5 {
    u128 v[5];
};

static struct l5 clamp26(void)
{
    /* r = key & 0x0ffffffc0ffffffc0ffffffc0fffffff, in 26-bit limbs */
    static const unsigned char mask[16] = {0xff, 0xff, 0xff, 0x0f, 0xfc, 0xff, 0xff, 0x0f,
                                           0xfc, 0xff, 0xff, 0x0f, 0xfc, 0xff, 0xff, 0x0f};
    u128 r = 0;
    struct l5 o;
    for (int i = 15; i >= 0; i--)
        r = r << 8 | mask[i];
    for (int i = 0; i < 5; i++)
        o.v[i] = (r >> (26 * i)) & (pow2(26) - 1);
    return o;
}

/* message limbs: 26 bits, the top one 24 bits plus the 2^128 bit */
static struct l5 msg26(void)
{
    struct l5 m;
    for (int i = 0; i < 4; i++)
        m.v[i] = pow2(26) - 1;
    m.v[4] = pow2(25) - 1;
    return m;
}

static struct l5 add5(struct l5 a, struct l5 b)
{
    for (int i = 0; i < 5; i++)
        a.v[i] = add(a.v[i], b.v[i]);
    return a;
}

/* d_i = sum_j x_j y_{i-j}, the wrapped products times 5 (the fives); x
 * and y enter a 32x32->64 multiply: both below 2^32 */
static struct l5 mul26(const char *what, struct l5 x, struct l5 y)
{
    struct l5 d;
    char buf[96];
    for (int j = 0; j < 5; j++) {
        snprintf(buf, sizeof buf, "%s: multiplicand x%d", what, j);
        bound(buf, x.v[j], 32);
        snprintf(buf, sizeof buf, "%s: multiplier 5 y%d", what, j);
        bound(buf, j ? mul(y.v[j], 5) : y.v[0], 32);
    }
    for (int i = 0; i < 5; i++) {
        d.v[i] = 0;
        for (int j = 0; j < 5; j++) {
            int k = i - j;
            u128 yk = k >= 0 ? y.v[k] : mul(y.v[k + 5], 5);
            d.v[i] = add(d.v[i], mul(x.v[j], yk));
        }
    }
    return d;
}

/* a carry chain: steps {from, to}; to == 0 after limb 4 means times 5 */
struct step {
    int from, to;
};
static const struct step chain_scalar[] = {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}, {0, 1}};
static const struct step chain_vec[] = {{3, 4}, {0, 1}, {4, 0}, {1, 2}, {0, 1}, {2, 3}, {3, 4}};
/* lib/s390x/poly1305_s390x_vx.c, vx_carry */
static const struct step chain_vx[] = {{0, 1}, {3, 4}, {1, 2}, {4, 0}, {2, 3}, {0, 1}, {3, 4}};

static struct l5 carry26(const char *what, struct l5 d, const struct step *s, int n, int hbits)
{
    char buf[96];
    for (int i = 0; i < 5; i++) {
        snprintf(buf, sizeof buf, "%s: column d%d", what, i);
        bound(buf, d.v[i], 64);
    }
    if (drop_carry)
        n--;                               /* the wrong model: last step left out */
    for (int k = 0; k < n; k++) {
        u128 c = d.v[s[k].from] >> 26;
        if (d.v[s[k].from] > pow2(26) - 1)
            d.v[s[k].from] = pow2(26) - 1;
        d.v[s[k].to] = add(d.v[s[k].to], s[k].from == 4 ? mul(c, 5) : c);
        snprintf(buf, sizeof buf, "%s: carry step %d->%d, limb %d", what, s[k].from,
                 s[k].to, s[k].to);
        bound(buf, d.v[s[k].to], 64);
    }
    for (int i = 0; i < 5; i++) {
        snprintf(buf, sizeof buf, "%s: h%d after the chain", what, i);
        bound(buf, d.v[i], hbits);
    }
    return d;
}

static int same5(struct l5 a, struct l5 b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* runs step() from h until h repeats, then once more printing */
static void fixed_point(const char *name, struct l5 h, struct l5 (*step)(struct l5))
{
    snprintf(model, sizeof model, "%s", name);
    int before = fails, it;
    printing = 0;
    for (it = 0; it < 200; it++) {
        struct l5 n = step(h);
        if (fails > before)
            return;
        for (int i = 0; i < 5; i++)           /* bounds only grow: join */
            if (n.v[i] < h.v[i])
                n.v[i] = h.v[i];
        if (same5(n, h))
            break;
        h = n;
    }
    if (it == 200) {
        printf("%-16s no fixed point in 200 iterations\n", name);
        fails++;
        return;
    }
    printing = 1;
    step(h);
    printing = 0;
    char buf[96];
    snprintf(buf, sizeof buf, "fixed point after %d steps: h limbs 2^%.2f %.2f %.2f %.2f %.2f",
             it, lg(h.v[0]), lg(h.v[1]), lg(h.v[2]), lg(h.v[3]), lg(h.v[4]));
    printf("%-16s %s\n", name, buf);
}

static struct l5 R1, R2, R4, R8;

static struct l5 step_r26(struct l5 h)
{
    return carry26("h=(h+m)r", mul26("(h+m)r", add5(h, msg26()), R1), chain_scalar, 6, 32);
}

static struct l5 step_r26x2(struct l5 h)
{
    struct l5 d = add5(mul26("(h+m1)r^2", add5(h, msg26()), R2), mul26("m2 r", msg26(), R1));
    return carry26("h=(h+m1)r^2+m2 r", d, chain_scalar, 6, 32);
}

static struct l5 step_vec4(struct l5 h)
{
    return carry26("h=(h+m)r^4", mul26("(h+m)r^4", add5(h, msg26()), R4), chain_vec, 7, 32);
}

static struct l5 step_vec4x2(struct l5 h)
{
    struct l5 d = add5(mul26("m r^4", msg26(), R4), mul26("(h+m)r^8", add5(h, msg26()), R8));
    return carry26("h=m r^4+(h+m)r^8", d, chain_vec, 7, 32);
}

static struct l5 step_vec8(struct l5 h)
{
    return carry26("h=(h+m)r^8", mul26("(h+m)r^8", add5(h, msg26()), R8), chain_vec, 7, 32);
}

/* x86-avx2's batch quads (poly1305_x86_avx2.c, polymac_quad_blocks):
 * each lane's own r and its powers r^2 = r r, r^3 = r^2 r, r^4 = r^2 r^2
 * through the vector chain; a quad runs steps of four blocks, (h + m) r^4
 * + m r^3 + m r^2 + m r, of two, (h + m) r^2 + m r, and of one, in any
 * order: the step below is the join of the three. */
static struct l5 RQ2, RQ3, RQ4;

static struct l5 join5(struct l5 a, struct l5 b)
{
    for (int i = 0; i < 5; i++)
        a.v[i] = a.v[i] > b.v[i] ? a.v[i] : b.v[i];
    return a;
}

static struct l5 step_quads(struct l5 h)
{
    struct l5 m = msg26(), hm = add5(h, msg26());
    struct l5 d4 = add5(add5(mul26("quad m r", m, R1), mul26("quad m r^2", m, RQ2)),
                        add5(mul26("quad m r^3", m, RQ3), mul26("quad (h+m)r^4", hm, RQ4)));
    struct l5 d2 = add5(mul26("quad m r", m, R1), mul26("quad (h+m)r^2", hm, RQ2));
    struct l5 d1 = mul26("quad (h+m)r", hm, R1);
    return join5(join5(carry26("quad 4 blocks", d4, chain_vec, 7, 32),
                       carry26("quad 2 blocks", d2, chain_vec, 7, 32)),
                 carry26("quad 1 block", d1, chain_vec, 7, 32));
}

/* the s390x-vx batch lanes: each word's message times its own r, both
 * sets carried by vx_carry; h re-enters a 32-bit word (x = h + m) */
static struct l5 step_vx_lanes(struct l5 h)
{
    return carry26("h=(h+m)r", mul26("(h+m)r", add5(h, msg26()), R1), chain_vx, 7, 32);
}

/* arm-neon's step on AArch32 (lib/arm/neon_steps_a32.h): (h + m0) r^4 +
 * m2 r^2 in each lane, then NEON_CARRY's steps with each limb narrowed to
 * a 32-bit lane once its carry is out; the 32-bit sums are bounded too.
 * --drop-carry leaves out the last step, h3 -> h4. */
static struct l5 step_arm_neon(struct l5 h)
{
    const u128 m26 = pow2(26) - 1;
    struct l5 d = add5(mul26("(h+m)r^4", add5(h, msg26()), R4), mul26("m r^2", msg26(), R2));
    for (int i = 0; i < 5; i++) {
        char buf[96];
        snprintf(buf, sizeof buf, "a32 step: column d%d", i);
        bound(buf, d.v[i], 64);
    }
    u128 d0 = d.v[0], d1 = d.v[1], d2 = d.v[2], d3 = d.v[3], d4 = d.v[4];
    u128 h0, h1, h2, h3, h4, c;
    d4 = add(d4, d3 >> 26);
    h3 = d3 < m26 ? d3 : m26;
    d1 = add(d1, d0 >> 26);
    h0 = d0 < m26 ? d0 : m26;
    c = d4 >> 26;                                  /* vshrn: a 32-bit lane */
    bound("a32 carry: c = d4 >> 26", c, 32);
    bound("a32 carry: 4c", mul(c, 4), 32);
    h4 = d4 < m26 ? d4 : m26;
    d2 = add(d2, d1 >> 26);
    h1 = d1 < m26 ? d1 : m26;
    bound("a32 carry: h0 + c", add(h0, c), 32);
    d0 = add(add(h0, c), mul(c, 4));               /* vaddl: 64 bits */
    h3 = add(h3, d2 >> 26);
    bound("a32 carry: h3 + (d2 >> 26)", h3, 32);
    h2 = d2 < m26 ? d2 : m26;
    h1 = add(h1, d0 >> 26);
    h0 = d0 < m26 ? d0 : m26;
    if (!drop_carry) {
        h4 = add(h4, h3 >> 26);
        h3 = h3 < m26 ? h3 : m26;
    }
    struct l5 o = {{h0, h1, h2, h3, h4}};
    for (int i = 0; i < 5; i++) {
        char buf[96];
        snprintf(buf, sizeof buf, "a32 carry: h%d after the chain", i);
        bound(buf, o.v[i], i == 1 || i == 4 ? 27 : 26);
    }
    return o;
}

/* the lanes' products summed before the last carry (carry_out) */
static void lane_sum(const char *name, struct l5 h, int lanes)
{
    snprintf(model, sizeof model, "%s", name);
    printing = 1;
    struct l5 d = mul26("last (h+m)r^k", add5(h, msg26()), R8);
    char buf[96];
    for (int i = 0; i < 5; i++) {
        snprintf(buf, sizeof buf, "%d lanes summed, column d%d", lanes, i);
        bound(buf, mul(d.v[i], (u128)lanes), 64);
    }
    printing = 0;
}

/* x86-avx2's conversion of carried limbs l to radix 2^64
 * (polymac_r26vec_carried_r64): a = l0 + l1 2^26 and b = l2 >> 12 + l3
 * 2^14 + a carry are single 64-bit sums, and h2 = l4 >> 24 + a carry is
 * the sum's bits from 128 on, at most 4 as the radix-2^64 code takes h
 * (the carries make the sum exact, so h2 is bounded by the sum's value,
 * not by l4 >> 24 + 1). */
static void carried_r64(const char *what, struct l5 l)
{
    char buf[96];
    snprintf(buf, sizeof buf, "%s: a = l0 + l1 2^26", what);
    bound(buf, add(l.v[0], mul(l.v[1], pow2(26))), 64);
    snprintf(buf, sizeof buf, "%s: b = l2 >> 12 + l3 2^14 + 1", what);
    bound(buf, add(add(l.v[2] >> 12, mul(l.v[3], pow2(14))), 1), 64);
    /* the sum >> 128, as (the sum >> 26) >> 102 */
    u128 s = add(l.v[0] >> 26, l.v[1]);
    for (int i = 2; i < 5; i++)
        s = add(s, mul(l.v[i], pow2(26 * (i - 1))));
    snprintf(buf, sizeof buf, "%s: h2 + 3 (h2 <= 4)", what);
    bound(buf, (s >> 102) + 3, 3);
}

/* the lanes' sums through carry_out (r26vec.h, the scalar chain) into
 * h26, then into radix 2^64 as x86-avx2 converts them; and to_vec's
 * limbs (h2 <= 4, top limb below 5 2^24) converted back */
static void lane_sum_r64(const char *name, struct l5 h, int lanes)
{
    snprintf(model, sizeof model, "%s", name);
    printing = 1;
    struct l5 d = mul26("last (h+m)r^k", add5(h, msg26()), R8);
    for (int i = 0; i < 5; i++)
        d.v[i] = mul(d.v[i], (u128)lanes);
    carried_r64("carry_out's limbs", carry26("carry_out", d, chain_scalar, 6, 27));
    struct l5 v = {{pow2(26) - 1, pow2(26) - 1, pow2(26) - 1, pow2(26) - 1, 5 * pow2(24) - 1}};
    carried_r64("to_vec's limbs", v);
    printing = 0;
}

/* the bound h reaches in a loop, for lane_sum */
static struct l5 settle(struct l5 h, struct l5 (*step)(struct l5))
{
    int save = printing;
    printing = 0;
    for (int it = 0; it < 200; it++) {
        struct l5 n = step(h);
        for (int i = 0; i < 5; i++)
            if (n.v[i] < h.v[i])
                n.v[i] = h.v[i];
        if (same5(n, h))
            break;
        h = n;
    }
    printing = save;
    return h;
}

/* powers r^2, r^4, r^8: products of powers through a chain */
static struct l5 power(struct l5 a, const struct step *s, int n)
{
    int save = printing;
    printing = 0;
    struct l5 o = carry26("power", mul26("power product", a, a), s, n, 32);
    printing = save;
    return o;
}

/* ---- radix 2^64 (generic-r64 and every kernel's scalar path) ---- */

/* The final reduction of h (h2 below the loop's fixed point h2max) as
 * polymac_r64_reduce and polymac_r64_finish (r64.h: every radix-2^64
 * tag, the batch pairs' included) compute it: c = 5 (h2 >> 2), in one 64-bit register (lea); h0 + c carries at
 * most 1 into h1 and from there into h2 & 3; g = h + 5 carries at most 1
 * more, so g2 >> 2, the mask's source, is 0 or 1. */
static void model_r64_final(u128 h2max)
{
    snprintf(model, sizeof model, "r64 final");
    printing = 1;
    const u128 c = mul(h2max >> 2, 5);
    bound("c = 5 (h2 >> 2) (64-bit register)", c, 64);
    const u128 f2 = add(3, 1);
    bound("h2 after the fold, (h2 & 3) + carry", f2, 3);
    const u128 g2 = add(f2, 1);
    bound("g2 = h2 + carry of h + 5", g2, 3);
    bound("g2 >> 2 (the mask: 0 or 1)", g2 >> 2, 1);
    printing = 0;
}
static void model_r64(void)
{
    snprintf(model, sizeof model, "r64 core");
    const u128 r0 = 0x0ffffffc0fffffffULL, r1 = 0x0ffffffc0ffffffcULL;
    const u128 s1 = (r1 >> 2) * 5, r0x5 = r0 * 5, w = pow2(64) - 1;
    u128 h2 = 4, prev = 0;            /* h2 <= 4 when h enters from a fold */
    int it;
    for (it = 0; it < 200 && h2 != prev; it++) {
        prev = h2;
        for (int pass = 0; pass < 2; pass++) {
            printing = pass == 1 && it > 0 && h2 == prev;
            u128 x2 = add(h2, 1 + 1);      /* h += m: one carry (h1 + c + m1 < 2^65), hibit */
            bound("h2 + carry + hibit (64-bit register)", x2, 64);
            bound("s1 = 5 (r1 >> 2)", s1, 64);
            bound("r0x5 = 5 r0", r0x5, 64);
            u128 a = add(add(mul(w, r0), mul(w, s1)), mul(x2 >> 2, r0x5));
            bound("a = h0 r0 + h1 s1 + (h2 >> 2) 5 r0", a, 128);
            u128 b = add(add(mul(w, r1), mul(w, r0)), mul(x2, s1));
            bound("b = h0 r1 + h1 r0 + h2 s1", b, 128);
            b = add(b, a >> 64);
            bound("b + (a >> 64)", b, 128);
            u128 n2 = add(b >> 64, mul(3, r0));
            bound("new h2 = (b >> 64) + (h2 & 3) r0", n2, 64);
            bound("new h2, as the comment claims", n2, 63);
            if (pass == 0) {
                if (n2 > h2)
                    h2 = n2;
            }
        }
        if (fails)
            return;
    }
    printing = 1;
    printf("%-16s fixed point after %d steps: h2 below 2^%.2f\n", model, it, lg(h2));
    printing = 0;
    model_r64_final(h2);
}

/* ---- radix 2^44, IFMA (ifma_mulred): inputs and exact products below 2^52 ---- */
struct l3 {
    u128 v[3];
};

static u128 lo52(u128 p)
{
    return p > pow2(52) - 1 ? pow2(52) - 1 : p;
}

/* The end of a radix-2^44 carry chain, shared by the product models: l2
 * (limb 2's sum, carries in) and g2 (its high half) fold back into limb 0
 * as 5 c, c = (l2 >> 42) + (g2 << 10), and limb 0 carries into limb 1.
 * ifma: the shift and the multiplication by 5 are IFMAs (ifma_carry),
 * exact only below 2^52; else shifts and adds (ifma_shift_carry). */
static struct l3 carry_top44(struct l3 o, u128 l2, u128 g2, int ifma, const char *what)
{
    char buf[96];
    o.v[2] = l2 < pow2(42) ? l2 : pow2(42) - 1;
    u128 c = add(l2 >> 42, mul(g2, 1024));
    if (ifma) {
        bound("c = (l2 >> 42) + (g2 << 10) (IFMA input)", c, 52);
        bound("5 c (exact IFMA product)", mul(c, 5), 52);
    }
    o.v[0] = add(o.v[0], mul(c, 5));
    snprintf(buf, sizeof buf, "%sh0 + 5 c%s", what, ifma ? " (IFMA input, exact >> 44)" : "");
    bound(buf, o.v[0], ifma ? 52 : 64);
    if (!drop_carry) {
        o.v[1] = add(o.v[1], o.v[0] >> 44);
        o.v[0] = o.v[0] < pow2(44) ? o.v[0] : pow2(44) - 1;
    }
    return o;
}

/* The carry of ifma_carry (lib/x86/poly1305_x86_avx512ifma_arith.h): g2
 * folds into limb 0 as g2 * 5 * 2^10, g0 and g1 join limbs 1 and 2 as
 * g << 8 (all exact IFMA products), limb 0 carries into limb 1, c = l2 >> 42
 * is read before limb 1's carry joins h2 after the mask, and 5 c joins h0
 * with no carry out of it. */
static struct l3 carry44_early(u128 l[3], u128 g[3])
{
    bound("g2 * 5 * 2^10 (exact IFMA product)", mul(g[2], 5 * 1024), 52);
    bound("g0 << 8 (exact IFMA product)", mul(g[0], 256), 52);
    bound("g1 << 8 (exact IFMA product)", mul(g[1], 256), 52);
    u128 l0 = add(l[0], mul(g[2], 5 * 1024));
    u128 l1 = add(l[1], mul(g[0], 256)), l2 = add(l[2], mul(g[1], 256));
    bound("l0 + 5 * 2^10 g2", l0, 64);
    bound("l2 + g1<<8", l2, 64);
    l1 = add(l1, l0 >> 44);
    bound("l1 + g0<<8 + (l0 >> 44)", l1, 64);
    struct l3 o;
    o.v[1] = l1 < pow2(44) ? l1 : pow2(44) - 1;
    o.v[2] = add(l2 < pow2(42) ? l2 : pow2(42) - 1, l1 >> 44);
    u128 c = l2 >> 42;
    bound("c = l2 >> 42 (IFMA input)", c, 52);
    bound("5 c (exact IFMA product)", mul(c, 5), 52);
    o.v[0] = add(l0 < pow2(44) ? l0 : pow2(44) - 1, mul(c, 5));
    bound("h0 + 5 c (IFMA sum, kept)", o.v[0], 52);
    if (drop_carry)             /* the test of the test: no carry out of l0 */
        o.v[0] = add(o.v[0], l0 - (l0 < pow2(44) ? l0 : pow2(44) - 1));
    return o;
}

/* The sum of n products x[j] p[j] (a step of n products into the same
 * accumulators before one carry chain: n = 2, the two-group step and the
 * batch lanes) + e, carried
 * as ifma_carry (early = 1) or ifma_shift_carry (early = 0: the
 * sequential order of the powers and the batch lanes' last steps) carry
 * it */
static struct l3 mulred44n(const char *what, int n, const struct l3 x[], const struct l3 p[],
                           struct l3 e, int early)
{
    char buf[96];
    u128 l[3], g[3];
    for (int i = 0; i < 3; i++) {
        l[i] = e.v[i];
        g[i] = 0;
    }
    for (int j = 0; j < n; j++) {
        const struct l3 a = x[j], q = p[j];
        const u128 s1 = mul(q.v[1], 20), s2 = mul(q.v[2], 20);
        for (int i = 0; i < 3; i++) {
            snprintf(buf, sizeof buf, "%s: IFMA input %c%d", what, "xyw"[j], i);
            bound(buf, a.v[i], 52);
            snprintf(buf, sizeof buf, "%s: IFMA input %c%d", what, "rqt"[j], i);
            bound(buf, q.v[i], 52);
        }
        bound("IFMA input s1 = 20 r1", s1, 52);
        bound("IFMA input s2 = 20 r2", s2, 52);
        const u128 pr[3][3] = {                 /* column i: the three products */
            {mul(a.v[2], s1), mul(a.v[0], q.v[0]), mul(a.v[1], s2)},
            {mul(a.v[2], s2), mul(a.v[0], q.v[1]), mul(a.v[1], q.v[0])},
            {mul(a.v[2], q.v[0]), mul(a.v[0], q.v[2]), mul(a.v[1], q.v[1])},
        };
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++) {
                l[i] = add(l[i], lo52(pr[i][k]));
                g[i] = add(g[i], pr[i][k] >> 52);
            }
    }
    for (int i = 0; i < 3; i++) {
        snprintf(buf, sizeof buf, "%s: low sum l%d", what, i);
        bound(buf, l[i], 64);
        snprintf(buf, sizeof buf, "%s: high sum g%d (IFMA input)", what, i);
        bound(buf, g[i], 52);
    }
    if (early)
        return carry44_early(l, g);
    l[1] = add(l[1], mul(g[0], 256));
    l[2] = add(l[2], mul(g[1], 256));
    struct l3 o;
    o.v[0] = l[0] < pow2(44) ? l[0] : pow2(44) - 1;
    l[1] = add(l[1], l[0] >> 44);
    bound("l1 + g0<<8 + (l0 >> 44)", l[1], 64);
    o.v[1] = l[1] < pow2(44) ? l[1] : pow2(44) - 1;
    l[2] = add(l[2], l[1] >> 44);
    bound("l2 + g1<<8 + (l1 >> 44)", l[2], 64);
    return carry_top44(o, l[2], g[2], 0, "");
}

/* x p (+ y q when two) + e */
static struct l3 mulred44x(const char *what, struct l3 x, struct l3 p, struct l3 y,
                           struct l3 q, int two, struct l3 e, int early)
{
    const struct l3 xs[2] = {x, y}, ps[2] = {p, q};
    return mulred44n(what, two ? 2 : 1, xs, ps, e, early);
}

static struct l3 mulred44(const char *what, struct l3 x, struct l3 p, struct l3 e, int early)
{
    return mulred44x(what, x, p, x, p, 0, e, early);
}

/* n with each limb's bound at least h's: bounds only grow (join) */
static struct l3 join3(struct l3 n, struct l3 h)
{
    for (int i = 0; i < 3; i++)
        if (n.v[i] < h.v[i])
            n.v[i] = h.v[i];
    return n;
}

/* the largest clamped r, in radix 2^44 */
static struct l3 r44(void)
{
    u128 r = ((u128)0x0ffffffc0ffffffcULL << 64) | 0x0ffffffc0fffffffULL;
    struct l3 p = {{r & (pow2(44) - 1), (r >> 44) & (pow2(44) - 1), r >> 88}};
    return p;
}

/* the powers the IFMA steps multiply by: r (and r^2 for the lanes) */
static struct l3 P44, P44_2;

/* a message group as it starts the accumulators (ifma_load8_acc): limb 1
 * takes block bits 44..95 as the low half of an IFMA (below 2^52) plus
 * bits 44..63 again, limb 2 bits 96..127 at bit 8 and the 2^128 bit */
static const struct l3 E44 = {{((u128)1 << 44) - 1, ((u128)1 << 52) + ((u128)1 << 20),
                               ((u128)1 << 41)}};

static struct l3 sqr44(const char *what, struct l3 r);

static struct l3 step_ifma(struct l3 x, struct l3 m)
{
    (void)m;
    return mulred44("h=(h+m)r^k+e", x, P44, E44, 1);
}

/* the two-group step (ifma_mulred2): V r^32 + M1 r^16 + M2, M1 split as a
 * factor (ifma_load8), M2 starting the sums; r^32 and r^16 both bounded
 * as powers */
static struct l3 step_ifma2(struct l3 x, struct l3 m)
{
    return mulred44x("h=V r^32+M1 r^16+M2", x, P44, m, P44, 1, E44, 1);
}

static struct l3 step_ifma_lanes(struct l3 x, struct l3 m)
{
    const struct l3 zero = {{0, 0, 0}};
    /* the steps carry with ifma_carry, the last ones with ifma_shift_carry:
     * whichever a step took, the next starts from the larger bounds */
    return join3(mulred44x("lanes h=(h+m1)r^2+m2 r", x, P44_2, m, P44, 1, zero, 1),
                 mulred44x("lanes h=(h+m1)r^2+m2 r, shifts", x, P44_2, m, P44, 1, zero, 0));
}

/* h = step(h + m, m) from *h until its bounds repeat (joined: they only
 * grow), then that step once more, printing; the steps taken, or -1 (a
 * failure counted) when there is no fixed point in 200 */
static int fixed_point44(struct l3 *h, struct l3 m, struct l3 (*step)(struct l3, struct l3))
{
    int it;
    for (it = 0; it < 200 && !fails; it++) {
        struct l3 x = {{add(h->v[0], m.v[0]), add(h->v[1], m.v[1]), add(h->v[2], m.v[2])}};
        struct l3 n = join3(step(x, m), *h);
        if (memcmp(&n, h, sizeof n) == 0)
            break;
        *h = n;
    }
    if (fails)
        return -1;
    if (it == 200) {
        printf("%-16s no fixed point in 200 iterations\n", model);
        fails++;
        return -1;
    }
    printing = 1;
    struct l3 x = {{add(h->v[0], m.v[0]), add(h->v[1], m.v[1]), add(h->v[2], m.v[2])}};
    step(x, m);
    return it;
}

static void model_ifma(void)
{
    snprintf(model, sizeof model, "x86-avx512ifma");
    const struct l3 m = {{pow2(44) - 1, pow2(44) - 1, pow2(41) - 1}};
    const struct l3 zero = {{0, 0, 0}};
    struct l3 p = r44();
    /* powers: r^2 by squaring r (ifma_powers' first round), then
     * products of powers, to a fixed point of their bounds */
    printing = 0;
    p = join3(sqr44("powers r^2", p), p);
    for (int it = 0; it < 50; it++) {
        struct l3 n = join3(mulred44("power", p, p, zero, 0), p);
        if (memcmp(&n, &p, sizeof n) == 0 || fails)
            break;
        p = n;
    }
    struct l3 h = {{pow2(44) - 1, pow2(44) - 1, pow2(43) - 1}};   /* from radix 2^64 */
    P44 = p;
    int it = fixed_point44(&h, m, step_ifma);
    if (it < 0)
        return;
    printf("%-16s powers below 2^%.2f 2^%.2f 2^%.2f; fixed point after %d steps: "
           "h below 2^%.2f 2^%.2f 2^%.2f\n", model, lg(p.v[0]), lg(p.v[1]), lg(p.v[2]), it,
           lg(h.v[0]), lg(h.v[1]), lg(h.v[2]));
    printing = 0;
}

/* The main loop's two-group step, from the lanes' bounds of model_ifma
 * (its powers in P44). */
static void model_ifma2(void)
{
    snprintf(model, sizeof model, "x86-avx512ifma two groups");
    const struct l3 m = {{pow2(44) - 1, pow2(44) - 1, pow2(41) - 1}};
    struct l3 h = {{pow2(44) - 1, pow2(44) - 1, pow2(43) - 1}};
    printing = 0;
    int it = fixed_point44(&h, m, step_ifma2);
    if (it < 0)
        return;
    printf("%-16s fixed point after %d steps: h below 2^%.2f 2^%.2f 2^%.2f\n", model, it,
           lg(h.v[0]), lg(h.v[1]), lg(h.v[2]));
    printing = 0;
}

/* r^2 by squaring a clamped r (ifma_sqr_clamped: the powers' first
 * round and the batch lanes' keys): d0 = r0 r0 + r1 (40 r2),
 * d1 = r0 (2 r1) + r2 (20 r2), d2 = r0 (2 r2) + r1 r1, carried with
 * ifma_shift_carry (the same steps as mulred44x's carry). */
static struct l3 sqr44(const char *what, struct l3 r)
{
    char buf[96];
    const u128 f[6][2] = {                  /* column i: products 2 i, 2 i + 1 */
        {r.v[0], r.v[0]}, {r.v[1], mul(r.v[2], 40)},
        {r.v[0], mul(r.v[1], 2)}, {r.v[2], mul(r.v[2], 20)},
        {r.v[0], mul(r.v[2], 2)}, {r.v[1], r.v[1]},
    };
    u128 l[3], g[3];
    for (int i = 0; i < 3; i++) {
        l[i] = g[i] = 0;
        for (int j = 2 * i; j < 2 * i + 2; j++) {
            for (int k = 0; k < 2; k++) {
                snprintf(buf, sizeof buf, "%s: IFMA input, product %d factor %d", what, j, k);
                bound(buf, f[j][k], 52);
            }
            u128 pr = mul(f[j][0], f[j][1]);
            l[i] = add(l[i], lo52(pr));
            g[i] = add(g[i], pr >> 52);
        }
        snprintf(buf, sizeof buf, "%s: low sum l%d", what, i);
        bound(buf, l[i], 64);
    }
    l[1] = add(l[1], add(mul(g[0], 256), l[0] >> 44));
    bound("r^2: l1 + g0<<8 + (l0 >> 44)", l[1], 64);
    struct l3 o;
    o.v[0] = l[0] < pow2(44) ? l[0] : pow2(44) - 1;
    o.v[1] = l[1] < pow2(44) ? l[1] : pow2(44) - 1;
    l[2] = add(l[2], add(mul(g[1], 256), l[1] >> 44));
    bound("r^2: l2 + g1<<8 + (l1 >> 44)", l[2], 64);
    return carry_top44(o, l[2], g[2], 0, "r^2: ");
}

/* The batch lanes (lib/x86/poly1305_x86_avx512ifma_lanes.h): each lane's
 * r and r^2 (sqr44: the clamped r squared), then
 * h = (h + m1) r^2 + m2 r per step, to a fixed point of its bounds; the
 * one-block step (h + m) r is ifma_mulred's, modelled above. */
static void model_ifma_lanes(void)
{
    snprintf(model, sizeof model, "x86-avx512ifma lanes");
    const struct l3 m = {{pow2(44) - 1, pow2(44) - 1, pow2(41) - 1}};
    const struct l3 zero = {{0, 0, 0}};
    struct l3 p = r44();
    printing = 0;
    struct l3 p2 = join3(sqr44("lanes r^2", p), p);
    struct l3 h = zero;
    P44 = p;
    P44_2 = p2;
    int it = fixed_point44(&h, m, step_ifma_lanes);
    if (it < 0)
        return;
    /* ifma_lanes_tags carries limb 0 into limb 1 and limb 1 into limb 2, then selects
     * h - p where h + 5 reaches 2^130: limb 1 must carry at most 1 and
     * g = h + 5 stay below 2^131 (g2 below 2^43) */
    bound("tags: h1 + (h0 >> 44) (carries at most 1 into h2)", add(h.v[1], h.v[0] >> 44), 45);
    bound("tags: g2 = h2 + 1 + 1 (g below 2^131)", add(h.v[2], 2), 43);
    printf("%-16s r^2 below 2^%.2f 2^%.2f 2^%.2f; fixed point after %d steps: "
           "h below 2^%.2f 2^%.2f 2^%.2f\n", model, lg(p2.v[0]), lg(p2.v[1]), lg(p2.v[2]), it,
           lg(h.v[0]), lg(h.v[1]), lg(h.v[2]));
    printing = 0;
}

/* ---- radix 2^44, POWER9 vmsumudm: 128-bit column sums of a four-block step ---- */
static void model_p9(void)
{
    snprintf(model, sizeof model, "power-p9");
    u128 p[3] = {pow2(44) - 1, pow2(44) + pow2(14), pow2(42) - 1};
    const u128 m[3] = {pow2(44) - 1, pow2(44) - 1, pow2(41) - 1};
    u128 h[3] = {pow2(44) - 1, pow2(44) - 1, pow2(43) - 1};
    int it;
    printing = 0;
    for (it = 0; it <= 200 && !fails; it++) {
        u128 x[3], d[3], y[3][3];
        for (int i = 0; i < 3; i++)
            x[i] = add(h[i], m[i]);
        u128 s1 = mul(p[1], 20), s2 = mul(p[2], 20);
        bound("multiplier 20 r1", s1, 64);
        bound("multiplier 20 r2", s2, 64);
        u128 cols[3][3] = {{p[0], s2, s1}, {p[1], p[0], s2}, {p[2], p[1], p[0]}};
        memcpy(y, cols, sizeof y);
        for (int i = 0; i < 3; i++) {
            d[i] = 0;
            for (int j = 0; j < 3; j++)
                d[i] = add(d[i], mul(mul(x[j], y[i][j]), 4));   /* four blocks */
        }
        bound("column d0 (four blocks, 12 products)", d[0], 128);
        bound("column d1", d[1], 128);
        bound("column d2", d[2], 128);
        bound("d0 >> 44 (64-bit)", d[0] >> 44, 64);
        u128 n[3], c;
        c = d[0] >> 44; n[0] = pow2(44) - 1; d[1] = add(d[1], c);
        c = d[1] >> 44; n[1] = pow2(44) - 1; d[2] = add(d[2], c);
        c = d[2] >> 42; n[2] = pow2(42) - 1;
        bound("carry out of limb 2 (64-bit)", c, 64);
        n[0] = add(n[0], mul(c, 5));
        if (!drop_carry) {
            n[1] = add(n[1], n[0] >> 44);
            n[0] = pow2(44) - 1;
        }
        bound("h0 after the fold", n[0], 64);
        bound("h1 after the chain", n[1], 64);
        int same = 1;
        for (int i = 0; i < 3; i++) {
            if (n[i] > h[i]) {
                h[i] = n[i];
                same = 0;
            }
        }
        if (same) {
            if (printing)
                break;
            printing = 1;           /* once more, printing */
        }
    }
    printing = 0;
    if (!fails && it > 200) {
        printf("%-16s no fixed point\n", model);
        fails++;
    } else if (!fails) {
        printf("%-16s fixed point after %d steps: h below 2^%.2f 2^%.2f 2^%.2f\n", model, it,
               lg(h[0]), lg(h[1]), lg(h[2]));
    }
}

/* The models whose bounds hold even without their last carry (this
 * program's --drop-carry finds them): there the carry keeps the limbs
 * small for the final reduction, not inside a register.  Every other
 * model must fail without it. */
static const char *const carry_slack[] = {"r64 final", "generic-r26", "s390x-vx lanes"};

/* One model.  With --drop-carry each runs on its own (its failures are
 * counted, then cleared for the next) and must fail unless it is listed
 * in carry_slack. */
static int runs, wrong;
static void dropped(int failed)
{
    int slack = 0;
    for (unsigned i = 0; i < sizeof carry_slack / sizeof carry_slack[0]; i++)
        slack |= strcmp(model, carry_slack[i]) == 0;
    runs++;
    if (failed == slack) {
        wrong++;
        printf("%-16s %s without its last carry, against carry_slack\n", model,
               failed ? "failed" : "held");
    }
    fails = 0;
}
#define RUN(call)                                                                \
    do {                                                                         \
        const int before_ = fails;                                               \
        call;                                                                    \
        if (drop_carry)                                                          \
            dropped(fails != before_);                                           \
    } while (0)

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--drop-carry") == 0)
            drop_carry = 1;
        else {
            fprintf(stderr, "usage: bounds [--drop-carry]\n");
            return 2;
        }
    }
    printf("%-16s %-44s %-11s %-6s %s\n", "model", "bound", "largest", "limit", "margin");
    RUN(model_r64());

    R1 = clamp26();
    R2 = power(R1, chain_scalar, 6);
    struct l5 h0 = {{pow2(26) - 1, pow2(26) - 1, pow2(26) - 1, pow2(26) - 1, pow2(26) - 1}};
    RUN(fixed_point("generic-r26", h0, step_r26));
    RUN(fixed_point("generic-r26x2", h0, step_r26x2));

    /* vector kernels: powers through the vector chain; h from radix 2^64
     * (h2 <= 4) has its top limb below 2^26.33 */
    R2 = power(R1, chain_vec, 7);
    R4 = power(R2, chain_vec, 7);
    R8 = power(R4, chain_vec, 7);
    struct l5 hv = h0;
    hv.v[4] = 5 * pow2(24);
    RUN(fixed_point("x86-avx2 1 group", hv, step_vec4));
    RUN(fixed_point("x86-avx2 2 groups", hv, step_vec4x2));
    RUN(lane_sum("x86-avx2 lanes", settle(hv, step_vec4x2), 4));
    RUN(lane_sum_r64("x86-avx2 to r64", settle(hv, step_vec4x2), 4));
    {
        const int save = printing;
        printing = 0;
        RQ2 = carry26("power", mul26("power product", R1, R1), chain_vec, 7, 32);
        RQ3 = carry26("power", mul26("power product", RQ2, R1), chain_vec, 7, 32);
        RQ4 = carry26("power", mul26("power product", RQ2, RQ2), chain_vec, 7, 32);
        printing = save;
    }
    RUN(fixed_point("x86-avx2 quads", hv, step_quads));
    RUN(fixed_point("x86-avx512", hv, step_vec8));
    RUN(lane_sum("x86-avx512 lanes", settle(hv, step_vec8), 8));
    RUN(fixed_point("aarch64-neon", hv, step_vec4));
    RUN(lane_sum("aarch64-neon lanes", settle(hv, step_vec4), 4));
    RUN(fixed_point("arm-neon", hv, step_arm_neon));
    RUN(lane_sum("arm-neon lanes", settle(hv, step_arm_neon), 4));

    RUN(fixed_point("s390x-vx lanes", h0, step_vx_lanes));

    RUN(model_ifma());
    RUN(model_ifma2());
    RUN(model_ifma_lanes());
    RUN(model_p9());

    if (drop_carry) {
        /* exit 1, the expected failure, only when every model did as
         * carry_slack says */
        printf("bounds: %d models without their last carry, %d not as carry_slack says%s\n",
               runs, wrong, wrong ? "" : ": every other one failed, as it must");
        return wrong ? 0 : 1;
    }
    printf("bounds: %s%s\n", fails ? "FAILED, bounds exceeded: " : "every bound holds",
           fails ? "see EXCEEDED above" : "");
    return fails ? 1 : 0;
}
