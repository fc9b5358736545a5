'use strict';
// serdiff repro --upstream for the Node workers (docs/workers.md, "Upstream reproducers"): the op
// name a worker answers it under, and the program it writes. Kept apart from the worker library
// (workers/node/serdiff_worker.js), which speaks the protocol; a worker requires both.

const UPSTREAM_OP = 'serdiff.upstream';

const UPSTREAM_JUDGE = `
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
      console.log(\`the input has no form \${LIBRARY} takes, so nothing was compared: \${e.message}\`);
      process.exit(2);
    }
    outcome = 'rejected';
    got = e && e.message !== undefined ? \`\${e.name}: \${e.message}\` : String(e);
  }
  console.log(outcome === 'accepted' ? \`\${LIBRARY} accepts it: \${canon(got)}\` : \`\${LIBRARY} rejects it: \${got}\`);
  let agrees;
  if (EXPECT.outcome === 'rejected') {
    console.log(\`the spec (\${SPEC}): rejected, \${EXPECT.message}\`);
    agrees = outcome === 'rejected';
  } else {
    const answer = EXPECT.answer;
    console.log(\`the spec (\${SPEC}): accepted\${Object.keys(answer).length ? ': ' + canon(answer) : ''}\`);
    agrees = outcome === 'accepted' && Object.keys(answer).every((k) => canon(got[k]) === canon(answer[k]));
  }
  console.log(agrees ? 'agrees with the spec' : 'DIFFERS from the spec');
  process.exit(agrees ? 0 : 1);
}

main();
`;

// The lines of the file `file` between '// upstream: begin NAME' and '// upstream: end NAME'
// (the markers left out): a worker's own conversion code, copied into the reproducer it writes
// so that the program and the worker cannot drift apart.
function sourceBetween(file, name) {
  const text = require('fs').readFileSync(file, 'utf8');
  const begin = `// upstream: begin ${name}\n`;
  const end = `// upstream: end ${name}\n`;
  const i = text.indexOf(begin);
  const j = text.indexOf(end);
  if (i < 0 || j < i) throw new Error(`${file} has no section ${name}`);
  return text.slice(i + begin.length, j);
}

// The answer of a worker's "serdiff.upstream" op: a self-contained Node program that runs
// call(INPUT) on the request's input, prints what the library does and what serdiff's reference
// (the spec) gives, and exits 1 while they differ, 0 once they agree. request: the op's input
// ({target, op, input, shown, spec, expect}, built by serdiff). library: its name and version.
// prelude: the program's requires and setup (it may use the classes Rejected and DeclinedOp,
// defined before it; a DeclinedOp thrown by call makes the program exit 2, as does a missing
// package). packageName: the package the program needs; library may hold "{version}": in the
// header, `version` (the worker's, which the program was written against); in the printout, the
// version installed where the program runs. call: the source of `function call(input)`, which returns the answer's
// fields ({hex: '...'} or {value: ...}) or throws when the library rejects the input.
// modulesDir: the node_modules folder the program's requires resolve from (the printed command
// sets NODE_PATH to it). Returns {value: {ext, run, program}}.
function upstreamProgram(request, { library, prelude, call, modulesDir, packageName, version }) {
  const expect = request.expect;
  const written = library.replace('{version}', version);
  const comment = (text) => text.split('\n').join(' ');
  const lines = [
    '#!/usr/bin/env node',
    "'use strict';",
    `// ${written} on ${request.target}: a reproducer written by serdiff (serdiff repro --upstream).`,
    '//',
    '// It calls the library directly, without serdiff, on this input:',
    `//   ${comment(request.shown)}`,
    `// What the spec requires (${request.spec}): ` +
      (expect.outcome === 'accepted' ? 'accepted' : `rejected, ${comment(expect.message)}`),
    '// Exit status: 1 while the library answers otherwise, 0 once it agrees, 2 when it is not',
    '// installed or cannot take the input.',
    `// Run it with NODE_PATH naming a node_modules folder that holds ${packageName}.`,
    '',
    'class Rejected extends Error {}',
    'class DeclinedOp extends Error {}',
    '// The version of the package NODE_PATH holds, for the printout (from its package.json).',
    'let version;',
    'try {',
    "  const fs = require('fs');",
    "  const path = require('path');",
    `  let dir = path.dirname(require.resolve(${JSON.stringify(packageName)}));`,
    "  const own = (d) => { try { return JSON.parse(fs.readFileSync(path.join(d, 'package.json'), 'utf8')); } catch (e) { return {}; } };",
    `  while (own(dir).name !== ${JSON.stringify(packageName)} && path.dirname(dir) !== dir) dir = path.dirname(dir);`,
    '  version = own(dir).version;',
    '} catch (e) {',
    `  console.log(\`${packageName} is not installed here (NODE_PATH names no node_modules folder holding it): \${e.message}\`);`,
    '  process.exit(2);',
    '}',
    prelude.replace(/^\n+|\n+$/g, ''),
    '',
    `const LIBRARY = ${JSON.stringify(library)}.replace('{version}', version);`,
    `const SPEC = ${JSON.stringify(request.spec)};`,
    `const INPUT = JSON.parse(${JSON.stringify(JSON.stringify(request.input))});`,
    `const EXPECT = JSON.parse(${JSON.stringify(JSON.stringify(expect))});`,
    '',
    call.replace(/^\n+|\n+$/g, ''),
  ];
  return {
    value: {
      ext: 'js',
      run: ['env', `NODE_PATH=${modulesDir}`, process.execPath, '{file}'],
      program: lines.join('\n') + '\n' + UPSTREAM_JUDGE,
    },
  };
}

module.exports = { UPSTREAM_OP, upstreamProgram, sourceBetween };
