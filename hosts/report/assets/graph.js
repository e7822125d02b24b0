// The page's graphs (part of the page's script, after page.js): each side's layouts, zoom, the
// clicks that select a node or open a module, and the file buttons.
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
// Scrolls a side's pane to show a node. Not scrollIntoView, which scrolls the pages around this
// one too and so lays them out (the WebAssembly page's holds the whole trace).
const reveal = (g) => {
  const pane = g.closest(".side");
  if (!pane) return;
  const r = g.getBoundingClientRect(), p = pane.getBoundingClientRect();
  const by = (lo, hi, plo, phi) => (lo < plo ? lo - plo : hi > phi ? Math.min(hi - phi, lo - plo) : 0);
  pane.scrollLeft += by(r.left, r.right, p.left, p.left + pane.clientWidth);
  pane.scrollTop += by(r.top, r.bottom, p.top, p.top + pane.clientHeight);
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
