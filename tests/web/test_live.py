# Live from an engine (docs/debugger.md): `ainb-game --serve 0` on the loopback address streams one
# actor's events to the page (#live=ws://…), driven in headless Chromium. What the page shows is
# checked against the game's own trace of that actor (--trace), and its Pause, Resume and Step
# against the frames that arrive and what the game says on its stdout.
import base64
import json
import os
import pathlib
import queue
import re
import subprocess
import threading
import time

import pytest
from ainb_pytest import required
from page_driver import Page
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = pathlib.Path(__file__).resolve().parents[2]
GAME = pathlib.Path(os.environ.get("AINB_GAME", ROOT / "build/release/hosts/embedding/ainb-game"))
BUSY = "wide/ainb/Lynel_EscapeSmoke.actionseq.root.ainb"  # ~40 events a frame, no modules
# Calls BossCommon.ChanceTimeUpdate.module.ainb, beside it, whose nodes have events every frame.
CALLING = "wide/ainb/Sandworm_Eat.actionseq.root.ainb"
MODULE = "BossCommon.ChanceTimeUpdate.module.ainb"


class Game:
    """ainb-game --serve 0 in the background, its stdout read line by line."""

    def __init__(self, file, trace, *flags):
        self.trace, self.folder, self.name = trace, file.parent, file.name
        self.p = subprocess.Popen([str(GAME), str(file), "--serve", "0", "--actor", "0", "--actors", "50",
                                   "--frames", "1000000", "--trace", str(trace), *flags],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines = queue.Queue()
        threading.Thread(target=lambda: [self.lines.put(line.rstrip("\n")) for line in self.p.stdout],
                         daemon=True).start()
        first = self.line()
        assert first.startswith("serving actor 0 on ws://127.0.0.1:"), first
        self.url = first.split(" on ")[1]

    def line(self, timeout=20):
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"ainb-game said nothing in {timeout} s; stderr: {self.p.stderr.read()}")

    def stop(self):
        self.p.terminate()
        self.p.wait(timeout=20)


@pytest.fixture
def game_path():
    if not GAME.exists():
        required(f"{GAME} missing: build the release preset's ainb-game")
    return GAME


def frames_shown(p):
    return p.count("liveFrames")


def state(p):
    return p.text("w-live-state")


def settled(p, seconds=0.6):
    """The frames shown, once no more arrive for `seconds`."""
    before = frames_shown(p)
    while True:
        time.sleep(seconds)
        now = frames_shown(p)
        if now == before:
            return now
        before = now


def reports(p):
    return p.count("liveReports")


def report_data(p):
    """The report page in the view: its embedded data (the page data JSON) and its frame slider's
    maximum, once it has loaded."""
    WebDriverWait(p.d, 30).until(lambda _: p.view("return d.body && d.body.dataset.ready !== undefined"))
    data = json.loads(p.view("return d.getElementById('data').textContent"))
    return data, int(p.view("return d.getElementById('slider').max"))


def wait_report(p, made, frame):
    """Waits for report number `made`, which must go to `frame`; returns its page data."""
    p.wait_count("liveReports", made, timeout=60)
    assert reports(p) == made
    assert p.d.execute_script("return document.body.dataset.liveReportFrame") == str(frame)
    assert state(p).endswith(f", report to frame {frame}"), state(p)
    view = p.d.find_element(By.ID, "w-view")
    assert view.is_displayed()
    data, slider = report_data(p)
    assert slider == frame
    assert data["sides"][0]["timeline"]["frames"] == frame
    return data


def native_report(native, tmp_path, folder, name, trace_lines, last):
    """`ainb report` of the lines up to frame `last`, run natively beside the file as the page runs
    it (its own layout, not dot's: the page has no dot), and the page data it embeds."""
    cut = tmp_path / f"cut{last}.jsonl"
    cut.write_text("".join(f"{line}\n" for line in trace_lines if json.loads(line)["frame"] <= last))
    out = tmp_path / f"native{last}.html"
    done = native("report", cut, "--file", name, "-o", out, "--stub-missing-modules", "--dot",
                  tmp_path / "no-dot", cwd=folder)
    assert done.returncode == 0, done.stderr
    html = out.read_text()
    return json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>', html, re.S).group(1))


def drawn(data):
    """A page's data but its note on the graphs' layout, which says why dot was not used: the page
    cannot run it, the native run was told of none."""
    return {key: value for key, value in data.items() if key != "graphviz"}


def open_live(browser, page, game, extra=""):
    # A link that differs from the last one in its fragment only would not load the page again.
    browser.get("about:blank")
    return Page(browser, page, f"#live={game.url}{extra}")


def drive(browser, page, game, native, tmp_path, *run_flags):
    p = open_live(browser, page, game)
    p.wait_count("liveFrames", 30, timeout=30)
    assert not browser.find_element(By.ID, "w-live").get_attribute("hidden")
    # The file the actor runs, sent by the engine, is open in the page.
    assert browser.execute_script("return document.querySelectorAll('#w-files li').length") == 1

    # Pause: the game says so, and the frames stop.
    browser.find_element(By.ID, "w-live-pause").click()
    WebDriverWait(browser, 20).until(lambda _: state(p).startswith("paused"))
    said = game.line()
    assert said.endswith("actor 0 paused by the page"), said
    held = settled(p)
    time.sleep(0.5)
    assert frames_shown(p) == held
    assert browser.find_element(By.ID, "w-live-pause").text == "Resume"

    # What the page shows is the game's own trace of the actor, from the first frame it received.
    shown = p.text("ainb-trace").splitlines()
    assert shown
    first = json.loads(shown[0])["frame"]
    own = [line for line in (game.trace.read_text().splitlines()) if json.loads(line)["frame"] >= first]
    assert shown == own
    # The debugger's cursor followed the stream to its last event.
    assert p.text("ainb-status") == f"frame {json.loads(shown[-1])['frame']} event {len(shown) - 1}"

    # The pause made the report page of the frames received, to the frame the game paused at; its
    # data is `ainb report`'s, run natively on the game's own trace cut to the same frames.
    paused_at = int(re.match(r"frame (\d+): ", said).group(1))
    assert json.loads(shown[-1])["frame"] == paused_at
    data = wait_report(p, 1, paused_at)
    assert drawn(data) == drawn(native_report(native, tmp_path, game.folder, game.name, own, paused_at))

    # Step: one frame of the actor, then paused again, and the report page to that frame (the
    # game's frame: the world went on while the actor was held).
    browser.find_element(By.ID, "w-live-step").click()
    WebDriverWait(browser, 20).until(lambda _: frames_shown(p) == held + 1)
    assert settled(p) == held + 1
    assert state(p).startswith("paused")
    stepped = json.loads(p.text("ainb-trace").splitlines()[-1])["frame"]
    assert stepped > paused_at
    wait_report(p, 2, stepped)

    # Resume: frames arrive again.
    browser.find_element(By.ID, "w-live-pause").click()
    p.wait_count("liveFrames", held + 20, timeout=30)
    said = game.line()
    assert said.endswith("actor 0 resumed by the page"), said
    assert state(p).startswith("live")

    # A run of the file in the page (Run) is shown instead of the stream; Back to live shows every
    # frame received, and the live report page again.
    browser.find_element(By.ID, "w-live-pause").click()
    WebDriverWait(browser, 20).until(lambda _: state(p).startswith("paused"))
    said = game.line()
    assert said.endswith("actor 0 paused by the page")
    paused_at = int(re.match(r"frame (\d+): ", said).group(1))
    settled(p)
    wait_report(p, 3, paused_at)
    for flag in run_flags:
        browser.find_element(By.ID, f"w-option-{flag}").click()
    p.click("w-run")
    ran = p.text("ainb-trace")
    assert p.text("ainb-status").startswith("frame "), (p.text("w-status"), p.text("w-report")[:300])
    computed = report_data(p)
    # A frame of the actor (Step) arrives while the run is shown: kept aside, and the page says so.
    browser.find_element(By.ID, "w-live-step").click()
    WebDriverWait(browser, 20).until(lambda _: browser.find_element(By.ID, "w-live-back").is_displayed())
    assert p.text("ainb-trace") == ran
    # Its report page is made, but the computed run's page stays in the view.
    p.wait_count("liveReports", 4, timeout=60)
    assert report_data(p) == computed
    browser.find_element(By.ID, "w-live-back").click()
    shown = p.text("ainb-trace").splitlines()
    own = [line for line in game.trace.read_text().splitlines() if json.loads(line)["frame"] >= first]
    assert shown == own
    assert p.text("ainb-status") == f"frame {json.loads(shown[-1])['frame']} event {len(shown) - 1}"
    assert not browser.find_element(By.ID, "w-live-back").is_displayed()
    stepped = json.loads(shown[-1])["frame"]
    assert stepped > paused_at
    assert state(p).endswith(f", report to frame {stepped}")
    WebDriverWait(browser, 20).until(lambda _: report_data(p)[1] == stepped)
    native_data = native_report(native, tmp_path, game.folder, game.name, own, stepped)
    assert drawn(report_data(p)[0]) == drawn(native_data)
    return p


def test_the_page_shows_an_engines_actor_live_and_pauses_it(browser, page, game_path, native, tmp_path):
    assert native("convert", "examples/patrol.root.json", tmp_path / "patrol.root.ainb").returncode == 0
    game = Game(tmp_path / "patrol.root.ainb", tmp_path / "trace.jsonl")
    try:
        p = drive(browser, page, game, native, tmp_path)
        # A bad message from a page is answered with what was expected, and the server goes on. A
        # second page replaces the first (one at a time), which says it was disconnected.
        answer = browser.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const ws = new WebSocket(arguments[0]);
            ws.onmessage = ({data}) => {
              const m = JSON.parse(data);
              if (m.hello) ws.send('{"pause": "yes"}');
              else if (m.error) { done(m.error); ws.close(); }
            };
            ws.onerror = () => done('no connection');""", game.url)
        assert answer.startswith('message "{\\"pause\\": \\"yes\\"}": "pause" is not true or false (expected')
        WebDriverWait(browser, 20).until(lambda _: state(p).startswith("disconnected"))
        assert game.p.poll() is None
    finally:
        game.stop()


def test_a_real_file_live(browser, page, corpus, game_path, native, tmp_path):
    game = Game(corpus / BUSY, tmp_path / "trace.jsonl", "--stub-missing-modules")
    try:
        drive(browser, page, game, native, tmp_path, "stub-missing-modules")
    finally:
        game.stop()


def test_a_page_connecting_after_a_hot_reload_opens_the_file_reloaded(browser, page, game_path, native, tmp_path):
    file = tmp_path / "patrol.root.ainb"
    assert native("convert", "examples/patrol.root.json", file).returncode == 0
    game = Game(file, tmp_path / "trace.jsonl", "--watch")
    hello = """
        const done = arguments[arguments.length - 1];
        const ws = new WebSocket(arguments[0]);
        ws.onmessage = ({data}) => { done(JSON.parse(data).hello); ws.close(); };
        ws.onerror = () => done(null);"""
    try:
        Page(browser, page)  # a page of a file:// origin opens the sockets (about:blank's may not)
        first = browser.execute_async_script(hello, game.url)
        assert first == {"actor": 0, "file": file.name, "bytes": base64.b64encode(file.read_bytes()).decode(),
                         "modules": []}
        edited = tmp_path / "edited.ainb"
        assert native("convert", "examples/patrol.edited.root.json", edited).returncode == 0
        assert edited.read_bytes() != file.read_bytes()
        file.write_bytes(edited.read_bytes())
        # Checked every 60 frames (a second): the page connecting after it is sent the new bytes.
        deadline = time.time() + 20
        while (now := browser.execute_async_script(hello, game.url))["bytes"] == first["bytes"]:
            assert time.time() < deadline, "the hello still holds the file as it was"
            time.sleep(0.3)
        assert now == {**first, "bytes": base64.b64encode(edited.read_bytes()).decode()}
    finally:
        game.stop()


def test_a_breakpoint_in_the_stream_pauses_the_actor(browser, page, game_path, native, tmp_path):
    assert native("convert", "examples/patrol.root.json", tmp_path / "patrol.root.ainb").returncode == 0
    game = Game(tmp_path / "patrol.root.ainb", tmp_path / "trace.jsonl")
    try:
        p = open_live(browser, page, game, "&break=update:4")
        WebDriverWait(browser, 30).until(lambda _: state(p).startswith("paused"))
        said = game.line()
        assert said.endswith("actor 0 paused by the page"), said
        assert p.text("w-d-note") == "stopped at update:4"
        hit = json.loads(p.text("w-d-event"))
        assert hit["node"] == 4
        # The pause made the report page of every frame received, which shows the cursor's frame.
        settled(p)
        last = json.loads(p.text("ainb-trace").splitlines()[-1])["frame"]
        wait_report(p, 1, last)
        WebDriverWait(browser, 20).until(lambda _: p.view("return d.getElementById('slider').value") == str(hit["frame"]))
    finally:
        game.stop()


def test_a_module_calling_file_live_and_its_report_page(browser, page, corpus, game_path, native, tmp_path):
    game = Game(corpus / CALLING, tmp_path / "trace.jsonl")
    top = game.name
    try:
        p = open_live(browser, page, game)
        p.wait_count("liveFrames", 30, timeout=30)
        # The hello carried the module the actor's graph loaded: open beside the file, not refused.
        assert p.messages() == {top: "", MODULE: ""}
        first = json.loads(p.text("ainb-trace").splitlines()[0])["frame"]

        # Report, while the actor runs: the frames received so far.
        p.d.find_element(By.ID, "w-live-report").click()
        p.wait_count("liveReports", 1, timeout=60)
        made = int(p.d.execute_script("return document.body.dataset.liveReportFrame"))
        assert made >= first + 29
        assert report_data(p)[1] == made

        # Paused: the report page to the frame the game paused at, the module's graph and timeline
        # in it, equal to `ainb report` of the game's own trace (the module read from disk there).
        p.d.find_element(By.ID, "w-live-pause").click()
        said = game.line()
        assert said.endswith("actor 0 paused by the page"), said
        paused_at = int(re.match(r"frame (\d+): ", said).group(1))
        data = wait_report(p, 2, paused_at)
        own = [line for line in game.trace.read_text().splitlines() if json.loads(line)["frame"] >= first]
        assert p.text("ainb-trace").splitlines() == own
        assert drawn(data) == drawn(native_report(native, tmp_path, game.folder, top, own, paused_at))
        files = data["sides"][0]["files"]
        assert [f["name"] for f in files] == [top, MODULE]
        assert files[0]["nodes"][19]["calls"] == 1  # the root's node 19 calls the module
        assert data["sides"][0]["timeline"]["files"][MODULE]["nodes"]
        # The module's graph, drawn: its file button shows its layout with a shape for each node.
        p.view("d.querySelector('#files button[data-file=\"1\"]').click()")
        layout = "d.querySelector('#sides .layout[data-file=\"1\"]')"
        assert p.view(f"return {layout}.hidden") is False
        ids = [f"{files[1]['ids']}n{n}" for n in range(len(files[1]["nodes"]))]
        assert len(ids) == 24
        assert p.view(f"return {json.dumps(ids)}.filter((id) => {layout}.querySelector(`g.node[id='${{id}}']`)).length") == 24

        # The stream ends: the report page of every frame received.
        p.d.find_element(By.ID, "w-live-pause").click()
        p.wait_count("liveFrames", frames_shown(p) + 10, timeout=30)
        game.stop()
        WebDriverWait(p.d, 20).until(lambda _: state(p).startswith("disconnected"))
        last = json.loads(p.text("ainb-trace").splitlines()[-1])["frame"]
        wait_report(p, 3, last)

        # A report that fails (the file closed in the page) says the command's error, as a command's.
        p.d.execute_script(
            "Array.from(document.querySelectorAll('#w-files li')).find(l => l.dataset.name === arguments[0])"
            ".querySelector('button').click()", top)
        p.d.find_element(By.ID, "w-live-report").click()
        p.wait_count("liveReports", 4, timeout=60)
        assert "failed" in p.d.find_element(By.ID, "w-report").get_attribute("class")
        assert p.text("w-report").startswith("error: ")
        assert p.text("w-status") == f"Report: {p.text('w-report').splitlines()[0]}"
        assert not p.d.find_element(By.ID, "w-view").is_displayed()
    finally:
        game.stop()
