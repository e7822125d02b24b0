// The JavaScript API (hosts/web/ainb.mjs) on the bundled example: files, commands, options and
// errors, checked against what the native CLI prints for the same calls.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { api, corpus, example, nativeAinb } from './support.mjs';

const ainb = await api.load();
const patrol = ainb.fromText(example('patrol.root.json'));
ainb.addFile('patrol.root.ainb', patrol);
ainb.addFile('patrol.edited.root.ainb', ainb.fromText(example('patrol.edited.root.json')));
ainb.addFile('patrol.scenario.json', new TextEncoder().encode(example('patrol.scenario.json')));

// The native CLI, run in a folder holding the same files.
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'ainb-web-'));
for (const name of ainb.files()) fs.writeFileSync(path.join(folder, name), ainb.readFile(name));
const native = (...args) => spawnSync(nativeAinb, args, { cwd: folder, encoding: 'utf8' });

test('files: added by name, listed sorted, read back', () => {
  assert.deepEqual(ainb.files(), ['patrol.edited.root.ainb', 'patrol.root.ainb', 'patrol.scenario.json']);
  assert.deepEqual(ainb.readFile('patrol.root.ainb'), patrol);
  assert.throws(() => ainb.path('../etc/passwd'), /not a name inside the loaded files/);
});

test('convert: the text form compiles to the bytes the native CLI writes', () => {
  const bytes = native('convert', path.resolve('examples/patrol.root.json'), 'native.ainb', '--force');
  assert.equal(bytes.status, 0, bytes.stderr);
  assert.deepEqual(new Uint8Array(fs.readFileSync(path.join(folder, 'native.ainb'))), patrol);
  assert.equal(ainb.toText('patrol.root.ainb'), (() => {
    native('convert', 'patrol.root.ainb', 'back.json', '--force');
    return fs.readFileSync(path.join(folder, 'back.json'), 'utf8');
  })());
});

test('info: the CLI\'s summary', () => {
  assert.equal(ainb.info('patrol.root.ainb'), native('info', 'patrol.root.ainb').stdout);
});

test('run: the JSON-lines trace and summary of the native CLI, scenario by name or object', () => {
  const expected = native('run', 'patrol.root.ainb', '--scenario', 'patrol.scenario.json',
                          '--trace', 'native.jsonl');
  const trace = fs.readFileSync(path.join(folder, 'native.jsonl'), 'utf8');
  const summary = expected.stdout;
  const byName = ainb.run('patrol.root.ainb', { scenario: 'patrol.scenario.json' });
  assert.equal(byName.trace, trace);
  assert.equal(byName.summary, summary);
  assert.equal(byName.trace.split('\n').length, 59 + 1);
  const byObject = ainb.run('patrol.root.ainb', { scenario: JSON.parse(example('patrol.scenario.json')) });
  assert.equal(byObject.trace, trace);
});

test('run options: camelCase names of the run option table, flags as the CLI\'s', () => {
  assert.deepEqual([...ainb.options.keys()].slice(0, 4), ['command', 'frames', 'seed', 'restart']);
  const run = ainb.run('patrol.root.ainb', { frames: 3, restart: true, genericNodes: true, command: 'Root' });
  const expected = native('run', 'patrol.root.ainb', '--frames', '3', '--restart', '--generic-nodes',
                          '--command', 'Root', '--trace', '-');
  assert.equal(run.trace, expected.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => `${l}\n`).join(''));
  assert.throws(() => ainb.run('patrol.root.ainb', { frame: 3 }), /unknown option frame \(known: command, frames,/);
  assert.throws(() => ainb.explore('patrol.root.ainb', { restart: true }), /explore does not take the option restart/);
});

test('report: the page of a trace given as text, the native CLI\'s', () => {
  const { trace } = ainb.run('patrol.root.ainb', { frames: 40 });
  const made = ainb.report(trace, 'patrol.root.ainb');
  fs.writeFileSync(path.join(folder, 'report.jsonl'), trace);
  const expected = native('report', 'report.jsonl', '--file', 'patrol.root.ainb', '-o', 'report.html',
                          '--dot', 'no-dot');
  assert.equal(expected.status, 0, expected.stderr);
  assert.equal(made.report, expected.stdout.replace('report.html', '/scratch/page.html'));
  assert.match(made.report, /: 40 frames, \d+ events\n$/);
  // The page's data (but its note on why dot did not lay the graphs out) is the native page's.
  const data = (html) => {
    const { graphviz: _, ...rest } = JSON.parse(/<script type="application\/json" id="data">(.*?)<\/script>/s.exec(html)[1]);
    return rest;
  };
  assert.deepEqual(data(made.page), data(fs.readFileSync(path.join(folder, 'report.html'), 'utf8')));
  assert.throws(() => ainb.report('{"frame": 0\n', 'patrol.root.ainb'),
                { name: 'AinbError', message: /: line 1: not a JSON trace event/ });
});

test('regress: same or not, with the CLI\'s report', () => {
  const result = ainb.regress('patrol.root.ainb', 'patrol.edited.root.ainb', { scenario: 'patrol.scenario.json' });
  assert.equal(result.same, false);
  assert.equal(result.report, native('regress', 'patrol.root.ainb', 'patrol.edited.root.ainb',
                                     '--scenario', 'patrol.scenario.json').stdout);
  assert.match(result.report, /^different: scenario patrol.scenario.json, event 3, frame 0\n/);
  assert.equal(ainb.regress('patrol.root.ainb', 'patrol.root.ainb').same, true);
});

test('explore: the report, alone and against an edit', () => {
  const alone = ainb.explore('patrol.root.ainb', { runs: 8 });
  assert.equal(alone.report, native('explore', 'patrol.root.ainb', '--runs', '8', '--jobs', '1').stdout);
  const against = ainb.explore('patrol.root.ainb', { runs: 8, against: 'patrol.edited.root.ainb' });
  assert.equal(against.same, false);
});

test('coverage: the CLI\'s JSON report as an object', () => {
  const { coverage } = ainb.coverage('patrol.root.ainb', { scenario: 'patrol.scenario.json' });
  native('run', 'patrol.root.ainb', '--scenario', 'patrol.scenario.json', '--coverage', 'coverage.json');
  assert.deepEqual(coverage, JSON.parse(fs.readFileSync(path.join(folder, 'coverage.json'), 'utf8')));
});

test('bad input: an AinbError with the CLI\'s one-line message; the other files stay', () => {
  ainb.addFile('truncated.ainb', patrol.slice(0, 100));
  fs.writeFileSync(path.join(folder, 'truncated.ainb'), patrol.slice(0, 100));
  assert.throws(() => ainb.run('truncated.ainb'), (e) => {
    assert.ok(e instanceof api.AinbError);
    assert.equal(e.code, 1);
    assert.equal(e.message, native('run', 'truncated.ainb').stderr.trim().split('\n')[0]);
    assert.match(e.message, /^error: truncated.ainb: /);
    return true;
  });
  assert.throws(() => ainb.run('missing.ainb'), /^AinbError: error: missing.ainb: file at offset 0x0: cannot read file/);
  assert.throws(() => ainb.run('patrol.root.ainb', { scenario: { frames: 'many' } }), (e) => e.code === 2 || e.code === 1);
  ainb.removeFile('truncated.ainb');
  assert.equal(ainb.run('patrol.root.ainb', { frames: 1 }).trace.split('\n')[0],
               '{"frame":0,"event":"command","file":"patrol.root.ainb","detail":"Root"}');
});

test('zstd: a compressed pack is refused with the reason (the module has no zstd)', () => {
  const packs = path.join(corpus, 'packs');
  if (!fs.existsSync(packs)) {
    assert.ok(!process.env.CI, `no corpus packs at ${packs}`);
    return;
  }
  ainb.addFile('Accessory_Battery.pack.zs', fs.readFileSync(path.join(packs, 'Accessory_Battery.pack.zs')));
  assert.throws(() => ainb.run('Accessory_Battery.pack.zs:AI/Accessory_Battery.root.ainb'), (e) => {
    assert.equal(e.code, 1);
    assert.match(e.message, /^error: Accessory_Battery\.pack\.zs: zstd at offset 0x0: zstd-compressed, and this build has no zstd decompressor \(the WebAssembly build: docs\/web\.md\)/);
    return true;
  });
  ainb.removeFile('Accessory_Battery.pack.zs');
});
