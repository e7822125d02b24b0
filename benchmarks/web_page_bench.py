#!/usr/bin/env python3
"""The WebAssembly page's speed (docs/benchmarks.md, "WebAssembly"), in Debian's headless Chromium:

1. open: the page opened on the largest public real AI file by URL (`#open=…&stub-missing-modules&run`),
   600 frames run before its load event: milliseconds from the navigation's start to the module's
   start, the run's end and the report page drawn (by the worker), the medians of five browser starts;
2. explore: runs per second of `explore` in the page (its worker, one thread, no report page)
   beside the native `ainb explore --jobs 1` on the same file with the same options, from the
   click to the report (the page) and the whole process (native).

    benchmarks/web_page_bench.py [--corpus DIR] [--runs N]
Needs the release and wasm presets built, chromium, chromium-driver and python3-selenium."""
import argparse
import pathlib
import re
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests/support"))
import headless_chromium  # noqa: E402
PAGE = ROOT / "build/wasm/web/ainb.html"
NATIVE = ROOT / "build/release/hosts/cli/ainb"


def largest(corpus: pathlib.Path) -> pathlib.Path:
    files = [f for folder in ("ainb", "bulk/ainb", "wide/ainb") for f in (corpus / folder).glob("*.ainb")]
    return max(files, key=lambda f: f.stat().st_size)


def open_and_run(file: pathlib.Path) -> tuple[float, float, float]:
    """A fresh browser opens the page on `file` by URL: when (ms from the navigation's start) the
    module had started, the 600-frame run was done, and the run's report page was drawn."""
    from selenium.webdriver.support.ui import WebDriverWait

    driver = headless_chromium.webdriver_session()
    try:
        driver.get(f"{PAGE.as_uri()}#open={file.as_uri()}&stub-missing-modules&frames=600&run")
        WebDriverWait(driver, 60, poll_frequency=0.01).until(
            lambda d: d.execute_script("return document.body.dataset.drawnAt"))
        return tuple(float(driver.execute_script(f"return document.body.dataset.{key}"))
                     for key in ("startedAt", "ranAt", "drawnAt"))
    finally:
        driver.quit()


def open_and_run_dump_dom(file: pathlib.Path) -> float:
    """As open_and_run, in a browser started with --dump-dom (the URL mode's own use): when the run
    was done."""
    url = f"{PAGE.as_uri()}#open={file.as_uri()}&stub-missing-modules&frames=600&run"
    dom = headless_chromium.dump_dom(url).stdout
    return float(re.search(r'data-ran-at="(\d+)"', dom).group(1))


def explore_in_page(file: pathlib.Path, runs: int) -> tuple[list[float], str]:
    """Two explorations in one page: the first in a fresh module (its code compiled as it first
    runs), the second warm."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    driver = headless_chromium.webdriver_session()
    try:
        driver.get(f"{PAGE.as_uri()}#open={file.as_uri()}&stub-missing-modules")
        count = lambda key: int(driver.execute_script(f"return document.body.dataset.{key} || 0"))  # noqa: E731
        WebDriverWait(driver, 60).until(lambda _: count("started") >= 1)
        Select(driver.find_element(By.ID, "w-file")).select_by_value(file.name)
        driver.find_element(By.ID, "w-draw").click()  # the runs only, no report page
        driver.execute_script("document.getElementById('w-runs').value = arguments[0]", str(runs))
        seconds = []
        for k in (1, 2):
            start = time.perf_counter()
            driver.find_element(By.ID, "w-explore").click()
            WebDriverWait(driver, 600, poll_frequency=0.01).until(lambda _: count("finished") >= k)
            seconds.append(time.perf_counter() - start)
        return seconds, driver.find_element(By.ID, "w-report").get_attribute("textContent")
    finally:
        driver.quit()


def explore_native(file: pathlib.Path, runs: int) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run([str(NATIVE), "explore", file.name, "--runs", str(runs), "--jobs", "1",
                           "--stub-missing-modules"], capture_output=True, text=True, cwd=file.parent)
    return time.perf_counter() - start, done.stdout


def runs_done(report: str) -> int:
    """Runs and shrinking runs, from the report's first line."""
    match = re.search(r"(\d+) runs of \d+ frames \(seed \d+\), (\d+) more to shrink", report)
    return int(match.group(1)) + int(match.group(2))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=pathlib.Path, default=ROOT.parent / "shared/corpus")
    parser.add_argument("--runs", type=int, default=10000)
    args = parser.parse_args()
    file = largest(args.corpus)
    starts = [open_and_run(file) for _ in range(5)]
    median = lambda k: statistics.median(t[k] for t in starts)  # noqa: E731
    print(f"open + 600 frames of {file.name} ({file.stat().st_size} bytes), ms from the navigation's start "
          f"(median of five browser starts): module started {median(0):.0f}, run done (trace and summary) "
          f"{median(1):.0f}, report page drawn {median(2):.0f}")
    dumped = statistics.median(open_and_run_dump_dom(file) for _ in range(5))
    print(f"  the same with --dump-dom (no WebDriver): run done {dumped:.0f} ms (median of five)")
    page_s, page_report = explore_in_page(file, args.runs)
    native_s, native_report = explore_native(file, args.runs)
    if page_report != native_report:
        sys.exit("explore: the page's report differs from the native CLI's")
    n = runs_done(native_report)
    print(f"explore {file.name}, --runs {args.runs} ({n} runs with shrinking, one thread):")
    for label, seconds in (("page, first", page_s[0]), ("page, again", page_s[1]), ("native", native_s)):
        print(f"  {label:<12} {seconds:6.2f} s {n / seconds:8.0f} runs/s  ({native_s / seconds * 100:.0f} % of native)")


if __name__ == "__main__":
    main()
