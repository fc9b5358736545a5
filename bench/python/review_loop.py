"""A plain timing loop outside `serdiff review` (docs/benchmarks.md, "serdiff review's timing
against plain loops"): the python driver's list<int> serializer, as the python_cassandra worker
calls it on cql_typed_encode's size ladder, and with --variant=join the fragment-join serializer
of oracles/python_cassandra/worker.py (python_cassandra_join), each size in a fresh python
process (an allocation-bound call's figure moves with what the process allocated before), timed
with the standard library's timeit: Timer.autorange() as the warm-up (calls until 0.2 s of
them), then as many calls per timing as last 20 us (at least one), 15 rounds of 20 timings
(Timer.repeat); the median timing of each round, the median round, per call. (timeit turns the
garbage collector off while it times, as it always does.) Prints JSON.

Usage: /usr/bin/python3 bench/python/review_loop.py [--variant=join] [COUNT ...]
(with no COUNT: 1 to 70,000, each count run as `... COUNT` in a process of its own)"""
import json
import math
import os
import random
import subprocess
import sys
import timeit

from cassandra import cqltypes as ct  # before the worker module: a plain ImportError if missing

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir,
                                'oracles', 'python_cassandra'))
import worker  # noqa: E402  (the python_cassandra worker's module: its join variant)

if '--variant=join' in sys.argv:
    worker.install_join_variant()

VARIANT = 'join' if '--variant=join' in sys.argv else 'installed'
COUNTS = [int(a) for a in sys.argv[1:] if a.isdigit()]
if not COUNTS:
    out = []
    for n in [1, 10, 100, 1000, 10000, 70000]:
        text = subprocess.run([sys.executable, os.path.abspath(__file__), str(n)] +
                              [a for a in sys.argv[1:] if a == '--variant=join'],
                              check=True, capture_output=True, text=True).stdout
        out += json.loads(text)['ns']
    print(json.dumps({'variant': VARIANT, 'ns': out}))
    sys.exit(0)

LIST_INT = ct.ListType.apply_parameters([ct.Int32Type])
rng = random.Random(42)
out = []
for n in COUNTS:
    values = [rng.randint(-2**31, 2**31 - 1) for _ in range(n)]
    timer = timeit.Timer(lambda: LIST_INT.serialize(values, 4))
    warm_calls, warm_s = timer.autorange()
    number = max(1, math.ceil(20e-6 / (warm_s / warm_calls)))
    rounds = []
    for _ in range(15):
        timings = sorted(timer.repeat(repeat=20, number=number))
        rounds.append(timings[10] / number * 1e9)
    rounds.sort()
    out.append([n, round(rounds[7])])
print(json.dumps({'variant': VARIANT, 'ns': out}))
