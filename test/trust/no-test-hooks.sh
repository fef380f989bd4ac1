#!/bin/sh
# no-test-hooks.sh -- a release build of the library carries no test kernel and no self-test override
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 the libpolymac authors
# The broken kernels (-Dtest_kernels=true) and POLYMAC_SELFTEST_FAIL_ALL
# (a compile-time define of a test-only copy of the library) must leave
# no symbol, string or kernel name in the library users get.
# usage: no-test-hooks.sh LIBRARY; exit 77 (skipped) without nm or strings.
lib=$1
for t in nm strings; do
    command -v $t >/dev/null 2>&1 || { echo "SKIP: no $t"; exit 77; }
done
fail=0
syms=$(nm -a "$lib" | grep -i -E 'test_broken|fail_all|kat_flip|test_set_h|test_inject') || true
if [ -n "$syms" ]; then
    echo "FAIL: test symbols in $lib:"; echo "$syms"; fail=1
fi
strs=$(strings -a "$lib" | grep -i -E 'test-broken|fail_all|POLYMAC_SELFTEST') || true
if [ -n "$strs" ]; then
    echo "FAIL: test strings in $lib:"; echo "$strs"; fail=1
fi
# the real kernels' names are there, so the search above looked in the right place
strings -a "$lib" | grep -q '^generic-r26$' || { echo "FAIL: no kernel names found in $lib"; fail=1; }
[ $fail = 0 ] && echo "ok: no test kernel or self-test override in $lib"
exit $fail
