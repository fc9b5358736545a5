#!/usr/bin/python3
"""Golden BSON vectors from pymongo's bson package (Debian python3-bson).

Run with Debian's interpreter (another python3 may come first on PATH):
    /usr/bin/python3 oracles/pymongo/bson_golden_vectors.py > oracles/pymongo/bson_vectors.tsv

Each line: name <TAB> how <TAB> hex <TAB> extra
  how = "encode": pymongo's bson.encode produced the bytes;
  how = "decode": pymongo cannot produce this type (undefined, DBPointer, symbol are
        deprecated and it encodes no value as them), so the bytes are written by hand from the
        spec and pymongo's bson.decode must accept them; `extra` records what it read.
  extra for datetimes encoded from a civil time: civil=Y-M-D-h-m-s-us (tests/bson_golden_test.cc
  encodes the same civil time with serdiff and compares).
tests/bson_golden_test.cc checks every line against serdiff: the bytes validate, decode, and
re-encode to exactly the same bytes, with both the optimized and the reference encoder.
"""
import datetime
import struct
import sys

import bson
from bson.binary import Binary
from bson.code import Code
from bson.decimal128 import Decimal128
from bson.int64 import Int64
from bson.max_key import MaxKey
from bson.min_key import MinKey
from bson.objectid import ObjectId
from bson.regex import Regex
from bson.timestamp import Timestamp

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
UTC = datetime.timezone.utc

rows = []


def enc(name, doc, extra=""):
    rows.append((name, "encode", bson.encode(doc).hex(), extra))


def dt(name, *fields):
    value = datetime.datetime(*fields, tzinfo=UTC)
    enc(name, {"t": value}, "civil=" + "-".join(str(f) for f in fields))


def raw(name, elements_hex):
    body = bytes.fromhex(elements_hex.replace(" ", ""))
    data = struct.pack("<i", 4 + len(body) + 1) + body + b"\x00"
    decoded = bson.decode(data)  # raises if pymongo rejects the bytes
    rows.append((name, "decode", data.hex(), "pymongo=" + repr(decoded).replace("\t", " ")))


# 0x01 double
enc("double", {"d": 1.5})
enc("double_neg_zero", {"d": -0.0})
enc("double_inf", {"d": float("inf")})
# 0x02 string
enc("string", {"s": "h\u00e9"})
enc("string_empty", {"s": ""})
enc("string_4byte_utf8", {"\u65e5\u672c": "\U0001F600"})
# 0x03 document, 0x04 array
enc("document", {"d": {"k": 1}})
enc("array_x_y", {"a": ["x", "y"]})
enc("array_int64_extremes", {"a": [Int64(INT64_MIN), Int64(INT64_MAX)]})
enc("array_11", {"a": list(range(11))})
enc("array_101", {"a": list(range(101))})
enc("array_nested", {"a": [[1, [2]], {"b": []}]})
# 0x05 binary, every subtype pymongo knows plus user-defined
for subtype in (0, 1, 2, 3, 4, 5, 6, 7, 0x80, 0xFF):
    enc("binary_subtype_%02x" % subtype, {"b": Binary(b"\x01\x02\x03", subtype)})
enc("binary_old_empty", {"b": Binary(b"", 2)})
# 0x06 undefined (pymongo decodes it to None)
raw("undefined", "06 7500")
# 0x07 ObjectId
enc("objectid", {"_id": ObjectId(bytes(range(12)))})
# 0x08 bool
enc("bool", {"t": True, "f": False})
# 0x09 UTC datetime, from civil times (floor to ms) and raw extremes
dt("datetime_epoch_plus_1ms", 1970, 1, 1, 0, 0, 0, 1000)
dt("datetime_minus_half_ms", 1969, 12, 31, 23, 59, 59, 999500)
dt("datetime_9999", 9999, 1, 1, 1, 1, 1, 999999)
dt("datetime_year_1", 1, 1, 1, 0, 0, 0, 0)
dt("datetime_max", 9999, 12, 31, 23, 59, 59, 999999)
dt("datetime_pre_1970", 1900, 3, 1, 12, 30, 15, 123456)
# 0x0A null
enc("null", {"n": None})
# 0x0B regex
enc("regex", {"r": Regex("^a.*b$", "imx")})
enc("regex_no_flags", {"r": Regex("x", 0)})
# 0x0C DBPointer (pymongo decodes it to a DBRef)
raw("dbpointer", "0c 7000 05000000 636f6c6c00 " + bytes(range(12)).hex())
# 0x0D code
enc("code", {"c": Code("function(){}")})
# 0x0E symbol (pymongo decodes it to str)
raw("symbol", "0e 7300 04000000 73796d00")
# 0x0F code with scope
enc("code_w_scope", {"c": Code("f(x)", {"x": 1})})
enc("code_w_empty_scope", {"c": Code("f", {})})
# 0x10 int32, 0x12 int64 at their extremes
enc("int32_extremes", {"a": -(2**31), "b": 2**31 - 1, "z": 0})
enc("int64_extremes", {"a": Int64(INT64_MIN), "b": Int64(INT64_MAX), "c": 2**31})
# 0x11 timestamp
enc("timestamp", {"ts": Timestamp(1700000000, 7)})
enc("timestamp_max", {"ts": Timestamp(2**32 - 1, 2**32 - 1)})
# 0x13 decimal128
enc("decimal128_one", {"m": Decimal128("1")})
enc("decimal128_neg_half", {"m": Decimal128("-0.5")})
# 0xFF min key, 0x7F max key
enc("minkey_maxkey", {"lo": MinKey(), "hi": MaxKey()})
# everything in one document
enc("all_types_mixed", {
    "d": 2.25, "s": "x", "o": {"a": None}, "l": [True, 1, Int64(1)],
    "b": Binary(b"z", 0), "i": ObjectId(b"abcdefghijkl"),
    "t": datetime.datetime(2020, 2, 29, tzinfo=UTC), "r": Regex("r", "i"), "c": Code("c"),
    "w": Code("w", {"s": "t"}), "ts": Timestamp(1, 2), "m": Decimal128("12.5"),
    "mn": MinKey(), "mx": MaxKey(),
})

out = sys.stdout
out.write("# written by oracles/pymongo/bson_golden_vectors.py with Debian python3-bson (C extension: %s)\n"
          % bson.has_c())
for row in rows:
    out.write("\t".join(row) + "\n")
