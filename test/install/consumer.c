/* consumer.c -- a program built against an installed libpolymac through
 *               pkg-config, as a user would build it */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include <stdio.h>
#include <string.h>
#include <polymac.h>

int main(void)
{
    /* RFC 8439 section 2.5.2 */
    static const uint8_t key[32] = {
        0x85, 0xd6, 0xbe, 0x78, 0x57, 0x55, 0x6d, 0x33, 0x7f, 0x44, 0x52, 0xfe, 0x42, 0xd5,
        0x06, 0xa8, 0x01, 0x03, 0x80, 0x8a, 0xfb, 0x0d, 0xb2, 0xfd, 0x4a, 0xbf, 0xf6, 0xaf,
        0x41, 0x49, 0xf5, 0x1b};
    static const uint8_t want[16] = {0xa8, 0x06, 0x1d, 0xc1, 0x30, 0x51, 0x36, 0xc6,
                                     0xc2, 0x2b, 0x8b, 0xaf, 0x0c, 0x01, 0x27, 0xa9};
    const char *msg = "Cryptographic Forum Research Group";
    uint8_t tag[16];
    if (polymac_auth(tag, msg, strlen(msg), key) != 0 || memcmp(tag, want, 16) != 0) {
        printf("wrong tag from %s\n", polymac_backend_name());
        return 1;
    }
    printf("consumer: libpolymac %s, kernel %s, RFC 8439 tag ok\n", polymac_version(),
           polymac_backend_name());
    return 0;
}
