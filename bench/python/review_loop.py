"""A plain timing loop outside `serdiff review` (docs/benchmarks.md, "serdiff review's timing
against plain loops"): the python driver's list<int> serializer, as the python_cassandra worker
calls it on cql_typed_encode's size ladder, and with --variant=join the fragment-join serializer
of oracles/python_cassandra/worker.py (python_cassandra_join), measured as the review measures
(15 rounds of 20 calls, the median call of each round, the median round). Prints JSON.

Usage: /usr/bin/python3 bench/python/review_loop.py [--variant=join] [COUNT ...]"""
import json
import os
import random
import sys
import time

from cassandra import cqltypes as ct  # before the worker module: a plain ImportError if missing

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir,
                                'oracles', 'python_cassandra'))
import worker  # noqa: E402  (the python_cassandra worker's module: its join variant)

if '--variant=join' in sys.argv:
    worker.install_join_variant()

LIST_INT = ct.ListType.apply_parameters([ct.Int32Type])
rng = random.Random(42)
out = []
SIZES = [int(a) for a in sys.argv[1:] if a.isdigit()] or [1, 10, 100, 1000, 10000, 70000]
for n in SIZES:
    values = [rng.randint(-2**31, 2**31 - 1) for _ in range(n)]
    rounds = []
    for _ in range(15):
        calls = []
        for _ in range(20):
            t0 = time.perf_counter_ns()
            LIST_INT.serialize(values, 4)
            calls.append(time.perf_counter_ns() - t0)
        calls.sort()
        rounds.append(calls[10])
    rounds.sort()
    out.append([n, rounds[7]])
print(json.dumps({'variant': 'join' if '--variant=join' in sys.argv else 'installed', 'ns': out}))
