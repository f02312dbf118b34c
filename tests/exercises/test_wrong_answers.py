"""Three wrong answers per new task, one per named misconception, fail with it explained."""

from __future__ import annotations

import pytest
from wrong_answers import WRONG_ANSWERS

from kschedlearn.exercises import check, get_task


def _param(w):
    return pytest.param(w, id=f"{w.task_id} {w.misconception}", marks=getattr(pytest.mark, get_task(w.task_id).marker))


@pytest.mark.parametrize("wrong", [_param(w) for w in WRONG_ANSWERS])
def test_wrong_answer_fails_with_the_misconception_explained(wrong):
    report = check(wrong.task_id, wrong.build())
    assert not report.passed
    failed = {r.name: r for r in report.results if not r.passed}
    assert wrong.failing_case in failed, str(report)
    assert wrong.phrase in failed[wrong.failing_case].message, str(report)
    assert "NotImplementedError" not in str(report)


def test_three_wrong_answers_per_new_task():
    from collections import Counter

    counts = Counter(w.task_id for w in WRONG_ANSWERS)
    assert counts and all(n >= 3 for n in counts.values()), counts
