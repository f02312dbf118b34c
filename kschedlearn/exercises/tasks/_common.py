"""Shared helpers of the task modules: API-object builders, patching, plug-in glue.

Go: the builders play the role of the Go tests' helpers (``makeNode``, ``newResourcePod``,
``newPod`` with host ports) whose case data the task modules copy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

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


def run_simulation(task_id: str, title: str, patch: Callable[[], Any], simulation: Any) -> fw.PlugInReport:
    """The full-scenario plug-in: run ``simulation`` with the learner's function patched in."""
    run = getattr(simulation, "run", None)
    if not callable(run):
        raise TypeError(f"plug_in({task_id!r}, fn, simulation): the simulation has no run() method")
    with patch():
        result = fw.outcome(run, show=lambda r: "finished" if r is None else str(r), limit=None)
    return fw.PlugInReport(task_id, title, (("simulation.run()", "finished", result),),
                           note="Your function was patched into the simulation while it ran; "
                                "see the simulation's views for the effect.")


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
    import attrs  # noqa: PLC0415

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
