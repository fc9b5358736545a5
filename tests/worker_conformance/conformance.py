#!/usr/bin/python3
"""The worker library conformance suite (docs/workers.md, "The worker library contract").

    conformance.py [--only PREFIX] [--needs PROGRAM] COMMAND [ARG...]

Starts COMMAND, a conformance worker (conformance_worker.py, conformance_worker.js, or one for a
later language with the same name, ops and behaviour), once per check (the checks that are one
request and its answer first share one worker; see SHAREABLE), talks to it over the
framed protocol (a 4-byte big-endian length, then UTF-8 JSON, both ways) and compares what it
answers, how it ends and what it writes on stderr with the contract's exact expectations. Each
check is named after the rule it covers; the doc's table names the same ones.

Prints one line per check ("pass <rule>" or "FAIL <rule>: <why>") and then "N passed, N
failed". Exit status: 0 when every check passed, 1 when one failed, 2 on a usage error, 77 when
COMMAND's program, or PROGRAM, is not installed (ctest counts that as skipped; --needs go for
the Go library, whose COMMAND is the script workers/go/run). Standard library only.
"""
import json
import os
import re
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import time

TIMEOUT = 20.0
NAME = 'conformance'
PEAK_TEXT = 'conformance: the library measures the peak in its own way'
OPS = ['echo.hex', 'echo.value', 'reject', 'decline', 'throw', 'prepare.throw', 'prepare.reject',
       'prepare.decline', 'finish.throw', 'finish.reject', 'staged', 'value.nan', 'bad.result',
       'print', 'exit', 'big', 'surrogate', 'count']
MAX_FRAME = 256 << 20
MAX_ID = (1 << 53) - 1
PROTOCOL_LINE = NAME + ' worker: protocol error: '
BUG_LINE = NAME + ' worker: bug in the worker: '


class Failure(Exception):
    pass


class Peak:
    """Stands for the answer's "peak": a non-negative integer."""

    def __repr__(self):
        return '<a peak: an integer >= 0>'


class Prefix(str):
    """Stands for a string that starts with this text (the rest is the runtime's own words)."""

    def __repr__(self):
        return '<text starting %s>' % str.__repr__(self)


PEAK = Peak()


def frame(body):
    if not isinstance(body, bytes):
        body = json.dumps(body, separators=(',', ':')).encode('utf-8')
    return struct.pack('>I', len(body)) + body


def request(rid, op, inp):
    return frame({'id': rid, 'op': op, 'input': inp})


class Worker:
    """One worker process: stdin and stdout pipes, stderr to a file read at the end."""

    def __init__(self, cmd, env=None):
        self.err = tempfile.TemporaryFile()
        full_env = dict(os.environ)
        full_env.update(env or {})
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.err, env=full_env)
        self.fd = self.proc.stdout.fileno()
        self.pending = b''
        self.ended = False
        self.last_length = None  # the body length of the last frame read

    def write(self, data):
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # the worker already ended; how it ended is checked next

    def close(self):
        try:
            self.proc.stdin.close()
        except (BrokenPipeError, OSError):
            pass

    def _fill(self, n, deadline):
        while len(self.pending) < n and not self.ended:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure('no frame within %.0f s' % TIMEOUT)
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                chunk = os.read(self.fd, 1 << 20)
                if chunk:
                    self.pending += chunk
                else:
                    self.ended = True

    def read(self):
        """The next frame's object; None when stdout ended at a frame boundary."""
        deadline = time.monotonic() + TIMEOUT
        self._fill(4, deadline)
        if not self.pending and self.ended:
            return None
        if len(self.pending) < 4:
            raise Failure('stdout ended inside a frame length')
        (n,) = struct.unpack('>I', self.pending[:4])
        if n > MAX_FRAME:
            raise Failure('a frame of %d bytes from the worker' % n)
        self._fill(4 + n, deadline)
        if len(self.pending) < 4 + n:
            raise Failure('stdout ended inside a frame of %d bytes' % n)
        body, self.pending = self.pending[4:4 + n], self.pending[4 + n:]
        self.last_length = n
        try:
            obj = json.loads(body.decode('utf-8'))
        except ValueError as e:
            raise Failure('the worker sent a frame that is not UTF-8 JSON: %s' % e) from None
        if type(obj) is not dict:
            raise Failure('the worker sent a frame that is not a JSON object: %r' % (obj,))
        return obj

    def wait(self):
        """(exit status, stderr text); a signal is a negative status."""
        try:
            self.proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise Failure('the worker did not end within %.0f s' % TIMEOUT) from None
        self.err.seek(0)
        return self.proc.returncode, self.err.read().decode('utf-8', 'replace')

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.err.close()


def same(got, want):
    if isinstance(want, Peak):
        return type(got) is int and got >= 0
    if isinstance(want, Prefix):
        return type(got) is str and got.startswith(want)
    if isinstance(want, dict):
        return (type(got) is dict and set(got) == set(want)
                and all(same(got[k], want[k]) for k in want))
    if isinstance(want, list):
        return type(got) is list and len(got) == len(want) and all(map(same, got, want))
    return type(got) is type(want) and got == want


def expect(got, want, what='answer'):
    if not same(got, want):
        raise Failure('%s %s, want %r' % (what, json.dumps(got, ensure_ascii=False), want))


class Command:
    """The worker's command line and the extra environment of one check."""

    def __init__(self, argv, env):
        self.argv = list(argv)
        self.env = env or {}


STARTED = []  # every worker a check started; each is killed (if still running) after the check


def start(cmd, hello=True):
    """Starts the worker; reads and checks the hello unless hello is False."""
    w = Worker(cmd.argv, cmd.env)
    STARTED.append(w)
    if hello:
        h = w.read()
        if h is None or h.get('serdiff_worker') != 1:
            raise Failure('no version-1 hello: %r' % (h,))
    return w


def expect_end(w, status, stderr):
    """No further frame; the status; stderr: '' (empty), a line prefix, or None (not checked)."""
    extra = w.read()
    if extra is not None:
        raise Failure('a frame where the worker should have ended: %s' % json.dumps(extra))
    got_status, err = w.wait()
    if got_status != status:
        raise Failure('exit status %s, want %d (stderr: %r)' % (got_status, status, err[-300:]))
    if stderr == '':
        if err:
            raise Failure('stderr %r, want nothing' % err[-300:])
    elif stderr is not None:
        lines = err.splitlines()
        if len(lines) != 1 or not lines[0].startswith(stderr):
            raise Failure('stderr %r, want one line starting %r' % (err[-300:], stderr))


CHECKS = []
# Checks that are one request and its answer on a worker of the default environment, which then
# ends with status 0 and nothing on stderr: rule -> (request bytes, the answer wanted). main()
# first sends them all to one worker; when every answer and the end are as wanted, each of them
# passed; otherwise each runs again on a worker of its own and that run is its verdict (the
# same as without the shared run). A healthy library then starts 28 workers fewer.
SHAREABLE = {}


def check(rule, env=None):
    """Registers a check; env: extra environment for the conformance worker."""
    def add(fn):
        CHECKS.append((rule, env, fn))
        return fn
    return add


def shared_run(cmd, rules):
    """Sends the shareable checks' requests to one worker: True when all passed as a whole."""
    try:
        w = start(cmd)
        for rule in rules:
            data, want = SHAREABLE[rule]
            w.write(data)
            expect(w.read(), want)
        w.close()
        expect_end(w, 0, '')
    except Failure:
        return False
    finally:
        while STARTED:
            STARTED.pop().kill()
    return True


# ---- the hello --------------------------------------------------------------------------------

@check('hello.ops')
def _(cmd):
    w = start(cmd, hello=False)
    expect(w.read(), {'serdiff_worker': 1, 'name': NAME, 'ops': OPS, 'peak': PEAK_TEXT}, 'hello')
    w.close()
    expect_end(w, 0, '')


NAMED = {'SERDIFF_CONFORMANCE_NAMES_LIBRARY': 'conformance-lib 1.2.3'}


@check('hello.library', env=NAMED)
def _(cmd):
    w = start(cmd, hello=False)
    expect(w.read(), {'serdiff_worker': 1, 'name': NAME, 'ops': OPS, 'peak': PEAK_TEXT,
                      'library': NAMED['SERDIFF_CONFORMANCE_NAMES_LIBRARY']}, 'hello')
    w.close()
    expect_end(w, 0, '')


DECLINED = {'SERDIFF_CONFORMANCE_DECLINED': 'conformance: its package is not installed'}


@check('hello.declined', env=DECLINED)
def _(cmd):
    w = start(cmd, hello=False)
    expect(w.read(), {'serdiff_worker': 1, 'name': NAME,
                      'declined': DECLINED['SERDIFF_CONFORMANCE_DECLINED']}, 'hello')
    w.close()
    expect_end(w, 0, '')


@check('declined.answers', env=DECLINED)
def _(cmd):
    w = start(cmd)
    reason = DECLINED['SERDIFF_CONFORMANCE_DECLINED']
    for rid, op in ((1, 'echo.hex'), (2, 'no.such_op'), (3, 'throw')):
        w.write(request(rid, op, {'hex': '01', 'message': 'x'}))
        expect(w.read(), {'id': rid, 'ok': False, 'error': 'declined', 'message': reason})
    w.close()
    expect_end(w, 0, '')


@check('declined.malformed', env=DECLINED)
def _(cmd):
    w = start(cmd)
    w.write(frame({'id': 1, 'op': 'echo.hex'}))
    expect_end(w, 2, PROTOCOL_LINE)


# ---- answers, one request each ----------------------------------------------------------------

def answer_check(rule, op, inp, want):
    """A check that sends one request (id 5) and compares the answer; then EOF ends it with 0."""
    SHAREABLE[rule] = (request(5, op, inp), dict(want, id=5))

    @check(rule)
    def _(cmd):
        w = start(cmd)
        w.write(request(5, op, inp))
        expect(w.read(), dict(want, id=5))
        w.close()
        expect_end(w, 0, '')


REJECTED = {'ok': False, 'error': 'rejected'}
DECLINED_ANSWER = {'ok': False, 'error': 'declined'}

answer_check('answer.hex', 'echo.hex', {'hex': 'CAFE00ff'},
             {'ok': True, 'hex': 'cafe00ff', 'peak': PEAK})
answer_check('answer.hex-empty', 'echo.hex', {'hex': ''}, {'ok': True, 'hex': '', 'peak': PEAK})
VALUE = {'a': [1, -2.5, 'x', None, True, False, {'b': []}], 's': 'h\u00e9llo \u2028 \U0001f600',
         'n': '-9223372036854775808', 'e': {}}
answer_check('answer.value', 'echo.value', {'value': VALUE},
             {'ok': True, 'value': VALUE, 'peak': PEAK})
answer_check('answer.rejected', 'reject', {'message': 'bad byte', 'offset': 12},
             dict(REJECTED, message='bad byte', offset=12, peak=PEAK))
answer_check('answer.rejected-no-offset', 'reject', {'message': 'bad byte'},
             dict(REJECTED, message='bad byte', peak=PEAK))
answer_check('answer.rejected-negative-offset', 'reject', {'message': 'bad byte', 'offset': -1},
             dict(REJECTED, message='bad byte', peak=PEAK))
answer_check('answer.declined', 'decline', {'message': 'no such type'},
             dict(DECLINED_ANSWER, message='no such type'))
answer_check('throw.rejected', 'throw', {'message': 'unsupported operand'},
             dict(REJECTED, message='TypeError: unsupported operand', peak=PEAK))
answer_check('throw.rejected-no-text', 'throw', {'message': ''},
             dict(REJECTED, message='TypeError', peak=PEAK))
answer_check('prepare.throw', 'prepare.throw', {'message': 'no such form'},
             dict(DECLINED_ANSWER, message='input not taken: TypeError: no such form'))
answer_check('prepare.reject', 'prepare.reject', {'message': 'refused early', 'offset': 3},
             dict(REJECTED, message='refused early', offset=3))
answer_check('prepare.decline', 'prepare.decline', {'message': 'a type it lacks'},
             dict(DECLINED_ANSWER, message='a type it lacks'))
answer_check('finish.throw', 'finish.throw', {'message': 'cannot show it'},
             dict(DECLINED_ANSWER, message='result not presentable: TypeError: cannot show it'))
answer_check('finish.reject', 'finish.reject', {'message': 'refused late', 'offset': 0},
             dict(REJECTED, message='refused late', offset=0, peak=PEAK))
answer_check('staged.order', 'staged', {'hex': '0102ab'},
             {'ok': True, 'value': {'reversed': 'ab0201', 'steps': ['prepare', 'run', 'finish']},
              'peak': PEAK})
answer_check('value.not-json', 'value.nan', {},
             dict(DECLINED_ANSWER, message=Prefix('result not presentable: ')))
# A lone surrogate has no UTF-8 form, and serdiff's JSON reader refuses its escape: a message
# carries U+FFFD in its place, a value or key holding one is declined as not presentable.
answer_check('answer.message-lone-surrogate', 'surrogate', {'where': 'message'},
             dict(REJECTED, message='option [\ufffd]', peak=PEAK))
answer_check('value.lone-surrogate', 'surrogate', {'where': 'value'},
             dict(DECLINED_ANSWER, message=Prefix('result not presentable: ')))
answer_check('value.lone-surrogate-key', 'surrogate', {'where': 'key'},
             dict(DECLINED_ANSWER, message=Prefix('result not presentable: ')))
# rehearse (the shipped workers' serve option): off by default, each op's run runs once a
# request; on, once unmeasured before the measured run, so the measured answer counts 2, 4, ...
# (The one shareable check that sends 'count', whose answer counts the runs in its worker.)
answer_check('rehearse.off', 'count', {}, {'ok': True, 'value': {'runs': 1}, 'peak': PEAK})


@check('rehearse.on', env={'SERDIFF_CONFORMANCE_REHEARSE': '1'})
def _(cmd):
    w = start(cmd)
    for rid in (1, 2):
        w.write(request(rid, 'count', {}))
        expect(w.read(), {'id': rid, 'ok': True, 'value': {'runs': 2 * rid}, 'peak': PEAK})
    w.close()
    expect_end(w, 0, '')


# "peak": false (serdiff does not need this call's peak, docs/workers.md): the op's run runs once,
# not rehearsed, and the answer carries no "peak"; any other value of "peak" is a request for it.
@check('peak.not-asked', env={'SERDIFF_CONFORMANCE_REHEARSE': '1'})
def _(cmd):
    w = start(cmd)
    w.write(frame({'id': 1, 'op': 'count', 'input': {}, 'peak': False}))
    expect(w.read(), {'id': 1, 'ok': True, 'value': {'runs': 1}})
    w.write(frame({'id': 2, 'op': 'count', 'input': {}, 'peak': 0}))
    expect(w.read(), {'id': 2, 'ok': True, 'value': {'runs': 3}, 'peak': PEAK})
    w.write(frame({'id': 3, 'op': 'reject', 'input': {'message': 'bad byte', 'offset': 1},
                   'peak': False}))
    expect(w.read(), dict(REJECTED, id=3, message='bad byte', offset=1))
    w.close()
    expect_end(w, 0, '')


answer_check('op.unknown', 'no.such_op', {},
             dict(DECLINED_ANSWER, message='conformance does not answer op "no.such_op"'))


def timed_check(rule, op, inp, time_field, want, batch=None):
    """A check that sends one request (id 5) with "time": time_field (and "batch": batch unless
    None) and compares the answer."""
    req = {'id': 5, 'op': op, 'input': inp, 'time': time_field}
    if batch is not None:
        req['batch'] = batch
    SHAREABLE[rule] = (frame(req), dict(want, id=5))

    @check(rule)
    def _(cmd):
        w = start(cmd)
        w.write(frame(req))
        expect(w.read(), dict(want, id=5))
        w.close()
        expect_end(w, 0, '')


timed_check('timed.accepted', 'echo.hex', {'hex': '01'}, 3,
            {'ok': True, 'hex': '01', 'peak': PEAK, 'ns': [PEAK, PEAK, PEAK]})
timed_check('timed.staged', 'staged', {'hex': '0102'}, 2,
            {'ok': True, 'value': {'reversed': '0201', 'steps': ['prepare', 'run', 'finish']},
             'peak': PEAK, 'ns': [PEAK, PEAK]})
timed_check('timed.rejected', 'reject', {'message': 'bad byte'}, 3,
            dict(REJECTED, message='bad byte', peak=PEAK))
timed_check('timed.declined', 'decline', {'message': 'no such type'}, 3,
            dict(DECLINED_ANSWER, message='no such type'))
for _rule, _time in (('timed.zero', 0), ('timed.over', 100001), ('timed.text', '3'),
                     ('timed.fraction', 1.5)):
    timed_check(_rule, 'echo.hex', {'hex': '01'}, _time, {'ok': True, 'hex': '01', 'peak': PEAK})
# "batch": B (2..1000000) makes each of the N timings one of B calls, and the answer says so;
# anything else is one call a timing, and the answer has no "batch". The count op's answer
# shows how many runs there were (timed.batch_runs): 1 for the answer, then time x batch.
timed_check('timed.batch', 'echo.hex', {'hex': '01'}, 3,
            {'ok': True, 'hex': '01', 'peak': PEAK, 'ns': [PEAK, PEAK, PEAK], 'batch': 4}, batch=4)
for _rule, _batch in (('timed.batch_one', 1), ('timed.batch_over', 1000001),
                      ('timed.batch_text', '4'), ('timed.batch_fraction', 2.5)):
    timed_check(_rule, 'echo.hex', {'hex': '01'}, 2,
                {'ok': True, 'hex': '01', 'peak': PEAK, 'ns': [PEAK, PEAK]}, batch=_batch)


@check('timed.batch_runs')
def _(cmd):
    w = start(cmd)
    w.write(frame({'id': 1, 'op': 'count', 'input': {}, 'time': 3, 'batch': 4}))
    expect(w.read(), {'id': 1, 'ok': True, 'value': {'runs': 1}, 'peak': PEAK,
                      'ns': [PEAK, PEAK, PEAK], 'batch': 4})
    w.write(request(2, 'count', {}))  # 1 + 3 x 4 runs before it
    expect(w.read(), {'id': 2, 'ok': True, 'value': {'runs': 14}, 'peak': PEAK})
    w.close()
    expect_end(w, 0, '')


@check('id.range')
def _(cmd):
    w = start(cmd)
    for rid in (0, MAX_ID):
        w.write(request(rid, 'echo.hex', {'hex': '01'}))
        expect(w.read(), {'id': rid, 'ok': True, 'hex': '01', 'peak': PEAK})
    w.close()
    expect_end(w, 0, '')


@check('order.pipelined')
def _(cmd):
    w = start(cmd)
    w.write(request(1, 'echo.hex', {'hex': 'aa'}) + request(2, 'reject', {'message': 'no'})
            + request(3, 'staged', {'hex': 'bb'}) + request(4, 'no.such_op', {}))
    expect(w.read(), {'id': 1, 'ok': True, 'hex': 'aa', 'peak': PEAK})
    expect(w.read(), dict(REJECTED, id=2, message='no', peak=PEAK))
    expect(w.read(), {'id': 3, 'ok': True, 'peak': PEAK,
                      'value': {'reversed': 'bb', 'steps': ['prepare', 'run', 'finish']}})
    expect(w.read(), dict(DECLINED_ANSWER, id=4,
                          message='conformance does not answer op "no.such_op"'))
    w.close()
    expect_end(w, 0, '')


@check('stdout.to-stderr')
def _(cmd):
    w = start(cmd)
    w.write(request(1, 'print', {}) + request(2, 'echo.hex', {'hex': '02'}))
    expect(w.read(), {'id': 1, 'ok': True, 'hex': '', 'peak': PEAK})
    expect(w.read(), {'id': 2, 'ok': True, 'hex': '02', 'peak': PEAK})
    w.close()
    expect_end(w, 0, 'conformance: printed to stdout')


@check('eof.clean')
def _(cmd):
    w = start(cmd)
    w.close()
    expect_end(w, 0, '')


# ---- how a worker ends ------------------------------------------------------------------------

def malformed_check(rule, data, close=False):
    """A valid request, then data in the same write: the request is answered, then status 2."""
    @check(rule)
    def _(cmd):
        w = start(cmd)
        w.write(request(1, 'echo.hex', {'hex': '01'}) + data)
        if close:
            w.close()
        expect(w.read(), {'id': 1, 'ok': True, 'hex': '01', 'peak': PEAK})
        expect_end(w, 2, PROTOCOL_LINE)


malformed_check('malformed.length-over-limit', struct.pack('>I', MAX_FRAME + 1))
malformed_check('malformed.length-cut-short', b'\x00\x00', close=True)
malformed_check('malformed.body-cut-short', struct.pack('>I', 100) + b'{"id"', close=True)
malformed_check('malformed.empty-frame', frame(b''))
malformed_check('malformed.not-utf8', frame(b'{"id":2,"op":"\xff","input":{}}'))
malformed_check('malformed.bom',
                frame(b'\xef\xbb\xbf{"id":2,"op":"echo.hex","input":{"hex":""}}'))
malformed_check('malformed.not-json', frame(b'{"id": 2, "op": '))
malformed_check('malformed.nan-literal',
                frame(b'{"id":2,"op":"echo.value","input":{"value":NaN}}'))
malformed_check('malformed.not-object', frame(b'[2, "echo.hex"]'))
# One object, then more: a reader that stops at the object's end would take the frame.
malformed_check('malformed.data-after-object',
                frame(b'{"id":2,"op":"echo.hex","input":{"hex":""}} 7'))
malformed_check('malformed.second-object',
                frame(b'{"id":2,"op":"echo.hex","input":{"hex":""}}{"id":3}'))
malformed_check('malformed.null', frame(b'null'))
OK_INPUT = {'hex': ''}


# JSON's whitespace around the object, and keys in another order, change nothing.
@check('request.whitespace')
def _(cmd):
    w = start(cmd)
    w.write(frame(b' \n\t{"input" : {"hex":"02"}, "op":"echo.hex",\r\n"id":1}\n ')
            + request(2, 'echo.hex', {'hex': '03'}))
    expect(w.read(), {'id': 1, 'ok': True, 'hex': '02', 'peak': PEAK})
    expect(w.read(), {'id': 2, 'ok': True, 'hex': '03', 'peak': PEAK})
    w.close()
    expect_end(w, 0, '')
malformed_check('request.no-id', frame({'op': 'echo.hex', 'input': OK_INPUT}))
malformed_check('request.id-string', frame({'id': '2', 'op': 'echo.hex', 'input': OK_INPUT}))
malformed_check('request.id-fraction', frame({'id': 1.5, 'op': 'echo.hex', 'input': OK_INPUT}))
malformed_check('request.id-negative', frame({'id': -1, 'op': 'echo.hex', 'input': OK_INPUT}))
malformed_check('request.id-too-large',
                frame({'id': MAX_ID + 1, 'op': 'echo.hex', 'input': OK_INPUT}))
malformed_check('request.id-bool', frame({'id': True, 'op': 'echo.hex', 'input': OK_INPUT}))
malformed_check('request.no-op', frame({'id': 2, 'input': OK_INPUT}))
malformed_check('request.op-not-string', frame({'id': 2, 'op': 7, 'input': OK_INPUT}))
malformed_check('request.no-input', frame({'id': 2, 'op': 'echo.hex'}))
malformed_check('request.input-not-object', frame({'id': 2, 'op': 'echo.hex', 'input': ['']}))
malformed_check('request.input-null', frame({'id': 2, 'op': 'echo.hex', 'input': None}))


@check('result.bad-shape')
def _(cmd):
    w = start(cmd)
    w.write(request(1, 'echo.hex', {'hex': '01'}) + request(2, 'bad.result', {}))
    expect(w.read(), {'id': 1, 'ok': True, 'hex': '01', 'peak': PEAK})
    expect_end(w, 4, BUG_LINE)


@check('exit.passes-through')
def _(cmd):
    w = start(cmd)
    w.write(request(1, 'echo.hex', {'hex': '01'}) + request(2, 'exit', {}))
    expect(w.read(), {'id': 1, 'ok': True, 'hex': '01', 'peak': PEAK})
    expect_end(w, 7, '')


SMALL_LIMIT = {'SERDIFF_CONFORMANCE_FRAME_LIMIT': '4096'}


@check('frame-limit.answer', env=SMALL_LIMIT)
def _(cmd):
    w = start(cmd)
    w.write(request(1, 'big', {'size': 2000}) + request(2, 'big', {'size': 3000}))
    got = w.read()
    expect(got, {'id': 1, 'ok': True, 'hex': '00' * 2000, 'peak': PEAK})
    got = w.read()
    expect(got, dict(DECLINED_ANSWER, id=2, message=Prefix('the answer of ')))
    m = re.fullmatch(r'the answer of ([0-9]+) bytes is over the frame limit of 4096 bytes',
                     got['message'])
    if not m or int(m.group(1)) <= 4096:
        raise Failure('message %r, want "the answer of N bytes is over the frame limit of 4096 '
                      'bytes", N > 4096' % got['message'])
    w.close()
    expect_end(w, 0, '')


@check('frame-limit.request', env=SMALL_LIMIT)
def _(cmd):
    w = start(cmd)
    w.write(request(1, 'echo.hex', {'hex': '01'}) + request(2, 'echo.hex', {'hex': '00' * 2100}))
    expect(w.read(), {'id': 1, 'ok': True, 'hex': '01', 'peak': PEAK})
    expect_end(w, 2, PROTOCOL_LINE)



# The limit held at its value: a request of exactly the limit is taken, one byte more is a
# protocol error (the same request padded with JSON whitespace, which changes nothing else).
@check('frame-limit.request-edge', env=SMALL_LIMIT)
def _(cmd):
    def body(rid, length):
        b = json.dumps({'id': rid, 'op': 'echo.hex', 'input': {'hex': '01'}},
                       separators=(',', ':')).encode('utf-8')
        return b + b' ' * (length - len(b))
    w = start(cmd)
    w.write(frame(body(1, 4096)) + frame(body(2, 4097)))
    expect(w.read(), {'id': 1, 'ok': True, 'hex': '01', 'peak': PEAK})
    expect_end(w, 2, PROTOCOL_LINE + 'a frame of 4097 bytes (limit 4096)')


# An answer of exactly the limit is sent, one of a byte more is declined. The library writes
# the answer (its JSON spacing and the peak are its own), so the sizes are swept: n zero bytes
# for n around 2,030 with ids of one and two digits make answers of every length from about
# 4,070 to 4,130; each accepted one must be at most 4,096 bytes long, each declined one must
# say it was over 4,096, and the sweep must meet both edges (4,096 sent, 4,097 declined).
@check('frame-limit.answer-edge', env=SMALL_LIMIT)
def _(cmd):
    sent_at_limit = declined_one_over = False
    for _sweep in range(3):
        w = start(cmd)
        for size in range(2010, 2060):
            for rid in (1, 10):
                w.write(request(rid, 'big', {'size': size}))
                got = w.read()
                if got is None:
                    raise Failure('the worker ended on big {"size": %d}' % size)
                if got.get('ok') is True:
                    if w.last_length > 4096:
                        raise Failure('an answer of %d bytes was sent over a limit of 4096'
                                      % w.last_length)
                    sent_at_limit |= w.last_length == 4096
                    continue
                expect(got, dict(DECLINED_ANSWER, id=rid, message=Prefix('the answer of ')))
                m = re.fullmatch(r'the answer of ([0-9]+) bytes is over the frame limit of '
                                 r'4096 bytes', got['message'])
                if not m or int(m.group(1)) <= 4096:
                    raise Failure('declined with %r: an answer is declined only over 4096 bytes'
                                  % got['message'])
                declined_one_over |= int(m.group(1)) == 4097
        w.close()
        expect_end(w, 0, '')
        if sent_at_limit and declined_one_over:
            return
    raise Failure('the sweep never met the edge (an answer of exactly 4096 bytes sent: %s; one '
                  'of 4097 declined: %s)' % (sent_at_limit, declined_one_over))

def main(argv):
    only = None
    needs = []
    while argv and argv[0].startswith('-'):
        if argv[0] == '--':
            argv = argv[1:]
            break
        if argv[0] == '--only' and len(argv) > 1:
            only, argv = argv[1], argv[2:]
        elif argv[0] == '--needs' and len(argv) > 1:
            needs, argv = needs + [argv[1]], argv[2:]
        elif argv[0] in ('-h', '--help'):
            print(__doc__.strip())
            return 0
        else:
            sys.stderr.write('conformance.py: unknown option %s (--help)\n' % argv[0])
            return 2
    if not argv:
        sys.stderr.write('usage: conformance.py [--only PREFIX] COMMAND [ARG...]\n')
        return 2
    missing = [p for p in [argv[0]] + needs if shutil.which(p) is None]
    if missing:
        print('skipped: %s is not installed' % missing[0])
        print('0 passed, 0 failed')
        return 77
    passed = failed = 0
    shared = [rule for rule, env, _ in CHECKS
              if rule in SHAREABLE and env is None and not (only and not rule.startswith(only))]
    all_shared_passed = len(shared) > 1 and shared_run(Command(argv, None), shared)
    for rule, env, fn in CHECKS:
        if only and not rule.startswith(only):
            continue
        if all_shared_passed and rule in shared:
            passed += 1
            print('pass %s' % rule, flush=True)
            continue
        try:
            fn(Command(argv, env))
        except Failure as e:
            failed += 1
            # A lone surrogate in what a worker sent is shown as its escape, not a crash.
            text = str(e).encode('utf-8', 'backslashreplace').decode('utf-8')
            print('FAIL %s: %s' % (rule, text), flush=True)
        else:
            passed += 1
            print('pass %s' % rule, flush=True)
        finally:
            while STARTED:
                STARTED.pop().kill()
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed or not passed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
