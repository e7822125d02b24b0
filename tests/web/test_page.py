# The page, build/wasm/web/ainb.html: one file under 5 MB that works from file://; every public
# real file run in it (through its worker, as a click on Run) gives the native CLI's trace; bad
# input shows the CLI's message beside the file's name; regress, explore (progress, cancel) and
# the scenario editor; the URL mode read by `chromium --dump-dom`.
import concurrent.futures
import hashlib
import html
import json
import pathlib
import re
import time

import pytest
from page_driver import MESSAGE_OF, Page, first_error, shown, trace_file
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

FOLDERS = ["ainb", "bulk/ainb", "wide/ainb"]


def test_the_page_is_one_file_under_5_mb(page):
    text = page.read_text()
    assert page.stat().st_size < 5_000_000
    # Nothing is fetched: no script, style or image from elsewhere.
    assert not re.search(r'<(script|link|img|iframe)[^>]*\s(src|href)=', text)


# Clicks Run on each file in turn, as a person would (choose the file, click, wait for the command
# to finish), from one script in the page: a WebDriver round trip per step made this test most of
# the suite's time. Each file's trace comes back as its SHA-256 and length, its message in full.
RUN_EACH = MESSAGE_OF + """
const [names, done] = [arguments[0], arguments[arguments.length - 1]];
const $ = (id) => document.getElementById(id);
const finished = () => Number(document.body.dataset.finished || 0);
const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');
(async () => {
  const seen = {};
  for (const name of names) {
    $('w-file').value = name;
    $('w-file').dispatchEvent(new Event('change'));
    const before = finished();
    $('w-run').click();
    while (finished() === before) await new Promise((resolve) => setTimeout(resolve, 2));
    const trace = new TextEncoder().encode($('ainb-trace').textContent);
    seen[name] = { sha256: hex(await crypto.subtle.digest('SHA-256', trace)), bytes: trace.length,
                   message: messageOf(name) };
  }
  return seen;
})().then(done, (e) => done({ error: String(e) }));
"""


@pytest.mark.parametrize("folder", FOLDERS)
def test_every_real_file_runs_in_the_page_with_the_clis_trace(browser, page, corpus, native, folder):
    folder = corpus / folder
    names = sorted(p.name for p in folder.glob("*.ainb"))
    assert len(names) >= 12
    p = Page(browser, page)
    p.open([folder / n for n in names])
    p.d.find_element(By.ID, "w-draw").click()  # traces only: the report pages are tested below
    runnable = browser.execute_script(
        "return Array.from(document.getElementById('w-file').options, o => o.value)")
    # The native traces on another thread while the page runs its own.
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        expected = pool.map(lambda name: (name, trace_file(native, folder, name)), names)
        browser.set_script_timeout(900)
        seen = browser.execute_async_script(RUN_EACH, runnable)
        expected = dict(expected)
    assert "error" not in seen, seen
    compared = 0
    for name in names:
        code, trace, err = expected[name]
        if name not in seen:
            # Refused as it opened: the CLI refuses it too, with the message beside its name.
            assert code != 0, f"{name}: the page refused it, the CLI runs it"
            assert p.message(name) == first_error(native("info", name, cwd=folder).stderr)
            continue
        if code == 0:
            if seen[name]["sha256"] != hashlib.sha256(trace.encode()).hexdigest():
                # Shown in full only when it differs.
                p.choose(name)
                p.click("w-run")
                assert p.text("ainb-trace") == trace, f"{name}: trace"
            assert seen[name]["bytes"] == len(trace.encode())
            assert seen[name]["message"] == ""
        else:
            assert seen[name]["message"] == first_error(err), name
            assert seen[name]["bytes"] == 0
        compared += 1
    assert compared >= len(names) - 2


def test_bad_input_is_shown_beside_the_files_name_and_the_rest_stays(browser, page, corpus, native, tmp_path):
    good = corpus / "ainb/Accessory_Battery.root.ainb"
    (tmp_path / "notes.root.ainb").write_bytes(b"these are not AINB bytes\n")
    (tmp_path / "cut.root.ainb").write_bytes(good.read_bytes()[:100])
    (tmp_path / good.name).write_bytes(good.read_bytes())
    toby = corpus / "ainb/Toby.utility.root.ainb"
    (tmp_path / toby.name).write_bytes(toby.read_bytes())  # without the module it calls
    p = Page(browser, page)
    p.open([tmp_path / n for n in ("notes.root.ainb", "cut.root.ainb", good.name, toby.name)])
    messages = p.messages()
    for name in ("notes.root.ainb", "cut.root.ainb"):
        expected = first_error(native("info", name, cwd=tmp_path).stderr)
        assert expected.startswith("error: ")
        assert messages[name] == expected
    assert messages[good.name] == ""
    # A missing module: the run's message beside the file; the other file still runs.
    p.choose(toby.name)
    p.click("w-run")
    code, _, err = trace_file(native, tmp_path, toby.name)
    assert code != 0 and "was not found" in err
    assert p.messages()[toby.name] == first_error(err)
    p.choose(good.name)
    p.click("w-run")
    assert p.text("ainb-trace") == trace_file(native, tmp_path, good.name)[1]
    assert p.messages()[toby.name] == first_error(err)  # kept until it runs


def test_a_run_shows_the_report_page_and_the_scenario_editor_round_trips(browser, page, corpus, native, tmp_path,
                                                                          downloads):
    folder = corpus / "ainb"
    name = "PlayerCamera.root.ainb"
    scenario = {"seed": 5, "frames": 90, "restart": True}
    scenario_path = tmp_path / "mine.json"
    scenario_path.write_text(json.dumps(scenario, indent=1))
    p = Page(browser, page)
    p.open([folder / name])
    p.choose(name)
    browser.find_element(By.ID, "w-scenario-import").send_keys(str(scenario_path))
    WebDriverWait(browser, 10).until(lambda d: p.d.find_element(By.ID, "w-scenario").get_attribute("value"))
    assert json.loads(browser.find_element(By.ID, "w-scenario").get_attribute("value")) == scenario
    assert p.text("w-scenario-state") == "(set)"
    p.click("w-run")
    expected = native("run", name, "--scenario", scenario_path, "--trace", "-", "--format", "jsonl", cwd=folder)
    assert expected.returncode == 0
    assert p.text("ainb-trace") == expected.stdout
    # The run's page is the report component's: its graph, node list and timeline.
    assert p.view("return d.body.dataset.ready") is not None  # its script ran to its end
    assert p.view("return d.body.dataset.errors || ''") == ""
    assert p.view("return d.querySelectorAll('#graphs g.node').length") > 0
    assert p.view("return d.querySelectorAll('#nodes tbody tr').length") > 0
    message = p.view("return d.getElementById('graph-message').textContent")
    assert "cannot run Graphviz's dot program" in message and "install Graphviz" not in message
    # Export writes the editor's JSON as scenario.json.
    browser.execute_script("document.getElementById('w-scenario-box').open = true")
    p.set_value("w-scenario", json.dumps({"seed": 9}))
    browser.find_element(By.ID, "w-scenario-export").click()
    exported = downloads / "scenario.json"
    deadline = time.time() + 10
    while not exported.exists() and time.time() < deadline:
        time.sleep(0.05)
    assert json.loads(exported.read_text()) == {"seed": 9}
    # Not JSON: said beside the editor, and nothing runs.
    p.set_value("w-scenario", "{seed: 9")
    p.click("w-run")
    assert p.text("w-scenario-error").startswith("not JSON: ")


def edited_copy(native, source: pathlib.Path, tmp_path: pathlib.Path) -> pathlib.Path:
    """`source` with its first false value made true, through the text form (a modder's edit)."""
    text_path = tmp_path / (source.stem + ".json")
    assert native("convert", source, text_path).returncode == 0
    text = text_path.read_text()
    edited_text, n = re.subn(r'("value": )false', r'\1true', text, count=1)
    assert n == 1
    text_path.write_text(edited_text)
    edited = tmp_path / "edited" / source.name
    edited.parent.mkdir()
    assert native("convert", text_path, edited).returncode == 0
    return edited


def test_regress_shows_the_two_runs_side_by_side_with_the_first_difference(browser, page, corpus, native, tmp_path):
    original = tmp_path / "original.root.ainb"
    original.write_bytes((corpus / "ainb/PlayerCamera.root.ainb").read_bytes())
    edited = tmp_path / "edited.root.ainb"
    edited.write_bytes(edited_copy(native, original, tmp_path).read_bytes())
    expected = native("regress", original.name, edited.name, "--frames", "600", cwd=tmp_path)
    p = Page(browser, page)
    p.open([original, edited])
    p.choose(original.name, edited.name)
    p.click("w-regress")
    assert p.text("w-report") == shown(expected)
    assert p.view("return d.querySelectorAll('#sides .side').length") == 2
    if expected.returncode == 1:
        assert p.view("return d.querySelectorAll('#timeline .first-difference').length") >= 1


def test_explore_reports_progress_can_be_cancelled_and_matches_the_cli(browser, page, corpus, native):
    folder = corpus / "ainb"
    name = "PlayerCamera.root.ainb"
    p = Page(browser, page)
    p.open([folder / name])
    p.choose(name)
    # A long exploration: the progress bar moves, the page answers, Cancel ends it.
    p.set_value("w-runs", 200000)
    p.click("w-explore", wait=False)
    WebDriverWait(browser, 60, poll_frequency=0.02).until(
        lambda d: float(d.find_element(By.ID, "w-progress").get_attribute("value") or 0) > 0)
    assert browser.execute_script("return 1 + 1") == 2  # the page's own thread is free
    assert re.match(r"Explore: \d+ of 200000 runs…", p.text("w-status"))
    p.click("w-cancel")
    assert p.text("w-status") == "Explore: cancelled."
    # A new worker with the same files: an exploration that ends, as the CLI's with one thread.
    p.wait_count("started", 2)
    p.set_value("w-runs", 64)
    p.click("w-explore")
    expected = native("explore", name, "--runs", "64", "--jobs", "1", cwd=folder)
    assert expected.returncode == 0
    assert p.text("w-report") == shown(expected)
    assert p.view("return d.querySelectorAll('#graphs g.node.covered, #graphs g.node.found').length") > 0


def test_the_url_mode_runs_before_the_load_event_for_dump_dom(dump_dom, page, corpus, native, tmp_path):
    folder = corpus / "ainb"
    root, module = "Toby.utility.root.ainb", "_LocalModule_d0e7ebe89ded.module.ainb"
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps({"seed": 2}))
    cases = [  # the files by URL, the rest of the fragment, the CLI's flags for the same run
        ([root], "", []),  # refused: a module is missing
        ([root, module], "", []),
        ([root], "&stub-missing-modules&seed=3&generic-nodes", ["--stub-missing-modules", "--seed", "3",
                                                                "--generic-nodes"]),
        (["Accessory_Battery.root.ainb"], f"&scenario={scenario.as_uri()}", ["--scenario", scenario]),
    ]
    for files, extra, flags in cases:
        fragment = "&".join(f"open={(folder / f).as_uri()}" for f in files)
        dom = dump_dom(f"{page.as_uri()}#{fragment}{extra}&frames=120&run")
        trace = html.unescape(re.search(r'<pre id="ainb-trace">(.*?)</pre>', dom, re.S).group(1))
        expected = native("run", files[0], "--frames", "120", *flags, "--trace", "-", "--format", "jsonl",
                          cwd=folder)
        status = html.unescape(re.search(r'<p id="w-status"[^>]*>(.*?)</p>', dom, re.S).group(1))
        if expected.returncode == 0:
            assert trace == expected.stdout, (files, extra)
            assert status == f"Ran {files[0]}."
        else:
            assert trace == ""
            assert status == "Run: " + first_error(expected.stderr)
