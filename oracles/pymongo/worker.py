#!/usr/bin/python3
"""serdiff worker: pymongo's bson package (docs/workers.md, protocol 1).

Debian's python3-bson 3.11 with its C extension bson._cbson (python3-bson-ext), run with
/usr/bin/python3. Started by serdiff from worker.json with this folder as its working directory;
speaks frames on stdin/stdout through workers/python/serdiff_worker.py.

Ops (the interchange forms are docs/workers.md's and oracles/interchange.json's):
  bson.encode      {"document": <canonical Extended JSON v2>} -> bson.json_util.loads (canonical
                   JSONOptions, document_class SON so key order is kept, $numberLong -> Int64,
                   $numberInt -> int, uuid_representation UNSPECIFIED so $binary subtypes 3/4
                   stay Binary), then bson.encode; or {"bson": "<hex>"} -> bson.decode with the
                   same codec options, then bson.encode. hex: the bytes bson.encode wrote.
  bson.decode      {"bson": "<hex>"} -> bson.decode (SON, strict UTF-8); accepted: hex = the
                   re-encoding of what it read; bson.decode raising (or the re-encoding raising,
                   e.g. the C extension's SystemError on Binary subtype 0xFF) is "rejected",
                   except a failure that a UTC datetime outside Python's years 1..9999 caused
                   (the input holds one, and with it set to 0 bson.decode reads the input; the
                   message's words are not looked at, they change between versions): declined,
                   pymongo 3.11 has no other value for it (an API limit).
  bson.array_keys  {"count": n} -> bson.encode({"a": [None] * n}); hex: the keys "0".."n-1" of
                   the array, each with its NUL, cut out of the encoding.
A document that json_util or bson.decode cannot bring into pymongo's values (for bson.encode) is
declined with their message: pymongo is not compared on it. So is, given as bytes, a document
holding a key twice: a Python mapping keeps one value per key (bson.decode would merge them).

Peak: tracemalloc around bson.encode / bson.decode alone; the Extended JSON parsing, the
hex conversion and (for bson.decode) the re-encoding are outside. The C extension builds its
output in a buffer it takes with plain malloc, which tracemalloc does not see; the bytes object
it returns and the Python objects it makes are seen.

SERDIFF_PYMONGO_PURE_PYTHON=1 in the environment runs the same package on its pure-Python code
path instead (bson._cbson is made unimportable before bson is imported, as when the extension
is not built): the slow, plain half of one library's optimized/slow pair, for `serdiff review
--before pymongo --before-env SERDIFF_PYMONGO_PURE_PYTHON=1 --after pymongo` (docs/review.md).

bson.json_util imports pymongo.errors.ConfigurationError, and Debian ships that in
python3-pymongo, which serdiff does not install: when pymongo is missing, a stand-in module
providing only that exception class (raised by JSONOptions for invalid options, never by the
options used here) is registered before json_util is imported. Nothing else of pymongo is used.
"""

import json
import os
import struct
import sys
import types

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir,
                                'workers', 'python'))
import serdiff_worker as sw  # noqa: E402

NAME = 'pymongo'


def _stand_in_pymongo_errors():
    try:
        import pymongo.errors  # noqa: F401
        return False
    except ImportError:
        pass
    package = types.ModuleType('pymongo')
    errors = types.ModuleType('pymongo.errors')

    class ConfigurationError(Exception):
        """Stand-in for pymongo.errors.ConfigurationError (python3-pymongo not installed)."""

    errors.ConfigurationError = ConfigurationError
    package.errors = errors
    package.__path__ = []
    sys.modules['pymongo'] = package
    sys.modules['pymongo.errors'] = errors
    return True


PURE_PYTHON = os.environ.get('SERDIFF_PYMONGO_PURE_PYTHON') == '1'
if PURE_PYTHON:
    sys.modules['bson._cbson'] = None  # `from bson import _cbson` now raises ImportError
try:
    import bson
except ImportError:
    sw.serve(name=NAME, declined='python3-bson is not installed (apt-get install python3-bson '
                                  'python3-bson-ext)')
if not PURE_PYTHON and not bson.has_c():
    sw.serve(name=NAME, declined="pymongo's C extension is not installed "
                                  "(apt-get install python3-bson-ext)")
STAND_IN = _stand_in_pymongo_errors()
from bson import json_util  # noqa: E402
from bson.binary import UuidRepresentation  # noqa: E402
from bson.codec_options import CodecOptions  # noqa: E402
from bson.son import SON  # noqa: E402

# upstream: begin setup
JSON_OPTIONS = json_util.JSONOptions(json_mode=json_util.JSONMode.CANONICAL, document_class=SON,
                                     uuid_representation=UuidRepresentation.UNSPECIFIED,
                                     tz_aware=True)
CODEC = CodecOptions(document_class=SON, tz_aware=False,
                     uuid_representation=UuidRepresentation.UNSPECIFIED,
                     unicode_decode_error_handler='strict')
# upstream: end setup
# The UTC datetimes (BSON type 0x09, ms since the epoch) a datetime.datetime holds: years
# 1..9999, 0001-01-01T00:00:00.000 to 9999-12-31T23:59:59.999.
DATETIME_MS_MIN = -62135596800000
DATETIME_MS_MAX = 253402300799999
_INT32 = struct.Struct('<i')
_INT64 = struct.Struct('<q')
# The value sizes the walk below knows without reading the value (BSON spec, "element").
_FIXED = {0x01: 8, 0x06: 0, 0x07: 12, 0x08: 1, 0x09: 8, 0x0A: 0, 0x10: 4, 0x11: 8, 0x12: 8,
          0x13: 16, 0x7F: 0, 0xFF: 0}
_LENGTH_PREFIXED = (0x02, 0x0D, 0x0E)  # string, JavaScript code, symbol: int32 + bytes


def _datetimes_out_of_range(data):
    """The offsets of the 8-byte values of every UTC datetime outside DATETIME_MS_MIN..MAX in
    data, a BSON document, in document order, as far as its structure can be walked: the walk
    stops (keeping what it found) at the first element whose bounds it cannot read. It checks
    no content (UTF-8, lengths against the document's end), only where each value lies."""
    found = []

    def walk(start, end, depth):
        if depth > 200 or start + 5 > end:
            return False
        pos = start + 4
        while pos < end:
            t = data[pos]
            if t == 0:
                return True
            key_end = data.find(b'\0', pos + 1, end)
            if key_end < 0:
                return False
            pos = key_end + 1
            if t in _FIXED:
                if t == 0x09 and pos + 8 <= end:
                    (ms,) = _INT64.unpack_from(data, pos)
                    if ms < DATETIME_MS_MIN or ms > DATETIME_MS_MAX:
                        found.append(pos)
                pos += _FIXED[t]
            elif t in _LENGTH_PREFIXED or t == 0x05:
                if pos + 4 > end:
                    return False
                (n,) = _INT32.unpack_from(data, pos)
                if n < 0:
                    return False
                pos += 4 + n + (1 if t == 0x05 else 0)
            elif t in (0x03, 0x04):
                if pos + 4 > end:
                    return False
                (n,) = _INT32.unpack_from(data, pos)
                if n < 5 or pos + n > end or not walk(pos, pos + n, depth + 1):
                    return False
                pos += n
            elif t == 0x0B:  # regex: two C strings
                for _ in range(2):
                    z = data.find(b'\0', pos, end)
                    if z < 0:
                        return False
                    pos = z + 1
            elif t == 0x0C:  # DBPointer: a string, then a 12-byte ObjectId
                if pos + 4 > end:
                    return False
                (n,) = _INT32.unpack_from(data, pos)
                if n < 0:
                    return False
                pos += 4 + n + 12
            elif t == 0x0F:  # code with scope: its int32 total length covers it all
                if pos + 4 > end:
                    return False
                (n,) = _INT32.unpack_from(data, pos)
                if n < 4:
                    return False
                # The scope, a document after the code's string, can hold datetimes too; walked
                # when its bounds read inside the element (what it finds is kept either way).
                inner_end = min(end, pos + n)
                if pos + 8 <= inner_end:
                    (code_len,) = _INT32.unpack_from(data, pos + 4)
                    scope = pos + 8 + code_len
                    if code_len >= 1 and scope + 5 <= inner_end:
                        (scope_len,) = _INT32.unpack_from(data, scope)
                        if scope_len >= 5 and scope + scope_len <= inner_end:
                            walk(scope, scope + scope_len, depth + 1)
                pos += n
            else:  # no BSON type: bson.decode fails on it whatever follows
                return False
        return False

    if len(data) >= 5:
        walk(0, min(len(data), max(0, _INT32.unpack_from(data, 0)[0])), 0)
    return found
MAX_KEYS = 10000000  # bson.array_keys: [None] * n takes 8n bytes; the keys' hex stays < 256 MiB

_encode = bson.encode
_decode = bson.decode
_dumps = json.dumps


def _error_text(e):
    text = str(e)
    return '%s: %s' % (type(e).__name__, text) if text else type(e).__name__


def _hex_input(inp):
    data = inp['bson']
    if type(data) is not str:
        raise sw.DeclinedOp('"bson" is not a hex string')
    return bytes.fromhex(data)


# ---- bson.encode ---------------------------------------------------------------------------

class _NotesRepeatedKeys(SON):
    """SON noting each key set twice (bson.decode keeps one entry per key: the first place, the
    last value). It only notes: the C extension does not pass on an exception raised here."""

    repeated = []

    def __setitem__(self, key, value):
        if key in self:
            _NotesRepeatedKeys.repeated.append(key)
        SON.__setitem__(self, key, value)


CODEC_NOTING = CODEC.with_options(document_class=_NotesRepeatedKeys)


def _encode_prepare(inp):
    if 'document' in inp:
        try:
            doc = json_util.loads(_dumps(inp['document']), json_options=JSON_OPTIONS)
        except Exception as e:
            raise sw.DeclinedOp('bson.json_util cannot read the document: %s'
                                % _error_text(e)) from None
        if not isinstance(doc, dict):
            raise sw.DeclinedOp('"document" is not a document')
        return doc
    del _NotesRepeatedKeys.repeated[:]
    try:
        doc = _decode(_hex_input(inp), codec_options=CODEC_NOTING)
    except sw.DeclinedOp:
        raise
    except Exception as e:
        raise sw.DeclinedOp('bson.decode cannot read the document to encode: %s'
                            % _error_text(e)) from None
    if _NotesRepeatedKeys.repeated:
        raise sw.DeclinedOp('the key %r occurs twice in one document: a Python mapping keeps one '
                            'value per key (bson.decode merges them)'
                            % (_NotesRepeatedKeys.repeated[0],))
    return doc


def _encode_run(doc):
    return ('hex', _encode(doc, codec_options=CODEC))


# ---- bson.decode ---------------------------------------------------------------------------

def _decode_prepare(inp):
    return _hex_input(inp)


def _decode_run(data):
    try:
        return _decode(data, codec_options=CODEC)
    except bson.errors.InvalidBSON as e:
        # Keyed on the input, not on the message (whose words change between versions): the
        # document holds a UTC datetime outside datetime.datetime's years, and with those values
        # set to 0 bson.decode reads it, so they alone made it fail. Not measured (the peak is
        # the failing call's).
        where = _datetimes_out_of_range(data)
        if where:
            zeroed = bytearray(data)
            for pos in where:
                zeroed[pos:pos + 8] = bytes(8)
            # With the datetimes set to 0 bson.decode still fails: the document has another
            # reason to be refused, and that reason (not the datetime's year, which the first
            # error named because it came first) is the answer, so that the divergences that
            # model it (a UUID binary that is not 16 bytes, ...) are the ones that apply.
            try:
                _decode(bytes(zeroed), codec_options=CODEC)
            except bson.errors.InvalidBSON as again:
                raise again from None
            except Exception:
                raise e from None
            raise sw.DeclinedOp('pymongo 3.11 reads a UTC datetime as a datetime.datetime, which '
                                'holds the years 1..9999 only (%s)' % e) from None
        raise


def _decode_finish(doc):
    try:
        return ('hex', _encode(doc, codec_options=CODEC))
    except Exception as e:
        raise sw.Rejected('bson.decode read the document, re-encoding it failed: %s'
                          % _error_text(e)) from None


# ---- bson.array_keys -----------------------------------------------------------------------

def _keys_prepare(inp):
    n = inp['count']
    if type(n) is str:
        n = int(n)
    if type(n) is not int or n < 0:
        raise sw.DeclinedOp('count %r is not a non-negative integer' % (n,))
    if n > MAX_KEYS:
        raise sw.DeclinedOp('count %d over %d: the worker does not build lists that long'
                            % (n, MAX_KEYS))
    return n, {'a': [None] * n}


def _keys_run(arg):
    n, doc = arg
    return n, _encode(doc, codec_options=CODEC)


def _keys_finish(result):
    n, out = result
    # int32 size, 04 'a' 00, int32 array size, n x (0A key 00), 00 (array), 00 (document)
    body = out[11:-2]
    keys = body.replace(b'\x0a', b'')
    if out[4:7] != b'\x04a\x00' or len(body) - len(keys) != n or keys.count(b'\x00') != n:
        raise sw.DeclinedOp('unexpected encoding of {"a": [None] * %d}: %s...'
                            % (n, out[:64].hex()))
    return ('hex', keys)


# ---- serdiff repro --upstream ----------------------------------------------------------------

_UPSTREAM_CALLS = {
    'bson.encode': '''
def call(inp):
    """bson.encode of the document, given as canonical Extended JSON or as BSON bytes."""
    if 'document' in inp:
        doc = json_util.loads(json.dumps(inp['document']), json_options=JSON_OPTIONS)
    else:
        doc = bson.decode(bytes.fromhex(inp['bson']), codec_options=CODEC)
    return {'hex': bson.encode(doc, codec_options=CODEC).hex()}
''',
    'bson.decode': '''
def call(inp):
    """bson.decode of the bytes (then bson.encode of what it read, as a use of the result)."""
    doc = bson.decode(bytes.fromhex(inp['bson']), codec_options=CODEC)
    return {'hex': bson.encode(doc, codec_options=CODEC).hex()}
''',
}


def _library():
    """The hello's "library": pymongo's version where pymongo is importable (a checkout on
    PYTHONPATH), else Debian's python3-bson version when bson is Debian's, else bson's folder."""
    path = 'pure Python' if PURE_PYTHON else 'C extension'
    version = getattr(sys.modules.get('pymongo'), 'version', None)
    if version is None:
        try:
            import pymongo  # here: only for its version
            version = getattr(pymongo, 'version', None)
        except Exception:  # noqa: BLE001 (no pymongo: Debian's python3-bson alone)
            version = None
    if isinstance(version, str):
        return 'pymongo %s (bson, %s)' % (version, path)
    if bson.__file__.startswith('/usr/lib/python3/dist-packages/'):
        import subprocess  # here: once, at start
        try:
            deb = subprocess.run(['dpkg-query', '-W', '-f=${Version}', 'python3-bson'],
                                 capture_output=True, text=True, timeout=10).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            deb = ''
        if deb:
            return 'pymongo bson, Debian python3-bson %s (%s)' % (deb, path)
    return 'pymongo bson from %s (version unknown; %s)' % (os.path.dirname(bson.__file__), path)


def _upstream(request):
    call = _UPSTREAM_CALLS.get(request.get('op'))
    if call is None:
        raise sw.DeclinedOp('pymongo writes no reproducer for op %r' % (request.get('op'),))
    prelude = ["sys.modules['bson._cbson'] = None  # pymongo's pure-Python path"] if PURE_PYTHON else []
    prelude += ['import bson', 'from bson.binary import UuidRepresentation',
               'from bson.codec_options import CodecOptions', 'from bson.son import SON']
    # json_util imports pymongo.errors, which Debian's python3-bson lacks without python3-pymongo;
    # the stand-in does nothing where pymongo is installed (always written: the same program on
    # every machine).
    import inspect  # here, not at the top: the worker's measured calls run without it loaded
    prelude = [inspect.getsource(_stand_in_pymongo_errors), 'import types',
               '_stand_in_pymongo_errors()'] + prelude
    prelude += ['from bson import json_util',
                sw.source_between(os.path.abspath(__file__), 'setup')]
    library = "pymongo's bson package (%s)" % (
        'pure Python' if PURE_PYTHON else 'C extension bson._cbson')
    return sw.upstream_program(request, library=library, prelude='\n'.join(prelude), call=call)


OPS = {
    sw.UPSTREAM_OP: _upstream,
    'bson.encode': sw.Op(_encode_run, _encode_prepare),
    'bson.decode': sw.Op(_decode_run, _decode_prepare, _decode_finish),
    'bson.array_keys': sw.Op(_keys_run, _keys_prepare, _keys_finish),
}

PEAK = ('tracemalloc peak of bson.encode / bson.decode alone (C extension _cbson), bytes of '
        'Python objects incl. the returned bytes; the Extended JSON parsing and the re-encoding '
        'of a decoded document are outside; the C extension\'s own malloc buffer is not seen')

if __name__ == '__main__':
    sw.serve(name=NAME, ops=OPS, peak=PEAK, rehearse=True, library=_library())
