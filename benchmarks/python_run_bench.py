"""A run through `import ainb` beside the same run by the `ainb` program: what Python adds to a
simulation that calls no Python code (docs/benchmarks.md, "Python").

    PYTHONPATH=build/release/hosts/python python3 benchmarks/python_run_bench.py \\
        [--ainb build/release/hosts/cli/ainb] [--corpus ../shared/corpus] [--repeat 7]

Each row runs one corpus file for its frames without a trace, `repeat` times each way,
alternating, and prints the median wall times and their ratio. The program's time includes
its start (about a millisecond); the module's includes building the result's Python values.
A last row reads the events of a long run of the example both ways: kept (ainb.run's list)
and streamed (ainb.trace).
"""

import argparse
import pathlib
import statistics
import subprocess
import time

import ainb

ROWS = [
    ("ainb/Toby.utility.root.ainb", 100000, ["stub_missing_modules", "restart"]),
    ("ainb/_LocalModule_d0e7ebe89ded.module.ainb", 20000, ["stub_missing_modules"]),
    ("ainb/NpcTripMaster.utility.root.ainb", 20000, ["stub_missing_modules", "restart"]),
]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ainb", default="build/release/hosts/cli/ainb")
    parser.add_argument("--corpus", default="../shared/corpus")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    print(f"{'file':<46} {'frames':>6} {'ainb run':>10} {'ainb.run':>10} {'ratio':>6}")
    for name, frames, flags in ROWS:
        path = pathlib.Path(args.corpus) / name
        command = [args.ainb, "run", str(path), "--frames", str(frames)]
        command += ["--" + flag.replace("_", "-") for flag in flags]
        options = {flag: True for flag in flags}
        program, module = [], []
        for _ in range(args.repeat):
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            program.append(time.perf_counter() - start)
            start = time.perf_counter()
            ainb.run(path, frames=frames, trace=False, **options)
            module.append(time.perf_counter() - start)
        a, b = statistics.median(program), statistics.median(module)
        print(f"{path.name:<46} {frames:>6} {a * 1e3:>8.1f}ms {b * 1e3:>8.1f}ms {b / a:>6.2f}")
    example = pathlib.Path(args.ainb).parents[2] / "examples/patrol.root.ainb"
    start = time.perf_counter()
    kept = len(ainb.run(example, frames=200000, restart=True).trace)
    middle = time.perf_counter()
    streamed = sum(1 for _ in ainb.trace(example, frames=200000, restart=True))
    end = time.perf_counter()
    assert kept == streamed
    print(f"\n{kept} events of {example.name}, 200000 frames: ainb.run's list {middle - start:.1f}s, "
          f"ainb.trace {end - middle:.1f}s")


if __name__ == "__main__":
    main()
