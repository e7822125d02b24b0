// The blackboard list (part of the page's script, after nodes.js).
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
