// The page at a frame: drawing it, moving to another frame, file or node (the location's hash),
// the controls and the start (the last part of the page's script, after panel.js).
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
  // A page shown inside another (the WebAssembly page's view, an about:srcdoc frame) has no URL
  // of its own to keep the state in.
  if (location.hash !== hash && location.protocol !== "about:") history.replaceState(null, "", hash);
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
    drawTimeline();
    // Last: scrolling lays the page out, which each change made after it would make again.
    sides.forEach((_, s) => {
      const n = selectedOn(s);
      const g = n >= 0 ? graphElement(s, fileOn(s, state.file), `n${n}`) : null;
      if (g) reveal(g);
    });
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
// The WebAssembly page's debugger moves this page to its cursor: {ainbGo: {frame, file, node}},
// the file by name (docs/debugger.md).
window.addEventListener("message", (e) => {
  const to = e.data && e.data.ainbGo;
  if (!to || !timed) return;
  const file = main.files.findIndex((f) => f.name === to.file);
  go(file < 0 ? { frame: to.frame } : { frame: to.frame, file, side: 0, node: to.node ?? -1 });
});
document.body.dataset.ready = String(Math.round(performance.now()));
