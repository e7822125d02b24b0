# The installed Python package, imported from where `cmake --install` put it
# (scripts/test-install.sh): load the example, write it back through its text form, and run it
# with a node class written in Python.
import sys

import ainb


class MoveTo:
    def update(self, ctx):
        return ainb.Result.Success if ctx.input("Speed") > 1 else ainb.Result.Failure


f = ainb.load(sys.argv[1])
same = ainb.from_dict(f.to_dict()).write() == f.bytes()
run = ainb.run(f, frames=3, node_classes={"MoveTo": MoveTo})
print(f"consumer.py: {f.info()['sections']['nodes']} nodes, rewritten "
      f"{'byte for byte' if same else 'differently'}, MoveTo updated "
      f"{run.updates_by_class['MoveTo']} times (ainb {ainb.__version__} from {ainb.__file__})")
