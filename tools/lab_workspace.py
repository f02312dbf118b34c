"""The learner's workspace for ``make lab``: copies of the notebooks that the learner's runs may change.

Go: none (kschedlearn-only). Usage: ``python tools/lab_workspace.py [WORKSPACE]`` (default
``lab/``, which .gitignore leaves out of git). The committed notebooks (``notebooks/*.ipynb`` and
``exercises/*.ipynb``) carry their outputs, so their diagrams show without a kernel; a learner who
runs them in JupyterLab saves over those outputs, and the next ``git pull`` would conflict. So
``make lab`` serves a workspace of copies instead, laid out like the repository (``notebooks/``,
``exercises/``, and a link to ``benchmarks/`` for notebook 14), and never writes to a tracked file:

- a notebook missing from the workspace is copied there (outputs and all);
- a copy the learner has not changed follows the committed notebook when that changes
  (``.origin.json`` remembers the hash of what was copied);
- a copy the learner has changed is kept as it is; when the committed notebook changed too, the
  new version is put beside it as ``NAME.new.ipynb`` and the tool says so.

Delete a copy (or the whole workspace) to start that notebook afresh.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("notebooks", "exercises")
LINKS = ("benchmarks",)  # read by the notebooks through ../<name>
ORIGIN = ".origin.json"


def _hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def sync(workspace: Path, root: Path = ROOT) -> list[str]:
    """Bring ``workspace`` up to date with the committed notebooks; what it did, one line each."""
    workspace.mkdir(parents=True, exist_ok=True)
    origin_file = workspace / ORIGIN
    origin: dict[str, str] = json.loads(origin_file.read_text()) if origin_file.exists() else {}
    said = []
    for folder in FOLDERS:
        (workspace / folder).mkdir(exist_ok=True)
        for source in sorted((root / folder).glob("*.ipynb")):
            name = f"{folder}/{source.name}"
            copy = workspace / name
            committed = _hash(source)
            if not copy.exists():
                shutil.copyfile(source, copy)
                origin[name] = committed
                said.append(f"copied {name}")
            elif origin.get(name) == committed:
                continue
            elif _hash(copy) == origin.get(name):  # untouched by the learner: follow the repository
                shutil.copyfile(source, copy)
                origin[name] = committed
                said.append(f"updated {name} (the committed notebook changed; you had not changed your copy)")
            else:
                newer = copy.with_suffix(".new.ipynb")
                shutil.copyfile(source, newer)
                said.append(f"kept your {name}; the committed notebook changed: its new version is "
                            f"{newer.relative_to(workspace)}")
    for link in LINKS:
        target = workspace / link
        if not target.exists() and (root / link).is_dir():
            target.symlink_to(os.path.relpath(root / link, workspace))
    origin_file.write_text(json.dumps(origin, indent=1, sort_keys=True) + "\n")
    return said


def main(argv: list[str]) -> int:
    workspace = Path(argv[0]) if argv else ROOT / "lab"
    for line in sync(workspace.resolve()):
        print(f"lab workspace: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
