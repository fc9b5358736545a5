#!/usr/bin/python3
"""Tests of serdiff's Python workers (docs/workers.md) over their real pipes.

    /usr/bin/python3 tests/workers/python_workers_test.py [-v]

Starts each worker the way serdiff does (the manifest's command, the manifest's folder as the
working directory, frames on stdin/stdout) and checks:
  * the hello (protocol 1, the manifest's name, the ops, the peak text);
  * every example of oracles/interchange.json whose op the worker's hello lists: the exact hex
    or value, or the rejection (with its offset when the example names one); where the example
    records a known difference for the worker, that answer instead;
  * "peak" is an int >= 0 on every accepted or rejected answer; an unknown op is declined;
  * the planted join variant (worker_join.json) writes the same bytes as the installed driver
    for a 500,000-int list<int> (v4) with a peak more than 10x the driver's;
  * a malformed frame (bad JSON, not an object, cut short, over 256 MiB, a request without its
    fields) ends the worker with status 2, no traceback; closing stdin ends it with status 0;
  * a worker whose package cannot be imported sends a declined hello and declines every call.
Standard library only; exits non-zero on failure.
"""

import io
import json
import os
import random
import re
import shutil
import select
import struct
import subprocess
import sys
import tempfile
import time
import tracemalloc
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ORACLES = os.path.join(ROOT, 'oracles')
INTERCHANGE = os.path.join(ORACLES, 'interchange.json')
MANIFESTS = {
    'python_cassandra': os.path.join(ORACLES, 'python_cassandra', 'worker.json'),
    'python_cassandra_join': os.path.join(ORACLES, 'python_cassandra', 'worker_join.json'),
    'pymongo': os.path.join(ORACLES, 'pymongo', 'worker.json'),
    'java_bson': os.path.join(ORACLES, 'java_bson', 'worker.json'),
}
UPSTREAM_OP = 'serdiff.upstream'  # serdiff repro --upstream's op (docs/workers.md)
UPSTREAM_OPS = (UPSTREAM_OP, 'serdiff.upstream_heap')  # and its op for a heap finding
# A variant answers like the implementation it varies (only its peak differs).
KNOWN_AS = {'python_cassandra_join': 'python_cassandra'}
TIMEOUT = 20.0


def load_json(path):
    with open(path, encoding='utf-8') as f:
        return json.load(f)


class Worker:
    """One worker process, spoken to in frames, every read bounded by a deadline."""

    def __init__(self, manifest_path, extra_args=(), env=None):
        self.manifest = load_json(manifest_path)
        cmd = list(self.manifest['command'][:1]) + list(extra_args) + \
            list(self.manifest['command'][1:])
        self.proc = subprocess.Popen(cmd, cwd=os.path.dirname(manifest_path),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE,
                                     env=None if env is None else dict(os.environ, **env))
        self.next_id = 1
        self.hello = self.read_frame()

    def _read_exact(self, n, deadline):
        fd = self.proc.stdout.fileno()
        chunks, got = [], 0
        while got < n:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError('no frame from the worker in time')
            r, _, _ = select.select([fd], [], [], left)
            if not r:
                continue
            b = os.read(fd, min(n - got, 1 << 20))
            if not b:
                raise EOFError('the worker closed its stdout')
            chunks.append(b)
            got += len(b)
        return b''.join(chunks)

    def read_frame(self, timeout=TIMEOUT):
        deadline = time.monotonic() + timeout
        (n,) = struct.unpack('>I', self._read_exact(4, deadline))
        return json.loads(self._read_exact(n, deadline).decode('utf-8'))

    def send_raw(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, obj):
        body = json.dumps(obj, separators=(',', ':')).encode('utf-8')
        self.send_raw(struct.pack('>I', len(body)) + body)

    def call(self, op, inp):
        rid = self.next_id
        self.next_id += 1
        self.send({'id': rid, 'op': op, 'input': inp})
        answer = self.read_frame()
        if answer.get('id') != rid:
            raise AssertionError('answer %r does not echo id %d' % (answer, rid))
        return answer

    def finish(self, timeout=10.0):
        """Closes stdin; returns (exit status, stderr text)."""
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError('the worker did not exit within %.0f s' % timeout)
        err = self.proc.stderr.read().decode('utf-8', 'replace')
        self.proc.stdout.close()
        self.proc.stderr.close()
        return self.proc.returncode, err


def same_json(a, b):
    """JSON equality that tells true from 1 and 1 from 1.0 apart."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    return a == b


class WorkerCases:
    """The checks every worker gets; mixed into one unittest.TestCase per worker."""

    NAME = None
    OPS = ()

    @classmethod
    def setUpClass(cls):
        cls.interchange = load_json(INTERCHANGE)
        cls.worker = Worker(MANIFESTS[cls.NAME])

    @classmethod
    def tearDownClass(cls):
        status, err = cls.worker.finish()
        if status != 0:
            raise AssertionError('%s exited with %d: %s' % (cls.NAME, status, err))

    def check_peak(self, answer):
        self.assertIn('peak', answer, answer)
        self.assertIs(type(answer['peak']), int, answer)
        self.assertGreaterEqual(answer['peak'], 0, answer)

    def test_hello(self):
        h = self.worker.hello
        self.assertEqual(h.get('serdiff_worker'), 1, h)
        self.assertEqual(h.get('name'), self.worker.manifest['name'], h)
        self.assertNotIn('declined', h)
        self.assertEqual(sorted(h.get('ops', [])), sorted(self.OPS), h)
        self.assertIsInstance(h.get('peak'), str)
        self.assertTrue(h['peak'])

    def test_manifest(self):
        m = self.worker.manifest
        self.assertRegex(m['name'], r'^[a-z0-9_]+$')
        self.assertTrue(m['targets'])
        self.assertTrue(m['origin'])
        self.assertTrue(os.path.isabs(m['command'][0]), m['command'])
        for op in self.worker.hello['ops']:
            if op in UPSTREAM_OPS:  # serdiff's own ops, not library calls (docs/workers.md)
                continue
            self.assertIn(op, self.interchange['ops'], 'op %s has no interchange entry' % op)

    def test_interchange_examples(self):
        who = KNOWN_AS.get(self.NAME, self.NAME)
        ran = 0
        for op in self.worker.hello['ops']:
            if op in UPSTREAM_OPS:
                continue
            for ex in self.interchange['ops'][op]['examples']:
                want = (ex.get('known_differences') or {}).get(who, ex)
                with self.subTest(op=op, example=ex['name']):
                    got = self.worker.call(op, ex['input'])
                    ran += 1
                    self.assertEqual(got.get('ok'), want['ok'], got)
                    if want['ok']:
                        self.check_peak(got)
                        if 'hex' in want:
                            self.assertEqual(got.get('hex'), want['hex'])
                        if 'value' in want:
                            self.assertIn('value', got, got)
                            self.assertTrue(same_json(got['value'], want['value']),
                                            'value %r, want %r' % (got['value'], want['value']))
                        if 'hex' not in want and 'value' not in want:
                            self.assertTrue('hex' in got or 'value' in got, got)
                    else:
                        self.assertEqual(got.get('error'), want.get('error', 'rejected'), got)
                        self.assertIsInstance(got.get('message'), str, got)
                        # A rejection in an op's prepare carries no peak (the library's
                        # call never ran: docs/workers.md, prepare.reject).
                        if got['error'] == 'rejected' and 'peak' in got:
                            self.check_peak(got)
                        if 'offset' in want:
                            self.assertEqual(got.get('offset'), want['offset'], got)
        self.assertGreater(ran, 0)

    def test_unknown_op_declined(self):
        got = self.worker.call('no.such_op', {})
        self.assertEqual(got, {'id': got['id'], 'ok': False, 'error': 'declined',
                               'message': '%s does not answer op "no.such_op"'
                                          % self.worker.hello['name']})


class PythonCassandraTest(WorkerCases, unittest.TestCase):
    NAME = 'python_cassandra'
    OPS = ('cql.serialize', 'cql.deserialize', 'timestamp.ms_to_cql', 'timestamp.civil_to_cql',
           'int64.to_decimal')


class PythonCassandraJoinTest(WorkerCases, unittest.TestCase):
    NAME = 'python_cassandra_join'
    OPS = PythonCassandraTest.OPS

    def test_join_peak_vs_installed(self):
        rng = random.Random(20240601)
        values = [rng.randrange(-2 ** 31, 2 ** 31) for _ in range(500000)]
        inp = {'type': 'list<int>', 'value': values, 'version': 4}
        installed = Worker(MANIFESTS['python_cassandra'])
        try:
            base = installed.call('cql.serialize', inp)
        finally:
            installed.finish()
        join = self.worker.call('cql.serialize', inp)
        self.assertTrue(base['ok'] and join['ok'], (base.get('message'), join.get('message')))
        self.assertEqual(len(base['hex']), 2 * (4 + 8 * 500000))
        self.assertEqual(join['hex'], base['hex'])
        self.assertGreater(join['peak'], 10 * base['peak'],
                           'join peak %d, installed %d' % (join['peak'], base['peak']))
        # the installed BytesIO serializer stays near its output (manifest heap_slack)
        self.assertLess(base['peak'], 4000004 * 1.2, base['peak'])

    def test_join_nested_sets_same_bytes(self):
        inp = {'type': 'map<text, list<set<int>>>', 'value': [['k', [[3, 1], [], None]]],
               'version': 4}
        installed = Worker(MANIFESTS['python_cassandra'])
        try:
            base = installed.call('cql.serialize', inp)
        finally:
            installed.finish()
        join = self.worker.call('cql.serialize', inp)
        self.assertTrue(base['ok'], base)
        self.assertEqual(join.get('hex'), base['hex'])


@unittest.skipUnless(shutil.which('javac') and os.path.exists('/usr/share/java/bson.jar'),
                     'no JDK or no libmongodb-java (scripts/bootstrap installs both)')
class JavaBsonTest(WorkerCases, unittest.TestCase):
    """The Java worker, run the way its manifest says (bash workers/java/run)."""
    NAME = 'java_bson'
    OPS = ('bson.encode', 'bson.decode', 'bson.array_keys') + UPSTREAM_OPS

    def test_manifest(self):
        m = self.worker.manifest
        self.assertEqual(m['command'][:2], ['bash', '../../workers/java/run'], m['command'])
        for op in self.worker.hello['ops']:
            if op not in UPSTREAM_OPS:
                self.assertIn(op, self.interchange['ops'], 'op %s has no interchange entry' % op)

    def test_upstream_text_cannot_become_code(self):
        """The Java program puts the input's text in // comments and string constants; javac
        reads unicode escapes before either, so an escape for a line break or a quote in that
        text must stay text: the program compiles, runs, and exits as the bug says (1)."""
        hostile = 'x \\u000a System.exit(3); // \\u0022 \u00e9 \n System.exit(4);'
        request = {'target': 'bson_decode', 'op': 'bson.decode',
                   'input': {'bson': '0d000000056100000000020000'}, 'shown': hostile,
                   'spec': hostile, 'expect': {'outcome': 'rejected', 'offset': 7,
                                               'message': hostile, 'peak_bound': 37696}}
        got = self.worker.call('serdiff.upstream_heap', request)
        self.assertTrue(got.get('ok'), got)
        program = got['value']['program']
        self.assertIn('x \\\\u000a System.exit(3); // \\\\u0022 \\\\u00e9 \\\\u000a System.exit(4);',
                      program)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'p.java')
            with open(path, 'w', encoding='utf-8') as f:
                f.write(program)
            run = [w.replace('{file}', path) for w in got['value']['run']]
            p = subprocess.run(run, capture_output=True, text=True, timeout=120,
                               env=dict(os.environ, LC_ALL='C'))
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn('DIFFERS from the spec', p.stdout)
        # The same request under the answers-only op: its expectation carries a bound, so no.
        got = self.worker.call('serdiff.upstream', request)
        self.assertEqual(got.get('error'), 'declined', got)


class PymongoTest(WorkerCases, unittest.TestCase):
    NAME = 'pymongo'
    OPS = ('bson.encode', 'bson.decode', 'bson.array_keys', 'serdiff.upstream')

    def test_array_keys_large(self):
        got = self.worker.call('bson.array_keys', {'count': 100001})
        self.assertTrue(got['ok'], got)
        keys = bytes.fromhex(got['hex'])
        self.assertEqual(keys, b''.join(b'%d\x00' % i for i in range(100001)))


# A later pymongo words the datetime error differently (its main branch adds "(Consider Using
# CodecOptions(datetime_conversion=DATETIME_AUTO) ...)"): a sitecustomize on PYTHONPATH wraps
# bson.decode before the worker imports it, so that every InvalidBSON carries another message.
REWORDED_BSON = """
import bson, bson.errors
_real = bson.decode
def decode(data, *args, **kwargs):
    try:
        return _real(data, *args, **kwargs)
    except bson.errors.InvalidBSON as e:
        raise bson.errors.InvalidBSON('reworded by a later version: %s (see its docs)' % e) from None
bson.decode = decode
"""


class LibraryVersionTest(unittest.TestCase):
    """Each shipped worker's hello names its library at the version installed here, found
    independently of the worker (docs/workers.md, "Hello"); gocql's library reports none."""

    def hello_library(self, name):
        w = Worker(os.path.join(ORACLES, name, 'worker.json'))
        try:
            self.assertNotIn('declined', w.hello, w.hello)
            return w.hello.get('library')
        finally:
            w.finish()

    def test_python_cassandra(self):
        import cassandra
        self.assertEqual(self.hello_library('python_cassandra'),
                         'cassandra-driver ' + cassandra.__version__)

    def test_pymongo(self):
        deb = subprocess.run(['dpkg-query', '-W', '-f=${Version}', 'python3-bson'],
                             capture_output=True, text=True, check=True).stdout
        self.assertEqual(self.hello_library('pymongo'),
                         'pymongo bson, Debian python3-bson %s (C extension)' % deb)

    @unittest.skipUnless(shutil.which('node'), 'no node')
    def test_node_workers(self):
        for name, package in (('js_bson', 'bson'), ('node_cassandra', 'cassandra-driver'),
                              ('fury', '@furyjs/fury')):
            pj = os.path.join(ORACLES, 'node', 'node_modules', package, 'package.json')
            if not os.path.exists(pj):
                self.skipTest('%s is not installed (scripts/bootstrap)' % package)
            with self.subTest(worker=name):
                self.assertEqual(self.hello_library(name),
                                 '%s %s' % (package, load_json(pj)['version']))

    @unittest.skipUnless(shutil.which('go'), 'no go')
    def test_go_workers(self):
        with open('/usr/share/gocode/src/go.mongodb.org/mongo-driver/version/version.go') as f:
            driver = re.search(r'var Driver = "([^"]+)"', f.read()).group(1)
        self.assertEqual(self.hello_library('go_bson'), 'mongo-go-driver bson ' + driver)
        self.assertIsNone(self.hello_library('gocql'))

    @unittest.skipUnless(shutil.which('javac') and os.path.exists('/usr/share/java/bson.jar'),
                         'no JDK or no libmongodb-java')
    def test_java_bson(self):
        jar = os.path.basename(os.path.realpath('/usr/share/java/bson.jar'))
        self.assertRegex(jar, r'^bson-[0-9.]+\.jar$')
        self.assertEqual(self.hello_library('java_bson'), 'org.bson ' + jar[5:-4])


class PymongoVersionTest(unittest.TestCase):
    """The pymongo worker's decline keys on the input, not on one version's message text."""

    YEAR_10000 = '1000000009640000dc1fd277e6000000'  # {"d": UTC datetime 253402300800000 ms}
    YEAR_0 = '10000000096400ff27d3ed7cc7ffff00'  # -62135596800001 ms
    LAST_MS = '10000000096400ffdb1fd277e6000000'  # 253402300799999 ms: 9999-12-31T23:59:59.999
    # A string of invalid UTF-8 before the year-10000 datetime: pymongo fails on the string,
    # which a datetime of 0 does not change, so it stays a rejection.
    BAD_UTF8_FIRST = ('19000000' '027300' '02000000' 'ff00' '096400' '00dc1fd277e60000' '00')

    # Each BSON type the walk must step over before the datetime: a DBPointer ("p": "ab" and a
    # 12-byte id), then code with scope ("c": code "x" and the scope {}), then year 10000
    # (a DBPointer before it was a false failure found by fuzzing pymongo as the subject).
    BEHIND_OTHER_TYPES = ('38000000' '0c7000' '03000000' '616200' + '11' * 12 +
                          '0f6300' '0f000000' '02000000' '7800' '05000000' '00' +
                          '096400' '00dc1fd277e60000' '00')

    # A datetime of INT64_MAX ms inside the scope of code with scope: {"a": code "x" with scope
    # {"d": ...}} (the walk once stepped over the scope whole: a false failure).
    IN_A_SCOPE = ('22000000' '0f6100' '1a000000' '02000000' '7800' + '10000000' '096400' +
                  'ffffffffffffff7f' '00' '00')
    # The datetime first, then a UUID binary (subtype 4) of 3 bytes, which pymongo refuses
    # whatever the datetime: the answer is that refusal, not the datetime's year, so that the
    # UUID's divergence applies (targets/bson/divergences_pymongo.cc).
    DATETIME_THEN_SHORT_UUID = ('1b000000' '096400' 'ffffffffffffff7f' '056600' '03000000' '04' +
                                '616263' '00')

    def check_worker(self, worker):
        got = worker.call('bson.decode', {'bson': self.DATETIME_THEN_SHORT_UUID})
        self.assertEqual((got['ok'], got.get('error')), (False, 'rejected'), got)
        self.assertIn('invalid length or type code', got['message'], got)
        self.assertNotIn('year', got['message'], got)
        for doc in (self.YEAR_10000, self.YEAR_0, self.BEHIND_OTHER_TYPES, self.IN_A_SCOPE):
            got = worker.call('bson.decode', {'bson': doc})
            self.assertEqual((got['ok'], got.get('error')), (False, 'declined'), got)
            self.assertIn('years 1..9999', got['message'], got)
        got = worker.call('bson.decode', {'bson': self.LAST_MS})
        self.assertEqual((got['ok'], got.get('hex')), (True, self.LAST_MS), got)
        got = worker.call('bson.decode', {'bson': self.BAD_UTF8_FIRST})
        self.assertEqual((got['ok'], got.get('error')), (False, 'rejected'), got)

    def test_installed(self):
        w = Worker(MANIFESTS['pymongo'])
        try:
            self.check_worker(w)
        finally:
            self.assertEqual(w.finish()[0], 0)

    def test_reworded_messages(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, 'sitecustomize.py'), 'w', encoding='utf-8') as f:
                f.write(REWORDED_BSON)
            w = Worker(MANIFESTS['pymongo'], env={'PYTHONPATH': d})
            try:
                got = w.call('bson.decode', {'bson': self.BAD_UTF8_FIRST})
                self.assertIn('reworded by a later version', got.get('message', ''), got)
                self.check_worker(w)
            finally:
                self.assertEqual(w.finish()[0], 0)


def _library():
    """workers/python/serdiff_worker.py, imported for the in-memory tests below."""
    sys.path.insert(0, os.path.join(ROOT, 'workers', 'python'))
    import serdiff_worker as sw
    return sw


def _frames(requests):
    """The requests (dicts) as the frames serdiff writes."""
    buf = bytearray()
    for req in requests:
        body = json.dumps(req).encode()
        buf += struct.pack('>I', len(body)) + body
    return bytes(buf)


def _answers(data):
    """The bodies of the frames a worker wrote, after its hello."""
    answers, at = [], 0
    while at < len(data):
        (n,) = struct.unpack('>I', data[at:at + 4])
        answers.append(data[at + 4:at + 4 + n])
        at += 4 + n
    return answers[1:]


class AnswerBytesTest(unittest.TestCase):
    """The library writes the common answer (accepted, hex, not timed) without its JSON encoder:
    the bytes must be exactly the encoder's, and the frame limit must hold for it as for every
    other answer. Runs the library's request loop in memory (no pipe)."""

    def serve(self, requests, result, limit=None):
        sw = _library()
        out = io.BytesIO()
        # A peak of 0 on every call: the limit test needs the answer's size to be the same from
        # one run to the next, and the traced peak's digits could differ.
        real = tracemalloc.get_traced_memory
        tracemalloc.get_traced_memory = lambda: (0, 0)
        try:
            sw._serve('t', {'op': lambda inp: ('hex', result)}, 'peak', None,
                      io.BytesIO(_frames(requests)), out, limit or sw.MAX_FRAME)
        finally:
            tracemalloc.get_traced_memory = real
        return sw, _answers(out.getvalue())

    def test_the_common_answer_is_the_encoders_bytes(self):
        for result in (b'', b'\x00', bytes(range(256)), bytearray(b'-92233'),
                       memoryview(b'\xff\xfe')):
            for rid in (0, 1, 7, 2 ** 53 - 1):
                sw, answers = self.serve([{'id': rid, 'op': 'op', 'input': {}}], result)
                self.assertEqual(len(answers), 1)
                got = answers[0]
                peak = json.loads(got)['peak']
                self.assertIs(type(peak), int)
                want = sw._dumps({'id': rid, 'ok': True, 'hex': bytes(result).hex(),
                                  'peak': peak}).encode('utf-8')
                self.assertEqual(got, want)

    def test_a_timed_answer_still_carries_its_timings(self):
        _, answers = self.serve([{'id': 1, 'op': 'op', 'input': {}, 'time': 3}], b'ab')
        a = json.loads(answers[0])
        self.assertEqual(a['hex'], '6162')
        self.assertEqual(len(a['ns']), 3)

    def test_the_frame_limit_holds_for_the_common_answer(self):
        # {"id":1,"ok":true,"hex":"<2n>","peak":P}: find the size of the answer, then ask for a
        # limit of exactly it (sent) and one byte less (declined).
        _, answers = self.serve([{'id': 1, 'op': 'op', 'input': {}}], b'x' * 100)
        size = len(answers[0])
        _, at_limit = self.serve([{'id': 1, 'op': 'op', 'input': {}}], b'x' * 100, limit=size)
        self.assertTrue(json.loads(at_limit[0])['ok'])
        _, over = self.serve([{'id': 1, 'op': 'op', 'input': {}}], b'x' * 100, limit=size - 1)
        a = json.loads(over[0])
        self.assertEqual(a['error'], 'declined')
        self.assertIn('over the frame limit', a['message'])


class PeakNotAskedTest(unittest.TestCase):
    """A request with "peak": false (serdiff will not use the call's peak: a peer in a fuzz
    binary, every second run) is neither rehearsed nor traced, and its answer has no "peak"; a
    request without it is rehearsed and traced as before."""

    def serve(self, requests, op):
        sw = _library()
        out = io.BytesIO()
        sw._serve('t', {'op': op}, 'peak', None, io.BytesIO(_frames(requests)), out,
                  sw.MAX_FRAME, False, True)  # rehearse on, as the shipped drivers' workers run
        return sw, _answers(out.getvalue())

    def test_each_kind_of_answer(self):
        for result, kind in ((('hex', b'ab'), 'hex'), (('value', [1, 'x']), 'value')):
            calls = []

            def op(inp):
                calls.append(tracemalloc.is_tracing())
                return result
            sw, answers = self.serve([{'id': 3, 'op': 'op', 'input': {}, 'peak': False},
                                      {'id': 4, 'op': 'op', 'input': {}}], op)
            # Asked for no peak: one call, untraced. Asked for one: the rehearsal (untraced), then
            # the traced call.
            self.assertEqual(calls, [False, False, True], kind)
            want = {'id': 3, 'ok': True}
            want[kind] = '6162' if kind == 'hex' else [1, 'x']
            self.assertEqual(answers[0], sw._dumps(want).encode('utf-8'), kind)
            measured = json.loads(answers[1])
            self.assertIs(type(measured['peak']), int, kind)
            self.assertEqual(list(measured), ['id', 'ok', kind, 'peak'], kind)

    def test_a_rejection(self):
        def op(inp):
            raise ValueError('no')
        sw, answers = self.serve([{'id': 5, 'op': 'op', 'input': {}, 'peak': False},
                                  {'id': 6, 'op': 'op', 'input': {}}], op)
        self.assertEqual(json.loads(answers[0]), {'id': 5, 'ok': False, 'error': 'rejected',
                                                  'message': 'ValueError: no'})
        self.assertIn('peak', json.loads(answers[1]))

    def test_only_false_means_no(self):
        calls = []

        def op(inp):
            calls.append(tracemalloc.is_tracing())
            return ('hex', b'')
        _, answers = self.serve([{'id': 7, 'op': 'op', 'input': {}, 'peak': 0},
                                 {'id': 8, 'op': 'op', 'input': {}, 'peak': True}], op)
        self.assertEqual(calls, [False, True, False, True])
        self.assertTrue(all('peak' in json.loads(a) for a in answers))


class ProcessRulesTest(unittest.TestCase):
    """How a worker ends: cleanly on EOF, with status 2 on a broken frame."""

    def broken(self, name, data):
        w = Worker(MANIFESTS[name])
        self.assertEqual(w.hello.get('serdiff_worker'), 1)
        try:
            w.send_raw(data)
        except BrokenPipeError:
            pass
        status, err = w.finish()
        self.assertEqual(status, 2, err)
        self.assertIn('protocol error', err)
        self.assertNotIn('Traceback', err)

    def test_malformed_frames(self):
        def frame(body):
            return struct.pack('>I', len(body)) + body
        cases = {
            'not JSON': frame(b'{"id": 1, "op": '),
            'not an object': frame(b'[1, 2]'),
            'not UTF-8': frame(b'{"id": 1, "op": "\xff"}'),
            'no input': frame(b'{"id": 1, "op": "int64.to_decimal"}'),
            'cut short': struct.pack('>I', 100) + b'{"id"',
            'length cut short': b'\x00\x00',
            'over 256 MiB': struct.pack('>I', (256 << 20) + 1),
        }
        for name in ('python_cassandra', 'pymongo'):
            for what, data in cases.items():
                with self.subTest(worker=name, case=what):
                    self.broken(name, data)

    def test_eof_ends_cleanly(self):
        for name in ('python_cassandra', 'pymongo'):
            with self.subTest(worker=name):
                w = Worker(MANIFESTS[name])
                status, err = w.finish()
                self.assertEqual(status, 0, err)
                self.assertEqual(err, '')
        w = Worker(MANIFESTS['python_cassandra'])
        self.assertTrue(w.call('int64.to_decimal', {'value': '7'})['ok'])
        status, err = w.finish()
        self.assertEqual((status, err), (0, ''))

    def test_missing_package_declines(self):
        # -S: no site-packages, so neither cassandra nor bson imports.
        for name, reason in (('python_cassandra', 'python3-cassandra is not installed'),
                             ('pymongo', 'python3-bson is not installed')):
            with self.subTest(worker=name):
                w = Worker(MANIFESTS[name], extra_args=('-S',))
                self.assertEqual(w.hello.get('serdiff_worker'), 1)
                self.assertIn(reason, w.hello.get('declined', ''))
                self.assertNotIn('ops', w.hello)
                got = w.call('int64.to_decimal', {'value': '1'})
                self.assertEqual((got['ok'], got['error']), (False, 'declined'))
                status, err = w.finish()
                self.assertEqual(status, 0, err)


if __name__ == '__main__':
    unittest.main(verbosity=int('-v' in sys.argv) + 1, argv=[sys.argv[0]])
