'use strict';
// serdiff worker "js_bson": MongoDB's js-bson (npm package bson, version pinned in
// oracles/node/package.json) as a third opinion on BSON (docs/workers.md, docs/bson.md).
//
//   bson.encode      {"document": <canonical Extended JSON v2>} -> EJSON.parse(text, {relaxed: false}),
//                    BSON.serialize; or {"bson": hex} -> BSON.deserialize (types kept: no promotion)
//                    then BSON.serialize. BSON.calculateObjectSize must agree with the bytes written
//                    (else rejected: a size pass that disagrees with the bytes is a finding).
//   bson.decode      {"bson": hex} -> BSON.deserialize with UTF-8 validation; accepted: hex of the
//                    re-serialization; an exception: rejected.
//   bson.array_keys  {"count": n} -> the key bytes ("0\0", "1\0", ...) BSON.serialize writes for
//                    {a: new Array(n).fill(null)}.
//
// A JavaScript object lists integer-like keys ("0", "1", ... below 2^32 - 1) first, in numeric
// order, whatever order they were written in, and keeps one value per key. A document whose keys
// would be reordered or merged is declined (js-bson cannot hold it as given), not compared; so is
// one holding a type js-bson cannot write (undefined, DBPointer), a UTC datetime beyond a JS
// Date's +-8.64e15 ms (js-bson would write 0 ms for it) or, given as bytes, a key or regex with
// ill-formed UTF-8 (js-bson reads those as U+FFFD without complaint).
const path = require('path');
const {
  serve, Rejected, DeclinedOp, loadPackage,
} = require('../../workers/node/serdiff_worker.js');
const { UPSTREAM_OP, upstreamProgram, sourceBetween } = require('../../workers/node/upstream.js');

const NAME = 'js_bson';
const pkg = loadPackage('bson', path.join(__dirname, '..', 'node'));
if (pkg.declined) {
  serve({ name: NAME, declined: pkg.declined });
} else {
  const BSON = pkg.mod;

  // upstream: begin keep
  // Deserialize keeping every type as it is on the wire, so that serialize writes it back.
  const KEEP_TYPES = {
    promoteValues: false, promoteLongs: false, promoteBuffers: false, bsonRegExp: true,
    useBigInt64: false, allowObjectSmallerThanBufferSize: false,
  };
  // upstream: end keep

  function isArrayIndex(k) {
    return /^(?:0|[1-9][0-9]*)$/.test(k) && Number(k) < 4294967295;
  }

  // Why a JS object cannot hold these keys in this order, or null when it can.
  function keyOrderProblem(keys) {
    const seen = new Set();
    for (const k of keys) {
      if (seen.has(k)) return `duplicate key ${JSON.stringify(k)} (a JavaScript object keeps one value per key)`;
      seen.add(k);
    }
    const idx = keys.filter(isArrayIndex).sort((a, b) => Number(a) - Number(b));
    const js = idx.concat(keys.filter((k) => !isArrayIndex(k)));
    for (let i = 0; i < keys.length; i++) {
      if (js[i] !== keys[i]) {
        return `keys ${JSON.stringify(keys.slice(0, 8))}${keys.length > 8 ? '...' : ''} are not in ` +
          'JavaScript object order (integer-like keys first, ascending): js-bson would write them reordered';
      }
    }
    return null;
  }

  // --- An order-keeping JSON reader, for the keys of the frame as written. ---
  // Objects come back as {keys: [...], values: [...]}; only the key order is used.
  function parseOrdered(text) {
    let i = 0;
    const ws = () => { while (i < text.length && ' \t\r\n'.includes(text[i])) i++; };
    function str() {
      const start = i;
      i++;
      for (;;) {
        const c = text.charCodeAt(i);
        if (Number.isNaN(c)) throw new Error('unterminated string');
        if (c === 0x5c) { i += 2; continue; }
        i++;
        if (c === 0x22) break;
      }
      return JSON.parse(text.slice(start, i));
    }
    function value() {
      ws();
      const c = text[i];
      if (c === '{') {
        i++;
        const node = { keys: [], values: [] };
        ws();
        if (text[i] === '}') { i++; return node; }
        for (;;) {
          ws();
          node.keys.push(str());
          ws();
          i++; // ':'
          node.values.push(value());
          ws();
          if (text[i++] === '}') return node;
        }
      }
      if (c === '[') {
        i++;
        const arr = [];
        ws();
        if (text[i] === ']') { i++; return arr; }
        for (;;) {
          arr.push(value());
          ws();
          if (text[i++] === ']') return arr;
        }
      }
      if (c === '"') return str();
      const m = /^(?:true|false|null|-?[0-9][0-9.eE+-]*)/.exec(text.slice(i, i + 400));
      if (!m) throw new Error(`unexpected ${JSON.stringify(c)} at ${i}`);
      i += m[0].length;
      return null;
    }
    return value();
  }

  function field(node, key) {
    if (!node || !Array.isArray(node.keys)) return undefined;
    const at = node.keys.lastIndexOf(key);
    return at < 0 ? undefined : node.values[at];
  }

  // js-bson reads these types but has no writer for them: EJSON {"$undefined": true} and a
  // deserialized 0x06 come back as null or not at all, a DBPointer (0x0C) as a DBRef document.
  const NO_WRITER = {
    $undefined: 'js-bson cannot write BSON undefined (0x06): it writes null or drops the element',
    $dbPointer: 'js-bson cannot write a DBPointer (0x0C): it writes a DBRef document {$ref, $id} instead',
  };

  // A JS Date holds -8.64e15..8.64e15 ms (ECMA-262, "Time Values and Time Range"); js-bson reads
  // a datetime beyond that as an invalid Date, which serialize writes as 0 ms, silently.
  const DATE_LIMIT = 8640000000000000n;
  const dateProblem = (ms) => (ms > DATE_LIMIT || ms < -DATE_LIMIT
    ? `js-bson holds a UTC datetime as a JS Date (+-8.64e15 ms): ${ms} ms is beyond it (serialize would write 0)`
    : null);
  // The ms of an EJSON {"$date": {"$numberLong": "<ms>"}} (as parseOrdered read it), or null.
  function ejsonDateMs(v) {
    const text = field(v, '$numberLong');
    return typeof text === 'string' && /^-?[0-9]+$/.test(text) ? BigInt(text) : null;
  }

  function firstProblemJson(node) {
    if (Array.isArray(node)) {
      for (const v of node) {
        const p = firstProblemJson(v);
        if (p) return p;
      }
    } else if (node && Array.isArray(node.keys)) {
      const p = keyOrderProblem(node.keys);
      if (p) return p;
      for (const k of node.keys) {
        if (Object.prototype.hasOwnProperty.call(NO_WRITER, k)) return NO_WRITER[k];
      }
      const ms = ejsonDateMs(field(node, '$date'));
      if (ms !== null && dateProblem(ms)) return dateProblem(ms);
      for (const v of node.values) {
        const q = firstProblemJson(v);
        if (q) return q;
      }
    }
    return null;
  }

  // In raw BSON: a type js-bson cannot write (NO_WRITER), or the keys of a document (not of an
  // array: js-bson reads an array's values in order and writes the keys "0", "1", ... anew)
  // checked as above. Walks only what deserialize accepted, so the layout is sound.
  const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
  const ILL_FORMED = 'js-bson reads a key or regex with ill-formed UTF-8 as U+FFFD and would write ' +
    'that back: it cannot hold these bytes';
  // The cstring at i as text, or null when it is not UTF-8; sets cstringEnd past its NUL.
  let cstringEnd = 0;
  function cstring(buf, i) {
    let j = i;
    while (buf[j] !== 0) j++;
    cstringEnd = j + 1;
    try {
      return strictUtf8.decode(buf.subarray(i, j));
    } catch (e) {
      return null;
    }
  }

  function firstProblemBson(buf, start, isArrayDoc) {
    const end = start + buf.readInt32LE(start) - 1;
    const keys = [];
    let i = start + 4;
    while (i < end) {
      const type = buf[i++];
      const key = cstring(buf, i);
      if (key === null) return ILL_FORMED;
      keys.push(key);
      i = cstringEnd;
      let p = null;
      switch (type) {
        case 0x09:
          p = dateProblem(buf.readBigInt64LE(i));
          i += 8;
          break;
        case 0x01: case 0x11: case 0x12: i += 8; break;
        case 0x02: case 0x0d: case 0x0e: i += 4 + buf.readInt32LE(i); break;
        case 0x03: case 0x04:
          p = firstProblemBson(buf, i, type === 0x04);
          i += buf.readInt32LE(i);
          break;
        case 0x05: i += 5 + buf.readInt32LE(i); break;
        case 0x06: return NO_WRITER.$undefined;
        case 0x0a: case 0x7f: case 0xff: break;
        case 0x07: i += 12; break;
        case 0x08: i += 1; break;
        case 0x0b:
          if (cstring(buf, i) === null) return ILL_FORMED;
          if (cstring(buf, cstringEnd) === null) return ILL_FORMED;
          i = cstringEnd;
          break;
        case 0x0c: return NO_WRITER.$dbPointer;
        case 0x0f: {
          const total = buf.readInt32LE(i);
          const scope = i + 4 + 4 + buf.readInt32LE(i + 4);
          p = firstProblemBson(buf, scope, false);
          i += total;
          break;
        }
        case 0x10: i += 4; break;
        case 0x13: i += 16; break;
        default: return null; // not reached for input deserialize accepted
      }
      if (p) return p;
    }
    return isArrayDoc ? null : keyOrderProblem(keys);
  }

  // upstream: begin calls
  function hexInput(input, key) {
    const h = input[key];
    if (typeof h !== 'string' || !/^(?:[0-9a-fA-F]{2})*$/.test(h)) {
      throw new DeclinedOp(`input "${key}" is not a hex string`);
    }
    return Buffer.from(h, 'hex');
  }

  function serializeChecked(doc) {
    let bytes;
    try {
      bytes = BSON.serialize(doc);
    } catch (e) {
      throw new Rejected(`BSON.serialize: ${e.message}`);
    }
    let size;
    try {
      size = BSON.calculateObjectSize(doc);
    } catch (e) {
      throw new Rejected(`calculateObjectSize threw after serialize wrote ${bytes.length}: ${e.message}`);
    }
    if (size !== bytes.length) throw new Rejected(`calculateObjectSize ${size} != written ${bytes.length}`);
    return bytes;
  }
  // upstream: end calls

  // serdiff repro --upstream: the program holds the functions above, copied from this file.
  const UPSTREAM_CALLS = {
    'bson.encode': `function call(input) {
  const doc = input.document !== undefined
    ? BSON.EJSON.parse(JSON.stringify(input.document), { relaxed: false })
    : BSON.deserialize(hexInput(input, 'bson'), { ...KEEP_TYPES, validation: { utf8: true } });
  return { hex: serializeChecked(doc).toString('hex') };
}`,
    'bson.decode': `function call(input) {
  const doc = BSON.deserialize(hexInput(input, 'bson'), { ...KEEP_TYPES, validation: { utf8: true } });
  try {
    return { hex: BSON.serialize(doc).toString('hex') };
  } catch (e) { // the document was read; writing it back is not the call under test
    return {};
  }
}`,
  };
  function upstream(request) {
    const call = UPSTREAM_CALLS[request.op];
    if (!call) throw new DeclinedOp(`js_bson writes no reproducer for op ${request.op}`);
    return upstreamProgram(request, {
      library: 'bson {version} (js-bson)',
      packageName: 'bson',
      version: pkg.version,
      prelude: "const BSON = require('bson');\n" + sourceBetween(__filename, 'keep') +
        sourceBetween(__filename, 'calls'),
      call,
      modulesDir: pkg.modulesDir,
    });
  }

  // bson.encode: prepare reads the interchange form into js-bson's values (not measured);
  // run is BSON.serialize and calculateObjectSize.
  function encodePrepare(input, req) {
    if (input.document !== undefined) {
      if (input.document === null || typeof input.document !== 'object' || Array.isArray(input.document)) {
        throw new DeclinedOp('input "document" is not a JSON object');
      }
      const ordered = field(field(parseOrdered(req.raw), 'input'), 'document');
      const problem = firstProblemJson(ordered);
      if (problem) throw new DeclinedOp(problem);
      try {
        return BSON.EJSON.parse(JSON.stringify(input.document), { relaxed: false });
      } catch (e) {
        throw new Rejected(`EJSON.parse: ${e.message}`);
      }
    }
    if (input.bson !== undefined) {
      const buf = hexInput(input, 'bson');
      let doc;
      try {
        doc = BSON.deserialize(buf, { ...KEEP_TYPES, validation: { utf8: true } });
      } catch (e) {
        if (/utf-?8/i.test(e.message)) {
          throw new DeclinedOp(`js-bson holds strings as JavaScript strings; this document has ill-formed UTF-8 (${e.message})`);
        }
        throw new DeclinedOp(`js-bson cannot read the document to re-serialize it: ${e.message}`);
      }
      const problem = firstProblemBson(buf, 0, false);
      if (problem) throw new DeclinedOp(problem);
      return doc;
    }
    throw new DeclinedOp('input has neither "document" nor "bson"');
  }
  const encode = { prepare: encodePrepare, run: (doc) => ({ hex: serializeChecked(doc) }) };

  // bson.decode: run is BSON.deserialize; finish re-serializes what it read (not measured).
  const decode = {
    prepare: (input) => hexInput(input, 'bson'),
    run(buf) {
      try {
        return BSON.deserialize(buf, { ...KEEP_TYPES, validation: { utf8: true } });
      } catch (e) {
        throw new Rejected(e.message, Number.isInteger(e.offset) ? e.offset : undefined);
      }
    },
    finish(doc) {
      try {
        return { hex: BSON.serialize(doc) };
      } catch (e) {
        // Accepted all the same; what it read does not serialize back.
        return { value: { accepted: true, reserialize_error: e.message } };
      }
    },
  };

  // bson.array_keys: run serializes {a: [null x n]}; finish cuts the keys out of the bytes.
  const arrayKeys = {
    prepare(input) {
      const n = input.count;
      if (!Number.isSafeInteger(n) || n < 0 || n > 4294967295) {
        throw new DeclinedOp('input "count" is not an integer in 0..2^32-1');
      }
      return n;
    },
    run(n) {
      try {
        return BSON.serialize({ a: new Array(n).fill(null) });
      } catch (e) {
        throw new DeclinedOp(`BSON.serialize cannot write ${n} elements: ${e.message}`);
      }
    },
    finish(bytes) {
      // int32 length, 0x04 'a' 0x00, int32 length, then per element 0x0a key 0x00, then 00 00.
      const keyBytes = Buffer.allocUnsafe(bytes.length);
      let o = 0;
      let i = 11;
      while (bytes[i] === 0x0a) {
        i++;
        while (bytes[i] !== 0) keyBytes[o++] = bytes[i++];
        keyBytes[o++] = bytes[i++];
      }
      return { hex: keyBytes.subarray(0, o) };
    },
  };

  function direct(op, input, raw) {
    const arg = op.prepare ? op.prepare(input, { raw }) : input;
    const r = op.run(arg);
    return op.finish ? op.finish(r) : r;
  }

  const ops = {
    'bson.encode': encode, 'bson.decode': decode, 'bson.array_keys': arrayKeys, [UPSTREAM_OP]: upstream,
  };
  // Warm up (first-call allocations and compilation are not charged to serdiff's first call).
  const warm = JSON.stringify({ id: 0, op: 'bson.encode', input: { document: { a: { $numberInt: '1' } } } });
  // A version of js-bson that rejects a warm-up input (SERDIFF_NODE_PACKAGES: another version
  // under review) still starts: that input's answer is then judged like any other.
  const tryCall = (...args) => {
    try {
      direct(...args);
    } catch (e) {
      // judged when serdiff sends it
    }
  };
  for (let i = 0; i < 300; i++) {
    tryCall(encode, JSON.parse(warm).input, warm);
    tryCall(encode, { bson: '0c0000001061000100000000' });
    tryCall(decode, { bson: '0c0000001061000100000000' });
    tryCall(arrayKeys, { count: 11 });
  }
  serve({ name: NAME, ops, rehearse: true, library: `bson ${pkg.version}` });
}
