"""Attach a simulation's trace points to the parts of one kube-scheduler replica.

Go: none — kschedlearn-only (DESIGN principle 5).
"""

from __future__ import annotations

from typing import Any

from kschedlearn.observe.generic_scheduler import observe_algorithm, observe_module_functions
from kschedlearn.observe.queues import observe_queue
from kschedlearn.observe.scheduler import observe_binder, observe_cache, observe_error_path, observe_next_pod
from kschedlearn.observe.sharing import watch_cache, watch_queue


def observe_scheduler_parts(observation: Any, config_factory: Any, config: Any, scheduler_name: str, *,
                            assume: bool = True) -> None:
    """Every trace point of one replica's scheduler (``config`` is the scheduler.Config its
    ConfigFactory created), and the change counters of its cache and queues for cheap snapshots."""
    cache = config.scheduler_cache
    if not assume:
        from kschedlearn.simulation.no_assume import switch_off_assume

        switch_off_assume(cache, scheduler_name)
    observe_cache(cache, scheduler_name, assume=assume)
    observe_binder(config.binder, scheduler_name)
    observe_module_functions(observation)
    observe_algorithm(config.algorithm)
    observe_error_path(config_factory)
    observe_queue(config_factory.pod_queue, "podQueue")
    observe_queue(config_factory.scheduled_pod_populator.config.queue, "assignedPods")
    observe_next_pod(config, scheduler_name)
    watch_cache(cache)
    watch_queue(config_factory.pod_queue)
    watch_queue(config_factory.scheduled_pod_populator.config.queue)


__all__ = ["observe_scheduler_parts"]
