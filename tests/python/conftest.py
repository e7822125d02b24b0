# Shared fixtures: the corpus and the `ainb` command line the module is compared with
# (tests/support/ainb_pytest.py).
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
from ainb_pytest import cli, corpus, corpus_ainb_files  # noqa: E402,F401 (fixtures)
