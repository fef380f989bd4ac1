# SPDX-License-Identifier: MIT
# Copyright (c) 2026 the libpolymac authors
# lib.sh -- shared by tools/run-tests, tools/run-demo, tools/trust-checks,
# tools/build-deb and lab/tune: Debian package checks and meson test
# counting.  Sourced, not run.

# The Debian packages a native build, its tests and the benchmark peers need.
NATIVE_PACKAGES="meson ninja-build cmake pkg-config gcc libc6-dev binutils python3
libcpu-features-dev libsodium-dev check libsubunit-dev
libssl-dev libgcrypt20-dev nettle-dev libwolfssl-dev qemu-user valgrind
man-db"
# intel-ipsec-mb is packaged for amd64 only
if [ "$(dpkg --print-architecture 2>/dev/null)" = amd64 ]; then
    NATIVE_PACKAGES="$NATIVE_PACKAGES libipsec-mb-dev"
fi

# need_packages PKG...: installs the missing ones when root; otherwise
# prints the apt-get line and exits.
need_packages() {
    local missing=() p
    for p in "$@"; do
        dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null | grep -q '^ii' || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" -ne 0 ]; then
        echo "Missing Debian packages. Install them with:" >&2
        echo "  sudo apt-get install -y ${missing[*]}" >&2
        exit 2
    fi
    echo "Installing: ${missing[*]}" >&2
    # wait for a lock another package manager holds instead of failing
    local apt=(apt-get -o DPkg::Lock::Timeout=600 -qq)
    if [ -z "${POLYMAC_APT_UPDATED:-}" ]; then
        "${apt[@]}" update >&2 || true
        export POLYMAC_APT_UPDATED=1
    fi
    # a mirror in mid-sync answers 404 for a file its index still lists:
    # read the lists again and try once more
    DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y --no-install-recommends "${missing[@]}" >&2 \
        && return 0
    echo "apt-get install failed; updating the package lists and trying again" >&2
    "${apt[@]}" update >&2 || true
    DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y --no-install-recommends "${missing[@]}" >&2
}

# meson_counts BUILDDIR: prints "passed failed skipped" from meson's test log.
meson_counts() {
    python3 - "$1/meson-logs/testlog.json" <<'PY'
import json, sys
p = f = s = 0
try:
    for line in open(sys.argv[1]):
        r = json.loads(line).get("result")
        if r in ("OK", "EXPECTEDFAIL"):
            p += 1
        elif r == "SKIP":
            s += 1
        else:
            f += 1
except FileNotFoundError:
    pass
print(p, f, s)
PY
}
