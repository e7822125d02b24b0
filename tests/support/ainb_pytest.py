# What the pytest suites share (tests/python, tests/browser; each conftest.py imports it): the
# corpus, required when CI is set as the C++ tests require it, and the `ainb` command line.
import os
import pathlib
import subprocess

import pytest


def required(what: str):
    """Fails when CI is set (what the suite needs must be there), else skips."""
    if os.environ.get("CI"):
        pytest.fail(f"{what} (CI is set: these tests must run)")
    pytest.skip(what)


def corpus_path() -> pathlib.Path:
    return pathlib.Path(os.environ.get("AINB_CORPUS", "../shared/corpus"))


@pytest.fixture(scope="session")
def corpus() -> pathlib.Path:
    path = corpus_path()
    if not path.is_dir():
        required(f"corpus missing at {path}")
    return path


def corpus_ainb_files() -> list:
    """Every real AI file: corpus/ainb and corpus/bulk/ainb."""
    root = corpus_path()
    return sorted((root / "ainb").glob("*.ainb")) + sorted((root / "bulk/ainb").glob("*.ainb"))


@pytest.fixture(scope="session")
def cli():
    """Runs the `ainb` program: (exit code, stdout, stderr)."""
    program = os.environ["AINB_CLI"]

    def run(*args):
        done = subprocess.run([program, *map(str, args)], capture_output=True, text=True)
        return done.returncode, done.stdout, done.stderr

    return run
