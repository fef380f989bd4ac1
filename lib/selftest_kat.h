/* selftest_kat.h -- the known answers of the dispatcher's self-test */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/*
 * Every tag below was computed by libsodium's crypto_onetimeauth_poly1305
 * (one call over the whole message), never by this library:
 * test/trust/test_kat.c recomputes each of them with libsodium and fails
 * when one differs; `test_kat --print` prints this file's tag tables as
 * libsodium computes them.  Included by lib/dispatch.c and that test only.
 *
 * What the lengths and pieces reach (block counts per blocks() call):
 *   - one-shot, all-0xff key and message (every carry at its largest):
 *     64 bytes (4 blocks) and 2061 (128 blocks + 13 bytes) run whole
 *     groups only, since 128 is a multiple of 16, 8 and 4; 597 (37 blocks
 *     + 5) and 2269 (141 + 13) leave a partial group after full ones for
 *     every group width (37 and 141 are odd, and 37 = 2 x 16 + 5,
 *     141 = 8 x 16 + 13 = 17 x 8 + 5 = 35 x 4 + 1), and reach the
 *     four-lane (37) and eight-lane (141) AVX-512 loops, AVX2's r^8 loop
 *     and IFMA's leading partial group below and above eight blocks.
 *   - streamed through polymac_init/update/final (the front end's buffer
 *     keeps a piece that leaves fewer than 32 bytes there, and splits
 *     others into the buffer's blocks, then whole blocks), key and
 *     message from polymac_kat_fill: stream 0 gives the
 *     calls 1 2 10 11 1 7 1 1 7 16 8 1 4 9 2 15 2 32 2 x 8 and a
 *     padded final block: scalar calls counted towards a cold break-even,
 *     a cold vector call of fewer than 16 blocks, IFMA's live lanes
 *     continued by short scalar calls (a pending part, t passing 15), by
 *     leading partial groups (t + k above and below 16) and by whole
 *     groups, AVX2's lanes kept across calls and merged by a short call,
 *     AVX-512's four lanes upgraded to eight.  Stream 1 gives the calls
 *     20 5 16 11 8, then, from pieces of 13 bytes, the buffer's two blocks
 *     and at the end a block that waited there and the padded final
 *     block, with the lanes live (merged by emit).
 */
#ifndef POLYMAC_SELFTEST_KAT_H
#define POLYMAC_SELFTEST_KAT_H

#include <stddef.h>
#include <stdint.h>

/* One-shot lengths, all-0xff key and message. */
#define POLYMAC_KAT_ONESHOTS 4
static const size_t polymac_kat_oneshot_len[POLYMAC_KAT_ONESHOTS] = {64, 2061, 597, 2269};
static const uint8_t polymac_kat_oneshot_tag[POLYMAC_KAT_ONESHOTS][16] = {
    /* 64 */
    {0x90, 0x0f, 0xe3, 0x2b, 0xc1, 0x5f, 0xa8, 0xd7, 0xbc, 0xa8, 0xef, 0xe4, 0xc7, 0xe3, 0x7e, 0xb1},
    /* 2061 */
    {0x86, 0xf3, 0xea, 0x15, 0xdd, 0xf1, 0x9c, 0x58, 0x94, 0x06, 0x13, 0xe6, 0xda, 0x2c, 0xb7, 0x37},
    /* 597 */
    {0x3c, 0x5c, 0xdc, 0xa2, 0xfa, 0x21, 0x36, 0x96, 0xb0, 0x0f, 0x51, 0x36, 0x7b, 0x18, 0x3a, 0x05},
    /* 2269 */
    {0x7f, 0x8b, 0x0b, 0xa0, 0xd6, 0xb6, 0xca, 0xce, 0xc2, 0x9a, 0x44, 0xbf, 0x3a, 0xfc, 0xf8, 0xc7},
};
/* the longest message, one-shot or streamed */
#define POLYMAC_KAT_MSG_MAX 2343

/* Streamed messages: piece lengths (0 ends the list), the fill seeds of
 * key and message. */
#define POLYMAC_KAT_STREAMS 2
#define POLYMAC_KAT_PIECES_MAX 40
struct polymac_kat_stream {
    uint32_t key_seed, msg_seed;
    uint16_t pieces[POLYMAC_KAT_PIECES_MAX];
};
static const struct polymac_kat_stream polymac_kat_stream[POLYMAC_KAT_STREAMS] = {
    {0x0b5e55edu, 0x5eed1e55u,
     {13, 35, 160, 181, 132, 23, 112, 256, 128, 5, 75, 144,
      32, 240, 32, 512, 32, 32, 32, 32, 32, 32, 32, 32, 7}},
    {0x600dcafeu, 0x00c0ffeeu, {320, 80, 256, 176, 128, 13, 13, 13, 13}},
};
static const uint8_t polymac_kat_stream_tag[POLYMAC_KAT_STREAMS][16] = {
    /* stream 0, 2343 bytes */
    {0x30, 0x66, 0x72, 0xab, 0xa2, 0x44, 0xd7, 0x9d, 0xaa, 0xe7, 0x89, 0xe4, 0x5b, 0x84, 0x97, 0x8a},
    /* stream 1, 1012 bytes */
    {0x14, 0x09, 0x90, 0x69, 0x27, 0x10, 0xa0, 0x0b, 0x63, 0x36, 0x75, 0x96, 0x42, 0xd4, 0x64, 0xf1},
};

/* Key and message bytes of the streamed answers: word w (bytes 4w..4w+3,
 * little-endian) is a multiplicative hash of w + seed.  Words do not
 * depend on one another, so the fill costs a fraction of the hashing at
 * load (a byte-serial generator cost more than the MACs). */
static inline void polymac_kat_fill(uint8_t *p, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i += 4) {
        uint32_t x = ((uint32_t)(i / 4) + seed) * 0x9e3779b1u;
        x ^= x >> 16;
        x *= 0x85ebca6bu;
        x ^= x >> 13;
        for (size_t j = 0; j < 4 && i + j < n; j++)
            p[i + j] = (uint8_t)(x >> (8 * j));
    }
}

/* Total length of stream i. */
static inline size_t polymac_kat_stream_len(unsigned i)
{
    size_t n = 0;
    for (unsigned j = 0; j < POLYMAC_KAT_PIECES_MAX && polymac_kat_stream[i].pieces[j]; j++)
        n += polymac_kat_stream[i].pieces[j];
    return n;
}

#endif
