"""The table of every link to the v1.6.1 Go source a learner can meet: Go file, symbol, range, where.

Usage::

    python3 tools/go_links_table.py GO_ROOT -o docs/go-links.tsv

(``-o`` writes the file after reading the old one; without it the table goes to stdout.)

Links are collected from three places:

* the package (``kschedlearn/**.py``): docstrings, comments and string expressions, with
  module-level string constants, constants imported from other project modules, ``+`` / f-string
  joins, literal tuples and dicts and module-level ``for`` loops over them evaluated statically
  (so ``register_stage(name, _GO + "#L10-L20", ...)`` and ``go_links=(("x", GO + "..."),)`` are
  seen as the URLs they build); a bare ``file.go#Lx-Ly`` in a docstring or comment is resolved
  against the Go files the same module links by URL;
* the notebook sources ``notebooks/src/*.py`` (every URL in their markdown and code);
* the exercise notebooks ``exercises/*.ipynb`` (every URL in their cells).

``GO_ROOT`` is a directory holding the Go files and package directories the links name, laid
out as in the kubernetes repository at v1.6.1 (``plugin/pkg/scheduler/...``,
``staging/src/k8s.io/...``). Each range is looked up with ``tools/go_ranges.py``: a range equal to
one declaration (its doc comment through its closing line) gets that declaration's name; a
range from the start of one top-level declaration to the end of another gets ``First .. Last``
(a module's span over the file, or a solution's over the functions it covers); a link without a range gets ``(file)`` or ``(package)``; anything
else gets ``-``, which ``tests/test_go_links.py`` rejects. Without ``GO_ROOT`` the symbol column
is taken from the existing table (new ranges get ``-``). The test checks the package, the
notebooks and the exercises against the table with :func:`collect_links`, with no Go tree.

kschedlearn-only tool.
"""

from __future__ import annotations

import ast
import io
import json
import re
import sys
import tokenize
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "docs" / "go-links.tsv"
HEADER = "go_file\tsymbol\trange\twhere"
NO_RANGE = "-"

_PREFIX = "https://github.com/kubernetes/kubernetes/"
_URL = re.compile(r"https://github\.com/kubernetes/kubernetes/(blob|tree)/v1\.6\.1/"
                  r"([A-Za-z0-9_./-]*[A-Za-z0-9_-])(?![A-Za-z0-9_/-]|\.[A-Za-z0-9_/-])(?:#L(\d+)(?:-L(\d+))?)?")
# a bare "file.go#Lx-Ly" (relative to a Go file the same module links in full)
_REL = re.compile(r"(?<![/A-Za-z0-9_.-])([a-z0-9_]+\.go)#L(\d+)(?:-L(\d+))?")
# a markdown link [text](url): the text says what the link is for
_MD_LINK = re.compile(r"\[([^\]]*)\]\((https://github\.com/kubernetes/kubernetes/[^)\s]*)\)")


class _Unknown(Exception):
    """An expression the static evaluator cannot reduce to a value."""


# ------------------------------------------------------------------------------ static evaluation
class _Module:
    """The statically known module-level values of one project module."""

    def __init__(self, path: Path, name: str, modules: dict[str, _Module | None]) -> None:
        self.path, self.name, self.modules = path, name, modules
        self.tree = ast.parse(path.read_text(encoding="utf-8"))
        self._env: dict[str, Any] = {}
        self._aliases: dict[str, str] = {}  # local name -> module name (import X as Y)
        self._bound = False

    def _bind_all(self) -> None:
        """Evaluate the module's top-level bindings once, on first use: by then every module is
        parsed, and an import cycle sees the names bound so far (as Python would)."""
        if not self._bound:
            self._bound = True
            for node in self.tree.body:
                self._bind(node)

    @property
    def env(self) -> dict[str, Any]:
        self._bind_all()
        return self._env

    @property
    def aliases(self) -> dict[str, str]:
        self._bind_all()
        return self._aliases

    def _bind(self, node: ast.stmt) -> None:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                local = alias.asname or alias.name
                other = _module(node.module, self.modules)
                if other is not None and alias.name in other.env:
                    self._env[local] = other.env[alias.name]
                elif _module(f"{node.module}.{alias.name}", self.modules) is not None:
                    self._aliases[local] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    self._aliases[alias.asname] = alias.name
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    try:
                        self._env[target.id] = self.eval(node.value, {})
                    except _Unknown:
                        self._env.pop(target.id, None)

    def eval(self, node: ast.expr, local: dict[str, Any]) -> Any:  # noqa: C901, PLR0911, PLR0912 - one case per node type
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            for scope in (local, self.env):
                if node.id in scope:
                    return scope[node.id]
            raise _Unknown
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = self.eval(node.left, local), self.eval(node.right, local)
            if isinstance(left, str) and isinstance(right, str):
                return left + right
            raise _Unknown
        if isinstance(node, ast.JoinedStr):
            return "".join(str(self.eval(v.value, local)) if isinstance(v, ast.FormattedValue)
                           else str(v.value) for v in node.values)  # type: ignore[attr-defined]
        if isinstance(node, (ast.Tuple, ast.List)):
            return tuple(self.eval(e, local) for e in node.elts)
        if isinstance(node, ast.Dict):
            if any(k is None for k in node.keys):
                raise _Unknown
            return {self.eval(k, local): self.eval(v, local) for k, v in zip(node.keys, node.values)}  # type: ignore[arg-type]
        if isinstance(node, ast.Subscript):
            container, index = self.eval(node.value, local), self.eval(node.slice, local)
            try:
                return container[index]
            except (KeyError, IndexError, TypeError) as err:
                raise _Unknown from err
        if isinstance(node, ast.Attribute):
            return self._attribute(node)
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args
                and node.func.attr in ("items", "keys", "values")):
            mapping = self.eval(node.func.value, local)
            if isinstance(mapping, dict):
                return tuple(getattr(mapping, node.func.attr)())
        raise _Unknown


    def _attribute(self, node: ast.Attribute) -> Any:
        """``alias.CONST`` or ``alias.sub.CONST`` for a project module imported under ``alias``."""
        parts = [node.attr]
        value: ast.expr = node.value
        while isinstance(value, ast.Attribute):
            parts.insert(0, value.attr)
            value = value.value
        if not isinstance(value, ast.Name) or value.id not in self.aliases:
            raise _Unknown
        dotted = self.aliases[value.id]
        for part in parts[:-1]:
            dotted = f"{dotted}.{part}"
        other = _module(dotted, self.modules)
        if other is None or parts[-1] not in other.env:
            raise _Unknown
        return other.env[parts[-1]]


def _module(name: str, modules: dict[str, _Module | None]) -> _Module | None:
    """The project module ``name`` (``kschedlearn.x.y``), parsed once; None outside the project."""
    if name not in modules:
        modules[name] = None  # not a project module unless a file is found below
        base = ROOT / Path(*name.split("."))
        for path in (base.with_suffix(".py"), base / "__init__.py"):
            if name.split(".")[0] == "kschedlearn" and path.is_file():
                modules[name] = _Module(path, name, modules)
                break
    return modules[name]


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)


class _Collector:
    """Walk one module: every string the code builds, with the def/class it belongs to."""

    def __init__(self, mod: _Module) -> None:
        self.mod = mod
        self.found: list[tuple[int, str, str, bool]] = []  # (line, owner qualname, text, is_docstring)
        self.docstrings: set[int] = set()

    def run(self) -> list[tuple[int, str, str, bool]]:
        self._block(self.mod.tree.body, "", {}, top=True)
        return self.found

    def _block(self, body: list[ast.stmt], owner: str, local: dict[str, Any], top: bool = False) -> None:
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            self.docstrings.add(id(body[0].value))
        for stmt in body:
            self._stmt(stmt, owner, local, top)

    def _stmt(self, stmt: ast.stmt, owner: str, local: dict[str, Any], top: bool) -> None:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = f"{owner}.{stmt.name}" if owner else stmt.name
            for deco in stmt.decorator_list:
                self._expr(deco, owner, local)
            self._block(stmt.body, name, {})
            return
        if isinstance(stmt, ast.For) and top:
            self._expr(stmt.iter, owner, local)
            try:
                items = self.mod.eval(stmt.iter, local)
            except _Unknown:
                items = None
            if isinstance(items, (tuple, list)):
                for item in items:
                    inner = dict(local)
                    try:
                        _assign(stmt.target, item, inner)
                    except _Unknown:
                        break
                    self._block(stmt.body, owner, inner, top=True)
                else:
                    return
        if isinstance(stmt, ast.Assign) and top and all(isinstance(t, ast.Name) for t in stmt.targets):
            try:
                value = self.mod.eval(stmt.value, local)
                for t in stmt.targets:
                    local[t.id] = value  # type: ignore[attr-defined]
            except _Unknown:
                pass
        for child in ast.iter_child_nodes(stmt):
            if isinstance(child, ast.expr):
                self._expr(child, owner, local)
            elif isinstance(child, ast.stmt):
                self._stmt(child, owner, local, top=False)
            elif isinstance(child, (ast.excepthandler, ast.withitem, ast.match_case)):
                for sub in ast.iter_child_nodes(child):
                    if isinstance(sub, ast.expr):
                        self._expr(sub, owner, local)
                    elif isinstance(sub, ast.stmt):
                        self._stmt(sub, owner, local, top=False)

    def _expr(self, node: ast.expr, owner: str, local: dict[str, Any]) -> None:
        if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)):
            return  # a reference to a value: the link is counted where the value is built
        if isinstance(node, (ast.Constant, ast.BinOp, ast.JoinedStr, ast.Tuple, ast.List, ast.Dict)):
            try:
                value = self.mod.eval(node, local)
            except _Unknown:
                value = None
            else:
                for text in _strings(value):
                    if _PREFIX in text or ".go#L" in text:
                        self.found.append((node.lineno, owner, text, id(node) in self.docstrings))
                return
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self._expr(child, owner, local)
            elif isinstance(child, ast.keyword):
                self._expr(child.value, owner, local)
            elif isinstance(child, ast.comprehension):
                for sub in ast.iter_child_nodes(child):
                    if isinstance(sub, ast.expr):
                        self._expr(sub, owner, local)


def _assign(target: ast.expr, value: Any, scope: dict[str, Any]) -> None:
    if isinstance(target, ast.Name):
        scope[target.id] = value
    elif isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (tuple, list)) \
            and len(value) == len(target.elts):
        for t, v in zip(target.elts, value):
            _assign(t, v, scope)
    else:
        raise _Unknown


def _comments(text: str) -> Iterator[tuple[int, str]]:
    if "#" not in text.replace("#L", ""):
        return
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            yield tok.start[0], tok.string


def _may_have_a_link_comment(text: str) -> bool:
    """Whether some line has ``.go`` or ``/v1.6.1/`` after a ``#``: a comment runs from its
    ``#`` to the end of its line, so without such a line no comment can hold a link, and the file
    need not be tokenized (pure-Python ``tokenize`` was a third of the collection under
    cProfile; 322 of the 362 modules with links have none in a comment)."""
    for line in text.split("\n"):  # (every line tokenize sees lies inside one of these pieces)
        at = line.find("#")
        if at >= 0 and (".go" in line[at:] or "/v1.6.1/" in line[at:]):
            return True
    return False


def _link_comments(text: str) -> Iterator[tuple[int, str]]:
    """The comments of ``text`` that name a Go file or a v1.6.1 URL, with their line numbers."""
    if not _may_have_a_link_comment(text):
        return
    for line, comment in _comments(text):
        if ".go" in comment or "/v1.6.1/" in comment:
            yield line, comment


def _owner_at(tree: ast.Module) -> dict[int, str]:
    """Line -> qualname of the innermost def/class spanning it."""
    owners: dict[int, str] = {}

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{prefix}{child.name}"
                for line in range(child.lineno, (child.end_lineno or child.lineno) + 1):
                    owners[line] = name
                walk(child, name + ".")

    walk(tree, "")
    return owners


# ------------------------------------------------------------------------------------- collection
def _link(go_file: str | None, first: str | None, last: str | None, where: str, module_level: bool,
          text: str, label: str = "") -> dict[str, Any]:
    rng = f"L{first}-L{last or first}" if first else NO_RANGE
    return {"go_file": go_file, "range": rng, "where": where, "module_level": module_level,
            "text": text, "label": label}


def _urls(text: str, where: str, module_level: bool) -> list[dict[str, Any]]:
    labels = {m.start(2): m.group(1) for m in _MD_LINK.finditer(text)}
    return [_link(m.group(2), m.group(3), m.group(4), where, module_level, m.group(0), labels.get(m.start(), ""))
            for m in _URL.finditer(text)]


def _package_links(package: Path) -> list[dict[str, Any]]:
    modules: dict[str, _Module | None] = {}
    links: list[dict[str, Any]] = []
    for path in sorted(package.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if ".go" not in source and "/v1.6.1/" not in source:
            continue  # no Go file name and no URL: nothing here can build a link
        name = ".".join(path.relative_to(package.parent).with_suffix("").parts)
        name = name.removesuffix(".__init__")
        mod = _module(name, modules)
        if mod is None:
            continue
        texts = [(line, owner, text, is_doc) for line, owner, text, is_doc in _Collector(mod).run()]
        owners = _owner_at(mod.tree)
        texts += [(line, owners.get(line, ""), text, False) for line, text in _link_comments(source)]
        full = {m.group(2) for _, _, text, _ in texts for m in _URL.finditer(text) if m.group(2).endswith(".go")}
        by_name: dict[str, set[str]] = {}
        for go in full:
            by_name.setdefault(go.rsplit("/", 1)[-1], set()).add(go)
        for _, owner, text, _ in sorted(texts, key=lambda t: t[0]):
            where = f"{name}:{owner}" if owner else name
            found = _urls(text, where, not owner)
            links += found
            spans = [m.span() for m in _URL.finditer(text)]
            for m in _REL.finditer(text):
                if any(a <= m.start() < b for a, b in spans):
                    continue
                candidates = by_name.get(m.group(1), set())
                go = next(iter(candidates)) if len(candidates) == 1 else None
                links.append(_link(go, m.group(2), m.group(3), where, not owner, m.group(0)))
    return links


def collect_links(root: Path = ROOT) -> list[dict[str, Any]]:
    """Every v1.6.1 link of the package, the notebook sources and the exercise notebooks.

    Each is a dict: ``go_file`` (path in the kubernetes tree; None for a bare ``file.go#L..``
    that cannot be resolved), ``range`` (``Lx-Ly`` or ``-``), ``where`` (``module:qualname``,
    ``notebooks/src/NN-....py`` or ``exercises/NN-M-....ipynb``), ``module_level``, ``text`` and
    ``label`` (a markdown link's text, else empty).
    """
    links = _package_links(root / "kschedlearn")
    for path in sorted((root / "notebooks" / "src").glob("*.py")):
        where = path.relative_to(root).as_posix()
        links += _urls(path.read_text(encoding="utf-8"), where, True)
    for path in sorted((root / "exercises").glob("*.ipynb")):
        where = path.relative_to(root).as_posix()
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
            links += _urls(source, where, True)
    return links


def read_table(path: Path = TABLE) -> list[dict[str, str]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == HEADER, f"{path}: first line must be {HEADER!r}"
    rows = []
    for line in lines[1:]:
        go_file, symbol, rng, where = line.split("\t")
        rows.append({"go_file": go_file, "symbol": symbol, "range": rng, "where": where})
    return rows


# ------------------------------------------------------------------------------------------ build
def _symbol(go_root: Path, go_file: str, rng: str, cache: dict[str, list[tuple[str, int, int]]]) -> str:
    """The symbol a range lands on in the tree under ``go_root`` (see the module docstring)."""
    from go_ranges import declarations  # noqa: PLC0415 - tools/ is put on sys.path by build()

    path = go_root / go_file
    if path.is_dir():
        return "(package)" if rng == NO_RANGE else "-"
    if not path.is_file():
        return "-"
    if rng == NO_RANGE:
        return "(file)"
    if go_file not in cache:
        cache[go_file] = declarations(path.read_text(encoding="utf-8"))
    start, end = (int(x) for x in rng[1:].split("-L"))
    exact = [name for name, s, e in cache[go_file] if (s, e) == (start, end)]
    if exact:
        return exact[0]
    first = [name for name, s, _ in cache[go_file] if s == start]
    last = [name for name, _, e in cache[go_file] if e == end]
    if first and last:
        return f"{first[0]} .. {last[-1]}"  # a span over whole declarations
    return "-"


def build(go_root: Path | None) -> str:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    try:
        old = {(r["go_file"], r["range"]): r["symbol"] for r in read_table()}
    except (OSError, AssertionError, ValueError, IndexError):
        old = {}
    grouped: dict[tuple[str, str], set[str]] = {}
    for link in collect_links():
        if link["go_file"] is not None:
            grouped.setdefault((link["go_file"], link["range"]), set()).add(link["where"])
    cache: dict[str, list[tuple[str, int, int]]] = {}
    out = [HEADER]
    for (go_file, rng), wheres in sorted(grouped.items()):
        symbol = _symbol(go_root, go_file, rng, cache) if go_root is not None else old.get((go_file, rng), "-")
        out.append(f"{go_file}\t{symbol}\t{rng}\t{', '.join(sorted(wheres))}")
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    out = None
    if "-o" in argv:
        i = argv.index("-o")
        out, argv = Path(argv[i + 1]), argv[:i] + argv[i + 2:]
    text = build(Path(argv[0]) if argv else None)
    if out is None:
        sys.stdout.write(text)
    else:
        out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
