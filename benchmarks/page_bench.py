"""The HTML page of a long run of the largest real file (docs/benchmarks.md, "HTML pages"): its size,
the time `ainb run --html` takes, and in headless Chromium the time to first paint, the time until
the page's script has drawn its first frame, and the time each frame of a scrub over the whole run
takes.

    python3 benchmarks/page_bench.py [--ainb build/release/hosts/cli/ainb] \\
        [--corpus ../shared/corpus] [--frames 600] [--repeat 3] [--file CORPUS_PATH]

The largest file is the corpus file with the most nodes (--file names another). The run uses --generic-nodes
--stub-children --restart (so the tree runs every frame) with the modules the corpus has.
Chromium opens the page through tests/browser/driver.html, which drags the slider over every
frame, forcing style and layout after each step. The time to first paint is that of `chromium
--screenshot` of the page (which waits for a paint) less that of an empty page: the browser's own
start. Each figure is the median of `repeat` loads.
"""

import argparse
import html
import json
import pathlib
import re
import shutil
import statistics
import subprocess
import tempfile
import time
import urllib.parse

ROOT = pathlib.Path(__file__).resolve().parents[1]


def nodes_of(ainb: str, path: pathlib.Path) -> int:
    info = subprocess.run([ainb, "info", str(path)], capture_output=True, text=True).stdout
    match = re.search(r"^  nodes\s+(\d+)", info, re.M)
    return int(match.group(1)) if match else 0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ainb", default=str(ROOT / "build/release/hosts/cli/ainb"))
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared/corpus"))
    parser.add_argument("--frames", type=int, default=600)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--file", help="a file under the corpus instead of the largest")
    args = parser.parse_args()
    corpus = pathlib.Path(args.corpus)
    files = sorted((corpus / "ainb").glob("*.ainb")) + sorted((corpus / "bulk/ainb").glob("*.ainb"))
    largest = corpus / args.file if args.file else max(files, key=lambda f: nodes_of(args.ainb, f))
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")

    with tempfile.TemporaryDirectory() as tmp:
        page = pathlib.Path(tmp) / "page.html"
        trace = pathlib.Path(tmp) / "trace.jsonl"
        run = [args.ainb, "run", str(largest), "--frames", str(args.frames), "--generic-nodes",
               "--stub-children", "--restart", "--stub-missing-modules",
               "--modules", str(corpus / "bulk/ainb"), "--modules", str(corpus / "ainb")]
        subprocess.run(run + ["--trace", str(trace)], capture_output=True, check=True)
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            subprocess.run(run + ["--html", str(page)], capture_output=True, check=True)
            times.append(time.perf_counter() - start)
        plain = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            subprocess.run(run, capture_output=True, check=True)
            plain.append(time.perf_counter() - start)
        print(f"file: {largest.name} ({nodes_of(args.ainb, largest)} nodes), {args.frames} frames")
        print(f"trace (JSON lines): {trace.stat().st_size / 1e6:.2f} MB")
        print(f"page: {page.stat().st_size / 1e6:.2f} MB")
        print(f"ainb run --html: {statistics.median(times) * 1e3:.0f} ms (the run alone: "
              f"{statistics.median(plain) * 1e3:.0f} ms)")
        if not chromium:
            print("chromium not found: no browser figures (scripts/install-deps.sh installs it)")
            return
        driver = (ROOT / "tests/browser/driver.html").as_uri()
        query = urllib.parse.urlencode({"page": page.as_uri(), "steps": "snap,scrub,snap"})
        loads = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            done = subprocess.run(
                [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 f"--user-data-dir={tmp}/profile", "--allow-file-access-from-files",
                 "--dump-dom", f"{driver}?{query}"],
                capture_output=True, text=True, timeout=300)
            wall = time.perf_counter() - start
            result = re.search(r'<pre id="result">(.*?)</pre>', done.stdout, re.S)
            snaps = json.loads(html.unescape(result.group(1)))
            loads.append((wall, snaps[0]["ready"], snaps[1]["scrub"], snaps[1]["errors"]))
        blank = pathlib.Path(tmp) / "blank.html"
        blank.write_text("<!DOCTYPE html><title>blank</title><p>blank</p>")
        shots = {}
        for name, target in (("blank", blank), ("page", page)):
            walls = []
            for _ in range(args.repeat):
                start = time.perf_counter()
                subprocess.run(
                    [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                     f"--user-data-dir={tmp}/profile", "--window-size=1400,900",
                     f"--screenshot={tmp}/shot.png", target.as_uri()],
                    capture_output=True, timeout=300)
                walls.append(time.perf_counter() - start)
            shots[name] = statistics.median(walls)
        print(f"chromium, whole command (start, load, scrub, exit): "
              f"{statistics.median(l[0] for l in loads):.2f} s")
        print(f"script ready (navigation start to the first frame drawn): "
              f"{statistics.median(l[1] for l in loads):.0f} ms")
        print(f"chromium --screenshot: {shots['page']:.2f} s, of an empty page {shots['blank']:.2f} s: "
              f"first paint {(shots['page'] - shots['blank']) * 1e3:.0f} ms after the browser's start")
        scrub = [l[2] for l in loads]
        print(f"scrub over {scrub[0]['frames']} frames, a frame: mean "
              f"{statistics.median(s['mean_ms'] for s in scrub):.2f} ms, 99th percentile "
              f"{statistics.median(s['p99_ms'] for s in scrub):.2f} ms, worst "
              f"{statistics.median(s['max_ms'] for s in scrub):.2f} ms (the first step: "
              f"{statistics.median(s['first_ms'] for s in scrub):.2f} ms)")
        errors = [l[3] for l in loads if l[3]]
        print(f"script errors: {errors[0] if errors else 'none'}")


if __name__ == "__main__":
    main()
