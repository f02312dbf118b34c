"""The PredictCell widget: radio buttons, Check, New question, and its static HTML.

Go: none — kschedlearn-only (issue 11 item 4).
"""

from __future__ import annotations

import pytest

from kschedlearn.simulation import questions as Q
from kschedlearn.widgets.predict import PredictCell


def test_answer_right_and_wrong_through_the_widget() -> None:
    cell = PredictCell(Q.winner_question, seed=1)
    truth = cell.question.answer
    wrong = next(c for c in cell.question.choices if c != truth)
    v = cell.answer(wrong)
    assert not v.correct and "✗" in cell.result.value and truth in cell.result.value
    v = cell.answer(truth)
    assert v.correct and "✓" in cell.result.value and cell.choices.value == truth


def test_check_button_checks_the_selected_choice() -> None:
    cell = PredictCell(Q.winner_question, seed=1)
    cell.check_button.click()
    assert "Pick an answer" in cell.result.value
    cell.choices.value = cell.question.answer
    cell.check_button.click()
    assert cell.verdict is not None and cell.verdict.correct


def test_new_question_rerolls_the_seed() -> None:
    cell = PredictCell(Q.pod_location_question, seed=1)
    cell.answer(cell.question.answer)
    q = cell.new_question()
    assert cell.seed == 2 and q.seed == 2 and cell.verdict is None
    assert "Reveal the simulated answer" in cell.result.value and "✓" not in cell.result.value
    assert tuple(value for _label, value in cell.choices.options) == q.choices
    cell.new_button.click()
    assert cell.seed == 3


def test_unknown_choice_raises() -> None:
    cell = PredictCell(Q.winner_question, seed=1)
    with pytest.raises(Q.QuestionError, match="nowhere"):
        cell.answer("nowhere")


def test_bundle_has_the_widget_and_a_static_answer() -> None:
    cell = PredictCell(Q.winner_question, seed=1)
    data = cell._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in data
    html = data["text/html"]
    assert cell.question.prompt.split("`")[0] in html and "<details" in html and cell.question.answer in html
    cell.answer(cell.question.answer)
    assert "✓" in cell._repr_mimebundle_()["text/html"]


def test_new_question_that_cannot_be_posed_keeps_the_old_one() -> None:
    def factory(seed: int) -> Q.Question:
        if seed > 1:
            raise Q.QuestionError("scenario 'x' has no event to ask about")
        return Q.winner_question(seed)

    cell = PredictCell(factory, seed=1)
    before = cell.question
    cell.new_button.click()
    assert cell.seed == 1 and cell.question == before and "No new question" in cell.result.value


def test_prompts_and_verdicts_render_markdown_not_raw_backticks() -> None:
    """Issue 22 item 5: `code` in a prompt or an explanation is drawn as code, never as backticks."""
    cell = PredictCell(Q.pod_location_question, seed=1)
    assert "`" in cell.question.prompt and "`" in cell.question.explanation  # the source texts use Markdown
    assert "`" not in cell.prompt.value and "<code" in cell.prompt.value
    assert "`" not in cell.result.value  # the folded answer
    assert all("`" not in label for label, _value in cell.choices.options)
    cell.answer(next(c for c in cell.question.choices if c != cell.question.answer))
    assert "`" not in cell.result.value and "<code" in cell.result.value
    assert "`" not in cell._repr_mimebundle_()["text/html"]
