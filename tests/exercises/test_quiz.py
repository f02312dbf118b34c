"""Quizzes are deterministic per seed and every answer is verified by the simulator."""

from __future__ import annotations

import pytest

from kschedlearn.exercises.quiz import KINDS, make_question


@pytest.mark.parametrize("kind", KINDS)
def test_deterministic_per_seed_and_verified(kind):
    texts = set()
    for seed in range(25):
        a, b = make_question(kind, seed), make_question(kind, seed)
        assert (a.text, a.correct) == (b.text, b.correct)
        assert a.verify()
        assert a.answer(a.correct).startswith("Right!")
        texts.add(a.text)
    assert len(texts) > 10  # seeds really vary the setup


def test_wrong_guess_is_explained():
    q = make_question("select_host", 3)
    text = q.answer("no-such-node")
    assert text.startswith("Not quite") and repr(q.correct) in text and "selectHost sorts" in text


def test_unknown_kind():
    with pytest.raises(ValueError, match="fifo, cache, select_host"):
        make_question("nope")
