"""The equality-only selector fast path gives the mirror's verdict and never bypasses a learner.

kschedlearn-only (no Go twin): ``kschedlearn.accelerated.fast_selector`` replaces
``InternalSelector.matches`` from outside the mirror. Properties: on random label sets and
random selectors (every operator, so both the fast path and its fall-back are exercised) it
agrees with the mirrored ``matches``; and while exercise 2.1 plugs a learner's
``Requirement.matches`` in, the learner's function is what decides, requirement by requirement.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st
from tests.hypothesis_budget import examples

from kschedlearn.apimachinery import labels, selection
from kschedlearn.accelerated import fast_paths, fast_selector
from kschedlearn.apimachinery.labels.selector import InternalSelector, Requirement, new_requirement
from kschedlearn.exercises.registry import get_task

KEYS = st.sampled_from(["app", "tier", "env", "name", "example.com/role", "x"])
VALUES = st.sampled_from(["", "web", "db", "prod", "rc1", "3", "10"])
LABELS = st.dictionaries(KEYS, VALUES, max_size=5)
POSITIVE = (selection.IN, selection.EQUALS, selection.DOUBLE_EQUALS)
ALL_OPS = POSITIVE + (selection.NOT_IN, selection.NOT_EQUALS, selection.EXISTS, selection.DOES_NOT_EXIST,
                      selection.GREATER_THAN, selection.LESS_THAN)


@pytest.fixture(autouse=True, scope="module")
def _fast_paths_in_place():
    """The fast paths are put in place by whoever wants them (a world, a benchmark): here."""
    lease = fast_paths.acquire()
    yield
    lease.release()


@st.composite
def requirements(draw: st.DrawFn, ops: tuple[str, ...]) -> Requirement:
    op = draw(st.sampled_from(ops))
    key = draw(KEYS)
    if op in (selection.IN, selection.NOT_IN):
        values = draw(st.lists(VALUES, min_size=1, max_size=3, unique=True))
    elif op in (selection.EXISTS, selection.DOES_NOT_EXIST):
        values = []
    elif op in (selection.GREATER_THAN, selection.LESS_THAN):
        values = [draw(st.sampled_from(["3", "10", "0"]))]
    else:
        values = [draw(VALUES)]
    return new_requirement(key, op, values)


def selectors(ops: tuple[str, ...]) -> st.SearchStrategy[InternalSelector]:
    return st.lists(requirements(ops), max_size=4).map(lambda rs: labels.new_selector().add(*rs))


def test_fast_path_is_in_place_while_a_lease_lives() -> None:
    assert fast_selector.installed()
    assert InternalSelector.matches is fast_selector.fast_matches


@settings(max_examples=examples(300))
@given(selectors(POSITIVE), LABELS)
def test_equality_only_selectors_match_as_the_mirror(sel: InternalSelector, ls: dict[str, str]) -> None:
    assert fast_selector.equality_terms(sel) is not None
    assert fast_selector.fast_matches(sel, ls) == fast_selector.MIRROR_SELECTOR_MATCHES(sel, ls)


@settings(max_examples=examples(300))
@given(selectors(ALL_OPS), LABELS)
def test_any_selector_matches_as_the_mirror(sel: InternalSelector, ls: dict[str, str]) -> None:
    # twice: the second call takes the memoised terms
    want = fast_selector.MIRROR_SELECTOR_MATCHES(sel, ls)
    assert fast_selector.fast_matches(sel, ls) == want
    assert sel.matches(ls) == want


@settings(max_examples=examples(100))
@given(st.dictionaries(KEYS, VALUES, max_size=4), LABELS)
def test_selector_from_set_and_labels_set_match_as_the_mirror(required: dict[str, str], ls: dict[str, str]) -> None:
    # labels.Set.get defaults to "" (Go's Get): the fast path must not rely on .get
    for sel in (labels.selector_from_set(required), labels.selector_from_validated_set(required)):
        for given_labels in (ls, labels.Set(ls)):
            assert sel.matches(given_labels) == fast_selector.MIRROR_SELECTOR_MATCHES(sel, given_labels)


def test_mirror_only_restores_the_fast_path() -> None:
    with fast_selector.mirror_only():
        assert InternalSelector.matches is fast_selector.MIRROR_SELECTOR_MATCHES
    assert fast_selector.installed()


def test_exercise_2_1_plug_in_is_asked_for_equality_selectors() -> None:
    """Exercise 2.1's patch swaps Requirement.matches: the fast path stands down and the
    learner's function decides every requirement, even of an equality-only selector."""
    calls: list[tuple[str, str]] = []

    def learner(key, operator, values, ls):  # noqa: ANN001, ANN202 - a learner's answer
        calls.append((key, operator))
        return True  # deliberately wrong: says yes to everything

    sel = labels.selector_from_set({"app": "web", "tier": "frontend"})
    assert not sel.matches({"app": "db"})  # the real answer, fast path in place
    with get_task("2.1").patch(learner):
        assert Requirement.matches is not fast_selector.MIRROR_REQUIREMENT_MATCHES
        assert sel.matches({"app": "db"})  # the learner's (wrong) yes
    assert calls == [("app", "="), ("tier", "=")]
    assert not sel.matches({"app": "db"})  # the patch is undone, the fast path answers again


def test_exercise_2_1_plug_in_reaches_selector_spread() -> None:
    """With the learner's function plugged in, SelectorSpreadPriority's walk calls it."""
    from kschedlearn import Simulation

    calls = []

    def learner(key, operator, values, ls):  # noqa: ANN001, ANN202 - a correct learner answer
        calls.append(key)
        if operator in ("in", "=", "=="):
            return key in ls and ls[key] in values
        return fast_selector.MIRROR_REQUIREMENT_MATCHES(new_requirement(key, operator, values), ls)

    def placements(sim: Simulation) -> dict[str, str]:
        return {p.metadata.name: p.spec.node_name for p in sim.world.api.storage.items("pods")}

    reference = Simulation.from_scenario("spread-and-affinity", seed=1, snapshots=False)
    reference.run()
    plugged = Simulation.from_scenario("spread-and-affinity", seed=1, snapshots=False)
    with get_task("2.1").patch(learner):
        plugged.run()
    assert calls, "the learner's Requirement.matches was never called"
    assert placements(plugged) == placements(reference)
