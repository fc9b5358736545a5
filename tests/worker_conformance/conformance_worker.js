'use strict';
// The conformance worker for workers/node/serdiff_worker.js (tests/worker_conformance/): the same
// name, ops, order and behaviour as conformance_worker.py, whose docstring lists each op. It has
// no implementation behind it: each op makes the library meet one rule of docs/workers.md's
// "The worker library contract", and conformance.py checks the answer.
//
// Environment: SERDIFF_CONFORMANCE_LIBRARY, the library file to load (default: the project's;
// broken_library_test.py points it at a changed copy); SERDIFF_CONFORMANCE_DECLINED, a reason:
// serve declined with it; SERDIFF_CONFORMANCE_FRAME_LIMIT, the frame limit passed to serve;
// SERDIFF_CONFORMANCE_NAMES_LIBRARY, a library name and version: serve's library.
const path = require('path');

const library = process.env.SERDIFF_CONFORMANCE_LIBRARY ||
  path.join(__dirname, '..', '..', 'workers', 'node', 'serdiff_worker.js');
const { serve, Rejected, DeclinedOp } = require(path.resolve(library));

const rejected = (input) => new Rejected(input.message, input.offset);
const raiseTypeError = (input) => { throw new TypeError(input.message); };
const raiseRejected = (input) => { throw rejected(input); };
const raiseDeclined = (input) => { throw new DeclinedOp(input.message); };
const empty = () => ({ hex: Buffer.alloc(0) });

let runs = 0; // the count op's runs in this process
const ops = {
  'echo.hex': (input) => ({ hex: Buffer.from(input.hex, 'hex') }),
  'echo.value': (input) => ({ value: input.value }),
  reject: raiseRejected,
  decline: raiseDeclined,
  throw: raiseTypeError,
  'prepare.throw': { prepare: raiseTypeError, run: empty },
  'prepare.reject': { prepare: raiseRejected, run: empty },
  'prepare.decline': { prepare: raiseDeclined, run: empty },
  'finish.throw': { run: (input) => input, finish: raiseTypeError },
  'finish.reject': { run: (input) => input, finish: raiseRejected },
  staged: {
    prepare: (input) => ({ data: Buffer.from(input.hex, 'hex'), steps: ['prepare'] }),
    run: (a) => ({ data: Buffer.from(a.data).reverse(), steps: a.steps.concat(['run']) }),
    finish: (r) => ({
      value: { reversed: r.data.toString('hex'), steps: r.steps.concat(['finish']) },
    }),
  },
  'value.nan': () => ({ value: { x: NaN } }),
  'bad.result': () => ({ text: 'neither hex nor value' }),
  print: () => {
    console.log('conformance: printed to stdout');
    return { hex: '' };
  },
  exit: () => process.exit(7),
  big: (input) => ({ hex: Buffer.alloc(input.size) }),
  surrogate: (input) => {
    const lone = '\ud83d';
    if (input.where === 'message') throw new Rejected(`option [${lone}]`);
    if (input.where === 'key') return { value: { [lone]: 1 } };
    return { value: { s: `a${lone}` } };
  },
  count: () => {
    runs += 1;
    return { value: { runs } };
  },
};

const spec = {
  name: 'conformance', ops, peak: 'conformance: the library measures the peak in its own way',
};
if (process.env.SERDIFF_CONFORMANCE_FRAME_LIMIT) {
  spec.frameLimit = Number(process.env.SERDIFF_CONFORMANCE_FRAME_LIMIT);
}
if (process.env.SERDIFF_CONFORMANCE_REHEARSE) spec.rehearse = true;
if (process.env.SERDIFF_CONFORMANCE_NAMES_LIBRARY) {
  spec.library = process.env.SERDIFF_CONFORMANCE_NAMES_LIBRARY;
}
if (process.env.SERDIFF_CONFORMANCE_DECLINED) {
  spec.declined = process.env.SERDIFF_CONFORMANCE_DECLINED;
}
serve(spec);
