#!/usr/bin/env python3
"""The page's debugger, its speed (docs/benchmarks.md, "The debugger in the page"), in Debian's headless
Chromium: on the largest public real AI file and on the one whose 600-frame run has the most events, with
the report page drawn (the debugger moves it too), milliseconds from a control's click to the next
painted frame after the report page has followed (a `requestAnimationFrame` and a task after it):

- step: the next event, 200 times; frame: the next frame, 200 times; scrub: the slider to 200 spread
  events; back: "to frame" 1,000 frames back (and forth), 20 times, in a 1,200-frame run;
- rerun: "to frame" past the run's end, which runs it again from frame 0 with that many frames (1,300,
  1,400, … 1,700): from the click to the cursor there, 5 times.

p50 and p99 of each, in ms.
    benchmarks/web_debugger_bench.py [--corpus DIR] [FILE...]
Needs the release and wasm presets built, chromium, chromium-driver and python3-selenium."""
import argparse
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests/support"))
import headless_chromium  # noqa: E402

PAGE = ROOT / "build/wasm/web/ainb.html"
NATIVE = ROOT / "build/release/hosts/cli/ainb"

# Works a control `times` times and times each, in the page: `before(i)` sets inputs first, then a
# click (or an input event, for the slider); from it to a painted frame after the report page's
# message was handled; with `run`, after the run it started has finished too.
TIME_CONTROL = """
const [id, times, before, event, run, done] = arguments;
const $ = (x) => document.getElementById(x);
const painted = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
const finished = () => Number(document.body.dataset.finished || 0);
(async () => {
  const ms = [];
  for (let i = 0; i < times; ++i) {
    new Function('i', before)(i);
    const runs = finished();
    const start = performance.now();
    if (event === 'click') $(id).click();
    else $(id).dispatchEvent(new Event(event));
    while (run && finished() === runs) await new Promise((r) => setTimeout(r, 1));
    await painted();
    ms.push(performance.now() - start);
  }
  return ms;
})().then(done, (e) => done({ error: String(e) }));
"""


def busiest(corpus: pathlib.Path) -> pathlib.Path:
    best, most = None, -1
    for f in sorted((corpus / "wide/ainb").glob("*.ainb")):
        done = subprocess.run([NATIVE, "run", f, "--stub-missing-modules", "--frames", "600", "--trace", "-"],
                              capture_output=True, text=True)
        n = done.stdout.count("\n")
        if done.returncode == 0 and n > most:
            best, most = f, n
    return best


def percentiles(ms: list[float]) -> str:
    s = sorted(ms)
    return f"p50 {s[len(s) // 2]:.1f}, p99 {s[min(len(s) - 1, int(len(s) * 0.99))]:.1f} ms ({len(s)})"


def measure(file: pathlib.Path) -> dict:
    from selenium.webdriver.support.ui import WebDriverWait

    driver = headless_chromium.webdriver_session()
    driver.set_script_timeout(600)
    try:
        driver.get(f"{PAGE.as_uri()}#open={file.as_uri()}&stub-missing-modules&frames=1200&at=0&run")
        WebDriverWait(driver, 120, poll_frequency=0.01).until(
            lambda d: d.execute_script("return document.body.dataset.drawnAt"))
        events = int(driver.execute_script("return document.getElementById('w-d-slider').max")) + 1
        def control(element, times, before="", event="click", run=False):
            return driver.execute_async_script(TIME_CONTROL, element, times, before, event, run)

        to = "document.getElementById('w-d-to').value = String({});"
        out = {"events": events}
        out["step"] = control("w-d-step", 200)
        out["frame"] = control("w-d-frame", 200)
        out["scrub"] = control("w-d-slider", 200, f"document.getElementById('w-d-slider').value = "
                               f"String((i * 7919) % {events});", event="input")
        out["back"] = control("w-d-go", 20, to.format("i % 2 ? 100 : 1100"))
        # Each past the run's end: the run again from frame 0, 100 frames longer each time.
        out["rerun"] = control("w-d-go", 5, to.format("1300 + 100 * i"), run=True)
        return out
    finally:
        driver.quit()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=pathlib.Path, default=ROOT.parent / "shared/corpus")
    parser.add_argument("files", nargs="*", type=pathlib.Path, help="instead of the two files above")
    args = parser.parse_args()
    corpus = args.corpus.resolve()
    files = [f.resolve() for f in args.files] or [corpus / "ainb/Accessory_Battery_Event.event.root.ainb",
                                                  busiest(corpus)]
    for f in files:
        out = measure(f)
        print(f"{f.name} ({f.stat().st_size:,} bytes; {out['events']:,} events in 1,200 frames)")
        for key in ("step", "frame", "scrub", "back", "rerun"):
            print(f"  {key:6} {percentiles(out[key])}")
        print(json.dumps({k: v for k, v in out.items() if k != "events"}), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
