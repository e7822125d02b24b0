"""Writes ainb/_keywords.pyi, the run options' keywords for type checkers, from the table the
extension exposes (_ainb.run_options(), the rows of run_options.hpp), so a row added there
reaches the stubs without editing them. Run at build time (hosts/python/CMakeLists.txt):

    python3 keywords_stub.py EXTENSION OUTPUT
"""

import importlib.machinery
import importlib.util
import sys

# The TypedDict each function's **options is unpacked as (ainb/__init__.py), by taker.
KEYWORDS = {"run": "RunKeywords", "regress": "RegressKeywords", "explore": "ExploreKeywords",
            "instance": "InstanceKeywords"}
TYPES = {"flag": "bool", "count": "int", "text": "Optional[str]", "path": "Optional[PathLike]",
         "paths": "Optional[list[PathLike]]"}


def load_extension(path: str):
    loader = importlib.machinery.ExtensionFileLoader("ainb._ainb", path)
    spec = importlib.util.spec_from_file_location("ainb._ainb", path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def stub(extension) -> str:
    rows = extension.run_options()
    lines = [
        "# Generated at build time from the run option table (hosts/python/tools/keywords_stub.py):",
        "# the keywords of ainb.run, trace, regress, explore and Instance. Do not edit.",
        "import os",
        "from typing import Optional, TypedDict, Union",
        "",
        'PathLike = Union[str, "os.PathLike[str]"]',
    ]
    for taker, name in KEYWORDS.items():
        bit = extension.run_option_takers[taker]
        lines += ["", "", f"class {name}(TypedDict, total=False):"]
        lines += [f"    {r['name']}: {TYPES[r['kind']]}" for r in rows if r["takers"] & bit]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    text = stub(load_extension(sys.argv[1]))
    with open(sys.argv[2], "w", encoding="utf-8") as out:
        out.write(text)
