#!/usr/bin/python3
"""The conformance worker for workers/python/serdiff_worker.py (tests/worker_conformance/).

A worker with no implementation behind it: each op exists to make the library meet one rule of
docs/workers.md's "The worker library contract", and conformance.py checks the answer. Every
library has one such worker, with the same name, the same ops in the same order and the same
behaviour (conformance_worker.js is the Node one); a later language adds its own.

  echo.hex        {"hex": h}            -> hex: the bytes of h
  echo.value      {"value": v}          -> value: v
  reject          {"message", "offset"?} -> raises Rejected(message, offset)
  decline         {"message"}           -> raises DeclinedOp(message)
  throw           {"message"}           -> raises TypeError(message) in the measured step
  prepare.throw   {"message"}           -> its prepare raises TypeError(message)
  prepare.reject  {"message", "offset"?} -> its prepare raises Rejected
  prepare.decline {"message"}           -> its prepare raises DeclinedOp
  finish.throw    {"message"}           -> its finish raises TypeError(message)
  finish.reject   {"message", "offset"?} -> its finish raises Rejected
  staged          {"hex": h}            -> prepare, run, finish in turn: value {"reversed": the
                                           bytes of h reversed, "steps": the steps in order}
  value.nan       {}                    -> value {"x": NaN}, which JSON cannot carry
  bad.result      {}                    -> a result that is neither hex nor value
  print           {}                    -> prints a line to stdout, then hex ""
  exit            {}                    -> ends the process itself with status 7
  big             {"size": n}           -> hex: n zero bytes
  surrogate       {"where": w}          -> a lone surrogate (U+D83D, half of an emoji) where w
                                           says: "message" raises Rejected("option [<it>]"),
                                           "value" answers value {"s": "a<it>"}, "key" answers
                                           value {"<it>": 1}
  count           {}                    -> value {"runs": how many times this op has run in
                                           the process, this run included}

Environment: SERDIFF_CONFORMANCE_LIBRARY, the library file to load (default: the project's;
broken_library_test.py points it at a changed copy); SERDIFF_CONFORMANCE_DECLINED, a reason:
serve declined with it; SERDIFF_CONFORMANCE_FRAME_LIMIT, the frame limit passed to serve;
SERDIFF_CONFORMANCE_REHEARSE: serve with rehearse on; SERDIFF_CONFORMANCE_NAMES_LIBRARY, a
library name and version: serve's library.
"""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LIBRARY = os.environ.get('SERDIFF_CONFORMANCE_LIBRARY') or os.path.join(
    HERE, '..', '..', 'workers', 'python', 'serdiff_worker.py')
_spec = importlib.util.spec_from_file_location('serdiff_worker', LIBRARY)
sw = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sw)

NAME = 'conformance'
PEAK = 'conformance: the library measures the peak in its own way'


def _rejected(inp):
    return sw.Rejected(inp['message'], inp['offset']) if 'offset' in inp else \
        sw.Rejected(inp['message'])


def echo_hex(inp):
    return ('hex', bytes.fromhex(inp['hex']))


def echo_value(inp):
    return ('value', inp['value'])


def reject(inp):
    raise _rejected(inp)


def decline(inp):
    raise sw.DeclinedOp(inp['message'])


def throw(inp):
    raise TypeError(inp['message'])


def _raise_type_error(inp):
    raise TypeError(inp['message'])


def _raise_rejected(inp):
    raise _rejected(inp)


def _raise_declined(inp):
    raise sw.DeclinedOp(inp['message'])


def _empty(_):
    return ('hex', b'')


def _staged_prepare(inp):
    return {'data': bytes.fromhex(inp['hex']), 'steps': ['prepare']}


def _staged_run(arg):
    return {'data': arg['data'][::-1], 'steps': arg['steps'] + ['run']}


def _staged_finish(result):
    return ('value', {'reversed': result['data'].hex(), 'steps': result['steps'] + ['finish']})


def value_nan(_):
    return ('value', {'x': float('nan')})


def bad_result(_):
    return ('text', 'neither hex nor value')


def print_line(_):
    print('conformance: printed to stdout', flush=True)
    return ('hex', b'')


def exit_op(_):
    sys.exit(7)


def big(inp):
    return ('hex', bytes(inp['size']))


_runs = [0]


def count(_):
    _runs[0] += 1
    return ('value', {'runs': _runs[0]})


def surrogate(inp):
    lone = '\ud83d'
    if inp['where'] == 'message':
        raise sw.Rejected('option [%s]' % lone)
    if inp['where'] == 'key':
        return ('value', {lone: 1})
    return ('value', {'s': 'a' + lone})


OPS = {
    'echo.hex': echo_hex,
    'echo.value': echo_value,
    'reject': reject,
    'decline': decline,
    'throw': throw,
    'prepare.throw': sw.Op(_empty, prepare=_raise_type_error),
    'prepare.reject': sw.Op(_empty, prepare=_raise_rejected),
    'prepare.decline': sw.Op(_empty, prepare=_raise_declined),
    'finish.throw': sw.Op(lambda inp: inp, finish=_raise_type_error),
    'finish.reject': sw.Op(lambda inp: inp, finish=_raise_rejected),
    'staged': sw.Op(_staged_run, prepare=_staged_prepare, finish=_staged_finish),
    'value.nan': value_nan,
    'bad.result': bad_result,
    'print': print_line,
    'exit': exit_op,
    'big': big,
    'surrogate': surrogate,
    'count': count,
}

if __name__ == '__main__':
    options = {}
    if os.environ.get('SERDIFF_CONFORMANCE_FRAME_LIMIT'):
        options['frame_limit'] = int(os.environ['SERDIFF_CONFORMANCE_FRAME_LIMIT'])
    if os.environ.get('SERDIFF_CONFORMANCE_DECLINED'):
        options['declined'] = os.environ['SERDIFF_CONFORMANCE_DECLINED']
    if os.environ.get('SERDIFF_CONFORMANCE_REHEARSE'):
        options['rehearse'] = True
    if os.environ.get('SERDIFF_CONFORMANCE_NAMES_LIBRARY'):
        options['library'] = os.environ['SERDIFF_CONFORMANCE_NAMES_LIBRARY']
    sw.serve(name=NAME, ops=OPS, peak=PEAK, **options)
