"""Trace points of the factory's error path (``error.backoff``, ``error.requeue``), attached from outside.

Go: none — kschedlearn-only (DESIGN principle 5: ``factory.py`` carries no notebook lines).
``MakeDefaultErrorFunc``'s retry goroutine first takes the pod's backoff entry
(``PodBackoff.GetEntry`` — nothing else in the scheduler calls it), then, after the backoff
and a fresh read, puts the pod back with ``podQueue.AddIfNotPresent`` (nothing else calls that
on podQueue either). So:

- ``error.backoff`` fires when ``get_entry`` returns: the delay the retry is about to sleep, or
  that another retry of the same pod is already sleeping (that one gives up);
- ``error.requeue`` fires just before ``add_if_not_present`` on podQueue.

Both events stand in the retry goroutine's ``_retry_after_backoff`` frame, as Go's lines do.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from kschedlearn.trace import emit, register_stage
from kschedlearn.trace.instrument import wrap_instance
from kschedlearn.trace.stages import SCHED

_F = SCHED + "factory/factory.go"
register_stage("error.backoff", _F + "#L514-L558",
               "The error handler from MakeDefaultErrorFunc waits out the pod's backoff (1 s, 2 s, 4 s ... 60 s) before re-reading it.")
register_stage("error.requeue", _F + "#L514-L558",
               "MakeDefaultErrorFunc's goroutine: after its backoff the pod is read again from the API server and put back with AddIfNotPresent.")


def _announce_backoff(get_entry: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(get_entry)
    def traced_get_entry(backoff: Any, pod_id: str) -> Any:
        entry = get_entry(backoff, pod_id)
        in_flight = entry.req_in_flight != 0  # TryWait is about to give up
        if in_flight:
            message = f"{pod_id}: another retry is already waiting — this one gives up"
        else:
            message = f"{pod_id}: backing off {entry.backoff:g}s"
        emit("error.backoff", message, data={"pod": pod_id, "backoff": entry.backoff, "in_flight": in_flight})
        return entry

    return traced_get_entry


def _announce_requeue(add_if_not_present: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(add_if_not_present)
    def traced_add_if_not_present(queue: Any, pod: Any) -> Any:
        pod_id = f"{pod.metadata.namespace}/{pod.metadata.name}"
        emit("error.requeue", f"{pod_id} back into podQueue (AddIfNotPresent)", data={"pod": pod_id})
        return add_if_not_present(queue, pod)

    return traced_add_if_not_present


def instrument_error_path(config_factory: Any) -> None:
    """Attach ``error.backoff`` and ``error.requeue`` to one ConfigFactory's backoff and podQueue."""
    if config_factory.pod_backoff is not None:
        wrap_instance(config_factory.pod_backoff, {"get_entry": _announce_backoff}, tag="error-path")
    wrap_instance(config_factory.pod_queue, {"add_if_not_present": _announce_requeue}, tag="error-path")
