"""The observation layer's one wrapping mechanism, and what importing kschedlearn does not do.

kschedlearn-only (issue 21 item 1). A probe on one instance shadows the class's method for that
instance only and looks the method up when called — so a method swapped onto the class later
(an exercise, a learner) is what runs and is what is observed; no object changes class. A
process-wide probe on a module function only calls through unless the calling goroutine's
simulation observes it, and the function is put back once no observation uses it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from kschedlearn.client_go.tools.cache import fifo as fifo_module
from kschedlearn.client_go.tools.cache.fifo import FIFO, new_fifo
from kschedlearn.client_go.tools.cache.store import meta_namespace_key_func
from kschedlearn.observe import attach
from kschedlearn.observe.wrap import Call, is_probe, on_method, probed, remove_probes
from kschedlearn.sim import Runtime
from kschedlearn.trace import Tracer

ROOT = Path(__file__).resolve().parents[2]


def test_an_instance_probe_sees_a_method_swapped_onto_the_class_later() -> None:
    seen: list[tuple[str, object]] = []
    q = new_fifo(meta_namespace_key_func)
    other = new_fifo(meta_namespace_key_func)
    on_method(q, "has_synced", after=lambda call: seen.append(("after", call.result)))
    assert type(q) is FIFO and probed(q, "has_synced") and not probed(other, "has_synced")
    assert q.has_synced() is False and seen == [("after", False)]
    original = FIFO.has_synced
    FIFO.has_synced = lambda self: "swapped"  # type: ignore[method-assign] - what an exercise does
    try:
        assert q.has_synced() == "swapped"  # the swapped method runs ...
        assert seen[-1] == ("after", "swapped")  # ... and is observed
        assert other.has_synced() == "swapped" and len(seen) == 2  # the other instance is not observed
    finally:
        FIFO.has_synced = original  # type: ignore[method-assign]
    remove_probes(q)
    assert not probed(q, "has_synced") and q.has_synced() is False and len(seen) == 2


def test_hooks_see_the_calling_frame_and_can_be_limited_to_one_caller() -> None:
    q = new_fifo(meta_namespace_key_func)
    callers: list[str] = []

    def note(call: Call) -> None:
        callers.append(call.caller.f_code.co_name)

    def caller_a() -> None:
        q.has_synced()

    def caller_b() -> None:
        q.has_synced()

    on_method(q, "has_synced", before=note, site=caller_a.__code__)
    caller_a()
    caller_b()
    assert callers == ["caller_a"]


def test_a_process_wide_probe_is_per_simulation_and_released_with_its_observation() -> None:
    calls: list[int] = []
    original = fifo_module.new_fifo

    def run(rt: Runtime) -> None:
        rt.run_fn(lambda: fifo_module.new_fifo(meta_namespace_key_func))

    observed, bystander = Runtime(seed=1), Runtime(seed=2)
    observed.tracer = Tracer()
    observation = attach(observed)
    observation.on_attribute(fifo_module, "new_fifo", after=lambda call: calls.append(1))
    assert is_probe(fifo_module.new_fifo)
    run(observed)
    run(bystander)  # another simulation (no observation) calls straight through
    fifo_module.new_fifo(meta_namespace_key_func)  # so does code outside any simulation
    assert calls == [1]
    observation.close()  # a world the notebook replaced (or garbage-collected with it)
    assert fifo_module.new_fifo is original
    observation.close()  # once is enough
    assert fifo_module.new_fifo is original


_PROBE = """
import json, sys
import kschedlearn
observe_at_import = any(m.startswith("kschedlearn.observe") for m in sys.modules)
from kschedlearn import Simulation  # the notebook's entry point, imported, not used
from kschedlearn.apimachinery.labels.selector import InternalSelector
from kschedlearn.scheduler.algorithm.priorities.selector_spreading import SelectorSpread
from kschedlearn.scheduler.core import generic_scheduler as gs
from kschedlearn.scheduler.schedulercache.cache import SchedulerCache
print(json.dumps({
    "selector": InternalSelector.matches.__module__ + "." + InternalSelector.matches.__qualname__,
    "spread": SelectorSpread.calculate_spread_priority.__module__,
    "pod_fits_on_node": type(gs.pod_fits_on_node).__name__,
    "assume_pod": SchedulerCache.assume_pod.__qualname__,
    "observe_at_import": observe_at_import,
}))
"""


def test_import_kschedlearn_installs_nothing_into_the_mirror() -> None:
    out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, cwd=ROOT, check=True)
    facts = json.loads(out.stdout.splitlines()[-1])
    assert facts == {
        "selector": "kschedlearn.apimachinery.labels.selector.InternalSelector.matches",
        "spread": "kschedlearn.scheduler.algorithm.priorities.selector_spreading",
        "pod_fits_on_node": "function",
        "assume_pod": "SchedulerCache.assume_pod",
        "observe_at_import": False,
    }


def test_import_kschedlearn_sim_does_not_import_the_scheduler() -> None:
    probe = "import json, sys; import kschedlearn.sim; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True)
    loaded = json.loads(out.stdout.splitlines()[-1])
    assert not [m for m in loaded if m.startswith(("kschedlearn.scheduler", "kschedlearn.observe",
                                                   "kschedlearn.trace", "kschedlearn.client_go"))]


def test_mirror_methods_remembers_its_answer_until_a_method_or_a_probes_function_changes(monkeypatch) -> None:
    # one answer for the accelerated engine's cache refresh and the snapshot indexes: a function
    # swapped in the class, or behind a probe the class holds, is seen at the next ask
    from kschedlearn.observe.wrap import MirrorMethods, behind_probe, global_probe, release
    from kschedlearn.scheduler.schedulercache.cache import SchedulerCache

    check = MirrorMethods(("assume_pod", "forget_pod"), "kschedlearn.scheduler.schedulercache.cache")
    assert check.check(SchedulerCache) == (True, True)
    assert check.check(SchedulerCache) == (True, False)  # remembered
    with monkeypatch.context() as patch:
        patch.setattr(SchedulerCache, "assume_pod", lambda self, pod: None)
        assert check.check(SchedulerCache) == (False, True)
    assert check.check(SchedulerCache) == (True, True)
    probe = global_probe(SchedulerCache, "forget_pod")
    probe.users += 1
    try:
        assert check.check(SchedulerCache) == (True, True)  # the class now holds a probe
        with behind_probe(probe, lambda self, pod: None):
            assert check.check(SchedulerCache) == (False, True)
        assert check.check(SchedulerCache) == (True, True)
    finally:
        release(probe)
