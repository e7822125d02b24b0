// A regression's edits or an exploration's items never reached, and the coverage of the graphs'
// edges (part of the page's script, after blackboard.js).
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
