# The compiled half of the package (hosts/python/src); ainb/__init__.py wraps it.
from typing import Any

__version__: str

class LoadError(ValueError):
    file: str
    section: str
    offset: int
    reason: str

class TextFormError(ValueError):
    path: str

class File:
    @property
    def name(self) -> str: ...
    @property
    def path(self) -> str: ...
    def info(self) -> dict[str, Any]: ...
    def text(self) -> str: ...
    def write(self) -> bytes: ...
    def bytes(self) -> bytes: ...

class Pack:
    @property
    def name(self) -> str: ...
    @property
    def members(self) -> list[str]: ...
    def read(self, member: str) -> bytes: ...

def load_spec(spec: str, romfs: str = "", zsdic: str = "") -> File: ...
def load_bytes(data: bytes, name: str) -> File: ...
def from_text(text: str, name: str) -> File: ...
def open_pack(path: str, zsdic: str = "") -> Pack: ...

class ScenarioError(ValueError): ...

def run(
    path: str, scenario_kind: str, scenario_value: str, options: dict[str, Any], trace: bool
) -> tuple[dict[str, Any], str]: ...
def regress(
    original: str, edited: str, scenarios: list[tuple[str, str]], options: dict[str, Any]
) -> dict[str, Any]: ...
def explore(
    path: str, options: dict[str, Any], runs: int, seed: int, jobs: int, shrink: bool, against: str
) -> dict[str, Any]: ...
def run_options() -> list[dict[str, Any]]:
    """The run option table's rows (run_options.hpp), in order: name, kind ("flag", "count",
    "text", "path", "paths"), default (None: not set), most, takers (bits), flag and help."""

run_option_takers: dict[str, int]  # "run", "regress", "explore", "scan", "instance", "report"
explore_frames: int  # an exploration's frames unless told

class Result:
    """What a node's update returns."""

    Running: Result
    Success: Result
    Failure: Result
    @property
    def name(self) -> str: ...
    @property
    def value(self) -> int: ...

Value = int | bool | float | str | list[float] | None

class NodeContext:
    """What a Python node class's enter, update and leave get as `ctx`: the node, in one actor,
    for that call only (kept past it, it raises RuntimeError)."""

    def input(self, name: str) -> Value:
        """The value of the node's input `name` now (its source's output, blackboard entry or
        expression, else its default): int, bool, float, str or [x, y, z]. KeyError naming the
        node's inputs when it has none of that name."""
    def property(self, name: str) -> Value:
        """The value of the node's property `name`, as input() reads."""
    def output(self, name: str, value: Value) -> None:
        """Writes the node's output `name`; the value must be of its type (an int fitting 32
        bits, a bool, a number, a str, three numbers), else TypeError or ValueError."""
    @property
    def node(self) -> int:
        """The node's index in its file."""
    @property
    def node_class(self) -> str:
        """The node's class name."""
    @property
    def file(self) -> str:
        """The node's file (a module's, inside a module call)."""
    @property
    def frame(self) -> int:
        """The actor's frame: 1 in its first tick, 0 while a command starts before it."""
    def blackboard(self, name: str) -> Value:
        """The actor's blackboard entry `name` (KeyError when there is none)."""
    def set_blackboard(self, name: str, value: Value) -> None:
        """Writes the actor's blackboard entry `name`; a value of its type, as output()."""
    @property
    def child_count(self) -> int:
        """The node's child plugs, for a class that runs its children as a composite does."""
    def run_child(self, k: int) -> Result:
        """Enters child `k` if the node does not hold it yet, updates it and leaves it once it
        finishes; its result."""
    def leave_child(self, k: int) -> None:
        """Leaves child `k`, which the node holds."""
    def transition(self, k: int) -> bool:
        """Takes the node's transition plug `k`; False when there is none."""

class Instance:
    def __init__(
        self, spec: str, data: bytes | None, options: dict[str, Any], observer: Any
    ) -> None: ...
    def start(self, command: str | None = None) -> None: ...
    def tick(self, frames: int = 1) -> str: ...
    def tick_while_running(self, max_frames: int) -> str: ...
    def stop(self) -> None: ...
    @property
    def state(self) -> str: ...
    @property
    def fault(self) -> str | None: ...
    @property
    def command(self) -> str: ...
    @property
    def frame(self) -> int: ...
    @property
    def file(self) -> str: ...
    @property
    def commands(self) -> list[str]: ...
    @property
    def warnings(self) -> list[str]: ...
    def blackboard(self) -> dict[str, Value]: ...
    def get(self, name: str) -> Value: ...
    def set(self, name: str, value: Value) -> None: ...

class Stream:
    def __init__(
        self, path: str, scenario_kind: str, scenario_value: str, options: dict[str, Any]
    ) -> None: ...
    def __iter__(self) -> Stream: ...
    def __next__(self) -> dict[str, Any]: ...
    def close(self) -> None: ...
    def result(self) -> dict[str, Any] | None: ...
