# Live from an engine (docs/debugger.md): `ainb-game --serve 0` on the loopback address streams one
# actor's events to the page (#live=ws://…), driven in headless Chromium. What the page shows is
# checked against the game's own trace of that actor (--trace), and its Pause, Resume and Step
# against the frames that arrive and what the game says on its stdout.
import json
import os
import pathlib
import queue
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


class Game:
    """ainb-game --serve 0 in the background, its stdout read line by line."""

    def __init__(self, file, trace, *flags):
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


def open_live(browser, page, game, extra=""):
    # A link that differs from the last one in its fragment only would not load the page again.
    browser.get("about:blank")
    return Page(browser, page, f"#live={game.url}{extra}")


def drive(browser, page, game, *run_flags):
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

    # Step: one frame of the actor, then paused again.
    browser.find_element(By.ID, "w-live-step").click()
    WebDriverWait(browser, 20).until(lambda _: frames_shown(p) == held + 1)
    assert settled(p) == held + 1
    assert state(p).startswith("paused")

    # Resume: frames arrive again.
    browser.find_element(By.ID, "w-live-pause").click()
    p.wait_count("liveFrames", held + 20, timeout=30)
    said = game.line()
    assert said.endswith("actor 0 resumed by the page"), said
    assert state(p).startswith("live")

    # A run of the file in the page (Run) is shown instead of the stream; Back to live shows every
    # frame received.
    browser.find_element(By.ID, "w-live-pause").click()
    WebDriverWait(browser, 20).until(lambda _: state(p).startswith("paused"))
    assert game.line().endswith("actor 0 paused by the page")
    settled(p)
    for flag in run_flags:
        browser.find_element(By.ID, f"w-option-{flag}").click()
    p.click("w-run")
    ran = p.text("ainb-trace")
    assert p.text("ainb-status").startswith("frame "), (p.text("w-status"), p.text("w-report")[:300])
    # A frame of the actor (Step) arrives while the run is shown: kept aside, and the page says so.
    browser.find_element(By.ID, "w-live-step").click()
    WebDriverWait(browser, 20).until(lambda _: browser.find_element(By.ID, "w-live-back").is_displayed())
    assert p.text("ainb-trace") == ran
    browser.find_element(By.ID, "w-live-back").click()
    shown = p.text("ainb-trace").splitlines()
    own = [line for line in game.trace.read_text().splitlines() if json.loads(line)["frame"] >= first]
    assert shown == own
    assert p.text("ainb-status") == f"frame {json.loads(shown[-1])['frame']} event {len(shown) - 1}"
    assert not browser.find_element(By.ID, "w-live-back").is_displayed()
    return p


def test_the_page_shows_an_engines_actor_live_and_pauses_it(browser, page, game_path, native, tmp_path):
    assert native("convert", "examples/patrol.root.json", tmp_path / "patrol.root.ainb").returncode == 0
    game = Game(tmp_path / "patrol.root.ainb", tmp_path / "trace.jsonl")
    game.trace = tmp_path / "trace.jsonl"
    try:
        p = drive(browser, page, game)
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


def test_a_real_file_live(browser, page, corpus, game_path, tmp_path):
    game = Game(corpus / BUSY, tmp_path / "trace.jsonl", "--stub-missing-modules")
    game.trace = tmp_path / "trace.jsonl"
    try:
        drive(browser, page, game, "stub-missing-modules")
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
        assert json.loads(p.text("w-d-event"))["node"] == 4
    finally:
        game.stop()
