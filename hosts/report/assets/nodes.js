// The summary line, the legend and the node list of the selected file (part of the page's script,
// after graph.js).
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
