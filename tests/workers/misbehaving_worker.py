#!/usr/bin/python3
"""A worker for serdiff's own tests of failure isolation (tests/harness_workers_test.cc).

It answers "int64.to_decimal" correctly (str of the value), except that the input value picks a
misbehaviour, so that one test process can see each failure and then a normal answer:

  value 13   the process exits without answering (worker-crashed)
  value 14   it sleeps 60 s before answering (worker-timeout, under a short deadline)
  value 15   it answers a frame that is not JSON (worker-protocol)
  value 16   it answers a frame whose length is 2^31 (worker-protocol: over 256 MiB)
  value 38   it answers a frame length of 256 MiB + 1 (worker-protocol: one over the limit)
  value 39   it answers a frame length of exactly 256 MiB, 10 bytes of it, and exits (within the
             limit: the body cut short is worker-crashed, not worker-protocol)
  value 17   it answers with another id (worker-protocol)
  value 18   it answers the wrong digits (bytes-mismatch: the harness must catch a wrong peer)
  value 19   it declines the input
  value 20   it rejects the input with offset 3
  value 21   it kills itself with SIGKILL mid-call (worker-crashed)
  values 22 to 33, 40, 52, 53, 55 and 56 answer a frame that breaks one rule of the answer
             (docs/workers.md), each a worker-protocol verdict: MALFORMED below says which
  value 54   it answers {"value": "54"} (JSON, not hex) with its peak, 540
  values 34 to 37, asked to time its calls ("time": N): "ns" not a list (34), a list of N - 1
             (35), holding a negative number (36) or a fraction (37); any other value answers
             N timings of 1000 + the value ns (a worker without "time" support would send none)
  values 43 to 46 and "batch": B (timings of B calls each): any other value answers N timings
             of (1000 + the value) x B ns and echoes "batch": B; 43 echoes B + 1, 44 echoes B as
             text, 45 answers "batch": 2 whether asked or not, 46 ignores "batch" (N timings of
             1046 ns and no "batch": a worker that times each call alone)
  value 47   before answering normally, it appends a line to the file SERDIFF_TEST_MARK names
             (when set): "peak" or "no peak" (the request's "peak": false), so that a test can
             see each request arrive while serdiff is still busy with its own runs, and what it
             asked (tests/harness_worker_overlap_test.cc); asked for no peak, it answers none
  value 49   it sleeps 0.7 s, then answers normally (a worker slower than serdiff's own runs)
  value 50   it answers normally, then exits with status 0 (a worker that ends after an answer)
  value 51   it sleeps 0.9 s, then answers normally
  value 48   it answers "48" to the first such request a process receives, "84" to the second,
             and so on in turn (nondeterministic:misbehaving)
  value -1   it rejects the input at offset 1; -2 at offset 2; -3 without an offset; -4 it
             accepts "-4" (the tests' target rejects every negative value at offset 1)
With --declined it says in its hello that its package is missing. With --hello-version V its hello
says "serdiff_worker": V (V read as JSON: 2, 0, "1", ...). While the file
SERDIFF_TEST_NO_START names (when set) exists, it exits with status 3 before its hello (a worker
that fails to start).
Every answer reports a peak of value * 10 bytes.
With --planted it is a correct worker with one planted bug instead (tests/printed_commands_worker_test.sh):
every value is answered with its digits and a peak of 0, except 18, answered "81".
"""
import json
import os
import signal
import struct
import sys
import time


def write(obj_or_bytes):
    # Compact, as the worker libraries write: serdiff reads such an answer by its plain-answer
    # reader (harness/worker_frames.h) when it has that form, so the tests reach both readers.
    body = (obj_or_bytes if isinstance(obj_or_bytes, bytes)
            else json.dumps(obj_or_bytes, separators=(',', ':')).encode())
    try:
        sys.stdout.buffer.write(struct.pack('>I', len(body)) + body)
        sys.stdout.buffer.flush()
    except BrokenPipeError:  # serdiff stopped this process before reading the answer
        os._exit(0)


def read():
    head = sys.stdin.buffer.read(4)
    if len(head) < 4:
        return None
    (n,) = struct.unpack('>I', head)
    return json.loads(sys.stdin.buffer.read(n))


# One broken answer per rule of the answer that serdiff checks (harness/external.cc).
MALFORMED = {
    22: lambda rid: {'id': rid, 'hex': '3232'},                       # no "ok"
    23: lambda rid: {'id': rid, 'ok': 1, 'hex': '3233'},              # "ok" not a boolean
    24: lambda rid: {'id': rid, 'ok': False, 'error': 'oops'},        # "error" neither rejected nor declined
    25: lambda rid: {'id': rid, 'ok': True, 'hex': '323'},            # hex of odd length
    26: lambda rid: {'id': rid, 'ok': True, 'hex': '3g'},             # a non-hex character
    27: lambda rid: {'id': rid, 'ok': True, 'hex': 3237},             # hex not a string
    28: lambda rid: {'id': rid, 'ok': True},                          # neither hex nor value
    29: lambda rid: [rid, True, '3239'],                              # not one JSON object
    30: lambda rid: {'id': str(rid), 'ok': True, 'hex': '3330'},      # the id as a string
    31: lambda rid: {'id': rid, 'ok': False, 'error': 'rejected', 'message': 'no', 'offset': '3'},
    32: lambda rid: {'id': rid, 'ok': False, 'error': 'rejected', 'message': 'no', 'offset': -1},
    33: lambda rid: {'id': rid, 'ok': True, 'hex': '3333', 'peak': '330'},  # peak not an integer
    40: lambda rid: {'id': rid, 'ok': False, 'error': None},          # "error" not a string
    56: lambda rid: {'id': rid, 'ok': True, 'hex': '3536', 'peak': -5},  # a negative peak
    55: lambda rid: {'id': rid, 'ok': False, 'error': 'rejected', 'message': 'no', 'peak': -5},
    52: lambda rid: {'id': rid - 1, 'ok': True, 'hex': '3532', 'peak': 520},  # an earlier id
    53: lambda rid: {'id': rid - 1, 'ok': False, 'error': 'declined', 'message': 'stale'},
}


def main():
    gate = os.environ.get('SERDIFF_TEST_NO_START')
    if gate and os.path.exists(gate):
        sys.exit(3)
    if '--declined' in sys.argv:
        write({'serdiff_worker': 1, 'name': 'misbehaving', 'declined': 'package frobnicate is not installed'})
        return
    version = 1
    if '--hello-version' in sys.argv:
        version = json.loads(sys.argv[sys.argv.index('--hello-version') + 1])
    write({'serdiff_worker': version, 'name': 'misbehaving', 'ops': ['int64.to_decimal'],
           'peak': 'value x 10, made up for the tests'})
    turns = 0  # requests of value 48 so far
    while True:
        req = read()
        if req is None:
            return
        v = int(req['input']['value'])
        rid = req['id']
        if '--planted' in sys.argv:
            write({'id': rid, 'ok': True, 'hex': (b'81' if v == 18 else str(v).encode()).hex(), 'peak': 0})
            continue
        peak = abs(v) * 10
        if v == 47 and os.environ.get('SERDIFF_TEST_MARK'):
            with open(os.environ['SERDIFF_TEST_MARK'], 'a') as mark:
                mark.write('no peak\n' if req.get('peak') is False else 'peak\n')
            if req.get('peak') is False:
                write({'id': rid, 'ok': True, 'hex': b'47'.hex()})
                continue
        if v == 13:
            sys.exit(3)
        if v == 21:
            os.kill(os.getpid(), signal.SIGKILL)
        if v == 14:
            time.sleep(60)
        if v == 15:
            write(b'this is not json')
            continue
        if v == 16:
            sys.stdout.buffer.write(struct.pack('>I', 1 << 31))
            sys.stdout.buffer.flush()
            continue
        if v in (38, 39):
            sys.stdout.buffer.write(struct.pack('>I', (256 << 20) + (1 if v == 38 else 0)))
            sys.stdout.buffer.write(b'{"id": 1, ')
            sys.stdout.buffer.flush()
            if v == 39:
                sys.exit(0)
            continue
        if v == 49:
            time.sleep(0.7)
        if v == 51:
            time.sleep(0.9)
        if v == 48:
            turns += 1
            write({'id': rid, 'ok': True, 'hex': (b'48' if turns % 2 else b'84').hex(), 'peak': peak})
            continue
        if v == 17:
            write({'id': rid + 100, 'ok': True, 'hex': b'17'.hex(), 'peak': peak})
            continue
        if v == 18:
            write({'id': rid, 'ok': True, 'hex': b'81'.hex(), 'peak': peak})
            continue
        if v == 19:
            write({'id': rid, 'ok': False, 'error': 'declined', 'message': 'not today'})
            continue
        if v in MALFORMED:
            write(MALFORMED[v](rid))
            continue
        if v == 54:
            write({'id': rid, 'ok': True, 'value': '54', 'peak': peak})
            continue
        if v in (-1, -2):
            write({'id': rid, 'ok': False, 'error': 'rejected', 'message': 'negative', 'offset': -v, 'peak': peak})
            continue
        if v == -3:
            write({'id': rid, 'ok': False, 'error': 'rejected', 'message': 'negative', 'peak': peak})
            continue
        if v == 20:
            write({'id': rid, 'ok': False, 'error': 'rejected', 'message': 'no', 'offset': 3, 'peak': peak})
            continue
        answer = {'id': rid, 'ok': True, 'hex': str(v).encode().hex(), 'peak': peak}
        n = req.get('time')
        if type(n) is int and n > 0:
            b = req.get('batch')
            b = b if type(b) is int and b > 1 and v != 46 else 1
            answer['ns'] = {34: 'fast', 35: [1] * (n - 1), 36: [5] * (n - 1) + [-5],
                            37: [1.5] * n}.get(v, [(1000 + abs(v)) * b] * n)
            if b > 1 or v == 45:
                answer['batch'] = {43: b + 1, 44: str(b), 45: 2}.get(v, b)
        write(answer)
        if v == 50:
            sys.exit(0)


if __name__ == '__main__':
    main()
