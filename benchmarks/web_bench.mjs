// The runtime as WebAssembly beside the native build, per node visit: runs visit_timer (runtime_bench's
// built cases and two real trees, stub nodes) natively and in Node, one after the other in one
// run, and prints both times and their ratio (docs/benchmarks.md, "WebAssembly").
//   node benchmarks/web_bench.mjs [--also LABEL=BUILD_DIR]... [visit_timer flags: --rounds N, --steady]
// Needs the release and wasm presets built (scripts/build.sh release; scripts/build.sh wasm).
// --also adds the visit_timer of another WebAssembly build as a column (another exception mode:
// cmake -DAINB_WASM_EXCEPTIONS=js, docs/web.md).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpus = path.resolve(root, process.env.AINB_CORPUS ?? '../shared/corpus');
const trees = ['Toby.utility.root.ainb', 'NpcTripMaster.utility.root.ainb'].map((f) => path.join(corpus, 'ainb', f));
const builds = [['wasm', path.join(root, 'build/wasm')]];
const flags = [];
for (let i = 2; i < process.argv.length; ++i) {
  if (process.argv[i] === '--also') builds.push(process.argv[++i].split('='));
  else flags.push(process.argv[i]);
}

function timer(command, commandArgs) {
  const done = spawnSync(command, [...commandArgs, ...flags, ...trees], { encoding: 'utf8' });
  if (done.status !== 0) throw new Error(`${command} ${commandArgs.join(' ')}: ${String(done.stderr || done.error).slice(-2000)}`);
  return new Map(done.stdout.trim().split('\n').map((line) => {
    const [name, visits, ns] = line.split(' ');
    return [name, { visits: Number(visits), ns: Number(ns) }];
  }));
}

const native = timer(path.join(root, 'build/release/benchmarks/visit_timer'), []);
// Emscripten 3.1.6 fetches its .wasm when `fetch` exists, which Node's cannot do for a path.
const wasm = builds.map(([label, dir]) =>
  [label, timer(process.execPath, ['--no-experimental-fetch', path.join(dir, 'benchmarks/visit_timer.js')])]);
const column = (text, width = 11) => String(text).padStart(width);
console.log(`${'case'.padEnd(34)}${column('visits/1000fr', 14)}${column('native ns')}` +
            wasm.map(([label]) => `${column(`${label} ns`)}${column('of native')}`).join(''));
const speeds = wasm.map(() => []);
for (const [name, n] of native) {
  let line = `${name.padEnd(34)}${column(n.visits, 14)}${column(n.ns.toFixed(2))}`;
  wasm.forEach(([label, times], k) => {
    const w = times.get(name);
    if (w.visits !== n.visits) throw new Error(`${name}: ${n.visits} visits natively, ${w.visits} in ${label}`);
    speeds[k].push(n.ns / w.ns);
    line += `${column(w.ns.toFixed(2))}${column(`${((n.ns / w.ns) * 100).toFixed(0)} %`)}`;
  });
  console.log(line);
}
wasm.forEach(([label], k) => {
  const geomean = Math.exp(speeds[k].reduce((a, r) => a + Math.log(r), 0) / speeds[k].length);
  console.log(`${label}: speed per visit ${(geomean * 100).toFixed(0)} % of native (geometric mean; Node ${process.version})`);
});
