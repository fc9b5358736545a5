#!/usr/bin/env node
'use strict';
// bson 6.10.4 (js-bson) on bson_encode: a reproducer written by serdiff (serdiff repro --upstream).
//
// It calls the library directly, without serdiff, on this input:
//   {"a": int32 2}
// What the spec requires (BSON 1.1, bsonspec.org/spec.html): accepted
// Exit status: 1 while the library answers otherwise, 0 once it agrees, 2 when it is not
// installed or cannot take the input.
// Run it with NODE_PATH naming a node_modules folder that holds bson.

class Rejected extends Error {}
class DeclinedOp extends Error {}
// The version of the package NODE_PATH holds, for the printout (from its package.json).
let version;
try {
  const fs = require('fs');
  const path = require('path');
  let dir = path.dirname(require.resolve("bson"));
  const own = (d) => { try { return JSON.parse(fs.readFileSync(path.join(d, 'package.json'), 'utf8')); } catch (e) { return {}; } };
  while (own(dir).name !== "bson" && path.dirname(dir) !== dir) dir = path.dirname(dir);
  version = own(dir).version;
} catch (e) {
  console.log(`bson is not installed here (NODE_PATH names no node_modules folder holding it): ${e.message}`);
  process.exit(2);
}
const BSON = require('bson');
  // Deserialize keeping every type as it is on the wire, so that serialize writes it back.
  const KEEP_TYPES = {
    promoteValues: false, promoteLongs: false, promoteBuffers: false, bsonRegExp: true,
    useBigInt64: false, allowObjectSmallerThanBufferSize: false,
  };
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
  

const LIBRARY = "bson {version} (js-bson)".replace('{version}', version);
const SPEC = "BSON 1.1, bsonspec.org/spec.html";
const INPUT = JSON.parse("{\"document\":{\"a\":{\"$numberInt\":\"2\"}}}");
const EXPECT = JSON.parse("{\"outcome\":\"accepted\",\"answer\":{\"hex\":\"0c0000001061000200000000\"}}");

function call(input) {
  const doc = input.document !== undefined
    ? BSON.EJSON.parse(JSON.stringify(input.document), { relaxed: false })
    : BSON.deserialize(hexInput(input, 'bson'), { ...KEEP_TYPES, validation: { utf8: true } });
  return { hex: serializeChecked(doc).toString('hex') };
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
