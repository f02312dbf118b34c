"""The mastery check as a widget: every question with its choices, Score, New scenario.

Go: none — kschedlearn-only (issue 22 item 3). The questions and the truths come from
:func:`kschedlearn.curriculum.mastery.mastery_check` (two generated scenarios, run once each);
this module only draws them. **Score my answers** marks every question, reveals each truth with
the simulator's explanation, and lists the objectives to revisit with links to their notebooks;
the scored attempt is recorded in the learner's progress (kind ``mastery``, key
``17/mastery``, passed at :data:`~kschedlearn.curriculum.mastery.PASS_PERCENT` % or more).
**New scenario** re-rolls the seed: another cluster, other answers. Tests drive it through
``answer(i, choice)``, ``submit()`` and ``reroll()``, exactly what the buttons do.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as widgets

from kschedlearn.curriculum import progress
from kschedlearn.curriculum.markdown import inline, plain, to_html
from kschedlearn.curriculum.mastery import MasteryCheck, Score, mastery_check

ACTIVITY = "17/mastery"
_BOX = ("border:1px solid #c5cae9;border-radius:6px;padding:6px 12px;margin:4px 0;background:#f8f9ff;"
        "line-height:1.45")


class _Box(widgets.VBox):
    """The outer box; its display bundle adds a static HTML rendering for saved notebooks."""

    def __init__(self, owner: MasteryWidget, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._owner = owner

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        data = super()._repr_mimebundle_(**kwargs) or {}
        data["text/html"] = self._owner.static_html()
        data["text/plain"] = (f"<kschedlearn mastery check, seed {self._owner.check.seed}: "
                              f"{len(self._owner.check.asked)} questions>")
        return data


class MasteryWidget:
    """The mastery check of ``seed`` (``new_scenario`` / the button re-rolls it)."""

    def __init__(self, seed: int = 1) -> None:
        self.check: MasteryCheck = mastery_check(seed)
        self.score: Score | None = None
        self.header = widgets.HTML()
        self.questions = widgets.VBox()
        self.score_button = widgets.Button(description="Score my answers", button_style="primary")
        self.new_button = widgets.Button(description="New scenario")
        self.result = widgets.HTML()
        self.score_button.on_click(lambda _b: self.submit())
        self.new_button.on_click(lambda _b: self.reroll())
        self.box = _Box(self, children=[self.header, self.questions,
                                        widgets.HBox([self.score_button, self.new_button]), self.result])
        self.box.add_class("kschedlearn-mastery")
        self._radios: list[widgets.RadioButtons] = []
        self._verdicts: list[widgets.HTML] = []
        self._show()

    # -- what the buttons do -------------------------------------------------------------------
    def answer(self, i: int, choice: str) -> None:
        """Select ``choice`` for question ``i`` (0-based), as a click on its radio button does."""
        q = self.check.questions[i]
        if choice not in q.choices:
            raise ValueError(f"question {i + 1}: {choice!r} is not one of its choices {list(q.choices)}")
        self._radios[i].value = choice

    def submit(self) -> Score:
        """Mark every question, reveal the truths, list what to revisit, record the attempt."""
        answers = [r.value for r in self._radios]
        score = self.check.score(answers)
        self.score = score
        for i, (a, ok) in enumerate(zip(self.check.asked, score.marks)):
            q = a.question
            mark = '<b style="color:#2e7d32">✓</b>' if ok else '<b style="color:#c62828">✗</b>'
            self._verdicts[i].value = (f'<div class="kschedlearn-verdict" style="line-height:1.45">{mark} '
                                       f"The simulator says: "
                                       f"<b>{inline(q.answer)}</b>.{to_html(q.explanation)}"
                                       f'<div style="color:#555">Step there: <code>m.check.simulation({i})</code>'
                                       "</div></div>")
        self.result.value = self._score_html(score)
        progress.record("mastery", ACTIVITY, score.passed,
                        detail=f"seed {self.check.seed}: {score.right}/{score.total} ({score.percent}%)")
        return score

    def reroll(self) -> MasteryCheck:
        """A new scenario: the next seed, new questions, nothing answered."""
        self.check = mastery_check(self.check.seed + 1)
        self.score = None
        self._show()
        return self.check

    # -- drawing -------------------------------------------------------------------------------
    def _show(self) -> None:
        c = self.check
        self.header.value = (f'<div style="{_BOX}"><b>Mastery check · seed {c.seed}</b> — a cluster you have not '
                             f"seen: {len(c.roles.nodes)} nodes ({html.escape(', '.join(c.roles.nodes))}), one "
                             "scheduler, then a second run with leader election. Answer every question, then "
                             "press <b>Score my answers</b>.</div>")
        self._radios, self._verdicts, rows = [], [], []
        for i, a in enumerate(c.asked):
            radio = widgets.RadioButtons(options=tuple((plain(x), x) for x in a.question.choices), value=None,
                                         layout=widgets.Layout(width="auto"))
            verdict = widgets.HTML()
            self._radios.append(radio)
            self._verdicts.append(verdict)
            prompt = widgets.HTML(f'<div style="line-height:1.45"><b>{i + 1}.</b> <i>({html.escape(a.topic)})</i> '
                                  f"{inline(a.question.prompt)}</div>")
            rows.append(widgets.VBox([prompt, radio, verdict]))
        self.questions.children = rows
        self.result.value = ""

    def _score_html(self, score: Score) -> str:
        head = (f'<div class="kschedlearn-mastery-score" style="{_BOX}"><b>{score.right} of {score.total} right — '
                f"{score.percent} %</b> " + ("(passed)" if score.passed else "(80 % passes)"))
        if not score.revisit:
            return head + "<p>Nothing to revisit.</p></div>"
        items = "".join(
            f'<li><a href="{html.escape(r.link)}">{html.escape(r.notebook)}</a>, objective <b>{r.objective}</b>: '
            f"{inline(r.text)} <small>({html.escape(', '.join(r.topics))})</small></li>" for r in score.revisit)
        return head + f"<p>Revisit:</p><ul>{items}</ul></div>"

    def static_html(self) -> str:
        """The questions as plain HTML (a saved notebook shows them; the answers need the kernel)."""
        items = "".join(
            f"<li><i>({html.escape(a.topic)})</i> {inline(a.question.prompt)}<ol type=\"a\">"
            + "".join(f"<li>{inline(x)}</li>" for x in a.question.choices) + "</ol></li>"
            for a in self.check.asked)
        scored = self._score_html(self.score) if self.score is not None else (
            "<p><i>Run the notebook to answer and score (the answers come from the simulator).</i></p>")
        return f'<div class="kschedlearn-mastery-static" style="{_BOX}"><b>Mastery check · seed {self.check.seed}</b><ol>{items}</ol>{scored}</div>'

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        return self.box._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        return f"<MasteryWidget seed={self.check.seed}: {len(self.check.asked)} questions>"


__all__ = ["ACTIVITY", "MasteryWidget"]
