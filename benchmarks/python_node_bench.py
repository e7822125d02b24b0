"""What a node class written in Python costs per update, beside a C++ class doing the same
(docs/benchmarks.md, "Python node classes").

    PYTHONPATH=build/release/hosts/python python3 benchmarks/python_node_bench.py \\
        [--example build/release/examples/patrol.root.ainb] [--frames 200000] [--repeat 5]

The example's Root command with IsEnemyNear false updates four nodes a frame: MoveTo (which
never finishes here) and three built-in composites. Each row runs it without a trace with MoveTo
as another class: a scenario's scripted class (C++, the baseline), and Python classes that do
nothing, read an input, and read an input and write an output. A row's cost per update is the
difference of its best time and the baseline's, divided by MoveTo's updates.
"""

import argparse
import time

import ainb


class Idle:
    def update(self, ctx):
        return ainb.Result.Running


class ReadsInput:
    def update(self, ctx):
        ctx.input("Speed")
        return ainb.Result.Running


class ReadsAndWrites:
    def enter(self, ctx):
        self.left = 100.0

    def update(self, ctx):
        self.left -= ctx.input("Speed")
        ctx.output("DistanceLeft", self.left)
        return ainb.Result.Running


def best(repeat, run):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return min(times), result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--example", default="build/release/examples/patrol.root.ainb")
    parser.add_argument("--frames", type=int, default=200000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    scripted = {"nodes": {"MoveTo": {"running": 2**31 - 1}}}

    def run(scenario=None, classes=None):
        return ainb.run(args.example, scenario, frames=args.frames, trace=False, node_classes=classes)

    base, result = best(args.repeat, lambda: run(scripted))
    updates = result.updates_by_class["MoveTo"]
    print(f"{args.frames} frames, {result.visits} updates ({updates} of MoveTo), best of {args.repeat}")
    print(f"{'MoveTo as':<34} {'run':>9} {'per MoveTo update':>18} {'over C++':>9}")
    per_update = base / updates * 1e9
    print(f"{'scripted by the scenario (C++)':<34} {base * 1e3:>7.1f}ms {per_update:>15.0f}ns")
    for name, cls in [("Python: returns Running", Idle), ("Python: reads an input", ReadsInput),
                      ("Python: reads, writes an output", ReadsAndWrites)]:
        t, r = best(args.repeat, lambda: run(classes={"MoveTo": cls}))
        assert r.updates_by_class["MoveTo"] == updates, r.text
        print(f"{name:<34} {t * 1e3:>7.1f}ms {t / updates * 1e9:>15.0f}ns "
              f"{(t - base) / updates * 1e6:>7.2f}µs")


if __name__ == "__main__":
    main()
