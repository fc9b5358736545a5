"""A plain timing loop outside `serdiff review` (docs/benchmarks.md, "serdiff review's timing
against plain loops"): the python driver's list<int> serializer, as the python_cassandra worker
calls it on cql_typed_encode's size ladder, and with --variant=join the fragment-join serializer
of oracles/python_cassandra/worker.py (python_cassandra_join), measured as the review measures
(15 rounds of 20 calls, the median call of each round, the median round). Prints JSON.

Usage: /usr/bin/python3 bench/python/review_loop.py [--variant=join] [COUNT ...]"""
import json
import random
import sys
import time

from cassandra import cqltypes as ct

if '--variant=join' in sys.argv:
    # The same change as worker.py's --variant=join: one bytes object per prefix and element.
    def _join_serialize_safe(cls, items, protocol_version):
        subtype, = cls.subtypes
        pack = ct.int32_pack if protocol_version >= 3 else ct.uint16_pack
        inner = max(3, protocol_version)
        fragments = [pack(len(items))]
        for item in items:
            b = subtype.to_binary(item, inner)
            fragments.append(pack(len(b)))
            fragments.append(b)
        return b''.join(fragments)
    ct._SimpleParameterizedType.serialize_safe = classmethod(_join_serialize_safe)

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
