/* skeleton.h -- the state machine every SIMD kernel runs: which radix h
 *               is in, whether the powers of r exist, the cold and warm
 *               break-evens, the scalar tail, emit */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_SIMD_SKELETON_H
#define POLYMAC_SIMD_SKELETON_H

#include <stddef.h>
#include <stdint.h>

#include "../generic/r64.h"
#include "../kernel.h"
#include "../util.h"

/*
 * Every SIMD kernel runs the scalar radix-2^64 code (generic/r64.h) below
 * its break-even and its vector loop from there.  h lives in whichever
 * form ran last (Linux's is_base2_26): a conversion costs a dozen scalar
 * operations, so it happens only when the other code runs.  The powers of
 * r the loop multiplies by are computed once per key, by the first call
 * long enough to repay them.
 *
 * A kernel's state holds a struct polymac_simd (anywhere in it) and its
 * own vector form of h, tables and lanes.  The kernel describes itself
 * with a constant struct polymac_simd_kernel: its break-evens, its radix
 * conversions, its powers and its vector loop; the functions below are
 * inlined into each kernel with that constant, so the calls through it
 * become direct calls or inline code.
 */

/*
 * The cold break-even counted over a message: before the powers of r
 * exist, the blocks the scalar code has already taken in this message
 * count towards it, so that a stream of pieces shorter than it still
 * reaches the vector code once enough of it has gone by (the powers, paid
 * once, are repaid by the warm calls that follow).  seen saturates at
 * POLYMAC_SEEN_MAX and is only ever compared.
 */
#define POLYMAC_SEEN_MAX 1024u

/* Whether a call of nblocks reaches the cold break-even cold. */
static inline int polymac_seen_reaches(uint32_t seen, size_t nblocks, size_t cold)
{
    return nblocks + (seen < POLYMAC_SEEN_MAX ? seen : POLYMAC_SEEN_MAX) >= cold;
}

/* seen after the scalar code took nblocks more. */
static inline uint32_t polymac_seen_add(uint32_t seen, size_t nblocks)
{
    if (seen >= POLYMAC_SEEN_MAX || nblocks >= POLYMAC_SEEN_MAX - seen)
        return POLYMAC_SEEN_MAX;
    return seen + (uint32_t)nblocks;
}

/* The part of the state the skeleton keeps.  Flags and counts are only
 * compared (kernel.h): a forged value picks a path, never an address. */
struct polymac_simd {
    struct polymac_r64 sc;      /* r always; h while vec != 1 */
    uint32_t vec;               /* 1: h lives in the kernel's vector form */
    uint32_t powers;            /* the highest power level the kernel's
                                   tables hold for this key: 0 none, else
                                   the kernel's own levels (1, or 4 and 8) */
    uint32_t seen;              /* blocks the scalar code took before the
                                   powers existed (polymac_seen_add) */
    uint32_t pad_;
};

/* A kernel, as the skeleton runs it.  st is the kernel's whole state, s
 * its struct polymac_simd. */
struct polymac_simd_kernel {
    /* The power level the loop needs (powers >= level: the tables are
     * made). */
    uint32_t level;
    /* Makes the tables of powers for level (s->sc holds r). */
    void (*powers)(void *st, uint32_t level);
    /* h from s->sc (radix 2^64, h2 <= 4) into the kernel's vector form,
     * and back. */
    void (*to_vec)(void *st);
    void (*to_r64)(void *st);
    /* The vector loop: takes the first blocks of in (at least one group,
     * nblocks >= warm) with h in vector form, and returns how many it
     * took; the skeleton hands the rest to the scalar code.  It may
     * leave h in scalar form itself (s->vec = 0) when that is cheaper. */
    size_t (*loop)(void *st, const uint8_t *in, size_t nblocks, uint32_t hibit);
    /* Optional: run after the vector path returns, and after to_r64
     * outside it (the x86 kernels zero their dead stack there: x86/burn.h). */
    void (*after)(void);
    /* 1: to_r64 zeroes the dead stack of any vector code it runs itself,
     * and after is not run for it (a conversion that ran none, the
     * common case, then costs no zeroing). */
    uint32_t to_r64_burns;
    /* Optional: a streamed call whose h is already in vector form (vec is
     * 1) in the kernel's own short path, without the vector path's frame
     * and set-up; returns 0, having done nothing, to leave the call to
     * the skeleton.  It zeroes its own dead stack. */
    int (*absorb)(void *st, const uint8_t *in, size_t nblocks, uint32_t hibit);
    /* The wipe emit uses (NULL: polymac_wipe), over the first small bytes
     * of the state when no powers were made, else all state bytes. */
    void (*wipe)(void *p, size_t n);
    size_t small, state;
};

#define POLYMAC_SIMD_INLINE static inline __attribute__((always_inline))

POLYMAC_SIMD_INLINE void polymac_simd_init(struct polymac_simd *s, const uint8_t r[16])
{
    polymac_r64_init(&s->sc, r);
    s->vec = 0;
    s->powers = 0;
    s->seen = 0;
    s->pad_ = 0;
}

/* The powers of r a kernel's tables hold, one at a time, in radix 2^64
 * (h2 <= 4): t = r^k for k = 1, 2, ... called in that order (k = 1 takes
 * r from s, k > 1 multiplies t by r).  The caller wipes t. */
static inline void polymac_simd_power(struct polymac_r64 *t, const struct polymac_simd *s,
                                      unsigned k)
{
    static const uint8_t zero[16];
    if (k <= 1) {
        *t = s->sc;
        t->h0 = t->r0;
        t->h1 = t->r1;
        t->h2 = 0;
    } else {
        polymac_r64_blocks(t, zero, 1, 0);    /* h = (h + 0) r */
    }
}

/* Whether a call of nblocks takes a vector path needing level, with the
 * break-evens cold and warm. */
POLYMAC_SIMD_INLINE int polymac_simd_takes(const struct polymac_simd *s, size_t nblocks,
                                           size_t cold, size_t warm, uint32_t level)
{
    return nblocks >= warm
           && (s->powers >= level || polymac_seen_reaches(s->seen, nblocks, cold));
}

/* h into radix 2^64, if it is not there. */
POLYMAC_SIMD_INLINE void polymac_simd_to_r64(void *st, struct polymac_simd *s,
                                             const struct polymac_simd_kernel *k)
{
    if (s->vec == 1) {
        k->to_r64(st);
        s->vec = 0;
    }
}

/* The same outside the vector path (blocks' scalar calls, emit): the
 * conversion is vector code with the powers at hand, so its dead frame is
 * zeroed as the vector path's is (clang 14 spills a vector of IFMA's
 * powers in ifma_merge's red zone); inside the vector path, the zeroing
 * after it covers it. */
POLYMAC_SIMD_INLINE void polymac_simd_to_r64_after(void *st, struct polymac_simd *s,
                                                   const struct polymac_simd_kernel *k)
{
    if (s->vec == 1) {
        polymac_simd_to_r64(st, s, k);
        if (k->after && !k->to_r64_burns)
            k->after();
    }
}

/* h into the vector form, if it is not there. */
POLYMAC_SIMD_INLINE void polymac_simd_to_vec(void *st, struct polymac_simd *s,
                                             const struct polymac_simd_kernel *k)
{
    if (s->vec != 1) {
        k->to_vec(st);
        s->vec = 1;
    }
}

/* The tables for level, once per key. */
POLYMAC_SIMD_INLINE void polymac_simd_powers(void *st, struct polymac_simd *s,
                                             const struct polymac_simd_kernel *k,
                                             uint32_t level)
{
    if (s->powers < level) {
        k->powers(st, level);
        s->powers = level;
    }
}

/* The scalar path: h to radix 2^64, the blocks, counted while no powers
 * exist. */
POLYMAC_SIMD_INLINE void polymac_simd_scalar(void *st, struct polymac_simd *s,
                                             const struct polymac_simd_kernel *k,
                                             const uint8_t *in, size_t nblocks,
                                             uint32_t hibit)
{
    polymac_simd_to_r64(st, s, k);
    polymac_r64_blocks(&s->sc, in, nblocks, hibit);
    if (s->powers == 0)
        s->seen = polymac_seen_add(s->seen, nblocks);
}

/* The scalar code over n spans of whole blocks (hibit 1: an AEAD's short
 * spans and a long span's last blocks), h in radix 2^64 in s->sc and back
 * there, without the seen count (auth_spans' callers never stream).
 * Where the spans' assembly exists (x86/r64_asm.h) one walk takes them
 * all, h and r in registers; it clamps r from a key's first half, and r
 * as s->sc holds it is that half, already clamped. */
#ifdef POLYMAC_R64_SPANS
_Static_assert(offsetof(struct polymac_r64, r1) == offsetof(struct polymac_r64, r0) + 8,
               "r0, r1 read as a key's first half");
#endif
POLYMAC_SIMD_INLINE void polymac_simd_r64_spans(struct polymac_simd *s,
                                                const struct polymac_span sp[], size_t n)
{
    if (!n)
        return;
#ifdef POLYMAC_R64_SPANS
    uint64_t h[3] = {s->sc.h0, s->sc.h1, s->sc.h2};
    polymac_r64_spans_arch(h, sp, sp[0].p, sp[0].nblocks, n,
                           (const uint8_t *)&s->sc + offsetof(struct polymac_r64, r0));
    s->sc.h0 = h[0];
    s->sc.h1 = h[1];
    s->sc.h2 = h[2];
#else
    for (size_t i = 0; i < n && i < POLYMAC_SPANS_MAX; i++)
        polymac_r64_blocks(&s->sc, sp[i].p, sp[i].nblocks, 1);
#endif
}

/* The vector path of a call that takes it: powers, h into vector form,
 * the loop, and the blocks it leaves to the scalar code. */
POLYMAC_SIMD_INLINE void polymac_simd_vector(void *st, struct polymac_simd *s,
                                             const struct polymac_simd_kernel *k,
                                             const uint8_t *in, size_t nblocks,
                                             uint32_t hibit)
{
    polymac_simd_powers(st, s, k, k->level);
    polymac_simd_to_vec(st, s, k);
    size_t done = k->loop(st, in, nblocks, hibit);
    if (done < nblocks)
        polymac_simd_scalar(st, s, k, in + 16 * done, nblocks - done, hibit);
}

/* A kernel's blocks(): the vector path from its break-even, the scalar
 * code below it. */
POLYMAC_SIMD_INLINE void polymac_simd_blocks(void *st, struct polymac_simd *s,
                                             const struct polymac_simd_kernel *k,
                                             void (*vector)(void *, const uint8_t *, size_t,
                                                            uint32_t),
                                             const uint8_t *in, size_t nblocks,
                                             uint32_t hibit, size_t cold, size_t warm)
{
    if (polymac_simd_takes(s, nblocks, cold, warm, k->level)) {
        vector(st, in, nblocks, hibit);
        if (k->after)
            k->after();
        return;
    }
    polymac_simd_to_r64_after(st, s, k);
    polymac_simd_scalar(st, s, k, in, nblocks, hibit);
}

/* A kernel's emit(): h to radix 2^64, the tag, and the wipe of what this
 * message wrote (the tables only if a call made them). */
POLYMAC_SIMD_INLINE void polymac_simd_emit(void *st, struct polymac_simd *s,
                                           const struct polymac_simd_kernel *k,
                                           uint8_t tag[16], const uint8_t key_s[16])
{
    polymac_simd_to_r64_after(st, s, k);
    polymac_r64_tag(&s->sc, tag, key_s);
    /* one of two constant lengths: a forged flag cannot run past ks */
    size_t n = s->powers != 0 ? k->state : k->small;
    if (k->wipe)
        k->wipe(st, n);
    else
        polymac_wipe(st, n);
}

/*
 * Defines a kernel's init, blocks and emit from its description k (a
 * const struct polymac_simd_kernel), the name of its state's struct
 * polymac_simd member and its break-evens in blocks per call (cold and
 * warm: expressions, constant or the CPU's row), and the vector path as
 * a function of its own, out of line: inlined into blocks(), its register
 * and stack set-up would be paid by every short message.  A kernel with
 * an absorb has blocks() try it first, and the rest of the skeleton out
 * of line, so that a streamed call pays neither.  The kernel then
 * registers polymac_init_<sym>, polymac_blocks_<sym> and polymac_emit_<sym>.
 */
#define POLYMAC_SIMD_FUNCTIONS(sym, state_t, member, k, cold, warm)                \
    static void polymac_init_##sym(void *ks, const uint8_t r[16])                 \
    {                                                                             \
        polymac_simd_init(&((state_t *)ks)->member, r);                           \
    }                                                                             \
    static __attribute__((noinline)) void                                         \
    polymac_vector_##sym(void *ks, const uint8_t *in, size_t nblocks, uint32_t hibit) \
    {                                                                             \
        polymac_simd_vector(ks, &((state_t *)ks)->member, &(k), in, nblocks, hibit); \
    }                                                                             \
    static __attribute__((noinline)) void                                         \
    polymac_skeleton_##sym(void *ks, const uint8_t *in, size_t nblocks, uint32_t hibit) \
    {                                                                             \
        polymac_simd_blocks(ks, &((state_t *)ks)->member, &(k), polymac_vector_##sym, \
                            in, nblocks, hibit, (cold), (warm));                  \
    }                                                                             \
    static void polymac_blocks_##sym(void *ks, const uint8_t *in, size_t nblocks, \
                                     uint32_t hibit)                              \
    {                                                                             \
        if (!(k).absorb) {                                                        \
            polymac_simd_blocks(ks, &((state_t *)ks)->member, &(k),               \
                                polymac_vector_##sym, in, nblocks, hibit, (cold), \
                                (warm));                                          \
            return;                                                               \
        }                                                                         \
        if (((state_t *)ks)->member.vec == 1 && (k).absorb(ks, in, nblocks, hibit)) \
            return;                                                               \
        polymac_skeleton_##sym(ks, in, nblocks, hibit);                           \
    }                                                                             \
    static void polymac_emit_##sym(void *ks, uint8_t tag[16], const uint8_t s[16]) \
    {                                                                             \
        polymac_simd_emit(ks, &((state_t *)ks)->member, &(k), tag, s);            \
    }


/*
 * A skeleton kernel's one-shot (kernel.h: auth): below its cold
 * break-even a message never reaches the vector code, so it runs the
 * radix-2^64 one-shot with h, r and the key in registers
 * (polymac_r64_oneshot); from there, the front end's init, blocks, emit.
 */
#define POLYMAC_SIMD_AUTH(sym, cold)                                              \
    static int polymac_auth_##sym(uint8_t tag[16], const uint8_t *msg, size_t len, \
                                  const uint8_t key[32])                          \
    {                                                                             \
        if (len / 16 >= (size_t)(cold))                                           \
            return 1;                                                             \
        polymac_r64_oneshot(tag, msg, len, key);                                  \
        return 0;                                                                 \
    }

/*
 * A skeleton kernel's registration: its name, the CPU bits it needs, its
 * cold break-even in blocks, then any further fields (.cpu_avoid,
 * .stack_bytes, .lanes, ...).  init, blocks and emit are the functions
 * POLYMAC_SIMD_FUNCTIONS defines (or the kernel's own of those names).
 */
#define POLYMAC_SIMD_REGISTER(sym, kname, cpu, cold, ...)                         \
    POLYMAC_SIMD_AUTH(sym, cold)                                                  \
    const struct polymac_kernel polymac_kernel_##sym = {                          \
        .name = kname,                                                            \
        .cpu_required = (cpu),                                                    \
        .init = polymac_init_##sym,                                               \
        .blocks = polymac_blocks_##sym,                                           \
        .emit = polymac_emit_##sym,                                               \
        .auth = polymac_auth_##sym,                                               \
        __VA_ARGS__                                                               \
    }

#endif
