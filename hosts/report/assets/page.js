// The page of a run, a regression or an exploration (docs/report.md). One or two sides (an actor's
// files, their graphs and, for a run, its timeline); a frame slider; the node list; the
// blackboard; the edits or the items never reached. State lives in the location's hash
// (#file=0&frame=12&side=0&node=5), so a link, a reload or a test opens the page where it was.
// It uses dom.js's helpers and tracks.js's reading of a run, which come before it in the page.
(() => {
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

  // --- The graphs ---------------------------------------------------------------------------------
  const sideElement = (s) => document.querySelector(`#sides > .side[data-side="${sides[s].prefix}"]`);
  const layoutOf = (s, f) => {
    const e = sideElement(s);
    return e && f >= 0 ? e.querySelector(`:scope > .layout[data-file="${f}"]`) : null;
  };
  const graphElement = (s, f, what) => (f < 0 ? null : document.getElementById(`${fileData(s, f).ids}${what}`));
  const anyLayout = document.querySelector("#sides .layout") !== null;
  if (data.graphviz) {
    $("graph-message").textContent = data.graphviz;
    $("graph-message").hidden = false;
  }
  $("zoom").hidden = !anyLayout;
  if (sides.length === 1) sideElement(0).querySelector(".side-label").hidden = true;

  // Zoom: each SVG's size is its natural size (its viewBox, in points) times the zoom; "fit" shows
  // the whole graph of each side in its pane.
  let zoom = 1;
  const svgs = () => sides.map((_, s) => layoutOf(s, fileOn(s, state.file))).filter(Boolean).map((l) => l.querySelector("svg")).filter(Boolean);
  const naturalSize = (svg) => ({ width: svg.viewBox.baseVal.width * (4 / 3), height: svg.viewBox.baseVal.height * (4 / 3) });
  const applyZoom = () => {
    for (const svg of svgs()) {
      const size = naturalSize(svg);
      svg.setAttribute("width", `${size.width * zoom}px`);
      svg.setAttribute("height", `${size.height * zoom}px`);
    }
  };
  const fit = () => {
    const pane = $("sides");
    const width = pane.clientWidth / sides.length - 8, height = pane.clientHeight - 28;
    zoom = Math.min(1, ...svgs().map((svg) => Math.min(width / naturalSize(svg).width, height / naturalSize(svg).height)));
    applyZoom();
  };
  // A file's first view: the whole graph when its labels stay readable, else a readable part of
  // it around the selected node, or the first command ("fit" shows the whole).
  const readable = 0.55;
  const firstView = () => {
    fit();
    if (zoom >= readable || svgs().length === 0) return;
    zoom = readable;
    applyZoom();
    const target = selectedOn(0) >= 0 ? graphElement(0, fileOn(0, state.file), `n${selectedOn(0)}`) : graphElement(0, state.file, "c0");
    if (target) target.scrollIntoView({ block: "center", inline: "center" });
  };
  const zoomBy = (factor) => {
    zoom = Math.min(4, Math.max(0.05, zoom * factor));
    applyZoom();
  };
  $("zoom-fit").addEventListener("click", fit);
  $("zoom-in").addEventListener("click", () => zoomBy(1.25));
  $("zoom-out").addEventListener("click", () => zoomBy(0.8));
  $("sides").addEventListener("wheel", (e) => {
    if (!e.ctrlKey) return;
    e.preventDefault();
    zoomBy(e.deltaY < 0 ? 1.1 : 0.9);
  }, { passive: false });

  // A click on a node selects it; a double click on a module node opens the module's graph.
  const clickedNode = (e) => {
    const g = e.target.closest("g.node");
    const sideDiv = e.target.closest(".side");
    if (!g || !sideDiv) return null;
    const s = sides.findIndex((x) => x.prefix === sideDiv.dataset.side);
    const match = /n(\d+)$/.exec(g.id);
    return s >= 0 && match ? { side: s, node: Number(match[1]) } : null;
  };
  $("sides").addEventListener("click", (e) => {
    const hit = clickedNode(e);
    if (hit) go({ side: hit.side, node: hit.node });
  });
  $("sides").addEventListener("dblclick", (e) => {
    const hit = clickedNode(e);
    if (!hit || hit.side !== 0) return;
    const calls = main.files[state.file].nodes[hit.node].calls;
    if (calls !== undefined) go({ file: calls, side: 0, node: -1 });
  });

  // --- Files --------------------------------------------------------------------------------------
  main.files.forEach((file, index) => {
    const b = element("button", { "data-file": index }, file.name);
    if (timed && main.timeline.files[file.name]) b.classList.add("ran");
    b.addEventListener("click", () => go({ file: index, side: 0, node: -1 }));
    $("files").append(b);
  });

  // --- The summary line ---------------------------------------------------------------------------
  const summaryLine = () => {
    const parts = [];
    if (kind === "regress") {
      parts.push(regress.scenario ? `scenario ${regress.scenario}` : "");
      const d = regress.difference;
      parts.push(d ? `first difference at event ${d.index}${difference ? ` (frame ${difference.frame})` : ""}: ${d.explanation}` : `no difference in ${regress.scenarios} scenario(s), ${regress.events} events`);
      parts.push(`${regress.edits.length} edit(s)`);
    } else if (kind === "coverage") {
      const t = coverage.all.totals;
      parts.push(`${coverage.runs} runs`);
      for (const k of ["nodes", "branches", "transitions", "commands"]) {
        if (t[k]) parts.push(`${k} ${t[k].reached} of ${t[k].reachable} reachable (${t[k].total} in all)`);
      }
    } else {
      const s = main.summary || {};
      if (s.command) parts.push(`command ${s.command}`);
      parts.push(`${frames} frames`);
      if (s.state) parts.push(s.ended_frame ? `${s.state} in frame ${s.ended_frame}` : s.state);
      if (s.fault) parts.push(`fault: ${s.fault}`);
      if (s.alerts) parts.push(`${s.alerts} alert(s)`);
      if (s.warnings) parts.push(`${s.warnings} warning(s)`);
    }
    return parts.filter(Boolean).join(" \u00b7 ");
  };
  $("summary").textContent = summaryLine();
  const legends = {
    run: [["active", "active"], ["r-S", "Success"], ["r-F", "Failure"], ["r-R", "Running"], ["never", "never entered"]],
    regress: [["active", "active"], ["first-difference", "first difference"], ["edited", "edited"], ["new", "new"], ["deleted", "deleted"]],
    coverage: [["covered", "reached by plain runs"], ["found", "reached by explore's scenarios"], ["uncovered", "never reached"]],
  };
  for (const [cls, words] of legends[kind]) $("legend").append(element("span", { class: `key ${cls}` }, words));

  // --- Node list ----------------------------------------------------------------------------------
  let rows = [];
  const buildNodeList = () => {
    const head = $("nodes").tHead;
    head.replaceChildren();
    const columns = ["#", "node"];
    if (timed) columns.push(sides.length > 1 ? sides[0].label.split(":")[0] : "at this frame");
    if (sides.length > 1) columns.push(sides[1].label.split(":")[0]);
    if (timed) columns.push("updates");
    if (coverage) columns.push("coverage");
    const tr = element("tr");
    for (const c of columns) tr.append(element("th", {}, c));
    head.append(tr);
    const body = $("nodes").tBodies[0];
    body.replaceChildren();
    rows = main.files[state.file].nodes.map((node, index) => {
      const row = element("tr", { "data-node": index });
      row.append(element("td", {}, String(index)), element("td", {}, node.label));
      if (timed) row.append(element("td"));
      if (sides.length > 1) row.append(element("td"));
      if (timed) row.append(element("td", {}, String(updatesOf(trackOf(0, state.file, index)))));
      if (coverage) row.append(element("td", {}, coverageOf(state.file, index).words));
      row.addEventListener("click", () => go({ side: 0, node: index }));
      body.append(row);
      return row;
    });
    $("list-file").textContent = main.files[state.file].name;
  };

  // --- Blackboard ---------------------------------------------------------------------------------
  // The entries the runs wrote, each side's value in a column, with a plot of numeric values.
  const defaultsOf = (file) => {
    const values = {};
    for (const entries of Object.values(file.blackboard || {})) {
      for (const entry of entries) values[entry.name] = JSON.stringify(entry.default);
    }
    return values;
  };
  const blackboardRows = [];
  const buildBlackboard = () => {
    if (!timed) {
      $("blackboard-list").hidden = true;
      return;
    }
    const head = element("tr");
    head.append(element("th", {}, "entry"));
    for (const side of sides) head.append(element("th", {}, sides.length > 1 ? side.label.split(":")[0] : "value"));
    head.append(element("th", {}, "over the run"));
    $("blackboard").tHead.append(head);
    const body = $("blackboard").tBodies[0];
    main.files.forEach((file, f) => {
      const names = new Set();
      sides.forEach((side, s) => {
        const sf = fileOn(s, f);
        const written = sf >= 0 ? (side.timeline.files[side.files[sf].name] || {}).blackboard || {} : {};
        Object.keys(written).forEach((n) => names.add(n));
      });
      for (const name of [...names].sort()) {
        const tr = element("tr");
        tr.append(element("td", {}, f > 0 ? `${name} (${file.name})` : name));
        const values = sides.map((side, s) => {
          const sf = fileOn(s, f);
          const changes = sf >= 0 ? ((side.timeline.files[side.files[sf].name] || {}).blackboard || {})[name] || [] : [];
          const fallback = sf >= 0 ? defaultsOf(side.files[sf])[name] ?? "" : "";
          tr.append(element("td"));
          return { changes, fallback, frames: changes.map(([frame]) => frame) };
        });
        const cell = element("td");
        cell.append(plot(values[0].changes, values[0].fallback, frames));
        tr.append(cell);
        body.append(tr);
        blackboardRows.push({ tr, values });
      }
    });
  };

  // --- Edits, or the items never reached ----------------------------------------------------------
  const buildItems = () => {
    const items = [];
    if (regress) {
      $("items-title").textContent = regress.edits.length ? `Edits (${regress.edits.length})` : "Edits: none";
      for (const edit of regress.edits) {
        const f = main.files.findIndex((x) => x.name === edit.file);
        const where = edit.original_node >= 0 ? `#${edit.original_node}` : `new #${edit.edited_node}`;
        const side = edit.original_node >= 0 ? 0 : 1;
        const node = side === 0 ? edit.original_node : edit.edited_node;
        items.push([`${edit.file} ${edit.original_node < 0 && edit.edited_node < 0 ? "(the file)" : where}`, edit.what, f, side, node]);
      }
      for (const note of regress.notes) items.push(["note", note, -1, 0, -1]);
    } else if (coverage) {
      for (const file of coverage.all.files) {
        const f = main.files.findIndex((x) => x.name === file.file);
        for (const n of file.nodes.unreached) items.push([`${file.file} #${n.node} ${n.type}`, n.why || "never reached", f, 0, n.node]);
        for (const b of file.branches.unreached) items.push([`${file.file} #${b.node} ${b.type} plug ${b.plug}${b.name ? ` "${b.name}"` : ""}`, b.why || "never taken", f, 0, b.node]);
        for (const t of file.transitions.unreached) items.push([`${file.file} transition #${t.from} \u2192 #${t.to}`, t.why || "never taken", f, 0, t.from]);
        for (const c of file.commands.unreached) items.push([`${file.file} command ${c}`, "never run", f, 0, -1]);
      }
      $("items-title").textContent = `Never reached (${items.length})`;
    } else {
      return;
    }
    $("items-list").hidden = false;
    const body = $("items").tBodies[0];
    for (const [what, why, f, side, node] of items) {
      const tr = element("tr");
      tr.append(element("td", {}, what), element("td", {}, why));
      if (f >= 0 && node >= 0) tr.addEventListener("click", () => go({ file: f, side, node }));
      body.append(tr);
    }
  };

  // Coverage on the graph's edges and commands: branches, transitions and commands not reached.
  const markEdges = () => {
    if (!coverage) return;
    main.files.forEach((file, f) => {
      const all = never[file.name], plain = plainNever && plainNever[file.name];
      file.nodes.forEach((node, n) => {
        const children = (node.plugs && node.plugs.child) || [];
        children.forEach((_, k) => {
          const e = graphElement(0, f, `b${n}_${k}`);
          if (!e) return;
          const key = `${n}_${k}`;
          e.classList.add(all && all.branches.has(key) ? "uncovered" : plain && plain.branches.has(key) ? "found" : "covered");
        });
        const transitions = (node.plugs && node.plugs.transition) || [];
        transitions.forEach((t, k) => {
          const e = graphElement(0, f, `t${n}_${k}`);
          if (!e) return;
          const key = `${n}_${t.node}`;
          e.classList.add(all && all.transitions.has(key) ? "uncovered" : plain && plain.transitions.has(key) ? "found" : "covered");
        });
      });
      file.commands.forEach((name, c) => {
        const e = graphElement(0, f, `c${c}`);
        if (e) e.classList.add(all && all.commands.has(name) ? "uncovered" : plain && plain.commands.has(name) ? "found" : "covered");
      });
    });
  };

  // --- Timeline -----------------------------------------------------------------------------------
  const timeline = $("timeline");
  let placeCursor = () => {};
  const drawTimeline = () => {
    if (!timed) return;
    const rowsPerSide = 24;
    const height = 14 + rowsPerSide * sides.length + 12;
    const width = timeline.clientWidth || 800;
    const x = (f) => 4 + (f / Math.max(frames, 1)) * (width - 8);
    timeline.setAttribute("viewBox", `0 0 ${width} ${height}`);
    timeline.style.height = `${height}px`;
    timeline.replaceChildren();
    sides.forEach((side, s) => {
      const top = s * rowsPerSide;
      const T = side.timeline;
      const most = Math.max(1, ...T.activity);
      T.activity.forEach((n, f) => {
        if (n === 0) return;
        const h = (n / most) * 10;
        timeline.append(svgElement("rect", { x: x(f) - 0.5, y: top + 11 - h, width: Math.max(1, x(1) - x(0)), height: h, class: "activity" }));
      });
      for (const [f, name] of T.commands) timeline.append(svgElement("line", { x1: x(f), x2: x(f), y1: top, y2: top + 12, class: "command" }, `frame ${f}: command ${name}`));
      for (const [name, file] of Object.entries(T.files)) {
        for (const [entry, changes] of Object.entries(file.blackboard)) {
          for (const [f, v] of changes) timeline.append(svgElement("line", { x1: x(f), x2: x(f), y1: top + 13, y2: top + 17, class: "change" }, `frame ${f}: ${entry} = ${v} (${name})`));
        }
        for (const [f, node, message] of file.alerts) timeline.append(svgElement("line", { x1: x(f), x2: x(f), y1: top + 13, y2: top + 17, class: "alert" }, `frame ${f}: alert of #${node}: ${message}`));
      }
      const node = selectedOn(s);
      const track = node >= 0 ? trackOf(s, fileOn(s, state.file), node) : null;
      if (track) {
        for (let i = 0; i < track.spans.length; i += 2) {
          const end = track.spans[i + 1] < 0 ? frames : track.spans[i + 1];
          timeline.append(svgElement("rect", { x: x(track.spans[i]), y: top + 18, width: Math.max(1, x(end) - x(track.spans[i])), height: 2, class: "span" }));
        }
        for (const [first, count, result] of track.updates) timeline.append(svgElement("rect", { x: x(first), y: top + 20, width: Math.max(1, x(first + count) - x(first)), height: 3, class: result }));
      }
    });
    if (difference) timeline.append(svgElement("line", { x1: x(difference.frame), x2: x(difference.frame), y1: 0, y2: height - 12, class: "first-difference" }, `frame ${difference.frame}: the first difference`));
    const text = svgElement("text", { x: 4, y: height - 2 });
    text.textContent = `${sides.length > 1 ? "each side: " : ""}updates per frame, commands (blue), blackboard changes, alerts${state.node >= 0 ? `; #${state.node}: spans and results` : ""}${difference ? "; the first difference (red)" : ""}`;
    timeline.append(text);
    const cursor = svgElement("line", { y1: 0, y2: height, class: "cursor" });
    timeline.append(cursor);
    placeCursor = () => {
      cursor.setAttribute("x1", x(state.frame));
      cursor.setAttribute("x2", x(state.frame));
    };
    placeCursor();
  };
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

  // --- The panel of the selected node -------------------------------------------------------------
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
  let panelShows = null;
  const drawPanel = () => {
    const shows = state.node < 0 ? "" : `${state.file}:${state.side}:${state.node}:${timed ? state.frame : 0}`;
    if (shows === panelShows) return;
    panelShows = shows;
    const panel = $("panel");
    panel.replaceChildren();
    if (state.node < 0) {
      panel.append(element("p", { class: "hint" }, "Click a node for its properties, inputs and events."));
      return;
    }
    const s = state.side, f = fileOn(s, state.file);
    const node = fileData(s, f).nodes[state.node];
    const track = trackOf(s, f, state.node);
    panel.append(element("h3", {}, sides.length > 1 ? `${node.label} (${sides[s].label.split(":")[0]})` : node.label));
    const facts = [["GUID", node.guid || ""]];
    if (timed) facts.push([`frame ${state.frame}`, stateWords(nodeAt(track, state.frame), track)]);
    if (sides.length > 1) {
      const other = partner(s, state.file, state.node);
      const otherSide = 1 - s;
      facts.push([sides[otherSide].label.split(":")[0], other >= 0 ? fileData(otherSide, fileOn(otherSide, state.file)).nodes[other].label : s === 0 ? "deleted" : "new"]);
    }
    if (coverage) facts.push(["coverage", coverageOf(state.file, state.node).words]);
    if (node.calls !== undefined) facts.push(["calls", fileData(s, node.calls).name]);
    panel.append(table(facts));
    const m = marksOf(s, f, state.node);
    if (m && m.lines.length) {
      const list = element("ul");
      for (const line of m.lines) list.append(element("li", {}, line));
      panel.append(list);
    }
    if (node.calls !== undefined && s === 0) {
      const b = element("button", {}, `open ${main.files[node.calls].name}`);
      b.addEventListener("click", () => go({ file: node.calls, side: 0, node: -1 }));
      panel.append(b);
    }
    for (const [title, groups] of [["Properties", node.properties], ["Inputs", node.inputs], ["Outputs", node.outputs]]) {
      const r = parameterRows(groups);
      if (r.length) panel.append(element("h3", {}, title), table(r));
    }
    if (!timed) return;
    const outputs = Object.entries((track && track.outputs) || {});
    if (outputs.length) {
      panel.append(element("h3", {}, `Output values at frame ${state.frame}`));
      panel.append(table(outputs.map(([name, changes]) => {
        const k = lastAtOrBelow(changes.map(([frame]) => frame), state.frame);
        return [name, k < 0 ? "not written yet" : `${changes[k][1]}${changes[k][0] === state.frame ? " (changed)" : ""}`];
      })));
    }
    panel.append(element("h3", {}, "Events over the run"));
    if (!track) {
      panel.append(element("p", { class: "hint" }, "Never entered in this run."));
      return;
    }
    const events = eventRows(track);
    const shown = 200;
    panel.append(table(events.slice(0, shown)));
    if (events.length > shown) panel.append(element("p", { class: "hint" }, `\u2026 and ${events.length - shown} more`));
    let last = null;
    for (const [first, count, result] of track.updates) {
      if (first > state.frame) break;
      last = [Math.min(state.frame, first + count - 1), result];
    }
    if (last) panel.append(element("p", {}, `Last result by frame ${state.frame}: ${RESULT[last[1]]} (frame ${last[0]})`));
  };

  // --- Drawing a frame ----------------------------------------------------------------------------
  // Each element's classes as last set: an element whose state did not change is not touched, so a
  // step restyles only the nodes that changed.
  const drawn = new Map();
  const setClasses = (e, value) => {
    if (drawn.get(e) === value) return;
    drawn.set(e, value);
    e.setAttribute("class", value);
  };
  const staticClasses = (s, f, n) => {
    const m = marksOf(s, f, n);
    const classes = m ? [...m.classes] : [];
    if (coverage && s === 0) classes.push(coverageOf(state.file, n).cls);
    return classes;
  };
  const selectedOn = (s) => (state.node < 0 ? -1 : s === state.side ? state.node : partner(state.side, state.file, state.node));
  const drawFrame = () => {
    const frame = state.frame;
    if (timed) {
      $("slider").value = String(frame);
      $("frame-label").textContent = `frame ${frame} of ${frames}`;
    }
    sides.forEach((side, s) => {
      const f = fileOn(s, state.file);
      if (f < 0) return;
      const selected = selectedOn(s);
      side.files[f].nodes.forEach((_, n) => {
        const track = trackOf(s, f, n);
        const at = nodeAt(track, frame);
        const list = [...stateClasses(at, track), ...staticClasses(s, f, n)];
        if (n === selected) list.push("selected");
        const value = list.join(" ");
        const g = graphElement(s, f, `n${n}`);
        if (g) setClasses(g, `node ${value}`);
        if (s === 0) {
          const row = rows[n];
          setClasses(row, value);
          if (timed) {
            const words = stateWords(at, track);
            if (row.dataset.state !== words) {
              row.dataset.state = words;
              row.cells[2].textContent = words;
              row.cells[2].className = at.result ? `r-${at.result}` : "";
            }
          }
        } else if (s === 1) {
          // The edited side's state beside its partner's row.
          const original = partner(1, state.file, n);
          if (original >= 0 && rows[original]) {
            const words = stateWords(at, track);
            const cell = rows[original].cells[3];
            if (cell.textContent !== words) {
              cell.textContent = words;
              cell.className = at.result ? `r-${at.result}` : "";
            }
          }
        }
      });
    });
    for (const row of blackboardRows) {
      let changed = false;
      row.values.forEach((v, s) => {
        const k = lastAtOrBelow(v.frames, frame);
        const value = k < 0 ? v.fallback : v.changes[k][1];
        const cell = row.tr.cells[1 + s];
        if (cell.textContent !== value) cell.textContent = value;
        if (k >= 0 && v.frames[k] === frame) changed = true;
      });
      setClasses(row.tr, changed ? "changed" : "");
    }
    placeCursor();
    drawPanel();
  };

  const showFile = () => {
    sides.forEach((_, s) => {
      const f = fileOn(s, state.file);
      const e = sideElement(s);
      if (!e) return;
      e.querySelectorAll(":scope > .layout").forEach((l) => { l.hidden = Number(l.dataset.file) !== f; });
    });
    document.querySelectorAll("#files button").forEach((b) => b.classList.toggle("current", Number(b.dataset.file) === state.file));
    buildNodeList();
  };

  const writeHash = () => {
    let hash = `#file=${state.file}`;
    if (timed) hash += `&frame=${state.frame}`;
    if (state.node >= 0) hash += `${sides.length > 1 ? `&side=${state.side}` : ""}&node=${state.node}`;
    if (location.hash !== hash) history.replaceState(null, "", hash);
  };

  // Moves to a new state: a file, a frame, a side and node (the others stay).
  const go = (change) => {
    const before = { ...state };
    Object.assign(state, change);
    state.frame = Math.min(frames, Math.max(0, state.frame));
    const fileChanged = state.file !== before.file;
    const nodeChanged = state.node !== before.node || state.side !== before.side;
    if (fileChanged) showFile();
    drawFrame();
    if (fileChanged) firstView();
    if (fileChanged || nodeChanged) {
      sides.forEach((_, s) => {
        const n = selectedOn(s);
        const g = n >= 0 ? graphElement(s, fileOn(s, state.file), `n${n}`) : null;
        if (g) g.scrollIntoView({ block: "nearest", inline: "nearest" });
      });
      drawTimeline();
    }
    writeHash();
  };

  // --- Controls -----------------------------------------------------------------------------------
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
    timer = setInterval(() => (state.frame >= frames ? play() : go({ frame: state.frame + 1 })), 50);
  };
  $("play").addEventListener("click", play);
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type !== "range") return;
    const step = e.shiftKey ? 10 : 1;
    if (timed && e.key === "ArrowRight") go({ frame: state.frame + step });
    else if (timed && e.key === "ArrowLeft") go({ frame: state.frame - step });
    else if (timed && e.key === "Home") go({ frame: 0 });
    else if (timed && e.key === "End") go({ frame: frames });
    else if (timed && e.key === " ") play();
    else if (e.key === "+" || e.key === "=") zoomBy(1.25);
    else if (e.key === "-") zoomBy(0.8);
    else if (e.key === "0") fit();
    else return;
    e.preventDefault();
  });

  // --- Start --------------------------------------------------------------------------------------
  const fromHash = () => {
    const p = new URLSearchParams(location.hash.slice(1));
    const number = (key, fallback) => (p.has(key) && /^\d+$/.test(p.get(key)) ? Number(p.get(key)) : fallback);
    const file = Math.min(number("file", 0), main.files.length - 1);
    const side = Math.min(number("side", 0), sides.length - 1);
    const f = fileOn(side, file);
    const node = number("node", -1);
    const frame = number("frame", difference ? difference.frame : 0);
    return { file, frame, side, node: f >= 0 && node < fileData(side, f).nodes.length ? node : -1 };
  };
  $("time").hidden = !timed;
  buildBlackboard();
  buildItems();
  markEdges();
  state.file = -1;  // so that go() draws the file the hash names
  go(fromHash());
  window.addEventListener("hashchange", () => go(fromHash()));
  document.body.dataset.ready = String(Math.round(performance.now()));
})();
