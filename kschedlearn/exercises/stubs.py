"""Learner stubs, generated from the reference solutions.

Go: none (kschedlearn-only). A stub keeps the solution's ``def`` line and docstring and replaces
the body with ``# TODO(task N.M)`` and ``raise NotImplementedError``; the imports come from the
task (``Task.stub_imports``). ``tools/make_exercises.py`` writes them into the notebooks.
"""

from __future__ import annotations

import inspect
import textwrap
from collections.abc import Callable
from typing import Any

from kschedlearn.exercises.registry import Task


def _head_and_doc(fn: Callable[..., Any]) -> tuple[str, str]:
    """The ``def`` line(s) of ``fn`` and its docstring literal, as source text."""
    lines = inspect.getsource(fn).splitlines()
    for i, line in enumerate(lines):
        if line.strip().startswith('"""'):
            head = "\n".join(lines[:i])
            end = i if line.strip().count('"""') >= 2 and len(line.strip()) > 3 else next(
                j for j in range(i + 1, len(lines)) if '"""' in lines[j])
            return head, "\n".join(lines[i:end + 1])
    raise ValueError(f"solution {fn.__name__} has no docstring")


def stub_source(task: Task) -> str:
    """The source of the learner stub of ``task``: imports, def, docstring, TODO, raise (or the
    task's own ``stub`` text: a scaffold with blanks, a bare specification)."""
    if task.stub is not None:
        return f"{task.stub_imports}\n\n\n{task.stub.strip(chr(10))}\n"
    head, doc = _head_and_doc(task.load_solution())
    body = textwrap.indent(
        f"# TODO(task {task.id}): write {task.function_name} - see the docstring, check() and hint().\n"
        f'raise NotImplementedError("task {task.id}: {task.function_name} is not written yet")',
        "    ",
    )
    return f"{task.stub_imports}\n\n\n{head}\n{doc}\n{body}\n"


def load_stub(task: Task) -> Callable[..., Any]:
    """Execute the stub source and return the stub function."""
    namespace: dict[str, Any] = {"__name__": f"stub_{task.marker}"}
    exec(compile(stub_source(task), f"<stub {task.id}>", "exec"), namespace)  # noqa: S102 - our own text
    return namespace[task.function_name]
