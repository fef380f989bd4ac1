#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 the libpolymac authors
# consumer.sh -- installs the build into a scratch root, then builds and
# runs test/install/consumer.c with `cc $(pkg-config --cflags --libs polymac)`;
# where the build made libpolymac.a (default_library both or static), also
# links it fully static with `cc -static $(pkg-config --static ...)`;
# checks that the library exports polymac_* and nothing else.
set -eu
build=$1 src=$2 cc=${3:-cc} kind=${4:-shared}
root=$(mktemp -d); trap 'rm -rf "$root"' EXIT
meson install -C "$build" --no-rebuild --destdir "$root" >"$root/install.log" 2>&1 \
    || { cat "$root/install.log"; exit 1; }
pc=$(find "$root" -name polymac.pc | head -n 1)
[ -n "$pc" ] || { echo "FAIL: polymac.pc not installed"; exit 1; }
# the .pc names the real prefix; the sysroot variable maps it into $root
export PKG_CONFIG_PATH="$(dirname "$pc")" PKG_CONFIG_SYSROOT_DIR="$root"
flags=$(pkg-config --cflags --libs polymac)
echo "pkg-config --cflags --libs polymac: $flags"
case $flags in *cpu_features*|*/build*) echo "FAIL: pkg-config leaks build paths"; exit 1 ;; esac
static_flags=$(pkg-config --static --cflags --libs polymac)
case $static_flags in */build*|*/lib*.a*) echo "FAIL: pkg-config --static names a file path: $static_flags"; exit 1 ;; esac
if [ "$kind" != shared ]; then
    [ -n "$(find "$root" -name libpolymac.a)" ] || { echo "FAIL: libpolymac.a not installed"; exit 1; }
    echo "pkg-config --static --cflags --libs polymac: $static_flags"
    $cc -static "$src/test/install/consumer.c" -o "$root/consumer-static" $static_flags
    # a static program: no dynamic section at all
    if readelf -d "$root/consumer-static" | grep -q NEEDED; then
        echo "FAIL: consumer-static is not static"; exit 1
    fi
    "$root/consumer-static"
fi
[ "$kind" != static ] || exit 0
$cc "$src/test/install/consumer.c" -o "$root/consumer" $flags
libdir=$(dirname "$(find "$root" -name 'libpolymac.so.1' | head -n 1)")
LD_LIBRARY_PATH="$libdir" "$root/consumer"
so=$(readlink -f "$libdir/libpolymac.so.1")
soname=$(readelf -d "$so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
[ "$soname" = "libpolymac.so.1" ] || { echo "FAIL: soname is '$soname'"; exit 1; }
[ -f "$(dirname "$pc")/../../include/polymac.h" ] || [ -n "$(find "$root" -name polymac.h)" ] \
    || { echo "FAIL: header not installed"; exit 1; }
bad=$(nm -D --defined-only "$so" | awk '$2 != "A" { print $3 }' | grep -v '^polymac_' || true)
if [ -n "$bad" ]; then echo "FAIL: exported besides polymac_*:"; echo "$bad"; exit 1; fi
echo "exports: $(nm -D --defined-only "$so" | awk '$2 != "A"' | wc -l) symbols, all polymac_*; soname $soname"
