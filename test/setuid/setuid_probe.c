/* setuid_probe.c -- reports which kernel the library chose, for the
 *                   set-user-ID test in tools/trust-checks */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/* Linked statically with the library's objects: the dynamic loader ignores
 * LD_LIBRARY_PATH and $ORIGIN in a set-user-ID program, so a program that
 * needed a libpolymac.so from the build tree would not start.  Prints one
 * line, "secure=<AT_SECURE> uid=<ruid> euid=<euid> active=<kernel>
 * auto=<best usable kernel> tag=<ok|WRONG>", and nothing else; the library
 * must print nothing either. */
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "polymac.h"

int main(void)
{
    /* RFC 8439 section 2.5.2 */
    static const uint8_t key[32] = {
        0x85, 0xd6, 0xbe, 0x78, 0x57, 0x55, 0x6d, 0x33, 0x7f, 0x44, 0x52, 0xfe, 0x42, 0xd5, 0x06, 0xa8,
        0x01, 0x03, 0x80, 0x8a, 0xfb, 0x0d, 0xb2, 0xfd, 0x4a, 0xbf, 0xf6, 0xaf, 0x41, 0x49, 0xf5, 0x1b};
    static const uint8_t want[16] = {
        0xa8, 0x06, 0x1d, 0xc1, 0x30, 0x51, 0x36, 0xc6, 0xc2, 0x2b, 0x8b, 0xaf, 0x0c, 0x01, 0x27, 0xa9};
    static const char text[] = "Cryptographic Forum Research Group";
    const char *active = polymac_backend_name();
    const char *names[32];
    uint8_t tag[16];
    size_t n = polymac_backend_list(names, 32);
    int ok = polymac_auth(tag, text, sizeof text - 1, key) == 0 && memcmp(tag, want, 16) == 0;
    printf("secure=%lu uid=%u euid=%u active=%s auto=%s tag=%s\n", getauxval(AT_SECURE),
           (unsigned)getuid(), (unsigned)geteuid(), active, n ? names[0] : "none",
           ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}
