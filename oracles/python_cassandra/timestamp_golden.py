#!/usr/bin/python3
"""Golden vectors for the timestamp family, printed by the real drivers (not by serdiff).

Needs Debian's python3-cassandra (3.25) and python3-bson; run with the system python:
    /usr/bin/python3 oracles/python_cassandra/timestamp_golden.py > oracles/python_cassandra/timestamp_vectors.txt
Lines (all integers decimal):
    S y m d H M S us  <DateType.serialize ms>  <BSON 0x09 payload ms>
    D ms  <DateType.deserialize as y m d H M S us, or 'overflow'>
tests/timestamp_test.cc (TimestampGolden.*) checks DriverFloatTruncateMillis, DriverIntegerFloorMillis and
DriverFloatSecondsFromMillis against every line.
"""
import datetime
import random
import struct
import sys

import bson
import cassandra
from cassandra.cqltypes import DateType

assert cassandra.__version__.startswith("3.25"), cassandra.__version__
EPOCH = datetime.datetime(1970, 1, 1)
MIN_MS, MAX_MS = -62135596800000, 253402300799999

ANCHORS = [MIN_MS, -62104060800001, -62104060800000, -11670912000000, -11654632814640,
           -8515238400000, -5359564800000, -2208988800000, -2203977600000, -2203891200000,
           -(2**33) * 1000, -(2**43), -1, 0, 31535999999, 951696000000, 951782400000,
           951868800000, 2145916800000, 2147483648000, 2177452799999, 4107456000000,
           4107542400000, 7263216000000, (2**33) * 1000, 2**43, 10413792000000,
           10425520380477, 13574563200000, 13574649600000, 253370764800000, MAX_MS]


def civil_of_us(us):
    return EPOCH + datetime.timedelta(microseconds=us)


def serialize_line(dt):
    ms_325 = struct.unpack(">q", DateType.serialize(dt, 4))[0]
    doc = bson.encode({"t": dt})
    ms_bson = struct.unpack("<q", doc[7:15])[0]
    return "S %d %d %d %d %d %d %d %d %d" % (dt.year, dt.month, dt.day, dt.hour, dt.minute,
                                             dt.second, dt.microsecond, ms_325, ms_bson)


def deserialize_line(ms):
    try:
        dt = DateType.deserialize(struct.pack(">q", ms), 4)
        out = "%d %d %d %d %d %d %d" % (dt.year, dt.month, dt.day, dt.hour, dt.minute,
                                        dt.second, dt.microsecond)
    except OverflowError:
        out = "overflow"
    return "D %d %s" % (ms, out)


def main():
    rng = random.Random(20240603)
    lines = []
    us_values = set()
    for a in ANCHORS:
        for k in (a - 1, a, a + 1):
            for off in (-1, 0, 1, 499, 500, 501, 999):
                us = k * 1000 + off
                if MIN_MS * 1000 <= us <= MAX_MS * 1000 + 999:
                    us_values.add(us)
    for _ in range(1500):
        us_values.add(rng.randint(MIN_MS * 1000, MAX_MS * 1000 + 999))
    for lo, hi in ((2**31, 2**33), (2**33, 2**35), (-2**35, -2**33)):
        for _ in range(300):
            us_values.add(rng.randint(lo * 10**6, hi * 10**6))
    for us in sorted(us_values):
        lines.append(serialize_line(civil_of_us(us)))
    ms_values = set()
    for a in ANCHORS:
        for d in range(-2, 3):
            ms_values.add(a + d)
    for _ in range(1500):
        ms_values.add(rng.randint(MIN_MS, MAX_MS))
    for lo, hi in ((2**31, 2**33), (2**33, 2**35), (-2**35, -2**33)):
        for _ in range(500):
            ms_values.add(rng.randint(lo * 1000, hi * 1000))
    for ms in sorted(ms_values):
        lines.append(deserialize_line(ms))
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
