"""Shared helpers of the task modules: API-object builders, patching, plug-in glue.

Go: the builders play the role of the Go tests' helpers (``makeNode``, ``newResourcePod``,
``newPod`` with host ports) whose case data the task modules copy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import attrs

from kschedlearn.api.resource import BINARY_SI, DECIMAL_SI, new_milli_quantity, new_quantity
from kschedlearn.api.v1.meta import ObjectMeta
from kschedlearn.api.v1.node import Node, NodeStatus
from kschedlearn.api.v1.pod import Container, ContainerPort, Pod, PodSpec, ResourceRequirements
from kschedlearn.exercises import framework as fw

GO = "https://github.com/kubernetes/kubernetes/blob/v1.6.1/"


def requests(milli_cpu: int = 0, memory: int = 0, **extra: int) -> dict[str, Any]:
    """A container request list; ``extra`` maps resource names (``_`` → ``/``-free) to counts."""
    out: dict[str, Any] = {}
    if milli_cpu:
        out["cpu"] = new_milli_quantity(milli_cpu, DECIMAL_SI)
    if memory:
        out["memory"] = new_quantity(memory, BINARY_SI)
    for name, value in extra.items():
        out[name] = new_quantity(value, DECIMAL_SI)
    return out


def pod(
    name: str = "",
    *container_requests: dict[str, Any],
    node: str = "",
    namespace: str = "default",
    host_ports: tuple[int, ...] = (),
    labels: dict[str, str] | None = None,
) -> Pod:
    """A pod with one container per request list (or one empty container for ports)."""
    containers = tuple(Container(resources=ResourceRequirements(requests=r)) for r in container_requests)
    if host_ports:
        containers += (Container(ports=tuple(ContainerPort(host_port=p) for p in host_ports)),)
    return Pod(
        metadata=ObjectMeta(name=name, namespace=namespace if name else "", labels=dict(labels or {})),
        spec=PodSpec(node_name=node, containers=containers),
    )


def node(name: str, milli_cpu: int, memory: int, pods: int = 110, labels: dict[str, str] | None = None) -> Node:
    """A node whose capacity = allocatable = the given cpu (millicores), memory (bytes), pods."""
    resources = {
        "cpu": new_milli_quantity(milli_cpu, DECIMAL_SI),
        "memory": new_quantity(memory, BINARY_SI),
        "pods": new_quantity(pods, DECIMAL_SI),
    }
    return Node(
        metadata=ObjectMeta(name=name, labels=dict(labels or {})),
        status=NodeStatus(capacity=dict(resources), allocatable=dict(resources)),
    )


@contextmanager
def swap_attr(owner: Any, name: str, value: Any) -> Iterator[None]:
    """Temporarily replace ``owner.name`` (a module global or a class attribute). Where a
    simulation's trace point stands in front of it (a process-wide probe of the observation
    layer), ``value`` goes behind the probe: it runs, and it is observed as the original was."""
    from kschedlearn.observe.wrap import behind_probe, is_probe

    current = owner.__dict__.get(name) if isinstance(owner, type) else getattr(owner, name, None)
    if is_probe(current):
        with behind_probe(current, value):
            yield
        return
    old = getattr(owner, name)
    setattr(owner, name, value)
    try:
        yield
    finally:
        setattr(owner, name, old)


def describe_cache(cache: Any) -> str:
    """The scheduler cache as a call's result shows it: assumed pods, stored pods, node totals."""
    from kschedlearn.exercises.calls import describe  # noqa: PLC0415

    assumed = sorted(cache._assumed_pods)
    stored = {key: (state.pod.spec.node_name, state.deadline) for key, state in sorted(cache._pod_states.items())}
    nodes = {name: (info.requested_resource().milli_cpu, info.requested_resource().memory,
                    sorted(f"{p.metadata.namespace}/{p.metadata.name}" for p in info.pods()))
             for name, info in sorted(cache._nodes.items()) if info.pods()}
    return f"assumed {describe(assumed)}; podStates {describe(stored)}; nodes {describe(nodes)}"


def running_algorithms(simulation: Any) -> list[Any]:
    """The scheduling algorithms (``GenericScheduler``) of the simulation's scheduler replicas
    that have been created so far."""
    out = []
    for replica in simulation.world.replicas.values():
        scheduler = replica.handles.scheduler
        if scheduler is not None and scheduler.config.algorithm is not None:
            out.append(scheduler.config.algorithm)
    return out


def _swap_in(algorithm: Any, predicates: dict[str, Any], priorities: dict[str, Any]) -> None:
    for name, fn in predicates.items():
        if name in algorithm.predicates:
            algorithm.predicates[name] = fn
    algorithm.prioritizers[:] = [attrs.evolve(p, map_fn=priorities[p.name]) if p.name in priorities else p
                                 for p in algorithm.prioritizers]


@contextmanager
def in_running_algorithms(simulation: Any, predicates: dict[str, Any], priorities: dict[str, Any]) -> Iterator[None]:
    """Swap functions into the schedulers of a running simulation (restored after).

    A scheduler takes its predicates and priority functions from its own copy of the plugin
    registry once, when it is configured (Go: CreateFromKeys), so a plug-in into a running
    simulation must reach the algorithm itself: the ones already configured are changed here,
    and one configured while this block is active gets the swap as it is made (the factory's
    ``new_generic_scheduler`` is looked up at call time). ``predicates`` and ``priorities`` (map
    functions): name -> function.
    """
    from kschedlearn.scheduler.factory import factory as factory_module  # noqa: PLC0415

    saved: list[tuple[Any, dict[str, Any], list[Any]]] = []
    for algorithm in running_algorithms(simulation):
        saved.append((algorithm, dict(algorithm.predicates), list(algorithm.prioritizers)))
        _swap_in(algorithm, predicates, priorities)
    real = factory_module.new_generic_scheduler

    def new_generic_scheduler(*args: Any, **kwargs: Any) -> Any:
        algorithm = real(*args, **kwargs)
        saved.append((algorithm, dict(algorithm.predicates), list(algorithm.prioritizers)))
        _swap_in(algorithm, predicates, priorities)
        return algorithm

    try:
        with swap_attr(factory_module, "new_generic_scheduler", new_generic_scheduler):
            yield
    finally:
        for algorithm, preds, prios in saved:
            algorithm.predicates.clear()
            algorithm.predicates.update(preds)
            algorithm.prioritizers[:] = prios


@contextmanager
def methods_looked_up_at_call_time(simulation: Any, cls: type, name: str) -> Iterator[None]:
    """Make the running schedulers look ``cls.name`` up at each call (restored after).

    A priority such as SelectorSpread is configured as a bound method (Go: a method value,
    ``selectorSpread.CalculateSpreadPriority``), which keeps the function it was bound to; a
    method swapped on the class later reaches only schedulers configured later. Here the
    already-configured ones get a function that looks the method up on the instance's class
    when it is called.
    """
    saved: list[tuple[Any, list[Any]]] = []

    def late(config: Any) -> Any:
        bound = config.function
        owner = getattr(bound, "__self__", None)
        if not isinstance(owner, cls) or getattr(bound, "__name__", "") != name:
            return config

        def looked_up(*args: Any, owner: Any = owner) -> Any:
            return getattr(type(owner), name)(owner, *args)

        return attrs.evolve(config, function=looked_up)

    for algorithm in running_algorithms(simulation):
        saved.append((algorithm, list(algorithm.prioritizers)))
        algorithm.prioritizers[:] = [late(p) for p in algorithm.prioritizers]
    try:
        yield
    finally:
        for algorithm, prios in saved:
            algorithm.prioritizers[:] = prios


def compare(
    task_id: str,
    title: str,
    fn: Callable[..., Any],
    reference: Callable[..., Any],
    experiment: Callable[[Callable[..., Any], list[tuple[str, str]]], None],
    returns: Any,
    name: str,
    note: str = "",
) -> fw.PlugInReport:
    """Run ``experiment`` with the reference and with the (guarded) learner function; pair rows.

    ``experiment(f, rows)`` appends ``(step, outcome)`` rows; steps the learner's run did not
    reach (it raised or timed out) show that failure.
    """
    ref_rows: list[tuple[str, str]] = []
    experiment(reference, ref_rows)
    learner_rows: list[tuple[str, str]] = []

    def run_learner() -> str:
        experiment(fw.guard(fn, returns, name), learner_rows)
        return "ok"

    failure = fw.outcome(run_learner)
    yours = dict(learner_rows)
    rows = tuple((step, ref, yours.get(step, failure)) for step, ref in ref_rows)
    return fw.PlugInReport(task_id, title, rows, note)


def schedule_pods(
    predicates: dict[str, Any],
    prioritizers: list[Any],
    nodes: list[Any],
    pending: list[Any],
    rows: list[tuple[str, str]],
) -> None:
    """Schedule ``pending`` one by one with a real GenericScheduler over ``nodes``.

    Each chosen host is assumed in the cache (as scheduleOne does), so later pods see it.
    A pod that fits nowhere gets the FitError's text as its row.
    """
    from kschedlearn.scheduler.algorithm.types import empty_metadata_producer  # noqa: PLC0415
    from kschedlearn.scheduler.core.generic_scheduler import FitError, new_generic_scheduler  # noqa: PLC0415
    from kschedlearn.scheduler.schedulercache.cache import _new_scheduler_cache  # noqa: PLC0415
    from kschedlearn.scheduler.testing import FakeNodeLister  # noqa: PLC0415

    cache = _new_scheduler_cache(30.0, 1.0, None)
    for n in nodes:
        cache.add_node(n)
    g = new_generic_scheduler(cache, predicates, empty_metadata_producer, prioritizers,
                              empty_metadata_producer, [])
    for p in pending:
        try:
            host = g.schedule(p, FakeNodeLister(list(nodes)))
        except FitError as err:
            rows.append((f"schedule {p.metadata.name}", f"FitError: {err}"))
            continue
        cache.assume_pod(attrs.evolve(p, spec=attrs.evolve(p.spec, node_name=host)))
        rows.append((f"schedule {p.metadata.name}", host))
