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

    sw.serve('my_impl', {'int64.to_decimal': to_decimal},
             peak_text='tracemalloc peak of the call (bytes of Python objects)')

An op returns ('hex', bytes) or ('value', <JSON-able object>), raises Rejected(message,
offset=None) when the implementation rejects the input, or DeclinedOp(message) when it cannot
take it (not compared). Any other exception an op raises is answered as rejected with its type
and text (an implementation raising on an input is how a Python library says no).

An op may instead be Op(run, prepare=None, finish=None) to keep the conversion between the
interchange form and the library's own values out of the measured peak: prepare(input) ->
what run takes (not measured; its exceptions other than Rejected/DeclinedOp are answered as
declined: the input had no form the library takes); run(prepared) -> result (measured);
finish(result) -> ('hex', bytes) or ('value', obj) (not measured).

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

Process rules: EOF on stdin at a frame boundary ends the worker with status 0; a cut-short or
oversized frame, a body that is not one JSON object, or a request without "id"/"op"/"input"
ends it with status 2 and one line on stderr (serdiff restarts it). File descriptor 1 is kept
for the frames only: anything else the process writes to its stdout (print, a C library) goes
to stderr. A worker whose package is missing calls serve(name, {}, '', declined=reason): the
hello says declined, and every request is answered declined with that reason.

Run with Debian's /usr/bin/python3 (3.9 or later: tracemalloc.reset_peak).
"""

import json
import os
import struct
import sys
import tracemalloc

PROTOCOL_VERSION = 1
MAX_FRAME = 256 << 20  # 268,435,456 bytes: a longer frame is a protocol error

__all__ = ['PROTOCOL_VERSION', 'MAX_FRAME', 'Rejected', 'DeclinedOp', 'Op', 'serve',
           'read_frame', 'write_frame', 'ProtocolError']


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


class Op:
    """An op in three steps, so that only run() is inside the measured peak."""

    __slots__ = ('run', 'prepare', 'finish')

    def __init__(self, run, prepare=None, finish=None):
        self.run = run
        self.prepare = prepare
        self.finish = finish


_pack_len = struct.Struct('>I').pack
_unpack_len = struct.Struct('>I').unpack
_dumps = json.JSONEncoder(separators=(',', ':'), allow_nan=False).encode
_loads = json.loads


def read_frame(stream):
    """One frame's JSON object from a binary stream; None at EOF on a frame boundary."""
    head = stream.read(4)
    if not head:
        return None
    if len(head) < 4:
        raise ProtocolError('stream ended inside a frame length')
    (n,) = _unpack_len(head)
    if n > MAX_FRAME:
        raise ProtocolError('a frame of %d bytes (limit %d)' % (n, MAX_FRAME))
    body = stream.read(n)
    if len(body) < n:
        raise ProtocolError('stream ended inside a frame (%d of %d bytes)' % (len(body), n))
    try:
        obj = _loads(body.decode('utf-8'))
    except (ValueError, UnicodeDecodeError) as e:
        raise ProtocolError('a frame that is not UTF-8 JSON: %s' % e) from None
    if type(obj) is not dict:
        raise ProtocolError('a frame that is not one JSON object')
    return obj


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
    text = str(e)
    return '%s: %s' % (type(e).__name__, text) if text else type(e).__name__


def _serve(name, ops, peak_text, declined, stdin, out, continuous=False):
    if declined is not None:
        write_frame(out, {'serdiff_worker': PROTOCOL_VERSION, 'name': name,
                          'declined': declined})
    else:
        write_frame(out, {'serdiff_worker': PROTOCOL_VERSION, 'name': name,
                          'ops': list(ops), 'peak': peak_text})
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
        req = read_frame(stdin)
        if req is None:
            return
        try:
            rid = req['id']
            op_name = req['op']
            inp = req['input']
        except KeyError as e:
            raise ProtocolError('a request without %s' % e) from None
        if declined is not None:
            write_frame(out, {'id': rid, 'ok': False, 'error': 'declined', 'message': declined})
            continue
        op = lookup(op_name) if type(op_name) is str else None
        if op is None:
            write_frame(out, {'id': rid, 'ok': False, 'error': 'declined',
                              'message': 'op %s not supported' % (op_name,)})
            continue
        peak = None
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
                base = begin()
                try:
                    result = op.run(arg)
                finally:
                    peak = end(base)
                if op.finish is not None:
                    try:
                        result = op.finish(result)
                    except (Rejected, DeclinedOp):
                        raise
                    except Exception as e:  # an accepted result the worker cannot present
                        raise DeclinedOp('result not presentable: %s' % _error_text(e)) from None
            else:
                base = begin()
                try:
                    result = op(inp)
                finally:
                    peak = end(base)
            kind, data = result
            if peak < 0:
                peak = 0
            if kind == 'hex':
                answer = {'id': rid, 'ok': True, 'hex': bytes(data).hex(), 'peak': peak}
            elif kind == 'value':
                answer = {'id': rid, 'ok': True, 'value': data, 'peak': peak}
            else:
                raise TypeError('an op returned %r, not hex or value' % (kind,))
        except DeclinedOp as e:
            answer = {'id': rid, 'ok': False, 'error': 'declined', 'message': e.message}
        except Rejected as e:
            answer = {'id': rid, 'ok': False, 'error': 'rejected', 'message': e.message}
            if e.offset is not None:
                answer['offset'] = int(e.offset)
            if peak is not None:
                answer['peak'] = max(peak, 0)
        except Exception as e:
            answer = {'id': rid, 'ok': False, 'error': 'rejected', 'message': _error_text(e)}
            if peak is not None:
                answer['peak'] = max(peak, 0)
        try:
            body = _dumps(answer).encode('utf-8')
        except (TypeError, ValueError, UnicodeError) as e:  # a value JSON cannot carry
            body = _dumps({'id': rid, 'ok': False, 'error': 'declined',
                           'message': 'result not presentable: %s' % _error_text(e)}
                          ).encode('utf-8')
        if len(body) > MAX_FRAME:  # serdiff would take it for a protocol error
            body = _dumps({'id': rid, 'ok': False, 'error': 'declined',
                           'message': 'an answer of %d bytes is over the frame limit of %d'
                                      % (len(body), MAX_FRAME)}).encode('utf-8')
        out.write(_pack_len(len(body)) + body)
        out.flush()


def serve(name, ops, peak_text, declined=None):
    """Sends the hello and answers requests until stdin ends; never returns.

    name: the implementation's name ([a-z0-9_]+, as in the manifest). ops: {op name: callable
    or Op}. peak_text: one sentence saying how the peak is measured (the hello's "peak").
    declined: a reason, when the worker cannot run (its package is missing).
    """
    stdin = sys.stdin.buffer
    try:
        out = _frames_out()
    except OSError:
        out = sys.stdout.buffer
    continuous = os.environ.get('SERDIFF_WORKER_TRACEMALLOC') == 'continuous'
    status = 0
    try:
        _serve(name, ops, peak_text, declined, stdin, out, continuous)
    except ProtocolError as e:
        sys.stderr.write('%s worker: protocol error: %s\n' % (name, e))
        status = 2
    except BrokenPipeError:
        status = 0  # serdiff closed our stdout: it no longer listens
    except KeyboardInterrupt:
        status = 130
    try:
        sys.stderr.flush()
    finally:
        os._exit(status)
