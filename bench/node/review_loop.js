'use strict';
// A plain timing loop outside `serdiff review` (docs/benchmarks.md, "serdiff review's timing
// against plain loops"): the call the js_bson worker's bson.array_keys op makes,
// BSON.serialize({a: new Array(n).fill(null)}), on bson_array_keys' size ladder. Each size in
// a fresh node process (V8's type feedback from other sizes moves a figure by 10 %): a warm-up
// of the same call (3,000,000 / (n + 100) calls, at least 50), then as many calls per timing as
// last 20 us (at least one), 15 rounds of 20 timings with process.hrtime.bigint: the median
// timing of each round, the median round, per call. The package is js-bson from the folder given
// (one holding node_modules/bson: oracles/node, or oracles/node_review for the older release).
// Prints one JSON line: the version and [count, ns] pairs.
//
// Between rounds the loop returns to the event loop once (setImmediate, no idle time), as a
// worker does between two requests and as any Node program does between two events: V8 runs the
// garbage collector's foreground tasks only then. --sync keeps every round in one synchronous
// run (no turn of the event loop at all); on js-bson 6.10.4's calls of 8 MB it was 9-14 %
// slower, which is that difference (docs/benchmarks.md).
//
// Usage: node bench/node/review_loop.js [--sync] oracles/node [COUNT ...]
//        node bench/node/review_loop.js [--sync] oracles/node_review [COUNT ...]
// (with no COUNT: the ladder, 0 to 200,000, each count run as `... DIR COUNT` in three processes
// of its own, the median of the three: as `serdiff review` shares its rounds over three fresh
// processes, because one process's figure for a call of a microsecond moves by 10 % or more
// from one process to the next)
const path = require('path');

const args = process.argv.slice(2);
const sync = args[0] === '--sync';
if (sync) args.shift();
const dir = path.resolve(args[0] || path.join(__dirname, '..', '..', 'oracles', 'node'));
const BSON = require(path.join(dir, 'node_modules', 'bson'));
const { version } = require(path.join(dir, 'node_modules', 'bson', 'package.json'));

const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const call = (n) => BSON.serialize({ a: new Array(n).fill(null) });
const turn = () => new Promise((resolve) => setImmediate(resolve));

const counts = args.slice(1).map(Number);
if (counts.length === 0) {
  const { execFileSync } = require('child_process');
  const out = [];
  for (const n of [0, 1, 10, 100, 1000, 10000, 100000, 200000]) {
    const argv = [__filename, ...(sync ? ['--sync'] : []), dir, String(n)];
    const runs = [];
    for (let p = 0; p < 3; p++) {
      runs.push(JSON.parse(execFileSync(process.execPath, argv, { encoding: 'utf8' })).ns[0][1]);
    }
    out.push([n, median(runs)]);
  }
  console.log(JSON.stringify({ version, sync, ns: out }));
  process.exit(0);
}

(async () => {
  const out = [];
  for (const n of counts) {
    for (let k = 0; k < Math.max(50, 3000000 / (n + 100)); k++) call(n);
    let t0 = process.hrtime.bigint();
    call(n);
    const one = Number(process.hrtime.bigint() - t0);
    const batch = Math.max(1, Math.ceil(20000 / Math.max(one, 1)));
    const rounds = [];
    for (let r = 0; r < 15; r++) {
      if (!sync) await turn();
      const ns = [];
      for (let c = 0; c < 20; c++) {
        t0 = process.hrtime.bigint();
        for (let b = 0; b < batch; b++) call(n);
        ns.push(Number(process.hrtime.bigint() - t0) / batch);
      }
      rounds.push(median(ns));
    }
    out.push([n, Math.round(median(rounds))]);
  }
  console.log(JSON.stringify({ version, sync, ns: out }));
})();
