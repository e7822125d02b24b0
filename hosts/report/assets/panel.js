// The panel of the selected node (part of the page's script, after timeline.js).
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
