# The run options in Python come from the C++ table (run_options.hpp): each function's keywords,
# their defaults and help, the checks of their values, and the type checkers' stub.
import importlib.util
import inspect
import os
import pathlib

import pytest

import ainb
from ainb import _ainb

SOURCE = pathlib.Path(__file__).resolve().parents[2]
EXAMPLE = pathlib.Path(os.environ["AINB_CLI"]).parents[2] / "examples/patrol.root.ainb"
RUN = ["command", "frames", "seed", "restart", "generic_nodes", "ambiguous_readings", "stub_children",
       "simultaneous_ends_first", "stub_missing_modules", "modules", "romfs", "zsdic", "definitions",
       "stub_running_updates"]


def keywords(function):
    return {
        p.name: p.default
        for p in inspect.signature(function).parameters.values()
        if p.kind == p.KEYWORD_ONLY
    }


def test_the_table_as_the_extension_gives_it():
    rows = _ainb.run_options()
    assert [r["name"] for r in rows] == RUN
    frames = rows[1]
    assert (frames["kind"], frames["default"], frames["most"], frames["flag"]) == ("count", 600, 10**9, "--frames")
    assert frames["help"] == "Frames to run (at most 1,000,000,000)"
    assert {r["name"]: r["default"] for r in rows if r["kind"] in ("text", "path", "paths")} == {
        "command": None, "modules": None, "romfs": None, "zsdic": None, "definitions": None
    }
    assert _ainb.explore_frames == 120


def test_each_function_takes_its_rows_with_their_defaults_then_its_own_keywords():
    defaults = {r["name"]: r["default"] for r in _ainb.run_options()}
    run_rows = {name: defaults[name] for name in RUN}
    assert keywords(ainb.run) == run_rows | {"node_classes": None, "coverage": False, "trace": True}
    assert keywords(ainb.trace) == run_rows | {"node_classes": None, "coverage": False}
    assert keywords(ainb.regress) == run_rows | {"node_classes": None}
    explore_rows = {name: defaults[name] for name in RUN if name not in ("command", "restart")}
    assert keywords(ainb.explore) == explore_rows | {"frames": 120} | {
        "runs": 1000, "jobs": 1, "shrink": True, "against": None, "node_classes": None
    }
    instance_rows = {name: defaults[name] for name in RUN
                     if name not in ("command", "frames", "restart", "simultaneous_ends_first")}
    assert keywords(ainb.Instance) == instance_rows | {"node_classes": None, "observer": None}
    assert "    frames: Frames to run (at most 1,000,000,000)" in ainb.run.__doc__


def test_an_unknown_keyword_is_named_as_python_names_it():
    with pytest.raises(TypeError, match=r"^run\(\) got an unexpected keyword argument 'frame'$"):
        ainb.run(EXAMPLE, frame=3)
    with pytest.raises(TypeError, match=r"^explore\(\) got an unexpected keyword argument 'command'$"):
        ainb.explore(EXAMPLE, command="Root")
    with pytest.raises(TypeError, match=r"^Instance.__init__\(\) got an unexpected keyword argument 'frames'$"):
        ainb.Instance(EXAMPLE, frames=3)


def test_values_are_checked_by_their_kind():
    with pytest.raises(ValueError, match=r"^frames must be a whole number of at least 0, not -1$"):
        ainb.run(EXAMPLE, frames=-1)
    with pytest.raises(ValueError, match=r"^seed must be a whole number of at least 0, not 1.5$"):
        ainb.regress(EXAMPLE, EXAMPLE, seed=1.5)
    with pytest.raises(ValueError, match=r"^frames must be a whole number of at most 1000000000, not 1000000001$"):
        ainb.run(EXAMPLE, frames=10**9 + 1)
    with pytest.raises(TypeError, match=r"^restart must be True or False, not 1$"):
        ainb.run(EXAMPLE, restart=1)
    with pytest.raises(TypeError, match=r"^command must be a str, not 3$"):
        ainb.run(EXAMPLE, command=3)
    with pytest.raises(TypeError, match=r"^romfs takes paths \(str or os.PathLike\), not 3$"):
        ainb.Instance(EXAMPLE, romfs=3)
    with pytest.raises(TypeError, match=r"^modules must be a list of paths, not 'folder'$"):
        ainb.explore(EXAMPLE, modules="folder")
    # Paths and lists of them as str or os.PathLike, None as not set.
    assert ainb.run(EXAMPLE, frames=1, modules=(EXAMPLE.parent,), romfs=None, command=None).frames == 1


def test_the_type_checkers_stub_is_the_tables():
    spec = importlib.util.spec_from_file_location("keywords_stub", SOURCE / "hosts/python/tools/keywords_stub.py")
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    built = pathlib.Path(ainb.__file__).parent / "_keywords.pyi"
    assert built.read_text() == generator.stub(_ainb)
    text = built.read_text()
    run = text[text.index("class RunKeywords"):text.index("class RegressKeywords")]
    assert [line.split(":")[0].strip() for line in run.splitlines()[1:] if line] == RUN
    assert "    frames: int\n" in text and "    romfs: Optional[PathLike]\n" in text


def test_a_row_added_to_the_table_is_a_keyword_that_works():
    # stub_running_updates was added as one row (docs/simulation.md, "Run options").
    def move_to(events):
        return [e["result"] for e in events if e.get("type") == "MoveTo" and e["event"] == "update"]

    assert move_to(ainb.run(EXAMPLE, frames=3).trace) == ["Success", "Success"]
    assert move_to(ainb.run(EXAMPLE, frames=3, stub_running_updates=2).trace) == ["Running", "Running", "Success"]
    events = []
    actor = ainb.Instance(EXAMPLE, stub_running_updates=2, observer=events.append)
    actor.start()
    actor.tick(3)
    assert move_to(events) == ["Running", "Running", "Success"]
    with pytest.raises(ValueError, match=r"^stub_running_updates must be a whole number of at most 65535, not 65536$"):
        ainb.run(EXAMPLE, stub_running_updates=65536)
