'use strict';
// serdiff worker "fury": the JavaScript implementation of Apache Fury (npm @furyjs/fury, version
// pinned in oracles/node/package.json; Fury is now Apache Fory) as an opinion on Fory's varint64
// (docs/workers.md, docs/varint.md).
//
//   varint.fory_encode  {"values": [decimal strings], "zigzag": bool} -> BinaryWriter's varInt64
//                       (zigzag: int64 values) or varUInt64 (uint64 values), one after another
//   varint.fory_decode  {"hex": ...} -> BinaryReader's varUInt64 until the input ends ->
//                       {"values": [...], "consumed": n}; a read past the end is rejected at the
//                       offset of that value's first byte
//
// What this package does (dist/lib/writer.js, dist/lib/reader/index.js of 0.5.9-beta):
// * the writer is plain unsigned LEB128, 7 bits a byte, up to 10 bytes: a value >= 2^63 takes
//   10 bytes (2^63 -> 80 80 80 80 80 80 80 80 80 01), where Fory's varuint64 takes 9 whose 9th
//   byte carries 8 bits (2^63 -> 80 x 9). Below 2^63 the two forms are the same bytes.
// * the reader is Fory's 9-byte form, so the package does not read back its own 10-byte values;
// * the reader's fast path (8 or more bytes left in the buffer) reads the 2nd, 3rd and 4th byte of
//   each 4-byte word as `l32 & 0xff00 >> 8`, which is `l32 & 0xff` (>> binds tighter than &): a
//   value of 2 or more bytes with at least 8 bytes left from its start is misread
//   (ac 02 followed by six 00 reads 93001260, consuming 5 bytes, instead of 300).
// The worker reports what the package does; it does not correct any of it.
const path = require('path');
const {
  serve, Rejected, DeclinedOp, loadPackage,
} = require('../../workers/node/serdiff_worker.js');
const { UPSTREAM_OP, upstreamProgram, sourceBetween } = require('../../workers/node/upstream.js');

const NAME = 'fury';
const oraclesNode = path.join(__dirname, '..', 'node');
const pkg = loadPackage('@furyjs/fury', oraclesNode);
let writerMod;
let readerMod;
let declined = pkg.declined;
if (!declined) {
  // BinaryWriter and BinaryReader are not re-exported by the package's index; they are its
  // dist/lib modules (the package has no "exports" map, so the paths are reachable).
  try {
    const dist = path.dirname(require.resolve('@furyjs/fury', { paths: [oraclesNode] }));
    writerMod = require(path.join(dist, 'lib', 'writer.js'));
    readerMod = require(path.join(dist, 'lib', 'reader', 'index.js'));
    if (typeof writerMod.BinaryWriter !== 'function' || typeof readerMod.BinaryReader !== 'function') {
      declined = `@furyjs/fury ${pkg.version} has no BinaryWriter/BinaryReader in dist/lib`;
    }
  } catch (e) {
    declined = `@furyjs/fury ${pkg.version}: dist/lib/writer.js or reader/index.js failed to load: ${e.message}`;
  }
}

if (declined) {
  serve({ name: NAME, declined });
} else {
  // upstream: begin core
  const writer = writerMod.BinaryWriter({});
  const reader = readerMod.BinaryReader({});
  const DECIMAL = /^-?[0-9]+$/;
  const INT64_MIN = -(1n << 63n);
  const INT64_MAX = (1n << 63n) - 1n;
  const UINT64_MAX = (1n << 64n) - 1n;

  // Conversions from and to the interchange form are prepare/finish, not measured.
  function encodePrepare(input) {
    const { values, zigzag } = input;
    if (!Array.isArray(values) || typeof zigzag !== 'boolean') {
      throw new DeclinedOp('input needs "values" (an array of decimal strings) and "zigzag" (a boolean)');
    }
    const big = values.map((s) => {
      if (typeof s !== 'string' || !DECIMAL.test(s)) throw new DeclinedOp(`value ${JSON.stringify(s)} is not a decimal string`);
      const v = BigInt(s);
      if (zigzag ? v < INT64_MIN || v > INT64_MAX : v < 0n || v > UINT64_MAX) {
        throw new DeclinedOp(`value ${s} is not ${zigzag ? 'an int64' : 'a uint64'}`);
      }
      return v;
    });
    return { big, zigzag };
  }
  function encodeRun({ big, zigzag }) {
    writer.reset();
    // Fury's serializers reserve before they write; the varint writers do not check room.
    writer.reserve(10 * big.length);
    if (zigzag) for (const v of big) writer.varInt64(v);
    else for (const v of big) writer.varUInt64(v);
    return { hex: writer.dump() };
  }

  function decodePrepare(input) {
    const h = input.hex;
    if (typeof h !== 'string' || !/^(?:[0-9a-fA-F]{2})*$/.test(h)) throw new DeclinedOp('input "hex" is not a hex string');
    return Buffer.from(h, 'hex');
  }
  function decodeRun(buf) {
    reader.reset(buf);
    const values = [];
    while (reader.getCursor() < buf.length) {
      const start = reader.getCursor();
      let v;
      try {
        v = reader.varUInt64();
      } catch (e) {
        throw new Rejected(`varUInt64 at byte offset ${start}: ${e.message}`, start);
      }
      if (reader.getCursor() > buf.length) {
        throw new Rejected(`varUInt64 at byte offset ${start}: read past the end of the input`, start);
      }
      values.push(v);
    }
    return { values, consumed: reader.getCursor() };
  }
  const finishDecode = (r) => ({ value: { values: r.values.map(String), consumed: r.consumed } });
  // upstream: end core

  // serdiff repro --upstream: the program holds the functions above, copied from this file.
  const CALLS = {
    'varint.fory_encode': `function call(input) {
  const r = encodeRun(encodePrepare(input));
  return { hex: Buffer.from(r.hex).toString('hex') };
}`,
    'varint.fory_decode': `function call(input) {
  return finishDecode(decodeRun(decodePrepare(input)));
}`,
  };
  const PRELUDE = `const path = require('path');
const dist = path.dirname(require.resolve('@furyjs/fury'));
const writerMod = require(path.join(dist, 'lib', 'writer.js'));
const readerMod = require(path.join(dist, 'lib', 'reader', 'index.js'));
`;
  function upstream(request) {
    const call = CALLS[request.op];
    if (!call) throw new DeclinedOp(`fury writes no reproducer for op ${request.op}`);
    return upstreamProgram(request, {
      library: '@furyjs/fury {version} (BinaryWriter / BinaryReader)',
      packageName: '@furyjs/fury',
      version: pkg.version,
      prelude: PRELUDE + sourceBetween(__filename, 'core'),
      call,
      modulesDir: pkg.modulesDir,
    });
  }

  const ops = {
    'varint.fory_encode': { prepare: encodePrepare, run: encodeRun },
    'varint.fory_decode': { prepare: decodePrepare, run: decodeRun, finish: finishDecode },
    [UPSTREAM_OP]: upstream,
  };
  const encode = (input) => encodeRun(encodePrepare(input));
  const decode = (input) => finishDecode(decodeRun(decodePrepare(input)));
  for (let k = 0; k < 300; k++) {
    encode({ values: ['-1', '300', '-9223372036854775808'], zigzag: true });
    encode({ values: ['0', '18446744073709551615'], zigzag: false });
    decode({ hex: 'ac02' });
    decode({ hex: 'ac02ac02ac02ac02ac02' });
  }
  serve({ name: NAME, ops, rehearse: true, library: `@furyjs/fury ${pkg.version}` });
}
