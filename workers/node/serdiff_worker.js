'use strict';
// serdiff_worker.js: serdiff's small library for writing a worker in Node.js (CommonJS, no
// dependencies). It speaks the worker protocol, version 1, of docs/workers.md over stdin/stdout:
// frames of a 4-byte big-endian length and one UTF-8 JSON object; the hello first; then one
// answer per request {"id", "op", "input"}, in order.
//
// Usage (a worker is one file; its manifest's command is ["node", "--expose-gc", "worker.js"]):
//
//   const path = require('path');
//   const sw = require('../../workers/node/serdiff_worker.js');
//   const { serve, Rejected, DeclinedOp } = sw;
//   const pkg = sw.loadPackage('bson', path.join(__dirname, '..', 'node'));  // its node_modules
//   if (pkg.declined) serve({ name: 'my_oracle', declined: pkg.declined });  // hello says declined
//   else serve({ name: 'my_oracle', ops: {
//     'int64.to_decimal': (input) => ({ hex: Buffer.from(BigInt(input.value).toString()) }),
//     'bson.decode': (input) => { throw new Rejected('bad length', 0); },  // offset optional
//     'cql.serialize': (input) => { throw new DeclinedOp('type not supported'); },
//   } });
//
// An op gets (input, request) — request is {id, op, input, raw}, raw being the frame's JSON text,
// for ops that need the order of keys as written — and returns {hex: Buffer | Uint8Array |
// lower-case hex string} or {value: <JSON value>}, or throws Rejected(message, offset?) (the
// implementation refused the input) or DeclinedOp(message) (it cannot take this input; not
// compared). An op may instead be {prepare(input, request), run(prepared, request),
// finish(result, request)} (prepare and finish optional): only run is measured, so that turning
// the interchange form into the package's values and back stays out of the peak.
//
// What each situation gives (an exception from prepare, run or finish; a result of another shape;
// a malformed frame; the end of stdin; output to process.stdout, kept for the frames) is
// docs/workers.md's "The worker library contract", the same for every language's library and
// checked by tests/worker_conformance/. Ops may return promises; requests are still answered one
// at a time, in order.
//
// Peak: V8 offers no per-call peak. Before each call the worker runs two minor garbage collections
// when global.gc exists (node --expose-gc; gc({type: 'minor'}): a full gc() costs milliseconds)
// and reads process.memoryUsage(); it reads it again when the op (its run) has returned, its
// output still referenced, and reports max(0, growth of heapUsed + external). When the growth is
// negative (a collection inside the call freed garbage of earlier calls), the call is measured
// again after a full collection, and that run's growth is reported.
// `external` already includes `arrayBuffers` (Node's Buffers), so that is not added a second
// time. The hex text of the answer is built after the second reading: it is the protocol's cost,
// not the implementation's. Net growth at the end of the call, not a true peak: memory the call
// allocated and a collection freed before the call returned is not seen (none runs in a call
// that allocates less than the young generation, 1-16 MiB: the figure is then all the call
// allocated, at least its peak), and code V8 compiles for a path taken the first time counts.
//
// Timed calls (`serdiff review`): a request's "time": N (1..100000) adds to an accepted answer
// "ns", the nanoseconds (process.hrtime.bigint) of N timings of run alone on the same prepared
// input, each of B calls for "batch": B (2..1000000; the answer says "batch": B), else of one.

const PROTOCOL_VERSION = 1;
const MAX_FRAME = 268435456; // 256 MiB, docs/workers.md
const MAX_ID = 9007199254740991; // 2^53 - 1: the largest integer every JSON reader holds exactly
const EXIT_EOF = 0; // stdin ended at a frame boundary
const EXIT_PROTOCOL = 2; // a malformed frame or request
const EXIT_WORKER_BUG = 4; // the worker's own code broke the contract (a result of no known shape)

class Rejected extends Error {
  constructor(message, offset) {
    super(message);
    this.name = 'Rejected';
    if (offset !== undefined && offset !== null) this.offset = offset;
  }
}

class DeclinedOp extends Error {
  constructor(message) {
    super(message);
    this.name = 'DeclinedOp';
  }
}

const HAS_GC = typeof global.gc === 'function';

// Before each call: minor collections (scavenges of V8's young generation, 40-120 us each), not
// a full one (gc() with no argument: 4-15 ms with these packages loaded, which held a worker to
// under 150 calls a second). The young generation is where the call's allocations go; empty at
// the start, it holds all of them when the call returns unless they outgrew it (1-16 MiB). Two
// of them: V8 releases the memory of dead Buffers concurrently after a scavenge, and the second
// one waits for that, so that the previous call's Buffers are not freed during this call (which
// took their size off its figure, down to 0 for bson.array_keys of 10,000).
function minorCollector() {
  if (!HAS_GC) return null;
  try {
    global.gc({ type: 'minor' });
    return () => {
      global.gc({ type: 'minor' });
      global.gc({ type: 'minor' });
    };
  } catch (e) {
    return () => global.gc();
  }
}
const collect = minorCollector();

function peakText() {
  if (HAS_GC) {
    return 'growth of V8 heapUsed + external (Buffers included) from just before the call, ' +
      'minor GCs run first (--expose-gc), to its return with the output live: net growth at the ' +
      'end of the call, not a true peak; as no collection frees anything during a call that ' +
      'allocates less than the young generation (1-16 MiB), it is then the bytes the call ' +
      'allocated (at least its peak); code V8 compiles on a path taken for the first time counts';
  }
  return 'net growth of V8 heapUsed + external (Buffers included) across the call, without a ' +
    'collection first (node started without --expose-gc): garbage of earlier calls may be ' +
    'collected during the call, so the figure can be low; not a true peak';
}

function usedBytes() {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

const REHEARSE_MAX_REQUEST = 256 << 10; // serve's rehearse: requests of at most this many bytes
const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

// A frame or request that breaks the protocol: the worker ends with status 2.
class ProtocolError extends Error {}
// The worker's own code broke the contract (a result of no known shape): status 4.
class WorkerBug extends Error {}

// The contract's text for a thrown value: the error's class name, then ": " and its message when
// it has one. A thrown value that is not an object (throw 'text') gives its text alone.
function errorText(e) {
  if (e === null || (typeof e !== 'object' && typeof e !== 'function')) return String(e);
  let cls = '';
  try {
    if (e.constructor && typeof e.constructor.name === 'string') cls = e.constructor.name;
    if (!cls && typeof e.name === 'string') cls = e.name;
  } catch (x) {
    cls = '';
  }
  const text = e.message === undefined || e.message === null ? '' : String(e.message);
  cls = cls || 'Error';
  return text ? `${cls}: ${text}` : cls;
}

const declinedAnswer = (id, message) => ({ id, ok: false, error: 'declined', message });

// The answer for a Rejected or a DeclinedOp; null for anything else.
function failureAnswer(id, e, peak) {
  if (e instanceof DeclinedOp) return declinedAnswer(id, e.message);
  if (e instanceof Rejected) {
    const a = { id, ok: false, error: 'rejected', message: e.message };
    if (Number.isInteger(e.offset) && e.offset >= 0) a.offset = e.offset;
    if (peak !== undefined) a.peak = peak;
    return a;
  }
  return null;
}

const HEX_RE = /^(?:[0-9a-f]{2})*$/;

// The lower-case hex of an op's "hex", or null when it is not bytes.
function toHex(h) {
  if (typeof h === 'string') return HEX_RE.test(h) ? h : null;
  if (h instanceof Uint8Array) {
    return Buffer.from(h.buffer, h.byteOffset, h.byteLength).toString('hex');
  }
  return null;
}

function describe(x) {
  if (x === null || typeof x !== 'object') return x === null ? 'null' : typeof x;
  const keys = Object.keys(x).slice(0, 4);
  return `an object with keys [${keys.join(', ')}]`;
}

async function settle(x) {
  return x && typeof x.then === 'function' ? await x : x;
}

// A request's "time": N (an integer 1..100000) asks, after an accepted answer, for N more calls
// of run() alone, each timed (process.hrtime.bigint, nanoseconds): the answer's "ns" (`serdiff
// review`'s speed, docs/workers.md "Timed calls"). Anything else: 0, no timing.
const MAX_TIMED_CALLS = 100000;
function timedCalls(req) {
  const n = req.time;
  return Number.isInteger(n) && n >= 1 && n <= MAX_TIMED_CALLS ? n : 0;
}

// Calls per timing: a request's "batch" when an integer in 2..1000000 (echoed), else 1.
const MAX_BATCH = 1000000;
function batchOf(req) {
  const b = req.batch;
  return Number.isInteger(b) && b >= 2 && b <= MAX_BATCH ? b : 1;
}

async function timeRun(op, arg, req, n, batch) {
  const ns = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    for (let b = 0; b < batch; b++) {
      const r = op.run(arg, req);
      // A synchronous op is not awaited: an await is a microtask hop, not the op's time.
      if (r && typeof r.then === 'function') await r;
    }
    ns.push(Number(process.hrtime.bigint() - t0));
  }
  return ns;
}

async function answer(spec, req) {
  const { id } = req;
  const entry = hasOwn(spec.ops, req.op) ? spec.ops[req.op] : null;
  if (!entry) return declinedAnswer(id, `${spec.name} does not answer op "${req.op}"`);
  const op = typeof entry === 'function' ? { run: entry } : entry;
  let arg = req.input;
  if (op.prepare) {
    try {
      arg = await settle(op.prepare(req.input, req));
    } catch (e) { // the input has no form the package takes
      return failureAnswer(id, e, undefined) ||
        declinedAnswer(id, `input not taken: ${errorText(e)}`);
    }
  }
  // "peak": false: serdiff will not use this call's peak (a peer in a fuzz binary, a second
  // run), so the call is neither rehearsed nor measured (no collections before it), and the
  // answer has no "peak".
  const measure = req.peak !== false;
  // Once unmeasured: a path's first-use costs are not charged to the input. Not for a request
  // over REHEARSE_MAX_REQUEST bytes: its own allocations dwarf them, and the slowest calls would
  // double.
  // (The frame's JSON text in UTF-16 units: its bytes for the ASCII that requests nearly are.)
  if (measure && spec.rehearse &&
      (req.raw === undefined || req.raw.length <= REHEARSE_MAX_REQUEST)) {
    try {
      await settle(op.run(arg, req));
    } catch (e) {
      // The measured call meets it again and answers for it.
    }
  }
  if (measure && collect) collect();
  const before = measure ? usedBytes() : 0;
  let result;
  let failure;
  let threw = false;
  try {
    result = await settle(op.run(arg, req));
  } catch (e) {
    failure = e;
    threw = true;
  }
  const growth = measure ? usedBytes() - before : 0;
  // Not measured: no "peak" key at all (a value answer's strict writer refuses undefined).
  const peak = measure ? Math.max(0, growth) : undefined;
  const withPeak = (a) => {
    if (peak !== undefined) a.peak = peak;
    return a;
  };
  if (threw) { // the package threw on the input: its way of saying no
    return failureAnswer(id, failure, peak) ||
      withPeak({ id, ok: false, error: 'rejected', message: errorText(failure) });
  }
  if (op.finish) {
    try {
      result = await settle(op.finish(result, req));
    } catch (e) { // an accepted result the worker cannot present
      return failureAnswer(id, e, peak) ||
        declinedAnswer(id, `result not presentable: ${errorText(e)}`);
    }
  }
  if (result !== null && typeof result === 'object') {
    let a = null;
    if (hasOwn(result, 'hex')) {
      const hex = toHex(result.hex);
      if (hex !== null) a = withPeak({ id, ok: true, hex });
    } else if (hasOwn(result, 'value')) {
      a = withPeak({ id, ok: true, value: result.value });
    }
    if (a !== null) {
      // A negative growth: a collection ran inside the call and freed more than the call kept,
      // garbage of earlier calls that the minor collections before it had left (promoted to the
      // old generation), so the figure says nothing about this call (0 would read as
      // "allocated nothing"; seen on js-bson calls of 8 MB, about one in six). An accepted call
      // is measured again, once: a full collection first (milliseconds, only on this path),
      // then run alone on the same prepared input, its result dropped. The answer is the first
      // run's, fixed before (its hex already text, a value copied), so that an op whose result
      // shares memory with its own state cannot change it. A rejected call keeps 0.
      let fixed = growth < 0 && HAS_GC;
      if (fixed && hasOwn(a, 'value')) {
        try {
          a.value = structuredClone(a.value);
        } catch (e) { // not cloneable (a function): not JSON either, declined when written
          fixed = false;
        }
      }
      if (fixed) {
        global.gc();
        const again = usedBytes();
        try {
          await settle(op.run(arg, req));
        } catch (e) {
          // This run only measures; the answer stands.
        }
        a.peak = Math.max(0, usedBytes() - again);
      }
      const n = timedCalls(req);
      if (n > 0) {
        const batch = batchOf(req);
        a.ns = await timeRun(op, arg, req, n, batch);
        if (batch > 1) a.batch = batch;
      }
      return a;
    }
  }
  throw new WorkerBug(`op "${req.op}" (id ${id}) returned ${describe(result)}, not {hex: bytes ` +
    'or lower-case hex} or {value: a JSON value}');
}

// JSON.stringify writes NaN and the infinities as null and drops undefined: a value holding one
// would reach serdiff changed. Refused instead, as Python's encoder refuses them.
function strictJson(key, v) {
  const t = typeof v;
  if (t === 'number' && !Number.isFinite(v)) throw new TypeError(`${v} is not a JSON number`);
  if (t === 'bigint') throw new TypeError('a BigInt has no JSON form (send a decimal string)');
  if (t === 'undefined' || t === 'function' || t === 'symbol') {
    throw new TypeError(`${t} has no JSON form`);
  }
  // A lone surrogate has no UTF-8 form: JSON.stringify would write it as a \ud800-style escape,
  // which serdiff's JSON reader (and RFC 7493's I-JSON) refuses as not text.
  if (t === 'string' && !v.isWellFormed()) {
    throw new TypeError('a string holding a lone surrogate has no UTF-8 form');
  }
  if (t === 'object' && v !== null && !Array.isArray(v)) {
    for (const k of Object.keys(v)) {
      if (!k.isWellFormed()) throw new TypeError('a key holding a lone surrogate has no UTF-8 form');
    }
  }
  return v;
}

// The answer's frame body; a declined answer instead when it cannot be written or is too long.
function answerBody(a, limit) {
  let text;
  // A message is text for a reader: a lone surrogate in it (a library quoting one UTF-16 unit of
  // a character, as js-bson's "regular expression option [\ud83d]" does) becomes U+FFFD.
  if (typeof a.message === 'string') a.message = a.message.toWellFormed();
  try {
    text = a.ok && hasOwn(a, 'value') ? JSON.stringify(a, strictJson) : JSON.stringify(a);
  } catch (e) {
    text = JSON.stringify(declinedAnswer(a.id, `result not presentable: ${errorText(e)}`));
  }
  let body = Buffer.from(text, 'utf8');
  if (body.length > limit) { // serdiff would take it for a protocol error
    const why = `the answer of ${body.length} bytes is over the frame limit of ${limit} bytes`;
    body = Buffer.from(JSON.stringify(declinedAnswer(a.id, why)), 'utf8');
  }
  return body;
}

// BOMs are kept (ignoreBOM), so that a frame starting with one is not JSON, as in every library.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

// {id, op, input, time, batch, peak, raw} of a frame's body, or a ProtocolError naming what is
// wrong with it.
function parseRequest(body) {
  let text;
  try {
    text = UTF8.decode(body);
  } catch (e) {
    throw new ProtocolError('a frame that is not UTF-8');
  }
  let req;
  try {
    req = JSON.parse(text);
  } catch (e) {
    throw new ProtocolError(`a frame that is not UTF-8 JSON: ${e.message}`);
  }
  if (req === null || typeof req !== 'object' || Array.isArray(req)) {
    throw new ProtocolError('a frame that is not one JSON object');
  }
  if (!Number.isInteger(req.id) || req.id < 0 || req.id > MAX_ID) {
    throw new ProtocolError(hasOwn(req, 'id')
      ? 'a request whose "id" is not an integer in 0..2^53-1' : 'a request without "id"');
  }
  if (typeof req.op !== 'string') {
    throw new ProtocolError(hasOwn(req, 'op')
      ? 'a request whose "op" is not a string' : 'a request without "op"');
  }
  const { input } = req;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new ProtocolError(hasOwn(req, 'input') ? 'a request whose "input" is not a JSON object'
      : 'a request without "input"');
  }
  return {
    id: req.id, op: req.op, input, time: req.time, batch: req.batch, peak: req.peak, raw: text,
  };
}

function checkSpec(spec) {
  if (!spec || typeof spec !== 'object') {
    throw new TypeError('serve: takes one object {name, ops, ...}');
  }
  if (typeof spec.name !== 'string' || !spec.name) {
    throw new TypeError('serve: name must be a non-empty string');
  }
  const ops = spec.declined !== undefined && spec.declined !== null ? {} : (spec.ops || {});
  for (const [k, op] of Object.entries(ops)) {
    if (typeof op !== 'function' && !(op && typeof op.run === 'function')) {
      throw new TypeError(`serve: op "${k}" is neither a function nor {prepare?, run, finish?}`);
    }
  }
  const limit = spec.frameLimit === undefined ? MAX_FRAME : spec.frameLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_FRAME) {
    throw new TypeError(`serve: frameLimit must be in 1..${MAX_FRAME}`);
  }
  return { ops, limit };
}

// serve({name, ops: {op: fn or {prepare?, run, finish?}}, peak?, declined?, frameLimit?,
// rehearse?, library?}) — sends the hello and answers requests until stdin ends, as Python's
// serve(name=, ops=, peak=, declined=, frame_limit=, rehearse=, library=). library: the
// library's name and the version found at run time ("bson 7.3.4"), the hello's "library",
// which serdiff prints beside the worker's calls. peak: the hello's sentence on how the peak is
// measured (the library's own by default). declined: a reason, when the worker cannot run (its
// package is missing); ops are then ignored. frameLimit: the longest frame taken or sent, 256
// MiB; lower only in tests. rehearse: true runs each call once unmeasured before the measured
// one (same prepared input, result or exception dropped), so that what V8 builds on a path's
// first use (code, feedback) is not charged to the input that takes it first; costs one more run
// per call (not for requests over 256 KiB, REHEARSE_MAX_REQUEST).
function serve(spec) {
  const { ops, limit } = checkSpec(spec);
  const declined = spec.declined !== undefined && spec.declined !== null
    ? String(spec.declined) : null;
  const s = { name: spec.name, ops, rehearse: spec.rehearse === true };
  // The measurement itself warmed up before the first request: the first process.memoryUsage()
  // after the first minor collections grew the heap by some 175 KB, which the first measured
  // call of every worker was charged (node_cassandra: 177,680 B for an int whose later calls
  // read 832 B).
  for (let i = 0; i < 3; i++) {
    if (collect) collect();
    usedBytes();
  }

  function die(status, message) {
    process.stderr.write(`${spec.name} worker: ${message}\n`);
    process.exit(status);
  }

  // Frames go to the real stdout; what the worker's code writes there goes to stderr.
  const stdoutWrite = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk, encoding, cb) => process.stderr.write(chunk, encoding, cb);
  function writeFrame(body) {
    const frame = Buffer.allocUnsafe(4 + body.length);
    frame.writeUInt32BE(body.length, 0);
    body.copy(frame, 4);
    // Pipes are written synchronously by Node on Linux; the answer is out before the next read.
    stdoutWrite(frame);
  }
  process.stdout.on('error', (e) => {
    if (e && e.code === 'EPIPE') process.exit(EXIT_EOF); // serdiff went away: nothing to answer
    die(EXIT_WORKER_BUG, `cannot write its answers: ${e && e.message}`);
  });

  if (HAS_GC && declined === null) {
    // The first few forced collections of a process are followed by some 100-250 KB of heap
    // growth that no code asked for (V8 settling its spaces); let that happen before the hello.
    for (let k = 0; k < 8; k++) {
      global.gc();
      collect();
      usedBytes();
    }
  }
  const hello = declined !== null
    ? { serdiff_worker: PROTOCOL_VERSION, name: spec.name, declined }
    : { serdiff_worker: PROTOCOL_VERSION, name: spec.name, ops: Object.keys(ops),
      peak: spec.peak === undefined || spec.peak === null ? peakText() : String(spec.peak) };
  if (declined === null && spec.library !== undefined && spec.library !== null) {
    hello.library = String(spec.library);
  }
  writeFrame(Buffer.from(JSON.stringify(hello), 'utf8'));

  const chunks = [];
  let buffered = 0;
  let need = -1; // body length of the frame being read, -1 while its header is incomplete
  const queue = [];
  let busy = false;
  let stopped = false;

  function take(n) {
    const out = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, buffered);
    chunks.length = 0;
    if (out.length > n) chunks.push(out.subarray(n));
    buffered = out.length - n;
    return out.subarray(0, n);
  }

  async function drain() {
    if (busy) return;
    busy = true;
    while (queue.length) {
      const item = queue.shift();
      if (item.malformed) die(EXIT_PROTOCOL, `protocol error: ${item.malformed}`);
      let req;
      try {
        req = parseRequest(item.body);
      } catch (e) {
        die(EXIT_PROTOCOL, `protocol error: ${e.message}`);
      }
      let a;
      if (declined !== null) {
        a = declinedAnswer(req.id, declined);
      } else {
        try {
          a = await answer(s, req);
        } catch (e) {
          const what = e instanceof WorkerBug ? e.message
            : `op "${req.op}" (id ${req.id}): ${e && e.stack ? e.stack : e}`;
          die(EXIT_WORKER_BUG, `bug in the worker: ${what}`);
        }
      }
      writeFrame(answerBody(a, limit));
    }
    busy = false;
  }

  process.stdin.on('data', (chunk) => {
    if (stopped) return;
    chunks.push(chunk);
    buffered += chunk.length;
    for (;;) {
      if (need < 0) {
        if (buffered < 4) break;
        const head = take(4);
        need = head.readUInt32BE(0);
        if (need > limit) {
          // Answer what came before it, then stop.
          queue.push({ malformed: `a frame of ${need} bytes (limit ${limit})` });
          process.stdin.pause();
          stopped = true;
          chunks.length = 0;
          buffered = 0;
          break;
        }
      }
      if (buffered < need) break;
      const body = take(need);
      need = -1;
      queue.push({ body });
    }
    drain();
  });
  process.stdin.on('end', () => {
    const finish = () => {
      if (need >= 0 || buffered > 0) {
        die(EXIT_PROTOCOL, need >= 0
          ? `protocol error: the stream ended inside a frame (${buffered} of ${need} bytes)`
          : 'protocol error: the stream ended inside a frame length');
      }
      process.exit(EXIT_EOF);
    };
    if (!busy) finish();
    else {
      const t = setInterval(() => { if (!busy) { clearInterval(t); finish(); } }, 1);
    }
  });
}

// loadPackage(name, oraclesNodeDir): the package `name` from <oraclesNodeDir>/node_modules only
// (the lock file's copy, not one found elsewhere on the module path), at the version that
// <oraclesNodeDir>/package.json pins. Returns {mod, version, modulesDir: the node_modules folder
// it came from} or {declined: reason}.
// SERDIFF_NODE_PACKAGES=<dir> in the environment loads it from <dir>/node_modules instead, at
// whatever version is installed there (`npm install --prefix <dir> bson@6.10.4`): another version
// of a shipped peer, e.g. each side of `serdiff review --before-env/--after-env`.
function loadPackage(name, oraclesNodeDir) {
  const path = require('path');
  const fs = require('fs');
  const override = process.env.SERDIFF_NODE_PACKAGES;
  if (override) {
    const dir = path.resolve(override);
    let version;
    try {
      version = JSON.parse(fs.readFileSync(
        path.join(dir, 'node_modules', ...name.split('/'), 'package.json'), 'utf8')).version;
    } catch (e) {
      return { declined: `${name} is not installed in SERDIFF_NODE_PACKAGES=${override}` };
    }
    try {
      return { mod: require(require.resolve(name, { paths: [dir] })), version, modulesDir: path.join(dir, 'node_modules') };
    } catch (e) {
      return { declined: `${name} ${version} failed to load on node ${process.version}: ${e.message}` };
    }
  }
  const hint = 'run scripts/bootstrap (npm ci in oracles/node)';
  const pkgJson = path.join(oraclesNodeDir, 'node_modules', ...name.split('/'), 'package.json');
  let installed;
  try {
    installed = JSON.parse(fs.readFileSync(pkgJson, 'utf8')).version;
  } catch (e) {
    return { declined: `${name} is not installed: ${hint}` };
  }
  let pinned;
  try {
    const own = JSON.parse(fs.readFileSync(path.join(oraclesNodeDir, 'package.json'), 'utf8'));
    pinned = own.dependencies[name];
  } catch (e) {
    pinned = undefined;
  }
  if (pinned !== undefined && pinned !== installed) {
    const why = `is installed but oracles/node/package.json pins ${pinned}`;
    return { declined: `${name} ${installed} ${why}: ${hint}` };
  }
  try {
    const resolved = require.resolve(name, { paths: [oraclesNodeDir] });
    if (!resolved.startsWith(path.join(oraclesNodeDir, 'node_modules') + path.sep)) {
      return { declined: `${name} is not installed: ${hint}` };
    }
    return { mod: require(resolved), version: installed, modulesDir: path.join(oraclesNodeDir, 'node_modules') };
  } catch (e) {
    const why = `failed to load on node ${process.version}: ${e.message}`;
    return { declined: `${name} ${installed} ${why}` };
  }
}

// The upstream reproducers a worker's "serdiff.upstream" op writes (UPSTREAM_OP,
// upstreamProgram, sourceBetween) are in workers/node/upstream.js.
module.exports = {
  serve, Rejected, DeclinedOp, loadPackage, PROTOCOL_VERSION, MAX_FRAME,
};
