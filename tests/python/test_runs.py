# Runs and regressions through `import ainb`: the same trace lines, summary and verdicts as the
# command line for the same options, and its messages for bad arguments.
import dataclasses
import itertools
import json
import os
import pathlib
import subprocess
import sys

import pytest

import ainb

SOURCE = pathlib.Path(__file__).resolve().parents[2]
EXAMPLE = pathlib.Path(os.environ["AINB_CLI"]).parents[2] / "examples/patrol.root.ainb"
SCENARIO = SOURCE / "examples/patrol.scenario.json"


def cli_trace(cli, tmp_path, *args):
    out = tmp_path / "trace.jsonl"
    code, stdout, err = cli("run", *args, "--trace", out)
    assert code == 0, err
    return [json.loads(line) for line in out.read_text().splitlines()], stdout


def test_the_example_runs_as_the_command_line_runs_it(cli, tmp_path):
    r = ainb.run(EXAMPLE, SCENARIO)
    trace, summary = cli_trace(cli, tmp_path, EXAMPLE, "--scenario", SCENARIO)
    assert r.trace == trace
    assert r.text == summary
    assert (r.state, r.command, r.started, r.frames, r.ended_frame) == ("succeeded", "Alert", "Root", 12, 10)
    assert r.visits == 30
    assert r.updates_by_class["MoveTo"] == 3
    assert r.blackboard == {"PatrolSpeed": 1.5, "IsEnemyNear": True, "PatrolPoint": [10.0, 0.0, -4.0]}
    assert r.trace[0] == {"frame": 0, "event": "command", "file": "patrol.root.ainb", "detail": "Root"}
    # The scenario as a dict is the same scenario.
    assert ainb.run(EXAMPLE, json.loads(SCENARIO.read_text())).trace == trace
    assert ainb.run(EXAMPLE, SCENARIO, trace=False).trace == []


def test_a_real_file_with_options_runs_as_the_command_line_runs_it(corpus, cli, tmp_path):
    path = corpus / "ainb/Toby.utility.root.ainb"
    options = dict(frames=60, seed=3, stub_missing_modules=True, generic_nodes=True, restart=True)
    r = ainb.run(path, **options)
    trace, summary = cli_trace(
        cli, tmp_path, path, "--frames", 60, "--seed", 3, "--stub-missing-modules", "--generic-nodes", "--restart"
    )
    assert r.trace == trace
    assert r.text == summary
    assert len(trace) > 1000
    # What the command line sums up in two lines, one warning each: the 19 modules the corpus
    # lacks and the 2 user functions nobody registered.
    assert len(r.warnings) == 21
    assert sum(" not found (searched " in w for w in r.warnings) == 19
    assert r.warnings[0] == (
        f'{path}: user function "GetBBCodeBool( Bool, Int )" is not registered; expressions that '
        "call it give their stored values"
    )
    # With the readings of docs/generic-nodes.md, as `--ambiguous-readings`.
    r = ainb.run(path, **options, ambiguous_readings=True)
    trace, summary = cli_trace(
        cli, tmp_path, path, "--frames", 60, "--seed", 3, "--stub-missing-modules", "--ambiguous-readings", "--restart"
    )
    assert r.trace == trace
    assert r.text == summary


def test_a_file_from_bytes_runs_from_a_temporary_copy(cli, tmp_path):
    f = ainb.load(EXAMPLE.read_bytes(), "patrol.root.ainb")
    assert f.path is None
    assert ainb.run(f, SCENARIO).trace == ainb.run(EXAMPLE, SCENARIO).trace


def test_regress_equal_and_the_first_difference_of_an_edit(cli, tmp_path):
    same = ainb.regress(EXAMPLE, ainb.load(EXAMPLE), [SCENARIO])
    assert same.equal
    code, out, _ = cli("regress", EXAMPLE, EXAMPLE, "--scenario", SCENARIO)
    assert code == 0 and same.text == out
    # Swap the two child plugs of the guard's selector: the other branch runs at once.
    text = ainb.load(EXAMPLE).to_dict()
    plugs = text["nodes"][1]["plugs"]["child"]
    plugs[0]["node"], plugs[1]["node"] = plugs[1]["node"], plugs[0]["node"]
    edited = ainb.from_dict(text, name="patrol.root.ainb")
    r = ainb.regress(EXAMPLE, edited, [SCENARIO])
    assert not r.equal
    saved = tmp_path / "patrol.root.ainb"
    edited.save(saved)
    code, out, _ = cli("regress", EXAMPLE, saved, "--scenario", SCENARIO)
    assert code == 1
    assert r.text == out
    d = r.difference
    assert (d["scenario"], d["index"]) == (str(SCENARIO), 3)
    assert d["original"]["event"] == "enter" and d["edited"]["event"] == "enter"
    assert d["original"]["node"] != d["edited"]["node"]
    assert [e["event"] for e in d["context"]] == ["command", "enter", "enter"]
    assert d["explanation"].startswith("a different node was entered")


def test_bad_arguments_give_the_command_lines_messages(cli, tmp_path):
    with pytest.raises(ValueError) as caught:
        ainb.run(EXAMPLE, command="Nothing")
    code, _, err = cli("run", EXAMPLE, "--command", "Nothing")
    assert code == 2
    assert err == f"error: {caught.value}\n"
    bad = tmp_path / "bad.json"
    bad.write_text('{"frames": "many"}')
    with pytest.raises(ainb.ScenarioError) as caught:
        ainb.run(EXAMPLE, bad)
    code, _, err = cli("run", EXAMPLE, "--scenario", bad)
    assert err == f"error: {caught.value}\n"
    with pytest.raises(ainb.ScenarioError, match=r"^scenario: /frames: "):
        ainb.run(EXAMPLE, {"frames": "many"})
    with pytest.raises(ainb.LoadError) as caught:
        ainb.run(tmp_path / "missing.ainb")
    assert caught.value.section == "file"
    with pytest.raises(ValueError, match="frames must be a whole number of at least 0, not -1"):
        ainb.run(EXAMPLE, frames=-1)


def test_a_streamed_trace_gives_the_runs_events_one_by_one(corpus):
    t = ainb.trace(EXAMPLE, SCENARIO)
    assert t.result is None  # not read yet
    events = list(t)
    run = ainb.run(EXAMPLE, SCENARIO)
    assert events == run.trace
    assert t.result == dataclasses.replace(run, trace=[])
    # A real file with modules stubbed and the generic classes, restarted for 2000 frames.
    path = corpus / "ainb/Toby.utility.root.ainb"
    options = dict(frames=2000, restart=True, stub_missing_modules=True, generic_nodes=True, seed=9)
    assert list(ainb.trace(path, **options)) == ainb.run(path, **options).trace


def test_a_streamed_trace_closed_early_stops_its_run():
    with ainb.trace(EXAMPLE, frames=10**9, restart=True) as t:
        first = [e["event"] for e in itertools.islice(t, 6)]
    assert first == ["command", "enter", "enter", "enter", "enter", "update"]
    assert t.result is None
    with pytest.raises(StopIteration):
        next(t)
    # Dropped without closing: the run stops too (the test would not end otherwise).
    next(ainb.trace(EXAMPLE, frames=10**9, restart=True))


def test_a_streamed_trace_raises_the_runs_errors_at_the_first_event(tmp_path):
    stream = ainb.trace(tmp_path / "missing.ainb")
    with pytest.raises(ainb.LoadError) as caught:
        next(stream)
    assert caught.value.section == "file"
    assert stream.result is None
    with pytest.raises(ValueError, match=r'has no command "Nothing"'):
        next(ainb.trace(EXAMPLE, command="Nothing"))


def test_a_program_that_ends_with_a_trace_still_running_exits_cleanly(tmp_path):
    # The run's thread calls a Python class; it is stopped before the interpreter shuts down.
    script = tmp_path / "left_open.py"
    script.write_text(
        "import ainb\n"
        "class MoveTo:\n"
        "    def update(self, ctx):\n"
        "        return ainb.Result.Running\n"
        f"t = ainb.trace({str(EXAMPLE)!r}, frames=10**9, node_classes={{'MoveTo': MoveTo}})\n"
        "print(next(t)['event'])\n"
    )
    done = subprocess.run([sys.executable, script], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "command\n", "")


def test_coverage_is_the_command_lines_report(cli, tmp_path):
    r = ainb.run(EXAMPLE, frames=12, coverage=True, trace=False)
    report = tmp_path / "coverage.json"
    code, stdout, err = cli("run", EXAMPLE, "--frames", 12, "--coverage", report)
    assert code == 0, err
    assert r.coverage == json.loads(report.read_text())
    assert r.coverage["totals"]["branches"] == {"reached": 1, "reachable": 2, "total": 2}
    assert stdout.endswith("  patrol.root.ainb command Alert\n")
    assert ainb.run(EXAMPLE, frames=12).coverage is None
