#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 the libpolymac authors
# run.sh -- builds a small parent project that takes libpolymac as a meson
# subproject (a copy of this source tree under subprojects/), static and
# shared, and checks: the parent's plain dependency('polymac') finds it,
# the program gets the RFC 8439 tag, the subproject built no tools and no
# tests, and installing the parent installs nothing of libpolymac but the
# shared library its program needs (nothing at all when static).
#
#   run.sh SOURCE_ROOT WORK_DIR
set -eu
src=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work/parent/subprojects/libpolymac"
cp "$here/meson.build" "$work/parent/"
cp "$src/test/install/consumer.c" "$work/parent/main.c"
cp "$here/libpolymac.wrap" "$work/parent/subprojects/"
# the subproject: this tree without its build directories
(cd "$src" && tar --exclude='./build*' --exclude='./.git' --exclude='./subprojects' -cf - .) \
    | tar -C "$work/parent/subprojects/libpolymac" -xf -

fail() { echo "FAIL: $*"; exit 1; }
for kind in static shared; do
    b=$work/build-$kind
    # --force-fallback-for: an installed libpolymac must not stand in for the subproject
    meson setup "$b" "$work/parent" --force-fallback-for=polymac \
        -Dlibpolymac:default_library=$kind >"$work/$kind-setup.log" 2>&1 \
        || { cat "$work/$kind-setup.log"; fail "$kind: meson setup"; }
    grep -q "Dependency polymac found: YES .*(overridden)" "$work/$kind-setup.log" \
        || { cat "$work/$kind-setup.log"; fail "$kind: dependency('polymac') did not come from the subproject"; }
    ninja -C "$b" >"$work/$kind-build.log" 2>&1 || { cat "$work/$kind-build.log"; fail "$kind: build"; }
    "$b/parent" || fail "$kind: parent program"
    # the subproject built its library and nothing else
    built=$(find "$b/subprojects" -type f \( -name polymac -o -name 'test_*' \) -perm -u+x)
    [ -z "$built" ] || fail "$kind: subproject built tools or tests: $built"
    [ ! -d "$b/subprojects/libpolymac/test" ] || fail "$kind: subproject configured its tests"
    inst=$work/inst-$kind
    meson install -C "$b" --destdir "$inst" >"$work/$kind-install.log" 2>&1 \
        || { cat "$work/$kind-install.log"; fail "$kind: install"; }
    extra=$(cd "$inst" && find . -type f ! -name parent | grep -v 'libpolymac\.so' || true)
    [ -z "$extra" ] || fail "$kind: install put more than the parent and its library: $extra"
    so=$(cd "$inst" && find . -name 'libpolymac.so*' | head -n 1)
    case $kind in
    static) [ -z "$so" ] || fail "static: installed $so" ;;
    shared) [ -n "$so" ] || fail "shared: libpolymac.so not installed beside the parent" ;;
    esac
    echo "subproject ($kind): ok"
done
