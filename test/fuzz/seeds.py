#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 the libpolymac authors
# seeds.py -- writes the starting corpus of fuzz_poly (test/fuzz/corpus):
# message lengths at every kernel's break-even and stride, all-ones keys
# and messages, split points, state copies and backend switches.  The
# committed corpus is this output plus inputs libFuzzer found worth keeping.
# Layout of an input: see fuzz_poly.c.
import hashlib, os, random, struct, sys

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), 'corpus')
os.makedirs(out, exist_ok=True)
rng = random.Random(8439)

def seed(kernel, flags, cuts, key, msg):
    head = bytes([kernel & 255, flags & 255])
    head += b''.join(struct.pack('<H', c & 0xffff) for c in (cuts + [0] * 7)[:7])
    data = head + key + msg
    assert len(head) == 16 and len(key) == 32
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(out, name), 'wb') as f:
        f.write(data)

rb = lambda n: bytes(rng.getrandbits(8) for _ in range(n))
lengths = [0, 1, 15, 16, 17, 31, 32, 48, 63, 64, 65, 127, 128, 129, 255, 256, 257,
           511, 512, 513, 1024, 1039, 2061, 4096]
for i, n in enumerate(lengths):
    seed(i, i % 8, [rng.randrange(n + 1) for _ in range(7)], rb(32), rb(n))
for i, n in enumerate([16, 64, 256, 1024, 4096]):
    seed(i, 7 | 8 | 16, [1, 15, 17, 100, 257, 1000, 3000], b'\xff' * 32, b'\xff' * n)
    seed(i + 3, 32 | 3, [5, 200, 900], b'\xff' * 16 + b'\x00' * 16, b'\x00' * n)
with open(os.path.join(out, 'empty'), 'wb') as f:
    f.write(b'')
