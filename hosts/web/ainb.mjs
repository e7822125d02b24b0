// The JavaScript API of the WebAssembly runtime (docs/web.md): an ES module for Node and pages.
//
//   import { load } from './ainb.mjs';
//   const ainb = await load();
//   ainb.addFile('Enemy.root.ainb', bytes);          // and the modules it calls, by name
//   const { trace, summary } = ainb.run('Enemy.root.ainb', { frames: 600 });
//
// Every call runs the `ainb` command line's own code on the files added (an in-memory folder), so
// its results are the native CLI's: the same JSON-lines trace, reports and messages. A call that
// the CLI refuses throws an AinbError whose message is the CLI's one-line error.

import createAinbModule from './ainb_module.mjs';

const kFolder = '/files';
const kScratch = '/scratch';

// An error the command line reported: `message` is its first error line, `code` its exit code,
// `stderr` all it wrote there.
export class AinbError extends Error {
  constructor(message, code, stderr) {
    super(message);
    this.name = 'AinbError';
    this.code = code;
    this.stderr = stderr;
  }
}

async function wasmBytes() {
  const url = new URL('./ainb_module.wasm', import.meta.url);
  if (typeof process === 'object' && process.versions && process.versions.node) {
    const { readFile } = await import('node:fs/promises');
    return readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`ainb: cannot fetch ${url} (${response.status})`);
  return new Uint8Array(await response.arrayBuffer());
}

// Loads the module. `options.wasmBinary`: the module's bytes, where they are not beside this
// file (the self-contained page embeds them).
export async function load(options = {}) {
  const wasmBinary = options.wasmBinary ?? (await wasmBytes());
  const module = await createAinbModule({ wasmBinary, print: () => {}, printErr: () => {} });
  return new Ainb(module);
}

// Loads the module at once from a compiled WebAssembly.Module: for a page that must answer before
// its load event (the page's URL mode, which headless Chromium's --dump-dom reads).
export function loadSync(wasmModule) {
  const module = {
    print: () => {},
    printErr: () => {},
    instantiateWasm(imports, receive) {
      const instance = new WebAssembly.Instance(wasmModule, imports);
      receive(instance);
      return instance.exports;
    },
  };
  createAinbModule(module);  // with a synchronous instantiation the module is ready on return
  if (typeof module.command !== 'function') throw new Error('ainb: the module did not start');
  return new Ainb(module);
}

const camel = (name) => name.replace(/_([a-z])/g, (_, c) => c.toUpperCase());

function firstError(stderr) {
  const lines = stderr.split('\n').filter((line) => line.length > 0);
  return lines.find((line) => line.startsWith('error')) ?? lines[0] ?? 'failed';
}

export class Ainb {
  constructor(module) {
    this.module = module;
    this.fs = module.FS;
    this.fs.mkdirTree(kFolder);
    this.fs.mkdirTree(kScratch);
    // Commands run inside the folder, on the names as given: their messages name the files so.
    this.fs.chdir(kFolder);
    // The run option table (simulation/run_options.hpp): camelCase name -> row.
    this.options = new Map(JSON.parse(module.runOptions()).map((row) => [camel(row.name), row]));
  }

  // --- Files: an in-memory folder; names may hold folders ("Pack/Actor.root.ainb").
  addFile(name, bytes) {
    const path = `${kFolder}/${this.path(name)}`;
    this.fs.mkdirTree(path.slice(0, path.lastIndexOf('/')) || '/');
    this.fs.writeFile(path, bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
    return name;
  }
  addFiles(files) {
    for (const [name, bytes] of files instanceof Map ? files : Object.entries(files))
      this.addFile(name, bytes);
  }
  removeFile(name) {
    this.fs.unlink(`${kFolder}/${this.path(name)}`);
  }
  files() {
    const names = [];
    const walk = (folder, prefix) => {
      for (const entry of this.fs.readdir(folder)) {
        if (entry === '.' || entry === '..') continue;
        const full = `${folder}/${entry}`;
        if (this.fs.isDir(this.fs.stat(full).mode)) walk(full, `${prefix}${entry}/`);
        else names.push(`${prefix}${entry}`);
      }
    };
    walk(kFolder, '');
    return names.sort();
  }
  readFile(name) {
    return this.fs.readFile(`${kFolder}/${this.path(name)}`);
  }
  // A name as commands take it: relative to the folder of loaded files, which it stays inside.
  path(name) {
    if (name.startsWith('/') || name.split('/').includes('..'))
      throw new Error(`ainb: "${name}" is not a name inside the loaded files`);
    return name;
  }

  // --- The command line itself: args as for `ainb`, file names as added; `progress(done, total,
  // label)`, if given, is told of a long command's progress (explore's runs).
  command(args, progress = undefined) {
    const list = new this.module.StringList();
    try {
      for (const arg of args) list.push_back(String(arg));
      return this.module.command(list, progress);
    } finally {
      list.delete();
    }
  }

  // Runs a command; exit codes in `allowed` are results, any other is an AinbError.
  check(args, allowed = [0], progress = undefined) {
    const result = this.command(args, progress);
    if (!allowed.includes(result.code))
      throw new AinbError(firstError(result.err), result.code, result.err);
    return result;
  }

  // Run options as flags, for a command (run, regress, explore, scan, report).
  flags(options, taker) {
    const args = [];
    for (const [key, value] of Object.entries(options)) {
      const row = this.options.get(key);
      if (!row) continue;  // the command's own options are read by the caller
      if (!row.takers.includes(taker))
        throw new Error(`ainb: ${taker} does not take the option ${key}`);
      if (row.kind === 'flag') {
        if (value) args.push(row.flag);
      } else if (row.kind === 'paths') {
        for (const path of [].concat(value)) args.push(row.flag, this.path(path));
      } else if (row.kind === 'path') {
        args.push(row.flag, this.path(value));
      } else {
        args.push(row.flag, String(value));
      }
    }
    const own = new Set(['scenario', 'scenarios', 'editedScenario', 'names', 'runs', 'maxTraceEvents', 'strict', 'against', 'html',
      'progress']);
    for (const key of Object.keys(options)) {
      if (!this.options.has(key) && !own.has(key))
        throw new Error(`ainb: unknown option ${key} (known: ${[...this.options.keys(), ...own].join(', ')})`);
    }
    return args;
  }

  // A scenario: the name of an added file, or an object (written where the command line reads it).
  // `name` (without "/") names the file, which a page's labels show.
  scenarioFile(scenario, index = 0, name = undefined) {
    if (typeof scenario === 'string') return this.path(scenario);
    const path = `${kScratch}/${name ?? `scenario${index === 0 ? '' : index + 1}`}.json`;
    this.fs.writeFile(path, JSON.stringify(scenario));
    return path;
  }

  // With `html`, the command also writes the report component's page (as `--html`): returns
  // the arguments for it, and `page()` reads the page back.
  pageArgs(options) {
    return options.html ? ['--html', `${kScratch}/page.html`] : [];
  }
  page(options) {
    const path = `${kScratch}/page.html`;
    if (!options.html || !this.fs.analyzePath(path).exists) return undefined;  // none written
    const page = this.fs.readFile(path, { encoding: 'utf8' });
    this.fs.unlink(path);
    return page;
  }

  // --- Commands.

  // `ainb info`: the readable summary.
  info(name) {
    return this.check(['info', this.path(name)]).out;
  }

  // `ainb run`: the JSON-lines trace (one event per line, as `--trace - --format jsonl`) and the
  // summary the CLI prints; with `html`, also the run's page (as `--html`).
  run(name, options = {}) {
    const args = ['run', this.path(name), ...this.flags(options, 'run'), ...this.pageArgs(options)];
    if (options.scenario !== undefined) args.push('--scenario', this.scenarioFile(options.scenario));
    if (options.maxTraceEvents !== undefined) args.push('--max-trace-events', String(options.maxTraceEvents));
    const tracePath = `${kScratch}/trace.jsonl`;
    args.push('--trace', tracePath, '--format', 'jsonl');
    const result = this.check(args);
    const trace = this.fs.readFile(tracePath, { encoding: 'utf8' });
    this.fs.unlink(tracePath);
    return { trace, summary: result.out, warnings: result.err, page: this.page(options) };
  }

  // `ainb report TRACE --file NAME`: the run's page (as `run --html` draws it) from a JSON-lines
  // trace given as text (a live stream's, say), the file and its modules loaded as a run loads
  // them. Returns the page, the CLI's line and its warnings.
  report(trace, name, options = {}) {
    const tracePath = `${kScratch}/report.jsonl`;
    const pagePath = `${kScratch}/page.html`;
    this.fs.writeFile(tracePath, trace);
    try {
      const result = this.check(['report', tracePath, '--file', this.path(name), '-o', pagePath,
        ...this.flags(options, 'report')]);
      return { page: this.page({ html: true }), report: result.out, warnings: result.err };
    } finally {
      this.fs.unlink(tracePath);
    }
  }

  // `ainb run --coverage`: what a run reached, as the CLI's JSON report (an object).
  coverage(name, options = {}) {
    const args = ['run', this.path(name), ...this.flags(options, 'run')];
    if (options.scenario !== undefined) args.push('--scenario', this.scenarioFile(options.scenario));
    const coveragePath = `${kScratch}/coverage.json`;
    args.push('--coverage', coveragePath);
    const result = this.check(args);
    const report = JSON.parse(this.fs.readFile(coveragePath, { encoding: 'utf8' }));
    this.fs.unlink(coveragePath);
    return { coverage: report, summary: result.out };
  }

  // `ainb regress ORIGINAL EDITED`: `same` and the CLI's report (its first difference); with
  // `html`, the page of the two runs side by side. `editedScenario`: the edited file's own
  // scenario; `names`: the two scenarios' file names (the page's labels).
  regress(original, edited, options = {}) {
    const args = ['regress', this.path(original), this.path(edited), ...this.flags(options, 'regress'),
      ...this.pageArgs(options)];
    [].concat(options.scenarios ?? options.scenario ?? []).forEach((scenario, k) => {
      args.push('--scenario', this.scenarioFile(scenario, k, options.names?.[0]));
    });
    // The edited file's own scenario (`--edited-scenario`): two scenarios compared.
    if (options.editedScenario !== undefined)
      args.push('--edited-scenario', this.scenarioFile(options.editedScenario, 1, options.names?.[1]));
    if (options.strict) args.push('--strict');
    const result = this.check(args, [0, 1]);
    return { same: result.code === 0, report: result.out, page: this.page(options) };
  }

  // `ainb explore FILE` (or, with `against`, `regress --explore`): generated scenarios, one
  // thread. With `against`, `same` says whether the runs found no difference. With `html`, the
  // coverage page (or the difference's); `progress(done, total, label)` is told after each
  // batch of runs.
  explore(name, options = {}) {
    const args = ['explore', this.path(name), '--jobs', '1', ...this.flags(options, 'explore'),
      ...this.pageArgs(options)];
    if (options.runs !== undefined) args.push('--runs', String(options.runs));
    if (options.against !== undefined) args.push('--against', this.path(options.against));
    const result = this.check(args, options.against === undefined ? [0] : [0, 1], options.progress);
    const page = this.page(options);
    if (options.against === undefined) return { report: result.out, page };
    return { same: result.code === 0, report: result.out, page };
  }

  // `ainb convert`: an AI file to the JSON text form (text), or text form to an AI file (bytes).
  toText(name) {
    const out = `${kScratch}/converted.json`;
    this.check(['convert', this.path(name), out, '--force']);
    const text = this.fs.readFile(out, { encoding: 'utf8' });
    this.fs.unlink(out);
    return text;
  }
  fromText(text) {
    const input = `${kScratch}/text.json`;
    const out = `${kScratch}/converted.ainb`;
    this.fs.writeFile(input, text);
    this.check(['convert', input, out, '--force']);
    const bytes = this.fs.readFile(out);
    this.fs.unlink(out);
    return bytes;
  }
}
