#!/bin/sh
# needed.sh -- the polymac tool links libpolymac and libc only (benchmark
# peers are loaded at run time): checks readelf's NEEDED entries of the
# built tool and of an installed copy, and what ldd resolves natively.
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 the libpolymac authors
# usage: needed.sh TOOL [BUILDDIR]   (with BUILDDIR: also install and check)
set -u
tool=$1 build=${2:-}
fails=0
check_needed() {  # check_needed FILE LABEL
    needed=$(readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
    [ -n "$needed" ] || { echo "FAIL: $2: readelf -d shows no NEEDED entry"; fails=$((fails + 1)); return; }
    for lib in $needed; do
        case $lib in
            libpolymac.so.1|libc.so.*|ld-linux*.so.*|ld64.so.*|ld.so.*) echo "ok: $2 needs $lib" ;;
            *) echo "FAIL: $2 needs $lib (only libpolymac and libc are allowed)"; fails=$((fails + 1)) ;;
        esac
    done
    echo "$needed" | grep -qx 'libpolymac.so.1' || { echo "FAIL: $2 does not need libpolymac.so.1"; fails=$((fails + 1)); }
}
check_ldd() {  # check_ldd FILE LABEL [LIBDIR]: native builds only
    out=$(LD_LIBRARY_PATH=${3:-${LD_LIBRARY_PATH:-}} ldd "$1" 2>&1) || { echo "FAIL: $2: ldd failed: $out"; fails=$((fails + 1)); return; }
    bad=$(echo "$out" | awk '{print $1}' | grep -vE '^(linux-vdso\.so\.1|linux-gate\.so\.1|libpolymac\.so\.1|libc\.so\.[0-9]+|/.*ld-linux.*|/.*ld64.*|ld-linux.*)$')
    if [ -n "$bad" ]; then
        echo "FAIL: $2: ldd shows more than libpolymac, libc and the loader:"; echo "$out"; fails=$((fails + 1))
    else
        echo "ok: $2: ldd shows only libpolymac, libc and the loader"
    fi
}
check_needed "$tool" "built tool"
# ldd runs the foreign loader: only where the tool runs without a wrapper
if [ -z "${MESON_EXE_WRAPPER:-}" ]; then check_ldd "$tool" "built tool"; else echo "SKIP: ldd of a cross-built tool"; fi
if [ -n "$build" ]; then
    root=$(mktemp -d); trap 'rm -rf "$root"' EXIT
    if ! meson install -C "$build" --no-rebuild --destdir "$root" >"$root/install.log" 2>&1; then
        cat "$root/install.log"; echo "FAIL: meson install"; exit 1
    fi
    inst=$(find "$root" -type f -name polymac -path '*/bin/*' | head -n 1)
    if [ -z "$inst" ]; then
        echo "FAIL: the polymac tool is not installed"; fails=$((fails + 1))
    else
        check_needed "$inst" "installed tool"
        libdir=$(dirname "$(find "$root" -name 'libpolymac.so.1' | head -n 1)")
        if [ -z "${MESON_EXE_WRAPPER:-}" ]; then check_ldd "$inst" "installed tool" "$libdir"; fi
    fi
fi
[ $fails -eq 0 ] && echo "polymac links only libpolymac and libc"
exit $((fails > 0))
