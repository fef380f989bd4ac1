#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 the libpolymac authors
# check-info.sh -- runs `polymac info` under the environment meson gives it
# and checks which kernel is active and what was said on stderr.
# usage: check-info.sh POLYMAC [--active NAME|--active-auto] [--stderr TEXT] [--no-stderr] [--reason TEXT]
set -u
tool=$1; shift
out=$(mktemp); err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
if ! ${POLYMAC_WRAPPER:-} "$tool" info >"$out" 2>"$err"; then
    echo "FAIL: polymac info exited non-zero"; cat "$out" "$err"; exit 1
fi
cat "$out"; sed 's/^/stderr: /' "$err"
active=$(sed -n 's/^active kernel: //p' "$out")
best=$(sed -n 's/^usable kernels (best first): \([^ ]*\).*/\1/p' "$out")
status=0
while [ $# -gt 0 ]; do
    case $1 in
    --active) [ "$active" = "$2" ] || { echo "FAIL: active is '$active', expected '$2'"; status=1; }; shift ;;
    --active-auto) [ "$active" = "$best" ] || { echo "FAIL: active is '$active', automatic choice is '$best'"; status=1; } ;;
    --stderr) grep -qF -- "$2" "$err" || { echo "FAIL: stderr lacks '$2'"; status=1; }; shift ;;
    --no-stderr) [ ! -s "$err" ] || { echo "FAIL: stderr not empty"; status=1; } ;;
    --reason) grep -qF -- "$2" "$out" || { echo "FAIL: reason lacks '$2'"; status=1; }; shift ;;
    *) echo "check-info.sh: bad argument $1"; exit 2 ;;
    esac
    shift
done
exit $status
