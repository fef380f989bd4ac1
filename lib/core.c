/* core.c -- the front end's core: key clamping, s, the partial-block
 *           buffer, final padding and the state wipe, through a given
 *           kernel, under the stack policy */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include <stddef.h>
#include <string.h>

#include "polymac.h"
#include "core.h"
#include "registry.h"
#include "util.h"

#define LIVE_MAGIC UINT64_C(0x706f6c796d616331)   /* "polymac1" */

/* The front end's part of a state.  It and the kernel state after it sit
 * at the first 64-byte boundary past raw[0]; raw[0] records that offset
 * (1..64) so a state memcpy'd to another address can be moved back into
 * alignment on its next use. */
struct front {
    uint64_t magic;
    uint8_t kidx;        /* registry index of the kernel that began it */
    uint8_t buflen;      /* bytes in buf, 0..31: from 16 on, a whole
                            block not yet given to the kernel and the
                            next block's first bytes */
    uint8_t pad[2];
    uint32_t build;      /* bind(kidx): the fingerprint of the build that
                            began it (an index means nothing in a build
                            whose registry differs), bound to kidx */
    uint8_t s[16];
    uint8_t buf[32];
};
#define FRONT_BYTES 64
_Static_assert(sizeof(struct front) <= FRONT_BYTES, "front fits");
_Static_assert(1 + 63 + FRONT_BYTES + POLYMAC_KS_BYTES <= POLYMAC_STATEBYTES,
               "polymac_state holds the front, the kernel state and alignment slack");
_Static_assert(POLYMAC_KS_ALIGN == 64, "one alignment for front and kernel state");

/* The check word of a state begun by kernel kidx in this build
 * (polymac_bind): a state whose kernel index was changed, or that another
 * build began, fails it. */
static uint32_t bind(uint8_t kidx)
{
    return polymac_bind(kidx);
}

static unsigned want_offset(const polymac_state *st)
{
    return 64 - (unsigned)((uintptr_t)st & 63);   /* 1..64 */
}

/* A state copied to another address: its front and kernel state moved
 * from offset off to want (out of line: the frame its calls need is not
 * every call's) */
__attribute__((noinline, cold)) static void realign(unsigned char *raw, unsigned off,
                                                    unsigned want)
{
    /* the bytes the move uncovers would keep s, buffered message bytes
     * or kernel secrets after final wipes the new place */
    memmove(raw + want, raw + off, FRONT_BYTES + POLYMAC_KS_BYTES);
    if (want > off)
        polymac_wipe(raw + off, want - off);
    else
        polymac_wipe(raw + want + FRONT_BYTES + POLYMAC_KS_BYTES, off - want);
    raw[0] = (unsigned char)want;
}

/* Whether the front at raw + off (1 <= off <= 64) is a live one: its
 * magic and its check word, against the build's fingerprint fp. */
static inline int front_ok(const unsigned char *raw, unsigned off, uint32_t fp)
{
    uint64_t magic;
    uint32_t build;
    uint8_t kidx;
    memcpy(&magic, raw + off, sizeof magic);
    memcpy(&build, raw + off + offsetof(struct front, build), sizeof build);
    memcpy(&kidx, raw + off + offsetof(struct front, kidx), sizeof kidx);
    return magic == LIVE_MAGIC && build == polymac_bind_to(fp, kidx);
}

/* Returns the live front of st (moving a copied state into alignment) or
 * NULL when st was never initialised, is finished, or is garbage. */
static struct front *live(polymac_state *st, const struct polymac_kernel **k)
{
    unsigned char *raw = st->opaque;
    unsigned off = raw[0], want = want_offset(st);
    if (off < 1 || off > 64 || !front_ok(raw, off, polymac_registry_fingerprint()))
        return NULL;
    if (off != want)
        realign(raw, off, want);
    struct front *f = (struct front *)(raw + want);
    *k = polymac_kernel_at(f->kidx);
    if (!*k || f->buflen > 31)
        return NULL;
    return f;
}

/* live for the usual state, up to its kernel: where init put it, the
 * fingerprint made (init made it), with no call that would need a frame;
 * NULL for anything else, which live then settles.  The kernel is
 * looked up apart (polymac_kernel_marked): a piece that only goes into
 * the buffer needs none. */
static inline struct front *front_fast(polymac_state *st)
{
    unsigned char *raw = st->opaque;
    const unsigned off = raw[0];
    const uint32_t fp = atomic_load_explicit(&polymac_fingerprint, memory_order_relaxed);
    if (off != want_offset(st) || !fp || !front_ok(raw, off, fp))
        return NULL;
    struct front *f = (struct front *)(raw + off);
    return f->buflen > 31 ? NULL : f;
}

static void *kstate(struct front *f)
{
    return (unsigned char *)f + FRONT_BYTES;
}

/* The stack policy (docs/testing.md): after every call into a kernel,
 * the front end zeroes the kernel's stack_bytes of dead stack below its
 * own frame, where the kernel's functions may have left powers of r,
 * limbs of r or h (a compiler spills what it likes; wiping named arrays
 * inside each kernel cannot catch that).  Called at the same depth as the
 * kernel call it follows, its array covers the dead frames. */
__attribute__((noinline)) void polymac_burn_stack(uint32_t n)
{
    /* Plain stores, not memset: a first call through the PLT would run
     * the dynamic linker's lazy binding, whose XSAVE of the vector
     * registers lands below this area.  The zero is hidden from the
     * compiler so that it cannot turn the loop back into memset. */
    uint64_t area[n / 8], zero = 0;
    __asm__("" : "+r"(zero));
    for (uint32_t i = 0; i < n / 8; i++)
        area[i] = zero;
    __asm__ __volatile__("" : : "r"(area) : "memory");
}

static inline void after_kernel(const struct polymac_kernel *k)
{
    if (k->stack_bytes)
        polymac_burn_stack(k->stack_bytes);
}

void polymac_kernel_init(const struct polymac_kernel *k, void *ks, const uint8_t key[32])
{
    uint8_t r[16];
    polymac_clamp(r, key);
    k->init(ks, r);
    polymac_wipe(r, sizeof r);
}

void polymac_auth_blocks(const struct polymac_kernel *k, void *ks, uint8_t tag[16],
                         const uint8_t *msg, size_t len, const uint8_t key[32])
{
    uint8_t last[16];
    polymac_kernel_init(k, ks, key);
    if (len >= 16)
        k->blocks(ks, msg, len / 16, 1);
    size_t rest = len % 16;
    if (rest) {
        polymac_pad_last(last, msg + (len - rest), rest);
        k->blocks(ks, last, 1, 0);
    }
    k->emit(ks, tag, key + 16);
    /* from the frame the kernel calls were made from (or one above it,
     * small, when this is not inlined): a caller's zeroing would have to
     * span its own frame too, the 1 KiB stack state of auth_kernel */
    after_kernel(k);
}

/* The same policy for the batch front end (lib/batch.c), called at the
 * depth of its kernel calls. */
void polymac_wipe_dead_stack(const struct polymac_kernel *k)
{
    after_kernel(k);
}

void polymac_init_nocheck(const struct polymac_kernel *k, polymac_state *st,
                       const uint8_t key[32])
{
    unsigned want = want_offset(st);
    struct front *f = (struct front *)(st->opaque + want);
    st->opaque[0] = (unsigned char)want;
    f->magic = LIVE_MAGIC;
    f->kidx = (uint8_t)polymac_kernel_index(k);
    f->buflen = 0;
    f->pad[0] = f->pad[1] = 0;
    f->build = bind(f->kidx);
    memcpy(f->s, key + 16, 16);
    polymac_kernel_init(k, kstate(f), key);
    after_kernel(k);
}

/* A piece that leaves fewer than two blocks buffered (len < 32 -
 * f->buflen): into the buffer, in a function of its own with no frame
 * (update_live's would cost such a call more than the copy).  A block
 * the piece completes waits there for the next: a stream of short pieces
 * calls the kernel once every two blocks. */
__attribute__((noinline)) static int update_small(struct front *f, const uint8_t *in,
                                                  size_t len)
{
    polymac_copy32(f->buf + f->buflen, in, len);
    f->buflen += (uint8_t)len;
    return POLYMAC_OK;
}

/* polymac_update_nocheck's work on a live state f with bytes to take */
__attribute__((noinline)) static int update_live(const struct polymac_kernel *k,
                                                 struct front *f, const uint8_t *in,
                                                 size_t len)
{
    if (len < 32u - f->buflen)
        return update_small(f, in, len);
    if (f->buflen) {
        /* the buffer's blocks, completed: one, or with a block waiting
         * there, two */
        const unsigned full = f->buflen < 16 ? 16 : 32;
        const size_t take = full - f->buflen;
        polymac_copy16(f->buf + f->buflen, in, take);
        in += take;
        len -= take;
        k->blocks(kstate(f), f->buf, full / 16, 1);
        f->buflen = 0;
    }
    if (len >= 16) {
        k->blocks(kstate(f), in, len / 16, 1);
        in += len - len % 16;
        len %= 16;
    }
    if (len) {
        polymac_copy16(f->buf, in, len);
        f->buflen = (uint8_t)len;
    }
    after_kernel(k);
    return POLYMAC_OK;
}

/* polymac_update_nocheck where its fast checks do not settle it: a state
 * copied to another address (live moves it), or a kernel index not yet
 * marked runnable; then the same work.  Out of line, so that the usual
 * call sets up no frame for these calls. */
__attribute__((noinline, cold)) static int update_slow(polymac_state *st, const uint8_t *msg,
                                                       size_t len)
{
    const struct polymac_kernel *k;
    struct front *f;
    if (!(f = live(st, &k)))
        return POLYMAC_ESTATE;
    if (!len)
        return POLYMAC_OK;
    return update_live(k, f, msg, len);
}

int polymac_update_nocheck(polymac_state *st, const void *msg, size_t len)
{
    const struct polymac_kernel *k;
    struct front *f;
    if (!st || (!msg && len))
        return POLYMAC_EINVAL;
    if (!(f = front_fast(st)))
        return update_slow(st, msg, len);
    /* whole blocks, two or more, and nothing buffered, for a kernel that
     * zeroes its own stack: the kernel call alone, without the frame of
     * the buffer's code (a stream of large pieces, one such call each);
     * a kernel index not yet marked runnable goes to live */
    if (!f->buflen && !(len & 15) && len >= 32) {
        if (!(k = polymac_kernel_marked(f->kidx)))
            return update_slow(st, msg, len);
        if (!k->stack_bytes) {
            k->blocks(kstate(f), msg, len / 16, 1);
            return POLYMAC_OK;
        }
        return update_live(k, f, msg, len);
    }
    /* into the buffer (an empty piece copies nothing: msg may be NULL) */
    if (len < 32u - f->buflen)
        return update_small(f, msg, len);
    if (!(k = polymac_kernel_marked(f->kidx)))
        return update_slow(st, msg, len);
    return update_live(k, f, msg, len);
}

/* polymac_final without the argument checks (hidden: see auth_nocheck). */
int polymac_final_nocheck(polymac_state *st, uint8_t tag[16])
{
    const struct polymac_kernel *k;
    struct front *f;
    if (!(f = live(st, &k)))
        return POLYMAC_ESTATE;
    uint8_t *last = f->buf;
    unsigned n = f->buflen;
    if (n >= 16) {
        /* the block waiting in the buffer */
        k->blocks(kstate(f), f->buf, 1, 1);
        last += 16;
        n -= 16;
    }
    if (n) {
        last[n] = 1;
        memset(last + n + 1, 0, 15 - n);
        k->blocks(kstate(f), last, 1, 0);
    }
    k->emit(kstate(f), tag, f->s);
    polymac_wipe(f, FRONT_BYTES);
    st->opaque[0] = 0;
    after_kernel(k);
    return POLYMAC_OK;
}
