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
#include "../rfc8439.h"

int main(void)
{
    const char *active = polymac_backend_name();
    const char *names[32];
    uint8_t tag[16];
    size_t n = polymac_backend_list(names, 32);
    /* RFC 8439 section 2.5.2 */
    int ok = polymac_auth(tag, rfc8439_text, sizeof rfc8439_text - 1, rfc8439_key) == 0
             && memcmp(tag, rfc8439_tag, 16) == 0;
    printf("secure=%lu uid=%u euid=%u active=%s auto=%s tag=%s\n", getauxval(AT_SECURE),
           (unsigned)getuid(), (unsigned)geteuid(), active, n ? names[0] : "none",
           ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}
