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
// Built once per node (its properties and its events over the run: a long table), the parts that
// depend on the frame filled in again at each frame: rebuilding it all made a frame's step or a
// scrub lay out that table each time.
let panelShows = null;
let panelFrame = () => {};
const drawPanel = () => {
  const shows = state.node < 0 ? "" : `${state.file}:${state.side}:${state.node}`;
  if (shows === panelShows) return panelFrame();
  panelShows = shows;
  panelFrame = () => {};
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
  if (timed) facts.push(["", ""]);  // the frame's state, below
  if (sides.length > 1) {
    const other = partner(s, state.file, state.node);
    const otherSide = 1 - s;
    facts.push([sides[otherSide].label.split(":")[0], other >= 0 ? fileData(otherSide, fileOn(otherSide, state.file)).nodes[other].label : s === 0 ? "deleted" : "new"]);
  }
  if (coverage) facts.push(["coverage", coverageOf(state.file, state.node).words]);
  if (node.calls !== undefined) facts.push(["calls", fileData(s, node.calls).name]);
  const factTable = table(facts);
  panel.append(factTable);
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
  const outputs = Object.entries((track && track.outputs) || {}).map(([name, changes]) => ({ name, changes, frames: changes.map(([frame]) => frame) }));
  const outputsTitle = element("h3");
  const outputsTable = table(outputs.map(({ name }) => [name, ""]));
  if (outputs.length) panel.append(outputsTitle, outputsTable);
  panel.append(element("h3", {}, "Events over the run"));
  const lastResult = element("p");
  if (!track) {
    panel.append(element("p", { class: "hint" }, "Never entered in this run."));
  } else {
    const events = eventRows(track);
    const shown = 200;
    panel.append(table(events.slice(0, shown)));
    if (events.length > shown) panel.append(element("p", { class: "hint" }, `\u2026 and ${events.length - shown} more`));
    panel.append(lastResult);
  }
  const setText = (e, text) => {
    if (e.textContent !== text) e.textContent = text;
  };
  panelFrame = () => {
    const frame = state.frame;
    const cells = factTable.rows[1].cells;
    setText(cells[0], `frame ${frame}`);
    setText(cells[1], stateWords(nodeAt(track, frame), track));
    setText(outputsTitle, `Output values at frame ${frame}`);
    outputs.forEach(({ changes, frames: at }, i) => {
      const k = lastAtOrBelow(at, frame);
      setText(outputsTable.rows[i].cells[1], k < 0 ? "not written yet" : `${changes[k][1]}${changes[k][0] === frame ? " (changed)" : ""}`);
    });
    if (!track) return;
    let last = null;
    for (const [first, count, result] of track.updates) {
      if (first > frame) break;
      last = [Math.min(frame, first + count - 1), result];
    }
    lastResult.hidden = !last;
    setText(lastResult, last ? `Last result by frame ${frame}: ${RESULT[last[1]]} (frame ${last[0]})` : "");
  };
  panelFrame();
};
