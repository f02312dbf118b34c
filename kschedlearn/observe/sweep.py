"""A quiet second of the scheduler cache's expiry sweep, seen from outside: nothing to do.

Go: none — kschedlearn-only, put in place from outside by ``observe/replica.py`` for
``engine="accelerated"``; nothing in ``schedulercache`` knows about it. Every second 1.6's
``cleanupAssumedPods`` walks every assumed pod: one whose binding is still in flight gets a
warning line, one whose binding finished more than 30 s ago expires. In a replay's burst up to
10,000 pods wait for their binding (the client's 50 QPS), so each sweep wrote up to 10,000
warnings that a history at pod granularity does not keep — about a twentieth of a 5,000-node run.

When no assumed pod is due to expire (none whose binding finished and whose deadline passed, no
broken state the mirror panics on) and nobody can see those warnings (no tracer keeping log
lines, no hook at the sweep's glog lines, no tracer or profiler in the interpreter), the sweep
changes nothing and shows nothing: :func:`quiet_sweeps` then skips the mirror's walk. Any other
second the mirror sweeps. The probes around the sweep (its ``cleanupAssumedPods`` trace point,
the cache's watch) run as before: this hook stands inside them, and its frame is not in a stack.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from kschedlearn.observe.wrap import Call, MirrorMethods, on_method
from kschedlearn.scheduler.schedulercache.cache import SchedulerCache
from kschedlearn.sim.runtime import current_goroutine

_MIRROR_SWEEP = MirrorMethods(("_cleanup_assumed_pods",), "kschedlearn.scheduler.schedulercache.cache", "SchedulerCache")
_SWEEP_CODE = SchedulerCache._cleanup_assumed_pods.__code__


def nothing_due(cache: Any, now: float) -> bool:
    """Whether the mirror's sweep at ``now`` would only warn: every assumed pod has a state, and
    each whose binding finished has a deadline not before ``now``."""
    states = cache._pod_states
    for key in cache._assumed_pods:
        ps = states.get(key)
        if ps is None or (ps.binding_finished and (ps.deadline is None or now > ps.deadline)):
            return False
    return True


def unseen_warnings() -> bool:
    """Whether a glog warning from the sweep would leave no trace: a tracer that does not keep log
    lines (without one they go to Python's logging), no observation hook at the sweep's lines, no
    tracer or profiler in the interpreter."""
    if sys.gettrace() is not None or sys.getprofile() is not None:
        return False
    g = current_goroutine()
    rt = g.runtime if g is not None else None
    tracer = rt.tracer if rt is not None else None
    if tracer is None or tracer.wants("log"):
        return False
    observation = rt.observation
    return observation is None or not observation.log_hooks.get(_SWEEP_CODE)


def _sweep(proceed: Callable[..., Any], call: Call) -> Any:
    """Around ``cleanupAssumedPods(now)``: skipped when it would change and show nothing."""
    cache = call.receiver
    if (len(call.args) == 1 and not call.kwargs and type(cache) is SchedulerCache and not cache._mu.locked
            and _MIRROR_SWEEP.check(SchedulerCache)[0] and unseen_warnings() and nothing_due(cache, call.args[0])):
        return None
    return proceed(*call.args, **call.kwargs)


def quiet_sweeps(cache: Any) -> Any:
    """Skip ``cache``'s quiet sweeps (this instance only; put in place after the cache's trace
    points, so that they stay outside it); returns the cache."""
    on_method(cache, "_cleanup_assumed_pods", around=_sweep)
    return cache


__all__ = ["nothing_due", "quiet_sweeps", "unseen_warnings"]
