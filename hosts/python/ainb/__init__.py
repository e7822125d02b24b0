"""Load, inspect, edit and write AINB behavior-tree files (docs/python.md).

    import ainb
    f = ainb.load("Toby.utility.root.ainb")
    f.info()["sections"]["nodes"]          # 151
    text = f.to_dict()                      # the JSON text form (docs/text-form.md), a plain dict
    text["nodes"][3]["properties"]["float"][0]["value"] = 2.5
    ainb.from_dict(text).save("Toby.utility.root.ainb")

Errors are ValueErrors with the command line's messages: LoadError (a bad file: .file,
.section, .offset, .reason) and TextFormError (a bad text form: .path, the JSON pointer).
"""

from __future__ import annotations

import atexit
import contextlib
import copy
import inspect
import json
import os
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional, Union

from . import _ainb
from ._ainb import LoadError, NodeContext, Result, TextFormError, __version__

if TYPE_CHECKING:  # the run options' keywords, generated from the table at build time
    from typing_extensions import Unpack

    from ._keywords import ExploreKeywords, InstanceKeywords, RegressKeywords, RunKeywords

__all__ = [
    "BlackboardEntry",
    "Command",
    "ExploreResult",
    "File",
    "Instance",
    "LoadError",
    "Node",
    "NodeContext",
    "Pack",
    "RegressResult",
    "Result",
    "RunResult",
    "ScenarioError",
    "TextFormError",
    "Trace",
    "explore",
    "from_dict",
    "load",
    "open_pack",
    "regress",
    "run",
    "trace",
    "__version__",
]

PathLike = Union[str, "os.PathLike[str]"]


@dataclass(frozen=True)
class Command:
    """A command: a name the game starts, and the node it runs."""

    name: str
    root: int
    guid: str
    secondary_root: Optional[int] = None


@dataclass(frozen=True)
class Node:
    """One node, as the text form describes it (docs/text-form.md, "A node").

    properties, inputs and outputs map a type ("int", "bool", "float", "string", "vec3f",
    "pointer") to a list of parameters; plugs map a kind ("child", "transition", "generic",
    "string", "int") to a list of plugs. They are copies: edit the dict of File.to_dict().
    """

    index: int
    type: str
    name: str
    guid: str
    properties: dict
    inputs: dict
    outputs: dict
    plugs: dict
    queries: list
    attachments: list


@dataclass(frozen=True)
class BlackboardEntry:
    """A blackboard entry: its type ("string", "s32", "f32", "bool", "vec3f", "pointer", ...),
    name and stored default (None for pointers)."""

    type: str
    name: str
    default: Any
    notes: str = ""
    inherit: str = "from_root"
    file_reference: Optional[int] = None


class File:
    """A loaded AINB file. Immutable: edit its text form (to_dict) and make a new file with
    from_dict."""

    def __init__(self, handle: _ainb.File):
        self._handle = handle
        self._text: Optional[dict] = None

    def __repr__(self) -> str:
        info = self.info()
        return (
            f"<ainb.File {self.name!r}: {info['sections']['nodes']} nodes, "
            f"{info['sections']['commands']} commands>"
        )

    @property
    def name(self) -> str:
        """What the file was loaded as (a path, PACK:MEMBER, or the name given with bytes)."""
        return self._handle.name

    @property
    def path(self) -> Optional[str]:
        """The path or PACK:MEMBER it was loaded from; None for a file made from bytes."""
        return self._handle.path or None

    def info(self) -> dict:
        """What `ainb info` shows: file, name, version, category, size, sections (the count of
        each section, keyed as `ainb info` names them), node_types, user_functions, modules."""
        return self._handle.info()

    def to_dict(self) -> dict:
        """The text form (docs/text-form.md) as a new dict, which from_dict turns back into the
        same bytes when unedited."""
        return json.loads(self._handle.text())

    def _parsed(self) -> dict:
        if self._text is None:
            self._text = self.to_dict()
        return self._text

    @property
    def version(self) -> int:
        return self.info()["version"]

    @property
    def commands(self) -> list:
        return [
            Command(c["name"], c["root"], c.get("guid", ""), c.get("secondary_root"))
            for c in self._parsed().get("commands", [])
        ]

    @property
    def nodes(self) -> list:
        return [
            Node(
                index=i,
                type=n["type"],
                name=n.get("name", ""),
                guid=n.get("guid", ""),
                properties=copy.deepcopy(n.get("properties", {})),
                inputs=copy.deepcopy(n.get("inputs", {})),
                outputs=copy.deepcopy(n.get("outputs", {})),
                plugs=copy.deepcopy(n.get("plugs", {})),
                queries=list(n.get("queries", [])),
                attachments=list(n.get("attachments", [])),
            )
            for i, n in enumerate(self._parsed()["nodes"])
        ]

    @property
    def blackboard(self) -> list:
        """Every entry, grouped by type in the file's order."""
        return [
            BlackboardEntry(
                type=kind,
                name=e["name"],
                default=e.get("default"),
                notes=e.get("notes", ""),
                inherit=e.get("inherit", "from_root"),
                file_reference=e.get("file_reference"),
            )
            for kind, entries in self._parsed().get("blackboard", {}).items()
            for e in entries
        ]

    def write(self) -> bytes:
        """The file written by the writer: the same bytes as it was loaded from."""
        return self._handle.write()

    def save(self, path: PathLike) -> None:
        """Writes the file to `path`."""
        with open(path, "wb") as out:
            out.write(self.write())

    def bytes(self) -> bytes:
        """The bytes it was loaded from."""
        return self._handle.bytes()


def load(
    source: Union[PathLike, bytes, bytearray],
    name: Optional[str] = None,
    *,
    romfs: Optional[PathLike] = None,
    zsdic: Optional[PathLike] = None,
) -> File:
    """Loads a file: a path, PACK:MEMBER ("Pack/Actor/X.pack.zs:AI/X.root.ainb", with the
    game's zstd dictionaries from `zsdic` or ROMFS/Pack/ZsDic.pack.zs), or bytes (`name` in
    messages). Raises LoadError."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return File(_ainb.load_bytes(bytes(source), name or "bytes"))
    if name is not None:
        raise TypeError("name is for bytes; a path names itself")
    return File(_ainb.load_spec(os.fspath(source), _path(romfs), _path(zsdic)))


def from_dict(text: dict, name: str = "text form") -> File:
    """A file from its text form (File.to_dict, edited or not). Raises TextFormError naming the
    JSON pointer of a bad value, or LoadError."""
    return File(_ainb.from_text(json.dumps(text, ensure_ascii=False), name))


class Pack:
    """A SARC pack (TotK's Pack/Actor/X.pack.zs): its members by name."""

    def __init__(self, handle: _ainb.Pack):
        self._handle = handle

    def __repr__(self) -> str:
        return f"<ainb.Pack {self.name!r}: {len(self.members)} members>"

    @property
    def name(self) -> str:
        return self._handle.name

    @property
    def members(self) -> list:
        return self._handle.members

    def read(self, member: str) -> bytes:
        """A member's bytes. Raises LoadError when the pack has no such member."""
        return self._handle.read(member)

    def load(self, member: str) -> File:
        """An AI file of the pack ("AI/X.root.ainb"), named PACK:MEMBER in messages."""
        return File(_ainb.load_bytes(self.read(member), f"{self.name}:{member}"))


def open_pack(path: PathLike, zsdic: Optional[PathLike] = None) -> Pack:
    """Opens a pack (zstd-compressed with the dictionaries in `zsdic`, a folder of *.zsdic or a
    ZsDic.pack.zs, or plain SARC). Raises LoadError."""
    return Pack(_ainb.open_pack(os.fspath(path), _path(zsdic)))


def _path(path: Optional[PathLike]) -> str:
    return "" if path is None else os.fspath(path)


# Runs and regressions ---------------------------------------------------------------------------

ScenarioError = _ainb.ScenarioError


@dataclass(frozen=True)
class RunResult:
    """What `ainb run` reports: the summary's fields, the warnings, and the trace's events (the
    dicts of its JSON lines, in order; empty with trace=False)."""

    file: str
    command: str
    started: str
    state: str  # "running", "succeeded", "failed", "faulted", ...
    frames: int
    ended_frame: int
    restarts: int
    visits: int
    updates_by_class: dict
    last_results: list
    not_honoured: list
    blackboard: dict  # name -> value at the end: 1.5, True, "text", [x, y, z] (vec3f), None
    warnings: list
    alerts: list
    fault: str
    stubs_with_children: int
    text: str  # the summary as `ainb run` prints it
    trace: list
    # With coverage=True, what the run reached: the report of `ainb run --coverage`
    # (docs/simulation.md, "Coverage"); else None.
    coverage: Optional[dict] = None

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class RegressResult:
    """What `ainb regress` reports: `difference` is None when the runs agree, else the first
    differing event of each side (None: that run had no more), the events before it and why."""

    scenarios: int
    events: int
    difference: Optional[dict]
    notes: list
    not_honoured: list
    warnings: list
    text: str  # the report as `ainb regress` prints it

    @property
    def equal(self) -> bool:
        return self.difference is None

    def __str__(self) -> str:
        return self.text


_RunSource = Union[PathLike, File]


# The run options (docs/python.md, "Run options"): the keywords each function takes are the rows
# of the C++ table (run_options.hpp) with its taker's bit, their defaults a default RunOptions'.
_OPTION_ROWS = _ainb.run_options()
_OPTION_TYPES = {
    "flag": "bool",
    "count": "int",
    "text": "Optional[str]",
    "path": "Optional[PathLike]",
    "paths": "Optional[list]",
}


def _option_rows(taker: str) -> list:
    bit = _ainb.run_option_takers[taker]
    return [row for row in _OPTION_ROWS if row["takers"] & bit]


def _takes_run_options(taker: str, **defaults):
    """Gives a function taking **options the signature and help of its table rows: each row a
    keyword-only parameter with its default, before the function's own keywords."""

    def decorate(function):
        signature = inspect.signature(function)
        own = [p for p in signature.parameters.values() if p.kind != p.VAR_KEYWORD]
        first_keyword = next((i for i, p in enumerate(own) if p.kind == p.KEYWORD_ONLY), len(own))
        rows = _option_rows(taker)
        table = [
            inspect.Parameter(
                row["name"],
                inspect.Parameter.KEYWORD_ONLY,
                default=defaults.get(row["name"], row["default"]),
                annotation=_OPTION_TYPES[row["kind"]],
            )
            for row in rows
        ]
        parameters = own[:first_keyword] + table + own[first_keyword:]
        function.__signature__ = signature.replace(parameters=parameters)
        lines = [f"    {row['name']}: {row['help']}" for row in rows]
        function.__doc__ = (function.__doc__ or "") + "\n\n    Run options:\n" + "\n".join(lines)
        return function

    return decorate


def _options(function: str, taker: str, given: dict, *, node_classes=None, coverage=None, **defaults) -> dict:
    """The options dict the extension reads (runs.cpp, run_options): each row `taker` takes, its
    value checked against its kind; TypeError for a keyword no row gives, as Python words it."""
    rows = {row["name"]: row for row in _option_rows(taker)}
    for name in given:
        if name not in rows:
            raise TypeError(f"{function}() got an unexpected keyword argument '{name}'")
    options = {}
    for name, row in rows.items():
        value = given.get(name, defaults.get(name, row["default"]))
        options[name] = _option_value(row, value)
    if not isinstance(node_classes or {}, dict):
        raise TypeError(f"node_classes must be a dict of class name to class, not {node_classes!r}")
    options["node_classes"] = dict(node_classes or {})
    if coverage is not None:
        options["coverage"] = bool(coverage)
    return options


def _option_value(row: dict, value: Any) -> Any:
    name, kind = row["name"], row["kind"]
    if kind == "count":
        _whole(name, value)
        if row["most"] and value > row["most"]:
            raise ValueError(f"{name} must be a whole number of at most {row['most']}, not {value!r}")
        return value
    if kind == "flag":
        if not isinstance(value, bool):
            raise TypeError(f"{name} must be True or False, not {value!r}")
        return value
    if kind == "text":
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{name} must be a str, not {value!r}")
        return value or ""
    if kind == "path":
        return "" if value is None else _path_of(name, value)
    if value is None:
        return []
    if isinstance(value, (str, bytes, os.PathLike)) or not isinstance(value, (list, tuple)):
        raise TypeError(f"{name} must be a list of paths, not {value!r}")
    return [_path_of(name, path) for path in value]


def _path_of(name: str, value: Any) -> str:
    path = os.fspath(value) if isinstance(value, (str, os.PathLike)) else None
    if not isinstance(path, str):
        raise TypeError(f"{name} takes paths (str or os.PathLike), not {value!r}")
    return path


@_takes_run_options("run")
def run(
    file: _RunSource,
    scenario: Union[None, dict, PathLike] = None,
    *,
    node_classes: Optional[dict] = None,
    coverage: bool = False,
    trace: bool = True,
    **options: Unpack[RunKeywords],
) -> RunResult:
    """Runs a file as `ainb run` does, with the same options (docs/simulation.md): a path,
    PACK:MEMBER (with romfs), or a File (one made from bytes is written to a temporary folder;
    its modules then come from `modules`). `scenario`: a dict in the scenario format or a path.
    `node_classes`: {class name: Python class} for the file's UserDefined nodes (docs/python.md,
    "Node classes in Python"); a scenario's scripted class of the same name wins. `coverage`:
    keep what the run reached (RunResult.coverage).
    Raises LoadError, ScenarioError, or ValueError for a command the file lacks."""
    options = _options("run", "run", options, node_classes=node_classes, coverage=coverage)
    with _on_disk(file) as path:
        summary, lines = _ainb.run(path, *_scenario(scenario), options, trace)
    events = [json.loads(line) for line in lines.splitlines()]
    return RunResult(**summary, trace=events)


class Trace:
    """A run's events as it goes (ainb.trace): iterate it for the event dicts, in order; `result`
    is the RunResult (its trace empty) once the last event was read. Closing it (or leaving its
    `with` block) before the end stops the run. Memory stays flat whatever the run's length."""

    def __init__(self, handle, folder):
        self._handle = handle
        self._folder = folder
        _open_traces.add(self)

    def __iter__(self) -> "Trace":
        return self

    def __next__(self) -> dict:
        try:
            return next(self._handle)
        except BaseException:
            self._cleanup()
            raise

    def __enter__(self) -> "Trace":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Stops the run if it goes on."""
        self._handle.close()
        self._cleanup()

    @property
    def result(self) -> Optional[RunResult]:
        """The summary once every event was read; None before, and for a run closed early."""
        summary = self._handle.result()
        if summary is None:
            return None
        return RunResult(**summary, trace=[])

    def _cleanup(self) -> None:
        if self._folder is not None:
            self._folder.__exit__(None, None, None)
            self._folder = None


# Runs still going when the program ends are stopped before the interpreter shuts down: their
# threads may call Python node classes, which they cannot once it has begun to.
_open_traces: "weakref.WeakSet[Trace]" = weakref.WeakSet()


@atexit.register
def _close_traces() -> None:
    for t in list(_open_traces):
        t.close()


@_takes_run_options("run")
def trace(
    file: _RunSource,
    scenario: Union[None, dict, PathLike] = None,
    *,
    node_classes: Optional[dict] = None,
    coverage: bool = False,
    **options: Unpack[RunKeywords],
) -> Trace:
    """run's events one by one while it runs, for runs too long to keep (docs/python.md, "Long
    runs"): `for event in ainb.trace(path, frames=10**7): ...`. The same options and events as
    run; the run's errors (LoadError, ScenarioError, ValueError) are raised by the first next()."""
    options = _options("trace", "run", options, node_classes=node_classes, coverage=coverage)
    folder = _on_disk(file)
    path = folder.__enter__()
    try:
        handle = _ainb.Stream(path, *_scenario(scenario), options)
    except BaseException:
        folder.__exit__(None, None, None)
        raise
    return Trace(handle, folder)


@_takes_run_options("regress")
def regress(
    original: _RunSource,
    edited: _RunSource,
    scenarios: Optional[list] = None,
    *,
    node_classes: Optional[dict] = None,
    **options: Unpack[RegressKeywords],
) -> RegressResult:
    """Runs both files under each scenario (dicts or paths; none: the files' defaults) with the
    same options and compares their traces event by event, nodes paired by GUID, as `ainb regress`
    does; `node_classes` serve both runs. Raises as run does."""
    options = _options("regress", "regress", options, node_classes=node_classes)
    with _on_disk(original) as a, _on_disk(edited) as b:
        result = _ainb.regress(a, b, [_scenario(s) for s in scenarios or []], options)
    return _regress_result(result)


def _regress_result(result: dict) -> RegressResult:
    """The module's regress dict with the difference's events as dicts."""
    if result["difference"] is not None:
        diff = result["difference"]
        for side in ("original", "edited"):
            diff[side] = None if diff[side] is None else json.loads(diff[side])
        diff["context"] = [json.loads(e) for e in diff["context"]]
    return RegressResult(**result)


@dataclass(frozen=True)
class ExploreResult:
    """What `ainb explore` reports (docs/explore.md): `coverage` of all the runs and `plain` of
    one plain run of each command (coverage reports, as RunResult.coverage); `found`, a dict per
    branch, transition or command the plain runs miss: "reaches" (what), "name" (a file name for
    it), "run" (the run that first reached it) and "scenario" (shrunk: a dict ainb.run takes).
    With `against`: `difference` is None when no run made the files differ, else a dict with
    "run", "scenario" (shrunk), "shrink_runs" and "regress" (the RegressResult of ainb.regress
    with that scenario); `edited_coverage` is the edited file's."""

    runs: int
    shrink_runs: int
    coverage: dict
    plain: dict
    found: list
    replay_failures: list
    not_fitting: int
    unconfirmed: int
    edited_coverage: Optional[dict]
    difference: Optional[dict]
    warnings: list


@_takes_run_options("explore", frames=_ainb.explore_frames)
def explore(
    file: _RunSource,
    *,
    runs: int = 1000,
    jobs: int = 1,
    shrink: bool = True,
    against: Optional[_RunSource] = None,
    node_classes: Optional[dict] = None,
    **options: Unpack[ExploreKeywords],
) -> ExploreResult:
    """Generates scenarios guided by coverage, as `ainb explore` does (docs/explore.md): the same
    seed gives the same result for any `jobs`. With `against` (an edited version of the file),
    the scenarios run on both, and exploration stops at the first difference, as `ainb regress
    ORIGINAL EDITED --explore N`. Raises as run does."""
    for name in ("runs", "jobs"):
        _whole(name, locals()[name])
    if runs < 1 or jobs < 1:
        raise ValueError("runs and jobs must be at least 1")
    options = _options("explore", "explore", options, node_classes=node_classes, frames=_ainb.explore_frames)
    edited_source = _on_disk(against) if against is not None else contextlib.nullcontext("")
    with _on_disk(file) as path, edited_source as edited:
        result = _ainb.explore(path, options, runs, options["seed"], jobs, bool(shrink), edited)
    if result["difference"] is not None:
        result["difference"]["regress"] = _regress_result(result["difference"]["regress"])
    return ExploreResult(**result)


def _scenario(scenario) -> tuple:
    if scenario is None:
        return ("", "")
    if isinstance(scenario, dict):
        return ("json", json.dumps(scenario))
    return ("path", os.fspath(scenario))


class _on_disk:
    """The path a run reads: a path as given, a File's own path, or a File from bytes written
    to a temporary folder for the run's length."""

    def __init__(self, source: _RunSource):
        self._source = source
        self._folder = None

    def __enter__(self) -> str:
        if not isinstance(self._source, File):
            return os.fspath(self._source)
        if self._source.path is not None:
            return self._source.path
        import tempfile

        self._folder = tempfile.TemporaryDirectory(prefix="ainb-")
        name = os.path.basename(self._source.name) or "file.ainb"
        path = os.path.join(self._folder.name, name)
        self._source.save(path)
        return path

    def __exit__(self, *exc) -> None:
        if self._folder is not None:
            self._folder.cleanup()


# An actor of your own ------------------------------------------------------------------------


class Instance:
    """One actor that you start and tick (docs/python.md, "An actor of your own"):

        actor = ainb.Instance("patrol.root.ainb", node_classes={"MoveTo": MoveTo})
        actor.start("Root")
        actor.tick(10)                      # "running", "succeeded", "failed" or "faulted"
        actor["IsEnemyNear"] = True         # the blackboard, by entry name

    `source`: a path, PACK:MEMBER (with romfs) or a File; the options are run's. `observer` is
    called with each event as a dict, the events `ainb run --trace` writes; what it raises
    faults the instance. Ticks release the GIL while no Python code runs."""

    @_takes_run_options("instance")
    def __init__(
        self,
        source: _RunSource,
        *,
        node_classes: Optional[dict] = None,
        observer=None,
        **options: Unpack[InstanceKeywords],
    ):
        options = _options("Instance.__init__", "instance", options, node_classes=node_classes)
        if observer is not None and not callable(observer):
            raise TypeError(f"observer must be callable, not {observer!r}")
        if isinstance(source, File) and source.path is None:
            self._handle = _ainb.Instance(source.name, source.bytes(), options, observer)
        else:
            spec = source.path if isinstance(source, File) else os.fspath(source)
            self._handle = _ainb.Instance(spec, None, options, observer)

    def __repr__(self) -> str:
        return f"<ainb.Instance {self.file!r}: {self.state}, frame {self.frame}>"

    @property
    def file(self) -> str:
        return self._handle.file

    @property
    def commands(self) -> list:
        return self._handle.commands

    def start(self, command: Optional[str] = None) -> None:
        """Starts a command (default: the file's first), leaving the running one first. Raises
        ValueError naming the commands the file has when it has no such one."""
        self._handle.start(command)

    def tick(self, frames: int = 1) -> str:
        """Advances `frames` frames (stopping at a fault); returns the state."""
        _whole("frames", frames)
        return self._handle.tick(frames)

    def tick_while_running(self, max_frames: int) -> str:
        """Ticks until the command is no longer running, at most `max_frames` frames."""
        _whole("max_frames", max_frames)
        return self._handle.tick_while_running(max_frames)

    def stop(self) -> None:
        """Leaves every active node; the instance is idle afterwards."""
        self._handle.stop()

    @property
    def state(self) -> str:
        """"idle", "running", "succeeded", "failed" or "faulted"."""
        return self._handle.state

    @property
    def fault(self) -> Optional[str]:
        """Why the instance is faulted (a node class's exception with its traceback), else None."""
        return self._handle.fault

    @property
    def command(self) -> str:
        return self._handle.command

    @property
    def frame(self) -> int:
        return self._handle.frame

    @property
    def warnings(self) -> list:
        """What loading said: modules run as stubs, missing user functions, parameter files."""
        return self._handle.warnings

    @property
    def blackboard(self) -> dict:
        """Every entry's value now, by name (a copy: write with actor[name] = value)."""
        return self._handle.blackboard()

    def __getitem__(self, name: str) -> Any:
        return self._handle.get(name)

    def __setitem__(self, name: str, value: Any) -> None:
        self._handle.set(name, value)


def _whole(name: str, value: Any) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{name} must be a whole number of at least 0, not {value!r}")
