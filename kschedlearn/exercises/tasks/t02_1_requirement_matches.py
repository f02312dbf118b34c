"""Task 2.1: a label selector's ``matches`` - equality-, set-based and exists/gt/lt requirements.

Go: staging/src/k8s.io/apimachinery/pkg/labels/selector.go (Requirement.Matches,
internalSelector.Matches) and selector_test.go (TestSelectorMatches,
TestRequirementSelectorMatching)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/labels/selector.go#L161-L216
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from kschedlearn.apimachinery.labels.selector import Requirement, new_requirement, parse
from kschedlearn.exercises import framework as fw
from kschedlearn.exercises.registry import Task
from kschedlearn.exercises.tasks._common import GO, compare, swap_attr

TASK_ID = "2.1"
NAME = "requirement_matches"
_REAL = Requirement.matches
_SELECTOR_GO = "staging/src/k8s.io/apimachinery/pkg/labels/selector.go"

_MISSING = ("Misconception: 'a requirement on a missing label is always false'. notin and != are "
            "*negative* requirements: a pod without the label is not in the set, so it matches (as does !key).")
_EMPTY = ("Misconception: 'a label with an empty value does not exist'. exists only asks whether the key is "
          "there; \"\" is a value like any other.")
_NUMBERS = ("Misconception: 'gt and lt compare the text'. gt/lt parse both sides as base-10 integers "
            "(strconv.ParseInt): \"9\" < \"10\" as numbers, and a value that is not a number never matches.")

#: Go's TestSelectorMatches (selector string, labels, match) ...
SELECTOR_MATCHES = (
    ("", {"x": "y"}, True), ("x=y", {"x": "y"}, True), ("x=y,z=w", {"x": "y", "z": "w"}, True),
    ("x!=y,z!=w", {"x": "z", "z": "a"}, True), ("notin=in", {"notin": "in"}, True), ("x", {"x": "z"}, True),
    ("!x", {"y": "z"}, True), ("x>1", {"x": "2"}, True), ("x<1", {"x": "0"}, True),
    ("x=z", {}, False), ("x=y", {"x": "z"}, False), ("x=y,z=w", {"x": "w", "z": "w"}, False),
    ("x!=y,z!=w", {"x": "z", "z": "w"}, False), ("x", {"y": "z"}, False), ("!x", {"x": "z"}, False),
    ("x>1", {"x": "0"}, False), ("x<1", {"x": "2"}, False),
    ("foo=bar", {"foo": "bar", "baz": "blah"}, True), ("foo=bar,baz=blah", {"foo": "bar", "baz": "blah"}, True),
    ("foo=blah", {"foo": "bar", "baz": "blah"}, False),
    ("foo=bar,foobar=bar,baz=blah", {"foo": "bar", "baz": "blah"}, False),
)
#: ... and TestRequirementSelectorMatching ((key, operator, values) requirements, labels, match)
REQUIREMENT_MATCHING = (
    ((("x", "in", ("foo",)), ("y", "notin", ("alpha",))), {"x": "foo", "y": "baz"}, True),
    ((("x", "in", ("foo",)), ("y", "in", ("alpha",))), {"x": "foo", "y": "baz"}, False),
    ((("x", "notin", ("",)), ("y", "exists", ())), {"y": ""}, True),
    ((("x", "!", ()), ("y", "exists", ())), {"y": ""}, True),
    ((("x", "notin", ("",)), ("y", "!", ())), {"y": ""}, False),
    ((("x", "in", ("",)),), {"y": "baz"}, False),
    ((("z", "gt", ("1",)),), {"z": "2"}, True),
    ((("z", "gt", ("1",)),), {"z": "v2"}, False),
)
#: 1.6 behaviour the tables imply, one per misconception
EXTRA = (
    ("x!=y", {}, True, _MISSING), ("x notin (a,b)", {"y": "a"}, True, _MISSING),
    ("x<10", {"x": "9"}, True, _NUMBERS), ("x", {"x": ""}, True, _EMPTY),
)


def _why(labels: dict[str, str], reqs: tuple[tuple[str, str, tuple[str, ...]], ...]) -> str:
    ops = {op for _, op, _ in reqs}
    missing = any(k not in labels for k, _, _ in reqs)
    if ops & {"notin", "!="} and missing:
        return _MISSING
    if "exists" in ops and "" in labels.values():
        return _EMPTY
    if ops & {"gt", "lt"}:
        return _NUMBERS
    return "A selector matches when every one of its requirements matches."


def _reqs_of(selector: str) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    return tuple((r.key(), r.operator(), tuple(sorted(r.values()))) for r in parse(selector).requirements()[0])


def _match(reqs: tuple[tuple[str, str, tuple[str, ...]], ...], labels: dict[str, str]) -> Callable[[Callable[..., Any]], Any]:
    def run(fn: Callable[..., Any]) -> Any:
        return all(fn(k, op, list(vals), dict(labels)) for k, op, vals in reqs)
    return run


def _cases() -> list[fw.Case]:
    cases = []
    for sel, labels, want in SELECTOR_MATCHES:
        reqs = _reqs_of(sel)
        if not reqs:  # the empty selector matches everything without asking any requirement
            continue
        cases.append(fw.Case(f"TestSelectorMatches {sel} {labels}",
                             f"selector {sel!r} and labels {labels}", want, _match(reqs, labels),
                             why=_why(labels, reqs)))
    for reqs, labels, want in REQUIREMENT_MATCHING:
        text = ",".join(str(new_requirement(k, op, v)) for k, op, v in reqs)
        cases.append(fw.Case(f"TestRequirementSelectorMatching {text} {labels}",
                             f"requirements {text} and labels {labels}", want, _match(reqs, labels),
                             why=_why(labels, reqs)))
    for sel, labels, want, why in EXTRA:
        cases.append(fw.Case(f"1.6: {sel} {labels}", f"selector {sel!r} and labels {labels}", want,
                             _match(_reqs_of(sel), labels), why=why))
    return cases


@contextmanager
def _patch(fn: Callable[..., Any]) -> Iterator[None]:
    def matches(self: Requirement, ls: Any) -> bool:
        return fn(self.key(), self.operator(), sorted(self.values()), ls)

    with swap_attr(Requirement, "matches", matches):
        yield


def _real(key: str, operator: str, values: list[str], labels: Any) -> bool:
    return _REAL(new_requirement(key, operator, values) if operator else Requirement(), labels)


def _experiment(match: Callable[..., Any], rows: list[tuple[str, str]]) -> None:
    pods = {"web-1": {"app": "web", "tier": "frontend"}, "web-2": {"app": "web", "canary": ""},
            "db-0": {"app": "db", "replicas": "3"}, "batch-9": {}}
    for sel in ("app=web", "app in (web,db),canary", "tier notin (frontend)", "replicas>2", "!canary"):
        reqs = _reqs_of(sel)
        chosen = [p for p, ls in pods.items() if all(match(k, op, list(v), ls) for k, op, v in reqs)]
        rows.append((f"pods selected by {sel!r}", ", ".join(chosen) or "none"))


def _plug_in(fn: Callable[..., Any], simulation: Any = None) -> fw.PlugInReport:
    return compare(TASK_ID, "label selectors", fn, _real, _experiment, bool, NAME,
                   note="Four pods: web-1 {app=web,tier=frontend}, web-2 {app=web,canary=}, db-0 {app=db,replicas=3}, "
                        "batch-9 {} - a service, an RS or an affinity term would select these.")


def _scenario_plugin(fn: Callable[..., Any], scenario: str | None, *, seed: int, seconds: float) -> Any:
    from kschedlearn.exercises.capstone import run_capstone

    return run_capstone(TASK_ID, fn, (scenario or "spread-and-affinity",), seed=seed, seconds=seconds)


TASK = Task(
    id=TASK_ID, title="label selector matches", slug="label-selector", function_name=NAME,
    stub_imports="from collections.abc import Mapping",
    intro=("Everything in Kubernetes finds its objects by labels: a Service or a ReplicaSet selects its pods, "
           "SelectorSpreadPriority counts the pods a Service selects on each node, pod (anti-)affinity terms "
           "select the pods to be near or away from. A selector is a list of *requirements* "
           "(`app=web`, `tier notin (cache)`, `canary`, `!legacy`, `replicas>2`) that must all hold.\n\n"
           "Write `requirement_matches(key, operator, values, labels)` for one requirement. "
           "`plug_in_scenario(\"2.1\", requirement_matches)` runs spread-and-affinity, where selectors decide "
           "spreading and affinity, with your function in every selector."),
    go_links=(("selector.go Requirement.Matches", GO + _SELECTOR_GO + "#L161-L216"),
              ("selector_test.go TestSelectorMatches", GO + "staging/src/k8s.io/apimachinery/pkg/labels/selector_test.go#L106-L135"),
              ("selector_test.go TestRequirementSelectorMatching",
               GO + "staging/src/k8s.io/apimachinery/pkg/labels/selector_test.go#L379-L424")),
    hints=("Positive requirements (in, =, ==, exists, gt, lt) need the key; negative ones (notin, !=, !) are "
           "satisfied when it is missing.",
           "Go's Requirement.Matches (selector.go L161-L216): `case selection.In, selection.Equals, selection.DoubleEquals: "
           "if !ls.Has(r.key) { return false }; return r.hasValue(ls.Get(r.key))`; `case selection.NotIn, "
           "selection.NotEquals: if !ls.Has(r.key) { return true }; return !r.hasValue(...)`; Exists / DoesNotExist: "
           "`ls.Has(r.key)`; GreaterThan / LessThan: `strconv.ParseInt` both sides, false on error.",
           "`if operator in (\"in\", \"=\", \"==\"): return key in labels and labels[key] in values`; "
           "`if operator in (\"notin\", \"!=\"): return key not in labels or labels[key] not in values`; ... "
           "`int(labels[key], 10)` inside try/except ValueError for gt/lt."),
    returns=bool, cases=_cases, patch=_patch, plug_in=_plug_in, solution="nb02:requirement_matches",
    scenario_plugin=_scenario_plugin,
)
