# Blackboard values as Python reads them: the same types and values from every entry point (a
# run's summary, a streamed trace's result, an Instance), converted from the C++ values. A float
# with no fractional part stays a float: 2.0 == 2 in Python, so the values are compared by repr.
import os
import pathlib

import ainb

EXAMPLE = pathlib.Path(os.environ["AINB_CLI"]).parents[2] / "examples/patrol.root.ainb"


def every_type():
    """The example with an entry of each type, floats whose text has no fraction among them."""
    text = ainb.load(EXAMPLE).to_dict()
    text["blackboard"] = {
        "string": [{"name": "Name", "default": "text"}],
        "s32": [{"name": "Count", "default": -3}],
        "f32": [
            {"name": "PatrolSpeed", "default": 1.5},
            {"name": "Whole", "default": 2.0},
            {"name": "NegativeZero", "default": -0.0},
            {"name": "Big", "default": 1e10},
        ],
        "bool": [{"name": "IsEnemyNear", "default": False}],
        "vec3f": [{"name": "PatrolPoint", "default": [10.0, 0.0, -4.0]}],
        "pointer": [{"name": "Target"}],
    }
    return ainb.from_dict(text, "every_type.root.ainb")


EXPECTED = {
    "Name": "'text'",
    "Count": "-3",
    "PatrolSpeed": "1.5",
    "Whole": "2.0",
    "NegativeZero": "-0.0",
    "Big": "10000000000.0",
    "IsEnemyNear": "False",
    "PatrolPoint": "[10.0, 0.0, -4.0]",
    "Target": "None",  # a pointer: Python has no value for it
}


def reprs(blackboard):
    return {name: repr(value) for name, value in blackboard.items()}


def test_a_runs_blackboard_keeps_each_values_type():
    f = every_type()
    assert reprs(ainb.run(f, frames=1).blackboard) == EXPECTED
    assert reprs(ainb.run(f, frames=1, trace=False).blackboard) == EXPECTED


def test_a_streamed_traces_result_keeps_each_values_type():
    with ainb.trace(every_type(), frames=1) as t:
        for _ in t:
            pass
        assert reprs(t.result.blackboard) == EXPECTED


def test_an_instances_blackboard_keeps_each_values_type(tmp_path):
    path = tmp_path / "every_type.root.ainb"
    every_type().save(path)
    for source in (every_type(), path):
        actor = ainb.Instance(source)
        assert reprs(actor.blackboard) == EXPECTED
        assert {name: repr(actor[name]) for name in EXPECTED} == EXPECTED
        actor.start()
        actor.tick()
        assert reprs(actor.blackboard) == EXPECTED


def test_the_summary_text_still_prints_the_values_as_ainb_run_does():
    text = ainb.run(every_type(), frames=1).text
    blackboard = text[text.index("blackboard at the end:\n"):].splitlines()[1:10]
    assert [line.split() for line in blackboard] == [
        ["Name", '"text"'],
        ["Count", "-3"],
        ["PatrolSpeed", "1.5"],
        ["Whole", "2"],
        ["NegativeZero", "-0"],
        ["Big", "10000000000"],
        ["IsEnemyNear", "false"],
        ["PatrolPoint", "[10,", "0,", "-4]"],
        ["Target", "null"],
    ]
