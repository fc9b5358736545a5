#!/usr/bin/env python3
"""Writes the exact-value inputs (docs/timestamp.md, "Exact-value tests") into
corpus/timestamp_*/.

Usage: python3 tools/timestamp_issue_seeds.py corpus
Each input is written in the FuzzedDataProvider corpus form of targets/timestamp_domains.h
(compact civil form; int64/uint32 via ConsumeIntegral), named by its SHA-1. Idempotent.
"""
import hashlib, os, struct, sys
root = sys.argv[1]

class W:
    def __init__(self): self.front = b""; self.back = bytearray()
    def rng(self, v, lo, hi, bits):
        r = (v - lo) % (1 << bits); rg = (hi - lo) % (1 << bits)
        n = 0; off = 0
        while off < bits and (rg >> off) > 0: n += 1; off += 8
        for i in range(n): self.back.append((r >> (8 * (n - 1 - i))) & 0xff)
    def integral(self, v, bits, signed):
        lo = -(1 << (bits - 1)) if signed else 0
        hi = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
        self.rng(v, lo, hi, bits)
    def finish(self): return self.front + bytes(reversed(self.back))

def civil(y, mo, d, h=0, mi=0, s=0, us=0):
    w = W(); w.integral(0, 8, False)
    for v, lo, hi in ((y, -1, 10001), (mo, -1, 14), (d, -1, 33), (h, -1, 25), (mi, -1, 61), (s, -1, 61), (us, -1, 1000001)):
        w.rng(v, lo, hi, 32)
    return w.finish()
def day(y, mo, d):
    w = W(); w.integral(0, 8, False)
    for v, lo, hi in ((y, -5877642, 5881581), (mo, -1, 14), (d, -1, 33)): w.rng(v, lo, hi, 32)
    return w.finish()
def tod(h, m, s, ns):
    w = W(); w.integral(0, 8, False)
    for v, lo, hi in ((h, -1, 25), (m, -1, 61), (s, -1, 61), (ns, -1, 1000000001)): w.rng(v, lo, hi, 32)
    return w.finish()
def i64(v): w = W(); w.integral(v, 64, True); return w.finish()
def u32(v): w = W(); w.integral(v, 32, False); return w.finish()
def dbl(x): w = W(); w.integral(struct.unpack("<Q", struct.pack("<d", x))[0], 64, False); return w.finish()

def put(target, data):
    d = os.path.join(root, target); os.makedirs(d, exist_ok=True)
    open(os.path.join(d, hashlib.sha1(data).hexdigest()), "wb").write(data)

civils = [civil(1969,12,31,23,59,59,999500), civil(1969,12,31,23,59,59,1), civil(1969,12,31,23,59,59,999999),
          civil(9999,12,31,23,59,59,999999), civil(2300,1,1,0,0,0,1000), civil(1,1,1), civil(1900,1,1,0,0,0,500),
          civil(1970,1,1,0,0,0,999), civil(2001,2,3,4,5,6,789999), civil(2021,1,1), civil(2001,2,3,4,5,6,789000),
          civil(1970,1,1,0,0,0,500), civil(9999,12,31,23,59,59,999500), civil(2024,13,1), civil(1900,2,29),
          civil(2100,2,28,23,59,59,999999), civil(2100,3,1), civil(2000,2,29,12,0,0,500), civil(2024,1,1,24)]
for t in ["timestamp_civil_to_millis_floor", "timestamp_civil_to_millis_truncate", "timestamp_civil_to_millis_half_even",
          "timestamp_driver_serialize", "timestamp_civil_roundtrip", "timestamp_civil_to_micros",
          "timestamp_civil_to_seconds", "timestamp_seconds_roundtrip", "timestamp_civil_to_cql_time"]:
    for c in civils: put(t, c)
ms = [10413792000001, -62135596800000, -62135596800001, -1, 0, 253402300799999, 253402300800000, 10425520380477,
      -11654632814640, 1609459200000, 981173106789, 2**43, -2**43, -2**63, 2**63 - 1]
for t in ["timestamp_millis_to_civil", "timestamp_driver_deserialize", "timestamp_driver_roundtrip",
          "timestamp_millis_roundtrip", "timestamp_millis_to_cql_date_floor", "timestamp_millis_to_cql_date_truncate",
          "timestamp_millis_to_cql_date_half_even"]:
    for v in ms: put(t, i64(v))
us = [v * 1000 + o for v in (0, -1, 253402300799999, -62135596800000, 10413792000001) for o in (-1, 0, 1, 499, 500, 501, 999)] + [-2**63, 2**63 - 1]
for t in ["timestamp_micros_to_civil", "timestamp_micros_roundtrip", "timestamp_micros_to_millis_floor",
          "timestamp_micros_to_millis_truncate", "timestamp_micros_to_millis_half_even"]:
    for v in us: put(t, i64(v))
for v in [-1, 0, 1, 2**31 - 1, 2**31, -2**31, -2**31 - 1, 10957, -719162, 2932896, -2**63, 2**63 - 1]:
    put("timestamp_days_to_cql_date", i64(v))
for v in [0, 1, 0x7fffffff, 0x80000000, 0x80002acd, 0x7ff506c6, 0x802cc0a0, 0xffffffff]:
    put("timestamp_cql_date_to_civil", u32(v)); put("timestamp_cql_date_roundtrip", u32(v))
for d in [(1969,12,31), (1970,1,1), (2000,1,1), (1,1,1), (9999,12,31), (-5877641,6,23), (5881580,7,11),
          (-5877641,6,22), (5881580,7,12), (1900,2,29), (2000,2,29), (2024,13,1)]:
    put("timestamp_civil_to_cql_date", day(*d))
ns = [0, 86399999999000, 86399999999999, 86400000000000, -1, 45296789000000, 86399999999500, 86399999998500, 1500]
for t in ["timestamp_cql_time_to_time_of_day", "timestamp_cql_time_roundtrip", "timestamp_cql_time_to_micros_of_day_floor",
          "timestamp_cql_time_to_micros_of_day_truncate", "timestamp_cql_time_to_micros_of_day_half_even"]:
    for v in ns: put(t, i64(v))
for t in [(23,59,59,999999000), (0,0,0,0), (12,34,56,789000000), (23,59,59,999999999), (24,0,0,0), (0,0,0,1000000000)]:
    put("timestamp_time_of_day_to_cql_time", tod(*t))
for t in ["timestamp_seconds_to_micros_floor", "timestamp_seconds_to_micros_truncate", "timestamp_seconds_to_micros_half_even"]:
    for x in [1e-6, -1e-6, 1/128, -1/128, 3/128, 0.0, -0.0, float("nan"), float("inf"), -float("inf"), 1e300,
              -9223372036854.775808, 9223372036854.775807, 981173106.789, 253402300799.999999, -62135596800.0]:
        put(t, dbl(x))
