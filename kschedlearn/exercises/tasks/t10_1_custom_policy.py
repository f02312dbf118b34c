"""Task 10.1 (open-ended): a custom predicate and priority, registered and chosen by a policy file.

Go: plugin/pkg/scheduler/factory/plugins.go (RegisterFitPredicate, RegisterPriorityFunction2,
RegisterCustomFitPredicate, RegisterCustomPriorityFunction) and factory.go CreateFromConfig
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/factory/plugins.go
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import attrs

from kschedlearn.exercises import framework as fw
from kschedlearn.exercises.registry import Task
from kschedlearn.exercises.tasks._common import GO, compare, in_running_algorithms, node, pod, schedule_pods
from kschedlearn.scheduler.api.v1.types import load_policy
from kschedlearn.scheduler.factory import plugins

TASK_ID = "10.1"
NAME = "register_plugins"

POLICY = json.dumps({
    "kind": "Policy", "apiVersion": "v1",
    "predicates": [{"name": "DedicatedNodes"}],
    "priorities": [{"name": "FewestPods", "weight": 2}],
})


def _build(fn: Callable[..., Any]) -> tuple[dict[str, Any], list[Any]]:
    """What CreateFromConfig does with the policy, on a fresh registry filled by ``fn``."""
    registry = plugins.new_plugin_registry()
    fn(registry)
    policy = load_policy(POLICY)
    pred_names = [plugins.register_custom_fit_predicate(p, registry=registry) for p in policy.predicates]
    prio_names = [plugins.register_custom_priority_function(p, registry=registry) for p in policy.priorities]
    args = plugins.PluginFactoryArgs()
    preds = plugins._get_fit_predicate_functions(pred_names, args, registry=registry)
    prios = plugins._get_priority_function_configs(prio_names, args, registry=registry)
    return preds, prios


def _nodes() -> list[Any]:
    return [node("gpu-1", 4000, 8 << 30, labels={"dedicated": "ml"}), node("general-1", 4000, 8 << 30),
            node("general-2", 4000, 8 << 30)]


def _pending() -> list[Any]:
    return [pod("web-1"), pod("train-1", labels={"team": "ml"}), pod("web-2"), pod("web-3"),
            pod("train-2", labels={"team": "ml"})]


def _registered(fn: Callable[..., Any]) -> Any:
    registry = plugins.new_plugin_registry()
    fn(registry)
    return (plugins.is_fit_predicate_registered("DedicatedNodes", registry=registry),
            plugins.is_priority_function_registered("FewestPods", registry=registry))


def _predicate(fn: Callable[..., Any]) -> Any:
    from kschedlearn.scheduler.schedulercache.node_info import new_node_info  # noqa: PLC0415

    preds, _ = _build(fn)
    out = []
    for p in (pod("web"), pod("train", labels={"team": "ml"}), pod("other", labels={"team": "db"})):
        for n in _nodes()[:2]:
            info = new_node_info()
            info.set_node(n)
            out.append((p.metadata.name, n.metadata.name, preds["DedicatedNodes"](p, None, info)[0]))
    return out


def _priority(fn: Callable[..., Any]) -> Any:
    from kschedlearn.scheduler.schedulercache.node_info import new_node_info  # noqa: PLC0415

    _, prios = _build(fn)
    cfg = prios[0]
    out = [cfg.weight]
    for count in (0, 3, 12):
        info = new_node_info(*(pod(f"p{i}", node="general-1") for i in range(count)))
        info.set_node(_nodes()[1])
        out.append((count, cfg.map_fn(pod("new"), None, info).score))
    return out


def _scenario(fn: Callable[..., Any]) -> Any:
    preds, prios = _build(fn)
    rows: list[tuple[str, str]] = []
    schedule_pods(preds, prios, _nodes(), _pending(), rows)
    return [host for _, host in rows]


def _cases() -> list[fw.Case]:
    return [
        fw.Case("registered", "an empty registry passed to your register_plugins", (True, True), _registered,
                why="Call register_fit_predicate('DedicatedNodes', ..., registry=registry) and "
                    "register_priority_function2('FewestPods', ..., None, 1, registry=registry)."),
        fw.Case("DedicatedNodes predicate", "pods web, train (team=ml), other (team=db) on gpu-1 (dedicated=ml) and general-1",
                [("web", "gpu-1", False), ("web", "general-1", True), ("train", "gpu-1", True),
                 ("train", "general-1", True), ("other", "gpu-1", False), ("other", "general-1", True)],
                _predicate, why="A dedicated node takes only its team's pods; other nodes take everyone."),
        fw.Case("FewestPods priority via the policy", "the policy gives FewestPods weight 2; nodes with 0, 3, 12 pods",
                [2, (0, 10), (3, 7), (12, 0)], _priority,
                why="The policy's weight overrides the registered one; score = max(0, 10 - pods)."),
        fw.Case("scenario", "the policy file on gpu-1 (dedicated=ml), general-1, general-2; pods "
                "web-1, train-1, web-2, web-3, train-2 in order",
                ["general-2", "general-1", "general-2", "general-1", "gpu-1"], _scenario,
                why="web pods avoid gpu-1 and spread by FewestPods; among equal scores selectHost's "
                    "shared round-robin counter picks (train-1: gpu-1 and general-1 tie, counter 1 -> "
                    "general-1); train-2 finally finds gpu-1 emptiest."),
    ]


@contextmanager
def _patch(fn: Callable[..., Any]) -> Iterator[None]:
    """Register the learner's plugins in the default registry (restored on exit)."""
    registry = plugins.default_registry()
    old_preds, old_prios = dict(registry.fit_predicate_map), dict(registry.priority_function_map)
    try:
        fn(registry)
        yield
    finally:
        registry.fit_predicate_map.clear()
        registry.fit_predicate_map.update(old_preds)
        registry.priority_function_map.clear()
        registry.priority_function_map.update(old_prios)


def _added(registry: Any, fn: Callable[..., Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``fn(registry)``; the predicate and priority factories it added or replaced, by name."""
    preds, prios = dict(registry.fit_predicate_map), dict(registry.priority_function_map)
    fn(registry)
    return ({n: f for n, f in registry.fit_predicate_map.items() if preds.get(n) is not f},
            {n: f for n, f in registry.priority_function_map.items() if prios.get(n) is not f})


def _recorded_factories(registry: Any, added: tuple[dict[str, Any], dict[str, Any]], log: Any) -> None:
    """Replace the added factories by ones whose functions record each call in ``log``."""
    preds, prios = added
    for name, factory in preds.items():
        registry.fit_predicate_map[name] = lambda args, f=factory, n=name: log.wrap(f(args), label=n)
    for name, pcf in prios.items():
        registry.priority_function_map[name] = _recorded_priority(pcf, name, log)


def _recorded_priority(pcf: Any, name: str, log: Any) -> Any:
    def map_reduce(args: Any, f: Any = pcf.map_reduce_function) -> Any:
        map_fn, reduce_fn = f(args)
        return log.wrap(map_fn, label=name), (log.wrap(reduce_fn, label=f"{name} (reduce)") if reduce_fn else None)

    def function(args: Any, f: Any = pcf.function) -> Any:
        return log.wrap(f(args), label=name)

    return attrs.evolve(pcf, map_reduce_function=map_reduce if pcf.map_reduce_function else None,
                        function=function if pcf.function else None)


@contextmanager
def _recording(fn: Callable[..., Any], log: Any) -> Iterator[None]:
    """``_patch``, with every call of the predicates and priorities ``fn`` registers recorded."""
    def register(registry: Any) -> None:
        _recorded_factories(registry, _added(registry, fn), log)

    log.what = f"the plugins your {NAME}() registers"

    with _patch(register):
        yield


@contextmanager
def _live(fn: Callable[..., Any], log: Any, simulation: Any) -> Iterator[None]:
    """For a running simulation: the learner's plugins (recorded) in the registry and in place
    of the same names in every scheduler the simulation already configured."""
    log.what = f"the plugins your {NAME}() registers"
    fresh = plugins.new_plugin_registry()
    added = _added(fresh, fn)
    _recorded_factories(fresh, added, log)
    args = plugins.PluginFactoryArgs()
    preds = {n: fresh.fit_predicate_map[n](args) for n in added[0]}
    prios = {n: fresh.priority_function_map[n].map_reduce_function(args)[0] for n in added[1]
             if fresh.priority_function_map[n].map_reduce_function is not None}
    # the default registry, and the copy the simulation configures its schedulers from
    registries = [r for r in (plugins.default_registry(), getattr(simulation, "_registry", None)) if r is not None]
    saved = [(r, dict(r.fit_predicate_map), dict(r.priority_function_map)) for r in registries]
    for r in registries:
        r.fit_predicate_map.update({n: fresh.fit_predicate_map[n] for n in added[0]})
        r.priority_function_map.update({n: fresh.priority_function_map[n] for n in added[1]})
    try:
        with in_running_algorithms(simulation, preds, prios):
            yield
    finally:
        for r, old_preds, old_prios in saved:
            r.fit_predicate_map.clear()
            r.fit_predicate_map.update(old_preds)
            r.priority_function_map.clear()
            r.priority_function_map.update(old_prios)


def _experiment(fn: Callable[..., Any], rows: list[tuple[str, str]]) -> None:
    preds, prios = _build(fn)
    schedule_pods(preds, prios, _nodes(), _pending(), rows)


def _reference(registry: Any) -> None:
    from kschedlearn.exercises.solutions.nb10 import register_plugins  # noqa: PLC0415

    register_plugins(registry)


def _plug_in(fn: Callable[..., Any], simulation: Any = None) -> fw.PlugInReport:
    return compare(TASK_ID, "a scheduler configured by a policy file", fn, _reference, _experiment,
                   type(None), NAME, note="Policy: " + POLICY)


TASK = Task(
    id=TASK_ID, title="custom predicate and priority via a policy", slug="custom-policy", function_name=NAME,
    stub_imports=("from typing import Any\n"
                  "from kschedlearn.scheduler.algorithm.predicates.error import new_failure_reason\n"
                  "from kschedlearn.scheduler.api.types import HostPriority\n"
                  "from kschedlearn.scheduler.factory.plugins import PluginRegistry, register_fit_predicate, "
                  "register_priority_function2"),
    intro=("A policy file (`--policy-config-file`) names the predicates and priorities the scheduler "
           "runs. Any name must first be registered in the plugin registry - which is how you add your "
           "own algorithm.\n\nWrite `register_plugins(registry)`: define a predicate `DedicatedNodes` and "
           "a priority map `FewestPods` and register both. Policy used by the checks:\n\n```json\n"
           + POLICY + "\n```"),
    go_links=(("plugins.go RegisterFitPredicate", GO + "plugin/pkg/scheduler/factory/plugins.go#L97-L101"),
              ("plugins.go RegisterPriorityFunction2", GO + "plugin/pkg/scheduler/factory/plugins.go#L190-L204"),
              ("factory.go CreateFromConfig", GO + "plugin/pkg/scheduler/factory/factory.go#L309-L342")),
    hints=("You need two functions with the predicate and priority-map signatures, and two register "
           "calls. The policy only *chooses* registered names (and may override the weight).",
           "Go: `factory.RegisterFitPredicate(name, predicate)` and `factory.RegisterPriorityFunction2(name, "
           "mapFn, nil, weight)`; `CreateFromConfig` calls `RegisterCustomFitPredicate` / "
           "`RegisterCustomPriorityFunction` for each policy entry, which look the names up.",
           "Predicate: `team = node_info.node().metadata.labels.get('dedicated')`; fits if `team is None or "
           "pod.metadata.labels.get('team') == team`, else `False, [new_failure_reason(...)]`. Priority: "
           "`HostPriority(host=node.metadata.name, score=max(0, 10 - len(node_info.pods())))`. Then "
           "`register_fit_predicate('DedicatedNodes', pred, registry=registry)` and "
           "`register_priority_function2('FewestPods', prio, None, 1, registry=registry)`."),
    returns=type(None), cases=_cases, patch=_patch, plug_in=_plug_in, solution="nb10:register_plugins",
    recording=_recording, live=_live, baseline="reference",
)
