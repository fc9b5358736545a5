#!/usr/bin/env node
'use strict';
// @furyjs/fury 0.5.9-beta (BinaryWriter / BinaryReader) on varint_fory_decode: a reproducer written by serdiff (serdiff repro --upstream).
//
// It calls the library directly, without serdiff, on this input:
//   count 7, 8 bytes: ac 02 00 00 00 00 00 00
// What the spec requires (Apache Fory xlang spec: varuint64 and zigzag varint64): accepted
// Exit status: 1 while the library answers otherwise, 0 once it agrees, 2 when it is not
// installed or cannot take the input.
// Run it with NODE_PATH naming a node_modules folder that holds @furyjs/fury.

class Rejected extends Error {}
class DeclinedOp extends Error {}
// The version of the package NODE_PATH holds, for the printout (from its package.json).
let version;
try {
  const fs = require('fs');
  const path = require('path');
  let dir = path.dirname(require.resolve("@furyjs/fury"));
  const own = (d) => { try { return JSON.parse(fs.readFileSync(path.join(d, 'package.json'), 'utf8')); } catch (e) { return {}; } };
  while (own(dir).name !== "@furyjs/fury" && path.dirname(dir) !== dir) dir = path.dirname(dir);
  version = own(dir).version;
} catch (e) {
  console.log(`@furyjs/fury is not installed here (NODE_PATH names no node_modules folder holding it): ${e.message}`);
  process.exit(2);
}
const path = require('path');
const dist = path.dirname(require.resolve('@furyjs/fury'));
const writerMod = require(path.join(dist, 'lib', 'writer.js'));
const readerMod = require(path.join(dist, 'lib', 'reader', 'index.js'));
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
  

const LIBRARY = "@furyjs/fury {version} (BinaryWriter / BinaryReader)".replace('{version}', version);
const SPEC = "Apache Fory xlang spec: varuint64 and zigzag varint64";
const INPUT = JSON.parse("{\"hex\":\"ac02000000000000\"}");
const EXPECT = JSON.parse("{\"outcome\":\"accepted\",\"answer\":{\"value\":{\"values\":[\"300\",\"0\",\"0\",\"0\",\"0\",\"0\",\"0\"],\"consumed\":8}}}");

function call(input) {
  return finishDecode(decodeRun(decodePrepare(input)));
}

// JSON text with sorted keys, so that two answers compare by content.
function canon(v) {
  if (Array.isArray(v)) return '[' + v.map(canon).join(',') + ']';
  if (v && typeof v === 'object') {
    return '{' + Object.keys(v).sort().map((k) => JSON.stringify(k) + ':' + canon(v[k])).join(',') + '}';
  }
  return JSON.stringify(v);
}

function main() {
  let outcome;
  let got;
  try {
    got = call(INPUT);
    outcome = 'accepted';
  } catch (e) { // how a JavaScript library says no
    if (e instanceof DeclinedOp) { // the conversion found no form the library takes
      console.log(`the input has no form ${LIBRARY} takes, so nothing was compared: ${e.message}`);
      process.exit(2);
    }
    outcome = 'rejected';
    got = e && e.message !== undefined ? `${e.name}: ${e.message}` : String(e);
  }
  console.log(outcome === 'accepted' ? `${LIBRARY} accepts it: ${canon(got)}` : `${LIBRARY} rejects it: ${got}`);
  let agrees;
  if (EXPECT.outcome === 'rejected') {
    console.log(`the spec (${SPEC}): rejected, ${EXPECT.message}`);
    agrees = outcome === 'rejected';
  } else {
    const answer = EXPECT.answer;
    console.log(`the spec (${SPEC}): accepted${Object.keys(answer).length ? ': ' + canon(answer) : ''}`);
    agrees = outcome === 'accepted' && Object.keys(answer).every((k) => canon(got[k]) === canon(answer[k]));
  }
  console.log(agrees ? 'agrees with the spec' : 'DIFFERS from the spec');
  process.exit(agrees ? 0 : 1);
}

main();
