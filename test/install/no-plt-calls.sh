#!/bin/sh
# no-plt-calls.sh -- the library never calls its own exported functions through the PLT
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 the libpolymac authors
# polymac_verify and polymac_final_verify use hidden internal functions:
# a call to polymac_auth@plt would be an extra jump and interposable.
# usage: no-plt-calls.sh LIBRARY; exit 77 (skipped) without objdump.
lib=$1
command -v objdump >/dev/null 2>&1 || { echo "SKIP: no objdump"; exit 77; }
calls=$(objdump -d "$lib" | grep -E 'call.*<polymac_[a-z_0-9]*@plt>') || true
if [ -n "$calls" ]; then
    echo "FAIL: calls to exported functions through the PLT:"
    echo "$calls"
    exit 1
fi
n=$(objdump -d "$lib" | grep -c 'call') || true
echo "ok: none of $n calls in $lib goes to a polymac_* PLT entry"
