// Every public real AI file (corpus ainb/, bulk/ainb/, wide/ainb/) run in the WebAssembly build
// and by the native CLI, with the options that reach the most of the runtime (a plain run of every
// file is test_page.py's, through the page): the JSON-lines traces must be the same bytes, the
// summaries and warnings the same text, the exit codes equal (a file the CLI refuses is refused
// with the same message). Restarted runs get 60 frames: their traces grow with every restart
// (4.5 MB a file at 600 frames, most of this suite's time); 60 frames still restart the trees that end.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { api, corpusFolders, loadFolder, nativeAinb } from './support.mjs';

const optionSets = [
  {
    flags: ['--frames', '600', '--generic-nodes', '--stub-children', '--stub-missing-modules', '--seed', '3'],
    options: { frames: 600, genericNodes: true, stubChildren: true, stubMissingModules: true, seed: 3 },
  },
  {
    flags: ['--frames', '60', '--restart', '--generic-nodes', '--stub-children', '--stub-missing-modules'],
    options: { frames: 60, restart: true, genericNodes: true, stubChildren: true, stubMissingModules: true },
  },
];

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ainb-parity-'));

function nativeRun(folder, name, flags) {
  const trace = path.join(scratch, 'trace.jsonl');
  fs.rmSync(trace, { force: true });
  const r = spawnSync(nativeAinb, ['run', name, ...flags, '--trace', trace, '--format', 'jsonl'],
                      { cwd: folder, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr, trace: fs.existsSync(trace) ? fs.readFileSync(trace, 'utf8') : '' };
}

function wasmRun(ainb, name, options) {
  try {
    const r = ainb.run(name, options);
    return { code: 0, out: r.summary, err: r.warnings, trace: r.trace };
  } catch (e) {
    if (!(e instanceof api.AinbError)) throw e;
    return { code: e.code, out: '', err: e.stderr, trace: '' };
  }
}

for (const folder of corpusFolders()) {
  test(`every real file of ${path.relative(path.resolve(folder, '../..'), folder)}: the native CLI's trace`, async () => {
    const ainb = await loadFolder(folder);
    const names = ainb.files();
    assert.ok(names.length >= 12, `${folder}: ${names.length} files`);
    let compared = 0;
    for (const name of names) {
      for (const set of optionSets) {
        const expected = nativeRun(folder, name, set.flags);
        const actual = wasmRun(ainb, name, set.options);
        const what = `${name} [${set.flags.join(' ')}]`;
        assert.equal(actual.code, expected.code, `${what}: exit code (${expected.err})`);
        assert.equal(actual.trace, expected.trace, `${what}: trace`);
        if (expected.code === 0) assert.equal(actual.out, expected.out, `${what}: summary`);
        assert.equal(actual.err, expected.err, `${what}: warnings`);
        compared += 1;
      }
    }
    assert.equal(compared, names.length * optionSets.length);
  });
}
