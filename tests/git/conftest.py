# git with the `ainb` program as its text converter for AI files (docs/git.md), in real
# repositories made in temporary folders.
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "support"))
from ainb_pytest import cli, corpus, required  # noqa: E402,F401 (fixtures)
