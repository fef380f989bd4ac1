#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 the libpolymac authors
# cli.sh -- polymac as a user runs it: right tags, exit codes 0 (match),
# 1 (mismatch) and 2 (bad usage, bad input, a failed write) with a message
# that gives the reason, --help for every command, and bench output that
# stays machine-readable.
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
short_usage() {  # bad usage: a short message on stderr, nothing on stdout
    [ ! -s "$dir/out" ] && [ "$(wc -l <"$dir/err")" -le 2 ] && [ -s "$dir/err" ] \
        || { echo "FAIL: $1: not a short usage message"; cat "$dir/out" "$dir/err"; fails=$((fails + 1)); }
}
short_usage "unknown command"
expect "no command" 2 "$tool"
short_usage "no command"
expect "unknown bench option" 2 "$tool" bench --frobnicate
short_usage "unknown bench option"
expect "info with an argument" 2 "$tool" info extra
short_usage "info with an argument"
expect "unknown tag option" 2 "$tool" tag --frobnicate
short_usage "unknown tag option"

# the reason of every failure
has() {  # has FILE TEXT DESCRIPTION
    grep -qF -- "$2" "$1" || { echo "FAIL: $3: no '$2' in:"; cat "$1"; fails=$((fails + 1)); }
}
expect "missing file reason" 2 "$tool" tag --key "$key" "$dir/nonexistent"
has "$dir/err" "cannot open $dir/nonexistent: No such file or directory" "missing file"
expect "missing key file reason" 2 "$tool" tag --key-file "$dir/nonexistent" "$dir/msg"
has "$dir/err" "No such file or directory" "missing key file"
expect "directory as input" 2 "$tool" tag --key "$key" "$dir"
has "$dir/err" "Is a directory" "directory as input"
# reading /proc/self/mem at offset 0 fails with EIO (nothing is mapped there)
if [ -r /proc/self/mem ]; then
    expect "read error" 2 "$tool" tag --key "$key" /proc/self/mem
    has "$dir/err" "Input/output error" "read error"
else
    echo "SKIP: read error: no /proc/self/mem"
fi

# a failed write is an error, not a silent success
if [ -w /dev/full ]; then
    for c in "tag --key $key $dir/msg" "verify --key $key --tag $want $dir/msg" "info" "--help" "--version"; do
        expect "$c >/dev/full" 2 sh -c "$run \"$tool\" $c >/dev/full"
        has "$dir/err" "write error" "$c >/dev/full"
    done
else
    echo "SKIP: write errors: no /dev/full"
fi

# help: --version is listed, and every command has --help on stdout
expect "help" 0 "$tool" --help
has "$dir/out" "--version" "--help lists --version"
for c in info tag verify bench; do
    expect "$c --help" 0 "$tool" "$c" --help
    has "$dir/out" "usage: polymac $c" "$c --help"
done
expect "--version" 0 "$tool" --version
has "$dir/out" "polymac " "--version"

# bench --csv >x 2>&1 is valid CSV: no progress line (stderr is no
# terminal here) and no peer lines (stderr is the same file)
expect "bench csv with stderr" 0 sh -c "$run \"$tool\" bench --csv --quick --rounds 1 --sizes 16,64 >\"$dir/bench.csv\" 2>&1"
bad=$(grep -cvE '^(size,contender,mb_per_s,cycles_per_byte,ns_per_message|[0-9]+,[^,]+,[0-9.]+,[0-9.]+,[0-9.]+)$' "$dir/bench.csv")
rows=$(grep -c '^16,' "$dir/bench.csv")
if [ "$bad" != 0 ] || [ "$rows" -lt 1 ]; then
    echo "FAIL: bench --csv >x 2>&1 is not CSV ($bad bad lines, $rows rows of 16 bytes):"
    cat -A "$dir/bench.csv" | head -n 20; fails=$((fails + 1))
else
    echo "ok: bench --csv >x 2>&1 is CSV ($(wc -l <"$dir/bench.csv") lines)"
fi
# the table says which peers were found, one line each (or that none are built)
expect "bench peer lines" 0 "$tool" bench --quick --rounds 1 --sizes 16
if ! grep -qE '^(peer [a-z-]+ +[A-Za-z_.0-9-]+ |peers: none )' "$dir/out"; then
    echo "FAIL: bench prints no peer line:"; cat "$dir/out"; fails=$((fails + 1))
fi
grep -q 'polymac bench:' "$dir/err" && { echo "FAIL: progress line on a stderr that is no terminal"; fails=$((fails + 1)); }
[ $fails -eq 0 ] && echo "all CLI checks passed"
exit $((fails > 0))
