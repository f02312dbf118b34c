"""Attach a simulation's trace points to the parts of one kube-scheduler replica.

Go: none — kschedlearn-only (DESIGN principle 5).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kschedlearn.observe.generic_scheduler import observe_algorithm, observe_module_functions
from kschedlearn.observe.informers import observe_informers
from kschedlearn.observe.leaderelection import observe_leader_election
from kschedlearn.observe.observation import Observation, ReplicaHandles, attach
from kschedlearn.observe.queues import observe_queue
from kschedlearn.observe.scheduler import observe_binder, observe_cache, observe_error_path, observe_next_pod
from kschedlearn.observe.sharing import takes_snapshots, watch_cache, watch_queue
from kschedlearn.observe.startup import observe_config_factory, observe_main


def observe_scheduler_parts(observation: Any, config_factory: Any, config: Any, scheduler_name: str, *,
                            assume: bool = True) -> None:
    """Every trace point of one replica's scheduler (``config`` is the scheduler.Config its
    ConfigFactory created), and — when the simulation takes snapshots — the change counters of
    its cache and queues that keep those snapshots cheap."""
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
    if takes_snapshots(observation.runtime):
        watch_cache(cache)
        watch_queue(config_factory.pod_queue)
        watch_queue(config_factory.scheduled_pod_populator.config.queue)


def observe_kube_scheduler(runtime: Any, *, assume: bool = True, engine: str = "mirrored",
                           on_config: Callable[[ReplicaHandles, Any], None] | None = None) -> Observation:
    """Attach every trace point of kube-scheduler to ``runtime`` (its replicas' start-up chain,
    informers, leader election and, once each replica's Config exists, its pod journey); returns
    the runtime's observation (made now if it has none).

    ``engine="accelerated"`` swaps each replica's algorithm for the accelerated engine as its
    Config is made; ``assume=False`` is the "assume off" switch; ``on_config(handles, config)``
    runs after the trace points are attached (a world points its views there).
    """
    observation = runtime.observation if runtime.observation is not None else attach(runtime)

    def config_ready(handles: ReplicaHandles, config: Any) -> None:
        if engine == "accelerated":
            from kschedlearn.accelerated import accelerate_config
            from kschedlearn.accelerated.informers import accelerate_informers

            accelerate_config(config)
            accelerate_informers(handles.config_factory)
        observe_scheduler_parts(observation, handles.config_factory, config, handles.s.scheduler_name, assume=assume)
        if engine == "accelerated":
            from kschedlearn.observe.sweep import quiet_sweeps

            quiet_sweeps(config.scheduler_cache)  # (inside the cache's trace points: after them)
        if on_config is not None:
            on_config(handles, config)

    observe_main(observation)
    observe_config_factory(observation, config_ready)
    observe_informers(observation)
    observe_leader_election(observation)
    return observation


__all__ = ["observe_kube_scheduler", "observe_scheduler_parts"]
