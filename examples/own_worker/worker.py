#!/usr/bin/python3
"""A worker of your own: your serializer, in Python, as an implementation of serdiff's targets.

Two operations, written plainly, as a user's own code would be: int64.to_decimal (an int64 as
decimal ASCII) and cql.serialize for list<int> (the CQL [int] count, then each element as a
[bytes]: length 4 and the big-endian value, a null element as length -1; protocol v3+). Any other
CQL type, or v1/v2, is declined: not compared. How serdiff runs it: README.md ("Test your own
serializer") and docs/workers.md.

MY_WORKER_VARIANT in the environment picks a rewrite of the list<int> writer, as a change under
review would (docs/review.md: `serdiff review --after-env MY_WORKER_VARIANT=...`):
  fragments  one bytes object per element, then b"".join: the same bytes, several times the
             heap (the shape of a real driver change)
  batch      one struct.pack call for the whole list: faster, but a null element is written as
             an empty value (length 0) instead of null (length -1): a bytes change
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


def list_int_fragments(inp):
    if inp['type'] != 'list<int>' or inp['version'] < 3:
        raise sw.DeclinedOp('only list<int>, protocol v3 and later')
    items = inp['value']
    parts = [struct.pack('>i', len(items))]
    for x in items:
        parts.append(struct.pack('>i', -1) if x is None else struct.pack('>ii', 4, x))
    return ('hex', b''.join(parts))


def list_int_batch(inp):
    if inp['type'] != 'list<int>' or inp['version'] < 3:
        raise sw.DeclinedOp('only list<int>, protocol v3 and later')
    items = inp['value']
    words = []
    for x in items:
        words += (0, 0) if x is None else (4, x)  # the bug: null as an empty value
    return ('hex', struct.pack('>i%di' % len(words), len(items), *words))


VARIANTS = {'': list_int, 'fragments': list_int_fragments, 'batch': list_int_batch}
variant = os.environ.get('MY_WORKER_VARIANT', '')
if variant not in VARIANTS:
    sw.serve(name='my_worker', declined='MY_WORKER_VARIANT=%s is not one of %s'
             % (variant, ', '.join(v for v in VARIANTS if v)))
# rehearse: each call runs once unmeasured first, so that a peak does not depend on which input
# happened to take a path first (a review's reproduce line runs one input in a fresh worker).
sw.serve(name='my_worker', ops={'int64.to_decimal': to_decimal, 'cql.serialize': VARIANTS[variant]},
         peak='tracemalloc peak of the call (bytes of Python objects)', rehearse=True)
