#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 the libpolymac authors
# cli.sh -- polymac as a user runs it: right tags, exit codes 0 (match),
# 1 (mismatch) and 2 (bad usage, bad input, a failed write) with a message
# that gives the reason, --help for every command, and bench output that
# stays machine-readable.
set -u
tool=$1
case $tool in /*) ;; *) tool=$PWD/$tool ;; esac   # some checks run it from $dir
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

# strict arguments: a bad one exits 2, prints nothing on stdout, and says
# why on stderr after "polymac: "
refuse() {  # refuse DESCRIPTION REASON COMMAND...
    rd=$1 rr=$2; shift 2
    expect "$rd" 2 "$@"
    if [ -s "$dir/out" ] || ! head -n 1 "$dir/err" | grep -q '^polymac: ' \
        || ! grep -qF -- "$rr" "$dir/err"; then
        echo "FAIL: $rd: wants an empty stdout and 'polymac: ...$rr...' on stderr:"
        cat "$dir/out" "$dir/err"; fails=$((fails + 1))
    fi
}
tag_is() {  # tag_is DESCRIPTION: stdout is the RFC 8439 tag
    [ "$(cat "$dir/out")" = "$want" ] || { echo "FAIL: $1: tag is $(cat "$dir/out")"; fails=$((fails + 1)); }
}
other=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
printf '%s\n' "$other" >"$dir/other.hex"

# --key and --key-file are alternatives, and each option is given once
refuse "--key and --key-file" "alternatives" "$tool" tag --key "$other" --key-file "$dir/key.hex" "$dir/msg"
refuse "--key-file and --key" "alternatives" "$tool" tag --key-file "$dir/key.hex" --key "$key" "$dir/msg"
refuse "verify --key and --key-file" "alternatives" \
    "$tool" verify --key "$key" --key-file "$dir/key.hex" --tag "$want" "$dir/msg"
refuse "--key twice" "--key given twice" "$tool" tag --key "$other" --key "$key" "$dir/msg"
refuse "--key twice, the same" "--key given twice" "$tool" tag --key "$key" --key "$key" "$dir/msg"
refuse "--key-file twice" "--key-file given twice" \
    "$tool" tag --key-file "$dir/other.hex" --key-file "$dir/key.hex" "$dir/msg"
refuse "--tag wrong then right" "--tag given twice" \
    "$tool" verify --key "$key" --tag a8061dc1305136c6c22b8baf0c0127a8 --tag "$want" "$dir/msg"
refuse "--tag right then wrong" "--tag given twice" \
    "$tool" verify --key "$key" --tag "$want" --tag a8061dc1305136c6c22b8baf0c0127a8 "$dir/msg"
refuse "--key without its value" "--key needs a value" "$tool" tag "$dir/msg" --key
refuse "--tag without its value" "--tag needs a value" "$tool" verify --key "$key" "$dir/msg" --tag
refuse "--tag in tag" "unknown option --tag" "$tool" tag --key "$key" --tag "$want" "$dir/msg"
refuse "two input files" "more than one input file" "$tool" tag --key "$key" "$dir/msg" "$dir/msg"
expect "options after FILE" 0 "$tool" tag "$dir/msg" --key "$key"
tag_is "options after FILE"

# -- ends the options: a file named like one is tagged
printf 'Cryptographic Forum Research Group' >"$dir/--foo"
expect "-- then a file named --foo" 0 sh -c "cd \"$dir\" && $run \"$tool\" tag --key $key -- --foo"
tag_is "-- then a file named --foo"
expect "verify -- --foo" 0 sh -c "cd \"$dir\" && $run \"$tool\" verify --key $key --tag $want -- --foo"
has "$dir/out" "OK" "verify -- --foo"
refuse "--foo without --" "unknown option --foo" sh -c "cd \"$dir\" && $run \"$tool\" tag --key $key --foo"
expect "-- then a plain FILE" 0 "$tool" tag --key "$key" -- "$dir/msg"
tag_is "-- then a plain FILE"
expect "-- then -: standard input" 0 "$tool" tag --key "$key" -- - <"$dir/msg"
tag_is "-- then -"
refuse "options after -- are files" "a key is required" "$tool" tag -- --key
refuse "options after -- are files (two)" "more than one input file given: $key" \
    "$tool" tag -- --key "$key"
refuse "--help after -- is a file" "a key is required" "$tool" tag -- --help

# --key-file - reads the key from standard input; the message is a FILE
expect "--key-file - (hex key on stdin)" 0 "$tool" tag --key-file - "$dir/msg" <"$dir/key.hex"
tag_is "--key-file -"
expect "verify --key-file -" 0 "$tool" verify --key-file - --tag "$want" "$dir/msg" <"$dir/key.hex"
has "$dir/out" "OK" "verify --key-file -"
refuse "--key-file - without FILE" "standard input" "$tool" tag --key-file - <"$dir/key.hex"
refuse "--key-file - with FILE -" "standard input" "$tool" tag --key-file - - <"$dir/key.hex"
refuse "--key-file - with -- -" "standard input" "$tool" tag --key-file - -- - <"$dir/key.hex"
refuse "--key-file - with a bad key" "key file - (standard input) has the wrong length" \
    "$tool" tag --key-file - "$dir/msg" <"$dir/msg"

# key file: exactly 32 raw bytes, or 64 hex digits and an optional newline
for b in $(printf '%s\n' "$key" | sed 's/../& /g'); do
    printf "\\$(printf '%03o' "0x$b")"
done >"$dir/key.raw"
[ "$(wc -c <"$dir/key.raw")" -eq 32 ] || { echo "FAIL: key.raw is not 32 bytes"; fails=$((fails + 1)); }
expect "raw key file" 0 "$tool" tag --key-file "$dir/key.raw" "$dir/msg"
tag_is "raw key file"
expect "raw key on stdin" 0 "$tool" tag --key-file - "$dir/msg" <"$dir/key.raw"
tag_is "raw key on stdin"
printf '%s' "$key" >"$dir/key.nonl"
expect "hex key file without newline" 0 "$tool" tag --key-file "$dir/key.nonl" "$dir/msg"
tag_is "hex key file without newline"
printf '%s\r\n' "$key" >"$dir/key.crlf"
expect "hex key file with CR LF" 0 "$tool" tag --key-file "$dir/key.crlf" "$dir/msg"
tag_is "hex key file with CR LF"
# 64 hex digits, 15 newlines, garbage: once accepted (only 79 bytes were read)
printf '%s\n\n\n\n\n\n\n\n\n\n\n\n\n\n\ngarbage' "$key" >"$dir/key.garbage"
refuse "key file: newlines then garbage" "is too long" "$tool" tag --key-file "$dir/key.garbage" "$dir/msg"
printf '%s\n\n' "$key" >"$dir/key.2nl"
refuse "key file: two newlines" "has the wrong length" "$tool" tag --key-file "$dir/key.2nl" "$dir/msg"
printf '%s ' "$key" >"$dir/key.space"
refuse "key file: a trailing space" "has the wrong length" "$tool" tag --key-file "$dir/key.space" "$dir/msg"
printf '%s\r' "$key" >"$dir/key.cr"
refuse "key file: a lone CR" "has the wrong length" "$tool" tag --key-file "$dir/key.cr" "$dir/msg"
printf '%s\n' "${key#?}" >"$dir/key.63"
refuse "key file: 63 hex digits" "has the wrong length" "$tool" tag --key-file "$dir/key.63" "$dir/msg"
printf 'zz%s\n' "${key#??}" >"$dir/key.nothex"
refuse "key file: not hex" "not a hex digit" "$tool" tag --key-file "$dir/key.nothex" "$dir/msg"
cat "$dir/key.raw" "$dir/key.raw" "$dir/key.raw" >"$dir/key.96"
refuse "key file: 96 raw bytes" "is too long" "$tool" tag --key-file "$dir/key.96" "$dir/msg"
{ cat "$dir/key.raw"; echo; } >"$dir/key.33"
refuse "key file: 32 raw bytes and a newline" "has the wrong length" \
    "$tool" tag --key-file "$dir/key.33" "$dir/msg"
: >"$dir/key.empty"
refuse "key file: empty" "is empty" "$tool" tag --key-file "$dir/key.empty" "$dir/msg"
refuse "key file: a directory" "Is a directory" "$tool" tag --key-file "$dir" "$dir/msg"

# bench --rounds: a whole number from 1 to 63
for r in 1x 4294967297 18446744073709551617 0 64 -1 +5 " 5" "" 0x10; do
    refuse "bench --rounds '$r'" "--rounds takes a whole number from 1 to 63" \
        "$tool" bench --quick --rounds "$r" --sizes 16
done
refuse "bench --rounds twice" "--rounds given twice" "$tool" bench --rounds 1 --rounds 2 --sizes 16
refuse "bench --rounds without its value" "--rounds needs a value" "$tool" bench --rounds
# 63 is allowed, and --rounds holds against a --quick after it
expect "bench --rounds 63 --quick" 0 "$tool" bench --rounds 63 --quick --sizes 16
has "$dir/out" "median of 63 interleaved rounds" "bench --rounds 63 --quick"

# bench --sizes: 1 to 16 sizes from 1 to 2^30, never one dropped
refuse "bench --sizes ''" "no size given" "$tool" bench --quick --rounds 1 --sizes ""
for s in 1, ,1 1,,2 ,; do
    refuse "bench --sizes $s" "an empty size" "$tool" bench --quick --rounds 1 --sizes "$s"
done
for s in 16x 1e3 -16 +16 " 16" 16,64k 0x10; do
    refuse "bench --sizes '$s'" "not a decimal number" "$tool" bench --quick --rounds 1 --sizes "$s"
done
for s in 0 1073741825 18446744073709551617 99999999999999999999999999999 16,0; do
    refuse "bench --sizes $s" "a size out of range" "$tool" bench --quick --rounds 1 --sizes "$s"
done
refuse "bench 17 sizes" "more than 16 sizes" \
    "$tool" bench --quick --rounds 1 --sizes 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17
refuse "bench --sizes twice" "--sizes given twice" "$tool" bench --rounds 1 --sizes 16 --sizes 64
refuse "bench --sizes without its value" "--sizes needs a value" "$tool" bench --quick --sizes
refuse "bench operand" "bench takes no operand" "$tool" bench --quick extra
refuse "bench -- operand" "bench takes no operand" "$tool" bench --quick -- --sizes
refuse "bench unknown option" "unknown bench option --frobnicate" "$tool" bench --frobnicate
expect "bench 16 sizes" 0 "$tool" bench --csv --quick --rounds 1 --sizes 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16
n=$(cut -d, -f1 "$dir/out" | grep -E '^[0-9]+$' | sort -u | wc -l)
[ "$n" -eq 16 ] || { echo "FAIL: bench 16 sizes: $n sizes in the CSV"; fails=$((fails + 1)); }

[ $fails -eq 0 ] && echo "all CLI checks passed"
exit $((fails > 0))
