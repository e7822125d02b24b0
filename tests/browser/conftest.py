# Pages in a real browser: Debian's headless Chromium opens the page `ainb` wrote from a file://
# URL, through driver.html, which steps the page as a user would and snapshots its state.
import html
import json
import pathlib
import re
import sys
import urllib.parse

import pytest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "support"))
import headless_chromium  # noqa: E402
from ainb_pytest import cli, corpus, corpus_ainb_files, required  # noqa: E402,F401 (fixtures)


@pytest.fixture(scope="session")
def chromium() -> str:
    path = headless_chromium.executable()
    if not path:
        required("chromium missing (scripts/install-deps.sh installs Debian's chromium)")
    return path


@pytest.fixture(scope="session")
def browse(chromium):
    """browse(page, hash, steps) -> the snapshots driver.html took (a list of dicts); with a list
    of pages, one browser start opens them all and returns a list of snapshot lists."""
    def run(page, hash: str = "", steps=("snap",)):
        pages = page if isinstance(page, list) else [page]
        targets = [p.resolve().as_uri() + (f"#{hash}" if hash else "") for p in pages]
        query = urllib.parse.urlencode([("page", t) for t in targets] + [("steps", ",".join(steps))])
        done = headless_chromium.dump_dom(f"{(HERE / 'driver.html').as_uri()}?{query}", chromium)
        match = re.search(r'<pre id="result">(.*?)</pre>', done.stdout, re.S)
        assert match, f"no result from the driver: {done.stdout[-2000:]} {done.stderr[-2000:]}"
        result = json.loads(html.unescape(match.group(1)))
        for snaps in (result if isinstance(page, list) else [result]):
            assert not isinstance(snaps, dict), f"the driver failed: {snaps}"
        return result

    return run


def active_at(trace_path: pathlib.Path, file: str, frame: int) -> set:
    """The nodes of `file` active at the end of `frame`, read from a JSON-lines trace."""
    open_count = {}
    for line in trace_path.read_text().splitlines():
        e = json.loads(line)
        if e["frame"] > frame:
            break
        if e.get("file") != file or "node" not in e:
            continue
        if e["event"] == "enter":
            open_count[e["node"]] = open_count.get(e["node"], 0) + 1
        elif e["event"] == "leave":
            open_count[e["node"]] = open_count.get(e["node"], 0) - 1
    return {node for node, n in open_count.items() if n > 0}


def results_at(trace_path: pathlib.Path, file: str, frame: int) -> dict:
    """Each node of `file` updated in `frame`, with its (last) result."""
    results = {}
    for line in trace_path.read_text().splitlines():
        e = json.loads(line)
        if e["frame"] == frame and e.get("file") == file and e["event"] == "update":
            results[e["node"]] = e["result"]
    return results
