"""Task 11.1: find the bug - a scenario shows a 1.6 quirk; name the function, write the one-line fix.

Go: (*SelectorSpread).CalculateSpreadPriority
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/selector_spreading.go#L96-L192
— the quirk is in its zone score, line 177:
``zoneScore := maxPriority * ((maxCountByZone - countsByZone[zoneId]) / maxCountByZone)`` is 0/0
when no zone has a matching pod; fixed upstream in PR #55172 by giving such zones the maximum.

The learner's ``the_bug()`` returns ``(function, buggy line, fixed line)``; the check edits that
line in the mirrored function's source, swaps the edited function in, and runs the quirk
scenario and spread-and-affinity with it: the quirk must be gone, nothing else may change.
"""

from __future__ import annotations

import inspect
import textwrap
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from kschedlearn.exercises import framework as fw
from kschedlearn.exercises.registry import Task
from kschedlearn.exercises.tasks._common import GO, methods_looked_up_at_call_time, swap_attr
from kschedlearn.scheduler.algorithm.priorities import selector_spreading as ss

TASK_ID = "11.1"
NAME = "the_bug"
SCENARIO = str(Path(__file__).resolve().parent.parent / "data" / "quirk-selector-spread-nan.yaml")
MIN_INT64 = -(2**63)
#: where the learner may fix it: (owner, attribute) by the names a learner might use
_TARGETS: dict[str, tuple[Any, str]] = {
    "_zone_share": (ss, "_zone_share"), "zone_share": (ss, "_zone_share"),
    "calculate_spread_priority": (ss.SelectorSpread, "calculate_spread_priority"),
    "SelectorSpread.calculate_spread_priority": (ss.SelectorSpread, "calculate_spread_priority"),
    "CalculateSpreadPriority": (ss.SelectorSpread, "calculate_spread_priority"),
}


class FixError(ValueError):
    """The learner's fix cannot be applied (unknown function, line not found)."""


def answer_of(fn: Callable[..., Any]) -> tuple[str, str, str]:
    got = fn()
    if not (isinstance(got, tuple) and len(got) == 3 and all(isinstance(x, str) for x in got)):
        raise FixError(f"{NAME}() must return (function, buggy line, fixed line), three strings; got {got!r}")
    return got


def _target(name: str) -> tuple[Any, str]:
    key = name.strip().removeprefix("ss.").removeprefix("selector_spreading.")
    if key in _TARGETS:
        return _TARGETS[key]
    if callable(getattr(ss, key, None)):
        return ss, key
    raise FixError(f"selector_spreading has no function {name!r} to fix; look at "
                   "SelectorSpread.calculate_spread_priority and the helpers it calls")


def fixed_function(name: str, old: str, new: str) -> tuple[Any, str, Any]:
    """``(owner, attribute, edited function)``: the named function with ``old`` replaced by ``new``."""
    owner, attr = _target(name)
    source = textwrap.dedent(inspect.getsource(getattr(owner, attr)))
    lines = source.splitlines()
    hits = [i for i, line in enumerate(lines) if line.strip() == old.strip()]
    if len(hits) != 1:
        raise FixError(f"the line {old.strip()!r} occurs {len(hits)} times in {attr}; copy one line of it exactly")
    i = hits[0]
    indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
    lines[i] = indent + new.strip()
    namespace = dict(vars(ss))
    exec(compile("\n".join(lines) + "\n", f"<your fix of {attr}>", "exec"), namespace)  # noqa: S102 - the learner's own line
    return owner, attr, namespace[attr]


@contextmanager
def _patch(fn: Callable[..., Any]) -> Iterator[None]:
    owner, attr, edited = fixed_function(*answer_of(fn))
    with swap_attr(owner, attr, edited):
        yield


@contextmanager
def _recording(fn: Callable[..., Any], log: Any) -> Iterator[None]:
    """``_patch``, with every call of the (fixed) CalculateSpreadPriority recorded: a fix is
    judged by the scores it gives, whichever line it edits."""
    log.what = "CalculateSpreadPriority with your fix"
    with _patch(fn):
        current = ss.SelectorSpread.calculate_spread_priority
        with swap_attr(ss.SelectorSpread, "calculate_spread_priority", log.wrap(current)):
            yield


@contextmanager
def _live(fn: Callable[..., Any], log: Any, simulation: Any) -> Iterator[None]:
    """For a running simulation: the recording patch, reaching schedulers configured before it."""
    with _recording(fn, log), methods_looked_up_at_call_time(simulation, ss.SelectorSpread,
                                                              "calculate_spread_priority"):
        yield


def _run(scenario: str, patch: Callable[[], Any] | None) -> Any:
    from kschedlearn import Simulation

    sim = Simulation.from_scenario(scenario, seed=1, snapshots=False)
    if patch is None:
        sim.run()
    else:
        with patch():
            sim.run()
    return sim


def describe_quirk_run(sim: Any) -> str:
    """Where web-1 went and what SelectorSpreadPriority gave each node, from the trace."""
    node = next(p.spec.node_name for p in sim.world.api.storage.items("pods") if p.metadata.name == "web-1")
    ev = next(e for e in sim.trace if e.stage == "schedule.priorities" and e.data.get("pod") == "default/web-1")
    scores = ev.data["scores"][ev.data["names"].index("SelectorSpreadPriority")]
    shown = ", ".join(f"{n}={s}" for n, s in zip(ev.data["nodes"], scores))
    return f"web-1 on {node or '(pending)'}; SelectorSpreadPriority: {shown}"


def _reference_patch() -> Any:
    from kschedlearn.exercises.solutions.nb11 import the_bug

    return _patch(the_bug)


def _cases() -> list[fw.Case]:
    def named(fn: Callable[..., Any]) -> str:
        owner, attr = _target(answer_of(fn)[0])
        return "the zone score of CalculateSpreadPriority" if attr in ("_zone_share", "calculate_spread_priority") \
            else f"{attr} (the NaN is not made there)"

    def applies(fn: Callable[..., Any]) -> bool:
        fixed_function(*answer_of(fn))
        return True

    def quirk(fn: Callable[..., Any]) -> str:
        return describe_quirk_run(_run(SCENARIO, lambda: _patch(fn)))

    def elsewhere(fn: Callable[..., Any]) -> str:
        from kschedlearn.exercises.trace_compare import compare_scenario

        trace, _, _ = compare_scenario("spread-and-affinity", lambda: _patch(fn))
        return "unchanged" if trace.same else trace.summary()

    return [
        fw.Case("the function", "the quirk scenario (web-1 always lands on 'plain')",
                "the zone score of CalculateSpreadPriority", named,
                why="Misconception: 'fix it where it shows'. int(NaN) only converts the NaN (go_int is Go's int() "
                    "and must stay as it is); the NaN is made by 0/0 in the zone share of CalculateSpreadPriority "
                    "(in the mirror: _zone_share)."),
        fw.Case("the line exists", "your buggy line", True, applies,
                why="Copy one line of the function exactly (spaces at the start do not matter)."),
        fw.Case("the quirk is gone", "the quirk scenario run with your fix",
                describe_quirk_run(_run(SCENARIO, _reference_patch)), quirk, show=str,
                why="Misconception: 'no pod in a zone means the worst zone'. When no zone runs a matching pod, "
                    "every zone is equally empty - the best, maximum score (PR #55172: zoneScore = maxPriority "
                    "when maxCountByZone is 0). With the right fix web-1 goes where the other priorities send it."),
        fw.Case("nothing else changes", "spread-and-affinity (zones, matching pods) with your fix", "unchanged",
                elsewhere, show=str,
                why="Misconception: 'leave empty zones out of the count'. A zone with no matching pod must still "
                    "be counted as 0 when others have pods; a one-line fix changes only the 0/0 case."),
    ]


def _experiment_rows(patch: Callable[[], Any], rows: list[tuple[str, str]]) -> None:
    rows.append(("quirk-selector-spread-nan", describe_quirk_run(_run(SCENARIO, patch))))


def _plug_in(fn: Callable[..., Any], simulation: Any = None) -> fw.PlugInReport:
    ref: list[tuple[str, str]] = []
    _experiment_rows(_reference_patch, ref)
    mine: list[tuple[str, str]] = []
    failure = fw.outcome(lambda: _experiment_rows(lambda: _patch(fn), mine), limit=None)
    yours = dict(mine)
    rows = tuple((step, r, yours.get(step, failure)) for step, r in ref)
    return fw.PlugInReport(TASK_ID, "the SelectorSpread fix", rows,
                           note="Left: the mirror with upstream's fix (PR #55172); right: with yours. "
                                "plug_in_scenario('11.1', the_bug) compares your fix with 1.6 itself.")


def _scenario_plugin(fn: Callable[..., Any], scenario: str | None, *, seed: int, seconds: float) -> Any:
    from kschedlearn.exercises.capstone import run_capstone

    return run_capstone(TASK_ID, fn, (scenario or SCENARIO,), seed=seed, seconds=seconds)


TASK = Task(
    id=TASK_ID, title="find the bug", slug="find-the-bug", function_name=NAME, stub_imports="",
    intro=("The scenario `quirk-selector-spread-nan` has three equal nodes; two carry zone labels, one "
           "(`plain`) does not, and `plain` already runs a big batch pod. A Service selects `app=web`, and the "
           "first web pod arrives. LeastRequested clearly prefers the empty zoned nodes - yet kube-scheduler "
           "1.6 puts web-1 on `plain`, every time.\n\nFind the bug: run the scenario, look at the scores "
           "(`sim.decision('default/web-1')`), find the function in "
           "`kschedlearn.scheduler.algorithm.priorities.selector_spreading`, and write the one-line fix. "
           "`the_bug()` returns `(function, buggy line, fixed line)`; the check runs the scenario with your "
           "fix. `plug_in_scenario(\"11.1\", the_bug)` compares your fix, score by score, with upstream's "
           "(PR #55172) and shows how both change 1.6's outcome."),
    go_links=(("selector_spreading.go CalculateSpreadPriority (its zone score, lines 170-180)",
               GO + "plugin/pkg/scheduler/algorithm/priorities/selector_spreading.go#L96-L192"),),
    hints=("Look at SelectorSpreadPriority's row of the decision: the zoned nodes get -9223372036854775808, the "
           "minimum int64 - that is what Go's int() makes of NaN on amd64. Where can a NaN come from?",
           "In Go: `zoneScore := maxPriority * ((maxCountByZone - countsByZone[zoneId]) / maxCountByZone)`: with "
           "no matching pod in any zone, maxCountByZone is 0 and float32 0/0 is NaN. In the mirror the division "
           "is in `_zone_share(max_count_by_zone, zone_count)`.",
           "`inspect.getsource(selector_spreading._zone_share)`: replace the line that returns NaN by one that "
           "treats an all-empty zone set as best (share 1.0, so zoneScore = maxPriority, as upstream does)."),
    returns=tuple, cases=_cases, patch=_patch, plug_in=_plug_in, solution="nb11:the_bug",
    scenario_plugin=_scenario_plugin, changes_outcome=True, time_limit=60.0, recording=_recording, live=_live,
    baseline="reference",
)
