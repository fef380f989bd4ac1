#!/bin/sh
# check-example.sh -- the ChaCha20-Poly1305 example of the README and of
# polymac(3) is the code test/unit/aead_example.c runs
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 the libpolymac authors
# usage: check-example.sh test/unit/aead_example.c README.md docs/polymac.3
set -eu
exec python3 - "$@" <<'PY'
import sys
src, readme, man = sys.argv[1:4]
code = open(src).read()
start, end = code.find("#include <polymac.h>"), code.find("/* ---- end of the example")
if start < 0 or end < 0:
    sys.exit("FAIL: no example found in " + src)
want = code[start:end].rstrip() + "\n"
texts = {"readme": open(readme).read(),
         "man": open(man).read().replace("\\-", "-").replace("\\e", "\\")}
for name, text in texts.items():
    if want not in text:
        sys.exit("FAIL: the %s's example is not %s's" % (name, src))
    print("%s: the example of %s" % (name, src))
PY
