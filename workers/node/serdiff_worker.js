'use strict';
// serdiff_worker.js: serdiff's small library for writing a worker in Node.js (CommonJS, no
// dependencies). It speaks the worker protocol, version 1, of docs/workers.md over stdin/stdout:
// frames of a 4-byte big-endian length and one UTF-8 JSON object; the hello first; then one
// answer per request {"id", "op", "input"}, in order. stderr is left to the worker.
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
// the interchange form into the package's values and back stays out of the peak; a Rejected
// thrown by prepare is answered without a peak. Any other exception is a bug of the worker: the
// stack goes to stderr and the worker exits with status 4 (serdiff reports worker-crashed and
// restarts it). An op not in `ops` is answered declined. The end of stdin ends the worker with
// status 0; a malformed frame (longer than 256 MiB, not UTF-8, not one JSON object, no integer
// "id" or no string "op", cut short by the end of stdin) with status 3 and a message on stderr.
// Ops may return promises; requests are still answered one at a time, in order.
//
// Peak: V8 offers no per-call peak. Before each call the worker runs two minor garbage collections
// when global.gc exists (node --expose-gc; gc({type: 'minor'}): a full gc() costs milliseconds)
// and reads process.memoryUsage(); it reads it again when the op (its run) has returned, its
// output still referenced, and reports max(0, growth of heapUsed + external).
// `external` already includes `arrayBuffers` (Node's Buffers), so that is not added a second
// time. The hex text of the answer is built after the second reading: it is the protocol's cost,
// not the implementation's. Net growth at the end of the call, not a true peak: memory the call
// allocated and a collection freed before the call returned is not seen (none runs in a call
// that allocates less than the young generation, 1-16 MiB: the figure is then all the call
// allocated, at least its peak), and code V8 compiles for a path taken the first time counts.

const PROTOCOL_VERSION = 1;
const MAX_FRAME = 268435456; // 256 MiB, docs/workers.md

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

function writeFrame(obj) {
  let body = Buffer.from(JSON.stringify(obj), 'utf8');
  if (body.length > MAX_FRAME && obj.id !== undefined) {
    body = Buffer.from(JSON.stringify({ id: obj.id, ok: false, error: 'declined',
      message: `the answer takes ${body.length} bytes, over the protocol's 256 MiB frame`,
    }), 'utf8');
  }
  const frame = Buffer.allocUnsafe(4 + body.length);
  frame.writeUInt32BE(body.length, 0);
  body.copy(frame, 4);
  // Pipes are written synchronously by Node on Linux; the answer is out before the next read.
  process.stdout.write(frame);
}

function die(status, message) {
  process.stderr.write(`serdiff_worker: ${message}\n`);
  process.exit(status);
}

const HEX_RE = /^(?:[0-9a-f]{2})*$/;

function toHex(h) {
  if (typeof h === 'string') {
    if (!HEX_RE.test(h)) throw new Error(`op returned a "hex" string that is not lower-case hex`);
    return h;
  }
  if (h instanceof Uint8Array) {
    return Buffer.from(h.buffer, h.byteOffset, h.byteLength).toString('hex');
  }
  throw new Error(`op returned "hex" of type ${typeof h}, not a Buffer or string`);
}

function failureAnswer(id, e, peak) {
  if (e instanceof DeclinedOp) return { id, ok: false, error: 'declined', message: e.message };
  if (e instanceof Rejected) {
    const a = { id, ok: false, error: 'rejected', message: e.message };
    if (Number.isInteger(e.offset)) a.offset = e.offset;
    if (peak !== undefined) a.peak = peak;
    return a;
  }
  return null;
}

async function settle(x) {
  return x && typeof x.then === 'function' ? await x : x;
}

async function answer(spec, req) {
  const entry = Object.prototype.hasOwnProperty.call(spec.ops, req.op) ? spec.ops[req.op] : null;
  if (!entry) {
    const message = `${spec.name} does not answer op "${req.op}"`;
    return { id: req.id, ok: false, error: 'declined', message };
  }
  const op = typeof entry === 'function' ? { run: entry } : entry;
  let arg = req.input;
  if (op.prepare) {
    try {
      arg = await settle(op.prepare(req.input, req));
    } catch (e) {
      const a = failureAnswer(req.id, e, undefined);
      if (a) return a;
      throw e;
    }
  }
  if (collect) collect();
  const before = usedBytes();
  let result;
  let failure;
  try {
    result = await settle(op.run(arg, req));
  } catch (e) {
    failure = e;
  }
  const peak = Math.max(0, usedBytes() - before);
  if (failure !== undefined) {
    const a = failureAnswer(req.id, failure, peak);
    if (a) return a;
    throw failure;
  }
  if (op.finish) {
    try {
      result = await settle(op.finish(result, req));
    } catch (e) {
      const a = failureAnswer(req.id, e, peak);
      if (a) return a;
      throw e;
    }
  }
  if (!result || typeof result !== 'object') {
    throw new Error(`op "${req.op}" returned ${typeof result}`);
  }
  if (Object.prototype.hasOwnProperty.call(result, 'hex')) {
    return { id: req.id, ok: true, hex: toHex(result.hex), peak };
  }
  if (Object.prototype.hasOwnProperty.call(result, 'value')) {
    return { id: req.id, ok: true, value: result.value, peak };
  }
  throw new Error(`op "${req.op}" returned neither "hex" nor "value"`);
}

function parseRequest(body) {
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch (e) {
    die(3, 'malformed frame: not UTF-8');
  }
  let req;
  try {
    req = JSON.parse(text);
  } catch (e) {
    die(3, `malformed frame: not JSON (${e.message})`);
  }
  if (req === null || typeof req !== 'object' || Array.isArray(req)) {
    die(3, 'malformed frame: not a JSON object');
  }
  if (!Number.isInteger(req.id)) die(3, 'malformed frame: no integer "id"');
  if (typeof req.op !== 'string') die(3, 'malformed frame: no string "op"');
  if (req.input === undefined) req.input = {};
  req.raw = text;
  return req;
}

// serve({name, ops: {op: fn}, declined?: string}) — sends the hello and answers requests until
// stdin ends. `peak` (optional) replaces the hello's peak sentence.
function serve(spec) {
  if (!spec || typeof spec.name !== 'string') throw new Error('serve: a name is required');
  const ops = spec.declined ? {} : (spec.ops || {});
  const s = { name: spec.name, ops, declined: spec.declined };
  process.stdout.on('error', (e) => {
    // serdiff went away (EPIPE): nothing to answer to.
    process.exit(e && e.code === 'EPIPE' ? 0 : 3);
  });
  if (HAS_GC && !spec.declined) {
    // The first few forced collections of a process are followed by some 100-250 KB of heap
    // growth that no code asked for (V8 settling its spaces); let that happen before the hello.
    for (let k = 0; k < 8; k++) {
      global.gc();
      collect();
      usedBytes();
    }
  }
  if (spec.declined) {
    writeFrame({
      serdiff_worker: PROTOCOL_VERSION, name: spec.name, declined: String(spec.declined),
    });
  } else {
    writeFrame({ serdiff_worker: PROTOCOL_VERSION, name: spec.name, ops: Object.keys(ops),
      peak: spec.peak || peakText() });
  }

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
      if (item.malformed) die(3, item.malformed);
      const req = parseRequest(item.body);
      let a;
      if (s.declined) {
        a = { id: req.id, ok: false, error: 'declined', message: s.declined };
      } else {
        try {
          a = await answer(s, req);
        } catch (e) {
          const what = e && e.stack ? e.stack : e;
          die(4, `op "${req.op}" (id ${req.id}) failed in the worker itself: ${what}`);
        }
      }
      writeFrame(a);
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
        if (need > MAX_FRAME) {
          // Answer what came before it, then stop.
          queue.push({ malformed: `malformed frame: ${need} bytes, over the 256 MiB limit` });
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
      if (need >= 0 || buffered > 0) die(3, 'malformed frame: cut short by the end of stdin');
      process.exit(0);
    };
    if (!busy) finish();
    else {
      const t = setInterval(() => { if (!busy) { clearInterval(t); finish(); } }, 1);
    }
  });
}

// loadPackage(name, oraclesNodeDir): the package `name` from <oraclesNodeDir>/node_modules only
// (the lock file's copy, not one found elsewhere on the module path), at the version that
// <oraclesNodeDir>/package.json pins. Returns {mod, version} or {declined: reason}.
function loadPackage(name, oraclesNodeDir) {
  const path = require('path');
  const fs = require('fs');
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
    return { mod: require(resolved), version: installed };
  } catch (e) {
    const why = `failed to load on node ${process.version}: ${e.message}`;
    return { declined: `${name} ${installed} ${why}` };
  }
}

module.exports = { serve, Rejected, DeclinedOp, loadPackage, PROTOCOL_VERSION, MAX_FRAME };
