# ainb.Instance: one actor a Python program starts and ticks, with the events of `ainb run`'s
# trace through its observer, its blackboard read and written, and faults as a run has them.
import os
import pathlib

import pytest

import ainb

SOURCE = pathlib.Path(__file__).resolve().parents[2]
EXAMPLE = pathlib.Path(os.environ["AINB_CLI"]).parents[2] / "examples/patrol.root.ainb"


class MoveTo:
    def enter(self, ctx):
        self.updates = 0

    def update(self, ctx):
        self.updates += 1
        return ainb.Result.Success if self.updates == 2 else ainb.Result.Running


def test_ticking_an_instance_gives_the_runs_events():
    seen = []
    actor = ainb.Instance(EXAMPLE, node_classes={"MoveTo": MoveTo}, observer=seen.append, seed=3)
    assert (actor.state, actor.frame, actor.command) == ("idle", 0, "")
    actor.start()
    assert actor.tick(12) == "running"
    assert (actor.frame, actor.command) == (12, "Root")
    actor.stop()  # leaves the nodes, as a run's actor does at its end
    assert actor.state == "idle"
    run = ainb.run(EXAMPLE, frames=12, seed=3, node_classes={"MoveTo": MoveTo})
    assert seen == run.trace
    assert len(seen) > 50


def test_the_blackboard_is_read_and_written_by_name():
    actor = ainb.Instance(EXAMPLE)
    assert actor.blackboard == {"PatrolSpeed": 1.5, "IsEnemyNear": False, "PatrolPoint": [10.0, 0.0, -4.0]}
    actor["PatrolSpeed"] = 3
    actor["PatrolPoint"] = (1, 2.5, 3)
    actor["IsEnemyNear"] = True
    assert actor["PatrolSpeed"] == 3.0
    assert actor.blackboard == {"PatrolSpeed": 3.0, "IsEnemyNear": True, "PatrolPoint": [1.0, 2.5, 3.0]}
    actor.start("Root")
    actor.tick()
    # IsEnemyNear steers the selector: Attack (node 2) runs.
    seen = []
    watched = ainb.Instance(EXAMPLE, observer=seen.append)
    watched["IsEnemyNear"] = True
    watched.start()
    assert [e["node"] for e in seen if e["event"] == "enter"] == [0, 1, 2]
    assert seen[0] == {
        "frame": 0, "event": "blackboard", "file": "patrol.root.ainb", "detail": "IsEnemyNear=true"
    }


def test_bad_blackboard_writes_and_commands_raise_with_the_reason():
    actor = ainb.Instance(EXAMPLE)
    with pytest.raises(KeyError, match=r'patrol.root.ainb has no blackboard entry "Speed"'):
        actor["Speed"] = 1.0
    with pytest.raises(KeyError, match=r'patrol.root.ainb has no blackboard entry "Speed"'):
        actor["Speed"]
    with pytest.raises(TypeError, match=r"blackboard entry \"IsEnemyNear\" \(bool\) takes a bool, not 1"):
        actor["IsEnemyNear"] = 1
    vec3f = r"blackboard entry \"PatrolPoint\" \(vec3f\) takes three numbers \(x, y, z\), not \[1, 2\]"
    with pytest.raises(TypeError, match=vec3f):
        actor["PatrolPoint"] = [1, 2]
    too_big = r"blackboard entry \"PatrolSpeed\" \(f32\): 1e\+300 does not fit a 32-bit float"
    with pytest.raises(ValueError, match=too_big):
        actor["PatrolSpeed"] = 1e300
    no_command = r'patrol.root.ainb has no command "Flee" \(it has: "Root", "Alert"\)'
    with pytest.raises(ValueError, match=no_command):
        actor.start("Flee")
    with pytest.raises(ValueError, match=r"frames must be a whole number of at least 0, not -1"):
        actor.tick(-1)
    with pytest.raises(TypeError, match=r"observer must be callable, not 3"):
        ainb.Instance(EXAMPLE, observer=3)
    with pytest.raises(ainb.LoadError, match=r"missing.ainb"):
        ainb.Instance(EXAMPLE.parent / "missing.ainb")


def test_a_fault_stops_the_instance_until_it_starts_again():
    class Attack:
        def update(self, ctx):
            raise ValueError("no weapon")

    actor = ainb.Instance(EXAMPLE, node_classes={"Attack": Attack})
    actor["IsEnemyNear"] = True
    actor.start()
    assert actor.tick(5) == "faulted"
    assert actor.frame == 1
    assert actor.fault.split("\n")[0] == (
        f"{EXAMPLE}: frame 1: node 2 (Attack): user node class threw in update: ValueError: no weapon"
    )
    actor["IsEnemyNear"] = False
    actor.start()
    assert actor.fault is None
    assert actor.tick(2) == "running"


def test_an_observer_that_raises_faults_the_instance():
    def observer(event):
        if event["event"] == "update":
            raise RuntimeError("stop here")

    actor = ainb.Instance(EXAMPLE, observer=observer)
    actor.start()
    assert actor.tick() == "faulted"
    lines = actor.fault.split("\n")
    assert lines[0].endswith("observer threw in on_update: RuntimeError: stop here")
    assert lines[1] == "Traceback (most recent call last):"


def test_a_node_class_cannot_tick_its_own_instance():
    actors = []

    class MoveTo:
        def update(self, ctx):
            actors[0].tick()
            return ainb.Result.Running

    actors.append(ainb.Instance(EXAMPLE, node_classes={"MoveTo": MoveTo}))
    actors[0].start()
    assert actors[0].tick() == "faulted"
    assert actors[0].fault.split("\n")[0].endswith(
        "threw in update: RuntimeError: the instance is ticking "
        "(on another thread, or it is its own node class calling it)"
    )


def test_an_instance_of_a_file_from_bytes_or_a_pack_member(corpus):
    f = ainb.load(EXAMPLE.read_bytes(), "patrol.root.ainb")
    actor = ainb.Instance(f)
    assert actor.file == "patrol.root.ainb"
    assert actor.commands == ["Root", "Alert"]
    actor.start("Alert")
    assert actor.tick_while_running(10) == "succeeded"
    assert actor.frame == 1
    # A real file in its pack, with its modules from the pack: the run's events.
    spec = f"{corpus / 'packs/Npc_TripMaster_02.pack.zs'}:AI/NpcTripMaster.utility.root.ainb"
    options = dict(zsdic=corpus / "zsdic", stub_missing_modules=True, generic_nodes=True, seed=5)
    seen = []
    actor = ainb.Instance(spec, observer=seen.append, **options)
    actor.start()
    assert actor.tick_while_running(30) == "succeeded"
    actor.stop()
    run = ainb.run(spec, frames=1, **options)
    assert seen == run.trace
    assert len(seen) == 19
    # The readings of docs/generic-nodes.md (ambiguous_readings, as `--ambiguous-readings`).
    toby = corpus / "ainb/Toby.utility.root.ainb"
    read_options = dict(stub_missing_modules=True, ambiguous_readings=True, seed=5)
    read_seen = []
    reader = ainb.Instance(toby, observer=read_seen.append, **read_options)
    reader.start()
    reader.tick(10)
    reader.stop()
    assert read_seen == ainb.run(toby, frames=10, **read_options).trace
    assert actor.warnings == run.warnings
    pack = corpus / "packs/Npc_TripMaster_02.pack.zs"
    assert actor.warnings[0].endswith(
        f'module "NPCCommon.utility.module.ainb" not found (searched {pack}, (no romfs folder)); '
        "node 0 runs as a stub"
    )
