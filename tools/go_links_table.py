"""The table of every ``Go:`` link in the package: Go file, symbol, line range, Python twin.

Usage::

    python3 tools/go_links_table.py GO_ROOT > docs/go-links.tsv

``GO_ROOT`` is a directory holding the Go files the package links to, laid out as in the
kubernetes repository at v1.6.1 (``plugin/pkg/scheduler/...``, ``staging/src/k8s.io/...``);
the symbol of each range is looked up with ``tools/go_ranges.py``. Without ``GO_ROOT`` the
symbol column is taken from the existing table. ``tests/test_go_links.py`` checks the package
against the table with :func:`collect_links`, so an edited link cannot drift silently.

kschedlearn-only tool.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

BLOB = "https://github.com/kubernetes/kubernetes/blob/v1.6.1/"
_URL = re.compile(re.escape(BLOB) + r"([A-Za-z0-9_./-]+?\.go)(?:#L(\d+)(?:-L(\d+))?)?(?![A-Za-z0-9_/-])")
# a bare "file.go#Lx-Ly" (relative to a Go file the same module links in full)
_REL = re.compile(r"(?<![/A-Za-z0-9_.-])([a-z0-9_]+\.go)#L(\d+)(?:-L(\d+))?")

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "docs" / "go-links.tsv"
HEADER = "go_file\tsymbol\trange\tpython"


def _docstrings(tree: ast.Module) -> list[tuple[str, str, bool]]:
    """``(qualname, docstring, is_module)`` for the module, every class and every function."""
    out = [("", ast.get_docstring(tree, clean=False) or "", True)]

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{prefix}{child.name}"
                out.append((name, ast.get_docstring(child, clean=False) or "", False))
                walk(child, name + ".")

    walk(tree, "")
    return out


def collect_links(package: Path = ROOT / "kschedlearn") -> list[dict[str, object]]:
    """Every v1.6.1 ``.go`` link in a docstring of the package, with its owner.

    A bare ``file.go#Lx-Ly`` is resolved against the Go files the same module links by URL
    (a unique file name); one that cannot be resolved is reported with ``go_file`` None.
    """
    links: list[dict[str, object]] = []
    for path in sorted(package.rglob("*.py")):
        module = ".".join(path.relative_to(package.parent).with_suffix("").parts)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = _docstrings(tree)
        full = {m.group(1) for _, doc, _ in docs for m in _URL.finditer(doc)}
        by_name: dict[str, set[str]] = {}
        for go in full:
            by_name.setdefault(go.rsplit("/", 1)[-1], set()).add(go)
        for qualname, doc, is_module in docs:
            twin = f"{module}:{qualname}" if qualname else module
            spans = []
            for m in _URL.finditer(doc):
                spans.append(m.span())
                rng = f"L{m.group(2)}-L{m.group(3) or m.group(2)}" if m.group(2) else ""
                links.append({"go_file": m.group(1), "range": rng, "python": twin, "module_doc": is_module,
                              "text": m.group(0)})
            for m in _REL.finditer(doc):
                if any(a <= m.start() < b for a, b in spans):
                    continue
                candidates = by_name.get(m.group(1), set())
                go = next(iter(candidates)) if len(candidates) == 1 else None
                links.append({"go_file": go, "range": f"L{m.group(2)}-L{m.group(3) or m.group(2)}",
                              "python": twin, "module_doc": is_module, "text": m.group(0)})
    return links


def read_table(path: Path = TABLE) -> list[dict[str, str]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == HEADER, f"{path}: first line must be {HEADER!r}"
    rows = []
    for line in lines[1:]:
        go_file, symbol, rng, python = line.split("\t")
        rows.append({"go_file": go_file, "symbol": symbol, "range": rng, "python": python})
    return rows


def build(go_root: Path | None) -> str:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from go_ranges import declarations  # noqa: PLC0415

    old = {(r["go_file"], r["range"]): r["symbol"] for r in read_table()} if TABLE.exists() else {}
    grouped: dict[tuple[str, str], set[str]] = {}
    for link in collect_links():
        if link["go_file"] is None or not link["range"]:
            continue
        grouped.setdefault((str(link["go_file"]), str(link["range"])), set()).add(str(link["python"]))
    decls: dict[str, dict[tuple[int, int], str]] = {}
    out = [HEADER]
    for (go_file, rng), twins in sorted(grouped.items()):
        symbol = old.get((go_file, rng), "-")
        if go_root is not None and (go_root / go_file).is_file():
            if go_file not in decls:
                decls[go_file] = {}
                for name, s, e in declarations((go_root / go_file).read_text(encoding="utf-8")):
                    decls[go_file].setdefault((s, e), name)
            s, e = (int(x) for x in rng[1:].split("-L"))
            symbol = decls[go_file].get((s, e), symbol)
        if symbol == "-" and all(":" not in t for t in twins):
            symbol = "(file)"  # a module docstring's span over the file's declarations
        out.append(f"{go_file}\t{symbol}\t{rng}\t{', '.join(sorted(twins))}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.stdout.write(build(Path(sys.argv[1]) if len(sys.argv) > 1 else None))
