# Shared fixtures: the corpus (required when CI is set, as the C++ tests require it) and the
# `ainb` command line the module is compared with.
import os
import pathlib
import subprocess

import pytest


def _corpus() -> pathlib.Path:
    return pathlib.Path(os.environ.get("AINB_CORPUS", "../shared/corpus"))


@pytest.fixture(scope="session")
def corpus() -> pathlib.Path:
    path = _corpus()
    if not path.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"corpus missing at {path} (CI is set: corpus tests must run)")
        pytest.skip(f"corpus missing at {path}")
    return path


def corpus_ainb_files() -> list:
    """Every real AI file: corpus/ainb and corpus/bulk/ainb."""
    root = _corpus()
    return sorted((root / "ainb").glob("*.ainb")) + sorted((root / "bulk/ainb").glob("*.ainb"))


@pytest.fixture(scope="session")
def cli():
    """Runs the `ainb` program: (exit code, stdout, stderr)."""
    program = os.environ["AINB_CLI"]

    def run(*args):
        done = subprocess.run([program, *map(str, args)], capture_output=True, text=True)
        return done.returncode, done.stdout, done.stderr

    return run
