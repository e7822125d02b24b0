// Live from an engine (docs/debugger.md): `#live=ws://127.0.0.1:PORT/` connects the page to
// `ainb-game --serve PORT`, which streams one actor's events a frame at a time, as the JSON lines
// of `ainb run --trace`. They go on the end of the debugger's run (its cursor following them) and
// of the trace; Pause and Step are sent back and hold that actor in the game loop. A breakpoint
// hit in the stream pauses the actor too. While a run computed in the page is shown (Run), frames
// are kept aside until Back to live. The report page of the frames received so far (`ainb report`
// in the worker) is made when the actor pauses, when the stream ends and on the Report button.
// page.js calls AinbLive.connect once.
"use strict";
self.AinbLive = {
  connect(url, { $, debug, openFiles, status, call, showPage, count }) {
    let socket;
    try {
      socket = new WebSocket(url);
    } catch (e) {
      return status(`Live: cannot connect to "${url}": ${e.message}`, true);
    }
    let top = null;  // the file the actor runs, named as its events name it
    let frames = 0, frame = null, paused = false, opened = false, closed = false;
    let pending = [];  // frames' events not yet shown
    let whole = "";  // every frame's events received
    let timer = null;
    $("w-live").hidden = false;
    // The link's breakpoints (page.js reads them only with `open`): a hit pauses the actor.
    const params = new URLSearchParams(location.hash.slice(1));
    if (!params.has("open")) {
      for (const spec of params.getAll("break")) {
        try {
          debug.add(spec);
        } catch (e) {
          status(`In the link: ${e.message}`, true);
        }
      }
    }
    const send = (message) => socket.readyState === WebSocket.OPEN && socket.send(JSON.stringify(message));
    // The state beside the buttons; data-live-frames counts the frames shown (for tests).
    const say = () => {
      const state = closed ? "disconnected" : paused ? "paused" : "live";
      const drawn = report.making !== null ? `, making the report to frame ${report.making}…`
        : report.frame !== null ? `, report to frame ${report.frame}` : "";
      $("w-live-state").textContent = `${state}: frame ${frame ?? "–"}, ${frames} frame(s) received${drawn}`;
      $("w-live-pause").textContent = paused ? "Resume" : "Pause";
      for (const id of ["w-live-pause", "w-live-step"]) $(id).disabled = closed;
    };
    $("w-live-pause").onclick = () => send({ pause: !paused });
    $("w-live-step").onclick = () => send({ step: 1 });
    $("w-live-back").onclick = () => {
      $("w-live-back").hidden = true;
      $("ainb-trace").textContent = whole;
      debug.showLive(whole, top);
      if (report.page) showPage(report.page);
    };
    $("w-live-report").onclick = () => makeReport();

    // --- The report page of the frames received so far. Not per frame: a long trace's report
    // costs time. A pause (or a Step's frame) makes it once the stream has been quiet a moment,
    // so that a Step's reply and its frame, or steps in a row, make one.
    const report = { page: null, frame: null, making: null, again: false };
    let reportTimer = null;
    const reportSoon = () => {
      clearTimeout(reportTimer);
      reportTimer = setTimeout(makeReport, 150);
    };
    async function makeReport() {
      clearTimeout(reportTimer);
      if (timer !== null) {  // the frames waiting for their batch are in it too
        clearTimeout(timer);
        show();
      }
      if (!top || !whole) return status("Live: no events received yet, no report page to make.");
      if (report.making !== null) return void (report.again = true);
      report.making = frame;
      say();
      try {
        // Every module the game loaded came with the hello: one the page lacks was a stub there.
        const result = await call("report", [whole, top, { stubMissingModules: true }]);
        // The report page's last frame, as `ainb report` counts it ("wrote …: F frames, E events").
        const drawn = /: (\d+) frames, \d+ events/.exec(result.report);
        report.page = result.page;
        report.frame = drawn ? Number(drawn[1]) : report.making;
        document.body.dataset.liveReportFrame = String(report.frame);
        // A run computed in the page keeps the view; Back to live shows this page.
        if (debug.live()) {
          $("w-report").classList.remove("failed");
          $("w-report").textContent = result.warnings;
          await showPage(report.page);
        }
      } catch (e) {
        const cancelled = e.message === "cancelled";
        if (debug.live()) {
          $("w-report").classList.add("failed");
          $("w-report").textContent = cancelled ? "" : e.stderr || e.message;
          if (!cancelled) showPage(undefined);  // not an earlier frame's page as if it were this one's
        }
        status(cancelled ? "Report: cancelled." : `Report: ${e.message}`, !cancelled);
      } finally {
        report.making = null;
        count("liveReports");
        say();
        if (report.again) {
          report.again = false;
          makeReport();
        }
      }
    }

    // Frames arrive at 60 a second: they are shown a batch at a time, not one redraw each.
    function show() {
      timer = null;
      const trace = pending.join("");
      pending = [];
      whole += trace;
      const { shown, hit } = debug.append(trace, top);
      if (shown) $("ainb-trace").append(trace);
      else $("w-live-back").hidden = false;  // a computed run is shown: the stream waits
      if (hit && !paused) send({ pause: true });
      document.body.dataset.liveFrames = String(frames);
      say();
    }
    const bytes = (base64) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));

    socket.onopen = () => {
      opened = true;
      status(`Live: connected to ${url}, waiting for the engine…`);
    };
    socket.onmessage = ({ data }) => {
      let m;
      try {
        m = JSON.parse(data);
      } catch {
        return status("Live: the engine sent a message that is not JSON", true);
      }
      if (m.hello) {
        top = m.hello.file;
        $("ainb-trace").textContent = whole = "";
        // The file and the modules its graph loaded: the report page draws them all.
        const modules = (m.hello.modules ?? []).map((module) => [module.file, bytes(module.bytes)]);
        openFiles([[top, bytes(m.hello.bytes)], ...modules]);
        const calls = modules.length ? ` (and ${modules.length} module file(s))` : "";
        status(`Live: actor ${m.hello.actor} running ${top}${calls}, from ${url}.`);
      } else if (typeof m.trace === "string") {
        ++frames;
        frame = m.frame;
        pending.push(m.trace);
        timer ??= setTimeout(show, 50);
        if (paused) reportSoon();  // a Step's frame
      } else if (typeof m.paused === "boolean") {
        paused = m.paused;
        if (paused) reportSoon();
        else clearTimeout(reportTimer);  // resumed at once: the stream goes on, no report yet
        say();
      } else if (m.error) {
        status(`Live: the engine says: ${m.error}`, true);
      }
    };
    socket.onerror = () => status(`Live: no engine at ${url} (is ainb-game --serve running?)`, true);
    socket.onclose = () => {
      closed = true;
      if (timer !== null) {
        clearTimeout(timer);
        show();
      }
      say();
      if (opened) status(`Live: the engine closed the connection after ${frames} frame(s).`);
      if (whole) makeReport();
    };
    say();
  },
};
