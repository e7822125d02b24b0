// The page's own script (docs/web.md): opens files, sends the commands to the worker (worker.js)
// and shows what they return in the report component's pages, which `ainb run --html`,
// `regress --html` and `explore --html` write inside the runtime: one page design, not two.
// With `#open=URL…&run` it runs as it opens, before its load event (URL mode, below).
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const status = (text, failed = false) => {
    $("w-status").textContent = text;
    $("w-status").classList.toggle("error", failed);
  };

  // --- The engine: the module's bytes, in base64 in the page (decoded natively where the
  // browser can: on the URL mode's path, before the load event).
  const wasmBytes = () => {
    if (Uint8Array.fromBase64) return Uint8Array.fromBase64($("ainb-wasm").textContent.trim());
    const text = atob($("ainb-wasm").textContent.trim());
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; ++i) bytes[i] = text.charCodeAt(i);
    return bytes;
  };
  const wasm = wasmBytes();

  // --- The worker: one at a time; cancelling ends it and starts another with the same files.
  const files = new Map();  // name -> bytes, in the order opened
  const refusals = new Map();  // name -> the runtime's one-line error for the file itself
  const failures = new Map();  // name -> the last command's error on it (a missing module, say)
  const fileUrls = new Map();  // name -> the URL it was opened from (URL mode), for the Link control
  let worker = null;
  let pending = new Map();  // message id -> {resolve, reject, progress}
  let nextId = 0;

  function call(op, args = [], progress = undefined) {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject, progress });
      worker.postMessage({ id, op, args });
    });
  }

  function startWorker() {
    const source = `${$("ainb-engine").textContent}\n${$("ainb-worker").textContent}`;
    const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
    worker = new Worker(url);
    URL.revokeObjectURL(url);
    worker.onmessage = ({ data }) => {
      const waiting = pending.get(data.id);
      if (!waiting) return;
      if (data.progress) {
        if (waiting.progress) waiting.progress(data.progress);
        return;
      }
      pending.delete(data.id);
      if (data.error) waiting.reject(Object.assign(new Error(data.error.message), data.error));
      else waiting.resolve(data.result);
    };
    worker.onerror = (e) => status(`The runtime stopped: ${e.message}`, true);
    // The opened files again (after a cancel, or URL mode's): resolves to their checks.
    const started = call("start", [wasm]);
    const added = [...files].map(([name, bytes]) => call("add", [name, bytes]));
    return started.then(() => Promise.all(added));
  }

  function cancel() {
    worker.terminate();
    for (const waiting of pending.values()) waiting.reject(new Error("cancelled"));
    pending = new Map();
    startWorker().then(() => count("started"));
  }

  // --- Files.
  function showFiles() {
    const list = $("w-files");
    list.replaceChildren();
    for (const name of files.keys()) {
      const item = document.createElement("li");
      item.dataset.name = name;
      item.append(name);
      const refusal = refusals.get(name) || failures.get(name);
      if (refusal) {
        item.classList.add("bad");
        const message = document.createElement("span");
        message.className = "message";
        message.textContent = refusal;
        item.append(message);
      }
      const remove = document.createElement("button");
      remove.textContent = "×";
      remove.title = `close ${name}`;
      remove.onclick = () => closeFile(name);
      item.append(remove);
      list.append(item);
    }
    const runnable = [...files.keys()].filter((name) => /\.(ainb|json)$/i.test(name) && !refusals.get(name));
    for (const [select, none] of [[$("w-file"), null], [$("w-edited"), "(none)"]]) {
      const chosen = select.value;
      select.replaceChildren();
      if (none) select.append(new Option(none, ""));
      for (const name of runnable) select.append(new Option(name, name));
      if (runnable.includes(chosen)) select.value = chosen;
      else if (!none) select.value = runnable.find((name) => name.includes(".root.")) ?? runnable[0] ?? "";
    }
    enable();
  }

  async function openFiles(opened) {
    for (const [name, bytes] of opened) {
      files.set(name, bytes);
      refusals.delete(name);
      failures.delete(name);
      fileUrls.delete(name);  // from this computer now
    }
    showFiles();
    const checked = await Promise.all(opened.map(([name, bytes]) => call("add", [name, bytes])));
    for (const { name, error } of checked) refusals.set(name, error);
    showFiles();
    const bad = checked.filter((c) => c.error).length;
    status(`${files.size} file(s) open${bad ? `, ${bad} refused (the message is beside its name)` : ""}.`);
    count("opened");
  }

  function closeFile(name) {
    files.delete(name);
    refusals.delete(name);
    failures.delete(name);
    fileUrls.delete(name);
    call("remove", [name]).catch(() => {});
    showFiles();
  }

  const read = (file, name) => file.arrayBuffer().then((buffer) => [name, new Uint8Array(buffer)]);
  $("w-pick").onchange = async (e) => openFiles(await Promise.all([...e.target.files].map((f) => read(f, f.name))));
  $("w-folder").onchange = async (e) =>
    openFiles(await Promise.all([...e.target.files].map((f) => read(f, f.webkitRelativePath || f.name))));

  // A dropped folder's files keep their paths inside it: modules are found beside their callers.
  async function dropped(entry) {
    if (entry.isFile) {
      const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
      return [await read(file, entry.fullPath.replace(/^\//, ""))];
    }
    const reader = entry.createReader();
    const entries = [];
    for (let batch; (batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject))).length;)
      entries.push(...batch);
    return (await Promise.all(entries.map(dropped))).flat();
  }
  document.addEventListener("dragover", (e) => {
    e.preventDefault();
    document.body.classList.add("dragging");
  });
  document.addEventListener("dragleave", () => document.body.classList.remove("dragging"));
  document.addEventListener("drop", async (e) => {
    e.preventDefault();
    document.body.classList.remove("dragging");
    const entries = [...e.dataTransfer.items].map((item) => item.webkitGetAsEntry()).filter(Boolean);
    openFiles((await Promise.all(entries.map(dropped))).flat());
  });

  // --- Options: the run option table's rows the page can set (flags, counts, text), as inputs.
  let optionRows = [];
  function showOptions(rows) {
    optionRows = rows.filter((row) => ["flag", "count", "text"].includes(row.kind));
    const box = $("w-options");
    box.replaceChildren();
    for (const row of optionRows) {
      const label = document.createElement("label");
      label.title = row.help;
      const input = document.createElement("input");
      input.id = `w-option-${row.flag.slice(2)}`;
      input.type = row.kind === "flag" ? "checkbox" : row.kind === "count" ? "number" : "text";
      if (row.kind === "flag") input.checked = row.default;
      else input.value = String(row.default);
      if (row.kind === "count") input.min = "0";
      const text = row.flag.slice(2).replace(/-/g, " ");
      if (row.kind === "flag") label.append(input, ` ${text}`);
      else label.append(`${text} `, input);
      box.append(label);
    }
  }
  function options(command) {
    const chosen = {};
    for (const row of optionRows) {
      if (!row.takers.includes(command)) continue;
      const input = $(`w-option-${row.flag.slice(2)}`);
      const value = row.kind === "flag" ? input.checked : row.kind === "count" ? Number(input.value) : input.value;
      if (value !== row.default) chosen[row.key] = value;
    }
    return chosen;
  }

  // --- The scenario editor: `ainb run --scenario`'s JSON.
  function scenario() {
    const text = $("w-scenario").value.trim();
    $("w-scenario-error").textContent = "";
    if (!text) return undefined;
    try {
      return JSON.parse(text);
    } catch (e) {
      $("w-scenario-error").textContent = `not JSON: ${e.message}`;
      $("w-scenario-box").open = true;
      throw new Error(`The scenario is not JSON: ${e.message}`);
    }
  }
  const scenarioState = () => {
    $("w-scenario-state").textContent = $("w-scenario").value.trim() ? "(set)" : "(none: a plain run)";
  };
  $("w-scenario").oninput = scenarioState;
  $("w-scenario-import").onchange = async (e) => {
    const [file] = e.target.files;
    if (!file) return;
    $("w-scenario").value = await file.text();
    scenarioState();
    e.target.value = "";
  };
  // Saves `text` as the file `name` (the browser's download).
  const download = (name, text) => {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    link.download = name;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 0);
  };
  $("w-scenario-export").onclick = () => download("scenario.json", $("w-scenario").value);

  // Counted on the body for tests and scripts that drive the page: files opened (data-opened),
  // commands finished (data-finished), the worker ready (data-started).
  const count = (key) => {
    document.body.dataset[key] = String(Number(document.body.dataset[key] || 0) + 1);
  };

  // --- Commands.
  let busy = false;
  function enable() {
    const file = $("w-file").value, edited = $("w-edited").value;
    $("w-run").disabled = busy || !file;
    $("w-explore").disabled = busy || !file;
    $("w-regress").disabled = busy || !file || !edited;
    $("w-cancel").disabled = !busy;
  }
  $("w-file").onchange = enable;
  $("w-edited").onchange = enable;

  // A command's output, warnings and trace; its page in the view, resolved once it has loaded.
  function show(result) {
    $("w-report").classList.remove("failed");
    $("w-report").textContent = [result.summary, result.report, result.warnings].filter(Boolean).join("\n");
    $("ainb-trace").textContent = result.trace ?? "";
    return showPage(result.page);
  }
  // The report page follows the debugger's cursor: its frame, file and node.
  let cursorAt = null;
  const follow = (at) => {
    cursorAt = at;
    const view = $("w-view");
    if (view && !view.hidden && view.contentWindow) view.contentWindow.postMessage({ ainbGo: at }, "*");
  };
  function showPage(page) {
    let view = $("w-view");
    if (!page) {
      if (view) view.hidden = true;  // not an earlier command's page either
      return Promise.resolve();
    }
    if (!view) {
      // Made with the first page: a frame in the markup costs the page's start tens of ms.
      view = document.createElement("iframe");
      view.id = "w-view";
      view.title = "the report";
      $("w-trace-box").before(view);
    }
    view.hidden = false;
    const loaded = new Promise((resolve) => view.addEventListener("load", resolve, { once: true })).then(() => {
      if (cursorAt) follow(cursorAt);
    });
    view.srcdoc = page;
    return loaded;
  }

  // Runs a command on `file`; its error goes beside the file's name too.
  async function command(name, file, work) {
    busy = true;
    enable();
    const start = performance.now();
    status(`${name}…`);
    $("ainb-trace").textContent = "";  // a failed command leaves no earlier trace behind
    debug.show(null);  // nor an earlier run's cursor
    try {
      const result = await work();
      failures.delete(file);
      showFiles();
      await show(result);
      status(`${name}: done in ${Math.round(performance.now() - start)} ms.`);
      return result;
    } catch (e) {
      const cancelled = e.message === "cancelled";
      if (!cancelled) {
        failures.set(file, e.message);
        showFiles();
      }
      $("w-report").classList.add("failed");
      $("w-report").textContent = cancelled ? "" : e.stderr || e.message;
      status(cancelled ? `${name}: cancelled.` : `${name}: ${e.message}`, !cancelled);
      return null;
    } finally {
      busy = false;
      $("w-progress").hidden = true;
      enable();
      count("finished");
    }
  }

  const withScenario = (chosen) => {
    const s = scenario();
    return s === undefined ? chosen : { ...chosen, scenario: s };
  };
  const html = () => $("w-draw").checked;
  // A run: the debugger's cursor over it, at `where.frame` if given, else at its first breakpoint.
  // It starts a branch of its own (`parent` undefined) or is a what-if of branch `parent` (below),
  // shown at its first difference.
  async function run(where = {}, parent = undefined, name = undefined, intervention = undefined) {
    const file = $("w-file").value;
    const top = file.split("/").pop();  // the trace's file names
    let chosen;  // read inside the command, which says what is wrong with the scenario
    const result = await command("Run", file, () => call("run", [file, (chosen = withScenario({ ...options("run"), html: html() }))]));
    if (!result) return debug.show(null);
    const { scenario: _, html: __, ...runOptions } = chosen;
    const branch = whatIf.add({ name, file, top, options: runOptions, scenario: chosen.scenario, trace: result.trace, page: result.page, parent, intervention });
    debug.show(result.trace, top, branch.difference ? { event: branch.difference.event, note: "the first difference" } : where);
  }
  $("w-run").onclick = () => run();
  const debug = AinbDebugger.debugPanel({
    $,
    follow,
    download,
    // Run to a frame past the run's: the run again with that many frames.
    rerun: async (frame) => {
      const frames = $("w-option-frames");
      if (!frames || busy || !$("w-file").value) return false;
      frames.value = String(frame);
      await run({ frame });
      return true;
    },
  });

  // --- What if (page/whatif.js): interventions at the cursor, each run as a branch.
  const whatIf = AinbDebugger.whatIfPanel({
    $,
    debug,
    run,
    showPage,
    // Two branches side by side: `ainb regress FILE FILE --scenario A --edited-scenario B --html`,
    // its page in the view; the trace and the cursor stay the branch's.
    compare: async (parent, branch) => {
      if (busy) return;
      busy = true;
      enable();
      status("Compare…");
      const fileName = (b) => b.name.replace(/[/\\]/g, "_");
      try {
        const result = await call("regress", [branch.file, branch.file, { ...branch.options, scenario: parent.scenario ?? {},
          editedScenario: branch.scenario ?? {}, names: [fileName(parent), fileName(branch)], html: true }]);
        $("w-report").classList.remove("failed");
        $("w-report").textContent = result.report;
        await showPage(result.page);
        status(`Compare: ${branch.name} beside ${parent.name}.`);
      } catch (e) {
        status(`Compare: ${e.message}`, true);
      } finally {
        busy = false;
        enable();
        count("finished");
      }
    },
    setScenario: (value) => {
      $("w-scenario").value = value === undefined ? "" : JSON.stringify(value, null, 2);
      scenarioState();
    },
  });
  $("w-regress").onclick = () =>
    command("Regress", $("w-file").value, () =>
      call("regress", [$("w-file").value, $("w-edited").value, withScenario({ ...options("regress"), html: html() })]));
  $("w-explore").onclick = () => {
    const against = $("w-edited").value;
    const progress = $("w-progress");
    progress.hidden = false;
    progress.removeAttribute("value");
    const chosen = { ...options("explore"), runs: Number($("w-runs").value), html: html() };
    if (against) chosen.against = against;
    command("Explore", $("w-file").value, () =>
      call("explore", [$("w-file").value, chosen], ({ done, total }) => {
        progress.max = total;
        progress.value = done;
        status(`Explore: ${done} of ${total} runs…`);
      }));
  };
  $("w-cancel").onclick = cancel;

  // --- URL mode: #open=URL&open=URL&scenario=URL&frames=N&run, and any run option by its flag's
  // name (seed=3, generic-nodes, stub-missing-modules=false); the debugger's break, force, at and
  // event, and the Link control's branch and shown (below). With `run`, the run happens before
  // the load event, on this thread (files by synchronous requests, the module compiled at once),
  // so that `chromium --dump-dom` prints the trace in #ainb-trace; then the worker takes the files
  // for what the person does next, and draws the run's report page. Returns the files opened and
  // the options of the run, if one ran.
  function fetchNow(url, binary) {
    const request = new XMLHttpRequest();
    request.open("GET", url, false);
    if (binary) request.overrideMimeType("text/plain; charset=x-user-defined");
    request.send();
    if (request.status !== 200 && request.status !== 0) throw new Error(`cannot read ${url}: ${request.status}`);
    if (!binary) return request.responseText;
    const text = request.responseText;
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; ++i) bytes[i] = text.charCodeAt(i) & 0xff;
    return bytes;
  }
  const fileName = (url) => decodeURIComponent(new URL(url, location.href).pathname.split("/").pop());

  // A link's debugging session (docs/debugger.md, "Links"): `break=SPEC` breakpoints, and
  // `force=N:RESULT:F[:K]` results forced on node N of the file run (`FILE#N`: of a module file)
  // from frame F (for K frames), written into the scenario, which Export then holds. Returns what
  // is wrong with them ("" for nothing).
  function debugLink(params, top) {
    const problems = [];
    for (const spec of params.getAll("break")) {
      try {
        debug.add(spec);
      } catch (e) {
        problems.push(e.message);
      }
    }
    const forced = [];
    for (const spec of params.getAll("force")) {
      const m = /^(?:(.+)#)?(\d+):(Running|Success|Failure)(?::(\d+))?(?::(\d+))?$/.exec(spec);
      if (!m) {
        problems.push(`force "${spec}": expected N:RESULT[:FRAME[:FRAMES]] (RESULT: Running, Success or Failure)`);
        continue;
      }
      const entry = { node: Number(m[2]), result: m[3] };
      if (m[1] && m[1] !== top) entry.file = m[1];
      if (m[4] !== undefined) entry.frame = Number(m[4]);
      if (m[5] !== undefined) entry.frames = Number(m[5]);
      forced.push(entry);
    }
    if (forced.length) {
      let chosen = {};
      try {
        chosen = scenario() ?? {};
      } catch (e) {
        problems.push(e.message);
      }
      chosen.force = [...(chosen.force ?? []), ...forced];
      // Its text too, which a --dump-dom of the link prints.
      $("w-scenario").value = $("w-scenario").defaultValue = JSON.stringify(chosen, null, 2);
      scenarioState();
    }
    return problems.join("; ");
  }

  // A branch run on this thread (URL mode): {file, options, scenario, name, parent, intervention}.
  function runBranch(ainb, branch) {
    const { file, options: runOptions, scenario: s } = branch;
    const result = ainb.run(file, s === undefined ? runOptions : { ...runOptions, scenario: s });
    return { result, branch: whatIf.add({ ...branch, top: file.split("/").pop(), trace: result.trace, page: null }) };
  }
  // A link's branches (`branch=JSON`, as the Link control writes them), made again in order: each
  // with its `name`, its `file` (default: the first opened), its `options` (default: its parent's,
  // or the link's for a branch without one), and either the `intervention` that made it from its
  // parent (`from`: the parent's position, from 1) or its `scenario`.
  function linkBranches(ainb, first, records) {
    const made = [];
    for (const [i, text] of records.entries()) {
      const record = JSON.parse(text);
      const parent = record.from === undefined ? undefined : made[record.from - 1]?.branch;
      if (record.from !== undefined && !parent) throw new Error(`branch ${i + 1}: "from": ${record.from} is not an earlier branch`);
      made.push(runBranch(ainb, {
        name: record.name,
        file: record.file ?? first,
        options: record.options ?? (parent ? parent.options : options("run")),
        scenario: record.intervention ? AinbDebugger.intervened(parent.scenario, record.intervention) : record.scenario,
        parent: parent?.id,
        intervention: record.intervention,
      }));
    }
    return made;
  }

  // --- The Link control: this session as a URL mode link (docs/web.md, "The debugger"): the files
  // opened from URLs (the file shown first: URL mode runs it), the run options, the breakpoints,
  // the branches, the one shown and the cursor's event. Returns it and the files it cannot hold.
  function sessionLink() {
    const parts = [];
    const shown = whatIf.shown();
    const runFile = shown ? shown.file : $("w-file").value;
    const names = [runFile, ...[...files.keys()].filter((name) => name !== runFile)].filter((name) => files.has(name));
    for (const name of names) if (fileUrls.has(name)) parts.push(["open", fileUrls.get(name)]);
    for (const row of optionRows) {
      const input = $(`w-option-${row.flag.slice(2)}`);
      const value = row.kind === "flag" ? input.checked : row.kind === "count" ? Number(input.value) : input.value;
      if (value === row.default) continue;
      parts.push(row.kind === "flag" ? [row.flag.slice(2), value ? "" : "false"] : [row.flag.slice(2), String(value)]);
    }
    for (const b of debug.breakpoints()) parts.push(["break", AinbDebugger.breakpointLink(b)]);
    const all = whatIf.all();
    const position = new Map(all.map((b, i) => [b.id, i + 1]));
    const linkOptions = JSON.stringify(options("run"));
    for (const b of all) {
      const parent = all.find((p) => p.id === b.parent);
      const record = { name: b.name };
      if (b.file !== runFile) record.file = b.file;
      if (parent) record.from = position.get(parent.id);
      // Its intervention while it still makes its scenario from its parent's (not after the
      // branch it was made from was discarded); else the scenario itself.
      const fromParent = parent && b.intervention && JSON.stringify(AinbDebugger.intervened(parent.scenario, b.intervention)) === JSON.stringify(b.scenario);
      if (fromParent) record.intervention = b.intervention;
      else if (b.scenario !== undefined) record.scenario = b.scenario;
      if (JSON.stringify(b.options) !== (parent ? JSON.stringify(parent.options) : linkOptions)) record.options = b.options;
      parts.push(["branch", JSON.stringify(record)]);
    }
    if (shown) parts.push(["shown", String(position.get(shown.id))]);
    const at = debug.at();
    if (at) parts.push(["event", String(at.event)]);
    if (all.length) parts.push(["run", ""]);
    // Encoded as URLSearchParams reads it, keeping the characters of URLs readable.
    const encode = (text) => encodeURIComponent(text).replace(/%(3A|2F|40|2C)/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
    const fragment = parts.map(([key, value]) => (value === "" ? key : `${key}=${encode(value)}`)).join("&");
    return { url: `${location.href.split("#")[0]}#${fragment}`, missing: names.filter((name) => !fileUrls.has(name)) };
  }
  $("w-link").onclick = () => {
    const { url, missing } = sessionLink();
    $("w-link-url").value = url;
    $("w-link-url").hidden = false;
    location.replace(url);  // the address bar holds it too (a new fragment: the page stays)
    status(missing.length ? `The link holds no files opened from this computer (a link opens files by URL): ${missing.join(", ")}.` : "The link is in the address bar and beside the Link button.", missing.length > 0);
  };

  function urlMode() {
    const params = new URLSearchParams(location.hash.slice(1));
    const urls = params.getAll("open");
    if (urls.length === 0) return false;
    const opened = [];
    for (const url of urls) {
      try {
        const href = new URL(url, location.href).href;
        opened.push([fileName(url), fetchNow(href, true)]);
        fileUrls.set(fileName(url), href);
      } catch (e) {
        status(e.message, true);
      }
    }
    for (const [name, bytes] of opened) files.set(name, bytes);
    for (const row of optionRows) {
      const key = row.flag.slice(2);
      if (!params.has(key)) continue;
      const input = $(`w-option-${key}`);
      if (row.kind === "flag") input.checked = !["false", "0"].includes(params.get(key));
      else input.value = params.get(key);
    }
    if (params.has("scenario")) {
      try {
        $("w-scenario").value = fetchNow(new URL(params.get("scenario"), location.href).href, false);
        scenarioState();
      } catch (e) {
        status(e.message, true);
      }
    }
    const problems = debugLink(params, opened.length ? opened[0][0] : "");
    if (problems) status(`In the link: ${problems}`, true);
    if (!params.has("run") || opened.length === 0) return { opened };
    const ainb = AinbEngine.loadSync(new WebAssembly.Module(wasm));
    document.body.dataset.startedAt = String(Math.round(performance.now()));
    for (const [name, bytes] of opened) ainb.addFile(name, bytes);
    const first = opened[0][0];
    // The cursor: at event E, else at the first event of frame F, else where breakpoints say.
    const where = params.has("event") ? { event: Number(params.get("event")) } : params.has("at") ? { frame: Number(params.get("at")) } : {};
    try {
      const records = params.getAll("branch");
      const made = records.length ? linkBranches(ainb, first, records) : [runBranch(ainb, { file: first, options: options("run"), scenario: scenario() })];
      const shown = made[(params.has("shown") ? Number(params.get("shown")) : made.length) - 1] ?? made[made.length - 1];
      show(shown.result);
      whatIf.show(shown.branch, where);
      status(`Ran ${shown.branch.file}.${problems ? ` In the link: ${problems}` : ""}`, problems !== "");
      // When the module had started and the run was done, in ms from the navigation's start
      // (benchmarks/web_page_bench.py).
      document.body.dataset.ranAt = String(Math.round(performance.now()));
      const { file, options: shownOptions, scenario: shownScenario } = shown.branch;
      return { opened, ran: [file, shownScenario === undefined ? shownOptions : { ...shownOptions, scenario: shownScenario }] };
    } catch (e) {
      failures.set(first, e.message);
      $("w-report").classList.add("failed");
      $("w-report").textContent = e.stderr || e.message;
      status(`Run: ${e.message}`, true);
      return { opened };
    }
  }

  // --- Start.
  window.addEventListener("error", (e) => {
    document.body.dataset.errors = `${document.body.dataset.errors || ""}${e.message}\n`;
  });
  showOptions(JSON.parse($("ainb-options").textContent));
  const fromUrl = urlMode();
  showFiles();
  startWorker().then(async (checked) => {
    for (const { name, error } of checked) refusals.set(name, error);
    showFiles();
    if (!fromUrl && !$("w-status").classList.contains("error"))
      status("Ready: open an AI file and the modules it calls, or drop them here.");
    count("started");
    if (fromUrl?.ran && html()) {
      const [name, chosen] = fromUrl.ran;
      const { page } = await call("run", [name, { ...chosen, html: true }]);
      if (whatIf.shown()) whatIf.shown().page = page;
      await showPage(page);
      document.body.dataset.drawnAt = String(Math.round(performance.now()));
    }
  });
  // Live from an engine (page/live.js): #live=ws://127.0.0.1:PORT/ streams an actor's events.
  const liveUrl = new URLSearchParams(location.hash.slice(1)).get("live");
  if (liveUrl) AinbLive.connect(liveUrl, { $, debug, openFiles, status, call, showPage, count });
  document.body.dataset.ready = "1";
})();
