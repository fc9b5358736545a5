#!/usr/bin/python3
"""A worker of your own: your serializer, in Python, as an implementation of serdiff's targets.

Two operations, written plainly, as a user's own code would be: int64.to_decimal (an int64 as
decimal ASCII) and cql.serialize for list<int> (the CQL [int] count, then each element as a
[bytes]: length 4 and the big-endian value, a null element as length -1; protocol v3+). Any other
CQL type, or v1/v2, is declined: not compared. See examples/own_worker/README.md.
"""
import os
import struct
import sys

# serdiff's worker library (workers/python/serdiff_worker.py): frames, hello, peak.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'workers', 'python'))
import serdiff_worker as sw  # noqa: E402


def to_decimal(inp):
    return ('hex', str(int(inp['value'])).encode('ascii'))


def list_int(inp):
    if inp['type'] != 'list<int>' or inp['version'] < 3:
        raise sw.DeclinedOp('only list<int>, protocol v3 and later')
    items = inp['value']
    out = bytearray(struct.pack('>i', len(items)))
    for x in items:
        if x is None:
            out += struct.pack('>i', -1)
        else:
            out += struct.pack('>ii', 4, x)  # struct.error for a value outside int32: rejected
    return ('hex', bytes(out))


sw.serve(name='my_worker', ops={'int64.to_decimal': to_decimal, 'cql.serialize': list_int},
         peak='tracemalloc peak of the call (bytes of Python objects)')
