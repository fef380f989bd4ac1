#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 the libpolymac authors
"""burn_depths.py -- the zeroing depths the code declares, against the
frames of the built library (x86-64).

    burn_depths.py LIB.so BUILDDIR [--plant MACRO=BYTES]

Every function whose dead frame is zeroed right after it returns (the
table BURNED below: the x86 kernels' vector functions and lanes, the
batch pairs, the front end's out-of-line radix-2^64 frames) needs the
zeroing to reach as deep as it and everything it calls wrote.  That
depth is read from `objdump -d` of LIB.so: below the return address,
its pushes, the sub from rsp, the realignment padding (an `and` of rsp
to 2^k: up to 2^k - 8 bytes), the red zone it uses (the lowest offset
below rsp), and the deepest of its direct callees (a call: the return
address, any arguments pushed for it and the callee's own depth; a tail
jump: the callee's depth), callees it zeroes after itself (being a
burned function of its own) and the burn functions, which store only
zeros, left out.  The declared depth is the smallest value any
translation unit of lib/ gives the function's macro, read from the
compiler's own preprocessor (`-E -dM` on each command of BUILDDIR's
compile_commands.json, the -D of a forced value included).  A function
that is inlined in this build has no frame of its own and is reported
as such; one that calls through a pointer or into another library
(other than memset, memcpy, memmove, which use no stack) cannot be
bounded and fails.  Every function that calls polymac_x86_burn_below
must call only functions the table knows, so that a new out-of-line
vector function is not missed.

Prints one line per function, "ok" or "FAIL", and exits 1 on any FAIL.
--plant MACRO=BYTES declares MACRO as BYTES (a test of the test): then
the exit status is 0 only when a function of MACRO fails and nothing
else does.
"""
import json
import os
import re
import shlex
import subprocess
import sys

# burned function -> (the macro of the depth zeroed after it, where)
BURNED = {
    'polymac_vector_x86_avx2': 'POLYMAC_AVX2_VECTOR_STACK',
    'polymac_lanes_x86_avx2': 'POLYMAC_AVX2_LANES_STACK',
    # the AEAD's spans, their groups through the lanes
    'polymac_spans_groups_x86_avx2': 'POLYMAC_AVX2_VECTOR_STACK',
    # the batch's quads (four messages in the lanes) and their scalar rest
    'polymac_quads2_x86_avx2': 'POLYMAC_AVX2_QUADS_STACK',
    'polymac_quads4_x86_avx2': 'POLYMAC_AVX2_QUADS4_STACK',
    'polymac_quads_rest_x86_avx2': 'POLYMAC_AVX2_QUADS_STACK',
    # h back from the vector form: the merge zeroes after itself
    'polymac_merge_x86_avx2': 'POLYMAC_AVX2_MERGE_STACK',
    'ifma_merge': 'IFMA_VECTOR_STACK',
    'polymac_vector16_x86_avx512': 'POLYMAC_AVX512_VECTOR16_STACK',
    'polymac_vector8_x86_avx512': 'POLYMAC_AVX512_VECTOR8_STACK',
    'polymac_vector4_x86_avx512': 'POLYMAC_AVX512_VECTOR4_STACK',
    'ifma_vector': 'IFMA_VECTOR_STACK',
    'ifma_oneshot_long': 'IFMA_VECTOR_STACK',
    'ifma_oneshot_short': 'IFMA_VECTOR_STACK',
    'ifma_oneshot_long_tail': 'IFMA_VECTOR_STACK',
    'ifma_oneshot_short_tail': 'IFMA_VECTOR_STACK',
    # the lanes: one length, lockstep, and run_h's groups
    'ifma_lanes_same_sq': 'IFMA_LANES_SAME_STACK',
    'ifma_lanes_same_short': 'IFMA_LANES_SAME_STACK',
    'ifma_lanes_same_one': 'IFMA_LANES_SAME_STACK',
    'ifma_lanes_same': 'IFMA_LANES_SAME_STACK',
    'ifma_lanes_aligned_one': 'IFMA_LANES_ALIGNED_STACK',
    'ifma_lanes_aligned_sorted': 'IFMA_LANES_ALIGNED_STACK',
    'ifma_lanes_aligned': 'IFMA_LANES_ALIGNED_STACK',
    'ifma_lanes_same_h': 'IFMA_LANES_H_STACK',
    'ifma_lanes_aligned_h': 'IFMA_LANES_H_STACK',
    # r64_pairs.h, in every kernel that has the pairs
    'polymac_pairs_same': 'POLYMAC_PAIRS_STACK',
    'polymac_pairs_one': 'POLYMAC_PAIRS_STACK',
    'polymac_pairs_single': 'POLYMAC_PAIRS_STACK',
    # the front end's radix-2^64 frames (r64.h, aead.c)
    'polymac_r64_oneshot_frame': 'POLYMAC_R64_STACK_BYTES',
    'r64_spans_frame': 'AEAD_R64_STACK_BYTES',
    'aead_r64_part': 'AEAD_PART_STACK',
}
BURNERS = {'polymac_x86_burn_below', 'polymac_burn_stack'}
FRAMELESS_PLT = {'memset', 'memcpy', 'memmove'}
# called beside a burn by a function that calls polymac_x86_burn_below,
# and not zeroed after: the scalar code (radix 2^64 in asm) and the mixed
# batches' windows, whose own frames hold lengths and addresses and which
# zero their groups' frames themselves (checked as the groups' calls), and
# the skeleton's out-of-line blocks (simd/skeleton.h), which zeroes after
# its own vector calls (checked as a function that burns); and, beside
# x86-avx2's quads, the messages they leave: the pairs' batch and the
# kernel's one-shot, each of which zeroes after its own calls as the
# front end's callers of them rely on (checked as functions that burn)
UNBURNED_OK = {'ifma_short', 'ifma_absorb', 'ifma_lanes_mixed', 'ifma_lanes_mixed_h',
               'polymac_r26vec_wipe_long',   # stores zeros into the state
               'polymac_skeleton_x86_avx2', 'polymac_pairs_batch',
               'polymac_auth_x86_avx2', 'polymac_auth_vector_x86_avx2',
               'polymac_spans_vector_x86_avx2'}


def base(name):
    """a symbol without the compiler's suffixes (.constprop.0, .isra.0, .part.0, .cold)"""
    return name.split('.')[0]


def disassemble(lib):
    out = subprocess.run(['objdump', '-d', '--no-show-raw-insn', '-M', 'att', lib],
                         check=True, capture_output=True, text=True).stdout
    funcs, cur = {}, None     # address -> {'name', 'ins': [(mnemonic, operands)]}
    for line in out.splitlines():
        m = re.match(r'^([0-9a-f]+) <(.+)>:$', line)
        if m:
            cur = {'name': m.group(2), 'addr': int(m.group(1), 16), 'ins': []}
            funcs[cur['addr']] = cur
            continue
        m = re.match(r'^\s+[0-9a-f]+:\s+(\S+)\s*(.*)$', line)
        if m and cur is not None:
            mn = m.group(1)
            if mn in ('bnd', 'notrack', 'rex', 'rex.W', 'data16', 'cs', 'ds') and m.group(2):
                mn, _, rest = m.group(2).partition(' ')
                cur['ins'].append((mn, rest.strip()))
            else:
                cur['ins'].append((mn, m.group(2)))
    return funcs


def imm(s):
    v = int(s, 16)
    return v - (1 << 64) if v >= 1 << 63 else v


class Frames:
    def __init__(self, funcs):
        self.funcs = funcs
        self.memo = {}

    def own(self, f):
        """pushes, fixed frame, realignment and red zone of f itself, and
        its calls as (kind, target address or None, symbol, bytes pushed
        for it).  Every push counts, arguments pushed for a call too (an
        over-estimate), and those pushed for a call count again for that
        call: the pushes right before it, back to a sub from rsp, a call or
        a jump."""
        pushes = frame = pad = red = 0
        calls = []
        ins = f['ins']
        for i, (mn, op) in enumerate(ins):
            text = f'{mn} {op}'
            if mn.startswith('push'):
                pushes += 1
                continue
            m = re.match(r'^(sub|add)q?\s+\$(0x[0-9a-f]+),%rsp$', text)
            if m:
                v = imm(m.group(2))
                v = v if m.group(1) == 'sub' else -v
                frame += max(v, 0)
                continue
            m = re.match(r'^andq?\s+\$(0x[0-9a-f]+),%rsp$', text)
            if m:
                pad = max(pad, -imm(m.group(1)) - 8)
                continue
            if re.match(r'^subq?\s+%\w+,%rsp$', text) and base(f['name']) not in BURNERS:
                frame = None
            for d in re.findall(r'-0x([0-9a-f]+)\(%rsp\)', op):
                red = max(red, int(d, 16))
            if not (mn.startswith('call') or mn.startswith('j')):
                continue
            kind = 'call' if mn.startswith('call') else 'jump'
            pushed = 0
            if kind == 'call':
                for pm, po in reversed(ins[max(0, i - 16):i]):
                    if pm.startswith('push'):
                        pushed += 8
                    elif (pm.startswith('call') or pm.startswith('j') or pm.startswith('ret')
                          or re.match(r'^(sub|add)q?\s+\S+,%rsp$', f'{pm} {po}')):
                        break
            m = re.match(r'^([0-9a-f]+) <([^>]+)>$', op)
            if m:
                target, sym = int(m.group(1), 16), m.group(2)
                if '+' in sym:
                    if base(sym.split('+')[0]) != base(f['name']):
                        calls.append((kind, None, sym, pushed))
                elif target != f['addr']:
                    calls.append((kind, target, sym, pushed))
            elif kind == 'call':
                calls.append((kind, None, op, pushed))    # through a pointer
            # an indirect jump is a jump table inside f
        return pushes, frame, pad, red, calls

    def depth(self, addr, stack=()):
        """(deepest byte below the return address, path, problems)"""
        if addr in self.memo:
            return self.memo[addr]
        f = self.funcs[addr]
        if addr in stack:
            return 0, [f['name']], ['recursion through ' + f['name']]
        pushes, frame, pad, red, calls = self.own(f)
        probs = []
        if frame is None:
            probs.append(f['name'] + ': a frame of run-time size')
            frame = 0
        own = 8 * pushes + frame + pad
        best, path = own + red, [f"{f['name']} ({8 * pushes} pushed, {frame} frame, "
                                 f"{pad} realignment, {red} red zone)"]
        burns = any(base(sym) in BURNERS for _, t, sym, _ in calls if t is not None)
        for kind, target, sym, pushed in calls:
            name = base(sym.replace('@plt', ''))
            if sym.endswith('@plt'):
                if name in FRAMELESS_PLT:
                    d, sub, p = 0, [], []
                else:
                    probs.append(f"{f['name']} calls {sym} in another library")
                    continue
            elif target is None or target not in self.funcs:
                probs.append(f"{f['name']} calls through {sym}: no bound")
                continue
            elif name in BURNERS:
                continue
            elif burns and name in BURNED and base(f['name']) != name:
                continue              # f zeroes its frame after it (checked there)
            elif self.funcs[target]['name'].endswith('.cold') and kind == 'jump':
                d, sub, p = self.depth(target, stack + (addr,))
                d, sub = d + own, sub     # f's frame is still there
                best = max(best, d)
                probs += p
                continue
            else:
                d, sub, p = self.depth(target, stack + (addr,))
            probs += p
            d = d + pushed + (own + 8 if kind == 'call' else 0)
            if d > best:
                best, path = d, path[:1] + ([sym] if not sub else sub)
        self.memo[addr] = (best, path, probs)
        return self.memo[addr]


def declared(builddir):
    """macro -> smallest integer value any lib/ translation unit gives it"""
    cmds = json.load(open(os.path.join(builddir, 'compile_commands.json')))
    vals = {}
    for c in cmds:
        src = c['file']
        if '/lib/' not in os.path.join(c['directory'], src).replace('\\', '/') or '/test/' in src:
            continue
        args = shlex.split(c['command']) if 'command' in c else list(c['arguments'])
        out, skip = [], False
        for a in args:
            if skip:
                skip = False
                continue
            if a in ('-o', '-MF', '-MQ', '-MT'):
                skip = True
                continue
            if a in ('-c', '-MD', '-MMD') or a.startswith('-flto'):
                continue
            out.append(a)
        r = subprocess.run(out + ['-E', '-dM'], cwd=c['directory'], capture_output=True, text=True)
        if r.returncode:
            sys.exit(f'burn_depths: cannot preprocess {src}: {r.stderr[:300]}')
        defs = dict(re.findall(r'^#define (\w+) (.*)$', r.stdout, re.M))
        for name in set(BURNED.values()):
            v, seen = defs.get(name), 0
            while v is not None and not re.fullmatch(r'[0-9 +*()]+', v) and seen < 8:
                v, seen = defs.get(v.strip(), None), seen + 1
            if v is not None:
                v = int(eval(v))      # digits and + * ( ) only
                vals[name] = min(vals.get(name, v), v)
    return vals


def main():
    args = sys.argv[1:]
    plant = None
    if '--plant' in args:
        i = args.index('--plant')
        k, _, v = args[i + 1].partition('=')
        plant = (k, int(v))
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    lib, builddir = args
    if os.uname().machine != 'x86_64':
        print('burn_depths: the x86-64 frames only; this host is ' + os.uname().machine)
        sys.exit(77)
    funcs = disassemble(lib)
    vals = declared(builddir)
    if plant:
        if plant[0] not in vals:
            sys.exit(f'burn_depths: no translation unit defines {plant[0]}')
        vals[plant[0]] = plant[1]
    fr = Frames(funcs)
    fails, planted_fails, checked = [], [], 0
    by_name = {}
    for addr, f in funcs.items():
        if not f['name'].endswith('.cold'):
            by_name.setdefault(base(f['name']), []).append(addr)
    # the calls of burned functions from functions that zero after them;
    # every function that burns after vector code calls only known ones
    sites = {}
    for addr, f in sorted(funcs.items()):
        _, _, _, _, calls = fr.own(f)
        names = {base(s.replace('@plt', '')) for _, t, s, _ in calls}
        if not names & BURNERS:
            continue
        for kind, t, sym, pushed in calls:
            n = base(sym)
            if kind == 'call' and t is not None and n in BURNED and n != base(f['name']):
                d, p, pr = fr.depth(t)
                sites.setdefault(n, []).append((d + pushed, p, pr, f['name'], pushed))
        if 'polymac_x86_burn_below' not in names:
            continue
        for n in sorted(names - BURNERS - set(BURNED) - UNBURNED_OK - FRAMELESS_PLT
                        - {base(f['name'])}):
            fails.append(n)
            print(f"FAIL {f['name']} calls {n} beside its burn: not in burn_depths.py's table")
    for name, macro in sorted(BURNED.items(), key=lambda kv: (kv[1], kv[0])):
        if name not in by_name:
            print(f'--   {name}: not out of line in this build')
            continue
        if name not in sites:
            print(f'FAIL {name}: out of line, and no caller zeroes its frame after it')
            fails.append(name)
            continue
        if macro not in vals:
            print(f'FAIL {name}: {macro} is defined in no translation unit of lib/')
            fails.append(name)
            continue
        need, path, probs, caller, pushed = max(sites[name], key=lambda x: x[0])
        probs = sorted({p for site in sites[name] for p in site[2]})
        have = vals[macro]
        checked += 1
        ok = need <= have and not probs
        print(f"{'ok  ' if ok else 'FAIL'} {name}: needs {need} bytes, {macro} is {have}"
              f" (deepest of {len(sites[name])} call{'s' if len(sites[name]) > 1 else ''},"
              f" from {caller}{f', {pushed} pushed for it' if pushed else ''}:"
              f" {' -> '.join(path)})")
        for p in probs:
            print('     ' + p)
        if not ok:
            (planted_fails if plant and macro == plant[0] else fails).append(name)
    print(f'burn_depths: {checked} functions checked, {len(fails) + len(planted_fails)} failed')
    if plant:
        good = bool(planted_fails) and not fails
        print(f"burn_depths: planted {plant[0]}={plant[1]}: "
              + ('caught' if good else 'NOT caught as expected'))
        sys.exit(0 if good else 1)
    sys.exit(1 if fails else 0)


if __name__ == '__main__':
    main()
