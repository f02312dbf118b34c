"""Full-size differential: accelerated vs mirrored engine on many generated scenarios.

The CI size (500 scenarios of 12 steps) runs in ``tests/accelerated/test_differential.py``;
this script runs more and longer ones, traced and untraced, and prints the first differing
seed, if any.
Run:  .venv/bin/python benchmarks/differential_full.py [--scenarios 5000] [--steps 30]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "accelerated"))

from differential import run  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenarios", type=int, default=5000)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--first-seed", type=int, default=10_000)
    ap.add_argument("--traced-only", action="store_true", help="skip the untraced run of each scenario")
    args = ap.parse_args()
    start, hosts, errors = time.perf_counter(), 0, 0
    for seed in range(args.first_seed, args.first_seed + args.scenarios):
        mirrored, accelerated = run(seed, args.steps)
        if mirrored != accelerated:
            print(f"DIFFERENT: seed {seed} (steps {args.steps}, traced)")
            sys.exit(1)
        if not args.traced_only:
            untraced = run(seed, args.steps, traced=False)
            if untraced[0] != untraced[1]:
                print(f"DIFFERENT: seed {seed} (steps {args.steps}, untraced)")
                sys.exit(1)
        for step in mirrored:
            if isinstance(step[0], list):
                hosts += step[0][0] == "host"
                errors += step[0][0] == "error"
    print(f"{args.scenarios} scenarios x {args.steps} steps identical: {hosts} placements, {errors} errors, "
          f"{time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
