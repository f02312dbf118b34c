"""Regenerate tests/viz/golden/*.dot after an intended change to a view.

Run:  cd /work/main && .venv/bin/python tests/viz/make_goldens.py
then review ``git diff tests/viz/golden`` before committing.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from viz_samples import GOLDENS, build_golden  # noqa: E402


def main() -> None:
    out = HERE / "golden"
    out.mkdir(exist_ok=True)
    for name in sorted(GOLDENS):
        (out / f"{name}.dot").write_text(build_golden(name), encoding="utf-8")
        print(f"wrote {name}.dot")


if __name__ == "__main__":
    main()
