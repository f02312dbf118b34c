"""Build the curriculum notebooks (notebooks/*.ipynb) from their sources (notebooks/src/*.py).

Sources use the "percent" format: a line ``# %%`` starts a code cell, ``# %% [markdown]`` a
markdown cell whose lines are written as comments (``# text``). Cell tags follow jupytext's
marker: ``# %% tags=["predict"]`` or ``# %% [markdown] tags=["recap"]`` (stored in the cell's
``metadata.tags``, Jupyter's convention). Run::

    .venv/bin/python tools/make_notebooks.py            # all notebooks, executed (outputs kept)
    .venv/bin/python tools/make_notebooks.py 03 --no-execute
    .venv/bin/python tools/make_notebooks.py 05 --markdown-only   # prose edits, outputs kept

Executing keeps the outputs (static SVG diagrams included) in the committed notebooks, so
GitHub and nbviewer show them without a kernel.

A markdown cell tagged ``objectives`` (``# %% [markdown] tags=["objectives"]``, its body left
empty) is written from the notebook's unit in ``kschedlearn/curriculum/units.py``: title,
objectives, prerequisites, exercises and the learner time. The time is *measured*: after the
headless run, ``kschedlearn.curriculum.timing.measure`` weighs each cell's execution time, prose,
code, figures and checked activities, and the result goes to
``kschedlearn/curriculum/data/timings.json`` and into the cell. The build runs its kernels with
``$KSCHEDLEARN_DATA_DIR`` pointing at a temporary folder, so building records no progress.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "notebooks" / "src"
OUT = ROOT / "notebooks"
TIMINGS = ROOT / "kschedlearn" / "curriculum" / "data" / "timings.json"
_TAGS = re.compile(r"tags=(\[[^\]]*\])")


def parse_tags(marker: str) -> list[str]:
    """The tags of a ``# %%`` marker line (``tags=["predict", ...]``), or none."""
    m = _TAGS.search(marker)
    if m is None:
        return []
    try:
        tags = json.loads(m.group(1))
    except json.JSONDecodeError as err:
        raise SystemExit(f"bad cell tags in marker {marker!r}: {err}") from None
    if not all(isinstance(t, str) for t in tags):
        raise SystemExit(f"bad cell tags in marker {marker!r}: tags must be strings")
    return tags


def parse_source(text: str) -> nbformat.NotebookNode:
    """Turn percent-format text into a notebook."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    kind, lines, tags = None, [], []

    def flush() -> None:
        if kind is None:
            return
        body = "\n".join(lines).strip("\n")
        if kind == "markdown":
            body = "\n".join(l[2:] if l.startswith("# ") else l.lstrip("#") for l in body.splitlines())
            cell = nbformat.v4.new_markdown_cell(body)
        elif body.strip():
            cell = nbformat.v4.new_code_cell(body)
        else:
            return
        if tags:
            cell.metadata["tags"] = tags
        nb.cells.append(cell)

    for line in text.splitlines():
        if line.startswith("# %%"):
            flush()
            kind, lines, tags = ("markdown" if "[markdown]" in line else "code"), [], parse_tags(line)
        else:
            lines.append(line)
    flush()
    return nb


def fill_objectives(nb: nbformat.NotebookNode, stem: str) -> None:
    """Write the ``objectives`` cell of notebook ``stem`` from its unit (a notebook without a unit,
    or a unit without that cell, is an error naming both)."""
    from kschedlearn.curriculum import catalog

    cells = [c for c in nb.cells if "objectives" in c.metadata.get("tags", [])]
    try:
        unit = catalog.unit(stem)
    except KeyError:
        if cells:
            raise SystemExit(f"{stem}: has an objectives cell but no unit in kschedlearn/curriculum/units.py") from None
        return
    if len(cells) != 1:
        raise SystemExit(f"{stem}: needs exactly one cell tagged objectives, found {len(cells)}")
    catalog.timings.cache_clear()
    cells[0].source = catalog.render_objectives(unit)


def record_timing(nb: nbformat.NotebookNode, stem: str) -> None:
    """Measure the executed notebook and store its learner time in ``timings.json``."""
    from kschedlearn.curriculum.timing import measure

    data = json.loads(TIMINGS.read_text(encoding="utf-8")) if TIMINGS.exists() else {}
    data[stem] = measure(nb).as_json()
    TIMINGS.parent.mkdir(parents=True, exist_ok=True)
    TIMINGS.write_text(json.dumps(dict(sorted(data.items())), indent=1) + "\n", encoding="utf-8")

def refresh_markdown(src: Path) -> Path:
    """Copy the markdown cells of ``src`` into the built notebook, keeping its outputs.

    Only for prose edits: the built notebook must have the same cells, with the same code and
    tags, as the source (else the outputs could be stale), or this refuses.
    """
    new = parse_source(src.read_text(encoding="utf-8"))
    out = OUT / (src.stem + ".ipynb")
    old = nbformat.read(out, as_version=4)

    def shape(nb: nbformat.NotebookNode) -> list[tuple[str, str, list[str]]]:
        return [(c.cell_type, c.source if c.cell_type == "code" else "", c.metadata.get("tags", []))
                for c in nb.cells]

    if shape(old) != shape(new):
        raise SystemExit(f"{out.relative_to(ROOT)}: code cells or tags changed since it was built; "
                         "execute it instead of --markdown-only")
    for old_cell, new_cell in zip(old.cells, new.cells):
        if old_cell.cell_type == "markdown":
            old_cell.source = new_cell.source
    fill_objectives(old, src.stem)  # the objectives cell comes from the catalog, not the source
    nbformat.write(old, out)
    return out


def build(src: Path, execute: bool, timeout: int = 600) -> Path:
    nb = parse_source(src.read_text(encoding="utf-8"))
    fill_objectives(nb, src.stem)
    out = OUT / (src.stem + ".ipynb")
    if execute:
        with tempfile.TemporaryDirectory(prefix="kschedlearn-build-progress-") as progress_dir:
            before = os.environ.get("KSCHEDLEARN_DATA_DIR")
            os.environ["KSCHEDLEARN_DATA_DIR"] = progress_dir  # the kernel inherits it: no progress recorded
            try:
                NotebookClient(nb, timeout=timeout, kernel_name="python3",
                               resources={"metadata": {"path": str(OUT)}}).execute()
            finally:
                if before is None:
                    os.environ.pop("KSCHEDLEARN_DATA_DIR", None)
                else:
                    os.environ["KSCHEDLEARN_DATA_DIR"] = before
        record_timing(nb, src.stem)
        fill_objectives(nb, src.stem)  # now with the time just measured
    nbformat.write(nb, out)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("which", nargs="*", help="notebook number prefixes (default: all)")
    ap.add_argument("--no-execute", action="store_true")
    ap.add_argument("--markdown-only", action="store_true",
                    help="copy the prose into the built notebooks, keeping their outputs")
    args = ap.parse_args(argv)
    sources = sorted(SRC.glob("*.py"))
    if args.which:
        sources = [s for s in sources if any(s.name.startswith(w) for w in args.which)]
    for src in sources:
        t = time.time()
        out = refresh_markdown(src) if args.markdown_only else build(src, execute=not args.no_execute)
        print(f"{out.relative_to(ROOT)}  {time.time() - t:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
