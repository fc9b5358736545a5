#!/usr/bin/env node
'use strict';
// cassandra-driver 4.10.0 (Encoder#encode) on cql_encode_scalar: a reproducer written by serdiff (serdiff repro --upstream).
//
// It calls the library directly, without serdiff, on this input:
//   v4 payload ascii = \'\xc3\xa9\'
// What the spec requires (CQL native protocol v4 (apache/cassandra doc/native_protocol_v4.spec), section 6 (values, collections, tuples), 7 (user types)): rejected, ref cql encode: ascii above 127
// Exit status: 1 while the library answers otherwise, 0 once it agrees, 2 when it is not
// installed or cannot take the input.
// Run it with NODE_PATH naming a node_modules folder that holds cassandra-driver.

class Rejected extends Error {}
class DeclinedOp extends Error {}
// The version of the package NODE_PATH holds, for the printout (from its package.json).
let version;
try {
  const fs = require('fs');
  const path = require('path');
  let dir = path.dirname(require.resolve("cassandra-driver"));
  const own = (d) => { try { return JSON.parse(fs.readFileSync(path.join(d, 'package.json'), 'utf8')); } catch (e) { return {}; } };
  while (own(dir).name !== "cassandra-driver" && path.dirname(dir) !== dir) dir = path.dirname(dir);
  version = own(dir).version;
} catch (e) {
  console.log(`cassandra-driver is not installed here (NODE_PATH names no node_modules folder holding it): ${e.message}`);
  process.exit(2);
}
const driver = require('cassandra-driver');
const pkg = { version };
const { types } = driver;
const { dataTypes, Long, Integer, BigDecimal } = types;
  // --- serdiff's type text -> the driver's type info ---------------------------------------
  const NATIVE = {
    ascii: dataTypes.ascii, bigint: dataTypes.bigint, blob: dataTypes.blob,
    boolean: dataTypes.boolean, counter: dataTypes.counter, decimal: dataTypes.decimal,
    double: dataTypes.double, float: dataTypes.float, int: dataTypes.int,
    timestamp: dataTypes.timestamp, uuid: dataTypes.uuid, text: dataTypes.text,
    varchar: dataTypes.text, varint: dataTypes.varint, timeuuid: dataTypes.timeuuid,
    inet: dataTypes.inet, date: dataTypes.date, time: dataTypes.time,
    smallint: dataTypes.smallint, tinyint: dataTypes.tinyint, duration: dataTypes.duration,
  };

  // Returns {kind, info: driver type info, params, fields} for the text, or throws DeclinedOp.
  function parseType(text) {
    let i = 0;
    const ws = () => { while (i < text.length && /\s/.test(text[i])) i++; };
    const ident = () => {
      ws();
      const m = /^[A-Za-z0-9_]+/.exec(text.slice(i));
      if (!m) throw new DeclinedOp(`type "${text}": expected a name at ${i}`);
      i += m[0].length;
      return m[0];
    };
    const eat = (c) => {
      ws();
      if (text[i] === c) { i++; return true; }
      return false;
    };
    function one(depth) {
      if (depth > 64) throw new DeclinedOp(`type "${text}": nested too deeply`);
      const word = ident().toLowerCase();
      if (word === 'frozen') {
        if (!eat('<')) throw new DeclinedOp(`type "${text}": expected '<'`);
        const t = one(depth + 1);
        if (!eat('>')) throw new DeclinedOp(`type "${text}": expected '>'`);
        return t;
      }
      if (Object.prototype.hasOwnProperty.call(NATIVE, word)) {
        const kind = word === 'varchar' ? 'text' : word;
        return { kind, info: { code: NATIVE[word] } };
      }
      if (!['list', 'set', 'map', 'tuple', 'udt'].includes(word)) {
        throw new DeclinedOp(`type "${text}": unknown type '${word}'`);
      }
      if (!eat('<')) throw new DeclinedOp(`type "${text}": expected '<'`);
      const t = { kind: word, params: [], fields: [] };
      if (word === 'udt') {
        t.name = ident();
        while (eat(',')) {
          t.fields.push(ident());
          t.params.push(one(depth + 1));
        }
      } else {
        do t.params.push(one(depth + 1)); while (eat(','));
      }
      if (!eat('>')) throw new DeclinedOp(`type "${text}": expected '>' or ','`);
      const arity = { list: 1, set: 1, map: 2 }[word];
      if (arity !== undefined && t.params.length !== arity) {
        throw new DeclinedOp(`type "${text}": ${word} takes ${arity} parameter(s)`);
      }
      if (word === 'list' || word === 'set') {
        t.info = { code: dataTypes[word], info: t.params[0].info };
      } else if (word === 'map') {
        t.info = { code: dataTypes.map, info: [t.params[0].info, t.params[1].info] };
      } else if (word === 'tuple') {
        t.info = { code: dataTypes.tuple, info: t.params.map((p) => p.info) };
      } else {
        t.info = {
          code: dataTypes.udt,
          info: { name: t.name, fields: t.fields.map((f, k) => ({ name: f, type: t.params[k].info })) },
        };
      }
      return t;
    }
    const t = one(0);
    ws();
    if (i !== text.length) throw new DeclinedOp(`type "${text}": text after the type at ${i}`);
    return t;
  }

  const typeCache = new Map();
  function typeOf(text) {
    let t = typeCache.get(text);
    if (!t) {
      t = parseType(text);
      if (typeCache.size > 1000) typeCache.clear();
      typeCache.set(text, t);
    }
    return t;
  }

  // --- CQL JSON value -> the driver's JS value ----------------------------------------------
  const DECIMAL = /^-?[0-9]+$/;
  const HEX = /^(?:[0-9a-fA-F]{2})*$/;
  const MAX_DATE_MS = 8.64e15;

  function notForm(t, v) {
    const s = JSON.stringify(v);
    return new DeclinedOp(`value ${s === undefined ? String(v) : s.slice(0, 80)} is not a ${t.kind} in the interchange form`);
  }
  // Runs a constructor or parser of the driver's: what it throws is the driver refusing.
  function driverSays(what, fn) {
    try {
      return fn();
    } catch (e) {
      throw new Rejected(`${what}: ${e.message}`);
    }
  }
  function decimalString(t, v) {
    if (typeof v !== 'string' || !DECIMAL.test(v)) throw notForm(t, v);
    return v;
  }
  function floatValue(t, v) {
    if (typeof v === 'number') return v;
    switch (v) {
      case 'NaN': return NaN;
      case 'Infinity': return Infinity;
      case '-Infinity': return -Infinity;
      case '-0': return -0;
      default: throw notForm(t, v);
    }
  }
  function hexBytes(t, v) {
    if (!v || typeof v !== 'object' || typeof v.hex !== 'string' || !HEX.test(v.hex)) throw notForm(t, v);
    return Buffer.from(v.hex, 'hex');
  }

  function toJs(t, v) {
    if (v === null) return null;
    switch (t.kind) {
      case 'boolean':
        if (typeof v !== 'boolean') throw notForm(t, v);
        return v;
      case 'tinyint': case 'smallint': case 'int':
        if (typeof v !== 'number' || !Number.isInteger(v)) throw notForm(t, v);
        return v;
      case 'bigint': case 'counter': {
        const s = decimalString(t, v);
        return driverSays('Long.fromString', () => Long.fromString(s, false, 10));
      }
      case 'time': {
        const s = decimalString(t, v);
        return driverSays('LocalTime', () => new types.LocalTime(Long.fromString(s, false, 10)));
      }
      case 'varint': {
        const s = decimalString(t, v);
        return driverSays('Integer.fromString', () => Integer.fromString(s, 10));
      }
      case 'float': case 'double':
        return floatValue(t, v);
      case 'decimal': {
        if (!v || typeof v !== 'object' || !Number.isInteger(v.scale)) throw notForm(t, v);
        const s = decimalString(t, v.unscaled);
        return driverSays('BigDecimal', () => new BigDecimal(Integer.fromString(s, 10), v.scale));
      }
      case 'text': case 'ascii':
        if (typeof v !== 'string') throw notForm(t, v);
        return v;
      case 'blob':
        return hexBytes(t, v);
      case 'uuid':
        if (typeof v !== 'string') throw notForm(t, v);
        return driverSays('Uuid.fromString', () => types.Uuid.fromString(v));
      case 'timeuuid':
        if (typeof v !== 'string') throw notForm(t, v);
        return driverSays('TimeUuid.fromString', () => types.TimeUuid.fromString(v));
      case 'inet': {
        const b = hexBytes(t, v);
        return driverSays('InetAddress', () => new types.InetAddress(b));
      }
      case 'timestamp': {
        const s = decimalString(t, v);
        const ms = Number(s);
        if (Math.abs(ms) <= MAX_DATE_MS) return new Date(ms);
        return driverSays('Long.fromString', () => Long.fromString(s, false, 10));
      }
      case 'date':
        if (typeof v !== 'number' || !Number.isInteger(v)) throw notForm(t, v);
        return driverSays('LocalDate', () => new types.LocalDate(v - 2147483648));
      case 'duration': {
        if (!v || typeof v !== 'object' || !Number.isInteger(v.months) || !Number.isInteger(v.days)) {
          throw notForm(t, v);
        }
        const ns = decimalString(t, v.nanos);
        return driverSays('Duration', () => new types.Duration(v.months, v.days, Long.fromString(ns, false, 10)));
      }
      case 'list': case 'set':
        if (!Array.isArray(v)) throw notForm(t, v);
        return v.map((e) => toJs(t.params[0], e));
      case 'map': {
        if (!Array.isArray(v)) throw notForm(t, v);
        const m = new Map();
        for (const pair of v) {
          if (!Array.isArray(pair) || pair.length !== 2) throw notForm(t, v);
          const key = toJs(t.params[0], pair[0]);
          if (Object.is(key, -0)) {
            throw new DeclinedOp('map key -0: a JS Map stores the key -0 as +0 (SameValueZero), so the driver would write 0');
          }
          m.set(key, toJs(t.params[1], pair[1]));
        }
        if (m.size !== v.length) {
          throw new DeclinedOp('map with equal keys: the driver takes a map as a JS Map, which keeps one entry per key');
        }
        return m;
      }
      case 'tuple':
        if (!Array.isArray(v)) throw notForm(t, v);
        return types.Tuple.fromArray(v.map((e, k) => (k < t.params.length ? toJs(t.params[k], e) : e)));
      case 'udt': {
        if (!Array.isArray(v)) throw notForm(t, v);
        if (v.length > t.fields.length) {
          throw new DeclinedOp(`udt value with ${v.length} entries for ${t.fields.length} fields: ` +
            'the driver takes an object keyed by field name, extra entries have no name');
        }
        const o = {};
        v.forEach((e, k) => { o[t.fields[k]] = toJs(t.params[k], e); });
        return o;
      }
      default:
        throw new DeclinedOp(`type ${t.kind} is not mapped`);
    }
  }

  const encoders = new Map();
  function encoderFor(version) {
    if (!Number.isInteger(version)) throw new DeclinedOp('input "version" is not an integer');
    let e = encoders.get(version);
    if (!e) {
      if (!types.protocolVersion.isSupported(version)) {
        throw new DeclinedOp(`cassandra-driver ${pkg.version} does not speak protocol version ${version} ` +
          '(Cassandra 1..4, DSE 0x41/0x42)');
      }
      e = new driver.Encoder(version, { encoding: { map: Map } });
      encoders.set(version, e);
    }
    return e;
  }
  

const LIBRARY = "cassandra-driver {version} (Encoder#encode)".replace('{version}', version);
const SPEC = "CQL native protocol v4 (apache/cassandra doc/native_protocol_v4.spec), section 6 (values, collections, tuples), 7 (user types)";
const INPUT = JSON.parse("{\"type\":\"ascii\",\"value\":\"é\",\"version\":4}");
const EXPECT = JSON.parse("{\"outcome\":\"rejected\",\"offset\":null,\"message\":\"ref cql encode: ascii above 127\"}");

function call(input) {
  const t = typeOf(input.type);
  const out = encoderFor(input.version).encode(toJs(t, input.value), t.info);
  return { hex: out === null ? null : out.toString('hex') };
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
