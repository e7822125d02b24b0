// The timeline of the run: each node's spans and results over the frames, and its cursor (part of
// the page's script, after items.js).
// --- Timeline -----------------------------------------------------------------------------------
const timeline = $("timeline");
let placeCursor = () => {};
// Two layers: the run's (activity, commands, blackboard changes, alerts, the first difference),
// drawn again only when the width changes, and the selected node's spans and results, drawn again
// when the selection changes (a debugger stepping event by event changes it at nearly every step).
let runLayerWidth = -1;
let timelineWidth = null;
const runLayer = svgElement("g");
const nodeLayer = svgElement("g");
const legend = svgElement("text");
const cursor = svgElement("line", { y1: 0, class: "cursor" });
timeline.append(runLayer, nodeLayer, legend, cursor);
const drawTimeline = () => {
  if (!timed) return;
  const rowsPerSide = 24;
  const height = 14 + rowsPerSide * sides.length + 12;
  // Its width as last observed: reading clientWidth here would lay out the page at every step.
  timelineWidth ??= timeline.clientWidth;
  const width = timelineWidth || 800;
  const x = (f) => 4 + (f / Math.max(frames, 1)) * (width - 8);
  if (width !== runLayerWidth) {
    runLayerWidth = width;
    timeline.setAttribute("viewBox", `0 0 ${width} ${height}`);
    timeline.style.height = `${height}px`;
    const parts = [];
    sides.forEach((side, s) => {
      const top = s * rowsPerSide;
      const T = side.timeline;
      const most = Math.max(1, ...T.activity);
      T.activity.forEach((n, f) => {
        if (n === 0) return;
        const h = (n / most) * 10;
        parts.push(svgElement("rect", { x: x(f) - 0.5, y: top + 11 - h, width: Math.max(1, x(1) - x(0)), height: h, class: "activity" }));
      });
      for (const [f, name] of T.commands) parts.push(svgElement("line", { x1: x(f), x2: x(f), y1: top, y2: top + 12, class: "command" }, `frame ${f}: command ${name}`));
      for (const [name, file] of Object.entries(T.files)) {
        for (const [entry, changes] of Object.entries(file.blackboard)) {
          for (const [f, v] of changes) parts.push(svgElement("line", { x1: x(f), x2: x(f), y1: top + 13, y2: top + 17, class: "change" }, `frame ${f}: ${entry} = ${v} (${name})`));
        }
        for (const [f, node, message] of file.alerts) parts.push(svgElement("line", { x1: x(f), x2: x(f), y1: top + 13, y2: top + 17, class: "alert" }, `frame ${f}: alert of #${node}: ${message}`));
      }
    });
    if (difference) parts.push(svgElement("line", { x1: x(difference.frame), x2: x(difference.frame), y1: 0, y2: height - 12, class: "first-difference" }, `frame ${difference.frame}: the first difference`));
    runLayer.replaceChildren(...parts);
    legend.setAttribute("x", 4);
    legend.setAttribute("y", height - 2);
    cursor.setAttribute("y2", height);
  }
  // The node's bars as one path per class: a node busy all run has thousands of them, and one
  // element each made a debugger's step cost more than its whole redraw.
  const bars = {};
  const bar = (cls, from, to, y, h) => {
    const w = Math.max(1, x(to) - x(from));
    (bars[cls] ||= []).push(`M${x(from).toFixed(1)} ${y}h${w.toFixed(1)}v${h}h${(-w).toFixed(1)}z`);
  };
  sides.forEach((side, s) => {
    const top = s * rowsPerSide;
    const node = selectedOn(s);
    const track = node >= 0 ? trackOf(s, fileOn(s, state.file), node) : null;
    if (!track) return;
    for (let i = 0; i < track.spans.length; i += 2) bar("span", track.spans[i], track.spans[i + 1] < 0 ? frames : track.spans[i + 1], top + 18, 2);
    for (const [first, count, result] of track.updates) bar(result, first, first + count, top + 20, 3);
  });
  nodeLayer.replaceChildren(...Object.entries(bars).map(([cls, d]) => svgElement("path", { d: d.join(""), class: cls })));
  legend.textContent = `${sides.length > 1 ? "each side: " : ""}updates per frame, commands (blue), blackboard changes, alerts${state.node >= 0 ? `; #${state.node}: spans and results` : ""}${difference ? "; the first difference (red)" : ""}`;
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
new ResizeObserver(([entry]) => {
  const width = Math.round(entry.contentRect.width);
  if (width === timelineWidth) return;
  timelineWidth = width;
  drawTimeline();
}).observe(timeline);
