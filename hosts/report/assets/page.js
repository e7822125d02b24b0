// The page of a run, a regression or an exploration (docs/report.md). One or two sides (an actor's
// files, their graphs and, for a run, its timeline); a frame slider; the node list; the
// blackboard; the edits or the items never reached. State lives in the location's hash
// (#file=0&frame=12&side=0&node=5), so a link, a reload or a test opens the page where it was.
// The page's script is dom.js's helpers, tracks.js's reading of a run, then the page's parts in one
// function (page.cpp), in this order: this file (its errors, data, state, sides and marks),
// graph.js, nodes.js, blackboard.js, items.js, timeline.js, panel.js and frame.js. Each part uses
// the names of the parts before it; what it calls of the parts after it runs only once frame.js
// has started the page.

const errors = [];
const report = (message) => {
  errors.push(String(message));
  document.body.dataset.errors = errors.join("\n");
};
window.addEventListener("error", (e) => report(e.message));
window.addEventListener("unhandledrejection", (e) => report(e.reason));
// What the console would show as an error, the page's own included, is kept there too.
const consoleError = console.error.bind(console);
console.error = (...args) => {
  report(args.join(" "));
  consoleError(...args);
};

const data = JSON.parse(document.getElementById("data").textContent);
const kind = data.kind;
const sides = data.sides;
const main = sides[0];
const regress = data.regress || null;
const coverage = data.coverage || null;
const timed = sides.some((s) => s.timeline);
const frames = Math.max(0, ...sides.map((s) => (s.timeline ? s.timeline.frames : 0)));

const $ = (id) => document.getElementById(id);
// The selected file is side 0's; the selected node is of side `side`.
const state = { file: 0, frame: 0, side: 0, node: -1 };

// --- Sides, files and pairs ---------------------------------------------------------------------
// Side s's file shown beside side 0's file f: the top file, or the module of the same name.
const fileOn = (s, f) => (s === 0 || f === 0 ? f : sides[s].files.findIndex((x) => x.name === main.files[f].name));
const pairing = regress ? regress.pairing : {};
// The node paired with side s's `node` on the other side (-1: none), in file f of side 0.
const partner = (s, f, node) => {
  const p = pairing[main.files[f].name];
  if (!p) return -1;
  const other = s === 0 ? p.edited_of : p.original_of;
  return node < other.length ? other[node] : -1;
};
const fileData = (s, f) => sides[s].files[f];

// --- A node's events in a run -------------------------------------------------------------------
// A node's state in words and as classes; nothing on a page without time.
const stateWords = (at, track) => (timed ? describeAt(at, track) : "");
const stateClasses = (at, track) => (timed ? classesAt(at, track) : []);
const trackOf = (s, f, node) => {
  const T = sides[s].timeline;
  if (!T || f < 0) return null;
  const file = T.files[fileData(s, f).name];
  return file ? file.nodes[String(node)] || null : null;
};
// --- What a page knows besides time: edits, the first difference, coverage -----------------------
// Marks by side, file name and node: classes that do not change with the frame, and the lines
// the panel says about the node.
const marks = sides.map(() => ({}));
const mark = (s, fileName, node, cls, line) => {
  if (node < 0) return;
  const byFile = (marks[s][fileName] ||= {});
  const m = (byFile[node] ||= { classes: new Set(), lines: [] });
  if (cls) m.classes.add(cls);
  if (line) m.lines.push(line);
};
const marksOf = (s, f, node) => {
  if (f < 0) return null;
  const byFile = marks[s][fileData(s, f).name];
  return byFile ? byFile[node] || null : null;
};
// The edited side names its top file after itself; edits and pairs name it after the original.
const sideFileName = (s, name) => (s === 1 && name === main.files[0].name ? sides[1].files[0].name : name);

let difference = null;  // {frame, events: each side's differing event (null: it had none)}
if (regress) {
  for (const edit of regress.edits) {
    const what = edit.what;
    if (edit.original_node >= 0) mark(0, edit.file, edit.original_node, edit.edited_node < 0 ? "deleted" : "edited", `edit: ${what}`);
    if (edit.edited_node >= 0 && sides[1]) mark(1, sideFileName(1, edit.file), edit.edited_node, edit.original_node < 0 ? "new" : "edited", `edit: ${what}`);
  }
  const d = regress.difference;
  if (d) {
    const events = [d.original, d.edited];
    const frame = Math.min(...events.filter(Boolean).map((e) => e.frame));
    difference = { frame: Number.isFinite(frame) ? frame : 0, events };
    events.forEach((e, s) => {
      if (e && e.node !== undefined && sides[s]) mark(s, e.file, e.node, "first-difference", `first difference: ${e.event}${e.result ? ` \u2192 ${e.result}` : ""} in frame ${e.frame}`);
    });
  }
}
// Coverage: per file, the nodes, branches (node/plug), transitions and commands not reached by
// all runs, and those plain runs did not reach.
const unreached = (report) => {
  const byFile = {};
  for (const f of (report && report.files) || []) {
    byFile[f.file] = {
      nodes: new Map(f.nodes.unreached.map((n) => [n.node, n])),
      branches: new Map(f.branches.unreached.map((b) => [`${b.node}_${b.plug}`, b])),
      transitions: new Map(f.transitions.unreached.map((t) => [`${t.from}_${t.to}`, t])),
      commands: new Set(f.commands.unreached),
    };
  }
  return byFile;
};
const never = coverage ? unreached(coverage.all) : null;
const plainNever = coverage && coverage.plain ? unreached(coverage.plain) : null;
const coverageOf = (f, node) => {
  const name = main.files[f].name;
  const n = never[name] && never[name].nodes.get(node);
  if (n) return { cls: "uncovered", words: n.why ? `never reached: ${n.why}` : "never reached", item: n };
  const p = plainNever && plainNever[name] && plainNever[name].nodes.has(node);
  return p ? { cls: "found", words: "reached by explore's scenarios only" } : { cls: "covered", words: "reached by plain runs" };
};
if (coverage) {
  for (const found of coverage.found) {
    if (found.node !== undefined) mark(0, found.file, found.node, "", `${found.reaches}: first reached by run ${found.run} (scenario ${found.scenario})`);
  }
}
