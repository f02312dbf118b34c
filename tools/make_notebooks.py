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
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "notebooks" / "src"
OUT = ROOT / "notebooks"
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
    nbformat.write(old, out)
    return out


def build(src: Path, execute: bool, timeout: int = 600) -> Path:
    nb = parse_source(src.read_text(encoding="utf-8"))
    out = OUT / (src.stem + ".ipynb")
    if execute:
        NotebookClient(nb, timeout=timeout, kernel_name="python3",
                       resources={"metadata": {"path": str(OUT)}}).execute()
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
