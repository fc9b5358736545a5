#!/usr/bin/python3
"""Golden vectors for the serdiff CQL family, produced by a real implementation.

Drives Debian's python3-cassandra (the DataStax python driver, 3.25) -- its
cassandra.cqltypes serializers and deserializers -- over a few hundred values of
every CQL type and writes one vector per line:

    kind <TAB> version <TAB> type <TAB> value <TAB> hex <TAB> divergence

  kind        E: the driver ENCODED `value` into `hex`
              D: the driver DECODED `hex` into `value`
  version     native protocol version given to the driver (2..5)
  type        serdiff type syntax (serdiff/cql/value.h TypeToString: "map<int, text>",
              "udt<addr, street text, zip int>")
  value       serdiff literal syntax (serdiff/cql/literal.h), built by this script from the
              Python value (not by the driver)
  hex         lower-case hex of the driver's bytes (payload, no length prefix)
  divergence  "-" when serdiff must agree byte for byte; otherwise the name of an accepted
              divergence (oracles/python_cassandra/divergences.h lists them with their reasons)

tests/cql_golden_test.cc checks every line against serdiff's optimized and reference codecs.

Usage: oracles/python_cassandra/cql_golden_vectors.py > oracles/python_cassandra/cql_vectors.tsv
Needs /usr/bin/python3 with python3-cassandra (apt-get install python3-cassandra).
Deterministic: the same driver version always writes the same file.
"""

import datetime
import decimal
import ipaddress
import math
import random
import struct
import sys
import uuid

import cassandra
from cassandra import cqltypes as ct
from cassandra import util as cutil

# ---------------------------------------------------------------------------------------
# Types: a small tree that knows its serdiff spelling and its driver class.


class T:
    def __init__(self, name, driver, params=(), fields=None, udt_name=None):
        self.name = name            # serdiff kind name
        self.driver = driver        # cassandra.cqltypes class
        self.params = list(params)  # parameter types
        self.fields = fields        # UDT field names
        self.udt_name = udt_name

    def spelling(self):
        if not self.params:
            return self.name
        if self.name == 'udt':
            inner = ', '.join('%s %s' % (f, p.spelling()) for f, p in zip(self.fields, self.params))
            return 'udt<%s, %s>' % (self.udt_name, inner)
        return '%s<%s>' % (self.name, ', '.join(p.spelling() for p in self.params))


NATIVE = {
    'ascii': ct.AsciiType, 'bigint': ct.LongType, 'blob': ct.BytesType,
    'boolean': ct.BooleanType, 'counter': ct.CounterColumnType, 'decimal': ct.DecimalType,
    'double': ct.DoubleType, 'float': ct.FloatType, 'int': ct.Int32Type,
    'timestamp': ct.TimestampType, 'uuid': ct.UUIDType, 'text': ct.UTF8Type,
    'varint': ct.IntegerType, 'timeuuid': ct.TimeUUIDType, 'inet': ct.InetAddressType,
    'date': ct.SimpleDateType, 'time': ct.TimeType, 'smallint': ct.ShortType,
    'tinyint': ct.ByteType, 'duration': ct.DurationType,
}


def native(name):
    return T(name, NATIVE[name])


def list_of(p):
    return T('list', ct.ListType.apply_parameters([p.driver]), [p])


def set_of(p):
    return T('set', ct.SetType.apply_parameters([p.driver]), [p])


def map_of(k, v):
    return T('map', ct.MapType.apply_parameters([k.driver, v.driver]), [k, v])


def tuple_of(*ps):
    return T('tuple', ct.TupleType.apply_parameters([p.driver for p in ps]), ps)


def udt_of(name, fields):
    names = tuple(f for f, _ in fields)
    drv = ct.UserType.make_udt_class('ks', name, names, tuple(p.driver for _, p in fields))
    return T('udt', drv, [p for _, p in fields], list(names), name)


# ---------------------------------------------------------------------------------------
# Values: Python values for the driver, and their serdiff literal.

EPOCH_DAY = datetime.date(1970, 1, 1)


class Days:
    """A date given to the driver as a datetime.date / cassandra.util.Date (days since epoch)."""

    def __init__(self, days):
        self.days = days


class Raw:
    """A plain int given to SimpleDateType: the driver takes it as the already-biased value."""

    def __init__(self, raw):
        self.raw = raw


def f32(x):
    return struct.unpack('>f', struct.pack('>f', x))[0]


def quote(data):
    out = ["'"]
    text = data.decode('utf-8', errors='surrogateescape') if isinstance(data, bytes) else data
    for ch in text:
        cp = ord(ch)
        if ch in "'\\":
            out.append('\\' + ch)
        elif 0x20 <= cp < 0x7F:
            out.append(ch)
        elif 0xDC80 <= cp <= 0xDCFF:     # an undecodable byte
            out.append('\\x%02x' % (cp - 0xDC00))
        elif cp < 0x20 or cp == 0x7F:
            out.append('\\x%02x' % cp)
        else:
            out.append(ch)
    out.append("'")
    return ''.join(out)


def float_text(x, bits, width):
    if math.isnan(x):
        return 'nan(0x%0*x)' % (width * 2, bits)
    if math.isinf(x):
        return 'inf' if x > 0 else '-inf'
    if x == 0:
        return '-0' if math.copysign(1.0, x) < 0 else '0'
    return repr(x)


def literal(t, v):
    """serdiff literal of Python value v read as type t (None -> null)."""
    if v is None:
        return 'null'
    n = t.name
    if n in ('ascii', 'text'):
        return quote(v)
    if n == 'blob':
        return '0x' + v.hex() if v else 'empty'
    if n == 'boolean':
        return 'true' if v else 'false'
    if n in ('int', 'bigint', 'counter', 'smallint', 'tinyint', 'varint'):
        return str(v)
    if n == 'timestamp':
        return str(v)
    if n == 'time':
        return str(v.nanosecond_time if isinstance(v, cutil.Time) else v)
    if n == 'date':
        if isinstance(v, Raw):
            return str(v.raw)  # the literal states the intended days; see the divergence
        return str(v.days)
    if n == 'float':
        return float_text(v, struct.unpack('>I', struct.pack('>f', v))[0], 4)
    if n == 'double':
        return float_text(v, struct.unpack('>Q', struct.pack('>d', v))[0], 8)
    if n in ('uuid', 'timeuuid'):
        return str(v)
    if n == 'inet':
        addr = ipaddress.ip_address(v)
        if addr.version == 4:
            return "'%s'" % addr
        packed = addr.packed
        return "'" + ':'.join('%x' % int.from_bytes(packed[i:i + 2], 'big')
                              for i in range(0, 16, 2)) + "'"
    if n == 'decimal':
        sign, digits, exponent = v.as_tuple()
        unscaled = int(''.join(map(str, digits)) or '0')
        return '%s%dE%+d' % ('-' if sign else '', unscaled, exponent)
    if n == 'duration':
        return 'duration(%d, %d, %d)' % (v.months, v.days, v.nanoseconds)
    if n == 'list':
        return '[' + ', '.join(literal(t.params[0], x) for x in v) + ']'
    if n == 'set':
        return '{' + ', '.join(literal(t.params[0], x) for x in v) + '}'
    if n == 'map':
        return '{' + ', '.join('%s: %s' % (literal(t.params[0], k), literal(t.params[1], x))
                               for k, x in v.items()) + '}'
    if n == 'tuple':
        return '(' + ', '.join(literal(p, x) for p, x in zip(t.params, v)) + ')'
    if n == 'udt':
        items = []
        for i, (f, p) in enumerate(zip(t.fields, t.params)):
            x = v[i] if isinstance(v, tuple) else getattr(v, f, None)
            items.append('%s: %s' % (f, literal(p, x)))
        return '{' + ', '.join(items) + '}'
    raise ValueError(n)


def driver_value(t, v):
    """The Python object to hand to the driver for v."""
    if v is None:
        return None
    n = t.name
    if n == 'date':
        if isinstance(v, Raw):
            return v.raw
        return cutil.Date(v.days)
    if n == 'ascii' or n == 'text':
        return v if isinstance(v, str) else v.decode('utf-8')
    if n in ('list', 'set'):
        return [driver_value(t.params[0], x) for x in v]
    if n == 'map':
        return {driver_value(t.params[0], k): driver_value(t.params[1], x) for k, x in v.items()}
    if n == 'tuple':
        return tuple(driver_value(p, x) for p, x in zip(t.params, v))
    if n == 'udt':
        if isinstance(v, tuple):
            return tuple(driver_value(p, x) for p, x in zip(t.params, v))
        return v
    return v


# ---------------------------------------------------------------------------------------
# The vectors.

ROWS = []


def emit(kind, version, t, value_text, data, divergence='-'):
    ROWS.append('\t'.join([kind, str(version), t.spelling(), value_text, data.hex(), divergence]))


def encode(t, v, versions=(4,), divergence='-'):
    for ver in versions:
        data = t.driver.serialize(driver_value(t, v), ver)
        emit('E', ver, t, literal(t, v), data, divergence)


def decode(t, hexdata, versions=(4,), divergence='-'):
    data = bytes.fromhex(hexdata)
    for ver in versions:
        got = t.driver.deserialize(data, ver)
        if t.name == 'duration':
            got = got  # cassandra.util.Duration
        if t.name == 'time':
            got = got.nanosecond_time
        if t.name == 'date':
            got = Days(got.days_from_epoch)
        emit('D', ver, t, literal(t, got), data, divergence)


def int_edges(bits):
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    vals = {lo, lo + 1, -1, 0, 1, hi - 1, hi}
    for b in range(1, bits - 1, max(1, bits // 8)):
        vals.update({1 << b, -(1 << b), (1 << b) - 1})
    return sorted(vals)


def main():
    rng = random.Random(20240601)

    # ---- native types ----
    for name, bits in (('tinyint', 8), ('smallint', 16), ('int', 32), ('bigint', 64),
                       ('counter', 64)):
        for v in int_edges(bits):
            encode(native(name), v)
        for _ in range(4):
            encode(native(name), rng.randrange(-(1 << (bits - 1)), 1 << (bits - 1)))
    for v in (0, 1, -1, 1609459200000, 981173106789, -62135596800000, 253402300799999,
              -(1 << 63), (1 << 63) - 1, 10425520380477, -11654632814640):
        encode(native('timestamp'), v)
    for v in (True, False):
        encode(native('boolean'), v)
    for v in (0.0, -0.0, 1.5, 0.1, -2.75, 3.4028234663852886e38, 1.401298464324817e-45,
              float('inf'), float('-inf'), float('nan'), 1e-30, 123456.789):
        encode(native('float'), f32(v))
    for v in (0.0, -0.0, 1.0, 0.1, -1e300, 5e-324, 2.2250738585072014e-308,
              1.7976931348623157e308, float('inf'), float('-inf'), float('nan'), math.pi):
        encode(native('double'), v)
    for s in ('', 'a', 'hello', 'it\'s', 'back\\slash', 'tab\there', '\u00e9\u20ac',
              '\u007f\u0080\u07ff\u0800', '\ud7ff\ue000\uffff', '\U00010000\U0010ffff',
              '\U0001f600 emoji', 'x' * 300):
        encode(native('text'), s)
    for s in ('', 'hi', 'ASCII 0..127 \x00\x01\x7f', 'x' * 100):
        encode(native('ascii'), s)
    for b in (b'', b'\x00', b'\x00\xff', bytes(range(256)), b'\xde\xad\xbe\xef' * 10):
        encode(native('blob'), b)
    for u in ('00112233-4455-6677-8899-aabbccddeeff', '00000000-0000-0000-0000-000000000000',
              'ffffffff-ffff-ffff-ffff-ffffffffffff'):
        encode(native('uuid'), uuid.UUID(u))
    for _ in range(3):
        encode(native('uuid'), uuid.UUID(int=rng.getrandbits(128), version=4))
    for u in ('00112233-4455-1677-8899-aabbccddeeff', 'c0ffee00-1234-11ee-8000-000000000001'):
        encode(native('timeuuid'), uuid.UUID(u))
    for a in ('127.0.0.1', '0.0.0.0', '255.255.255.255', '192.168.1.20', '::1', '::',
              '2001:db8::ff00:42:8329', 'fe80::1', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'):
        encode(native('inet'), a)
    # varint: every byte-length boundary for both signs, and powers of two around them
    varints = {0, 1, -1, 127, 128, 129, 255, 256, -128, -129, -255, -256, -32768, -32769,
               -(1 << 31), (1 << 31), (1 << 63), -(1 << 63), (1 << 64), -(1 << 64)}
    for length in range(1, 18):
        top = 8 * length - 1
        varints.update({(1 << top) - 1, -(1 << top), (1 << top), -(1 << top) - 1})
    for k in (7, 8, 15, 16, 100, 127, 128, 200):
        varints.update({1 << k, -(1 << k), (1 << k) + 1, -(1 << k) + 1, (1 << k) - 1})
    for v in sorted(varints):
        encode(native('varint'), v)
    for _ in range(6):
        encode(native('varint'), rng.getrandbits(rng.randrange(1, 300)) * rng.choice((1, -1)))
    for d in ('1.0', '1', '1.23', '-0.5', '1E+3', '0.00', '123456789.987654321', '-0',
              '1E-40', '9.999999999999999999999999999999E+100', '-12345678901234567890.5', '0E+7',
              '3.14159'):
        encode(native('decimal'), decimal.Decimal(d))
    for days in (0, -1, 1, 10957, -719162, 2932896, -(1 << 31), (1 << 31) - 1, 19000):
        encode(native('date'), Days(days))
    for ns in (0, 1, 45296789000000, 86399999999000, 86399999999999, 3600 * 10 ** 9):
        encode(native('time'), ns)
    for m, d, n in ((1, 2, 3), (-1, -1, -1), (12, 0, 0), (0, 0, 3600 * 10 ** 9), (0, 0, 0),
                    ((1 << 31) - 1, (1 << 31) - 1, (1 << 63) - 1),
                    (-(1 << 31), -(1 << 31), -(1 << 63)), (0, -65, 0), (63, 64, -0)):
        encode(native('duration'), cutil.Duration(m, d, n))

    # ---- collections, tuples, UDTs ----
    i, t, bi = native('int'), native('text'), native('bigint')
    encode(list_of(i), [1, 2], versions=(2, 3, 4, 5))
    encode(list_of(i), [], versions=(2, 4))
    encode(list_of(t), ['hello', 'world', ''], versions=(2, 4))
    encode(set_of(t), ['a'], versions=(2, 4))
    encode(set_of(i), [3, 1, 2], versions=(4,))
    encode(map_of(t, i), {'a': 1}, versions=(2, 3, 4))
    encode(map_of(i, t), {1: 'x', 2: 'y', 3: ''}, versions=(2, 4))
    encode(list_of(list_of(i)), [[1]], versions=(2, 4))
    encode(list_of(list_of(i)), [[1, 2], [], [3]], versions=(2, 4))
    encode(map_of(t, list_of(bi)), {'k': [1, -1], 'e': []}, versions=(2, 4))
    encode(set_of(native('varint')), [0, -128, 1 << 70], versions=(4,))
    encode(list_of(native('decimal')), [decimal.Decimal('1.5'), decimal.Decimal('-1E+2')])
    encode(list_of(native('uuid')), [uuid.UUID('00112233-4455-6677-8899-aabbccddeeff')])
    encode(list_of(native('date')), [Days(0), Days(-1)])
    encode(list_of(native('duration')), [cutil.Duration(1, 2, 3)])
    encode(list_of(native('inet')), ['10.0.0.1', '::1'], versions=(2, 4))
    tup = tuple_of(i, t)
    encode(tup, (1, 'x'), versions=(2, 4))
    encode(tup, (1, None), versions=(4,))
    encode(tup, (None, None), versions=(4,))
    encode(tuple_of(i, tuple_of(t, list_of(i))), (7, ('n', [1, 2])), versions=(4,))
    encode(list_of(tup), [(1, 'a'), (2, None)], versions=(2, 4))
    encode(map_of(tuple_of(i, i), t), {(1, 2): 'p'}, versions=(4,))
    addr = udt_of('addr', [('street', t), ('zip', i)])
    encode(addr, ('x', None), versions=(4,))
    encode(addr, ('x', 5), versions=(3, 4))
    encode(addr, (None, None), versions=(4,))
    person = udt_of('person', [('name', t), ('addrs', list_of(addr)), ('tags', set_of(t)),
                               ('scores', map_of(t, native('double')))])
    encode(person, ('ann', [('a', 1), ('b', None)], ['x', 'y'], {'m': 1.5}), versions=(4,))
    encode(list_of(addr), [('s', 1)], versions=(2, 4))
    # random nested collections
    for _ in range(25):
        n = rng.randrange(0, 6)
        vals = [rng.randrange(-(1 << 31), 1 << 31) for _ in range(n)]
        encode(list_of(i), vals, versions=(rng.choice((2, 3, 4, 5)),))
        encode(map_of(t, bi), {'k%d' % k: rng.randrange(-(1 << 63), 1 << 63) for k in range(n)},
               versions=(rng.choice((2, 4)),))

    # ---- decoded by the driver: agreement on lenient points ----
    decode(native('boolean'), '02')                       # any non-zero byte is true
    decode(native('boolean'), 'ff')
    decode(list_of(i), '00000000')
    decode(addr, '0000000178')                            # missing trailing field -> null

    # ---- accepted divergences (oracles/python_cassandra/divergences.h) ----
    # The driver writes a None collection element as an EMPTY value (length 0); the spec's
    # [bytes] says a negative length is null, and serdiff writes FF FF FF FF.
    encode(list_of(i), [1, None, 3], versions=(3, 4), divergence='none-element-as-empty')
    encode(list_of(t), ['hello', None], versions=(4,), divergence='none-element-as-empty')
    encode(set_of(i), [None], versions=(4,), divergence='none-element-as-empty')
    encode(map_of(i, t), {1: None}, versions=(4,), divergence='none-element-as-empty')
    encode(list_of(i), [1, None], versions=(2,), divergence='none-element-as-empty')
    # SimpleDateType.serialize(int) takes the int as the raw, already-biased day count.
    for raw in (0, 1, 10957, (1 << 31)):
        encode(native('date'), Raw(raw), divergence='date-int-is-raw')
    # A tuple value shorter than its type: the driver writes only the given items, which
    # servers (and serdiff's decoders) read with the missing components null.
    encode(tup, (1,), versions=(4,))
    # Durations of mixed signs and times outside 0..86399999999999 ns are written unchecked.
    encode(native('duration'), cutil.Duration(1, -1, 0), divergence='duration-sign-unchecked')
    encode(native('time'), -1, divergence='time-range-unchecked')
    # Decoders: what servers accept is read by default (DecodeOptions flags restore the
    # spec's stricter rules; docs/cql.md "Decode rules").
    decode(list_of(i), '00000001fffffffe')
    decode(list_of(i), '00000002fffffff000000004000000ff')
    decode(native('varint'), '0001')
    decode(native('varint'), 'ff80')
    decode(native('time'), 'ffffffffffffffff')
    decode(tup, '0000000400000001')
    decode(set_of(tup), '00000001000000080000000400000001')
    # Cassandra rejects mixed signs too; the driver reads them.
    decode(native('duration'), '020100', divergence='duration-sign-unchecked')
    # A zero-length UDT payload: the driver returns every field null; serdiff keeps it Empty.
    decode(addr, '', divergence='empty-udt-reads-as-nulls')

    sys.stdout.write('# serdiff CQL golden vectors: generated by oracles/python_cassandra/cql_golden_vectors.py '
                     'with the python driver (cassandra-driver) %s; do not edit.\n'
                     % cassandra.__version__)
    sys.stdout.write('# kind\tversion\ttype\tvalue\thex\tdivergence   '
                     '(E: driver encoded value -> hex; D: driver decoded hex -> value)\n')
    for row in ROWS:
        sys.stdout.write(row + '\n')


if __name__ == '__main__':
    main()
