#!/usr/bin/python3
"""The Python worker library's own cost per request, with no pipe (docs/benchmarks.md, "The
Python worker's round trip and its floor").

    /usr/bin/python3 bench/workers/worker_loop.py [--requests N]

Runs workers/python/serdiff_worker.py's request loop (the one `serve` runs) over N framed
requests held in memory, answering into memory: the python_cassandra worker's
int64.to_decimal of INT64_MIN, as bench/workers_benchmark.cc's BM_Worker row sends it. No pipe,
no process switch: what is left is the library's framing, JSON, dispatch and tracemalloc, and
the driver's call. Then times each of those steps alone with timeit. Prints microseconds per
request (best of 5 rounds) and nanoseconds per step.
"""
import io
import json
import os
import struct
import sys
import time
import timeit
import tracemalloc

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, 'workers', 'python'))
sys.path.insert(0, os.path.join(ROOT, 'oracles', 'python_cassandra'))
import serdiff_worker as sw  # noqa: E402
import worker as cassandra_worker  # noqa: E402

REQUEST = b'{"id":%d,"op":"int64.to_decimal","input":{"value":"-9223372036854775808"}}'


def frames(n):
    buf = bytearray()
    for i in range(1, n + 1):
        body = REQUEST % i
        buf += struct.pack('>I', len(body)) + body
    return bytes(buf)


def loop_us(n, rehearse):
    data = frames(n)
    best = None
    for _ in range(5):
        inp, out = io.BytesIO(data), io.BytesIO()
        t0 = time.perf_counter()
        sw._serve('python_cassandra', cassandra_worker.OPS, 'peak', None, inp, out, sw.MAX_FRAME,
                  False, rehearse, None)
        dt = (time.perf_counter() - t0) / n * 1e6
        best = dt if best is None else min(best, dt)
    return best


def step_ns(stmt, env, number=200000):
    return min(timeit.repeat(stmt, globals=env, number=number, repeat=5)) / number * 1e9


def main():
    n = 50000
    if '--requests' in sys.argv:
        n = int(sys.argv[sys.argv.index('--requests') + 1])
    print('# python %s, load average %.2f, %d requests per round' %
          (sys.version.split()[0], os.getloadavg()[0], n))
    print('request loop, as the worker runs it (rehearse on) %8.2f us' % loop_us(n, True))
    print('request loop, rehearse off                       %8.2f us' % loop_us(n, False))
    answer = {'id': 12345, 'ok': True, 'hex': b'-9223372036854775808'.hex(), 'peak': 122}
    env = {'json': json, 'sw': sw, 'tracemalloc': tracemalloc, 'req': REQUEST % 12345,
           'answer': answer,
           'op': cassandra_worker.OPS['int64.to_decimal']}
    steps = [
        ('json.loads of the request', 'json.loads(req.decode("utf-8"))'),
        ('the library\'s JSON encoder on the answer', 'sw._dumps(answer).encode("utf-8")'),
        ('the answer as the library writes it now', 'b\'{"id":%d,"ok":true,"hex":"%s","peak":%d}\' '
         '% (12345, b"-9223372036854775808".hex().encode("ascii"), 122)'),
        ('tracemalloc start, read, stop', 'tracemalloc.start(1); tracemalloc.get_traced_memory(); '
         'tracemalloc.stop()'),
        ('the op: prepare and run', 'op.run(op.prepare({"value": "-9223372036854775808"}))'),
    ]
    for name, stmt in steps:
        print('%-48s %8.0f ns' % (name, step_ns(stmt, env)))


if __name__ == '__main__':
    main()
