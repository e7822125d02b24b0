# The page of a regression (ainb regress --html): both runs side by side, the first difference
# marked on the nodes regress names, the edits listed and marked.
import json
import pathlib
import re

import pytest

from conftest import active_at

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "examples/patrol.scenario.json"


@pytest.fixture(scope="module")
def edit(cli, tmp_path_factory):
    """The example and its bundled edit: the selector's True and False children swapped (the runs
    differ at once) and Attack's Range changed (which no stub sees)."""
    d = tmp_path_factory.mktemp("regress")
    original, edited = d / "patrol.root.ainb", d / "edited.root.ainb"
    assert cli("convert", ROOT / "examples/patrol.root.json", original)[0] == 0
    assert cli("convert", ROOT / "examples/patrol.edited.root.json", edited)[0] == 0
    traces = []
    for name in (original, edited):
        trace = d / (name.stem + ".jsonl")
        assert cli("run", name, "--scenario", SCENARIO, "--trace", trace)[0] == 0
        traces.append(trace)
    return original, edited, traces


def side_active(snap, prefix):
    return {int(m.group(1)) for g in snap["graph"]
            if (m := re.fullmatch(prefix + r"0n(\d+)", g[0])) and "active" in g[1].split()}


def test_the_first_difference_is_marked_on_both_graphs_and_the_timeline(cli, edit, browse, tmp_path):
    original, edited, (trace_a, trace_b) = edit
    page = tmp_path / "regress.html"
    code, out, err = cli("regress", original, edited, "--scenario", SCENARIO, "--html", page)
    assert code == 1, err
    # regress names the nodes: #3 entered in the original, #2 in the edited file.
    assert "#3 Element_Sequential in the original, #2 Attack in the edited file" in out
    (snap,) = browse(page)
    assert snap["errors"] == ""
    assert snap["label"] == "frame 0 of 12"  # the page opens at the difference
    assert sorted(snap["marks"]) == ["a0n3", "b0n2"]
    assert snap["timeline_marks"] == ["frame 0: the first difference"]
    assert {node for node, classes, _ in snap["rows"] if "first-difference" in classes.split()} == {3}
    assert "first difference at event 3 (frame 0)" in snap["summary"]
    # Each side shows its own run.
    for frame in (0, 4, 9):
        (at,) = browse(page, f"file=0&frame={frame}")
        assert side_active(at, "a") == active_at(trace_a, "patrol.root.ainb", frame)
        assert side_active(at, "b") == active_at(trace_b, "patrol.root.ainb", frame)


def test_the_edits_are_listed_and_marked(cli, edit, browse, tmp_path):
    original, edited, _ = edit
    page = tmp_path / "regress.html"
    cli("regress", original, edited, "--scenario", SCENARIO, "--html", page)
    (snap,) = browse(page, steps=["node:2", "snap"])
    assert snap["items"] == [
        'patrol.root.ainb #1its plugs child "True" node is #2 in the original and #3 in the edited file',
        'patrol.root.ainb #1its plugs child "False" node is #3 in the original and #2 in the edited file',
        "patrol.root.ainb #2property Range is 2.5 in the original and 3 in the edited file",
    ]
    edited_rows = {node for node, classes, _ in snap["rows"] if "edited" in classes.split()}
    assert edited_rows == {1, 2}
    edited_nodes = {g[0] for g in snap["graph"] if "edited" in g[1].split()}
    assert edited_nodes == {"a0n1", "a0n2", "b0n1", "b0n2"}
    assert "edit: property Range is 2.5 in the original and 3 in the edited file" in snap["panel"]
    assert snap["hash"] == "#file=0&frame=0&side=0&node=2"


def test_two_equal_files_show_no_difference(cli, edit, browse, tmp_path):
    original, _, _ = edit
    page = tmp_path / "same.html"
    code, out, err = cli("regress", original, original, "--scenario", SCENARIO, "--html", page)
    assert code == 0, err
    (snap,) = browse(page)
    assert snap["errors"] == ""
    assert snap["marks"] == [] and snap["timeline_marks"] == []
    assert "no difference in 1 scenario(s)" in snap["summary"]
    assert snap["items"] == []


def test_golden_traces_have_no_page(cli, tmp_path):
    code, out, err = cli("regress", "--record", tmp_path / "golden", ROOT / "examples", "--html",
                         tmp_path / "p.html")
    assert code == 2
    assert "--record excludes --html" in err


def test_the_difference_explore_finds_is_shown_as_regress_shows_it(cli, edit, browse, tmp_path):
    original, edited, _ = edit
    page = tmp_path / "explored.html"
    code, out, err = cli("regress", original, edited, "--explore", 20, "--html", page)
    assert code == 1, err
    (snap,) = browse(page)
    assert snap["errors"] == ""
    assert "scenario the difference explore found" in snap["summary"]
    assert len(snap["marks"]) >= 1 and len(snap["timeline_marks"]) == 1


def test_an_edit_the_scenario_does_not_fit_shows_the_original_and_why(cli, edit, browse, tmp_path):
    original, _, _ = edit
    text = json.loads((ROOT / "examples/patrol.root.json").read_text())
    text["commands"] = [c for c in text["commands"] if c["name"] != "Alert"]
    (tmp_path / "no-alert.json").write_text(json.dumps(text))
    edited = tmp_path / "no-alert.root.ainb"
    assert cli("convert", tmp_path / "no-alert.json", edited)[0] == 0
    page = tmp_path / "misfit.html"
    code, out, err = cli("regress", original, edited, "--scenario", SCENARIO, "--html", page)
    assert code == 1, err
    (snap,) = browse(page, "frame=5")
    assert snap["errors"] == ""
    assert "the edited file does not fit this run" in snap["summary"]
    assert {g[0][:1] for g in snap["graph"]} == {"a"}  # the original's graph only
    assert snap["label"] == "frame 5 of 12"
