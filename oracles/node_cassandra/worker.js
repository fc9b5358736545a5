'use strict';
// serdiff worker "node_cassandra": the DataStax Node.js driver for Apache Cassandra (npm
// cassandra-driver, version pinned in oracles/node/package.json) as an opinion on CQL value
// serialization (docs/workers.md, docs/cql.md).
//
//   cql.serialize     {"type": serdiff type text, "value": CQL JSON value, "version": n} ->
//                     new Encoder(n, {encoding: {map: Map}}).encode(jsValue, typeInfo)
//   int64.to_decimal  {"value": "<int64>"} -> BigInt(value).toString()
//
// The interchange value becomes the JS value a driver user passes: bigint/counter types.Long,
// varint types.Integer, decimal types.BigDecimal(Integer, scale), uuid types.Uuid, timeuuid
// types.TimeUuid, inet types.InetAddress(Buffer), date types.LocalDate(days since the epoch),
// time types.LocalTime(Long ns), duration types.Duration(months, days, Long ns), timestamp a
// Date (a Long outside Date's +-8.64e15 ms), blob a Buffer, tuple types.Tuple, udt an object
// keyed by field name, map a JS Map (encoding.map = Map, so that keys keep their type and order).
// Errors thrown by the driver, including its value classes' constructors, are "rejected".
// Declined: protocol versions the driver does not speak (it supports 1..4), a top-level null
// (no payload) or a top-level empty list/set (the driver returns null for it: no payload
// either), map pairs that a JS Map would merge, a float/double map key -0 (a JS Map stores it
// as +0), UDT values with more entries than fields, and values not in the interchange form of
// their type.
const path = require('path');
const {
  serve, Rejected, DeclinedOp, loadPackage,
} = require('../../workers/node/serdiff_worker.js');
const { UPSTREAM_OP, upstreamProgram, sourceBetween } = require('../../workers/node/upstream.js');

const NAME = 'node_cassandra';
const pkg = loadPackage('cassandra-driver', path.join(__dirname, '..', 'node'));
if (pkg.declined) {
  serve({ name: NAME, declined: pkg.declined });
} else {
  const driver = pkg.mod;
  const { types } = driver;
  const { dataTypes, Long, Integer, BigDecimal } = types;

  // upstream: begin convert
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
  // upstream: end convert

  // cql.serialize: prepare turns the interchange form into the driver's values (not measured);
  // run is Encoder.encode.
  const serialize = {
    prepare(input) {
      if (typeof input.type !== 'string') throw new DeclinedOp('input "type" is not a string');
      const t = typeOf(input.type);
      const encoder = encoderFor(input.version);
      if (input.value === null || input.value === undefined) {
        throw new DeclinedOp('a top-level null has no payload to compare');
      }
      return { t, encoder, js: toJs(t, input.value) };
    },
    run({ t, encoder, js }) {
      let out;
      try {
        out = encoder.encode(js, t.info);
      } catch (e) {
        throw new Rejected(`Encoder.encode: ${e.message}`);
      }
      if (out === null) {
        throw new DeclinedOp(`the driver encodes this ${t.kind} as null (no payload): ` +
          'it writes an empty list or set as a null value');
      }
      if (!(out instanceof Buffer)) throw new DeclinedOp(`Encoder.encode returned ${typeof out}`);
      return { hex: out };
    },
  };

  function int64ToDecimal(input) {
    const v = input.value;
    if (typeof v !== 'string' || !DECIMAL.test(v)) throw new DeclinedOp('input "value" is not a decimal string');
    return { hex: Buffer.from(BigInt(v).toString(), 'latin1') };
  }

  // serdiff repro --upstream: the program holds the conversion above, copied from this file, and
  // calls Encoder#encode as a driver user's query would.
  function upstream(request) {
    if (request.op !== 'cql.serialize') {
      throw new DeclinedOp(`node_cassandra writes no reproducer for op ${request.op}`);
    }
    return upstreamProgram(request, {
      library: 'cassandra-driver {version} (Encoder#encode)',
      packageName: 'cassandra-driver',
      version: pkg.version,
      prelude: `const driver = require('cassandra-driver');
const pkg = { version };
const { types } = driver;
const { dataTypes, Long, Integer, BigDecimal } = types;
` + sourceBetween(__filename, 'convert'),
      call: `function call(input) {
  const t = typeOf(input.type);
  const out = encoderFor(input.version).encode(toJs(t, input.value), t.info);
  return { hex: out === null ? null : out.toString('hex') };
}`,
      modulesDir: pkg.modulesDir,
    });
  }

  const ops = {
    'cql.serialize': serialize, 'int64.to_decimal': int64ToDecimal, [UPSTREAM_OP]: upstream,
  };
  const direct = (input) => serialize.run(serialize.prepare(input));
  for (let k = 0; k < 300; k++) {
    direct({ type: 'list<int>', value: [1, 2, 3], version: 4 });
    direct({ type: 'map<text, tuple<bigint, udt<u, a varint, b uuid>>>', version: 4,
      value: [['k', ['-1', ['5', '00000000-0000-1000-8000-000000000000']]]] });
    int64ToDecimal({ value: '-9223372036854775808' });
  }
  serve({ name: NAME, ops, rehearse: true, library: `cassandra-driver ${pkg.version}` });
}
