# Node classes written in Python: they run the file's UserDefined nodes in ainb.run and
# ainb.regress as the scenario's scripted classes and C++ classes do, and what they raise faults
# the run with the Python traceback in the fault.
import json
import os
import pathlib
import threading
import time

import pytest

import ainb

SOURCE = pathlib.Path(__file__).resolve().parents[2]
EXAMPLE = pathlib.Path(os.environ["AINB_CLI"]).parents[2] / "examples/patrol.root.ainb"
SCENARIO = SOURCE / "examples/patrol.scenario.json"


def scripted(running, result=ainb.Result.Success):
    """A class that returns Running `running` times after each enter, then `result`: what a
    scenario's {"running": n, "result": ...} does."""

    class Scripted:
        def enter(self, ctx):
            self.updates = 0

        def update(self, ctx):
            self.updates += 1
            return ainb.Result.Running if self.updates <= running else result

    return Scripted


def events(run, kinds=("enter", "update", "leave", "blackboard")):
    return [
        (e["frame"], e["event"], e.get("node"), e.get("result") or e.get("detail"))
        for e in run.trace
        if e["event"] in kinds
    ]


def test_python_classes_run_as_the_scenarios_scripted_classes_do():
    scenario = json.loads(SCENARIO.read_text())
    classes = {
        "MoveTo": scripted(2),
        "Wait": scripted(1),
        "Attack": scripted(1, ainb.Result.Failure),
    }
    del scenario["nodes"]
    with_python = ainb.run(EXAMPLE, scenario, node_classes=classes)
    scripted_run = ainb.run(EXAMPLE, SCENARIO)
    assert with_python.trace == scripted_run.trace
    assert with_python.updates_by_class == scripted_run.updates_by_class
    assert with_python.state == "succeeded"


def test_a_python_class_reads_its_parameters_and_drives_the_selector():
    seen = []

    class MoveTo:
        def update(self, ctx):
            seen.append((ctx.frame, ctx.node, ctx.node_class, ctx.input("Speed"), ctx.input("Destination")))
            ctx.output("DistanceLeft", 4.0)
            if ctx.frame == 2:
                # The selector above reads IsEnemyNear: from the next frame on it runs Attack.
                ctx.set_blackboard("IsEnemyNear", True)
                return ainb.Result.Success
            return ainb.Result.Running

    class Attack:
        def update(self, ctx):
            near = ctx.blackboard("IsEnemyNear")
            seen.append((ctx.frame, ctx.property("Range"), ctx.property("Weapon"), near))
            return ainb.Result.Success

    r = ainb.run(EXAMPLE, frames=4, node_classes={"MoveTo": MoveTo, "Attack": Attack})
    assert seen == [
        (1, 4, "MoveTo", 1.5, [10.0, 0.0, -4.0]),
        (2, 4, "MoveTo", 1.5, [10.0, 0.0, -4.0]),
        (3, 2.5, "Spear", True),
        (4, 2.5, "Spear", True),
    ]
    assert events(r)[:12] == [
        (0, "enter", 0, None),
        (0, "enter", 1, None),
        (0, "enter", 3, None),
        (0, "enter", 4, None),
        (1, "update", 4, "Running"),
        (1, "update", 3, "Running"),
        (1, "update", 1, "Running"),
        (1, "update", 0, "Running"),
        (2, "blackboard", None, "IsEnemyNear=true"),
        (2, "update", 4, "Success"),
        (2, "leave", 4, None),
        (2, "enter", 5, None),
    ]
    # Frame 3: the Wait stub ends the False branch; the selector then takes True, Attack.
    assert (3, "enter", 2, None) in events(r)
    assert r.updates_by_class == {
        "Attack": 2, "Element_BoolSelector": 4, "Element_Sequential": 6, "MoveTo": 2
    }
    assert r.blackboard["IsEnemyNear"] is True


def test_each_activation_of_each_node_has_its_own_object():
    made = []

    class PlayVoice:
        def __init__(self):
            made.append(self)
            self.calls = []

        def enter(self, ctx):
            self.calls.append(("enter", ctx.node, ctx.property("Voice")))

        def update(self, ctx):
            self.calls.append(("update", ctx.node))
            return ainb.Result.Success

        def leave(self, ctx):
            self.calls.append(("leave", ctx.node))

    r = ainb.run(EXAMPLE, frames=3, command="Alert", node_classes={"PlayVoice": PlayVoice})
    assert r.state == "succeeded"
    # SplitTiming runs its Enter child (node 7) when entered and its Leave child (node 9) when
    # left: two nodes of the class, each with its own object.
    assert [o.calls for o in made] == [
        [("enter", 7, "Alert"), ("update", 7), ("leave", 7)],
        [("enter", 9, "Calm"), ("update", 9), ("leave", 9)],
    ]


def fault_lines(r):
    return r.fault.split("\n")


def test_an_exception_faults_the_run_with_the_python_traceback():
    class MoveTo:
        def update(self, ctx):
            return self.speed() / 0

        def speed(self):
            return 1.0

    r = ainb.run(EXAMPLE, frames=10, node_classes={"MoveTo": MoveTo})
    assert r.state == "faulted"
    lines = fault_lines(r)
    assert lines[0] == (
        f"{EXAMPLE}: frame 1: node 4 (MoveTo): user node class threw in update: "
        "ZeroDivisionError: float division by zero"
    )
    assert lines[1] == "Traceback (most recent call last):"
    assert lines[2] == f'  File "{__file__}", line {MoveTo.update.__code__.co_firstlineno + 1}, in update'
    assert lines[3].strip() == "return self.speed() / 0"
    # The run stops in the frame of the fault; the summary says it as `ainb run` does.
    assert r.frames == 1
    assert "faulted" in r.text.splitlines()[0]


def test_what_python_gets_wrong_faults_with_a_message_naming_it():
    class NoResult:
        def update(self, ctx):
            pass

    class Typo:
        def update(self, ctx):
            return ctx.input("Sped")

    class WrongType:
        def update(self, ctx):
            ctx.output("DistanceLeft", "far")

    class FailingEnter:
        def enter(self, ctx):
            raise RuntimeError("no navmesh")

        def update(self, ctx):
            return ainb.Result.Success

    def fault(cls):
        r = ainb.run(EXAMPLE, frames=3, node_classes={"MoveTo": cls})
        assert r.state == "faulted"
        head = f"{EXAMPLE}: frame "
        assert r.fault.startswith(head)
        return fault_lines(r)[0][len(head) :]

    assert fault(NoResult) == (
        "1: node 4 (MoveTo): user node class threw in update: "
        "TypeError: MoveTo.update returned None, not an ainb.Result"
    )
    assert fault(Typo) == (
        "1: node 4 (MoveTo): user node class threw in update: "
        "KeyError: 'node 4 (MoveTo) has no input \"Sped\" (it has: Speed (float), Destination (vec3f))'"
    )
    assert fault(WrongType) == (
        "1: node 4 (MoveTo): user node class threw in update: "
        "TypeError: output \"DistanceLeft\" (float) takes a number, not 'far'"
    )
    assert fault(FailingEnter) == (
        "0: node 4 (MoveTo): user node class threw in enter: RuntimeError: no navmesh"
    )


def test_a_context_kept_past_its_call_refuses_to_work():
    kept = []

    class MoveTo:
        def update(self, ctx):
            if kept:
                kept[0].input("Speed")
            kept.append(ctx)
            return ainb.Result.Running

    r = ainb.run(EXAMPLE, frames=3, node_classes={"MoveTo": MoveTo})
    assert fault_lines(r)[0].endswith(
        "threw in update: RuntimeError: a node context is valid only during the call it was given to"
    )


def test_a_scenarios_scripted_class_wins_over_a_python_class_of_that_name():
    class Attack:
        def update(self, ctx):
            raise AssertionError("the scenario's Attack runs instead")

    r = ainb.run(EXAMPLE, SCENARIO, node_classes={"Attack": Attack})
    assert r.trace == ainb.run(EXAMPLE, SCENARIO).trace


def test_regress_runs_both_files_with_the_python_classes():
    text = ainb.load(EXAMPLE).to_dict()
    text["nodes"][5]["properties"]["float"][0]["value"] = 3.0  # Wait's Time

    class Wait:
        def update(self, ctx):
            return ainb.Result.Success if ctx.property("Time") < 2.5 else ainb.Result.Failure

    same = ainb.regress(EXAMPLE, ainb.load(EXAMPLE), node_classes={"Wait": Wait}, frames=5)
    assert same.equal
    edited = ainb.regress(EXAMPLE, ainb.from_dict(text), node_classes={"Wait": Wait}, frames=5)
    assert not edited.equal
    assert edited.difference["original"]["result"] == "Success"
    assert edited.difference["edited"]["result"] == "Failure"
    assert edited.difference["original"]["type"] == "Wait"


def test_bad_node_classes_are_refused_before_the_run():
    with pytest.raises(TypeError, match=r"node_classes must be a dict"):
        ainb.run(EXAMPLE, node_classes=[("MoveTo", object)])
    no_update = r'node_classes\["MoveTo"\]: a class with an update\(self, ctx\) method, not 3'
    with pytest.raises(TypeError, match=no_update):
        ainb.run(EXAMPLE, node_classes={"MoveTo": 3})


def test_a_run_without_python_code_lets_other_threads_run():
    # While a run with no Python classes goes on, the main thread keeps running: the run holds no
    # GIL. (Holding it, the main thread would wait for the whole run: at most one or two turns.)
    started, ended = [], []

    def long_run():
        started.append(time.monotonic())
        ainb.run(EXAMPLE, frames=2_000_000, restart=True, trace=False)
        ended.append(time.monotonic())

    runner = threading.Thread(target=long_run)
    turns = []
    runner.start()
    while runner.is_alive():
        turns.append(time.monotonic())
        time.sleep(0.001)
    runner.join()
    during = [t for t in turns if started[0] < t < ended[0]]
    assert ended[0] - started[0] > 0.05
    assert len(during) >= 10


def test_python_classes_on_two_threads_take_turns():
    results = {}

    def run(key):
        results[key] = ainb.run(EXAMPLE, frames=200, restart=True, node_classes={"MoveTo": scripted(1)})

    threads = [threading.Thread(target=run, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results[0].trace == results[1].trace
    assert results[0].updates_by_class["MoveTo"] == results[1].updates_by_class["MoveTo"] > 100


def test_a_python_class_runs_its_children_as_a_selector():
    # Node 3 (a Sequential of MoveTo and Wait) made a Python class that tries its children in
    # turn until one does not fail, as Element_Selector would.
    text = ainb.load(EXAMPLE).to_dict()
    text["nodes"][3]["type"] = "UserDefined"
    text["nodes"][3]["name"] = "FirstThatWorks"
    f = ainb.from_dict(text, "selector.root.ainb")

    class FirstThatWorks:
        def enter(self, ctx):
            self.child = 0

        def update(self, ctx):
            while self.child < ctx.child_count:
                result = ctx.run_child(self.child)
                if result != ainb.Result.Failure:
                    return result
                self.child += 1
            return ainb.Result.Failure

    classes = {
        "FirstThatWorks": FirstThatWorks,
        "MoveTo": scripted(0, ainb.Result.Failure),
        "Wait": scripted(1),
    }
    r = ainb.run(f, frames=3, node_classes=classes)
    assert events(r, ("enter", "update", "leave"))[:14] == [
        (0, "enter", 0, None),
        (0, "enter", 1, None),
        (0, "enter", 3, None),
        (1, "enter", 4, None),
        (1, "update", 4, "Failure"),
        (1, "leave", 4, None),
        (1, "enter", 5, None),
        (1, "update", 5, "Running"),
        (1, "update", 3, "Running"),
        (1, "update", 1, "Running"),
        (1, "update", 0, "Running"),
        (2, "update", 5, "Success"),
        (2, "leave", 5, None),
        (2, "update", 3, "Success"),
    ]
