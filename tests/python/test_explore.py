# `ainb.explore`: the same scenarios and coverage as `ainb explore`, the scenarios it finds run
# with ainb.run, and differential exploration as `ainb regress --explore`.
import json
import os
import pathlib

import pytest

import ainb

EXAMPLE = pathlib.Path(os.environ["AINB_CLI"]).parents[2] / "examples/patrol.root.ainb"


def test_explore_finds_the_branch_the_plain_run_misses_as_the_command_line_does(cli, tmp_path):
    r = ainb.explore(EXAMPLE, runs=100, seed=3)
    assert r.runs == 100
    assert r.plain["totals"]["branches"] == {"reached": 1, "reachable": 2, "total": 2}
    assert r.coverage["totals"]["branches"] == {"reached": 2, "reachable": 2, "total": 2}
    assert [f["name"] for f in r.found] == ["patrol.root-n1-plug0.json"]
    found = r.found[0]
    assert found["reaches"] == 'patrol.root.ainb #1 Element_BoolSelector plug 0 "True" -> #2'
    assert found["scenario"] == {
        "frames": 1,
        "restart": True,
        "blackboard": [{"name": "IsEnemyNear", "value": True}],
    }
    assert r.replay_failures == [] and r.difference is None and r.edited_coverage is None
    # The command line writes the same scenario and coverage.
    code, out, err = cli("explore", EXAMPLE, "--runs", "100", "--seed", "3", "-o", tmp_path)
    assert code == 0, err
    assert json.loads((tmp_path / found["name"]).read_text()) == found["scenario"]
    assert json.loads((tmp_path / "coverage.json").read_text()) == r.coverage
    # The scenario, run: it takes the True plug (and not the False one).
    run = ainb.run(EXAMPLE, found["scenario"], coverage=True)
    assert [b["name"] for b in run.coverage["files"][0]["branches"]["unreached"]] == ["False"]


def test_explore_is_the_same_for_any_jobs():
    one = ainb.explore(EXAMPLE, runs=200, seed=9)
    two = ainb.explore(EXAMPLE, runs=200, seed=9, jobs=2)
    assert one == two


def test_against_an_edited_copy_no_difference_and_what_was_reached(tmp_path):
    copy = tmp_path / "patrol.root.ainb"
    copy.write_bytes(EXAMPLE.read_bytes())
    r = ainb.explore(EXAMPLE, runs=64, against=copy)
    assert r.difference is None
    assert r.edited_coverage["totals"]["branches"]["reached"] == 2


def test_against_an_edit_the_difference_as_regress_reports_it(tmp_path):
    # The example's selector reads IsEnemyNear; the edit makes it read nothing (the constant
    # false): with IsEnemyNear true the two differ.
    text = ainb.load(EXAMPLE).to_dict()
    selector = text["nodes"][1]
    selector["inputs"]["bool"][0].pop("blackboard")
    selector["inputs"]["bool"][0].pop("flags", None)
    edited = tmp_path / "patrol.root.ainb"
    ainb.from_dict(text).save(edited)
    r = ainb.explore(EXAMPLE, runs=100, against=edited)
    assert r.difference is not None
    assert r.difference["scenario"]["blackboard"] == [{"name": "IsEnemyNear", "value": True}]
    reported = r.difference["regress"]
    assert not reported.equal
    # ainb.regress with the scenario finds the same difference (only the scenario's name differs).
    again = ainb.regress(EXAMPLE, edited, [r.difference["scenario"]])
    assert again.difference == reported.difference | {"scenario": again.difference["scenario"]}


def test_bad_arguments():
    with pytest.raises(ValueError):
        ainb.explore(EXAMPLE, runs=0)
    with pytest.raises(ValueError):
        ainb.explore(EXAMPLE, runs="many")
    with pytest.raises(ainb.LoadError):
        ainb.explore("/nonexistent.ainb")
