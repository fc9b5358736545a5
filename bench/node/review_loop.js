'use strict';
// A plain timing loop outside `serdiff review` (docs/benchmarks.md, "serdiff review's timing
// against plain loops"): the call the js_bson worker's bson.array_keys op makes,
// BSON.serialize({a: new Array(n).fill(null)}), on bson_array_keys' size ladder, measured as the
// review measures (15 rounds of 20 calls timed with process.hrtime.bigint, the median call of
// each round, the median round) after a warm-up of the same call. The package is js-bson from
// the folder given (one holding node_modules/bson: oracles/node, or oracles/node_review for the
// older release). Prints one JSON line: the version and [count, ns] pairs.
//
// Usage: node bench/node/review_loop.js oracles/node
//        node bench/node/review_loop.js oracles/node_review
const path = require('path');

const dir = path.resolve(process.argv[2] || path.join(__dirname, '..', '..', 'oracles', 'node'));
const BSON = require(path.join(dir, 'node_modules', 'bson'));
const { version } = require(path.join(dir, 'node_modules', 'bson', 'package.json'));

const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const call = (n) => BSON.serialize({ a: new Array(n).fill(null) });

const out = [];
for (const n of [0, 1, 10, 100, 1000, 10000, 100000, 200000]) {
  for (let k = 0; k < Math.max(50, 3000000 / (n + 100)); k++) call(n);
  const rounds = [];
  for (let r = 0; r < 15; r++) {
    const ns = [];
    for (let c = 0; c < 20; c++) {
      const t0 = process.hrtime.bigint();
      call(n);
      ns.push(Number(process.hrtime.bigint() - t0));
    }
    rounds.push(median(ns));
  }
  out.push([n, median(rounds)]);
}
console.log(JSON.stringify({ version, ns: out }));
