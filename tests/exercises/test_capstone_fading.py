"""The capstone's faded scaffolding: 8.2a (blanks), 8.2 (the contract), 8.2b (the bare spec).

Go: none — kschedlearn-only (issue 22 item 3). All three rungs are judged alike (Go's
TestScheduler cases, then whole scenarios stage for stage); the scaffold's blanks say where they
are; 8.2's docstring states the contract and no longer dictates the statements.
"""

from __future__ import annotations

import ast
import inspect

import pytest

from kschedlearn.exercises import check, get_task, plug_in_scenario
from kschedlearn.exercises.framework import NOT_IMPLEMENTED
from kschedlearn.exercises.solutions.nb08 import schedule_one
from kschedlearn.exercises.stubs import stub_source

pytestmark = pytest.mark.task_8_2

#: the ten blanks of 8.2a, in order, filled with Go's expressions in kschedlearn's Python
FILLS = ("cfg.next_pod()", "pod.metadata.deletion_timestamp is not None", "cfg.algorithm.schedule(pod, cfg.node_lister)",
         "pod", "attrs.evolve(pod, spec=attrs.evolve(pod.spec, node_name=dest))", "assumed", "dest",
         "finish_binding", "forget_pod", 'sim.go(bind, name=f"bind {pod.metadata.namespace}/{pod.metadata.name}")')


def _scaffold() -> tuple[str, str]:
    """The stub up to its ``no_blanks_left()`` line, and the body after it."""
    src = stub_source(get_task("8.2a"))
    cut = src.index("\n", src.index("    no_blanks_left()")) + 1
    return src[:cut], src[cut:]


def _filled(count: int = len(FILLS)) -> str:
    head, body = _scaffold()
    for fill in FILLS[:count]:
        body = body.replace("___", fill, 1)
    return head + body


def _load(src: str):
    namespace: dict = {"__name__": "learner"}
    exec(compile(src, "<learner cell>", "exec"), namespace)  # noqa: S102 - the test's own text
    return namespace["schedule_one"]


def test_the_scaffold_has_ten_blanks_and_keeps_the_rest_of_scheduleOne() -> None:
    body = _scaffold()[1]
    assert body.count("___") == len(FILLS) == 10
    assert "Binding rejected: %v" in body and "Successfully assigned %v to %v" in body  # given, not blanked


def test_a_filled_scaffold_passes_and_reproduces_a_scenario_stage_for_stage() -> None:
    fn = _load(_filled())
    assert check("8.2a", fn).passed
    report = plug_in_scenario("8.2a", fn, "bind-failure")
    assert report.same and report.task_id == "8.2a", str(report)


def test_an_unfilled_blank_is_reported_with_its_line() -> None:
    fn = _load(_filled(len(FILLS) - 1))  # the last blank (start the bind goroutine) left empty
    report = check("8.2a", fn)
    assert {r.status for r in report.results} == {NOT_IMPLEMENTED}
    assert "fill in every ___ first (1 line(s) still have one: line" in report.results[0].message


def test_the_spec_rung_has_no_scaffold() -> None:
    tree = ast.parse(stub_source(get_task("8.2b")))
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef))
    body = fn.body[1:]  # after the docstring
    assert len(body) == 1 and isinstance(body[0], ast.Raise)
    doc = ast.get_docstring(fn)
    assert "scheduler.go#L148-L225" in doc and doc.count("\n    ") == 0  # dedented by get_docstring
    import re

    assert len(re.findall(r"^\d+\. ", doc, flags=re.MULTILINE)) == 11  # the behaviours, one per check


def test_the_contract_docstring_no_longer_dictates_the_lines() -> None:
    """No statement of the reference solution, no Go event text, no recipe in 8.2's docstring."""
    doc = inspect.getdoc(schedule_one)
    source = inspect.getsource(schedule_one)
    statements = [line.strip() for line in source.split('"""')[2].splitlines() if len(line.strip()) > 14]
    assert not [s for s in statements if s in doc]
    for given_away in ("Binding rejected", "Successfully assigned", "skip schedule deleting pod", "attrs.evolve",
                       "ObjectReference", "assume_pod", "forget_pod", "finish_binding", "CacheError"):
        assert given_away not in doc, given_away
    assert "contract" in doc and "scheduler.go#L148-L225" in doc


@pytest.mark.parametrize("task_id", ["8.2a", "8.2", "8.2b"])
def test_every_rung_is_judged_by_the_same_checks(task_id: str) -> None:
    assert [c.name for c in get_task(task_id).cases()] == [c.name for c in get_task("8.2").cases()]
    assert get_task(task_id).scenario_plugin is not None
