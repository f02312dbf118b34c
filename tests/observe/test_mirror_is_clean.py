"""The mirrored packages hold only Go-twin statements: nothing of the trace or observation layer.

kschedlearn-only (issue 21 item 1, DESIGN principle 5). Every module under the mirrored packages
is read with ``ast``: no call of the trace layer (``emit``, ``register_stage``, the recorders,
``point``), no ``debug_*`` view, and no import of ``kschedlearn.trace`` or ``kschedlearn.observe``
other than the Go-shaped shims the mirrored code calls where Go calls glog, fmt or utiltrace.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "kschedlearn"
MIRRORED_PACKAGES = ("api", "apimachinery", "apis", "client_go", "client", "scheduler", "cmd")

#: the Go-shaped shims: Go's glog (and its flag set), fmt's %v printing, apiserver's utiltrace
SHIMS = {"kschedlearn.trace.glog", "kschedlearn.trace.gofmt", "kschedlearn.trace.util_trace",
         "kschedlearn.trace.glog_flags"}
TRACE_CALLS = {"emit", "register_stage", "point", "observed_call", "capture_stack", "emit_schedule_start",
               "emit_predicate_node", "emit_predicates_done", "emit_priorities", "emit_select_host",
               "shared", "cached", "all_pass", "wrap_instance", "on_method", "on_field", "watch_cache",
               "watch_queue"}


def _modules() -> list[Path]:
    return [p for pkg in MIRRORED_PACKAGES for p in sorted((PACKAGE / pkg).rglob("*.py"))]


def _imports(tree: ast.Module) -> list[tuple[str, list[str]]]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((alias.name, []) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append((node.module, [alias.name for alias in node.names]))
    return out


@pytest.mark.parametrize("path", _modules(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_trace_layer_in_mirrored_code(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    problems = []
    for module, names in _imports(tree):
        if module.startswith("kschedlearn.observe"):
            problems.append(f"imports {module}")
        elif module == "kschedlearn.trace":
            if set(names) - {"glog"}:
                problems.append(f"imports {sorted(set(names) - {'glog'})} from kschedlearn.trace")
        elif module.startswith("kschedlearn.trace.") and module not in SHIMS:
            problems.append(f"imports {module}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            if name in TRACE_CALLS:
                problems.append(f"line {node.lineno}: calls {name}()")
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("debug_"):
            problems.append(f"line {node.lineno}: defines {node.name} (debug views live in kschedlearn/observe/views.py)")
    assert problems == [], problems


def test_the_check_sees_a_trace_call(tmp_path: Path) -> None:
    """The AST check is not vacuous: a module with an emit and an observe import fails it."""
    bad = tmp_path / "bad.py"
    bad.write_text("from kschedlearn.trace import emit\nfrom kschedlearn.observe import views\n"
                   "def f():\n    emit('x')\n", encoding="utf-8")
    with pytest.raises(AssertionError, match=r"calls emit\(\).*|imports"):
        test_no_trace_layer_in_mirrored_code(bad)
