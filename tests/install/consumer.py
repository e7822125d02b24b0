# The installed Python package, imported from where `cmake --install` put it
# (scripts/test-install.sh): load the example and write it back through its text form.
import sys

import ainb

f = ainb.load(sys.argv[1])
same = ainb.from_dict(f.to_dict()).write() == f.bytes()
print(f"consumer.py: {f.info()['sections']['nodes']} nodes, rewritten "
      f"{'byte for byte' if same else 'differently'} (ainb {ainb.__version__} from {ainb.__file__})")
