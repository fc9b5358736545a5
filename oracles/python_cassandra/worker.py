#!/usr/bin/python3
"""serdiff worker: the DataStax python driver's CQL codecs (docs/workers.md, protocol 1).

Debian's python3-cassandra 3.25.0 (compiled cassandra.cqltypes), run with /usr/bin/python3.
Started by serdiff from worker.json (or worker_join.json) with this folder as its working
directory; speaks frames on stdin/stdout through workers/python/serdiff_worker.py.

Ops (the interchange forms are docs/workers.md's and oracles/interchange.json's):
  cql.serialize          {"type", "value", "version"} -> hex: cqltypes <type>.serialize(value, v)
  cql.deserialize        {"type", "hex", "version"}   -> value: cqltypes <type>.deserialize(...)
  timestamp.ms_to_cql    {"ms"}                       -> hex: DateType.serialize(int ms)
  timestamp.civil_to_cql {"year", ..., "nanos"}       -> hex: DateType.serialize(datetime)
  int64.to_decimal       {"value"}                    -> hex of str(int)
Protocol versions 3, 4 and 5 are taken; 1, 2 (and any other) are declined, as are types the
driver lacks and values it has no Python form for (a UDT value with omitted trailing fields:
the driver writes every field). The driver raising on a value or on bytes is "rejected" with
its message.

Interchange value -> driver value: bigint, counter, varint, timestamp, time: int (time as an
int, which TimeType turns into cassandra.util.Time); decimal: decimal.Decimal with the given
digits and exponent -scale; blob: bytes; uuid, timeuuid: uuid.UUID; inet: the address text
(IPv4 dotted quad or IPv6 text), as the driver's users pass it; date: cassandra.util.Date(raw
- 2^31); duration: cassandra.util.Duration; list, set: list (order and duplicates kept); map:
an ordered mapping of the pairs as given (order and duplicates kept); tuple, udt: tuple.
And back from what deserialize returns (datetime -> ms, util.Date -> raw days, util.Time ->
ns, SortedSet and OrderedMapSerializedKey in their iteration order, tuples and UDT namedtuples
as arrays: the driver pads missing trailing components with null, and reads a zero-length
collection element of a non-string type as null).

--variant=join (worker_join.json, implementation "python_cassandra_join"): list and set
serialization, for every element type, is replaced by serdiff's planted variant below, which
keeps every element's length prefix and bytes as separate fragments in a Python list and
returns b"".join(fragments), the memory-hungry change a driver release once made (about 32x
the output at the peak for a 500,000-int list<int>, against 1.085x for the installed BytesIO
serializer: per element two 37-byte bytes objects and two list slots, 90 B, and bytes.join's
temporary array of one 80-byte Py_buffer per fragment, 160 B, against 8 B of output). The
bytes are the same; only the peak differs. It exists for the heap-bound test.
"""

import datetime
import decimal
import ipaddress
import logging
import math
import os
import socket
import sys
import uuid

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir,
                                'workers', 'python'))
import serdiff_worker as sw  # noqa: E402

# The variant comes from the command line when run as the worker; imported (as
# bench/python/review_loop.py does, for install_join_variant), the module changes nothing.
VARIANT = 'installed'
if __name__ == '__main__':
    for _arg in sys.argv[1:]:
        if _arg.startswith('--variant='):
            VARIANT = _arg.split('=', 1)[1]
        else:
            sys.stderr.write('python_cassandra worker: unknown argument %s\n' % _arg)
            sys.exit(2)
    if VARIANT not in ('installed', 'join'):
        sys.stderr.write('python_cassandra worker: --variant must be join\n')
        sys.exit(2)
NAME = 'python_cassandra_join' if VARIANT == 'join' else 'python_cassandra'

try:
    import cassandra  # noqa: F401
    from cassandra import cqltypes as ct
    from cassandra import util as cutil
except ImportError:
    sw.serve(name=NAME, declined='python3-cassandra is not installed '
                                  '(apt-get install python3-cassandra)')

# UDT names that are no Python identifier make the driver log a warning; keep stderr quiet.
logging.getLogger('cassandra').addHandler(logging.NullHandler())
logging.getLogger('cassandra').propagate = False

VERSIONS = (3, 4, 5)
INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
DATE_BIAS = 1 << 31
EPOCH = datetime.datetime(1970, 1, 1)

# ---------------------------------------------------------------------------------------------
# The planted variant (--variant=join).

def install_join_variant():
    """Replaces the driver's list and set serializer with the fragment-join one, in this
    process (the worker's --variant=join; bench/python/review_loop.py times it too)."""
    int32_pack = ct.int32_pack
    uint16_pack = ct.uint16_pack

    def _join_serialize_safe(cls, items, protocol_version):
        if isinstance(items, str):
            raise TypeError("Received a string for a type that expects a sequence")
        subtype, = cls.subtypes
        pack = int32_pack if protocol_version >= 3 else uint16_pack
        inner_proto = max(3, protocol_version)
        fragments = [pack(len(items))]
        for item in items:
            itembytes = subtype.to_binary(item, inner_proto)
            fragments.append(pack(len(itembytes)))
            fragments.append(itembytes)
        return b''.join(fragments)

    ct._SimpleParameterizedType.serialize_safe = classmethod(_join_serialize_safe)


if VARIANT == 'join':
    install_join_variant()

# ---------------------------------------------------------------------------------------------
# serdiff type text -> driver class and converters.


class _Pairs(list):
    """A map value for MapType.serialize: the pairs as given, in order, duplicates kept."""

    def items(self):
        return iter(self)


def _ident(x):
    return x


def _dec_int(x):
    """A decimal string (an optional '-', then ASCII digits) or a JSON integer -> int."""
    if type(x) is str:
        if x.isascii() and (x[1:] if x[:1] == '-' else x).isdigit():
            return int(x)
    elif type(x) is int:
        return x
    raise sw.DeclinedOp('expected a decimal string, got %r' % (x,))


_SPECIAL_FLOATS = {'NaN': float('nan'), 'Infinity': float('inf'),
                   '-Infinity': float('-inf'), '-0': -0.0}


def _to_float(x):
    if type(x) is str:
        try:
            return _SPECIAL_FLOATS[x]
        except KeyError:
            raise sw.DeclinedOp('not a float form: %r' % (x,)) from None
    return x


def _to_decimal(x):
    unscaled = int(x['unscaled'])
    scale = x['scale']
    if type(scale) is not int:
        raise sw.DeclinedOp('decimal scale %r is not an integer' % (scale,))
    digits = tuple(int(d) for d in str(abs(unscaled)))
    return decimal.Decimal((1 if unscaled < 0 else 0, digits, -scale))


def _to_blob(x):
    return bytes.fromhex(x['hex'])


def _to_inet(x):
    raw = bytes.fromhex(x['hex'])
    if len(raw) == 4:
        return socket.inet_ntop(socket.AF_INET, raw)
    if len(raw) == 16:
        return socket.inet_ntop(socket.AF_INET6, raw)
    raise sw.DeclinedOp('an inet of %d bytes has no address text the driver takes' % len(raw))


def _to_date(x):
    if type(x) is not int:
        raise sw.DeclinedOp('date %r is not an integer' % (x,))
    return cutil.Date(x - DATE_BIAS)


def _to_duration(x):
    return cutil.Duration(x['months'], x['days'], int(x['nanos']))


def _from_float(x):
    if x != x:
        return 'NaN'
    if x == float('inf'):
        return 'Infinity'
    if x == float('-inf'):
        return '-Infinity'
    if x == 0.0 and math.copysign(1.0, x) < 0:
        return '-0'
    return x


def _from_timestamp(dt):
    delta = dt - EPOCH
    us = (delta.days * 86400 + delta.seconds) * 1000000 + delta.microseconds
    return str(us // 1000)


def _from_decimal(d):
    sign, digits, exponent = d.as_tuple()
    unscaled = int(''.join(map(str, digits)) or '0')
    return {'unscaled': str(-unscaled if sign else unscaled), 'scale': -exponent}


def _from_inet(text):
    return {'hex': ipaddress.ip_address(text).packed.hex()}


def _from_duration(d):
    return {'months': d.months, 'days': d.days, 'nanos': str(d.nanoseconds)}


# name -> (driver class, to_driver or None (identity), from_driver or None (identity))
NATIVE = {
    'ascii': (ct.AsciiType, None, None),
    'bigint': (ct.LongType, _dec_int, str),
    'blob': (ct.BytesType, _to_blob, lambda b: {'hex': b.hex()}),
    'boolean': (ct.BooleanType, None, None),
    'counter': (ct.CounterColumnType, _dec_int, str),
    'decimal': (ct.DecimalType, _to_decimal, _from_decimal),
    'double': (ct.DoubleType, _to_float, _from_float),
    'float': (ct.FloatType, _to_float, _from_float),
    'int': (ct.Int32Type, None, None),
    'timestamp': (ct.TimestampType, _dec_int, _from_timestamp),
    'uuid': (ct.UUIDType, uuid.UUID, str),
    'text': (ct.UTF8Type, None, None),
    'varchar': (ct.UTF8Type, None, None),
    'varint': (ct.IntegerType, _dec_int, str),
    'timeuuid': (ct.TimeUUIDType, uuid.UUID, str),
    'inet': (ct.InetAddressType, _to_inet, _from_inet),
    'date': (ct.SimpleDateType, _to_date, lambda d: d.days_from_epoch + DATE_BIAS),
    'time': (ct.TimeType, _dec_int, lambda t: str(t.nanosecond_time)),
    'smallint': (ct.ShortType, None, None),
    'tinyint': (ct.ByteType, None, None),
    'duration': (ct.DurationType, _to_duration, _from_duration),
}


def _seq_to(conv):
    if conv is None:
        return None

    def to(v):
        if type(v) is not list:
            return v  # the driver says what it makes of it
        return [None if x is None else conv(x) for x in v]
    return to


def _seq_from(conv):
    if conv is None:
        return list

    def frm(v):
        return [None if x is None else conv(x) for x in v]
    return frm


def _map_to(kconv, vconv):
    kconv = kconv or _ident
    vconv = vconv or _ident

    def to(v):
        if type(v) is not list:
            return v
        out = _Pairs()
        for pair in v:
            if type(pair) is not list or len(pair) != 2:
                raise sw.DeclinedOp('a map entry %r is not a [key, value] pair' % (pair,))
            k, x = pair
            out.append((None if k is None else kconv(k), None if x is None else vconv(x)))
        return out
    return to


def _map_from(kconv, vconv):
    kconv = kconv or _ident
    vconv = vconv or _ident

    def frm(m):
        return [[None if k is None else kconv(k), None if x is None else vconv(x)]
                for k, x in m.items()]
    return frm


def _tuple_to(convs, udt_fields=None):
    convs = [c or _ident for c in convs]
    n = len(convs)

    def to(v):
        if type(v) is not list:
            return v
        if udt_fields is not None and len(v) < n:
            raise sw.DeclinedOp('a udt value with %d of its %d fields: the driver writes every '
                                'field (null when None), so omitted trailing fields have no '
                                'driver form' % (len(v), n))
        return tuple(x if (x is None or i >= n) else convs[i](x) for i, x in enumerate(v))
    return to


def _tuple_from(convs):
    convs = [c or _ident for c in convs]

    def frm(v):
        return [None if x is None else c(x) for c, x in zip(convs, v)]
    return frm


class _TypeText:
    def __init__(self, text):
        self.s = text
        self.i = 0

    def fail(self, what):
        raise sw.DeclinedOp('type %r: %s at character %d' % (self.s, what, self.i))

    def space(self):
        s, i = self.s, self.i
        while i < len(s) and s[i].isspace():
            i += 1
        self.i = i

    def ident(self):
        self.space()
        s, i = self.s, self.i
        j = i
        while j < len(s) and (s[j].isalnum() or s[j] in '_.'):
            j += 1
        self.i = j
        return s[i:j]

    def eat(self, c):
        self.space()
        if self.i < len(self.s) and self.s[self.i] == c:
            self.i += 1
            return True
        return False

    def one(self, depth=0):
        """-> (driver class, to_driver, from_driver)"""
        if depth > 64:
            self.fail('nested too deeply')
        word = self.ident().lower()
        if not word:
            self.fail('expected a type name')
        if word == 'frozen':
            if not self.eat('<'):
                self.fail("expected '<'")
            t = self.one(depth + 1)
            if not self.eat('>'):
                self.fail("expected '>'")
            return t
        if word in NATIVE:
            return NATIVE[word]
        if word not in ('list', 'set', 'map', 'tuple', 'udt'):
            raise sw.DeclinedOp('type %r: the driver has no type %r' % (self.s, word))
        if not self.eat('<'):
            self.fail("expected '<'")
        params, fields, udt_name = [], [], None
        if word == 'udt':
            udt_name = self.ident()
            if not udt_name:
                self.fail('expected a udt name')
            while self.eat(','):
                f = self.ident()
                if not f:
                    self.fail('expected a field name')
                fields.append(f)
                params.append(self.one(depth + 1))
        else:
            params.append(self.one(depth + 1))
            while self.eat(','):
                params.append(self.one(depth + 1))
        if not self.eat('>'):
            self.fail("expected '>' or ','")
        classes = [p[0] for p in params]
        tos = [p[1] for p in params]
        froms = [p[2] for p in params]
        if word in ('list', 'set'):
            if len(params) != 1:
                self.fail('%s takes one parameter' % word)
            base = ct.ListType if word == 'list' else ct.SetType
            return (base.apply_parameters(classes), _seq_to(tos[0]), _seq_from(froms[0]))
        if word == 'map':
            if len(params) != 2:
                self.fail('map takes two parameters')
            return (ct.MapType.apply_parameters(classes), _map_to(tos[0], tos[1]),
                    _map_from(froms[0], froms[1]))
        if word == 'tuple':
            if not params:
                self.fail('tuple takes at least one parameter')
            return (ct.TupleType.apply_parameters(classes), _tuple_to(tos), _tuple_from(froms))
        if len(set(fields)) != len(fields):
            self.fail('udt field names must be unique')
        cls = ct.UserType.make_udt_class('serdiff', udt_name, tuple(fields), tuple(classes))
        return (cls, _tuple_to(tos, udt_fields=fields), _tuple_from(froms))

    def parse(self):
        t = self.one()
        self.space()
        if self.i != len(self.s):
            self.fail('trailing characters')
        return t


_TYPES = {}


def _type(text):
    t = _TYPES.get(text)
    if t is None:
        if type(text) is not str:
            raise sw.DeclinedOp('"type" is not a string')
        t = _TypeText(text).parse()
        if len(_TYPES) > 4096:
            _TYPES.clear()
        _TYPES[text] = t
    return t


def _version(inp):
    v = inp.get('version')
    if v not in VERSIONS or type(v) is not int:
        raise sw.DeclinedOp('protocol version %r: this worker takes 3, 4 and 5' % (v,))
    return v


# ---------------------------------------------------------------------------------------------
# Ops.

def _ser_prepare(inp):
    cls, to, _ = _type(inp['type'])
    version = _version(inp)
    value = inp['value']
    if value is None:
        raise sw.DeclinedOp('a null value has no payload to serialize')
    return cls, (value if to is None else to(value)), version


def _ser_run(arg):
    cls, value, version = arg
    return ('hex', cls.serialize(value, version))


def _de_prepare(inp):
    cls, _, frm = _type(inp['type'])
    version = _version(inp)
    return cls, bytes.fromhex(inp['hex']), version, frm


def _de_run(arg):
    cls, data, version, frm = arg
    return cls.deserialize(data, version), frm


def _de_finish(result):
    value, frm = result
    return ('value', None if value is None else (value if frm is None else frm(value)))


def _ms_prepare(inp):
    return _dec_int(inp['ms'])


def _ms_run(ms):
    return ('hex', ct.DateType.serialize(ms, 4))


def _civil_prepare(inp):
    fields = [inp[k] for k in ('year', 'month', 'day', 'hour', 'minute', 'second', 'nanos')]
    if any(type(f) is not int for f in fields):
        raise sw.DeclinedOp('civil fields must be integers')
    year, month, day, hour, minute, second, nanos = fields
    if not 0 <= nanos < 1000000000:
        raise sw.DeclinedOp('nanos %d outside 0..999999999 (datetime cannot hold it)' % nanos)
    try:
        # datetime holds microseconds: the nanoseconds below one are dropped (floor), as a
        # caller of the driver must; flooring keeps the ms floor of the exact value.
        return datetime.datetime(year, month, day, hour, minute, second, nanos // 1000)
    except (ValueError, OverflowError) as e:
        raise sw.DeclinedOp('no datetime.datetime for these fields: %s' % e) from None


def _civil_run(dt):
    return ('hex', ct.DateType.serialize(dt, 4))


def _int64_prepare(inp):
    v = _dec_int(inp['value'])
    if not INT64_MIN <= v <= INT64_MAX:
        raise sw.DeclinedOp('%d is not an int64' % v)
    return v


def _int64_run(v):
    return ('hex', str(v).encode('ascii'))


OPS = {
    'cql.serialize': sw.Op(_ser_run, _ser_prepare),
    'cql.deserialize': sw.Op(_de_run, _de_prepare, _de_finish),
    'timestamp.ms_to_cql': sw.Op(_ms_run, _ms_prepare),
    'timestamp.civil_to_cql': sw.Op(_civil_run, _civil_prepare),
    'int64.to_decimal': sw.Op(_int64_run, _int64_prepare),
}

PEAK = ('tracemalloc peak of the driver call alone (cassandra.cqltypes serialize/deserialize, '
        'DateType.serialize, str(int)), bytes of Python objects; the conversion between the '
        'interchange form and the driver\'s values is outside it; memory the compiled module '
        'takes with plain malloc is not seen')

if __name__ == '__main__':
    sw.serve(name=NAME, ops=OPS, peak=PEAK, rehearse=True,
             library='cassandra-driver %s' % getattr(cassandra, '__version__', '(version unknown)'))
