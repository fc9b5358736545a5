#!/usr/bin/python3
"""Times the Python peers of the C++ benchmarks (docs/benchmarks.md), one line per workload.

Run with Debian's interpreter, which has the packages scripts/bootstrap installs:
    /usr/bin/python3 bench/python/peers.py [--quick]

Workloads (the same data as bench/cql_benchmark.cc and bench/bson_benchmark.cc):
  cql list<int> 1000 / 500000: the DataStax driver's ListType(Int32Type).serialize(values,
      protocol_version=4) of random int32 values (python3-cassandra 3.25; cassandra.cqltypes
      is the compiled module when the package ships it, reported below)
  bson {a: [0..999999]}: pymongo's bson.encode (python3-bson; with python3-bson-ext its C
      extension, reported as c_extension=True)
Prints: workload, best-of-5 seconds per call, ns per element, and the module facts.
"""
import random
import sys
import timeit


def best(fn, number):
    return min(timeit.repeat(fn, number=number, repeat=5)) / number


def main():
    quick = "--quick" in sys.argv
    import cassandra
    from cassandra import cqltypes

    list_int = cqltypes.ListType.apply_parameters([cqltypes.Int32Type])
    rng = random.Random(20240601)
    print("# python", sys.version.split()[0], "cassandra-driver", cassandra.__version__,
          "cqltypes:", cqltypes.__file__)
    for n in (1000, 500000):
        values = [rng.randrange(-2**31, 2**31) for _ in range(n)]
        out = list_int.serialize(values, 4)
        assert len(out) == 4 + 8 * n, len(out)
        assert out[:4] == n.to_bytes(4, "big") and out[4:8] == b"\x00\x00\x00\x04"
        number = 1 if n > 1000 or quick else 200
        t = best(lambda: list_int.serialize(values, 4), number)
        print(f"cql list<int> {n}\t{t:.9f} s\t{t / n * 1e9:.2f} ns/element")
    import bson

    doc = {"a": list(range(1000000))}
    out = bson.encode(doc)
    assert len(out) == 4 + 3 + 4 + 5000000 + 6888890 + 2, len(out)  # keys: 6888890 bytes
    t = best(lambda: bson.encode(doc), 1)
    print(f"bson {{a: [0..999999]}} int32\t{t:.6f} s\t{t / 1e6 * 1e9:.2f} ns/element"
          f"\tc_extension={bson.has_c()}")


if __name__ == "__main__":
    main()
