"""The scheduling algorithm: filter nodes with predicates, score them, pick the best.

Go: plugin/pkg/scheduler/core/generic_scheduler.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/core/generic_scheduler.go

Differs from Go: Go iterates the predicate map in random order; here predicates run in sorted
name order, so a trace is reproducible (every predicate still runs — there is no short
circuit, as in 1.6). Work Go spreads over 16 goroutines runs in node order (see
``client_go.util.workqueue.parallelizer``); old-style priority functions and reduce functions,
which Go runs in goroutines and waits for, run one after another in config order.

Nothing here exists only for the notebook: the ``schedule.*`` and ``selectHost`` trace points
(each predicate's verdict, the score table, the round-robin pick) are attached from outside by
``kschedlearn.observe.generic_scheduler``, which hooks these functions from outside.
"""

from __future__ import annotations

from typing import Any

import attrs

from kschedlearn.apimachinery._goint import int64
from kschedlearn.apimachinery.util.errors import new_aggregate
from kschedlearn.apimachinery.util.runtime import PANICS
from kschedlearn.client_go.util.workqueue.parallelizer import parallelize
from kschedlearn.scheduler.algorithm.predicates.error import new_failure_reason
from kschedlearn.scheduler.algorithm.types import MetadataProducer, PriorityConfig
from kschedlearn.scheduler.api.types import HostPriority
from kschedlearn.sim import Mutex
from kschedlearn.trace import glog
from kschedlearn.trace.util_trace import new_trace

NO_NODE_AVAILABLE_MSG = "No nodes are available that match all of the following predicates:"

FailedPredicateMap = dict[str, list[Any]]


class ErrNoNodesAvailable(Exception):
    """Go: core.ErrNoNodesAvailable (a package error value; compare with ``isinstance``)."""

    def __init__(self) -> None:
        super().__init__("no nodes available to schedule pods")


class FitError(Exception):
    """No node passed every predicate.

    Go: core.FitError — generic_scheduler.go#L40-L43. The 1.6 message keeps its double colon.
    """

    def __init__(self, pod: Any, failed_predicates: FailedPredicateMap) -> None:
        self.pod = pod
        self.failed_predicates = failed_predicates
        super().__init__(self.error())

    def error(self) -> str:
        """Go: FitError.Error() — the histogram of failure reasons, sorted."""
        reasons: dict[str, int] = {}
        for failed in self.failed_predicates.values():
            for pred in failed:
                reasons[pred.get_reason()] = reasons.get(pred.get_reason(), 0) + 1
        histogram = sorted(f"{k} ({v})" for k, v in reasons.items())
        return f"{NO_NODE_AVAILABLE_MSG}: {', '.join(histogram)}."

    def __str__(self) -> str:
        return self.error()


class SchedulingError(Exception):
    """A plain ``fmt.Errorf`` error of this file (e.g. ``empty priorityList``)."""


@attrs.define(eq=False, slots=False)
class GenericScheduler:
    """Go: core.genericScheduler (implements algorithm.ScheduleAlgorithm)."""

    cache: Any
    predicates: dict[str, Any]
    predicate_meta_producer: MetadataProducer
    prioritizers: list[PriorityConfig]
    priority_meta_producer: MetadataProducer
    extenders: list[Any] = attrs.field(factory=list)
    last_node_index_lock: Mutex = attrs.field(factory=lambda: Mutex("lastNodeIndexLock"))
    last_node_index: int = 0
    cached_node_info_map: dict[str, Any] = attrs.field(factory=dict)

    def schedule(self, pod: Any, node_lister: Any) -> str:
        """Pick a node for ``pod`` or raise (FitError, ErrNoNodesAvailable, other errors).

        Go: genericScheduler.Schedule — generic_scheduler.go#L86-L131
        """
        trace = new_trace(f"Scheduling {pod.metadata.namespace}/{pod.metadata.name}")
        try:
            nodes = node_lister.list()
            if len(nodes) == 0:
                raise ErrNoNodesAvailable()

            # one snapshot serves every predicate and priority of this attempt
            self.cache.update_node_name_to_info_map(self.cached_node_info_map)

            trace.step("Computing predicates")
            filtered_nodes, failed_predicate_map = find_nodes_that_fit(
                pod, self.cached_node_info_map, nodes, self.predicates,
                self.extenders, self.predicate_meta_producer,
            )
            if len(filtered_nodes) == 0:
                raise FitError(pod, failed_predicate_map)

            trace.step("Prioritizing")
            meta_priorities = self.priority_meta_producer(pod, self.cached_node_info_map)
            priority_list = prioritize_nodes(
                pod, self.cached_node_info_map, meta_priorities, self.prioritizers,
                filtered_nodes, self.extenders,
            )

            trace.step("Selecting host")
            return self._select_host(priority_list)
        finally:
            trace.log_if_long(0.1)

    def _select_host(self, priority_list: list[HostPriority]) -> str:
        """Highest score wins; ties go round-robin through a counter shared by all pods.

        Go: genericScheduler.selectHost — generic_scheduler.go#L133-L150. Go sorts with
        ``sort.Reverse`` of (score, host) ascending: score descending, then host name
        descending.
        """
        if len(priority_list) == 0:
            raise SchedulingError("empty priorityList")
        priority_list.sort(key=lambda hp: (hp.score, hp.host), reverse=True)
        max_score = priority_list[0].score
        first_after_max_score = next(
            (i for i, hp in enumerate(priority_list) if hp.score < max_score), len(priority_list)
        )
        with self.last_node_index_lock:
            ix = self.last_node_index % first_after_max_score
            self.last_node_index += 1
        return priority_list[ix].host


def find_nodes_that_fit(
    pod: Any,
    node_name_to_info: dict[str, Any],
    nodes: list[Any],
    predicate_funcs: dict[str, Any],
    extenders: list[Any],
    metadata_producer: MetadataProducer,
) -> tuple[list[Any], FailedPredicateMap]:
    """Run the predicates on every node; then let each extender filter further.

    Go: findNodesThatFit — generic_scheduler.go#L152-L221. Raises the aggregate of predicate
    errors (the whole attempt fails, not a FitError) or an extender's error.
    """
    failed_predicate_map: FailedPredicateMap = {}
    if len(predicate_funcs) == 0:
        filtered = list(nodes)
    else:
        filtered = []
        errs: list[BaseException] = []
        # one metadata object serves all nodes
        meta = metadata_producer(pod, node_name_to_info)

        def check_node(i: int) -> None:
            node_name = nodes[i].metadata.name
            try:
                fits, failed_predicates = pod_fits_on_node(
                    pod, meta, node_name_to_info.get(node_name), predicate_funcs
                )
            except PANICS:
                raise  # a panic is no returned error: HandleCrash in Parallelize re-panics
            except Exception as err:  # noqa: BLE001 - Go collects the error value
                errs.append(err)
                return
            if fits:
                filtered.append(nodes[i])
            else:
                failed_predicate_map[node_name] = failed_predicates

        parallelize(16, len(nodes), check_node)
        if errs:
            raise new_aggregate(errs)  # type: ignore[misc]

    if filtered and extenders:
        for extender in extenders:
            filtered_list, failed_map = extender.filter(pod, filtered, node_name_to_info)
            for failed_node_name, failed_msg in failed_map.items():
                failed_predicate_map.setdefault(failed_node_name, [])
                failed_predicate_map[failed_node_name].append(new_failure_reason(failed_msg))
            filtered = list(filtered_list)
            if not filtered:
                break
    return filtered, failed_predicate_map


class PredicateRunError(Exception):
    """Go: the ``fmt.Errorf("SchedulerPredicates failed due to %v, which is unexpected.")``."""


def pod_fits_on_node(
    pod: Any,
    meta: Any,
    info: Any,
    predicate_funcs: dict[str, Any],
) -> tuple[bool, list[Any]]:
    """Run every predicate (no short circuit) and collect the reasons of those that fail.

    Go: podFitsOnNode — generic_scheduler.go#L223-L237

    Differs from Go: predicates run in sorted name order, not map order (module docstring).
    Public although Go's name is unexported: learners call it by hand, like ``schedule_one``
    (DESIGN §3); ``_pod_fits_on_node`` is the same function under the helper-rule name.
    """
    failed_predicates: list[Any] = []
    for name in sorted(predicate_funcs):
        predicate = predicate_funcs[name]
        try:
            fit, reasons = predicate(pod, meta, info)
        except PANICS:
            raise  # a Go panic unwinds through podFitsOnNode untouched
        except Exception as err:  # noqa: BLE001 - Go wraps any returned error
            raise PredicateRunError(
                f"SchedulerPredicates failed due to {err}, which is unexpected."
            ) from err
        if not fit:
            failed_predicates.extend(reasons)
    return len(failed_predicates) == 0, failed_predicates


_pod_fits_on_node = pod_fits_on_node


def prioritize_nodes(
    pod: Any,
    node_name_to_info: dict[str, Any],
    meta: Any,
    priority_configs: list[PriorityConfig],
    nodes: list[Any],
    extenders: list[Any],
) -> list[HostPriority]:
    """Score every node with every priority, weight and sum; add extender scores.

    Go: PrioritizeNodes — generic_scheduler.go#L239-L373
    """
    if len(priority_configs) == 0 and len(extenders) == 0:
        result = []
        for node in nodes:
            result.append(equal_priority_map(pod, meta, node_name_to_info.get(node.metadata.name)))
        return result

    errs: list[BaseException] = []
    results: list[list[Any]] = [[] for _ in priority_configs]
    for i, config in enumerate(priority_configs):
        if config.function is not None:
            # DEPRECATED old-style function (Go runs it in its own goroutine)
            try:
                results[i] = list(config.function(pod, node_name_to_info, nodes))
            except PANICS:
                raise  # a panic in the goroutine kills the process
            except Exception as err:  # noqa: BLE001
                errs.append(err)
        else:
            results[i] = [None] * len(nodes)

    def process_node(index: int) -> None:
        node_info = node_name_to_info.get(nodes[index].metadata.name)
        for i, config in enumerate(priority_configs):
            if config.function is not None:
                continue
            try:
                results[i][index] = config.map_fn(pod, meta, node_info)  # type: ignore[misc]
            except PANICS:
                raise  # HandleCrash in Parallelize re-panics
            except Exception as err:  # noqa: BLE001
                errs.append(err)
                return

    parallelize(16, len(nodes), process_node)
    for i, config in enumerate(priority_configs):
        if config.reduce is None:
            continue
        try:
            config.reduce(pod, meta, node_name_to_info, results[i])
        except PANICS:
            raise  # a panic in the goroutine kills the process
        except Exception as err:  # noqa: BLE001
            errs.append(err)
    if errs:
        raise new_aggregate(errs)  # type: ignore[misc]

    # Summarize all scores.
    result: list[HostPriority] = []
    for i, node in enumerate(nodes):
        score = 0
        for j, config in enumerate(priority_configs):
            # Go's int: the product and the sum wrap at 64 bits (MinInt64 * 2 == 0)
            score = int64(score + int64(results[j][i].score * config.weight))
        result.append(HostPriority(host=node.metadata.name, score=score))

    if extenders and nodes:
        combined_scores: dict[str, int] = {}
        for extender in extenders:
            try:
                prioritized_list, weight = extender.prioritize(pod, nodes)
            except PANICS:
                raise  # only a returned error is ignored
            except Exception:  # noqa: BLE001 - Go ignores an extender's prioritize error
                continue
            for hp in prioritized_list:
                combined_scores[hp.host] = int64(combined_scores.get(hp.host, 0) + int64(hp.score * weight))
        for i, hp in enumerate(result):
            result[i] = attrs.evolve(hp, score=int64(hp.score + combined_scores.get(hp.host, 0)))

    if glog.v(10):
        for hp in result:
            glog.v(10).infof("Host %s => Score %d", hp.host, hp.score)
    return result


def equal_priority_map(pod: Any, meta: Any, node_info: Any) -> HostPriority:
    """Every node scores 1 — used only when there are no priorities and no extenders.

    Go: EqualPriorityMap — generic_scheduler.go#L375-L385
    """
    node = node_info.node() if node_info is not None else None
    if node is None:
        raise SchedulingError("node not found")
    return HostPriority(host=node.metadata.name, score=1)


def new_generic_scheduler(
    cache: Any,
    predicates: dict[str, Any],
    predicate_meta_producer: MetadataProducer,
    prioritizers: list[PriorityConfig],
    priority_meta_producer: MetadataProducer,
    extenders: list[Any],
) -> GenericScheduler:
    """Go: core.NewGenericScheduler — generic_scheduler.go#L387-L403"""
    return GenericScheduler(
        cache=cache,
        predicates=predicates,
        predicate_meta_producer=predicate_meta_producer,
        prioritizers=prioritizers,
        priority_meta_producer=priority_meta_producer,
        extenders=list(extenders),
    )
