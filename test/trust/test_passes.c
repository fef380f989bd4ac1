/* test_passes.c -- every kernel this CPU supports passes the load-time
 *                  self-test */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/* The dispatcher drops a kernel whose self-test fails (lib/dispatch.c),
 * and a kernel's suites then report it as skipped, the way they report a
 * kernel the CPU lacks: a kernel broken on its own hardware would pass
 * the run as a skip.  Here each built-in kernel the CPU supports (its
 * feature bits, lib/registry.c) must also be selectable, that is, have
 * passed; the deliberately broken kernels of -Dtest_kernels builds are
 * left to test_selftest.  Linked with the internal archive for the
 * registry and the CPU check. */
#include <stdio.h>
#include <string.h>

#include "polymac.h"
#include "registry.h"

int main(void)
{
    int failed = 0, passed = 0;
    for (unsigned i = 0; i < polymac_registry_size; i++) {
        const struct polymac_kernel *k = polymac_registry[i];
        if (strncmp(k->name, "test-", 5) == 0)
            continue;
        if (!polymac_kernel_supported(k)) {
            printf("%-16s not supported by this CPU\n", k->name);
            continue;
        }
        const int rc = polymac_backend_select(k->name);
        printf("%-16s supported, %s\n", k->name,
               rc == 0 ? "passed its self-test" : "FAILED its self-test (or refused)");
        if (rc == 0)
            passed++;
        else
            failed++;
    }
    polymac_backend_select("auto");
    printf("%d supported kernels passed, %d failed\n", passed, failed);
    return failed || !passed ? 1 : 0;
}
