#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 the libpolymac authors
# cli.sh -- polymac tag/verify as a user runs them: right tags, exit codes
# 0 (match), 1 (mismatch) and 2 (bad input) with a message.
set -u
tool=$1
# cross builds: meson runs tests with MESON_EXE_WRAPPER set (qemu-user);
# the foreign CLI must go through it
run=${MESON_EXE_WRAPPER:-}
key=85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b
want=a8061dc1305136c6c22b8baf0c0127a9           # RFC 8439 section 2.5.2
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
printf 'Cryptographic Forum Research Group' >"$dir/msg"
printf '%s\n' "$key" >"$dir/key.hex"
fails=0
expect() {  # expect DESCRIPTION WANTED-EXIT COMMAND...
    d=$1 w=$2; shift 2
    if [ "$1" = "$tool" ]; then set -- $run "$@"; fi
    "$@" >"$dir/out" 2>"$dir/err"; rc=$?
    if [ "$rc" != "$w" ]; then
        echo "FAIL: $d: exit $rc, expected $w"; cat "$dir/out" "$dir/err"; fails=$((fails + 1))
    else
        echo "ok: $d"
    fi
}
expect "tag of a file" 0 "$tool" tag --key "$key" "$dir/msg"
[ "$(cat "$dir/out")" = "$want" ] || { echo "FAIL: tag is $(cat "$dir/out")"; fails=$((fails + 1)); }
expect "tag from stdin" 0 sh -c "$run \"$tool\" tag --key $key < \"$dir/msg\""
[ "$(cat "$dir/out")" = "$want" ] || { echo "FAIL: stdin tag is $(cat "$dir/out")"; fails=$((fails + 1)); }
expect "tag with --key-file" 0 "$tool" tag --key-file "$dir/key.hex" "$dir/msg"
[ "$(cat "$dir/out")" = "$want" ] || { echo "FAIL: key-file tag is $(cat "$dir/out")"; fails=$((fails + 1)); }
expect "verify match" 0 "$tool" verify --key "$key" --tag "$want" "$dir/msg"
expect "verify mismatch" 1 "$tool" verify --key "$key" --tag a8061dc1305136c6c22b8baf0c0127a8 "$dir/msg"
expect "short key" 2 "$tool" tag --key 85d6 "$dir/msg"
grep -q "64 hex digits" "$dir/err" || { echo "FAIL: no message for short key"; fails=$((fails + 1)); }
expect "bad hex key" 2 "$tool" tag --key "zz${key#??}" "$dir/msg"
expect "bad tag hex" 2 "$tool" verify --key "$key" --tag xyz "$dir/msg"
expect "missing file" 2 "$tool" tag --key "$key" "$dir/nonexistent"
grep -q "cannot open" "$dir/err" || { echo "FAIL: no message for missing file"; fails=$((fails + 1)); }
expect "missing key" 2 "$tool" tag "$dir/msg"
expect "unreadable key file" 2 "$tool" tag --key-file "$dir/nonexistent" "$dir/msg"
expect "help warns about key reuse" 0 "$tool" --help
grep -q "Never authenticate two" "$dir/out" || { echo "FAIL: help lacks the one-time-key warning"; fails=$((fails + 1)); }
expect "unknown command" 2 "$tool" frobnicate
[ $fails -eq 0 ] && echo "all CLI checks passed"
exit $((fails > 0))
