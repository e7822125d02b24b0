// The what-if panel (docs/debugger.md, "Interventions as scenario entries"): each intervention at the
// cursor's frame is an edit of the shown branch's scenario; the run with it is a branch of that one,
// compared with it line by line (the first event where the two traces differ). Part of the page's
// debugger script, after debug.js; page.js calls whatIfPanel() once. `run(where, parent, name,
// intervention)` runs the scenario in the editor as a branch; `setScenario(value)` fills the editor.

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
    // A node's entry from the cursor's frame on, the one it ran by until then with the outputs added.
    const entry = nodeEntryFrom(scenario, intervention, frame);
    entry.outputs = { ...(entry.outputs ?? {}), ...intervention.outputs };
  } else if (kind === "result") {
    const rule = { if: intervention.if, then: intervention.then, else: intervention.else };
    if (intervention.node !== undefined) {
      nodeEntryFrom(scenario, intervention, frame).result = rule;
    } else if (classRuleForWholeRun(base, intervention)) {
      scenario.nodes[intervention.class].result = rule;
    } else {
      // Before the cursor's frame, the class's nodes run as the stubs they were.
      scenario.nodes = scenario.nodes ?? {};
      scenario.nodes[intervention.class] = { ...(frame > 0 ? { from: frame } : {}), result: rule };
    }
  } else {
    throw new Error(`unknown intervention "${kind}"`);
  }
  return scenario;
}

// A class's result rule on a class the scenario already scripts holds for that entry's whole span:
// the scenario has one entry per class (docs/simulation.md), so it cannot begin at the cursor.
function classRuleForWholeRun(base, intervention) {
  return intervention.kind === "result" && intervention.node === undefined && base?.nodes?.[intervention.class] !== undefined;
}

// A new `at` entry of one node from `frame` on (docs/simulation.md: of a node's entries, the one
// that began last applies): a copy of the entry the node ran by at that frame, its latest `at` entry
// begun by then or its class's, so that only what the intervention changes differs.
function nodeEntryFrom(scenario, { file, node, class: cls }, frame) {
  scenario.at = scenario.at ?? [];
  const began = (e) => (e.from ?? 0) <= frame;
  const own = scenario.at.filter((e) => e.node === node && e.file === file && began(e));
  const latest = own.reduce((best, e) => (best === undefined || (e.from ?? 0) >= (best.from ?? 0) ? e : best), undefined);
  if (latest !== undefined && (latest.from ?? 0) === frame) return latest;
  const classEntry = scenario.nodes?.[cls];
  const { from: _f, file: _file, node: _n, class: _c, ...behaviour } = structuredClone(latest ?? (classEntry && began(classEntry) ? classEntry : {}));
  const entry = { ...(file === undefined ? {} : { file }), node, class: cls, ...(frame > 0 ? { from: frame } : {}), ...behaviour };
  scenario.at.push(entry);
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

function whatIfPanel({ $, debug, run, setScenario, showPage, compare }) {
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
    $("w-br-beside").disabled = !parent;
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
  // The shown branch beside the run it branched from: regress's page of the two runs (the file
  // under each one's scenario), the first difference marked on both graphs and the timeline.
  $("w-br-beside").onclick = async () => {
    const parent = shownBranch && branches.find((b) => b.id === shownBranch.parent);
    if (parent) await compare(parent, shownBranch);
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
    const from = classRuleForWholeRun(shownBranch.scenario, intervention) ? "" : ` from frame ${at.frame}`;
    await run({}, shownBranch.id, name + from, intervention);
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
      return [{ kind: "outputs", ...node, outputs: { [output]: typedValue(text) } }, `${nodeName(node)} ${output} = ${text}`];
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
