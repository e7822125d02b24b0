// The debugger's panel (docs/debugger.md): a cursor over the last run's events, moved by its
// buttons, keys, slider and breakpoints; the nodes open and the blackboard at the cursor; the
// report page's frame and node following it. Part of the page's debugger script, after
// debugger.mjs's Session and breakpoints; page.js calls debugPanel() once.
function debugPanel({ $, rerun, follow, download }) {
  let session = null;
  let breakpoints = [];
  let timer = null;
  let note = "";  // why the cursor stopped, shown beside the status

  // --- The cursor.
  function draw() {
    const ready = session !== null && session.size > 0;
    for (const id of ["w-d-back-frame", "w-d-back", "w-d-step", "w-d-frame", "w-d-continue", "w-d-play", "w-d-go", "w-d-slider"])
      $(id).disabled = !ready;
    if (!ready) {
      $("ainb-status").textContent = session ? "the run has no events" : "no run yet";
      for (const id of ["w-d-note", "w-d-event", "w-d-open", "w-d-blackboard"]) $(id).replaceChildren();
      return;
    }
    $("ainb-status").textContent = session.status();
    $("w-d-note").textContent = note;
    $("w-d-slider").max = String(session.size - 1);
    $("w-d-slider").value = String(session.cursor);
    const e = session.events[session.cursor];
    $("w-d-event").textContent = session.lines[session.cursor];
    drawState(session.stateAt());
    follow({ frame: e.frame, file: e.file, node: e.node });
  }

  function drawState({ open, results, blackboard }) {
    const list = $("w-d-open");
    list.replaceChildren();
    for (const e of open) {
      const item = document.createElement("li");
      const result = results.get(`${e.file}#${e.node}`);
      item.textContent = `${e.file === session.top ? "" : `${e.file} `}#${e.node} ${e.name || e.type}${result ? ` (${result})` : ""}`;
      list.append(item);
    }
    const table = $("w-d-blackboard");
    table.replaceChildren();
    for (const { file, name, value, frame } of blackboard) {
      const row = table.insertRow();
      row.insertCell().textContent = `${file === session.top ? "" : `${file}: `}${name}`;
      row.insertCell().textContent = value;
      row.insertCell().textContent = `frame ${frame}`;
    }
  }

  // Moves the cursor (`how` returns why it stopped there, if it says) and draws.
  const move = (how) => {
    stop();
    if (!session) return;
    note = how() ?? "";
    draw();
  };
  const stoppedAt = (hit) => `stopped at ${breakpointText(hit.breakpoint)}`;
  // To the next breakpoint (or the end), saying which stopped it.
  const toBreakpoint = () => {
    const hit = session.find(breakpoints);
    session.go(hit ? hit.at : session.size - 1);
    return hit ? stoppedAt(hit) : "the run's end: no breakpoint after this";
  };

  function stop() {
    if (timer === null) return;
    clearInterval(timer);
    timer = null;
    $("w-d-play").textContent = "Play";
  }
  // A frame every 100 ms, until a breakpoint or the run's end.
  function play() {
    if (timer !== null) return stop();
    $("w-d-play").textContent = "Pause";
    timer = setInterval(() => {
      const next = session.frameStart(session.frame + 1);
      const hit = session.find(breakpoints);
      if (hit && (hit.at <= next || next === session.cursor)) {
        stop();
        session.go(hit.at);
        note = stoppedAt(hit);
      } else if (next === session.cursor) {
        stop();
        note = "the run's end";
      } else {
        session.go(next);
        note = "";
      }
      draw();
    }, 100);
  }

  // Run to frame N: past the run's frames, the run again with that many.
  async function toFrame(frame) {
    if (!session) return;
    if (frame > session.last && (await rerun(frame))) return;
    move(() => {
      session.toFrame(frame);
      return frame > session.last ? `the run ends at frame ${session.last}` : "";
    });
  }

  $("w-d-back-frame").onclick = () => move(() => void session.previousFrame());
  $("w-d-back").onclick = () => move(() => void session.previousEvent());
  $("w-d-step").onclick = () => move(() => void session.nextEvent());
  $("w-d-frame").onclick = () => move(() => void session.nextFrame());
  $("w-d-continue").onclick = () => move(toBreakpoint);
  $("w-d-play").onclick = play;
  $("w-d-go").onclick = () => toFrame(Number($("w-d-to").value));
  $("w-d-slider").oninput = () => move(() => void session.go(Number($("w-d-slider").value)));
  document.addEventListener("keydown", (e) => {
    if (!session || e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement) return;
    const keys = { ".": "w-d-step", ",": "w-d-back", "]": "w-d-frame", "[": "w-d-back-frame", c: "w-d-continue", p: "w-d-play" };
    if (!keys[e.key]) return;
    e.preventDefault();
    $(keys[e.key]).click();
  });

  // --- Breakpoints: a list, saved to and loaded from {"breakpoints": [...]}.
  function drawBreakpoints() {
    const list = $("w-b-list");
    list.replaceChildren();
    breakpoints.forEach((b, i) => {
      const item = document.createElement("li");
      const on = document.createElement("input");
      on.type = "checkbox";
      on.checked = b.enabled !== false;
      on.title = "enabled";
      on.onchange = () => (b.enabled = on.checked);
      const frames = b.from !== undefined || b.to !== undefined ? ` (frames ${b.from ?? 0}–${b.to ?? "end"})` : "";
      const remove = document.createElement("button");
      remove.textContent = "×";
      remove.title = "remove";
      remove.onclick = () => {
        breakpoints.splice(i, 1);
        drawBreakpoints();
      };
      item.append(on, ` ${breakpointText(b)}${frames} `, remove);
      list.append(item);
    });
    $("w-b-count").textContent = breakpoints.length ? `(${breakpoints.length})` : "(none)";
  }
  // Adds a breakpoint from its text; throws what is wrong with it.
  function add(text, from, to) {
    const b = parseBreakpoint(text.trim());
    if (from !== undefined) b.from = from;
    if (to !== undefined) b.to = to;
    breakpoints.push(b);
    drawBreakpoints();
    return b;
  }
  const frameInput = (id) => ($(id).value === "" ? undefined : Number($(id).value));
  $("w-b-add").onclick = () => {
    $("w-b-error").textContent = "";
    try {
      add($("w-b-text").value, frameInput("w-b-from"), frameInput("w-b-to"));
      $("w-b-text").value = "";
    } catch (e) {
      $("w-b-error").textContent = e.message;
    }
  };
  $("w-b-text").onkeydown = (e) => e.key === "Enter" && $("w-b-add").click();
  // A breakpoint on the node of the event at the cursor.
  $("w-b-here").onclick = () => {
    const e = session?.events[session.cursor];
    if (!e || e.node === undefined) return;
    add(`update:${e.file === session.top ? "" : `${e.file}#`}${e.node}`);
  };
  $("w-b-save").onclick = () => download("breakpoints.json", JSON.stringify({ breakpoints }, null, 2));
  $("w-b-load").onchange = async (e) => {
    const [file] = e.target.files;
    e.target.value = "";
    if (!file) return;
    $("w-b-error").textContent = "";
    try {
      load(JSON.parse(await file.text()));
    } catch (error) {
      $("w-b-error").textContent = `${file.name}: ${error.message}`;
    }
  };
  // A saved list: each entry checked as its text would be.
  function load(saved) {
    if (!Array.isArray(saved?.breakpoints)) throw new Error('expected {"breakpoints": [...]}');
    breakpoints = saved.breakpoints.map((b) => {
      const checked = parseBreakpoint(breakpointText(b));
      for (const key of ["from", "to", "enabled"]) if (b[key] !== undefined) checked[key] = b[key];
      return checked;
    });
    drawBreakpoints();
  }

  drawBreakpoints();
  draw();
  return {
    add,
    breakpoints: () => breakpoints,
    // The event at the cursor, and its frame (null without a run).
    at() {
      return session && session.size > 0 ? { event: session.cursor, frame: session.frame, e: session.events[session.cursor] } : null;
    },
    // A live stream's events (page/live.js) after the ones shown. A cursor at the end follows
    // them, unless a breakpoint stops it in them (`hit`: the page pauses the actor). While a
    // computed run is shown (Run pressed), they are not added to it: `shown` is false.
    append(trace, top) {
      if (session && !session.live) return { shown: false, hit: null };
      if (!session) session = Object.assign(new Session("", top), { live: true });
      const from = session.size - 1;
      const following = timer === null && session.cursor >= from;
      session.append(trace);
      let hit = null;
      if (following) {
        hit = session.find(breakpoints, from);
        session.go(hit ? hit.at : session.size - 1);
        note = hit ? stoppedAt(hit) : "";
      }
      draw();
      return { shown: true, hit };
    },
    // Whether the live stream's events are shown (not a run computed in the page).
    live: () => session?.live === true,
    // Back to the live stream's events so far, the cursor at the end.
    showLive(trace, top) {
      stop();
      session = Object.assign(new Session(trace, top), { live: true });
      session.go(session.size - 1);
      note = "";
      draw();
    },
    // A run of `top` and its trace (null: none): the cursor at `where.event` or the first event of
    // `where.frame` if given (a link's `at`, a run to a frame, a branch's first difference), else
    // at the first event a breakpoint stops at, else at the run's end.
    show(trace, top, where = {}) {
      stop();
      session = trace === null ? null : new Session(trace, top);
      note = where.note ?? "";
      const { frame } = where;
      if (session && session.size > 0) {
        const hit = frame === undefined && where.event === undefined ? session.find(breakpoints, -1) : null;
        if (where.event !== undefined) {
          session.go(where.event);
        } else if (frame !== undefined) {
          session.toFrame(frame);
          if (frame > session.last) note = `the run ends at frame ${session.last}`;
        } else if (hit) {
          session.go(hit.at);
          note = stoppedAt(hit);
        } else {
          session.go(session.size - 1);
          note = breakpoints.length ? "the run's end: no breakpoint stopped it" : "the run's end";
        }
      }
      draw();
    },
  };
}
