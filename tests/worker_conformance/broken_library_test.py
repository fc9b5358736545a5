#!/usr/bin/python3
"""Shows that the worker conformance suite fails when a library departs from the contract.

    broken_library_test.py [--node NODE]

For each mutant below: copies one worker library into a temporary folder with exactly one rule
of docs/workers.md's "The worker library contract" changed (one text replaced, which must occur
exactly once in the library), runs conformance.py against that copy (through the conformance
worker's SERDIFF_CONFORMANCE_LIBRARY) and asserts that the suite fails, that the broken rule is
among the failing checks and that every failing check belongs to that rule. Before the mutants,
an unchanged copy of each library must pass the hello checks: the copying alone breaks nothing
(the whole suite on the library itself is workers.Conformance<Lang>). The Node mutants
run when NODE (default: node on PATH) is installed, the Go mutants when go is (the Go library is
built by workers/go/run from the changed copy's folder, SERDIFF_GO_LIBRARY), the Java mutants
when a JDK is (compiled by workers/java/run from the copy, SERDIFF_JAVA_LIBRARY); each is
reported skipped otherwise.

Prints one line per run and then "N passed, N failed"; exits 1 when one failed. Standard
library only.
"""
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, '..', '..'))
SUITE = os.path.join(HERE, 'conformance.py')
LIBRARIES = {
    'python': os.path.join(ROOT, 'workers', 'python', 'serdiff_worker.py'),
    'node': os.path.join(ROOT, 'workers', 'node', 'serdiff_worker.js'),
    'go': os.path.join(ROOT, 'workers', 'go', 'serdiffworker', 'worker.go'),
    'java': os.path.join(ROOT, 'workers', 'java', 'serdiff', 'worker', 'SerdiffWorker.java'),
}
GO_RUN = os.path.join(ROOT, 'workers', 'go', 'run')
JAVA_RUN = os.path.join(ROOT, 'workers', 'java', 'run')

# (language, what the change breaks, text in the library, its replacement, the check that must
# fail, the prefixes every failing check must have)
MUTANTS = [
    ('python', 'a malformed frame exits 3 instead of 2',
     'EXIT_PROTOCOL = 2', 'EXIT_PROTOCOL = 3',
     'malformed.not-json', ('malformed.', 'request.', 'declined.malformed', 'frame-limit.request')),
    ('python', 'an exception the op does not classify is declined instead of rejected',
     "answer = {'id': rid, 'ok': False, 'error': 'rejected', 'message': _error_text(e)}",
     "answer = {'id': rid, 'ok': False, 'error': 'declined', 'message': _error_text(e)}",
     'throw.rejected', ('throw.',)),
    ('python', 'a request without "input" runs the op on {}',
     "        inp = req.get('input')\n", "        inp = req.get('input', {})\n",
     'request.no-input', ('request.no-input', 'declined.malformed')),
    ('python', 'a message keeps its lone surrogate (sent as an escape serdiff refuses)',
     "answer['message'] = _well_formed(answer['message'])", "pass",
     'answer.message-lone-surrogate', ('answer.message-lone-surrogate',)),
    ('node', 'a value holding a lone surrogate goes out as an escape instead of being declined',
     "if (t === 'string' && !v.isWellFormed()) {", "if (t === 'string' && false) {",
     'value.lone-surrogate', ('value.lone-surrogate',)),
    ('python', 'rehearse is ignored for an op given as a function',
     "                    _rehearse(op, inp)\n", "                    pass\n",
     'rehearse.on', ('rehearse.on', 'peak.not-asked')),
    ('node', 'rehearse is ignored',
     "if (measure && spec.rehearse &&", "if (measure && false &&",
     'rehearse.on', ('rehearse.on', 'peak.not-asked')),
    ('node', 'a malformed frame exits 3 instead of 2',
     'const EXIT_PROTOCOL = 2;', 'const EXIT_PROTOCOL = 3;',
     'malformed.not-json', ('malformed.', 'request.', 'declined.malformed', 'frame-limit.request')),
    ('node', 'a failing prepare ends the worker instead of declining',
     "declinedAnswer(id, `input not taken: ${errorText(e)}`);",
     '(() => { throw e; })();',
     'prepare.throw', ('prepare.throw',)),
    ('go', 'a malformed frame exits 3 instead of 2',
     'exitProtocol  = 2 // a malformed frame or request',
     'exitProtocol  = 3 // a malformed frame or request',
     'malformed.not-json', ('malformed.', 'request.', 'declined.malformed', 'frame-limit.request')),
    ('go', 'a value holding a string that is not UTF-8 goes out with U+FFFD instead of declined',
     'if !utf8.ValidString(v.String()) {', 'if false {',
     'value.lone-surrogate', ('value.lone-surrogate',)),
    ('go', 'rehearse is ignored',
     'if measure && s.rehearse && rawLen <= rehearseMaxRequest {',
     'if measure && false && rawLen <= rehearseMaxRequest {',
     'rehearse.on', ('rehearse.on', 'peak.not-asked')),
    ('go', '"peak": false is ignored: the call is rehearsed, measured and answered with a peak',
     'measure := string(rawTime.peak) != "false"', 'measure := true',
     'peak.not-asked', ('peak.not-asked',)),
    ('java', '"peak": false is ignored: the call is rehearsed, measured and answered with a peak',
     '&& !peakAsked.getAsBoolean());', '&& !peakAsked.getAsBoolean() && false);',
     'peak.not-asked', ('peak.not-asked',)),
    ('java', 'a failing prepare is rejected instead of declined',
     'return c != null ? c : declinedAnswer(id, "input not taken: " + errorText(t));',
     'return c != null ? c : rejectedAnswer(id, "input not taken: " + errorText(t), -1, null);',
     'prepare.throw', ('prepare.throw',)),
]


def worker_command(language, node):
    if language == 'go':
        return [GO_RUN, '--name', 'conformance', os.path.join(HERE, 'conformance_go')]
    if language == 'java':
        return [JAVA_RUN, '--name', 'conformance', os.path.join(HERE, 'conformance_java'),
                'ConformanceWorker']
    if language == 'python':
        return [sys.executable, os.path.join(HERE, 'conformance_worker.py')]
    return [node, '--expose-gc', os.path.join(HERE, 'conformance_worker.js')]


def run_suite(language, node, library, only=None):
    """(exit status, failing check names, closing line) of the suite against library."""
    env = dict(os.environ, SERDIFF_CONFORMANCE_LIBRARY=library)
    if language == 'go':  # workers/go/run builds the worker with the package in this folder
        env['SERDIFF_GO_LIBRARY'] = os.path.dirname(library)
    if language == 'java':  # workers/java/run compiles <folder>/serdiff/worker/SerdiffWorker.java
        env['SERDIFF_JAVA_LIBRARY'] = os.path.dirname(os.path.dirname(os.path.dirname(library)))
    p = subprocess.run([sys.executable, SUITE] + (['--only', only] if only else []) +
                       worker_command(language, node), env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
    text = p.stdout.decode('utf-8', 'replace')
    failing = re.findall(r'^FAIL ([^:\s]+):', text, re.M)
    lines = text.strip().splitlines()
    return p.returncode, failing, lines[-1] if lines else ''


def copy_with(language, tmp, old=None, new=None):
    """The library copied into tmp, with old replaced by new; None when old is not there once."""
    with open(LIBRARIES[language], encoding='utf-8') as f:
        text = f.read()
    if old is not None:
        if text.count(old) != 1:
            return None
        text = text.replace(old, new)
    if language == 'java':  # the package's folders: <tmp>/serdiff/worker/
        tmp = os.path.join(tmp, 'serdiff', 'worker')
        os.makedirs(tmp)
    path = os.path.join(tmp, os.path.basename(LIBRARIES[language]))
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)
    if language in ('go', 'java'):  # the package's other files (upstream.go, JsonText.java)
        here = os.path.dirname(LIBRARIES[language])
        ext = '.go' if language == 'go' else '.java'
        for name in os.listdir(here):
            if name.endswith(ext) and name != os.path.basename(path):
                shutil.copy(os.path.join(here, name), tmp)
    return path


def main(argv):
    node = 'node'
    if argv[:1] == ['--node'] and len(argv) == 2:
        node = argv[1]
    elif argv:
        sys.stderr.write('usage: broken_library_test.py [--node NODE]\n')
        return 2
    have = {'python': True, 'node': shutil.which(node) is not None,
            'go': shutil.which('go') is not None,
            'java': shutil.which('java') is not None and shutil.which('javac') is not None}
    passed = failed = 0

    def report(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
        print('%s %s' % ('pass' if ok else 'FAIL', what), flush=True)

    # Each run is a job; the runs go three at a time (a run is one worker start per check, so
    # it is mostly process start-up: 219 s one at a time, 76 s three at a time on two cores),
    # and are reported in the order listed.
    with tempfile.TemporaryDirectory(prefix='serdiff-broken-library-') as tmp:
        # (language, library or None, judge(status, failing, last) -> (ok, text), --only prefix)
        jobs = []
        for language in ('python', 'node', 'go', 'java'):
            if not have[language]:
                print('skipped: the %s library (%s is not installed)'
                      % (language, {'node': node, 'java': 'a JDK'}.get(language, language)))
                continue
            where = os.path.join(tmp, language + '-unchanged')
            os.mkdir(where)

            def judge(status, failing, last, language=language):
                return (status == 0 and not failing and last == '3 passed, 0 failed',
                        '%s: an unchanged copy passes the hello checks (%s)' % (language, last))
            # The copy is the library byte for byte, whose whole suite workers.Conformance<Lang>
            # runs: its hello shows that the copy is what the conformance worker loads and that
            # copying broke nothing (the whole suite again cost 80 s on two cores).
            jobs.append((language, copy_with(language, where), judge, 'hello.'))
        for k, (language, what, old, new, must_fail, allowed) in enumerate(MUTANTS):
            if not have[language]:
                continue
            where = os.path.join(tmp, 'mutant%d' % k)
            os.mkdir(where)
            library = copy_with(language, where, old, new)

            def judge(status, failing, last, language=language, what=what, old=old,
                      must_fail=must_fail, allowed=allowed, library=library):
                if library is None:
                    return (False, '%s mutant "%s": its text is not in the library exactly '
                            'once: %r' % (language, what, old))
                stray = [c for c in failing if not c.startswith(allowed)]
                ok = status == 1 and must_fail in failing and not stray
                return (ok, '%s mutant "%s": the suite fails (%s; failing: %s%s)'
                        % (language, what, last, ', '.join(failing) or 'none',
                           '; not expected: ' + ', '.join(stray) if stray else ''))
            jobs.append((language, library, judge, None))

        def run(job):
            language, library, judge, only = job
            if library is None:
                return judge(None, [], '')
            return judge(*run_suite(language, node, library, only))
        with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
            for ok, text in pool.map(run, jobs):
                report(ok, text)
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
