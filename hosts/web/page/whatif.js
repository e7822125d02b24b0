// The what-if panel (docs/debugger.md, "Interventions as scenario entries"): each intervention at the
// cursor's frame is an edit of the shown branch's scenario; the run with it is a branch of that one,
// compared with it line by line (the first event where the two traces differ). Part of the page's
// debugger script, after debug.js; page.js calls whatIfPanel() once. `run(where, parent, name,
// intervention)` runs the scenario in the editor as a branch; `setScenario(value)` fills the editor;
// `runFrames(scenario)` is the number of frames a run of `scenario` has.

// The scenario of a branch made by `intervention` on a branch whose scenario is `base` (a copy: the
// base is left as it was). Pure, so that a link's branches are made again the same way.
function intervened(base, intervention) {
  const scenario = structuredClone(base ?? {});
  const { kind, frame } = intervention;
  const fileOf = (i) => (i.file === undefined ? {} : { file: i.file });
  if (kind === "force") {
    const entry = { ...fileOf(intervention), node: intervention.node, result: intervention.result, frame };
    if (intervention.frames !== undefined) entry.frames = intervention.frames;
    scenario.force = [...(scenario.force ?? []), entry];
  } else if (kind === "set") {
    scenario.blackboard = [...(scenario.blackboard ?? []), { name: intervention.name, value: intervention.value, frame }];
  } else if (kind === "outputs") {
    // The scenario writes a node's outputs at each update of a frame it lists: every frame from the
    // cursor's (frame 0 has no updates) to the run's last, so that they hold "from now on".
    const entry = nodeEntry(scenario, intervention);
    entry.frames = entry.frames ?? [];
    for (let f = Math.max(1, frame); f <= intervention.last; ++f) entry.frames.push({ frame: f, outputs: { ...intervention.outputs } });
  } else if (kind === "result") {
    // A rule of the class (or of one node), read at each update of the whole run: the scenario's
    // result rules have no first frame.
    const rule = { if: intervention.if, then: intervention.then, else: intervention.else };
    if (intervention.node === undefined) {
      scenario.nodes = scenario.nodes ?? {};
      scenario.nodes[intervention.class] = { ...(scenario.nodes[intervention.class] ?? {}), result: rule };
    } else {
      nodeEntry(scenario, intervention).result = rule;
    }
  } else {
    throw new Error(`unknown intervention "${kind}"`);
  }
  return scenario;
}

// The scenario's `at` entry of one node, made if missing: from its class's `nodes` entry, as an
// `at` entry replaces the class's for its node (docs/simulation.md).
function nodeEntry(scenario, { file, node, class: cls }) {
  scenario.at = scenario.at ?? [];
  let entry = scenario.at.find((e) => e.node === node && e.file === file);
  if (!entry) {
    entry = { ...(file === undefined ? {} : { file }), node, class: cls, ...structuredClone(scenario.nodes?.[cls] ?? {}) };
    scenario.at.push(entry);
  }
  return entry;
}

// A node typed as `N` or `FILE#N` (`FILE` the file run: no file), or the node of the event at the
// cursor when nothing is typed: {node, file}. Throws what is wrong, for the control `what`.
function nodeAt(spec, at, top, what) {
  const text = spec.trim() || (at && at.e.node !== undefined ? `${at.e.file}#${at.e.node}` : "");
  const m = /^(?:(.+)#)?(\d+)$/.exec(text);
  if (!m) throw new Error(`${what}: "${text}" is not a node (N or FILE#N)`);
  return m[1] && m[1] !== top ? { file: m[1], node: Number(m[2]) } : { node: Number(m[2]) };
}

// nodeAt()'s user node with its class as the trace names it (a scenario's `at` entry needs it).
function userNodeAt(spec, at, top, trace, what) {
  const node = nodeAt(spec, at, top, what);
  const file = node.file ?? top;
  const event = trace
    .split("\n")
    .filter((line) => line.includes(`"node":${node.node},`))
    .map((line) => JSON.parse(line))
    .find((e) => e.file === file && e.node === node.node);
  if (!event || !event.name) throw new Error(`${what}: ${node.file ? `${node.file}#` : "#"}${node.node} is no user node of this run (its class is read from the trace)`);
  node.class = event.name;
  return node;
}

// A typed value: JSON where it reads as JSON (true, 3, 2.5, [1, 2, 3]), else text.
function typedValue(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function whatIfPanel({ $, debug, run, setScenario, showPage, runFrames }) {
  const branches = [];  // {id, name, file, top, options, scenario, trace, page, parent, difference, intervention}
  let shownBranch = null;
  let nextBranch = 1;
  function firstDifference(a, b) {
    const x = a.split("\n"), y = b.split("\n");
    let i = 0;
    while (i < x.length && i < y.length && x[i] === y[i]) ++i;
    if (i === x.length && i === y.length) return null;
    const line = i < y.length && y[i] ? y[i] : x[i];
    return { event: i, frame: JSON.parse(line).frame };
  }
  function add(branch) {
    const parent = branches.find((b) => b.id === branch.parent);
    branch.id = nextBranch++;
    branch.name ??= `run ${branch.id}`;
    branch.parent = parent ? parent.id : undefined;
    branch.difference = parent ? firstDifference(parent.trace, branch.trace) : null;
    branches.push(branch);
    shownBranch = branch;
    draw();
    return branch;
  }
  function draw() {
    const list = $("w-br-list");
    list.replaceChildren(...branches.map((b) => new Option(b.name, String(b.id))));
    list.value = shownBranch ? String(shownBranch.id) : "";
    $("w-br-name").value = shownBranch ? shownBranch.name : "";
    const parent = shownBranch && branches.find((b) => b.id === shownBranch.parent);
    const d = shownBranch && shownBranch.difference;
    $("w-br-diff").textContent = !parent ? "" : d ? `first difference from ${parent.name}: frame ${d.frame} event ${d.event}` : `the same trace as ${parent.name}`;
    $("w-br-discard").disabled = !shownBranch;
  }
  // Shows `branch` (null: none) with the cursor at `where` (default: the event the cursor is at).
  function show(branch, where = undefined) {
    shownBranch = branch;
    draw();
    if (!branch) return debug.show(null);
    setScenario(branch.scenario);
    $("ainb-trace").textContent = branch.trace;
    const at = debug.at();
    debug.show(branch.trace, branch.top, where ?? (at ? { event: at.event } : {}));
    return showPage(branch.page);
  }
  $("w-br-list").onchange = () => show(branches.find((b) => String(b.id) === $("w-br-list").value));
  $("w-br-name").onchange = () => {
    if (shownBranch) shownBranch.name = $("w-br-name").value.trim() || shownBranch.name;
    draw();
  };
  $("w-br-discard").onclick = () => {
    const gone = shownBranch;
    branches.splice(branches.indexOf(gone), 1);
    for (const b of branches) if (b.parent === gone.id) b.parent = gone.parent;
    show(branches.find((b) => b.id === gone.parent) ?? branches[branches.length - 1] ?? null);
  };

  // A branch of the one shown with an intervention at the cursor's frame; `make(at)` returns the
  // intervention and what it does (the branch's name), or throws what is wrong with the controls.
  async function whatIf(make) {
    const at = debug.at();
    $("w-w-error").textContent = "";
    if (!at || !shownBranch) return void ($("w-w-error").textContent = "run first: a what-if starts from the cursor in a run");
    let intervention, name;
    try {
      [intervention, name] = make(at);
    } catch (e) {
      return void ($("w-w-error").textContent = e.message);
    }
    intervention.frame = at.frame;
    setScenario(intervened(shownBranch.scenario, intervention));
    // A result rule holds for the whole run (intervened()), the others from the cursor's frame.
    await run({}, shownBranch.id, intervention.kind === "result" ? name : `${name} from frame ${at.frame}`, intervention);
  }
  const nodeName = (n) => `${n.file ? `${n.file}#` : "#"}${n.node}`;
  $("w-w-force").onclick = () =>
    whatIf((at) => {
      const { node, file } = nodeAt($("w-w-node").value, at, shownBranch.top, "force");
      const intervention = { kind: "force", ...(file === undefined ? {} : { file }), node, result: $("w-w-result").value };
      if ($("w-w-frames").value) intervention.frames = Number($("w-w-frames").value);
      return [intervention, `${nodeName(intervention)} ${intervention.result}`];
    });
  $("w-w-set").onclick = () =>
    whatIf(() => {
      const name = $("w-w-name").value.trim(), text = $("w-w-value").value.trim();
      if (!name) throw new Error("set: which blackboard entry?");
      return [{ kind: "set", name, value: typedValue(text) }, `${name} = ${text}`];
    });
  $("w-w-outputs").onclick = () =>
    whatIf((at) => {
      const node = userNodeAt($("w-w-out-node").value, at, shownBranch.top, shownBranch.trace, "outputs");
      const output = $("w-w-out-name").value.trim(), text = $("w-w-out-value").value.trim();
      if (!output) throw new Error("outputs: which output?");
      const last = runFrames(shownBranch.scenario);
      return [{ kind: "outputs", ...node, outputs: { [output]: typedValue(text) }, last }, `${nodeName(node)} ${output} = ${text}`];
    });
  $("w-w-rule").onclick = () =>
    whatIf((at) => {
      const spec = $("w-w-rule-of").value.trim();
      const entry = $("w-w-if").value.trim();
      if (!entry) throw new Error("result: if which blackboard entry?");
      // A class by its name, or a node (N, FILE#N, or the cursor's when nothing is typed).
      const target = /^[A-Za-z_]\w*$/.test(spec) ? { class: spec } : userNodeAt(spec, at, shownBranch.top, shownBranch.trace, "result");
      const intervention = { kind: "result", ...target, if: entry, then: $("w-w-then").value, else: $("w-w-else").value };
      const who = target.node === undefined ? target.class : nodeName(target);
      return [intervention, `${who}: if ${entry} then ${intervention.then} else ${intervention.else}`];
    });
  draw();
  return {
    add,
    show,
    all: () => branches,
    shown: () => shownBranch,
  };
}
