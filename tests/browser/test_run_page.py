# The page of a run (ainb run --html, ainb report): what it shows at a frame is what the trace says.
import json
import re
import pathlib

import pytest

from conftest import active_at, results_at

ROOT = pathlib.Path(__file__).resolve().parents[2]
RESULT_WORDS = {"Success": "updated: Success", "Failure": "updated: Failure", "Running": "updated: Running"}


@pytest.fixture(scope="module")
def patrol(cli, tmp_path_factory):
    """The bundled example run under its scenario: a page, and the same run's trace."""
    d = tmp_path_factory.mktemp("patrol")
    ainb = d / "patrol.root.ainb"
    assert cli("convert", ROOT / "examples/patrol.root.json", ainb)[0] == 0
    page, trace = d / "patrol.html", d / "patrol.jsonl"
    code, out, err = cli("run", ainb, "--scenario", ROOT / "examples/patrol.scenario.json",
                         "--trace", trace, "--html", page)
    assert code == 0, err
    return page, trace


def check_frame(snap, trace, file, frame):
    """The list and the graph show the trace's active nodes and results at `frame`."""
    assert snap["errors"] == ""
    assert snap["label"].startswith(f"frame {frame} of ")
    assert snap["file"] == file
    active = {node for node, classes, _ in snap["rows"] if "active" in classes.split()}
    assert active == active_at(trace, file, frame)
    results = results_at(trace, file, frame)
    for node, classes, state in snap["rows"]:
        if node in results:
            assert RESULT_WORDS[results[node]] in state, (node, state)
            assert f"r-{results[node][0]}" in classes.split()
        else:
            assert "updated" not in state, (node, state)
    drawn = {int(m.group(1)): g[1].split() for g in snap["graph"]
             if g[2] and (m := re.fullmatch(r"f\d+n(\d+)", g[0]))}
    if drawn:
        assert len(drawn) == len(snap["rows"])
        assert {node for node, classes in drawn.items() if "active" in classes} == active


def test_the_active_nodes_and_results_at_each_frame_are_the_traces(patrol, browse):
    page, trace = patrol
    last = max(json.loads(line)["frame"] for line in trace.read_text().splitlines())
    frames = [0, 1, 2, 3, 5, 8, last]
    steps = [f"slider:{f},snap" for f in frames]
    snaps = browse(page, steps=steps)
    assert len(snaps) == len(frames)
    for frame, snap in zip(frames, snaps):
        check_frame(snap, trace, "patrol.root.ainb", frame)
    assert any(snap["rows"] and any("active" in r[1] for r in snap["rows"]) for snap in snaps)


def test_keys_buttons_and_the_hash_step_the_frame(patrol, browse):
    page, trace = patrol
    snaps = browse(page, "frame=2", ["snap", "key:ArrowRight", "snap", "click:next", "snap",
                                     "key:ArrowLeft", "key:ArrowLeft", "snap", "key:End", "snap",
                                     "click:first", "snap"])
    last = 12  # the scenario's frames (its last frames trace nothing)
    assert [s["label"] for s in snaps] == [f"frame {f} of {last}" for f in (2, 3, 4, 2, last, 0)]
    assert [s["hash"] for s in snaps] == [f"#file=0&frame={f}" for f in (2, 3, 4, 2, last, 0)]
    for snap, frame in zip(snaps, (2, 3, 4, 2, last, 0)):
        check_frame(snap, trace, "patrol.root.ainb", frame)


def test_a_console_error_is_an_error_of_the_page(patrol, browse):
    page, _ = patrol
    clean, logged = browse(page, steps=["snap", "console:something broke", "snap"])
    assert clean["errors"] == ""
    assert logged["errors"] == "something broke"


def test_clicking_a_node_shows_its_properties_and_events(patrol, browse):
    page, trace = patrol
    snaps = browse(page, "frame=1", ["node:4", "snap"])
    (snap,) = snaps
    assert snap["hash"] == "#file=0&frame=1&node=4"
    assert snap["panel"].startswith("#4 MoveTo")
    assert "Events over the run" in snap["panel"]
    assert "Running" in snap["panel"]
    assert snap["errors"] == ""
    # Its output values at a frame: the scenario's 3.5, then 0 from frame 3.
    at2, at3 = browse(page, "frame=2&node=4", ["snap", "key:ArrowRight", "snap"])
    assert "Output values at frame 2DistanceLeft3.5Events" in at2["panel"]
    assert "Output values at frame 3DistanceLeft0 (changed)Events" in at3["panel"]
    # Its spans and results on the timeline: a bar for each Enter, the results its updates had.
    events = [json.loads(line) for line in trace.read_text().splitlines()]
    mine = [e for e in events if e.get("node") == 4]
    assert snap["bars"]["span"] == sum(e["event"] == "enter" for e in mine)
    assert {k for k in snap["bars"] if k != "span"} == {e["result"][0] for e in mine if e["event"] == "update"}
    assert snap["selected_in_pane"] == [True]


def test_a_page_without_graphviz_lays_its_graphs_out_itself_and_says_how_to_get_dots(cli, patrol, browse, tmp_path):
    page, trace = patrol
    ainb = page.parent / "patrol.root.ainb"
    bare = tmp_path / "bare.html"
    code, out, err = cli("run", ainb, "--scenario", ROOT / "examples/patrol.scenario.json",
                         "--html", bare, "--dot", tmp_path / "no-such-dot")
    assert code == 0
    assert "warning: " in err and "apt-get install graphviz" in err
    (snap,) = browse(bare, "frame=3")
    assert "Graphviz's dot program was not found, so the graphs are laid out" in snap["message"]
    assert "apt-get install graphviz" in snap["message"]
    # The same nodes as dot's page, and the same states at the frame (check_frame compares the
    # graph's active nodes with the trace's).
    (dots,) = browse(page, "frame=3")
    assert sorted(g[0] for g in snap["graph"]) == sorted(g[0] for g in dots["graph"])
    assert sorted(g[:2] for g in snap["graph"]) == sorted(g[:2] for g in dots["graph"])
    assert all(g[2] for g in snap["graph"] if g[0].startswith("f0"))
    check_frame(snap, trace, "patrol.root.ainb", 3)


def test_report_from_a_trace_shows_what_run_html_shows(cli, patrol, browse, tmp_path):
    page, trace = patrol
    from_trace = tmp_path / "from-trace.html"
    code, out, err = cli("report", trace, "--file", page.parent / "patrol.root.ainb", "-o", from_trace)
    assert code == 0, err
    assert out.startswith(f"wrote {from_trace}: ")
    steps = ["slider:3", "snap", "slider:7", "snap"]
    direct, again = browse(page, steps=steps), browse(from_trace, steps=steps)
    # The trace has no event in the run's last frames: the page of the trace ends earlier.
    assert [s["label"] for s in again] == ["frame 3 of 10", "frame 7 of 10"]
    for a, b in zip(direct, again):
        assert a["rows"] == b["rows"]


def test_a_real_file_with_modules(cli, corpus, browse, tmp_path):
    page, trace = tmp_path / "toby.html", tmp_path / "toby.jsonl"
    code, out, err = cli("run", corpus / "ainb/Toby.utility.root.ainb", "--modules", corpus / "bulk/ainb",
                         "--modules", corpus / "ainb", "--stub-missing-modules", "--generic-nodes",
                         "--stub-children", "--restart", "--frames", 600, "--trace", trace, "--html", page)
    assert code == 0, err
    assert page.stat().st_size < 5_000_000
    files = sorted({json.loads(line)["file"] for line in trace.read_text().splitlines()})
    assert len(files) > 1, "the run calls modules"
    (top,) = browse(page, "frame=300")
    check_frame(top, trace, "Toby.utility.root.ainb", 300)
    # A module's graph: the file tab the page lists for it.
    data = json.loads(page.read_text().split('<script type="application/json" id="data">')[1].split("</script>")[0])
    module = next(f for f in files if f != "Toby.utility.root.ainb")
    index = [f["name"] for f in data["sides"][0]["files"]].index(module)
    (snap,) = browse(page, f"file={index}&frame=300")
    check_frame(snap, trace, module, 300)
    # A double click on the module node that calls it opens the module's graph at the same frame.
    caller = next(i for i, n in enumerate(data["sides"][0]["files"][0]["nodes"]) if n.get("calls") == index)
    before, after = browse(page, "frame=300", [f"node:{caller}", "snap", f"open:{caller}", "snap"])
    assert before["file"] == "Toby.utility.root.ainb" and before["panel"].count(f"calls{module}") == 1
    assert after["file"] == module and after["hash"] == f"#file={index}&frame=300"
    check_frame(after, trace, module, 300)
    # Selecting a node out of view scrolls its pane to it: the graph's last node, then its first.
    last = len(data["sides"][0]["files"][0]["nodes"]) - 1
    at_last, at_first = browse(page, "frame=300", [f"node:{last}", "snap", "node:0", "snap"])
    assert at_last["selected_in_pane"] == [True] and at_first["selected_in_pane"] == [True]
