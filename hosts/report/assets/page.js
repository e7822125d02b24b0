// The page of a run (docs/report.md): the graphs dot laid out, a frame slider, the timeline,
// the node list and the blackboard. State lives in the location's hash (#file=0&frame=12&node=5),
// so a link, a reload or a test opens the page where it was.
"use strict";

(() => {
  const errors = [];
  const report = (message) => {
    errors.push(String(message));
    document.body.dataset.errors = errors.join("\n");
  };
  window.addEventListener("error", (e) => report(e.message));
  window.addEventListener("unhandledrejection", (e) => report(e.reason));

  const data = JSON.parse(document.getElementById("data").textContent);
  const T = data.timeline;
  const frames = T.frames;
  const $ = (id) => document.getElementById(id);
  const element = (tag, attributes = {}, text = "") => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, v);
    if (text !== "") e.textContent = text;
    return e;
  };
  const svgElement = (tag, attributes = {}) => {
    const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, v);
    return e;
  };
  const RESULT = { S: "Success", F: "Failure", R: "Running" };

  const state = { file: 0, frame: 0, node: -1 };

  // A node's events in the run (null: never entered).
  const trackOf = (file, node) => {
    const f = T.files[data.files[file].name];
    return f ? f.nodes[String(node)] || null : null;
  };

  // A track's spans indexed for lookups by frame, made at its first use: the enter frames (in
  // order), the latest leave among the spans so far (a span still open counts as never leaving),
  // and the leave frames sorted.
  const indexOf = (track) => {
    if (track.index) return track.index;
    const enters = [], reach = [], leaves = [];
    let furthest = -Infinity;
    for (let i = 0; i < track.spans.length; i += 2) {
      const leave = track.spans[i + 1] < 0 ? Infinity : track.spans[i + 1];
      enters.push(track.spans[i]);
      furthest = Math.max(furthest, leave);
      reach.push(furthest);
      if (leave !== Infinity) leaves.push(leave);
    }
    leaves.sort((a, b) => a - b);
    track.index = { enters, reach, leaves };
    return track.index;
  };
  // The index of the last element of sorted array `a` at or below `f` (-1: none).
  const lastAtOrBelow = (a, f) => {
    let lo = 0, hi = a.length - 1, found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (a[mid] <= f) { found = mid; lo = mid + 1; } else { hi = mid - 1; }
    }
    return found;
  };

  // What a node did in frame f: active at its end, entered or left in it, its result if updated.
  const nodeAt = (track, f) => {
    const at = { active: false, entered: false, left: false, visited: false, result: "" };
    if (!track) return at;
    const { enters, reach, leaves } = indexOf(track);
    const k = lastAtOrBelow(enters, f);
    if (k >= 0) {
      at.visited = true;
      at.entered = enters[k] === f;
      at.active = reach[k] > f;
      const l = lastAtOrBelow(leaves, f);
      at.left = l >= 0 && leaves[l] === f;
    }
    // The last run of updates that starts at or before f (runs are in frame order).
    const u = track.updates;
    let lo = 0, hi = u.length - 1, found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (u[mid][0] <= f) { found = mid; lo = mid + 1; } else { hi = mid - 1; }
    }
    if (found >= 0 && f < u[found][0] + u[found][1]) at.result = u[found][2];
    return at;
  };

  const updatesOf = (track) => (track ? track.updates.reduce((n, run) => n + run[1], 0) : 0);

  // A blackboard entry's value at frame f: its last change at or before f, else the file's default.
  const defaults = data.files.map((file) => {
    const values = {};
    for (const entries of Object.values(file.blackboard || {})) {
      for (const entry of entries) values[entry.name] = JSON.stringify(entry.default);
    }
    return values;
  });
  // --- The graphs -----------------------------------------------------------------------------
  const layouts = Array.from(document.querySelectorAll("#graphs > .layout"));
  const layoutOf = (file) => layouts.find((l) => Number(l.dataset.file) === file) || null;
  const nodeElement = (file, node) => document.getElementById(`${data.files[file].ids}n${node}`);

  if (data.graphviz) {
    $("graph-message").textContent = data.graphviz;
    $("graph-message").hidden = false;
  }
  // Zoom: the SVG's size is its natural size (its viewBox, in points) times the zoom; "fit"
  // shows the whole graph in the pane.
  let zoom = 1;
  const naturalSize = (svg) => {
    const box = svg.viewBox.baseVal;
    return { width: box.width * (4 / 3), height: box.height * (4 / 3) };
  };
  const applyZoom = () => {
    const layout = layoutOf(state.file);
    const svg = layout && layout.querySelector("svg");
    if (!svg) return;
    const size = naturalSize(svg);
    svg.setAttribute("width", `${size.width * zoom}px`);
    svg.setAttribute("height", `${size.height * zoom}px`);
  };
  const fit = () => {
    const layout = layoutOf(state.file);
    const svg = layout && layout.querySelector("svg");
    if (!svg) return;
    const size = naturalSize(svg);
    const pane = $("graphs");
    zoom = Math.min(1, (pane.clientWidth - 8) / size.width, (pane.clientHeight - 40) / size.height);
    applyZoom();
  };
  const zoomBy = (factor) => {
    zoom = Math.min(4, Math.max(0.05, zoom * factor));
    applyZoom();
  };
  $("zoom-fit").addEventListener("click", fit);
  $("zoom-in").addEventListener("click", () => zoomBy(1.25));
  $("zoom-out").addEventListener("click", () => zoomBy(0.8));
  $("graphs").addEventListener("wheel", (e) => {
    if (!e.ctrlKey) return;
    e.preventDefault();
    zoomBy(e.deltaY < 0 ? 1.1 : 0.9);
  }, { passive: false });
  $("zoom").hidden = layouts.length === 0;

  $("graphs").addEventListener("click", (e) => {
    const g = e.target.closest("g.node");
    if (!g || !g.id) return;
    const match = /n(\d+)$/.exec(g.id);
    if (match) select(Number(match[1]));
  });
  $("graphs").addEventListener("dblclick", (e) => {
    const g = e.target.closest("g.node");
    const match = g && /n(\d+)$/.exec(g.id);
    const calls = match ? data.files[state.file].nodes[Number(match[1])].calls : undefined;
    if (calls !== undefined) go({ file: calls, node: -1 });
  });

  // --- Files ------------------------------------------------------------------------------------
  data.files.forEach((file, index) => {
    const b = element("button", { "data-file": index }, file.name);
    if (T.files[file.name]) b.classList.add("ran");
    b.addEventListener("click", () => go({ file: index, node: -1 }));
    $("files").append(b);
  });

  // --- The summary line -------------------------------------------------------------------------
  const s = data.summary || {};
  const parts = [];
  if (s.command) parts.push(`command ${s.command}`);
  parts.push(`${frames} frames`);
  if (s.state) parts.push(s.ended_frame ? `${s.state} in frame ${s.ended_frame}` : s.state);
  if (s.fault) parts.push(`fault: ${s.fault}`);
  if (s.alerts) parts.push(`${s.alerts} alert(s)`);
  if (s.warnings) parts.push(`${s.warnings} warning(s)`);
  $("summary").textContent = parts.join(" \u00b7 ");

  // --- Node list --------------------------------------------------------------------------------
  let rows = [];
  const buildNodeList = () => {
    const body = $("nodes").tBodies[0];
    body.replaceChildren();
    rows = data.files[state.file].nodes.map((node, index) => {
      const track = trackOf(state.file, index);
      const tr = element("tr", { "data-node": index });
      tr.append(element("td", {}, String(index)), element("td", {}, node.label),
                element("td"), element("td", {}, String(updatesOf(track))));
      if (!track) tr.classList.add("never");
      tr.addEventListener("click", () => select(index));
      body.append(tr);
      return tr;
    });
    $("list-file").textContent = data.files[state.file].name;
  };

  // --- Blackboard -------------------------------------------------------------------------------
  // Every file's entries that the run wrote, with a small plot of numeric values over the run.
  const blackboardRows = [];
  const buildBlackboard = () => {
    const body = $("blackboard").tBodies[0];
    data.files.forEach((file, index) => {
      const written = (T.files[file.name] || {}).blackboard || {};
      for (const [name, changes] of Object.entries(written)) {
        const fallback = defaults[index][name] ?? "";
        const tr = element("tr");
        const label = index > 0 ? `${name} (${file.name})` : name;
        tr.append(element("td", {}, label), element("td"), element("td"));
        tr.cells[2].append(plot(changes, fallback));
        body.append(tr);
        blackboardRows.push({ tr, changes, fallback, frames: changes.map(([frame]) => frame) });
      }
    });
  };
  const numeric = (v) => (v === "true" ? 1 : v === "false" ? 0 : /^-?[\d.]/.test(v) ? Number(v) : NaN);
  const plot = (changes, fallback) => {
    const svg = svgElement("svg", { viewBox: `0 0 ${Math.max(frames, 1)} 10`, preserveAspectRatio: "none" });
    const points = [];
    let last = numeric(fallback);
    const values = changes.map(([, v]) => numeric(v)).concat([last]).filter((v) => !Number.isNaN(v));
    const lo = Math.min(...values), hi = Math.max(...values);
    const y = (v) => (hi === lo ? 5 : 9 - ((v - lo) / (hi - lo)) * 8);
    if (!Number.isNaN(last)) points.push(`0,${y(last)}`);
    for (const [frame, v] of changes) {
      const n = numeric(v);
      if (Number.isNaN(n)) {
        svg.append(svgElement("line", { x1: frame, x2: frame, y1: 0, y2: 10, class: "change" }));
        continue;
      }
      if (!Number.isNaN(last)) points.push(`${frame},${y(last)}`);
      points.push(`${frame},${y(n)}`);
      last = n;
    }
    if (!Number.isNaN(last)) points.push(`${frames},${y(last)}`);
    if (points.length > 0) {
      svg.append(svgElement("polyline", { points: points.join(" "), "vector-effect": "non-scaling-stroke" }));
    }
    return svg;
  };

  // --- Timeline ---------------------------------------------------------------------------------
  const timeline = $("timeline");
  const drawTimeline = () => {
    const width = timeline.clientWidth || 800;
    const x = (f) => 4 + (f / Math.max(frames, 1)) * (width - 8);
    timeline.setAttribute("viewBox", `0 0 ${width} 64`);
    timeline.replaceChildren();
    const most = Math.max(1, ...T.activity);
    T.activity.forEach((n, f) => {
      if (n === 0) return;
      const h = (n / most) * 18;
      timeline.append(svgElement("rect", { x: x(f) - 0.5, y: 20 - h, width: Math.max(1, x(1) - x(0)), height: h, class: "activity" }));
    });
    for (const [f, name] of T.commands) {
      const l = svgElement("line", { x1: x(f), x2: x(f), y1: 0, y2: 22, class: "command" });
      l.append(svgElement("title"));
      l.firstChild.textContent = `frame ${f}: command ${name}`;
      timeline.append(l);
    }
    for (const file of Object.values(T.files)) {
      for (const changes of Object.values(file.blackboard)) {
        for (const [f] of changes) timeline.append(svgElement("line", { x1: x(f), x2: x(f), y1: 24, y2: 32, class: "change" }));
      }
      for (const [f] of file.alerts) timeline.append(svgElement("line", { x1: x(f), x2: x(f), y1: 24, y2: 32, class: "alert" }));
    }
    const track = state.node >= 0 ? trackOf(state.file, state.node) : null;
    if (track) {
      for (let i = 0; i < track.spans.length; i += 2) {
        const end = track.spans[i + 1] < 0 ? frames : track.spans[i + 1];
        timeline.append(svgElement("rect", { x: x(track.spans[i]), y: 36, width: Math.max(1, x(end) - x(track.spans[i])), height: 8, class: "span" }));
      }
      for (const [first, count, result] of track.updates) {
        timeline.append(svgElement("rect", { x: x(first), y: 46, width: Math.max(1, x(first + count) - x(first)), height: 6, class: result }));
      }
    }
    const text = svgElement("text", { x: 4, y: 62 });
    text.textContent = track ? `#${state.node}: active spans and results` : "updates per frame; commands (blue), blackboard changes, alerts";
    timeline.append(text);
    cursor = svgElement("line", { y1: 0, y2: 64, class: "cursor" });
    timeline.append(cursor);
    placeCursor = () => { cursor.setAttribute("x1", x(state.frame)); cursor.setAttribute("x2", x(state.frame)); };
    placeCursor();
  };
  let cursor = null;
  let placeCursor = () => {};
  const frameAt = (event) => {
    const r = timeline.getBoundingClientRect();
    const f = Math.round(((event.clientX - r.left - 4) / Math.max(1, r.width - 8)) * frames);
    return Math.min(frames, Math.max(0, f));
  };
  let dragging = false;
  timeline.addEventListener("pointerdown", (e) => { dragging = true; go({ frame: frameAt(e) }); });
  timeline.addEventListener("pointermove", (e) => { if (dragging) go({ frame: frameAt(e) }); });
  window.addEventListener("pointerup", () => { dragging = false; });
  window.addEventListener("resize", () => drawTimeline());

  // --- The panel of the selected node -----------------------------------------------------------
  const table = (rowsOf) => {
    const t = element("table");
    for (const [k, v] of rowsOf) {
      const tr = element("tr");
      tr.append(element("td", {}, k), element("td", {}, v));
      t.append(tr);
    }
    return t;
  };
  const describeParameter = (p) => {
    if ("value" in p) return JSON.stringify(p.value);
    if ("source" in p) return `from ${JSON.stringify(p.source)}`;
    if ("default" in p) return `${JSON.stringify(p.default)} (default)`;
    return "";
  };
  const parameterRows = (groups) => {
    const out = [];
    for (const [type, list] of Object.entries(groups || {})) {
      for (const p of list) out.push([`${p.name} (${type})`, describeParameter(p)]);
    }
    return out;
  };
  let panelShows = "";
  const drawPanel = () => {
    const shows = state.node < 0 ? "" : `${state.file}:${state.node}:${state.frame}`;
    if (shows === panelShows && $("panel").firstChild) return;
    panelShows = shows;
    const panel = $("panel");
    panel.replaceChildren();
    if (state.node < 0) {
      panel.append(element("p", { class: "hint" }, "Click a node for its properties, inputs and events."));
      return;
    }
    const node = data.files[state.file].nodes[state.node];
    const track = trackOf(state.file, state.node);
    const at = nodeAt(track, state.frame);
    panel.append(element("h3", {}, node.label));
    const facts = [["GUID", node.guid || ""]];
    facts.push([`frame ${state.frame}`, describeAt(at)]);
    if (node.calls !== undefined) facts.push(["calls", data.files[node.calls].name]);
    panel.append(table(facts));
    if (node.calls !== undefined) {
      const b = element("button", {}, `open ${data.files[node.calls].name}`);
      b.addEventListener("click", () => go({ file: node.calls, node: -1 }));
      panel.append(b);
    }
    for (const [title, groups] of [["Properties", node.properties], ["Inputs", node.inputs], ["Outputs", node.outputs]]) {
      const r = parameterRows(groups);
      if (r.length === 0) continue;
      panel.append(element("h3", {}, title), table(r));
    }
    panel.append(element("h3", {}, "Events over the run"));
    if (!track) {
      panel.append(element("p", { class: "hint" }, "Never entered in this run."));
      return;
    }
    const events = [];
    // A node entered and left in each of many frames (a tree that runs every frame) is one row.
    const spans = track.spans;
    for (let i = 0; i < spans.length; i += 2) {
      const enter = spans[i], leave = spans[i + 1];
      if (leave === enter) {
        let j = i;
        while (j + 2 < spans.length && spans[j + 2] === spans[j] + 1 && spans[j + 3] === spans[j + 2]) j += 2;
        events.push(j === i ? [`frame ${enter}`, "entered and left"] : [`frames ${enter}\u2013${spans[j]}`, "entered and left in each"]);
        i = j;
        continue;
      }
      events.push([`frames ${enter}\u2013${leave < 0 ? "end" : leave}`, leave < 0 ? "active to the end" : "active"]);
    }
    for (const [first, count, result] of track.updates) {
      events.push([count === 1 ? `frame ${first}` : `frames ${first}\u2013${first + count - 1}`, RESULT[result] || result]);
    }
    for (const [f, what] of track.xlinks || []) events.push([`frame ${f}`, `XLink ${what}`]);
    const shown = 200;
    panel.append(table(events.slice(0, shown)));
    if (events.length > shown) panel.append(element("p", { class: "hint" }, `\u2026 and ${events.length - shown} more`));
    const last = lastResult(track, state.frame);
    if (last) panel.append(element("p", {}, `Last result by frame ${state.frame}: ${RESULT[last[1]]} (frame ${last[0]})`));
  };
  const describeAt = (at) => {
    const words = [];
    if (at.entered) words.push("entered");
    if (at.result) words.push(`updated: ${RESULT[at.result]}`);
    if (at.left) words.push("left");
    if (at.active) words.push("active");
    return words.length ? words.join(", ") : at.visited ? "inactive" : "not entered yet";
  };
  const lastResult = (track, f) => {
    let last = null;
    for (const [first, count, result] of track.updates) {
      if (first > f) break;
      last = [Math.min(f, first + count - 1), result];
    }
    return last;
  };

  // --- State and drawing ------------------------------------------------------------------------
  // Each element's state classes as last set: an element whose state did not change is not
  // touched, so a step restyles only the nodes that changed.
  const drawn = new Map();
  const setState = (e, base, classes) => {
    const value = base + classes;
    if (drawn.get(e) === value) return;
    drawn.set(e, value);
    e.setAttribute("class", value);
  };
  const drawFrame = () => {
    const f = state.frame;
    $("slider").value = String(f);
    $("frame-label").textContent = `frame ${f} of ${frames}`;
    const nodes = data.files[state.file].nodes;
    for (let i = 0; i < nodes.length; ++i) {
      const track = trackOf(state.file, i);
      const at = nodeAt(track, f);
      const classes = [];
      if (!track) classes.push("never");
      else if (at.visited) classes.push("visited");
      if (at.active) classes.push("active");
      if (at.entered) classes.push("entered");
      if (at.left) classes.push("left");
      if (at.result) classes.push(`r-${at.result}`);
      const g = nodeElement(state.file, i);
      const selected = i === state.node ? " selected" : "";
      const list = classes.join(" ") + selected;
      if (g) setState(g, "node ", list);
      const tr = rows[i];
      setState(tr, "", list);
      const words = describeAt(at);
      if (tr.dataset.state !== words) {
        tr.dataset.state = words;
        tr.cells[2].textContent = words;
        tr.cells[2].className = at.result ? `r-${at.result}` : "";
      }
    }
    for (const row of blackboardRows) {
      const k = lastAtOrBelow(row.frames, f);
      const value = k < 0 ? row.fallback : row.changes[k][1];
      if (row.tr.cells[1].textContent !== value) row.tr.cells[1].textContent = value;
      setState(row.tr, "", k >= 0 && row.frames[k] === f ? "changed" : "");
    }
    placeCursor();
    drawPanel();
  };

  const showFile = () => {
    layouts.forEach((l) => { l.hidden = Number(l.dataset.file) !== state.file; });
    fit();
    document.querySelectorAll("#files button").forEach((b) => b.classList.toggle("current", Number(b.dataset.file) === state.file));
    buildNodeList();
  };

  const writeHash = () => {
    const hash = `#file=${state.file}&frame=${state.frame}` + (state.node >= 0 ? `&node=${state.node}` : "");
    if (location.hash !== hash) history.replaceState(null, "", hash);
  };

  // Moves to a new state: a file, a frame, a node (the others stay).
  const go = (change) => {
    const fileChanged = change.file !== undefined && change.file !== state.file;
    const nodeChanged = change.node !== undefined && change.node !== state.node;
    Object.assign(state, change);
    state.frame = Math.min(frames, Math.max(0, state.frame));
    if (fileChanged) showFile();
    drawFrame();
    if (fileChanged || nodeChanged) {
      const g = state.node >= 0 ? nodeElement(state.file, state.node) : null;
      if (g) g.scrollIntoView({ block: "nearest", inline: "nearest" });
      drawTimeline();
    }
    writeHash();
  };
  const select = (node) => go({ node });

  // --- Controls ---------------------------------------------------------------------------------
  const slider = $("slider");
  slider.max = String(frames);
  slider.addEventListener("input", () => go({ frame: Number(slider.value) }));
  $("first").addEventListener("click", () => go({ frame: 0 }));
  $("last").addEventListener("click", () => go({ frame: frames }));
  $("back").addEventListener("click", () => go({ frame: state.frame - 1 }));
  $("next").addEventListener("click", () => go({ frame: state.frame + 1 }));
  let timer = null;
  const play = () => {
    if (timer !== null) {
      clearInterval(timer);
      timer = null;
      $("play").textContent = "\u25B6";
      return;
    }
    if (state.frame >= frames) go({ frame: 0 });
    $("play").textContent = "\u275A\u275A";
    timer = setInterval(() => {
      if (state.frame >= frames) play();
      else go({ frame: state.frame + 1 });
    }, 50);
  };
  $("play").addEventListener("click", play);
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type !== "range") return;
    const step = e.shiftKey ? 10 : 1;
    if (e.key === "ArrowRight") go({ frame: state.frame + step });
    else if (e.key === "ArrowLeft") go({ frame: state.frame - step });
    else if (e.key === "Home") go({ frame: 0 });
    else if (e.key === "End") go({ frame: frames });
    else if (e.key === " ") play();
    else if (e.key === "+" || e.key === "=") zoomBy(1.25);
    else if (e.key === "-") zoomBy(0.8);
    else if (e.key === "0") fit();
    else return;
    e.preventDefault();
  });

  // --- Start ------------------------------------------------------------------------------------
  const fromHash = () => {
    const p = new URLSearchParams(location.hash.slice(1));
    const number = (key, fallback) => (p.has(key) && /^\d+$/.test(p.get(key)) ? Number(p.get(key)) : fallback);
    const file = Math.min(number("file", 0), data.files.length - 1);
    const node = number("node", -1);
    return { file, frame: number("frame", 0), node: node < data.files[file].nodes.length ? node : -1 };
  };
  buildBlackboard();
  state.file = -1;  // so that go() draws the file the hash names
  go(fromHash());
  window.addEventListener("hashchange", () => go(fromHash()));
  document.body.dataset.ready = String(Math.round(performance.now()));
})();
