"""Build the table the source pane uses to show each mirrored function beside its Go twin.

Usage::

    python3 tools/go_twins.py GO_ROOT            # rewrite kschedlearn/simulation/data/go_twins.json
    python3 tools/go_twins.py GO_ROOT --show MODULE:QUALNAME   # print one alignment to review it

``GO_ROOT`` is the v1.6.1 Go tree (``vendor/k8s.io/kubernetes`` of the cluster-capacity tree the
search tool's ``fetch`` brings: identical to v1.6.1 for what kschedlearn mirrors). kschedlearn-only
tool: nothing of Go's source is kept — the table holds line numbers (facts) only.

For every function and method of the mirrored packages, its Go twin is the declaration its own
link lands on (``docs/go-links.tsv``, the evidence CI checks): a helper the mirror split off a Go
function for readability (``Reflector._watch_forever``) maps to that Go function. Each Python
statement line is then paired with a Go line of that declaration by a monotonic alignment
(dynamic programming over the two line sequences) that maximises the words they share once both
are reduced to lower-case words (``podQueue`` and ``pod_queue`` are ``pod``, ``queue``); a line
with no partner takes the Go line of the statement before it. The table stores each Python line
by its text, so it survives edits elsewhere in the file; ``tests/simulation/test_go_twins.py``
fails when a function's lines no longer match the table (run this tool again then).
"""

from __future__ import annotations

import argparse
import ast
import csv
import importlib
import json
import math
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from go_ranges import declarations  # noqa: E402

OUT = ROOT / "kschedlearn" / "simulation" / "data" / "go_twins.json"
LINKS = ROOT / "docs" / "go-links.tsv"
MIRRORED_PACKAGES = ("api", "apimachinery", "client_go", "client", "scheduler", "cmd", "apis")

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_STOP = frozenset("""self err nil none if else elif return for in range func def not and or is true false raise try
except with as go var the of ok lock unlock defer mu pass break continue lambda from import
type struct interface string int bool float error len append make new assert global nonlocal
c f s r x i j k v e n t p o a b d""".split())


def words(line: str) -> frozenset[str]:
    """The lower-case words of a line's identifiers (camelCase and snake_case split); a goroutine
    start (Go's ``go``, the mirror's ``sim.go(``) and a ``select`` count as words of their own."""
    out: set[str] = set()
    stripped = line.strip()
    if stripped.startswith("go ") or "sim.go(" in stripped:
        out.add("<go>")
    if stripped.startswith("select") or "sim.select(" in stripped:
        out.add("<select>")
    code = line.split("#", 1)[0] if not line.lstrip().startswith("//") else ""
    code = code.split("//", 1)[0]
    for ident in _WORD.findall(code):
        for part in ident.split("_"):
            for w in _CAMEL.findall(part):
                w = w.lower()
                if w not in _STOP and len(w) > 1:
                    out.add(w)
    return frozenset(out)


def _similarity(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / math.sqrt(len(a) * len(b))


def _same_code(py: str, go: str) -> bool:
    """A statement spelled the same in both (``f()``, ``return``) once comments and the
    trailing ``;``/``:`` are dropped."""
    py = py.split("#", 1)[0].strip().rstrip(":")
    go = go.split("//", 1)[0].strip().rstrip(";{").strip()
    return bool(py) and py == go


def align(py: list[tuple[list[int], str]], go: list[tuple[int, str]],
          pinned: dict[str, str] | None = None) -> dict[int, int]:
    """Python line number -> Go line number, monotonic, maximising shared words. ``py`` holds
    statements (their lines and text); ``pinned`` maps a statement's text prefix to the Go line
    text (a substring) it must pair with, where words alone mislead (reviewed by hand)."""
    pw = [words(t) for _, t in py]
    gw = [words(t) for _, t in go]
    forced: dict[int, int] = {}
    for i, (_, text) in enumerate(py):
        for prefix, go_text in (pinned or {}).items():
            if text.startswith(prefix):
                forced[i] = next(j for j, (_, g) in enumerate(go) if go_text in g)
    n, m = len(py), len(go)
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    # 1 pair and move on; 4 pair and keep the Go statement for the next Python one too (Go chains
    # what the mirror writes as two statements: ``NewReflector(...).RunUntil(...)``); 2 skip a
    # Python statement; 3 skip a Go one
    move = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            s = 1.0 if _same_code(py[i][1], go[j][1]) else _similarity(pw[i], gw[j])
            if i in forced:
                s = 10.0 if forced[i] == j else 0.0
            options = [(best[i + 1][j], 2), (best[i][j + 1], 3)]
            if s >= 0.3:  # squared: one strong pair outweighs two weak ones
                options.append((best[i + 1][j + 1] + s * s, 1))
                options.append((best[i + 1][j] + s * s - 0.01, 4))
            best[i][j], move[i][j] = max(options)
    pairs: dict[int, int] = {}
    i = j = 0
    while i < n and j < m:
        if move[i][j] in (1, 4):
            pairs[i] = go[j][0]
            i, j = (i + 1, j + 1) if move[i][j] == 1 else (i + 1, j)
        elif move[i][j] == 2:
            i += 1
        else:
            j += 1
    out: dict[int, int] = {}
    last = go[0][0] if go else 0
    for i, (numbers, _) in enumerate(py):
        last = pairs.get(i, last)
        for number in numbers:
            out[number] = last
    return out


#: statements whose words mislead the alignment: Python statement prefix -> a substring of the Go
#: line it stands for (checked by hand against the v1.6.1 tree)
PINNED: dict[str, dict[str, str]] = {
    "kschedlearn.client_go.tools.cache.fifo:FIFO.pop": {"_run_process(": "err := process(item)"},
    "kschedlearn.client_go.tools.cache.delta_fifo:DeltaFIFO.pop": {"_run_process(": "err := process(item)"},
    "kschedlearn.client_go.tools.cache.reflector:Reflector._watch_handler": {
        "if self._handle_event(": "if e, a := r.expectedType, reflect.TypeOf(event.Object)"},
    "kschedlearn.client_go.tools.cache.reflector:Reflector.list_and_watch": {
        "self._watch_forever(": "resyncerrc := make(chan error, 1)"},
    "kschedlearn.scheduler.scheduler:Scheduler.schedule_one": {"sim.go(self._bind": "go func() {"},
    "kschedlearn.scheduler.factory.factory:new_config_factory": {
        "indexer, c.scheduled_pod_populator = new_indexer_informer(": "cache.NewIndexerInformer("},
}


def _go_code_lines(lines: list[str], first: int, last: int) -> list[tuple[int, str]]:
    """The Go function's statements as (first line, text joined): a call or literal spread over
    several lines (open parentheses or brackets at the end of a line) is one statement."""
    out: list[tuple[int, str]] = []
    depth = 0
    for number in range(first, last + 1):
        text = lines[number - 1].strip()
        code = text.split("//", 1)[0]
        if depth > 0 and out:
            out[-1] = (out[-1][0], out[-1][1] + " " + code)
        elif text and not text.startswith("//") and text not in ("}", ")", "{", "})", "},"):
            out.append((number, code))
        depth = max(0, depth + code.count("(") + code.count("[") - code.count(")") - code.count("]"))
    return out


def _py_units(lines: list[str], node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[list[int], str]]:
    """The function's statements as (their line numbers, their text joined): a simple statement
    is one unit however many lines it spans; a compound one (``if``, ``for``, ``try``...) is its
    header up to its body. The docstring and comment-only lines are left out."""
    units: list[tuple[list[int], str]] = []
    doc = node.body[0] if node.body and isinstance(node.body[0], ast.Expr) and \
        isinstance(getattr(node.body[0], "value", None), ast.Constant) else None
    header_end = (node.body[0].lineno - 1) if node.body else node.lineno
    units.append((list(range(node.lineno, header_end + 1)), " ".join(lines[n - 1].strip() for n in
                                                                  range(node.lineno, header_end + 1))))
    for stmt in ast.walk(node):
        if stmt is node or stmt is doc or not isinstance(stmt, ast.stmt):
            continue
        first = stmt.lineno
        body = getattr(stmt, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
            last = body[0].lineno - 1
        else:
            last = stmt.end_lineno or stmt.lineno
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            last = max(first, (stmt.body[0].lineno - 1) if stmt.body else first)
        numbers = [n for n in range(first, max(first, last) + 1)
                   if lines[n - 1].strip() and not lines[n - 1].strip().startswith("#")]
        if numbers:
            units.append((numbers, " ".join(lines[n - 1].strip() for n in numbers)))
    for handler in (h for h in ast.walk(node) if isinstance(h, ast.ExceptHandler)):
        units.append(([handler.lineno], lines[handler.lineno - 1].strip()))
    for stmt in ast.walk(node):  # else: / finally: lines
        for field in ("orelse", "finalbody"):
            block = getattr(stmt, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                header = block[0].lineno - 1
                text = lines[header - 1].strip()
                if text.startswith(("else", "finally")):
                    units.append(([header], text))
    seen: set[int] = set()
    out = []
    for numbers, text in sorted(units, key=lambda u: u[0][0]):
        numbers = [n for n in numbers if n not in seen]
        seen.update(numbers)
        if numbers:
            out.append((numbers, text))
    return out


def _py_code_lines(lines: list[str], node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[int, str]]:
    """Every code line of the function (not its docstring or comment-only lines)."""
    numbers = sorted(n for unit, _ in _py_units(lines, node) for n in unit)
    return [(n, lines[n - 1].strip()) for n in numbers]


def _functions(tree: ast.Module) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    out = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.append((node.name, node))
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    out.append((f"{node.name}.{item.name}", item))
    return out


def _mirrored_modules() -> list[tuple[str, Path]]:
    from kschedlearn.simulation.where import is_mirrored_module

    out = []
    for pkg in MIRRORED_PACKAGES:
        for path in sorted((ROOT / "kschedlearn" / pkg).rglob("*.py")):
            rel = path.relative_to(ROOT).with_suffix("")
            name = ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)
            if is_mirrored_module(name):
                out.append((name, path))
    return out


def _link_rows() -> dict[str, list[tuple[str, str, str]]]:
    """``module:qualname`` -> (go file, symbol, range) rows of the link table."""
    rows: dict[str, list[tuple[str, str, str]]] = {}
    with LINKS.open(encoding="utf-8") as f:
        for go_file, symbol, rng, where in csv.reader(f, delimiter="\t"):
            if go_file == "go_file" or not rng.startswith("L"):
                continue
            for place in where.split(", "):
                rows.setdefault(place, []).append((go_file, symbol, rng))
    return rows


def _symbol_name(symbol: str) -> str:
    """``(genericScheduler).Schedule`` -> ``genericScheduler.Schedule``; ``func NewFIFO`` -> ``NewFIFO``."""
    m = re.fullmatch(r"\((\w+)\)\.(\w+)", symbol)
    if m:
        return f"{m.group(1)}.{m.group(2)}"
    return symbol.removeprefix("func ").removeprefix("type ")


def _pick(qualname: str, rows: list[tuple[str, str, str]]) -> tuple[str, str, str] | None:
    """The row naming the function itself: a Go func or method (not a span of several)."""
    funcs = [r for r in rows if ".." not in r[1] and (r[1].startswith("(") or r[1].startswith("func") or
                                                      re.fullmatch(r"\w+", r[1]))]
    if not funcs:
        return None
    simple = qualname.split(".")[-1].replace("_", "").lower()
    funcs.sort(key=lambda r: (simple not in _symbol_name(r[1]).replace(".", "").lower(), int(r[2][1:].split("-")[0])))
    return funcs[0]


def build(go_root: Path) -> dict[str, dict[str, object]]:
    """The table (see the module docstring)."""
    rows = _link_rows()
    table: dict[str, dict[str, object]] = {}
    go_cache: dict[str, list[str]] = {}
    for module, path in _mirrored_modules():
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        for qualname, node in _functions(ast.parse(source)):
            row = _pick(qualname, rows.get(f"{module}:{qualname}", []))
            if row is None:
                continue
            go_file, symbol, rng = row
            first, last = (int(x[1:]) for x in rng.split("-"))
            if go_file not in go_cache:
                go_path = go_root / go_file
                if not go_path.is_file():
                    continue
                go_cache[go_file] = go_path.read_text(encoding="utf-8").splitlines()
            go_lines = go_cache[go_file]
            decl = next((d for d in declarations("\n".join(go_lines)) if d[1] <= first <= d[2] and d[2] == last), None)
            func_line = first
            for number in range(first, last + 1):
                if go_lines[number - 1].startswith(("func", "type")):
                    func_line = number
                    break
            units = _py_units(lines, node)
            go = _go_code_lines(go_lines, func_line, last)
            mapping = align(units, go, PINNED.get(f"{module}:{qualname}"))
            py = _py_code_lines(lines, node)
            table[f"{module}:{qualname}"] = {
                "go_file": go_file,
                "symbol": _symbol_name(decl[0] if decl is not None else symbol),
                "range": [first, last],
                "lines": [[text, mapping[number]] for number, text in py],
            }
    return table


def show(table: dict[str, dict[str, object]], key: str, go_root: Path) -> str:
    """One alignment, Python beside Go, to review it."""
    entry = table[key]
    go_lines = (go_root / str(entry["go_file"])).read_text(encoding="utf-8").splitlines()
    out = [f"{key} -> {entry['symbol']} {entry['go_file']}#L{entry['range'][0]}-L{entry['range'][1]}"]  # type: ignore[index]
    for text, go_line in entry["lines"]:  # type: ignore[union-attr]
        out.append(f"{text[:60]:60s} | {go_line:4d} {go_lines[go_line - 1].strip()[:70]}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("go_root", type=Path)
    parser.add_argument("--show", action="append", default=[])
    args = parser.parse_args(argv)
    table = build(args.go_root)
    if args.show:
        for key in args.show:
            sys.stdout.write(show(table, key, args.go_root) + "\n\n")
        return 0
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(table, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    sys.stdout.write(f"wrote {OUT.relative_to(ROOT)}: {len(table)} functions\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
