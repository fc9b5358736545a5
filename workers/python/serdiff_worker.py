"""serdiff_worker: serdiff's small library for writing a worker in Python.

A worker is a program that answers serdiff's calls over its stdin/stdout in the framed JSON
protocol of docs/workers.md, version 1: every message is a 4-byte big-endian length and then
that many bytes of UTF-8 JSON holding one object. The worker sends a hello first
({"serdiff_worker": 1, "name", "ops", "peak"} or {"serdiff_worker": 1, "name", "declined"}),
then answers each request {"id", "op", "input"} in order with {"id", "ok": true, "hex"|"value",
"peak"} or {"id", "ok": false, "error": "rejected"|"declined", "message", ...}. This module does
the frames, the hello, the dispatch and the peak; a worker only writes its operations:

    import serdiff_worker as sw

    def to_decimal(inp):                  # the op's "input" object -> an answer
        return ('hex', str(int(inp['value'])).encode('ascii'))

    sw.serve(name='my_impl', ops={'int64.to_decimal': to_decimal},
             peak='tracemalloc peak of the call (bytes of Python objects)')

What each situation gives is docs/workers.md's "The worker library contract", the same for every
language's library and checked by tests/worker_conformance/. In short: an op returns ('hex',
bytes-like) or ('value', <JSON-able object>), raises Rejected(message, offset=None) when the
implementation rejects the input, or DeclinedOp(message) when it cannot take it (not compared).
Any other exception the op raises is answered as rejected, the message being the exception's
class name and text ("TypeError: ..."): an implementation raising on an input is how a library
says no. A result of another shape is a bug of the worker: one line on stderr, exit status 4.

An op may instead be Op(run, prepare=None, finish=None) to keep the conversion between the
interchange form and the library's own values out of the measured peak: prepare(input) ->
what run takes (not measured; its exceptions other than Rejected/DeclinedOp are answered
declined, "input not taken: ...": the input had no form the library takes); run(prepared) ->
result (measured); finish(result) -> ('hex', bytes) or ('value', obj) (not measured; its other
exceptions are answered declined, "result not presentable: ...").

Peak: tracemalloc traces the op alone. By default it is started right before the op runs
(after the request was read and parsed, and after prepare) and stopped right after, so peak =
the traced peak of the call, which began at 0: the most bytes the call's own allocations held
at once. Memory live before the call is not counted, and freeing some of it during the call
does not lower the figure. The answer's hex or JSON text is built after the peak was read.
Tracing every allocation of the loop instead (tracemalloc started once) makes the frame
parsing and writing several times slower (a no-op call, measured in process: 80-110 us against
10-13 us), which is why the default stops it between calls (bench/workers/pipe_roundtrip.py
measures both); SERDIFF_WORKER_TRACEMALLOC=continuous selects the other way
(docs/workers.md's wording): started once when serve() begins, and per call reset_peak(),
base = traced memory now, run the op, peak = traced peak - base (never below 0). Both give the
same figure for an op that frees nothing it did not allocate. tracemalloc sees what Python's
allocators hand out (objects, bytes, bytearray, BytesIO buffers); memory a C extension takes
with plain malloc is not seen.

Timed calls (`serdiff review`'s speed): a request may carry "time": N (an integer 1..100000).
After an accepted answer is made, the op's run step (run() of an Op, else the op itself) is
called N more times on the same prepared input, outside tracemalloc, each timed with
time.perf_counter_ns(), and the answer carries "ns": [N integers]. With "batch": B as well (an
integer 2..1000000), each of the N timings is of B calls in a row (one clock reading before and
one after them, so the clock's own cost is spread over B calls), and the answer says "batch": B.
A rejected or declined answer carries neither.

Process rules (the contract's): EOF on stdin at a frame boundary ends the worker with status 0;
a malformed frame (a length over the frame limit, a stream ending inside a frame, a body that
is not one UTF-8 JSON object, a request whose "id" is not an integer in 0..2^53-1, whose "op"
is not a string or whose "input" is not an object) ends it with status 2 and one line on stderr,
after the requests before it were answered (serdiff restarts it). File descriptor 1 is kept for
the frames only: anything else the process writes to its stdout (print, a C library) goes to
stderr. An op that ends the process itself (sys.exit, os._exit, a signal) ends it with that
status: SystemExit and KeyboardInterrupt are not caught. A worker whose package is missing
calls serve(name=..., declined=reason): the hello says declined, and every request is answered
declined with that reason.

Run with Debian's /usr/bin/python3 (3.9 or later: tracemalloc.reset_peak).
"""

import json
import json.scanner
import os
import struct
import sys
import time
import tracemalloc

PROTOCOL_VERSION = 1
MAX_FRAME = 256 << 20  # 268,435,456 bytes: a longer frame is a protocol error
MAX_ID = (1 << 53) - 1  # the largest integer every JSON reader (JavaScript's too) holds exactly
MAX_TIMED_CALLS = 100000  # a request's "time" (timed calls after the answer), 1..this
MAX_BATCH = 1000000  # a request's "batch" (calls per timing), 2..this; anything else is 1
EXIT_EOF = 0            # stdin ended at a frame boundary
EXIT_PROTOCOL = 2       # a malformed frame or request
EXIT_WORKER_BUG = 4     # the worker's own code broke the contract (a result of no known shape)

__all__ = ['PROTOCOL_VERSION', 'MAX_FRAME', 'Rejected', 'DeclinedOp', 'Op', 'serve',
           'read_frame', 'write_frame', 'ProtocolError', 'UPSTREAM_OP', 'upstream_program',
           'source_between']


class Rejected(Exception):
    """The implementation rejected the input; offset: bytes into the input, when known."""

    def __init__(self, message, offset=None):
        super().__init__(message)
        self.message = str(message)
        self.offset = offset


class DeclinedOp(Exception):
    """The implementation cannot take this input (a type it lacks); serdiff does not compare."""

    def __init__(self, message):
        super().__init__(message)
        self.message = str(message)


class ProtocolError(Exception):
    """A frame that breaks the protocol: the worker ends with status 2."""


class _WorkerBug(Exception):
    """The worker's own code broke the contract: the worker ends with status 4."""


class Op:
    """An op in three steps, so that only run() is inside the measured peak."""

    __slots__ = ('run', 'prepare', 'finish')

    def __init__(self, run, prepare=None, finish=None):
        self.run = run
        self.prepare = prepare
        self.finish = finish


# serve's rehearse applies to requests of at most this many bytes (the frame body).
REHEARSE_MAX_REQUEST = 256 << 10
_pack_len = struct.Struct('>I').pack
_unpack_len = struct.Struct('>I').unpack
# ensure_ascii=False: a lone surrogate then fails the UTF-8 encoding of the body (the answer is
# declined as not presentable) instead of going out as a \ud800-style escape, which serdiff's
# JSON reader (and RFC 7493's I-JSON) refuses as not text.
_dumps = json.JSONEncoder(separators=(',', ':'), allow_nan=False, ensure_ascii=False).encode


def _well_formed(text):
    """text with each lone surrogate replaced by U+FFFD: a message is for a reader."""
    return text.encode('utf-16-le', 'surrogatepass').decode('utf-16-le', 'replace')


def _no_constant(word):
    raise ValueError('%s is not JSON' % word)


_decoder = json.JSONDecoder(parse_constant=_no_constant)  # NaN, Infinity: not JSON
_loads = _decoder.decode
# The decoder's scanner called directly: decode() wraps it in two whitespace matches and a
# Python-level raw_decode, 60 % of a small request's parse (450 of 730 ns; docs/benchmarks.md).
_scan = json.scanner.make_scanner(_decoder)


def _parse(text):
    """_loads(text): the scanner alone when the text is one object from its first character to
    its last (every frame serdiff writes); any other text, and any error, through _loads, which
    gives the same value or the same exception."""
    if text[:1] == '{':
        try:
            obj, end = _scan(text, 0)
        except (StopIteration, ValueError):
            return _loads(text)
        if end == len(text):
            return obj
    return _loads(text)
_BYTES = (bytes, bytearray, memoryview)


def read_frame(stream, limit=MAX_FRAME):
    """One frame's JSON object from a binary stream; None at EOF on a frame boundary."""
    return _read_frame(stream, limit)[0]


def _read_frame(stream, limit):
    """(read_frame's answer, the frame body's length in bytes)."""
    head = stream.read(4)
    if not head:
        return None, 0
    if len(head) < 4:
        raise ProtocolError('the stream ended inside a frame length')
    (n,) = _unpack_len(head)
    if n > limit:
        raise ProtocolError('a frame of %d bytes (limit %d)' % (n, limit))
    body = stream.read(n)
    if len(body) < n:
        raise ProtocolError('the stream ended inside a frame (%d of %d bytes)' % (len(body), n))
    try:
        obj = _parse(body.decode('utf-8'))
    except (ValueError, UnicodeDecodeError) as e:
        raise ProtocolError('a frame that is not UTF-8 JSON: %s' % e) from None
    if type(obj) is not dict:
        raise ProtocolError('a frame that is not one JSON object')
    return obj, n


def write_frame(stream, obj):
    """Writes one JSON object as a frame and flushes."""
    body = _dumps(obj).encode('utf-8')
    stream.write(_pack_len(len(body)) + body)
    stream.flush()


def _frames_out():
    """A binary stream on the original stdout; fd 1 (and sys.stdout) now point at stderr."""
    sys.stdout.flush()
    fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return os.fdopen(fd, 'wb', buffering=1 << 16)


def _error_text(e):
    """The contract's text for an exception: its class name, and ": " and its text if any."""
    text = str(e)
    return '%s: %s' % (type(e).__name__, text) if text else type(e).__name__


def _request(req):
    """(id, op, input) of a request, or ProtocolError naming what is wrong with it."""
    rid = req.get('id')
    if type(rid) is not int or not 0 <= rid <= MAX_ID:
        raise ProtocolError('a request whose "id" is not an integer in 0..2^53-1' if 'id' in req
                            else 'a request without "id"')
    op_name = req.get('op')
    if type(op_name) is not str:
        raise ProtocolError('a request whose "op" is not a string' if 'op' in req
                            else 'a request without "op"')
    inp = req.get('input')
    if type(inp) is not dict:
        raise ProtocolError('a request whose "input" is not a JSON object' if 'input' in req
                            else 'a request without "input"')
    return rid, op_name, inp


def _declined(rid, message):
    return {'id': rid, 'ok': False, 'error': 'declined', 'message': message}


def _rehearse(run, arg):
    """run(arg) once, its result and any exception dropped (serve's rehearse)."""
    try:
        run(arg)
    except Exception:  # the measured call meets it again and answers for it
        pass


def _serve(name, ops, peak_text, declined, stdin, out, limit, continuous=False,
           rehearse=False, library=None):
    if declined is not None:
        write_frame(out, {'serdiff_worker': PROTOCOL_VERSION, 'name': name,
                          'declined': declined})
    else:
        hello = {'serdiff_worker': PROTOCOL_VERSION, 'name': name, 'ops': list(ops),
                 'peak': peak_text}
        if library is not None:
            hello['library'] = library
        write_frame(out, hello)
    traced = tracemalloc.get_traced_memory
    if continuous:
        tracemalloc.start(1)
        reset_peak = tracemalloc.reset_peak

        def begin():
            reset_peak()
            return traced()[0]

        def end(base):
            return traced()[1] - base
    else:
        start = tracemalloc.start
        stop = tracemalloc.stop

        def begin():
            start(1)
            return 0

        def end(base):
            peak = traced()[1]
            stop()
            return peak
    lookup = ops.get
    while True:
        req, size = _read_frame(stdin, limit)
        if req is None:
            return
        # A request over REHEARSE_MAX_REQUEST bytes is not rehearsed: its own allocations dwarf
        # a path's first-use costs, and running it twice would double the slowest calls.
        # "peak": false: serdiff will not use this call's peak (a peer in a fuzz binary, a second
        # run), so the call is neither rehearsed nor traced, and the answer has no "peak".
        measure = req.get('peak') is not False
        rehearse_this = rehearse and measure and size <= REHEARSE_MAX_REQUEST
        rid = req.get('id')
        op_name = req.get('op')
        inp = req.get('input')
        if (type(rid) is not int or not 0 <= rid <= MAX_ID or type(op_name) is not str
                or type(inp) is not dict):
            _request(req)  # raises ProtocolError naming what is wrong
        if declined is not None:
            write_frame(out, _declined(rid, declined))
            continue
        op = lookup(op_name)
        if op is None:
            write_frame(out, _declined(rid, '%s does not answer op "%s"' % (name, op_name)))
            continue
        peak = None
        answer = None
        try:
            if type(op) is Op:
                if op.prepare is not None:
                    try:
                        arg = op.prepare(inp)
                    except (Rejected, DeclinedOp):
                        raise
                    except Exception as e:  # the input has no form the library takes
                        raise DeclinedOp('input not taken: %s' % _error_text(e)) from None
                else:
                    arg = inp
                if rehearse_this:
                    _rehearse(op.run, arg)
                if measure:
                    base = begin()
                    try:
                        result = op.run(arg)
                    finally:
                        peak = max(end(base), 0)
                else:
                    result = op.run(arg)
                if op.finish is not None:
                    try:
                        result = op.finish(result)
                    except (Rejected, DeclinedOp):
                        raise
                    except Exception as e:  # an accepted result the worker cannot present
                        raise DeclinedOp('result not presentable: %s' % _error_text(e)) from None
            else:
                if rehearse_this:
                    _rehearse(op, inp)
                if measure:
                    base = begin()
                    try:
                        result = op(inp)
                    finally:
                        peak = max(end(base), 0)
                else:
                    result = op(inp)
        except DeclinedOp as e:
            answer = _declined(rid, e.message)
        except Rejected as e:
            answer = {'id': rid, 'ok': False, 'error': 'rejected', 'message': e.message}
            offset = e.offset
            if type(offset) is int and offset >= 0:
                answer['offset'] = offset
            if peak is not None:
                answer['peak'] = peak
        except Exception as e:  # the implementation raised on the input: its way of saying no
            answer = {'id': rid, 'ok': False, 'error': 'rejected', 'message': _error_text(e)}
            if peak is not None:
                answer['peak'] = peak
        body = None
        if answer is None:
            kind = data = None
            if type(result) in (tuple, list) and len(result) == 2:
                kind, data = result
            if kind == 'hex' and isinstance(data, _BYTES) and 'time' not in req:
                # The common answer, written without the JSON encoder (it cost 2 us of an int64
                # call's 8.7 us in the loop; docs/benchmarks.md): rid and peak are ints and the
                # hex is [0-9a-f], so the text is byte for byte what _dumps gives. It meets the
                # frame limit below like every other answer.
                if peak is None:
                    body = b'{"id":%d,"ok":true,"hex":"%s"}' % (rid, data.hex().encode('ascii'))
                else:
                    body = b'{"id":%d,"ok":true,"hex":"%s","peak":%d}' % (
                        rid, data.hex().encode('ascii'), peak)
            elif kind == 'hex' and isinstance(data, _BYTES):
                answer = {'id': rid, 'ok': True, 'hex': data.hex()}
            elif kind == 'value':
                answer = {'id': rid, 'ok': True, 'value': data}
            else:
                raise _WorkerBug('op "%s" (id %d) returned %s, not (\'hex\', bytes) or '
                                 '(\'value\', a JSON value)' % (op_name, rid, _shape(result)))
            if answer is not None and peak is not None:
                answer['peak'] = peak
            n = req.get('time')
            if body is None and type(n) is int and 1 <= n <= MAX_TIMED_CALLS:
                b = req.get('batch')
                b = b if type(b) is int and 2 <= b <= MAX_BATCH else 1
                answer['ns'] = _time_run(op, arg if type(op) is Op else inp, n, b)
                if b > 1:
                    answer['batch'] = b
        if body is None:
            if type(answer.get('message')) is str:
                answer['message'] = _well_formed(answer['message'])
            try:
                body = _dumps(answer).encode('utf-8')
            except (TypeError, ValueError, UnicodeError, RecursionError) as e:  # not JSON-able
                body = _dumps(_declined(rid, 'result not presentable: %s' % _error_text(e))
                              ).encode('utf-8')
        if len(body) > limit:  # serdiff would take it for a protocol error
            body = _dumps(_declined(rid, 'the answer of %d bytes is over the frame limit of %d '
                                         'bytes' % (len(body), limit))).encode('utf-8')
        out.write(_pack_len(len(body)) + body)
        out.flush()


def _time_run(op, arg, n, batch=1):
    """n timings of `batch` calls each of the op's run step alone (not prepare, not finish),
    outside tracemalloc, with perf_counter_ns: the answer's "ns" for a request's "time": n and
    "batch": batch."""
    run = op.run if type(op) is Op else op
    clock = time.perf_counter_ns
    ns = []
    if batch == 1:
        for _ in range(n):
            t0 = clock()
            run(arg)
            ns.append(clock() - t0)
        return ns
    calls = range(batch)
    for _ in range(n):
        t0 = clock()
        for _ in calls:
            run(arg)
        ns.append(clock() - t0)
    return ns


def _shape(result):
    if type(result) in (tuple, list) and len(result) == 2:
        return "(%r, %s)" % (result[0], type(result[1]).__name__)
    return type(result).__name__


# ---- serdiff repro --upstream (docs/workers.md, "Upstream reproducers") ----------------------

UPSTREAM_OP = 'serdiff.upstream'

_UPSTREAM_JUDGE = '''

def main():
    try:
        got = call(INPUT)
        outcome = 'accepted'
    except Exception as e:  # how a Python library says no
        outcome, got = 'rejected', '%s: %s' % (type(e).__name__, e)
    if outcome == 'accepted':
        print('%s accepts it: %s' % (LIBRARY, json.dumps(got, sort_keys=True)))
    else:
        print('%s rejects it: %s' % (LIBRARY, got))
    if EXPECT['outcome'] == 'rejected':
        print('the spec (%s): rejected, %s' % (SPEC, EXPECT['message']))
        agrees = outcome == 'rejected'
    else:
        answer = EXPECT['answer']
        print('the spec (%s): accepted%s' % (SPEC, ': ' + json.dumps(answer, sort_keys=True)
                                              if answer else ''))
        agrees = outcome == 'accepted' and all(got.get(k) == v for k, v in answer.items())
    print('agrees with the spec' if agrees else 'DIFFERS from the spec')
    sys.exit(0 if agrees else 1)


if __name__ == '__main__':
    main()
'''


def source_between(path, name):
    """The lines of the file `path` between '# upstream: begin NAME' and '# upstream: end NAME'
    (the markers left out): a worker's own conversion code, copied into the reproducer it writes
    so that the program and the worker cannot drift apart."""
    with open(path, encoding='utf-8') as f:
        text = f.read()
    begin, end = '# upstream: begin %s\n' % name, '# upstream: end %s\n' % name
    i, j = text.find(begin), text.find(end)
    if i < 0 or j < i:
        raise ValueError('%s has no section %r' % (path, name))
    return text[i + len(begin):j]


def _doc_line(text):
    return text.replace('\\', '\\\\').replace('"""', "'''")


def upstream_program(request, *, library, prelude, call):
    """The answer of a worker's "serdiff.upstream" op: a self-contained Python program that runs
    call(INPUT) on the request's input, prints what the library does and what serdiff's
    reference (the spec) gives, and exits 1 while they differ, 0 once they agree, 2 when the
    library cannot be imported.

    request: the op's input ({"target", "op", "input", "shown", "spec", "expect"}, built by
    serdiff). library: its name and version, for the printout. prelude: the program's imports
    and setup (Python source). call: the source of `def call(inp):`, which returns the answer's
    fields as a dict ({'hex': ...}) or raises when the library rejects the input.
    Returns ('value', {"ext": "py", "run": [...], "program": text}).
    """
    import textwrap  # here: a worker's measured calls run without modules they do not use
    expect = request['expect']
    wants = ('accepted' if expect['outcome'] == 'accepted'
             else 'rejected, ' + expect['message'])
    lines = [
        '#!/usr/bin/python3',
        '"""%s on %s: a reproducer written by serdiff (serdiff repro --upstream).' % (
            library, request['target']),
        '',
        'It calls the library directly, without serdiff, on this input:',
        '  ' + _doc_line(request['shown']),
        'What the spec requires (%s): %s' % (request['spec'], _doc_line(wants)),
        'Exit status: 1 while the library answers otherwise, 0 once it agrees, 2 when it is not',
        'installed.',
        '"""',
        'import json',
        'import sys',
        '',
        'try:',
        textwrap.indent(prelude.strip('\n'), '    '),
        'except ImportError as e:  # exit 2: the library is not here, so nothing was reproduced',
        "    print('the library is not installed for this python3: %s' % e)",
        '    sys.exit(2)',
        '',
        'LIBRARY = %r' % (library,),
        'SPEC = %r' % (request['spec'],),
        'INPUT = json.loads(%r)' % (json.dumps(request['input']),),
        'EXPECT = json.loads(%r)' % (json.dumps(expect),),
        '',
        '',
        call.strip('\n'),
    ]
    program = '\n'.join(lines) + '\n' + _UPSTREAM_JUDGE
    return ('value', {'ext': 'py', 'run': ['/usr/bin/python3', '{file}'], 'program': program})


DEFAULT_PEAK = ('tracemalloc peak of the call, bytes of Python objects; memory a C extension '
                'takes with plain malloc is not seen')


def serve(*, name, ops=None, peak=None, declined=None, frame_limit=MAX_FRAME, rehearse=False,
          library=None):
    """Sends the hello and answers requests until stdin ends; never returns.

    Keyword arguments only, as the Node library's serve({name, ops, peak, declined,
    frameLimit}). name: the implementation's name ([a-z0-9_]+, as in the manifest). ops: {op
    name: callable or Op}. peak: one sentence saying how the peak is measured (the hello's
    "peak"; DEFAULT_PEAK when not given). declined: a reason, when the worker cannot run (its
    package is missing); ops are then ignored. frame_limit: the longest frame taken or sent,
    256 MiB; lower only in tests. rehearse: run each call once unmeasured before the measured
    call (the same prepared input; its result or exception is dropped), so that what the runtime
    builds on a path's first use is not charged to the input that happens to take it first: the
    peak is then a function of the input, the same in a fresh worker and after a thousand other
    calls (docs/workers.md, "A peak that depends on the input only"); costs one more run per call.
    A request over REHEARSE_MAX_REQUEST (256 KiB) is not rehearsed: its own allocations dwarf a
    path's first-use costs, and the slowest calls would double. library: the library's name and
    the version found at run time ("cassandra-driver 3.25.0"), the hello's "library", which
    serdiff prints beside the worker's calls.
    """
    if type(name) is not str or not name:
        raise TypeError('serve: name must be a non-empty string')
    ops = {} if declined is not None or ops is None else dict(ops)
    for op_name, op in ops.items():
        if type(op_name) is not str or not (type(op) is Op or callable(op)):
            raise TypeError('serve: op %r is neither a callable nor an Op' % (op_name,))
    if type(frame_limit) is not int or not 0 < frame_limit <= MAX_FRAME:
        raise ValueError('serve: frame_limit must be in 1..%d' % MAX_FRAME)
    if declined is not None:
        declined = str(declined)
    stdin = sys.stdin.buffer
    try:
        out = _frames_out()
    except OSError:
        out = sys.stdout.buffer
    continuous = os.environ.get('SERDIFF_WORKER_TRACEMALLOC') == 'continuous'
    status = EXIT_EOF
    try:
        _serve(name, ops, DEFAULT_PEAK if peak is None else str(peak), declined, stdin, out,
               frame_limit, continuous, bool(rehearse), None if library is None else str(library))
    except ProtocolError as e:
        sys.stderr.write('%s worker: protocol error: %s\n' % (name, e))
        status = EXIT_PROTOCOL
    except _WorkerBug as e:
        sys.stderr.write('%s worker: bug in the worker: %s\n' % (name, e))
        status = EXIT_WORKER_BUG
    except BrokenPipeError:
        status = EXIT_EOF  # serdiff closed our stdout: it no longer listens
    except OSError as e:
        sys.stderr.write('%s worker: cannot write its answers: %s\n' % (name, e))
        status = EXIT_WORKER_BUG
    except KeyboardInterrupt:
        status = 130
    try:
        sys.stderr.flush()
    finally:
        os._exit(status)
