# The page's what-if controls and its Link (docs/web.md, "The debugger"), driven in headless Chromium
# as a person would: a stub's outputs set from the cursor's frame and a class's result read from the
# blackboard, each a branch whose trace is the native CLI's run of the exported scenario; and a link
# made by the Link control that, opened fresh, shows the same session; a branch beside its parent
# (regress of the two scenarios). On a real file:
# SoulSageWeapon.root.ainb's BoolSelector #1 reads the output Bool of its query #0 (a stub), and its
# ExecuteGenericDummyAction #2 runs below it; with --restart the command starts at every frame, so
# both are updated at each.
import html
import json
import re
import time
import urllib.parse

from page_driver import Page
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

FILE = "wide/ainb/SoulSageWeapon.root.ainb"
FLAGS = ("--frames", "30", "--restart")


def cli_trace(native, path, scenario, tmp_path):
    """The native CLI's JSON-lines trace of FILE under `scenario`, as a scenario file."""
    scenario_file = tmp_path / "cli-scenario.json"
    scenario_file.write_text(json.dumps(scenario))
    done = native("run", path.name, *FLAGS, "--scenario", scenario_file, "--trace", "-", "--format", "jsonl",
                  cwd=path.parent)
    assert done.returncode == 0, done.stderr
    return done.stdout


def plain_trace(native, path):
    done = native("run", path.name, *FLAGS, "--trace", "-", "--format", "jsonl", cwd=path.parent)
    assert done.returncode == 0, done.stderr
    return done.stdout


def first_difference(a: str, b: str):
    x, y = a.split("\n"), b.split("\n")
    i = next((i for i in range(min(len(x), len(y))) if x[i] != y[i]), min(len(x), len(y)))
    return i, json.loads(y[i] if i < len(y) and y[i] else x[i])["frame"]


def start_run(browser, page, path):
    """The page with FILE open and run as FLAGS say, the report page off (not looked at here)."""
    p = Page(browser, page)
    p.open([path])
    p.set_value("w-option-frames", 30)
    browser.find_element(By.ID, "w-option-restart").click()
    browser.find_element(By.ID, "w-draw").click()
    p.click("w-run")
    return p


def to_frame(p, frame):
    p.set_value("w-d-to", frame)
    p.d.find_element(By.ID, "w-d-go").click()


def exported(p, downloads):
    """The scenario the Export button saves."""
    saved = downloads / "scenario.json"
    saved.unlink(missing_ok=True)
    p.d.execute_script("document.getElementById('w-scenario-box').open = true")
    p.d.find_element(By.ID, "w-scenario-export").click()
    deadline = time.time() + 10
    while not saved.exists() and time.time() < deadline:
        time.sleep(0.05)
    return json.loads(saved.read_text())


def branch_names(browser):
    return [o.text for o in browser.find_elements(By.CSS_SELECTOR, "#w-br-list option")]


def shown_branch(browser):
    return Select(browser.find_element(By.ID, "w-br-list")).first_selected_option.text


def test_a_stubs_outputs_from_the_cursors_frame_make_a_branch_the_cli_replays(
        browser, page, corpus, native, tmp_path, downloads):
    path = corpus / FILE
    trace = plain_trace(native, path)
    p = start_run(browser, page, path)
    assert p.text("ainb-trace") == trace
    to_frame(p, 4)
    # Not a user node (the BoolSelector): said, and no branch.
    p.set_value("w-w-out-node", 1)
    p.set_value("w-w-out-name", "Bool")
    p.set_value("w-w-out-value", "true")
    browser.find_element(By.ID, "w-w-outputs").click()
    assert p.text("w-w-error") == "outputs: #1 is no user node of this run (its class is read from the trace)"
    assert branch_names(browser) == ["run 1"]
    # The query #0 says true from frame 4: an entry of the node from there on (a stub before).
    p.set_value("w-w-out-node", 0)
    p.click("w-w-outputs")
    assert p.text("w-w-error") == ""
    scenario = {"at": [{"node": 0, "class": "QueryEquipmentIsOwnerSage", "from": 4, "outputs": {"Bool": True}}]}
    assert exported(p, downloads) == scenario
    branch = cli_trace(native, path, scenario, tmp_path)
    assert p.text("ainb-trace") == branch
    event, frame = first_difference(trace, branch)
    assert frame == 4  # before the cursor's frame, the parent's run
    assert branch_names(browser) == ["run 1", "#0 Bool = true from frame 4"]
    assert p.text("w-br-diff") == f"first difference from run 1: frame 4 event {event}"
    assert p.text("ainb-status") == f"frame 4 event {event}"
    # The True plug (#4 and what is below it) runs only in the branch.
    assert '"node":4,' not in trace and '"node":4,' in branch


def test_a_result_read_from_the_blackboard_makes_a_branch_the_cli_replays_and_follows_the_entry(
        browser, page, corpus, native, tmp_path, downloads):
    path = corpus / FILE
    trace = plain_trace(native, path)
    p = start_run(browser, page, path)
    to_frame(p, 3)
    # From frame 3, the class fails while EquipmentUserSageType is 0 (before, it is the stub it was).
    p.set_value("w-w-rule-of", "ExecuteGenericDummyAction")
    p.set_value("w-w-if", "EquipmentUserSageType")
    Select(browser.find_element(By.ID, "w-w-then")).select_by_visible_text("Success")
    Select(browser.find_element(By.ID, "w-w-else")).select_by_visible_text("Failure")
    p.click("w-w-rule")
    rule = {"nodes": {"ExecuteGenericDummyAction": {"from": 3, "result": {"if": "EquipmentUserSageType",
                                                                          "then": "Success", "else": "Failure"}}}}
    assert exported(p, downloads) == rule
    ruled = cli_trace(native, path, rule, tmp_path)
    assert p.text("ainb-trace") == ruled
    event, frame = first_difference(trace, ruled)
    assert frame == 3
    assert p.text("w-br-diff") == f"first difference from run 1: frame 3 event {event}"
    name = "ExecuteGenericDummyAction: if EquipmentUserSageType then Success else Failure from frame 3"
    assert branch_names(browser) == ["run 1", name]
    assert {(e["frame"] >= 3, e["result"]) for e in map(json.loads, ruled.splitlines())
            if e["event"] == "update" and e["node"] == 2} == {(False, "Success"), (True, "Failure")}
    # The entry set to 1 from frame 10 on that branch: the class succeeds again from there.
    to_frame(p, 10)
    p.set_value("w-w-name", "EquipmentUserSageType")
    p.set_value("w-w-value", "1")
    p.click("w-w-set")
    both = {**rule, "blackboard": [{"name": "EquipmentUserSageType", "value": 1, "frame": 10}]}
    assert exported(p, downloads) == both
    set_trace = cli_trace(native, path, both, tmp_path)
    assert p.text("ainb-trace") == set_trace
    results = {e["frame"]: e["result"] for e in map(json.loads, set_trace.splitlines())
               if e["event"] == "update" and e["node"] == 2}
    assert {f: r for f, r in results.items() if 3 <= f < 10} == {f: "Failure" for f in results if 3 <= f < 10}
    assert {f: r for f, r in results.items() if f >= 10} == {f: "Success" for f in results if f >= 10}
    event, frame = first_difference(ruled, set_trace)
    assert frame == 10
    assert p.text("w-br-diff") == f"first difference from {name}: frame 10 event {event}"
    # A node instead of its class, from the cursor's frame (10): an `at` entry with the class the trace
    # names, a copy of the class's entry with the new rule.
    p.set_value("w-w-rule-of", "2")
    p.set_value("w-w-if", "EquipmentUserSageType")
    Select(browser.find_element(By.ID, "w-w-else")).select_by_visible_text("Running")
    p.click("w-w-rule")
    node_rule = {**both, "at": [{"node": 2, "class": "ExecuteGenericDummyAction", "from": 10,
                                 "result": {"if": "EquipmentUserSageType", "then": "Success", "else": "Running"}}]}
    assert exported(p, downloads) == node_rule
    assert p.text("ainb-trace") == cli_trace(native, path, node_rule, tmp_path)
    assert branch_names(browser)[-1] == "#2: if EquipmentUserSageType then Success else Running from frame 10"


def test_a_link_made_by_the_link_control_opens_the_same_session(browser, page, corpus, native, tmp_path, dump_dom):
    path = corpus / FILE
    browser.get("about:blank")  # else a page left open by a test would take the link as a new fragment
    p = Page(browser, page, f"#open={path.as_uri()}&frames=30&restart&run")
    browser.find_element(By.ID, "w-draw").click()
    assert p.text("ainb-trace") == plain_trace(native, path)
    # Two branches, the second made from the first, and a breakpoint.
    to_frame(p, 4)
    p.set_value("w-w-out-node", 0)
    p.set_value("w-w-out-name", "Bool")
    p.set_value("w-w-out-value", "true")
    p.click("w-w-outputs")
    to_frame(p, 6)
    p.set_value("w-w-rule-of", "ExecuteASTryPlay")
    p.set_value("w-w-if", "EquipmentUserSageType")
    p.click("w-w-rule")
    browser.execute_script("document.getElementById('w-break-box').open = true")
    p.set_value("w-b-text", "update:3")
    browser.find_element(By.ID, "w-b-add").click()
    # A second, limited to frames and switched off: the link keeps both.
    p.set_value("w-b-text", "command")
    p.set_value("w-b-from", 2)
    p.set_value("w-b-to", 9)
    browser.find_element(By.ID, "w-b-add").click()
    browser.find_elements(By.CSS_SELECTOR, "#w-b-list input[type=checkbox]")[1].click()
    # The first branch shown, the cursor moved by keys to an event inside a frame.
    browser.execute_script("const s = document.getElementById('w-br-list'); s.value = s.options[1].value;"
                           "s.dispatchEvent(new Event('change'))")
    to_frame(p, 7)
    for _ in range(3):
        browser.find_element(By.TAG_NAME, "body").send_keys(".")
    session = {key: p.text(key) for key in ("ainb-status", "w-br-diff", "ainb-trace", "w-b-list")}
    names = branch_names(browser)
    assert names == ["run 1", "#0 Bool = true from frame 4",
                     "ExecuteASTryPlay: if EquipmentUserSageType then Success else Failure from frame 6"]
    assert shown_branch(browser) == names[1]
    scenario = browser.find_element(By.ID, "w-scenario").get_attribute("value")
    browser.find_element(By.ID, "w-link").click()
    link = browser.find_element(By.ID, "w-link-url").get_attribute("value")
    assert browser.current_url == link
    assert p.text("w-status") == "The link is in the address bar and beside the Link button."
    base, fragment = link.split("#", 1)
    assert base == page.as_uri()
    event = int(session["ainb-status"].split()[-1])
    outputs = {"kind": "outputs", "node": 0, "class": "QueryEquipmentIsOwnerSage", "outputs": {"Bool": True},
               "frame": 4}
    rule = {"kind": "result", "class": "ExecuteASTryPlay", "if": "EquipmentUserSageType", "then": "Success",
            "else": "Failure", "frame": 6}
    params = urllib.parse.parse_qsl(fragment, keep_blank_values=True)
    assert [(k, json.loads(v) if k == "branch" else v) for k, v in params] == [
        ("open", path.as_uri()), ("frames", "30"), ("restart", ""), ("break", "update:3"),
        ("break", "off,frames=2-9,command"),
        ("branch", {"name": "run 1"}),
        ("branch", {"name": names[1], "from": 1, "intervention": outputs}),
        ("branch", {"name": names[2], "from": 2, "intervention": rule}),
        ("shown", "2"), ("event", str(event)), ("run", "")]
    # Opened fresh (the same page with another fragment would not load again).
    browser.get("about:blank")
    again = Page(browser, page, f"#{fragment}")
    assert {key: again.text(key) for key in session} == session
    assert session["w-b-list"] == " update:3 × command (frames 2–9) ×"
    assert [c.is_selected() for c in browser.find_elements(By.CSS_SELECTOR, "#w-b-list input[type=checkbox]")] == [
        True, False]
    assert branch_names(browser) == names
    assert shown_branch(browser) == names[1]
    assert browser.find_element(By.ID, "w-scenario").get_attribute("value") == scenario
    assert again.text("w-status") == f"Ran {path.name}."
    # Its branches are the CLI's runs of their scenarios: the third shown.
    browser.execute_script("const s = document.getElementById('w-br-list'); s.value = s.options[2].value;"
                           "s.dispatchEvent(new Event('change'))")
    third = json.loads(browser.find_element(By.ID, "w-scenario").get_attribute("value"))
    assert third["nodes"] == {"ExecuteASTryPlay": {"from": 6, "result": {"if": "EquipmentUserSageType",
                                                                         "then": "Success", "else": "Failure"}}}
    assert again.text("ainb-trace") == cli_trace(native, path, third, tmp_path)
    # Before the load event too (the URL mode's rule), which `chromium --dump-dom` prints.
    dom = dump_dom(link)
    assert html.unescape(re.search(r'<output id="ainb-status"[^>]*>(.*?)</output>', dom).group(1)) == session["ainb-status"]
    assert html.unescape(re.search(r'<pre id="ainb-trace"[^>]*>(.*?)</pre>', dom, re.S).group(1)) == session["ainb-trace"]


def test_a_link_says_the_files_it_cannot_hold(browser, page, corpus):
    path = corpus / FILE
    p = Page(browser, page)
    p.open([path])
    browser.find_element(By.ID, "w-link").click()
    assert p.text("w-status") == (
        f"The link holds no files opened from this computer (a link opens files by URL): {path.name}.")
    assert browser.find_element(By.ID, "w-link-url").get_attribute("value") == f"{page.as_uri()}#"


def test_a_link_keeps_a_branch_whose_parent_was_discarded_and_a_run_with_other_options(
        browser, page, corpus, native, tmp_path):
    path = corpus / FILE
    browser.get("about:blank")
    p = Page(browser, page, f"#open={path.as_uri()}&frames=30&restart&run")
    browser.find_element(By.ID, "w-draw").click()
    # run 1 -> set from frame 3 -> forced from frame 5; the middle one discarded: the last is then a
    # branch of run 1 whose scenario no intervention on run 1's makes.
    to_frame(p, 3)
    p.set_value("w-w-name", "EquipmentUserSageType")
    p.set_value("w-w-value", "2")
    p.click("w-w-set")
    to_frame(p, 5)
    p.set_value("w-w-node", 2)
    p.click("w-w-force")
    browser.execute_script("const s = document.getElementById('w-br-list'); s.value = s.options[1].value;"
                           "s.dispatchEvent(new Event('change'))")
    browser.find_element(By.ID, "w-br-discard").click()
    # Run to frame 40, past the run's end: a run of its own with 40 frames, the option now 40.
    p.set_value("w-d-to", 40)
    p.click("w-d-go")
    names = branch_names(browser)
    assert names == ["run 1", "#2 Failure from frame 5", "run 4"]
    session = {key: p.text(key) for key in ("ainb-status", "w-br-diff", "ainb-trace")}
    browser.find_element(By.ID, "w-link").click()
    fragment = browser.find_element(By.ID, "w-link-url").get_attribute("value").split("#", 1)[1]
    forced = {"blackboard": [{"name": "EquipmentUserSageType", "value": 2, "frame": 3}],
              "force": [{"node": 2, "result": "Failure", "frame": 5}]}
    branches = [json.loads(v) for k, v in urllib.parse.parse_qsl(fragment, keep_blank_values=True) if k == "branch"]
    assert branches == [
        {"name": "run 1", "options": {"frames": 30, "restart": True}},
        {"name": "#2 Failure from frame 5", "from": 1, "scenario": forced},
        {"name": "run 4"}]
    assert ("frames", "40") in urllib.parse.parse_qsl(fragment)
    browser.get("about:blank")
    again = Page(browser, page, f"#{fragment}")
    assert {key: again.text(key) for key in session} == session
    assert branch_names(browser) == names
    assert shown_branch(browser) == "run 4"
    # The first two as the CLI runs them: 30 frames, the second with its scenario.
    browser.execute_script("const s = document.getElementById('w-br-list'); s.value = s.options[0].value;"
                           "s.dispatchEvent(new Event('change'))")
    assert again.text("ainb-trace") == plain_trace(native, path)
    browser.execute_script("const s = document.getElementById('w-br-list'); s.value = s.options[1].value;"
                           "s.dispatchEvent(new Event('change'))")
    assert again.text("ainb-trace") == cli_trace(native, path, forced, tmp_path)


def test_a_branch_beside_its_parent_is_regress_of_their_two_scenarios(browser, page, corpus, native, tmp_path,
                                                                     downloads):
    path = corpus / FILE
    p = start_run(browser, page, path)
    assert p.d.find_element(By.ID, "w-br-beside").get_attribute("disabled") == "true"  # no parent yet
    to_frame(p, 4)
    p.set_value("w-w-out-node", 0)
    p.set_value("w-w-out-name", "Bool")
    p.set_value("w-w-out-value", "true")
    p.click("w-w-outputs")
    name = "#0 Bool = true from frame 4"
    assert branch_names(browser) == ["run 1", name]
    scenario = exported(p, downloads)
    trace, status = p.text("ainb-trace"), p.text("ainb-status")
    p.click("w-br-beside")
    assert p.text("w-status") == f"Compare: {name} beside run 1."
    # The CLI's regress of the file under each branch's scenario, the files named as the page names them.
    (tmp_path / "run 1.json").write_text("{}")
    (tmp_path / f"{name}.json").write_text(json.dumps(scenario))
    expected = native("regress", path, path, *FLAGS, "--scenario", "run 1.json", "--edited-scenario", f"{name}.json",
                      cwd=tmp_path)
    assert expected.returncode == 1, expected.stderr
    assert p.text("w-report").replace("/scratch/", "") == expected.stdout
    assert f"the run of run 1.json does" in expected.stdout
    # Both graphs, labelled by their scenarios, the first difference marked on each and on the timeline.
    assert p.view("return Array.from(d.querySelectorAll('#sides .side-label'), (e) => e.textContent)") == [
        f"run 1.json: {path.name}", f"{name}.json: {path.name}"]
    marked = p.view("return Array.from(d.querySelectorAll('#sides .side'), "
                    "(s) => s.querySelectorAll('.first-difference').length)")
    assert len(marked) == 2 and all(n >= 1 for n in marked)
    assert p.view("return d.querySelectorAll('#timeline .first-difference').length") == 1
    # The debugger stays on the branch.
    assert p.text("ainb-trace") == trace
    assert p.text("ainb-status") == status
