#!/bin/sh
# check-version.sh -- the header's version macros and the man pages match the project version
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 the libpolymac authors
# usage: check-version.sh include/polymac.h 1.1.0 [MANPAGE...]
set -eu
header=$1 want=$2
shift 2
get() { sed -n "s/^#define POLYMAC_VERSION_$1 *\(.*\)\$/\1/p" "$header"; }
major=$(get MAJOR) minor=$(get MINOR) patch=$(get PATCH) string=$(get STRING)
got="$major.$minor.$patch"
echo "header: $got $string; project: $want"
[ "$got" = "$want" ] || { echo "FAIL: POLYMAC_VERSION_MAJOR/MINOR/PATCH say $got"; exit 1; }
[ "$string" = "\"$want\"" ] || { echo "FAIL: POLYMAC_VERSION_STRING is $string"; exit 1; }
for page in "$@"; do
    grep -q "^\.TH .*\"libpolymac $want\"" "$page" \
        || { echo "FAIL: $page: .TH does not say libpolymac $want"; exit 1; }
    echo "$page: libpolymac $want"
done
