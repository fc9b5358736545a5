#!/usr/bin/python3
"""Round trips per second over a worker's pipes (docs/workers.md, protocol 1).

    /usr/bin/python3 bench/workers/pipe_roundtrip.py [--seconds S] [--quick]
    /usr/bin/python3 bench/workers/pipe_roundtrip.py --echo        (the floor's worker)
    /usr/bin/python3 bench/workers/pipe_roundtrip.py --noop        (a serdiff_worker no-op)

The client is a tight Python loop: write one request frame, flush, read the answer frame
(length, then body), parse it, repeat; one request in flight, as serdiff sends them. Each
workload runs for about S seconds (default 5) in 5 rounds after a warm-up call (the
500,000-int list: 5 rounds of one call) and prints the best and the median round, in calls
per second and microseconds per call (on a busy machine the best round is the one to quote,
with the load average):

  pipe floor        --echo: the worker reads a frame and writes back an empty frame; the client
                    sends empty frames and parses nothing (bare pipe + Python read/write)
  serdiff_worker    --noop: serdiff_worker.serve with an op returning ('hex', b''): the
                    library's JSON, dispatch and tracemalloc cost on top of the floor; then
                    the same with SERDIFF_WORKER_TRACEMALLOC=continuous (tracemalloc traces
                    the whole loop, the frames' JSON included)
  int64.to_decimal  oracles/python_cassandra/worker.json, {"value": "-9223372036854775808"}
  list<int> x10     the same worker, cql.serialize of 10 random ints, v4
  list<int> x500000 the same worker, cql.serialize of 500,000 random ints, v4 (about 5.5 MB of
                    request JSON and 8 MB of answer hex per call)

Use Debian's interpreter (the worker's packages are there), with the machine otherwise idle.
"""

import json
import os
import random
import struct
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACK = struct.Struct('>I').pack
UNPACK = struct.Struct('>I').unpack


def echo():
    """Reads frames and answers each with an empty frame, until EOF."""
    inp = sys.stdin.buffer
    out = sys.stdout.buffer
    empty = PACK(0)
    while True:
        head = inp.read(4)
        if len(head) < 4:
            return
        (n,) = UNPACK(head)
        if n and len(inp.read(n)) < n:
            return
        out.write(empty)
        out.flush()


def noop():
    sys.dont_write_bytecode = True
    sys.path.insert(0, os.path.join(ROOT, 'workers', 'python'))
    import serdiff_worker as sw
    sw.serve(name='noop', ops={'noop': lambda inp: ('hex', b'')},
             peak='tracemalloc peak of the call')


class Client:
    def __init__(self, argv, cwd, hello=True, env=None):
        self.proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE,
                                     env=None if env is None else dict(os.environ, **env))
        self.w = self.proc.stdin
        self.r = self.proc.stdout
        self.id = 0
        if hello:
            self.read()

    def read(self):
        (n,) = UNPACK(self.r.read(4))
        return self.r.read(n)

    def call(self, op, inp_json):
        self.id += 1
        body = b'{"id":%d,"op":"%s","input":%s}' % (self.id, op.encode(), inp_json)
        self.w.write(PACK(len(body)) + body)
        self.w.flush()
        answer = json.loads(self.read())
        if not answer.get('ok'):
            raise RuntimeError('%s: %r' % (op, answer))
        return answer

    def close(self):
        self.w.close()
        self.proc.wait()


def measure(name, fn, seconds, fixed=None, rounds=5):
    """Runs fn in `rounds` rounds of seconds/rounds each (or `fixed` calls each); prints the
    best and the median round in calls per second."""
    fn()  # warm-up
    rates = []
    total_n, total_t = 0, 0.0
    for _ in range(rounds):
        n = 0
        t0 = time.perf_counter()
        if fixed:
            for _ in range(fixed):
                fn()
            n = fixed
        else:
            deadline = t0 + seconds / rounds
            while True:
                for _ in range(50):
                    fn()
                n += 50
                if time.perf_counter() >= deadline:
                    break
        dt = time.perf_counter() - t0
        rates.append(n / dt)
        total_n += n
        total_t += dt
    rates.sort()
    best, median = rates[-1], rates[len(rates) // 2]
    print('%-20s best %9.0f calls/s (%9.1f us)   median %9.0f calls/s (%9.1f us)   %d calls, %.1f s'
          % (name, best, 1e6 / best, median, 1e6 / median, total_n, total_t), flush=True)


def main():
    if '--echo' in sys.argv:
        return echo()
    if '--noop' in sys.argv:
        return noop()
    seconds = 5.0
    if '--seconds' in sys.argv:
        seconds = float(sys.argv[sys.argv.index('--seconds') + 1])
    if '--quick' in sys.argv:
        seconds = 1.0
    me = os.path.abspath(__file__)
    print('# python %s, %d CPUs, load average %.2f; one request in flight; client and worker '
          'are %s' % (sys.version.split()[0], os.cpu_count(), os.getloadavg()[0], sys.executable))

    c = Client([sys.executable, me, '--echo'], ROOT, hello=False)
    empty = PACK(0)

    def floor():
        c.w.write(empty)
        c.w.flush()
        c.r.read(4)
    measure('pipe floor', floor, seconds)
    c.close()

    c = Client([sys.executable, me, '--noop'], ROOT)
    measure('serdiff_worker noop', lambda: c.call('noop', b'{}'), seconds)
    c.close()
    c = Client([sys.executable, me, '--noop'], ROOT,
               env={'SERDIFF_WORKER_TRACEMALLOC': 'continuous'})
    measure('  same, continuous', lambda: c.call('noop', b'{}'), seconds)
    c.close()

    manifest_dir = os.path.join(ROOT, 'oracles', 'python_cassandra')
    with open(os.path.join(manifest_dir, 'worker.json')) as f:
        command = json.load(f)['command']
    c = Client(command, manifest_dir)
    rng = random.Random(20240601)
    i64 = json.dumps({'value': '-9223372036854775808'}).encode()
    measure('int64.to_decimal', lambda: c.call('int64.to_decimal', i64), seconds)
    l10 = json.dumps({'type': 'list<int>', 'version': 4,
                      'value': [rng.randrange(-2 ** 31, 2 ** 31) for _ in range(10)]}).encode()
    measure('list<int> x10', lambda: c.call('cql.serialize', l10), seconds)
    big = json.dumps({'type': 'list<int>', 'version': 4,
                      'value': [rng.randrange(-2 ** 31, 2 ** 31) for _ in range(500000)]},
                     separators=(',', ':')).encode()
    peak = []
    measure('list<int> x500000', lambda: peak.append(c.call('cql.serialize', big)['peak']),
            seconds, fixed=1, rounds=5)
    print('# list<int> x500000: request %d B of JSON, answer %d B of hex, reported peak %d B'
          % (len(big), 2 * (4 + 8 * 500000), peak[-1]))
    c.close()


if __name__ == '__main__':
    main()
