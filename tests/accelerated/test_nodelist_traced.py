"""The engine's node-list memo is used traced too, except where the mirror's ``list()`` could show
something: the condition filter's ``glog.V(4)`` lines may be on, or an exercise swapped one of the
functions the memo stands for.

kschedlearn-only (issue 25: a full trace's cost). ``accelerated/nodelist.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

from kschedlearn import sim
from kschedlearn.accelerated import nodelist
from kschedlearn.scheduler.factory import factory
from kschedlearn.simulation.history import POD_STAGES
from kschedlearn.trace import Tracer


def _in_goroutine(tracer: Tracer | None, glog: Any = None) -> bool:
    rt = sim.Runtime(seed=1)
    rt.tracer = tracer
    proc = rt.new_process("scheduler")
    proc.glog = glog
    answer: list[bool] = []
    rt.go(lambda: answer.append(nodelist._filter_may_log()), process=proc, name="main")
    rt.run()
    return answer[0]


@pytest.mark.parametrize("tracer, glog, may_log", [
    (None, None, False),                                   # untraced: glog records nothing
    (Tracer(log_verbosity=0), None, False),                # a full trace below V(4)
    (Tracer(log_verbosity=3), None, False),
    (Tracer(log_verbosity=4), None, True),                 # V(4) lines recorded
    (Tracer(log_verbosity=10, keep=POD_STAGES), None, False),  # a thinned trace keeps no log line
    (Tracer(log_verbosity=0), object(), True),             # the process's own --v / --vmodule
])
def test_the_mirrors_list_runs_when_the_filters_log_lines_may_be_on(tracer: Tracer | None, glog: Any,
                                                                    may_log: bool) -> None:
    assert _in_goroutine(tracer, glog) is may_log


def test_a_swapped_function_makes_the_mirror_run(monkeypatch: pytest.MonkeyPatch) -> None:
    assert nodelist._mirror_functions()
    monkeypatch.setattr(factory, "get_node_condition_predicate", lambda: (lambda node: True))
    assert not nodelist._mirror_functions()
    monkeypatch.undo()
    assert nodelist._mirror_functions()
    monkeypatch.setattr(factory.NodePredicateLister, "list", lambda self: [])
    assert not nodelist._mirror_functions()


def test_a_traced_replay_lists_the_same_nodes_with_the_memo() -> None:
    """A full trace with the memo and one with the mirror's ``list()`` record the same events on a
    scenario whose node conditions change."""
    from kschedlearn import Simulation

    def run(memo: bool) -> list[tuple[str, str]]:
        s = Simulation.from_scenario("node-conditions", seed=1, snapshots=False, engine="accelerated",
                                     log_verbosity=0)
        with pytest.MonkeyPatch.context() as m:
            if not memo:
                m.setattr(nodelist, "_filter_may_log", lambda: True)
            s.world.run(None)
            return [(e.stage, e.message) for e in s.world.tracer.events]

    assert run(True) == run(False)
