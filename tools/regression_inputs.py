#!/usr/bin/env python3
"""Writes the varint and timestamp regression inputs into corpus/<target>/regressions/.

Usage: python3 tools/regression_inputs.py corpus
Each input is one that failed during development or that a planted bug (mutants/varint,
mutants/timestamp) fails on, kept forever so that replay sees it. The files are in
the FuzzedDataProvider corpus form of the target's domain (harness/domains.h,
targets/varint/varint.cc DecodeDomain, targets/timestamp/domain.h), named by SHA-1. Idempotent.
"""
import hashlib
import os
import struct
import sys

root = sys.argv[1]


class W:
    """Mirror of harness::FuzzInputWriter: integers go to the back, most significant byte
    last in the file (FDP reads them from the end)."""

    def __init__(self):
        self.front = b""
        self.back = bytearray()

    def rng(self, v, lo, hi, bits):
        r = (v - lo) % (1 << bits)
        rg = (hi - lo) % (1 << bits)
        n = 0
        off = 0
        while off < bits and (rg >> off) > 0:
            n += 1
            off += 8
        for i in range(n):
            self.back.append((r >> (8 * (n - 1 - i))) & 0xFF)

    def integral(self, v, bits, signed):
        lo = -(1 << (bits - 1)) if signed else 0
        hi = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
        self.rng(v, lo, hi, bits)

    def finish(self):
        return self.front + bytes(reversed(self.back))


def put(target, data):
    d = os.path.join(root, target, "regressions")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()), "wb") as f:
        f.write(data)


MAX_BATCH = 10000


def decode_input(count, data):
    """targets/varint/varint.cc DecodeDomain: count in [0, 10000] from the back, then the bytes."""
    w = W()
    w.rng(count, 0, MAX_BATCH, 32)
    w.front = bytes(data)
    return w.finish()


def u64_batch(values):
    w = W()
    w.rng(len(values), 0, MAX_BATCH, 32)
    for v in values:
        w.integral(v, 64, False)
    return w.finish()


def i64_batch(values):
    w = W()
    w.rng(len(values), 0, MAX_BATCH, 32)
    for v in values:
        w.integral(v, 64, True)
    return w.finish()


def i64(v):
    w = W()
    w.integral(v, 64, True)
    return w.finish()


def u32(v):
    w = W()
    w.integral(v, 32, False)
    return w.finish()


def civil(y, mo, d, h=0, mi=0, s=0, us=0):
    w = W()
    w.integral(0, 8, False)
    for v, lo, hi in ((y, -1, 10001), (mo, -1, 14), (d, -1, 33), (h, -1, 25), (mi, -1, 61),
                      (s, -1, 61), (us, -1, 1000001)):
        w.rng(v, lo, hi, 32)
    return w.finish()


FF = b"\xff"
# ---- varint decode: errors at known offsets, on every tier ----------------------------------
# protobuf's fast path accepts ff x9 02 (an accepted divergence); serdiff rejects at offset 0.
put("varint_leb128_decode", decode_input(1, FF * 9 + b"\x02"))
put("varint_leb128_decode", decode_input(1, FF * 10 + b"\x01"))  # 11 bytes: too long
put("varint_leb128_decode", decode_input(1, FF * 9 + b"\x01"))  # 2^64-1: the last valid value
put("varint_leb128_decode", decode_input(1, b"\x80"))  # truncated at offset 0
# 12 one-byte values, then an overflowing one at offset 12 (the header's example).
put("varint_leb128_decode", decode_input(13, b"\x00" * 12 + FF * 9 + b"\x02"))
# 70 one-byte values (past the 64-byte window tier), then a truncated value at offset 70.
put("varint_leb128_decode", decode_input(71, b"\x01" * 70 + b"\x80\x80"))
put("varint_leb128_decode", decode_input(2, b"\x01" * 80 + FF * 9 + b"\x02"))  # junk after
# Inside the first window of the avx512 tier's vector decode (80 bytes or more of input, 64 values
# or more to go): an overflowing 10th byte at offset 30, a value of 11 bytes at offset 30, and
# 2^64-1 (the last valid 10-byte value) among 9- and 10-byte values.
put("varint_leb128_decode", decode_input(91, b"\x01" * 30 + FF * 9 + b"\x02" + b"\x01" * 60))
put("varint_leb128_decode", decode_input(91, b"\x01" * 30 + FF * 10 + b"\x01" + b"\x01" * 60))
put("varint_leb128_decode",
    decode_input(70, (FF * 9 + b"\x01" + b"\x80" * 8 + b"\x7f") * 8 + b"\x01" * 54))
put("varint_fory_decode", decode_input(1, FF * 9))  # 9th byte: 8 full bits, 2^64-1
put("varint_fory_decode", decode_input(1, FF * 8))  # truncated before the 9th byte
put("varint_fory_decode", decode_input(71, b"\x01" * 70 + b"\x80"))  # truncated at offset 70
put("varint_vint_decode", decode_input(1, b"\xff\x01" + b"\x00" * 7))  # 2^56
put("varint_vint_decode", decode_input(1, b"\xff" + b"\x00" * 7))  # truncated: 8 of 9 bytes
put("varint_vint_decode", decode_input(9, b"\x00" * 8 + b"\xc3\xe8"))  # truncated at offset 8
# ---- varint encode: the values the varint mutants fail on ----------------------------------
put("varint_leb128_encode", u64_batch([1 << 63, (1 << 64) - 1]))  # the 10th byte
put("varint_fory_encode", u64_batch([(1 << 63) + 5, (1 << 56), (1 << 64) - 1]))  # 9th byte
put("varint_vint_encode", u64_batch([(1 << 56), (1 << 57) - 1, (1 << 56) - 1]))
put("varint_leb128_zigzag_encode", i64_batch([-1, -(1 << 63), (1 << 63) - 1]))
put("varint_zigzag64", i64(-1))
put("varint_zigzag64", i64(-(1 << 63)))
# ---- timestamp: the inputs the timestamp mutants and the exact-value cases failed on -------
for c in [civil(1969, 12, 31, 23, 59, 59, 999500), civil(1900, 2, 29), civil(2100, 3, 1),
          civil(1600, 2, 29)]:
    put("timestamp_civil_to_millis_floor", c)
put("timestamp_civil_to_millis_half_even", civil(1970, 1, 1, 0, 0, 0, 500))
put("timestamp_civil_to_millis_half_even", civil(1970, 1, 1, 0, 0, 0, 1500))
put("timestamp_millis_to_civil", i64(-1))
for v in [0x80000000, 0x7FFFFFFF, 0]:
    put("timestamp_cql_date_to_civil", u32(v))
