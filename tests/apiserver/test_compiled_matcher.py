"""The API server's compiled field selectors (``apiserver/fieldsets.compiled_matcher``) answer as
the selector asked with the kind's whole field map, on random pods and random selectors — and
ask the field map again while an exercise's ``matches`` is in place."""

from __future__ import annotations

import random

import attrs
import pytest

from kschedlearn.api.v1.meta import ObjectMeta
from kschedlearn.api.v1.pod import Pod, PodSpec, PodStatus
from kschedlearn.apimachinery.fields import selector as fields
from kschedlearn.apiserver.fieldsets import FIELD_GETTERS, compiled_matcher, selectable_fields

VALUES = ["", "a", "node-1", "Running", "Succeeded", "Failed", "Pending", "Always", "Never", "default"]


def _pod(rnd: random.Random) -> Pod:
    return Pod(metadata=ObjectMeta(name=rnd.choice(VALUES[1:]), namespace=rnd.choice(VALUES)),
               spec=PodSpec(node_name=rnd.choice(VALUES), restart_policy=rnd.choice(VALUES)),
               status=PodStatus(phase=rnd.choice(VALUES)))


def _selector(rnd: random.Random) -> fields.Selector:
    labels = list(FIELD_GETTERS["pods"])
    terms = [(fields.HasTerm if rnd.random() < 0.5 else fields.NotHasTerm)(field=rnd.choice(labels), value=rnd.choice(VALUES))
             for _ in range(rnd.randint(0, 4))]
    if len(terms) == 1 and rnd.random() < 0.5:
        return terms[0]
    nested = [fields.AndTerm(terms=tuple(terms[:1]))] + terms[1:] if terms and rnd.random() < 0.3 else terms
    return fields.AndTerm(terms=tuple(nested))


def test_compiled_selectors_answer_as_the_field_map() -> None:
    rnd = random.Random(23)
    for _ in range(400):
        sel = _selector(rnd)
        match = compiled_matcher("pods", sel)
        assert match is not None
        for _ in range(20):
            pod = _pod(rnd)
            assert match(pod) is sel.matches(selectable_fields("pods", pod))


def test_parsed_selectors_of_the_scheduler_and_the_kubelet() -> None:
    rnd = random.Random(3)
    for text in ("spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed",
                 "spec.nodeName=,status.phase!=Succeeded,status.phase!=Failed", "spec.nodeName!=", ""):
        sel = fields.parse_selector(text) if text else fields.everything()
        match = compiled_matcher("pods", sel)
        assert match is not None
        for _ in range(200):
            pod = _pod(rnd)
            assert match(pod) is sel.matches(selectable_fields("pods", pod))


def test_unknown_kinds_and_fields_are_not_compiled() -> None:
    assert compiled_matcher("nodes", fields.everything()) is None
    assert compiled_matcher("pods", fields.HasTerm(field="spec.schedulerName", value="x")) is None


def test_an_exercise_matches_is_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    sel = fields.parse_selector("spec.nodeName!=")
    match = compiled_matcher("pods", sel)
    assert match is not None
    pod = Pod(metadata=ObjectMeta(name="p", namespace="default"), spec=PodSpec(node_name="n"))
    asked: list[dict] = []

    def learner_matches(self: fields.NotHasTerm, fieldset: dict) -> bool:
        asked.append(dict(fieldset))
        return False

    monkeypatch.setattr(fields.NotHasTerm, "matches", learner_matches)
    assert match(pod) is False and asked and asked[0]["spec.nodeName"] == "n"
    assert attrs.has(Pod)
