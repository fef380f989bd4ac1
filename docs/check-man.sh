#!/bin/sh
# check-man.sh -- each man page given renders with man --warnings and prints nothing
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 the libpolymac authors
# Exits 77 (skipped) when man is not installed.
set -u
command -v man >/dev/null 2>&1 || { echo "SKIP: man is not installed"; exit 77; }
rc=0
for page in "$@"; do
    out=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 \
          man --warnings -E UTF-8 -l -Tutf8 -Z "$page" 2>&1 >/dev/null)
    if [ -n "$out" ]; then
        echo "FAIL: $page:"
        echo "$out"
        rc=1
    else
        echo "ok: $page renders without warnings"
    fi
done
exit $rc
