"""python run.py STORE -> one JSON line per question with its verdict (benchmarks/heldout/common.py)."""
import os
import sys

sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)), os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]
from qs import Q  # noqa: E402
import common  # noqa: E402

if __name__ == "__main__":
    common.run(Q, "marek")
