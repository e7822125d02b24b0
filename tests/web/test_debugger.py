# The debugger in the page (docs/debugger.md), driven in headless Chromium as a person would
# (clicks, keys, typed breakpoints, files saved and loaded) and checked against the native CLI's
# trace of the same run: where a breakpoint stops, where each step goes, what is open at the
# cursor, the report page following, a link's breakpoints and forced results.
import html
import json
import re
import time

from page_driver import Page
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

BUSY = "wide/ainb/Lynel_EscapeSmoke.actionseq.root.ainb"  # ~40 events a frame, no modules


def native_events(native, folder, name, *flags):
    done = native("run", name, *flags, "--trace", "-", "--format", "jsonl", cwd=folder)
    assert done.returncode == 0, done.stderr
    return done.stdout, [json.loads(line) for line in done.stdout.splitlines()]


def first(events, after, match):
    return next(i for i in range(after + 1, len(events)) if match(events[i]))


def open_nodes(events, at):
    """The nodes entered and not left after event `at`."""
    open_ = set()
    for e in events[: at + 1]:
        if e["event"] == "enter":
            open_.add((e["file"], e["node"]))
        elif e["event"] == "leave":
            open_.discard((e["file"], e["node"]))
    return open_


def status_of(events, at):
    return f"frame {events[at]['frame']} event {at}"


def add_breakpoint(p, text, start=None):
    p.set_value("w-b-text", text)
    p.set_value("w-b-from", "" if start is None else start)
    p.d.find_element(By.ID, "w-b-add").click()


def key(p, k):
    p.d.find_element(By.TAG_NAME, "body").send_keys(k)


def test_a_breakpoint_set_before_the_run_stops_where_the_clis_trace_says_and_steps_follow_it(
        browser, page, corpus, native):
    path = corpus / BUSY
    trace, events = native_events(native, path.parent, path.name, "--frames", "120", "--stub-missing-modules")
    # A node's first Success from frame 5 on, and its next.
    hit = first(events, -1, lambda e: e["event"] == "update" and e["frame"] >= 5 and e.get("result") == "Success")
    node = events[hit]["node"]
    same = lambda e: e["event"] == "update" and e.get("node") == node and e.get("result") == "Success"  # noqa: E731
    p = Page(browser, page)
    p.open([path])
    p.set_value("w-option-frames", 120)
    browser.find_element(By.ID, "w-option-stub-missing-modules").click()
    browser.execute_script("document.getElementById('w-break-box').open = true")
    add_breakpoint(p, f"update:{node}:Success", start=5)
    assert p.text("w-b-list").startswith(f" update:{node}:Success (frames 5–end)")
    p.click("w-run")
    assert p.text("ainb-trace") == trace
    assert p.text("ainb-status") == status_of(events, hit)
    assert p.text("w-d-note") == f"stopped at update:{node}:Success"
    assert p.text("w-d-event") == trace.splitlines()[hit]
    # What is open at the cursor: the trace's nodes entered and not left.
    assert len(browser.find_elements(By.CSS_SELECTOR, "#w-d-open li")) == len(open_nodes(events, hit))
    # The report page follows the cursor: its frame and the event's node.
    deadline = time.time() + 20
    while p.view("return d.getElementById('slider') ? d.getElementById('slider').value : null") != str(
            events[hit]["frame"]) and time.time() < deadline:
        time.sleep(0.05)
    assert p.view("return d.getElementById('slider').value") == str(events[hit]["frame"])
    # Continue, then keys: the next event, the next frame, back.
    browser.find_element(By.ID, "w-d-continue").click()
    again = first(events, hit, lambda e: same(e) and e["frame"] >= 5)
    assert p.text("ainb-status") == status_of(events, again)
    key(p, ".")
    assert p.text("ainb-status") == status_of(events, again + 1)
    key(p, "]")
    next_frame = first(events, again + 1, lambda e: e["frame"] > events[again + 1]["frame"])
    assert p.text("ainb-status") == status_of(events, next_frame)
    key(p, ",")
    assert p.text("ainb-status") == status_of(events, next_frame - 1)
    key(p, "[")
    start = first(events, -1, lambda e: e["frame"] == events[next_frame - 1]["frame"])
    assert p.text("ainb-status") == status_of(events, start)
    assert p.view("return d.getElementById('slider').value") == str(events[start]["frame"])
    # Run to a frame inside the run, then past it: the run again with that many frames.
    p.set_value("w-d-to", 40)
    browser.find_element(By.ID, "w-d-go").click()
    assert p.text("ainb-status") == status_of(events, first(events, -1, lambda e: e["frame"] >= 40))
    longer, longer_events = native_events(native, path.parent, path.name, "--frames", "200", "--stub-missing-modules")
    p.set_value("w-d-to", 200)
    p.click("w-d-go")
    assert browser.find_element(By.ID, "w-option-frames").get_attribute("value") == "200"
    assert p.text("ainb-trace") == longer
    assert p.text("ainb-status") == status_of(longer_events, first(longer_events, -1, lambda e: e["frame"] >= 200))


def test_blackboard_and_command_breakpoints_saved_loaded_and_toggled(browser, page, native, tmp_path, downloads):
    assert native("convert", "examples/patrol.root.json", tmp_path / "patrol.root.ainb").returncode == 0
    (tmp_path / "patrol.scenario.json").write_text(open("examples/patrol.scenario.json").read())
    trace, events = native_events(native, tmp_path, "patrol.root.ainb", "--scenario", "patrol.scenario.json")
    p = Page(browser, page)
    p.open([tmp_path / "patrol.root.ainb"])
    p.set_value("w-scenario", (tmp_path / "patrol.scenario.json").read_text())
    browser.execute_script("document.getElementById('w-break-box').open = true")
    # A bad one is refused with its reason.
    add_breakpoint(p, "stop:3")
    assert p.text("w-b-error") == ('breakpoint "stop:3": unknown kind "stop" (expected one of: enter, leave, '
                                   'update, written, equal, command, alert)')
    add_breakpoint(p, "equal:IsEnemyNear:true")
    add_breakpoint(p, "command:Alert")
    assert p.text("w-b-error") == ""
    p.click("w-run")
    assert p.text("ainb-trace") == trace
    written = first(events, -1, lambda e: e["event"] == "blackboard" and e["detail"] == "IsEnemyNear=true")
    assert p.text("ainb-status") == status_of(events, written) == "frame 6 event 33"
    assert [r.text for r in browser.find_elements(By.CSS_SELECTOR, "#w-d-blackboard tr")] == [
        "IsEnemyNear true frame 6"]
    browser.find_element(By.ID, "w-d-continue").click()
    assert p.text("ainb-status") == "frame 10 event 46"
    browser.find_element(By.ID, "w-d-continue").click()
    assert p.text("ainb-status") == status_of(events, len(events) - 1)
    assert p.text("w-d-note") == "the run's end: no breakpoint after this"
    # Saved as a file, loaded into a new page, the first switched off: the run stops at the second.
    saved = downloads / "breakpoints.json"
    saved.unlink(missing_ok=True)
    browser.find_element(By.ID, "w-b-save").click()
    deadline = time.time() + 10
    while not saved.exists() and time.time() < deadline:
        time.sleep(0.05)
    assert json.loads(saved.read_text()) == {"breakpoints": [
        {"kind": "equal", "name": "IsEnemyNear", "value": "true"}, {"kind": "command", "name": "Alert"}]}
    p = Page(browser, page)
    p.open([tmp_path / "patrol.root.ainb"])
    p.set_value("w-scenario", (tmp_path / "patrol.scenario.json").read_text())
    browser.execute_script("document.getElementById('w-break-box').open = true")
    browser.find_element(By.ID, "w-b-load").send_keys(str(saved))
    deadline = time.time() + 10
    while p.text("w-b-count") != "(2)" and time.time() < deadline:
        time.sleep(0.05)
    browser.find_element(By.CSS_SELECTOR, "#w-b-list li input").click()
    p.click("w-run")
    assert p.text("ainb-status") == "frame 10 event 46"
    assert p.text("w-d-note") == "stopped at command:Alert"


def test_a_link_stops_at_a_breakpoint_forces_a_result_and_the_export_replays_it(dump_dom, page, corpus, native,
                                                                                tmp_path):
    path = corpus / BUSY
    flags = ["--frames", "120", "--stub-missing-modules"]
    _, events = native_events(native, path.parent, path.name, *flags)
    link = f"{page.as_uri()}#open={path.as_uri()}&frames=120&stub-missing-modules"
    read = lambda dom, tag, id_: html.unescape(  # noqa: E731
        re.search(rf'<{tag} id="{id_}"[^>]*>(.*?)</{tag}>', dom, re.S).group(1))
    # break=enter:N: the first Enter of node N after frame 0.
    node = next(e["node"] for e in events if e["event"] == "enter" and e["frame"] > 0)
    dom = dump_dom(f"{link}&break=enter:{node}&run")
    assert read(dom, "output", "ainb-status") == status_of(
        events, first(events, -1, lambda e: e["event"] == "enter" and e["node"] == node))
    # at=F: the first event of frame F.
    dom = dump_dom(f"{link}&at=50&run")
    assert read(dom, "output", "ainb-status") == status_of(events, first(events, -1, lambda e: e["frame"] >= 50))
    # force=N:Failure:F: a node that runs for long forced to fail from frame 30; the page's scenario
    # holds it, and `ainb run --scenario` with that scenario gives the page's trace.
    running = [e["node"] for e in events if e["event"] == "update" and e["frame"] == 30 and e["result"] == "Running"]
    dom = dump_dom(f"{link}&force={running[0]}:Failure:30&run")
    scenario = json.loads(read(dom, "textarea", "w-scenario"))
    assert scenario == {"force": [{"node": running[0], "result": "Failure", "frame": 30}]}
    (tmp_path / "exported.json").write_text(json.dumps(scenario))
    forced = native("run", path, *flags, "--scenario", tmp_path / "exported.json", "--trace", "-")
    assert forced.returncode == 0, forced.stderr
    page_trace = read(dom, "pre", "ainb-trace")
    assert page_trace == forced.stdout
    assert [e for e in map(json.loads, page_trace.splitlines())
            if e["event"] == "update" and e["node"] == running[0] and e["frame"] == 30] == [
        {**next(e for e in events if e["event"] == "update" and e["node"] == running[0] and e["frame"] == 30),
         "result": "Failure"}]
    # A bad breakpoint or force in a link is said in the status, and the run still runs.
    dom = dump_dom(f"{link}&break=enter:x&force=3:Done&run")
    assert read(dom, "p", "w-status") == (
        f'Ran {path.name}. In the link: breakpoint "enter:x": "x" is not a node number (N or FILE#N); force "3:Done": expected '
        'N:RESULT[:FRAME[:FRAMES]] (RESULT: Running, Success or Failure)')


def test_the_slider_and_play_move_the_cursor(browser, page, corpus, native):
    path = corpus / BUSY
    _, events = native_events(native, path.parent, path.name, "--frames", "30", "--stub-missing-modules")
    p = Page(browser, page)
    p.open([path])
    p.set_value("w-option-frames", 30)
    browser.find_element(By.ID, "w-option-stub-missing-modules").click()
    browser.find_element(By.ID, "w-draw").click()
    p.click("w-run")
    assert p.text("ainb-status") == status_of(events, len(events) - 1)
    assert p.text("w-d-note") == "the run's end"
    p.set_value("w-d-slider", 100)
    assert p.text("ainb-status") == status_of(events, 100)
    browser.find_element(By.ID, "w-d-to").send_keys(Keys.CONTROL, "a")
    p.set_value("w-d-to", 0)
    browser.find_element(By.ID, "w-d-go").click()
    assert p.text("ainb-status") == "frame 0 event 0"
    browser.find_element(By.ID, "w-d-play").click()
    assert p.text("w-d-play") == "Pause"
    deadline = time.time() + 20
    while p.text("w-d-play") != "Play" and time.time() < deadline:
        time.sleep(0.1)
    assert p.text("ainb-status") == status_of(events, len(events) - 1)
    assert p.text("w-d-note") == "the run's end"


def scenario_trace(native, folder, name, scenario, tmp_path, *flags):
    path = tmp_path / f"scenario-{abs(hash(json.dumps(scenario, sort_keys=True)))}.json"
    path.write_text(json.dumps(scenario))
    return native_events(native, folder, name, *flags, "--scenario", path)


def first_difference(a: str, b: str):
    x, y = a.split("\n"), b.split("\n")
    i = next((i for i in range(min(len(x), len(y))) if x[i] != y[i]), min(len(x), len(y)))
    return i, json.loads(y[i] if i < len(y) and y[i] else x[i])["frame"]


def test_what_if_a_forced_result_and_a_blackboard_value_make_branches_compared_with_their_parent(
        browser, page, corpus, native, tmp_path):
    path = corpus / BUSY
    flags = ("--frames", "120", "--stub-missing-modules")
    trace, events = native_events(native, path.parent, path.name, *flags)
    running = next(e["node"] for e in events
                   if e["event"] == "update" and e["frame"] == 30 and e["result"] == "Running")
    p = Page(browser, page)
    p.open([path])
    p.set_value("w-option-frames", 120)
    browser.find_element(By.ID, "w-option-stub-missing-modules").click()
    browser.find_element(By.ID, "w-draw").click()
    p.click("w-run")
    p.set_value("w-d-to", 30)
    browser.find_element(By.ID, "w-d-go").click()
    # Force a node running at frame 30 to fail from there: a branch, the CLI's run of its scenario.
    p.set_value("w-w-node", running)
    p.click("w-w-force")
    forced = {"force": [{"node": running, "result": "Failure", "frame": 30}]}
    assert json.loads(browser.find_element(By.ID, "w-scenario").get_attribute("value")) == forced
    branch_trace, branch_events = scenario_trace(native, path.parent, path.name, forced, tmp_path, *flags)
    assert p.text("ainb-trace") == branch_trace
    event, frame = first_difference(trace, branch_trace)
    assert frame == 30
    assert p.text("w-br-diff") == f"first difference from run 1: frame {frame} event {event}"
    assert p.text("ainb-status") == f"frame {frame} event {event}"
    assert p.text("w-d-note") == "the first difference"
    names = lambda: [o.text for o in browser.find_elements(By.CSS_SELECTOR, "#w-br-list option")]  # noqa: E731
    assert names() == ["run 1", f"#{running} Failure from frame 30"]
    # Renamed; the parent shown again (its trace, its empty scenario); the branch discarded.
    p.set_value("w-br-name", "fails at 30")
    browser.execute_script("document.getElementById('w-br-name').dispatchEvent(new Event('change'))")
    assert names() == ["run 1", "fails at 30"]
    browser.execute_script("const s = document.getElementById('w-br-list'); s.value = s.options[0].value;"
                           "s.dispatchEvent(new Event('change'))")
    assert p.text("ainb-trace") == trace
    assert browser.find_element(By.ID, "w-scenario").get_attribute("value") == ""
    assert p.text("w-br-diff") == ""
    browser.execute_script("const s = document.getElementById('w-br-list'); s.value = s.options[1].value;"
                           "s.dispatchEvent(new Event('change'))")
    assert p.text("ainb-trace") == branch_trace
    browser.find_element(By.ID, "w-br-discard").click()
    assert names() == ["run 1"]
    assert p.text("ainb-trace") == trace


def test_what_if_a_blackboard_value_keeps_the_scenario_it_branches_from(browser, page, native, tmp_path):
    assert native("convert", "examples/patrol.root.json", tmp_path / "patrol.root.ainb").returncode == 0
    scenario = json.loads(open("examples/patrol.scenario.json").read())
    trace, _ = scenario_trace(native, tmp_path, "patrol.root.ainb", scenario, tmp_path)
    p = Page(browser, page)
    p.open([tmp_path / "patrol.root.ainb"])
    p.set_value("w-scenario", json.dumps(scenario))
    p.click("w-run")
    assert p.text("ainb-trace") == trace
    p.set_value("w-d-to", 2)
    browser.find_element(By.ID, "w-d-go").click()
    p.set_value("w-w-name", "IsEnemyNear")
    p.set_value("w-w-value", "true")
    p.click("w-w-set")
    branched = {**scenario, "blackboard": scenario["blackboard"] + [{"name": "IsEnemyNear", "value": True,
                                                                      "frame": 2}]}
    expected, _ = scenario_trace(native, tmp_path, "patrol.root.ainb", branched, tmp_path)
    assert json.loads(browser.find_element(By.ID, "w-scenario").get_attribute("value")) == branched
    assert p.text("ainb-trace") == expected
    event, frame = first_difference(trace, expected)
    assert p.text("w-br-diff") == f"first difference from run 1: frame {frame} event {event}"
    # Not a node: said, and nothing runs.
    p.set_value("w-w-node", "x")
    browser.find_element(By.ID, "w-w-force").click()
    assert p.text("w-w-error") == 'force: "x" is not a node (N or FILE#N)'
