#!/usr/bin/python3
"""A worker's peak is a function of the input (issue 34), for every shipped worker.

    /usr/bin/python3 tests/workers/peak_history_test.py MANIFEST [MANIFEST ...]

For each manifest (oracles/<name>/worker.json) and four of the oracles/interchange.json examples
of the ops its hello lists (spread over them; six until 2026-12-05, when the ninth worker made
the test the third longest of CI's dev leg): a fresh worker answers the example first, then
1,000 other requests (every example of its ops in turn), then the same example again. The two
peaks must agree within 2 KiB + 10 % of the larger (8 KiB + 10 % for a Node worker, below): what
a runtime builds on first use (the
library's own measurement included: the first process.memoryUsage() after a minor collection
once charged some 175 KB to every Node worker's first call) must not be charged to whichever
input comes first, or a finding from a long run would not reproduce from a fresh shell
(`serdiff repro` starts a fresh worker). The shipped workers rehearse each call unmeasured
(serve's rehearse, docs/workers.md) and the Node library warms its measurement up before the
hello. Measured 2026-12-04: fresh minus after 1,000 at most 533 B (pymongo) and 624 B (js_bson)
on an idle machine; in one CI run under ctest -j2, js_bson's first datetime encode measured
5,816 B fresh against 1,848 B after 1,000 (2,736 B fresh in every run here since, loaded or
not): V8's figure for a first call still moves by a few KiB with what the process did around it.
So a Node worker's pair may be 8 KiB + 10 % apart: 30 times less than the 256 KiB (fury: 128
KiB) its manifest's heap_slack gives every verdict, and 20 times less than the 175 KB first-call
charge this test was written to catch.

Exit status: 0 when every pair agrees, 1 otherwise. Standard library only.
"""
import json
import os
import struct
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OPS = json.load(open(os.path.join(ROOT, 'oracles', 'interchange.json'), encoding='utf-8'))['ops']
OTHERS = 1000
SLACK_BYTES = 2048
NODE_SLACK_BYTES = 8192  # V8's first-call noise (the docstring)
SLACK_PERCENT = 10


class Worker:
    def __init__(self, manifest_path):
        m = json.load(open(manifest_path, encoding='utf-8'))
        self.node = os.path.basename(m['command'][0]) == 'node'
        self.proc = subprocess.Popen(m['command'], cwd=os.path.dirname(manifest_path),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.hello = self.read()
        self.next_id = 1

    def read(self):
        head = self.proc.stdout.read(4)
        if len(head) < 4:
            raise EOFError('the worker closed its stdout')
        (n,) = struct.unpack('>I', head)
        return json.loads(self.proc.stdout.read(n))

    def call(self, op, inp):
        body = json.dumps({'id': self.next_id, 'op': op, 'input': inp}).encode()
        self.next_id += 1
        self.proc.stdin.write(struct.pack('>I', len(body)) + body)
        self.proc.stdin.flush()
        return self.read()

    def close(self):
        self.proc.stdin.close()
        return self.proc.wait(timeout=30)


def main(manifests):
    failed = 0
    for path in manifests:
        w = Worker(path)
        name = w.hello.get('name')
        if 'declined' in w.hello:
            print('FAIL %s: declined (%s): nothing measured' % (name, w.hello['declined']))
            w.close()
            failed += 1
            continue
        examples = [(op, e['input']) for op in w.hello['ops'] if op in OPS
                    for e in OPS[op].get('examples', [])]
        w.close()
        step = max(1, len(examples) // 4)
        for op, inp in examples[::step][:4]:
            w = Worker(path)
            first = w.call(op, inp)
            for i in range(OTHERS):
                w.call(*examples[i % len(examples)])
            again = w.call(op, inp)
            w.close()
            if 'peak' not in first:  # declined: no peak to compare
                continue
            p1, p2 = first['peak'], again['peak']
            slack = NODE_SLACK_BYTES if w.node else SLACK_BYTES
            allowed = slack + max(p1, p2) * SLACK_PERCENT // 100
            what = '%s %s %s: fresh %d B, after %d others %d B' % (
                name, op, json.dumps(inp)[:50], p1, OTHERS, p2)
            if abs(p1 - p2) > allowed:
                print('FAIL %s (allowed %d B apart)' % (what, allowed))
                failed += 1
            else:
                print('pass %s' % what)
    print('%d failed' % failed)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
