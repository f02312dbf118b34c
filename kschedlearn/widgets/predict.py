"""``PredictCell``: a predict-then-check question as a widget (radio buttons, Check, New question).

Go: none — kschedlearn-only (DESIGN §11). The question comes from a factory of
:mod:`kschedlearn.simulation.questions` (core); this module only draws it and forwards the
learner's choice to :func:`~kschedlearn.simulation.questions.check_answer`. Tests drive it
through ``cell.answer(choice)``, which is exactly what the Check button does.

The display bundle holds the live widget *and* a static ``text/html`` rendering (question,
choices, and the answer with its explanation folded in a ``<details>``); the widget's own result
area holds the same folded answer until Check replaces it with the verdict. So a saved notebook
opened without a kernel — rendered from its widget state or from the HTML — still shows the
question and, one click away, the simulated truth.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from kschedlearn.curriculum import progress
from kschedlearn.curriculum.markdown import inline, plain, to_html
from kschedlearn.simulation.questions import Question, QuestionError, Verdict, check_answer

_BOX = ("border:1px solid #c5cae9;border-radius:6px;padding:8px 12px;margin:4px 0;background:#f8f9ff;"
        "line-height:1.45")
#: ipywidgets' HTML content has the line height of a control (28 px): text reads better at 1.45
_TEXT = "line-height:1.45"


def _verdict_html(q: Question, v: Verdict) -> str:
    mark = ('<b style="color:#2e7d32">✓ Right.</b>' if v.correct
            else f'<b style="color:#c62828">✗ Not quite</b> — you chose <i>{inline(v.chosen)}</i>.')
    return (f'<div class="kschedlearn-verdict" style="{_TEXT}">{mark} The simulator says: <b>{inline(v.truth)}</b>.'
            f"<div>{to_html(v.explanation)}</div>{_step_link(q)}</div>")


def _step_link(q: Question) -> str:
    if q.event is None:
        return ""
    return (f'<div style="color:#555">See step #{q.event}: <code>sim = Simulation.from_scenario('
            f'{html.escape(repr(q.scenario))}, seed={q.seed}); sim.goto({q.event})</code></div>')


def static_html(q: Question, verdict: Verdict | None = None) -> str:
    """The question as plain HTML: prompt, choices, and the revealed answer (folded unless checked)."""
    items = "".join(f"<li>{inline(c)}</li>" for c in q.choices)
    head = f'<div class="kschedlearn-predict" style="{_BOX}"><b>Predict:</b> {inline(q.prompt)}<ol>{items}</ol>'
    if verdict is not None:
        return head + _verdict_html(q, verdict) + "</div>"
    return head + folded_answer(q) + "</div>"


def folded_answer(q: Question) -> str:
    """The simulated answer folded in a ``<details>``: shown in saved notebooks, one click away."""
    return (f'<details class="kschedlearn-reveal" style="{_TEXT}"><summary>Reveal the simulated answer</summary>'
            f"<b>{inline(q.answer)}</b><div>{to_html(q.explanation)}</div>{_step_link(q)}</details>")


class PredictBox(widgets.VBox):
    """The outer box; its display bundle adds the static ``text/html`` next to the widget view."""

    def __init__(self, cell: PredictCell, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._cell = cell

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        data = super()._repr_mimebundle_(**kwargs) or {}
        data["text/html"] = static_html(self._cell.question, self._cell.verdict)
        data["text/plain"] = f"<kschedlearn predict: {self._cell.question.prompt}>"
        return data


class PredictCell:
    """A predict-then-check cell over ``factory(seed)``.

    ``question`` is the current question, ``answer(choice)`` checks a choice (as the Check button
    does) and returns the :class:`Verdict`, ``new_question()`` re-rolls the seed (seed + 1).
    ``activity`` names the cell in the course (``"05/cache-state"``): each checked answer is
    recorded in the learner's progress under it (kind ``prediction``).
    """

    def __init__(self, factory: Callable[[int], Question], seed: int = 1, activity: str | None = None) -> None:
        self.factory = factory
        self.seed = seed
        self.activity = activity
        self.question: Question = factory(seed)
        self.verdict: Verdict | None = None
        self.prompt = widgets.HTML()
        self.choices = widgets.RadioButtons(options=(), value=None, layout=widgets.Layout(width="auto"))
        self.check_button = widgets.Button(description="Check", button_style="primary")
        self.new_button = widgets.Button(description="New question")
        self.result = widgets.HTML()
        self.check_button.on_click(lambda _b: self._on_check())
        self.new_button.on_click(lambda _b: self._on_new())
        self.box = PredictBox(self, children=[self.prompt, self.choices,
                                              widgets.HBox([self.check_button, self.new_button]), self.result])
        self._show()

    # -- programmatic API (what the buttons do) ----------------------------------------------
    def answer(self, choice: str) -> Verdict:
        """Check ``choice`` against the simulated truth and reveal it (same as selecting + Check)."""
        verdict = check_answer(self.question, choice)
        self.choices.value = choice
        self.verdict = verdict
        self.result.value = _verdict_html(self.question, verdict)
        if self.activity:  # the verdict is what was measured: record it, right or wrong
            progress.record("prediction", self.activity, verdict.correct, detail=f"seed {self.seed}")
        return verdict

    def new_question(self) -> Question:
        """Re-roll: the next seed, a new question from the same factory."""
        question = self.factory(self.seed + 1)  # may raise QuestionError: then nothing changes
        self.seed, self.question, self.verdict = self.seed + 1, question, None
        self._show()
        return self.question

    # -- drawing -------------------------------------------------------------------------------
    def _show(self) -> None:
        self.prompt.value = f'<div style="{_BOX}"><b>Predict:</b> {inline(self.question.prompt)}</div>'
        # radio labels are plain text: Markdown marks are dropped, the value stays the choice
        self.choices.options = tuple((plain(c), c) for c in self.question.choices)
        self.choices.value = None
        # folded until Check replaces it with the verdict: a saved notebook (its widget state or
        # its text/html) still shows the question with its answer one click away
        self.result.value = folded_answer(self.question)

    def _on_check(self) -> None:
        if self.choices.value is None:
            self.result.value = "<i>Pick an answer first.</i>" + folded_answer(self.question)
            return
        try:
            self.answer(self.choices.value)
        except QuestionError as err:  # cannot happen through the radio buttons; say so if it does
            self.result.value = f"<i>{html.escape(str(err))}</i>"

    def _on_new(self) -> None:
        try:
            self.new_question()
        except QuestionError as err:  # a seed the scenario cannot ask about: say so, keep the old question
            self.result.value = f"<i>No new question: {html.escape(str(err))}</i>"

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        return self.box._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        return f"<PredictCell {self.activity or ''} seed={self.seed}: {self.question.prompt!r}>"


__all__ = ["PredictCell", "PredictBox", "folded_answer", "static_html"]
