"""Trace points of the scheduling algorithm (``schedule.*``, ``selectHost``), attached from outside.

Go: none — kschedlearn-only (DESIGN principle 5: ``generic_scheduler.py`` carries no notebook
lines). What the ``decision`` view and the questions read comes from here:

- ``schedule.start`` — before ``Schedule`` calls ``findNodesThatFit`` (Go's ``trace.Step("Computing
  predicates")`` stands just before it): the pod and the listed nodes;
- ``schedule.predicate_node`` — after ``checkNode``'s call of ``podFitsOnNode`` for one node: each
  predicate's own reasons (recorded by handing that call recording twins of the predicates);
- ``schedule.predicates`` — ``findNodesThatFit`` returned at least one node (Go's
  ``trace.Step("Prioritizing")``): the nodes that fit and every failed node's reasons;
- ``schedule.priorities`` — ``PrioritizeNodes`` returned: each priority's score column (recorded
  by handing the call twins of the reduce / old-style functions — the map results reach the
  reduce step — and of the extenders), the weights and the totals;
- ``selectHost`` — ``selectHost`` returned: the ranking, how many tied, the round-robin counter.

``findNodesThatFit``, ``podFitsOnNode`` and ``PrioritizeNodes`` are functions of the module: the
simulation's :class:`~kschedlearn.observe.observation.Observation` hooks them through
:func:`observe_module_functions` (other simulations, and code run outside one, call straight
through); ``Schedule`` and ``selectHost`` are methods, probed on one scheduler instance by
:func:`observe_algorithm`. The accelerated engine, which computes the same results another way,
emits the same events through the ``emit_*`` functions.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from kschedlearn.observe.points import callee, deferring_here, observed
from kschedlearn.observe.recorders import (
    NO_REASONS, Recorders, ScoreColumn, all_pass, cached, extender_scores, shared, shared_lists)
from kschedlearn.observe.wrap import Call, _MethodProbe, is_probe, mirror_function, on_method
from kschedlearn.scheduler.core import generic_scheduler as gs
from kschedlearn.sim.runtime import current_goroutine
from kschedlearn.trace import ObservedCall, emit, register_stage
from kschedlearn.trace.stages import SCHED

_GS = SCHED + "core/generic_scheduler.go"
register_stage("schedule.start", _GS + "#L86-L131",
               "Schedule lists the usable nodes and refreshes its snapshot of the cache (only NodeInfos whose generation changed are cloned).")
register_stage("schedule.predicate_node", _GS + "#L152-L221",
               "findNodesThatFit checks one node (its checkNode function): every predicate runs; the reasons of all failing predicates are kept.")
register_stage("schedule.predicates", _GS + "#L152-L221",
               "findNodesThatFit is done: the nodes that passed every predicate go on to be scored.")
register_stage("schedule.priorities", _GS + "#L239-L373",
               "PrioritizeNodes: each priority scores each node 0-10; scores are multiplied by their weights and summed.")
register_stage("selectHost", _GS + "#L133-L150",
               "selectHost sorts by score (ties by name, descending) and round-robins among the top-scoring nodes.")


def pod_key(pod: Any) -> str:
    """``namespace/name``, as the events name a pod."""
    return f"{pod.metadata.namespace}/{pod.metadata.name}"


def node_names(nodes: list[Any]) -> list[str]:
    """The nodes' names, in order."""
    return [n.metadata.name for n in nodes]


# -- the events (one function each; the accelerated engine calls them too) ------------------

def _lists() -> dict[Any, list[Any]] | None:
    g = current_goroutine()
    tracer = g.runtime.tracer if g is not None else None
    return shared_lists(tracer) if tracer is not None else None


def emit_schedule_start(pod: Any, nodes: list[Any], observed: ObservedCall | None = None,
                        names: list[str] | None = None) -> None:
    """``schedule.start``: the predicates are about to run for ``pod`` on ``nodes`` (``names``:
    their names, when the caller has them: a list it replaces, never changes). Its data is built
    when the event is first read while nobody watches events as they come (``Tracer.record_later``)."""
    found = deferring_here("schedule.start")
    if found is None:
        return
    g, tracer, deferring = found
    lists = shared_lists(tracer)
    if names is None:
        names, given = node_names(nodes), False
    else:
        given = True
    observed = observed or _BEFORE_FIND_NODES_THAT_FIT
    if not deferring:
        emit("schedule.start", "Computing predicates", data=_schedule_start_data(lists, pod, names, given),
             observed=observed)
        return
    tracer.record_later(g.runtime, g, "schedule.start", "Computing predicates", _schedule_start_data,
                        (lists, pod, names, given), observed)


def _schedule_start_data(lists: dict[Any, Any], pod: Any, names: list[str], given: bool) -> dict[str, Any]:
    """The data of ``schedule.start`` (``given``: ``names`` is the caller's own list, kept as it is)."""
    return {"pod": pod_key(pod), "nodes": _shared_names(lists, names) if given else shared(lists, "nodes", names, str)}


def _predicate_node_event(key: str, node_name: str, fits: bool,
                          verdicts: dict[str, list[str]]) -> tuple[str, dict[str, Any]]:
    """The message and data of a ``schedule.predicate_node`` event, for both engines."""
    message = f"{node_name}: {'fits' if fits else 'does not fit'}"
    return message, {"pod": key, "node": node_name, "fits": fits, "predicates": verdicts}


def _reasons_memo(tracer: Any = None) -> dict[str, tuple[tuple[Any, ...], list[str]]] | None:
    """The tracer's memo of reason strings (``tracer``: the running goroutine's, when not given)."""
    if tracer is None:
        g = current_goroutine()
        tracer = g.runtime.tracer if g is not None else None
    if tracer is None:
        return None
    memo = tracer.memo.get(_reasons_memo)
    if memo is None or len(memo) > 8192:
        memo = tracer.memo[_reasons_memo] = {}
    return memo  # type: ignore[no-any-return]


def _reason_strings(lists: dict[Any, list[Any]] | None, memo: dict[str, tuple[tuple[Any, ...], list[str]]] | None,
                    name: str, reasons: list[Any]) -> list[str]:
    """Node ``name``'s failure reasons as strings (shared with an earlier event when equal);
    with a ``memo``, the strings of the very same reason objects are not asked for again."""
    if memo is not None:
        known = memo.get(name)
        if known is not None and len(known[0]) == len(reasons) and all(map(operator.is_, known[0], reasons)):
            return known[1]
    strings = shared(lists, ("failed", name), [r.get_reason() for r in reasons], str)
    if memo is not None:
        memo[name] = (tuple(reasons), strings)
    return strings


def _shared_names(lists: dict[Any, Any] | None, names: list[str]) -> list[str]:
    """``shared(lists, "nodes", list(names), str)``, remembered for the very same ``names`` list
    (one the caller replaces, never changes: the accelerated engine's node names): the same
    list for the next pod without comparing a hundred names again."""
    if lists is None:
        return list(names)
    known = lists.get(_shared_names)
    if known is not None and known[0] is names:
        return known[1]  # type: ignore[no-any-return]
    value = shared(lists, "nodes", list(names), str)
    lists[_shared_names] = (names, value)
    return value


def emit_predicate_node(pod: Any, node_name: str, fits: bool, verdicts: dict[str, list[str]],
                        observed: ObservedCall | None = None) -> None:
    """``schedule.predicate_node``: one node's verdict and each predicate's reasons (the traced
    ``pod_fits_on_node`` records the same event directly: it runs once per node per pod)."""
    message, data = _predicate_node_event(pod_key(pod), node_name, fits, verdicts)
    emit("schedule.predicate_node", message, data=data, observed=observed)


def emit_predicate_nodes(pod: Any, names: list[str], outcomes: Sequence[tuple[bool, Any, dict[str, list[str]]]],
                         observed: ObservedCall | None = None) -> None:
    """``schedule.predicate_node`` for each node of ``names``, in order, from its outcome
    ``(fits, failed reasons, verdicts)``: what :func:`emit_predicate_node` records for each, from
    one call (the accelerated engine has every node's verdict at once). While nobody watches
    events as they are recorded (no breakpoint, listener or snapshot) they are recorded as one
    deferred group, built when the trace is first read (``Tracer.record_group``); neither list
    may be changed afterwards."""
    found = deferring_here("schedule.predicate_node")
    if found is None or not names:
        return
    g, tracer, deferring = found
    if not deferring:
        for node_name, (fits, _, verdicts) in zip(names, outcomes):
            emit_predicate_node(pod, node_name, fits, verdicts, observed)
        return
    tracer.record_group(g.runtime, g, "schedule.predicate_node", len(names), _predicate_node_rows,
                        (pod, names, outcomes), observed)


def _predicate_node_rows(pod: Any, names: list[str],
                         outcomes: Sequence[tuple[bool, Any, dict[str, list[str]]]]) -> list[tuple[str, dict[str, Any]]]:
    """The message and data of each deferred ``schedule.predicate_node`` event (``pod``: a
    frozen API object, named when read)."""
    key = pod_key(pod)
    return [_predicate_node_event(key, node_name, fits, verdicts)
            for node_name, (fits, _, verdicts) in zip(names, outcomes)]


def emit_predicates_done(pod: Any, filtered: list[Any], failed_predicate_map: dict[str, list[Any]],
                         observed: ObservedCall | None = None, names: list[str] | None = None,
                         cached_reasons: bool = False, checked: list[str] | None = None) -> None:
    """``schedule.predicates``: the nodes that fit go on to be scored; the failed ones' reasons
    (``names``: the filtered nodes' names, when the caller has them; ``checked``: else, when it
    has them, the names of every node checked — the filtered ones are those not failed;
    ``cached_reasons``: the failure reasons are objects the caller keeps from pod to pod — the
    accelerated engine's cached verdicts, whose reason strings it also keeps — so a node's strings
    are asked for again only when its reasons are other objects). Its data is built when the event
    is first read while nobody watches events as they come (``Tracer.record_later``); the lists
    and the map handed in are not changed afterwards (the engine's and findNodesThatFit's own)."""
    found = deferring_here("schedule.predicates")
    if found is None:
        return
    g, tracer, deferring = found
    lists = shared_lists(tracer)
    memo = _reasons_memo(tracer) if cached_reasons else None
    observed = observed or _AFTER_FIND_NODES_THAT_FIT
    if names is not None:
        how = "given"
    elif checked is not None:
        names, how = checked, "checked"
    else:
        names, how = node_names(filtered), "fresh"
    args = (lists, memo, pod, names, how, failed_predicate_map)
    if not deferring:
        emit("schedule.predicates", "Prioritizing", data=_predicates_done_data(*args), observed=observed)
        return
    tracer.record_later(g.runtime, g, "schedule.predicates", "Prioritizing", _predicates_done_data, args, observed)


def _predicates_done_data(lists: dict[Any, Any], memo: dict[str, tuple[tuple[Any, ...], list[str]]] | None,
                          pod: Any, names: list[str], how: str,
                          failed_predicate_map: dict[str, list[Any]]) -> dict[str, Any]:
    """The data of ``schedule.predicates`` (``how`` ``names`` name the filtered nodes: "given",
    the caller's own list; "checked", every node checked, the failed ones among them; "fresh",
    a list of their names made for this event)."""
    failed = {name: _reason_strings(lists, memo, name, reasons) for name, reasons in failed_predicate_map.items()}
    if how == "given":
        filtered_names = _shared_names(lists, names)
    elif how == "checked":
        filtered_names = shared(lists, "nodes", [name for name in names if name not in failed], str)
    else:
        filtered_names = shared(lists, "nodes", names, str)
    return {"pod": pod_key(pod), "filtered": filtered_names, "failed": failed}


def emit_priorities(pod: Any, nodes: list[Any], score_columns: list[list[int]], configs: list[Any],
                    extender_scores: dict[str, int], result: list[Any],
                    observed: ObservedCall | None = None) -> None:
    """``schedule.priorities``: the score table (one column per priority), weights and totals."""
    lists = _lists()
    columns = [shared(lists, ("scores", i), column, int) for i, column in enumerate(score_columns)]
    data = {
        "pod": pod_key(pod),
        "nodes": shared(lists, "nodes", node_names(nodes), str),
        "scores": _shared_table(lists, columns, score_columns),
        "weights": shared(lists, "weights", [c.weight for c in configs], int),
        "names": shared(lists, "names", [getattr(c, "name", "") for c in configs], str),
        "extenders": extender_scores,
        "totals": {hp.host: hp.score for hp in result},
    }
    emit("schedule.priorities", f"scored {len(nodes)} node(s)", data=data, observed=observed)


def _shared_table(lists: dict[Any, list[Any]] | None, columns: list[list[int]],
                  score_columns: list[list[int]]) -> list[list[int]]:
    """The score table of shared columns: the last pod's table when it holds the very same ones."""
    last = lists.get("scores") if lists is not None else None
    if last is not None and len(last) == len(columns) and all(a is b for a, b in zip(last, columns)):
        return last
    if lists is not None and type(score_columns) is list:
        lists["scores"] = columns
        return columns
    return score_columns


def emit_select_host(pod: Any, priority_list: list[Any], last_node_index: int, host: str,
                     observed: ObservedCall | None = None) -> None:
    """``selectHost``: the ranking (score, then name, descending), the ties, the counter, the pick.

    The ranking is built when the event is first read (:func:`emit_later`) from a copy of the
    list (its HostPriority values are frozen)."""
    emit_later("selectHost", f"selected {host}", observed, _select_host_data,
               pod_key(pod) if pod is not None else "", tuple(priority_list), last_node_index, host)


def _select_host_data(key: str, priority_list: tuple[Any, ...], last_node_index: int, host: str) -> dict[str, Any]:
    ranked = sorted(priority_list, key=lambda hp: (hp.score, hp.host), reverse=True)
    ties = next((i for i, hp in enumerate(ranked) if hp.score < ranked[0].score), len(ranked))
    return {
        "pod": key,
        "ranked": [(hp.host, hp.score) for hp in ranked],
        "ties": ties,
        "last_node_index": last_node_index,
        "host": host,
    }


def emit_later(stage: str, message: str, observed: ObservedCall | None,
               build_data: Callable[..., dict[str, Any]], *args: Any) -> None:
    """``emit(stage, message, data=build_data(*args), observed=observed)`` — with the data built
    when the event is first read while nobody watches events as they are recorded (no
    breakpoint, listener or snapshot: ``Tracer.record_later``). ``build_data(*args)``
    must give the same answer whenever it is called: ``args`` are what does not change later
    (copies of what does)."""
    found = deferring_here(stage)
    if found is None:
        return
    g, tracer, deferring = found
    if not deferring:
        emit(stage, message, data=build_data(*args), observed=observed)
        return
    tracer.record_later(g.runtime, g, stage, message, build_data, args, observed)


_BEFORE_FIND_NODES_THAT_FIT = callee(gs.find_nodes_that_fit, "calling")
_AFTER_FIND_NODES_THAT_FIT = callee(gs.find_nodes_that_fit, "returned")


# -- recording what one call computed ------------------------------------------------------

def _recording_predicate(name: str, predicate: Callable[..., Any], recorders: Recorders) -> Callable[..., Any]:
    """``predicate``, also writing its own reasons into the current call's verdicts."""

    def record(pod: Any, meta: Any, info: Any) -> Any:
        result = predicate(pod, meta, info)
        fit, reasons = result
        if fit:
            recorders.sink[name] = NO_REASONS
        else:
            recorders.failures += 1
            recorders.sink[name] = [r.get_reason() for r in reasons]
        return result

    return record


def _recording_predicates(recorders: Recorders) -> dict[str, Any]:
    return {name: _recording_predicate(name, fn, recorders) for name, fn in recorders.source.items()}


def _recording_config(config: Any, i: int, recorders: Recorders) -> Any:
    """A copy of ``config`` whose functions also fill column ``i`` of the current call.

    Map results are kept through the reduce step, not by a twin per map call per node:
    PrioritizeNodes hands the list of them to the reduce — the priority's own, or one that
    only keeps it (no error, no event) for a priority without one.
    """
    changes: dict[str, Any] = {}
    if config.function is not None:
        function = config.function

        def recording_function(pod: Any, node_name_to_info: Any, nodes: Any) -> Any:
            column = recorders.sink[i]
            column.final = list(function(pod, node_name_to_info, nodes))
            return column.final

        changes["function"] = recording_function
    if config.reduce is not None:
        reduce = config.reduce

        def recording_reduce(pod: Any, meta: Any, node_name_to_info: Any, result: list[Any]) -> Any:
            recorders.sink[i].final = result
            return reduce(pod, meta, node_name_to_info, result)

        changes["reduce"] = recording_reduce
    elif config.map_fn is not None:

        def keeping_map_results(pod: Any, meta: Any, node_name_to_info: Any, result: list[Any]) -> None:
            recorders.sink[i].final = result

        changes["reduce"] = keeping_map_results
    return attrs.evolve(config, **changes)


def _recording_configs(recorders: Recorders) -> list[Any]:
    return [_recording_config(c, i, recorders) for i, c in enumerate(recorders.source)]


@attrs.define(eq=False)
class _RecordingExtender:
    """An extender whose ``prioritize`` answers are kept (PrioritizeNodes calls nothing else)."""

    extender: Any
    answers: list[tuple[list[Any], int]]

    def prioritize(self, pod: Any, nodes: Any) -> tuple[list[Any], int]:
        prioritized_list, weight = self.extender.prioritize(pod, nodes)
        self.answers.append((prioritized_list, weight))
        return prioritized_list, weight


# -- wrappers of the module's functions ----------------------------------------------------

def _around_find_nodes_that_fit(proceed: Callable[..., Any], call: Call) -> Any:
    pod, nodes = call.args[0], call.args[2]
    emit_schedule_start(pod, nodes)
    filtered, failed_predicate_map = proceed(*call.args, **call.kwargs)
    if filtered:  # an empty list ends Schedule with a FitError before trace.Step("Prioritizing")
        emit_predicates_done(pod, filtered, failed_predicate_map)
    return filtered, failed_predicate_map


_AFTER_POD_FITS_ON_NODE = callee(gs.pod_fits_on_node, "returned")


def _around_pod_fits_on_node(proceed: Callable[..., Any], call: Call) -> Any:
    """Runs once per node per pod: the predicates are handed recording twins for the call, and
    the event is recorded directly (the goroutine and tracer are known here)."""
    pod, meta, info, predicate_funcs = call.args
    g = current_goroutine()
    tracer = g.runtime.tracer if g is not None else None
    if tracer is None or (tracer.keep is not None and "schedule.predicate_node" not in tracer.keep):
        return proceed(pod, meta, info, predicate_funcs)  # (a thinned trace keeps no per-node event)
    recorders = tracer.memo.get(("predicates", g))
    if recorders is None or recorders.source != predicate_funcs:
        recorders = cached("predicates", g, predicate_funcs, dict, _recording_predicates)
    outer, recorders.sink = recorders.sink, {}
    verdicts: dict[str, list[str]] = recorders.sink
    failures_before = recorders.failures
    try:
        fits, failed_predicates = proceed(pod, meta, info, recorders.fns)
    finally:
        recorders.sink = outer
    rt = g.runtime
    tracer = rt.tracer  # (as emit would: the tracer attached now, if any)
    if tracer is not None:
        if pod is not recorders.pod:  # (API objects are frozen: the same pod, the same key)
            recorders.pod, recorders.pod_key = pod, pod_key(pod)
        node = info.node() if info is not None else None
        node_name = node.metadata.name if node is not None else ""
        if recorders.failures == failures_before:
            verdicts = all_pass(recorders, verdicts)
        message, data = _predicate_node_event(recorders.pod_key, node_name, fits, verdicts)
        event = tracer.record(rt, g, "schedule.predicate_node", message, None, data, _AFTER_POD_FITS_ON_NODE)
        if tracer.breakpoint is not None and tracer.breakpoint(event):
            rt.pause(event)
    return fits, failed_predicates


def _around_prioritize_nodes(proceed: Callable[..., Any], call: Call) -> Any:
    pod, node_name_to_info, meta, priority_configs, nodes, extenders = call.args
    g = current_goroutine()
    if g is None or g.runtime.tracer is None or (len(priority_configs) == 0 and len(extenders) == 0):
        # (the EqualPriorityMap path has no trace point)
        return proceed(*call.args)
    recorders = cached("priorities", g, list(priority_configs), list, _recording_configs)
    columns = [ScoreColumn() for _ in priority_configs]
    answers: list[tuple[list[Any], int]] = []
    recording_extenders = [_RecordingExtender(e, answers) for e in extenders]
    outer, recorders.sink = recorders.sink, columns
    try:
        result = proceed(pod, node_name_to_info, meta, list(recorders.fns), nodes, recording_extenders)
    finally:
        recorders.sink = outer
    combined = extender_scores(answers) if extenders and nodes else {}
    emit_priorities(pod, nodes, [column.scores() for column in columns], priority_configs,
                    combined, result, observed(gs.prioritize_nodes, "returned"))
    return result


def observe_module_functions(observation: Any) -> None:
    """Hook ``findNodesThatFit``, ``podFitsOnNode`` and ``PrioritizeNodes`` for one simulation:
    at ``Schedule``'s and ``checkNode``'s calls (and the accelerated engine's fall-backs). Once
    per simulation, however many replicas it runs."""
    if not observation.first_time(observe_module_functions):
        return
    observation.on_attribute(gs, "find_nodes_that_fit", around=_around_find_nodes_that_fit)
    observation.on_attribute(gs, "pod_fits_on_node", around=_around_pod_fits_on_node)
    observation.on_attribute(gs, "prioritize_nodes", around=_around_prioritize_nodes)


# -- one scheduler's methods ---------------------------------------------------------------

@attrs.define(eq=False)
class _Attempt:
    """The pod the scheduler is working on (selectHost itself is not told)."""

    pod: Any = None


@attrs.define(eq=False)
class _AnnounceSelectHost:
    """The ``after`` hook of ``selectHost``: its return is announced (``selectHost``), for the pod
    ``Schedule`` remembered. A class, so that :func:`select_host` knows it among hooks."""

    attempt: _Attempt
    observed: ObservedCall

    def __call__(self, call: Call) -> None:
        emit_select_host(self.attempt.pod, call.args[0], call.receiver.last_node_index - 1, call.result,
                         self.observed)


def observe_algorithm(algorithm: Any) -> Any:
    """Attach ``selectHost`` to one ``GenericScheduler`` (or accelerated) instance: ``Schedule``
    remembers the pod, ``selectHost``'s return is announced."""
    attempt = _Attempt()

    def remember(call: Call) -> None:
        attempt.pod = call.args[0]

    on_method(algorithm, "schedule", before=remember)
    on_method(algorithm, "_select_host", after=_AnnounceSelectHost(attempt, _AFTER_SELECT_HOST))
    return algorithm


_AFTER_SELECT_HOST = callee(gs.GenericScheduler._select_host, "returned")


# -- the accelerated engine's selectHost from its totals -------------------------------------

@attrs.define(eq=False)
class Totals:
    """What the accelerated engine hands :func:`select_host` instead of the HostPriority list:
    the nodes' names (a list the engine replaces, never changes) and their totals (a tuple)."""

    names: list[str]
    totals: tuple[int, ...]


#: scheduler class -> (its ``_select_host`` attribute, the function behind it if a probe, whether
#: that is the mirror's own): looked up again only when either is another object
_MIRROR_SELECT_HOST: dict[type, tuple[Any, Any, bool]] = {}


def mirror_select_host(cls: type) -> bool:
    """Whether ``cls``'s selectHost is the mirror's own (not an exercise's plug-in): asked for every
    traced pod, by :func:`select_host` and by the accelerated engine's thinned trace."""
    fn = cls._select_host  # type: ignore[attr-defined]
    behind = fn.original if is_probe(fn) else fn
    known = _MIRROR_SELECT_HOST.get(cls)
    if known is None or known[0] is not fn or known[1] is not behind:
        known = _MIRROR_SELECT_HOST[cls] = (fn, behind, mirror_function(
            cls, "_select_host", gs.__name__, "GenericScheduler._select_host"))
    return known[2]


def select_host(scheduler: Any, priority_list: list[Any] | Totals,
                pick: Callable[[Any, tuple[int, ...], list[str]], str]) -> str:
    """``scheduler._select_host(priority_list)``, as the accelerated engine calls it. Given
    :class:`Totals`, the host is ``pick(scheduler, totals, names)`` — the engine's selectHost, the
    mirror's choice without sorting every node — and the ``selectHost`` event is the one the probe
    of :func:`observe_algorithm` records after the mirror's call, from the same place (this
    module's frames are not in a stack: the engine's line calling this one ends it), its ranking
    built when read. The mirror's method runs instead (on the HostPriority list the engine's
    ``_report_priorities`` would have made) when it is not the mirror's own — an exercise's
    plug-in — or when the instance carries other hooks on it than that probe's."""
    if type(priority_list) is not Totals:
        return scheduler._select_host(priority_list)  # type: ignore[no-any-return]
    names, totals = priority_list.names, priority_list.totals
    probe = vars(scheduler).get("_select_host")
    announce = None
    if probe is not None:
        hooks = probe.hooks if type(probe) is _MethodProbe else None
        if (hooks is not None and not hooks.before and not hooks.around and len(hooks.after) == 1
                and hooks.after[0][0] is None and type(hooks.after[0][1]) is _AnnounceSelectHost):
            announce = hooks.after[0][1]
    if (probe is not None and announce is None) or not mirror_select_host(type(scheduler)):
        host_priority = scheduler.spread_counts.host_priority
        return scheduler._select_host([host_priority(n, t) for n, t in zip(names, totals)])  # type: ignore[no-any-return]
    host = pick(scheduler, totals, names)
    if announce is not None:
        emit_later("selectHost", f"selected {host}", announce.observed, _select_host_data_of_totals,
                   announce.attempt.pod, names, totals, scheduler.last_node_index - 1, host)
    return host


def _select_host_data_of_totals(pod: Any, names: list[str], totals: tuple[int, ...], last_node_index: int,
                                host: str) -> dict[str, Any]:
    """:func:`_select_host_data` of the HostPriority list of ``names`` and ``totals`` (``pod``:
    the pod ``Schedule`` was called for, a frozen API object, named when read)."""
    ranked = sorted(zip(totals, names), reverse=True)  # (names are unique: score, then host, descending)
    best = ranked[0][0]
    return {
        "pod": pod_key(pod) if pod is not None else "",
        "ranked": [(host_, score) for score, host_ in ranked],
        "ties": totals.count(best),
        "last_node_index": last_node_index,
        "host": host,
    }
