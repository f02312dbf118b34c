"""The algorithm registry: named predicates, priorities, providers and metadata producers.

Go: plugin/pkg/scheduler/factory/plugins.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/factory/plugins.go#L35-L430

The scheduler never holds predicate functions directly: it holds *names*. A name maps to a
factory that builds the function once the scheduler's listers exist (``PluginFactoryArgs``).
Providers (``DefaultProvider``, ``ClusterAutoscalerProvider``) are just two named key sets;
a policy file lists names too, and may register new ones built from an ``argument``.

Differs from Go:
- Go keeps the maps in package variables filled by ``init()`` functions at program start.
  Here they live in a :class:`PluginRegistry` object. The module functions act on a *default
  registry*, created on first use together with the registrations of
  ``algorithmprovider.defaults`` (what Go's blank import does), and thrown away by
  :func:`reset_registry` so a notebook can register its own predicate and start over. Every
  function also takes ``registry=`` to work on an isolated registry (tests, side-by-side runs).
- Go guards the maps with ``schedulerFactoryMutex``. Nothing here can block or yield (the
  runtime is cooperative and no registry function waits on anything), so a function always runs
  to completion before another goroutine can touch the registry: no lock is needed.
- ``glog.Fatalf`` raises ``kschedlearn.trace.glog.FatalError`` (ends a simulated process; in a
  notebook it is an exception carrying the 1.6 text).
- Lookup errors that Go returns are raised as :class:`PluginLookupError`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable, Iterable, Optional

import attrs

from kschedlearn.scheduler.algorithm.predicates import predicates
from kschedlearn.scheduler.algorithm.priorities.node_label import new_node_label_priority
from kschedlearn.scheduler.algorithm.priorities.selector_spreading import new_service_anti_affinity_priority
from kschedlearn.scheduler.algorithm.types import (
    FitPredicate,
    GetEquivalencePodFunc,
    MetadataProducer,
    PriorityConfig,
    PriorityFunction,
    PriorityMapFunction,
    PriorityReduceFunction,
    empty_metadata_producer,
)
from kschedlearn.trace import glog
from kschedlearn.trace.gofmt import sprintf

if TYPE_CHECKING:
    from kschedlearn.scheduler.api.types import PredicatePolicy, PriorityPolicy

_PLUGINS_GO = "https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/factory/plugins.go"

DEFAULT_PROVIDER = "DefaultProvider"
"""Go: factory.DefaultProvider — the provider used when no policy file and no flag say otherwise."""


class PluginLookupError(LookupError):
    """An unknown provider, predicate or priority name (Go: a ``fmt.Errorf`` error)."""


@attrs.frozen(kw_only=True)
class PluginFactoryArgs:
    """Everything a factory may need to build its function: listers, lookups, one weight.

    Go: type PluginFactoryArgs struct (plugins.go#L35-L47); filled by ConfigFactory.getPluginArgs
    (https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/factory/factory.go#L433-L447): ``pod_lister`` is the scheduler cache, ``node_lister`` the
    condition-filtered node lister, ``node_info`` an unfiltered lookup by node name.
    Differs from Go: fields default to None (Go's nil interfaces) so tests can fill only what
    they use; there is no ``failure_domains`` field because 1.6 has none (the
    ``--failure-domains`` flag has no effect in 1.6).
    """

    pod_lister: Any = None
    service_lister: Any = None
    controller_lister: Any = None
    replica_set_lister: Any = None
    stateful_set_lister: Any = None
    node_lister: Any = None
    node_info: Any = None
    pv_info: Any = None
    pvc_info: Any = None
    hard_pod_affinity_symmetric_weight: int = 0
    # kschedlearn-only: the precomputations of the registry this scheduler process owns (Go:
    # the package variable predicatePrecomputations); filled by _get_predicate_metadata_producer.
    predicate_precomputations: Optional[dict[str, Any]] = None


MetadataProducerFactory = Callable[[PluginFactoryArgs], MetadataProducer]
"""Go: factory.MetadataProducerFactory"""

FitPredicateFactory = Callable[[PluginFactoryArgs], FitPredicate]
"""Go: factory.FitPredicateFactory"""

PriorityFunctionFactory = Callable[[PluginFactoryArgs], PriorityFunction]
"""Go: factory.PriorityFunctionFactory (old-style, whole-list priority functions)"""

PriorityFunctionFactory2 = Callable[
    [PluginFactoryArgs], "tuple[PriorityMapFunction, Optional[PriorityReduceFunction]]"
]
"""Go: factory.PriorityFunctionFactory2 (map + optional reduce)"""


@attrs.frozen(kw_only=True)
class PriorityConfigFactory:
    """A registered priority: one of the two factory kinds, plus its weight.

    Go: type PriorityConfigFactory struct { Function; MapReduceFunction; Weight }
    """

    function: Optional[PriorityFunctionFactory] = None
    map_reduce_function: Optional[PriorityFunctionFactory2] = None
    weight: int = 0


@attrs.frozen(kw_only=True)
class AlgorithmProviderConfig:
    """A provider: the predicate names and priority names it switches on.

    Go: type AlgorithmProviderConfig struct { FitPredicateKeys, PriorityFunctionKeys sets.String }
    Differs from Go: ``sets.String`` becomes ``frozenset[str]``.
    """

    fit_predicate_keys: frozenset[str] = frozenset()
    priority_function_keys: frozenset[str] = frozenset()


@attrs.define(eq=False)
class PluginRegistry:
    """The registry's state: Go's package variables of plugins.go, in one resettable object.

    Go: the variables fitPredicateMap, priorityFunctionMap, algorithmProviderMap,
    priorityMetadataProducer, predicateMetadataProducer, getEquivalencePodFunc (plugins.go#L72-L86)
    Differs from Go: an object instead of globals (see the module docstring).
    """

    fit_predicate_map: dict[str, FitPredicateFactory] = attrs.field(factory=dict)
    priority_function_map: dict[str, PriorityConfigFactory] = attrs.field(factory=dict)
    algorithm_provider_map: dict[str, AlgorithmProviderConfig] = attrs.field(factory=dict)
    priority_metadata_producer: Optional[MetadataProducerFactory] = None
    predicate_metadata_producer: Optional[MetadataProducerFactory] = None
    get_equivalence_pod_func: Optional[GetEquivalencePodFunc] = None
    # Go: predicates.predicatePrecomputations (a package variable of the predicates package);
    # ServiceAffinity policies add to it when their predicate is built, so it belongs to the
    # registry a scheduler process owns, like the maps above.
    predicate_precomputations: dict[str, Any] = attrs.field(factory=dict)


# --- the default registry (explicit and resettable; Go: package state + init()) ----------

_default_registry: Optional[PluginRegistry] = None


def new_plugin_registry() -> PluginRegistry:
    """An empty registry (nothing registered; call ``register_defaults(registry=...)`` to fill it).

    Not in Go (Go has exactly one registry, the package variables).

    kschedlearn-only.
    """
    return PluginRegistry()


def default_registry() -> PluginRegistry:
    """The registry the module functions use when no ``registry=`` is given.

    Created on first use and filled by ``algorithmprovider.defaults.register_defaults`` — the
    Python counterpart of Go running ``defaults.init()`` at program start because
    ``algorithmprovider/plugins.go`` imports the package for its side effect.
    Not in Go as a function.

    kschedlearn-only (Go's registry is the package-level maps in plugins.go).
    """
    global _default_registry
    if _default_registry is None:
        registry = PluginRegistry()
        _default_registry = registry
        # Imported here, not at the top: defaults.py imports this module.
        from kschedlearn.scheduler.algorithmprovider.defaults.defaults import register_defaults

        register_defaults(registry=registry)
    return _default_registry


def copy_registry(registry: Optional[PluginRegistry] = None) -> PluginRegistry:
    """A new registry holding the same registrations as ``registry`` (default: the default one).

    kschedlearn-only: each simulated cluster schedules with its own copy, taken when it is
    built, so that what a notebook registers later (or a policy file re-registering a priority
    with a new weight — a 1.6 behaviour) cannot change a recorded run or its replays.
    """
    src = _resolve(registry)
    return PluginRegistry(
        fit_predicate_map=dict(src.fit_predicate_map),
        priority_function_map=dict(src.priority_function_map),
        algorithm_provider_map=dict(src.algorithm_provider_map),
        priority_metadata_producer=src.priority_metadata_producer,
        predicate_metadata_producer=src.predicate_metadata_producer,
        get_equivalence_pod_func=src.get_equivalence_pod_func,
        predicate_precomputations=dict(src.predicate_precomputations),
    )


def reset_registry(*, with_defaults: bool = True) -> PluginRegistry:
    """Forget every registration and start over; returns the new default registry.

    With ``with_defaults`` (the default) the new registry holds what 1.6 registers at start-up;
    without, it is empty. The predicate precomputations registered by ServiceAffinity policies
    are part of the registry, so they go with it; the fallback table in ``algorithm.predicates``
    (used only without a registry) is cleared too.
    Not in Go (a Go process can only restart).

    kschedlearn-only: the explicit, resettable registry DESIGN allows.
    """
    global _default_registry
    predicates.reset_predicate_precomputations()
    _default_registry = None
    if not with_defaults:
        _default_registry = PluginRegistry()
    return default_registry()


def _resolve(registry: Optional[PluginRegistry]) -> PluginRegistry:
    return registry if registry is not None else default_registry()


# --- predicates -------------------------------------------------------------------------


def register_fit_predicate(name: str, predicate: FitPredicate, *, registry: Optional[PluginRegistry] = None) -> str:
    """Register a predicate that needs no listers; returns ``name``.

    Go: func RegisterFitPredicate(name string, predicate algorithm.FitPredicate) string
    (wraps it in a factory that ignores its arguments)
    """
    return register_fit_predicate_factory(name, lambda args: predicate, registry=registry)


def register_fit_predicate_factory(
    name: str, predicate_factory: FitPredicateFactory, *, registry: Optional[PluginRegistry] = None
) -> str:
    """Register (or replace) the factory behind a predicate name; returns ``name``.

    Go: func RegisterFitPredicateFactory(name string, predicateFactory FitPredicateFactory) string
    """
    reg = _resolve(registry)
    _validate_algorithm_name_or_die(name)
    reg.fit_predicate_map[name] = predicate_factory
    return name


def register_custom_fit_predicate(policy: "PredicatePolicy", *, registry: Optional[PluginRegistry] = None) -> str:
    """Turn one ``predicates[]`` entry of a policy into a registered name; returns the name.

    With an argument a new predicate is built (ServiceAffinity, which also registers its
    metadata precomputation under the policy name when the factory runs, or LabelsPresence) and
    registered under the policy's name — replacing any predicate of that name. Without an
    argument the name must already be registered (reused as is). Otherwise: fatal.

    Go: func RegisterCustomFitPredicate(policy schedulerapi.PredicatePolicy) string
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/factory/plugins.go#L113-L155
    """
    reg = _resolve(registry)
    predicate_factory: Optional[FitPredicateFactory] = None

    _validate_predicate_or_die(policy)

    if policy.argument is not None:
        if policy.argument.service_affinity is not None:
            service_affinity = policy.argument.service_affinity

            def predicate_factory(args: PluginFactoryArgs) -> FitPredicate:
                predicate, precomputation_function = predicates.new_service_affinity_predicate(
                    args.pod_lister, args.service_lister, args.node_info, list(service_affinity.labels)
                )
                # Building the predicate also installs its precomputation (process-wide in Go:
                # here the registry of this scheduler process).
                predicates.register_predicate_precomputation(
                    policy.name, precomputation_function, into=reg.predicate_precomputations)
                return predicate

        elif policy.argument.labels_presence is not None:
            labels_presence = policy.argument.labels_presence

            def predicate_factory(args: PluginFactoryArgs) -> FitPredicate:
                return predicates.new_node_label_predicate(list(labels_presence.labels), labels_presence.presence)

    elif policy.name in reg.fit_predicate_map:
        glog.v(2).infof("Predicate type %s already registered, reusing.", policy.name)
        return policy.name

    if predicate_factory is None:
        glog.fatalf("Invalid configuration: Predicate type not found for %s", policy.name)

    return register_fit_predicate_factory(policy.name, predicate_factory, registry=reg)


def is_fit_predicate_registered(name: str, *, registry: Optional[PluginRegistry] = None) -> bool:
    """Go: func IsFitPredicateRegistered(name string) bool"""
    return name in _resolve(registry).fit_predicate_map


# --- metadata producers -----------------------------------------------------------------


def register_priority_metadata_producer_factory(
    factory: MetadataProducerFactory, *, registry: Optional[PluginRegistry] = None
) -> None:
    """Go: func RegisterPriorityMetadataProducerFactory(factory MetadataProducerFactory)"""
    _resolve(registry).priority_metadata_producer = factory


def register_predicate_metadata_producer_factory(
    factory: MetadataProducerFactory, *, registry: Optional[PluginRegistry] = None
) -> None:
    """Go: func RegisterPredicateMetadataProducerFactory(factory MetadataProducerFactory)"""
    _resolve(registry).predicate_metadata_producer = factory


# --- priorities -------------------------------------------------------------------------


def register_priority_function(
    name: str, function: PriorityFunction, weight: int, *, registry: Optional[PluginRegistry] = None
) -> str:
    """Register an old-style (whole node list) priority function; deprecated already in 1.6.

    Go: func RegisterPriorityFunction(name string, function algorithm.PriorityFunction, weight int) string
    """
    return register_priority_config_factory(
        name, PriorityConfigFactory(function=lambda args: function, weight=weight), registry=registry
    )


def register_priority_function2(
    name: str,
    map_fn: PriorityMapFunction,
    reduce_fn: Optional[PriorityReduceFunction],
    weight: int,
    *,
    registry: Optional[PluginRegistry] = None,
) -> str:
    """Register a map (+ optional reduce) priority that needs no listers; returns ``name``.

    Go: func RegisterPriorityFunction2(name, mapFunction, reduceFunction, weight) string
    """
    return register_priority_config_factory(
        name,
        PriorityConfigFactory(map_reduce_function=lambda args: (map_fn, reduce_fn), weight=weight),
        registry=registry,
    )


def register_priority_config_factory(
    name: str, pcf: PriorityConfigFactory, *, registry: Optional[PluginRegistry] = None
) -> str:
    """Register (or replace) the factory and weight behind a priority name; returns ``name``.

    Go: func RegisterPriorityConfigFactory(name string, pcf PriorityConfigFactory) string
    """
    reg = _resolve(registry)
    _validate_algorithm_name_or_die(name)
    reg.priority_function_map[name] = pcf
    return name


def register_custom_priority_function(policy: "PriorityPolicy", *, registry: Optional[PluginRegistry] = None) -> str:
    """Turn one ``priorities[]`` entry of a policy into a registered name; returns the name.

    With an argument a ServiceAntiAffinity (old-style) or NodeLabel (map) priority is built
    with the policy's weight. Without one, the registered priority of that name is re-registered
    with the *policy's* weight. Otherwise: fatal.
    1.6 quirk worth seeing: the re-registration replaces the process-wide entry, so after
    loading a policy the changed weight also applies to any provider using that name.

    Go: func RegisterCustomPriorityFunction(policy schedulerapi.PriorityPolicy) string
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/factory/plugins.go#L214-L260
    """
    reg = _resolve(registry)
    pcf: Optional[PriorityConfigFactory] = None

    _validate_priority_or_die(policy)

    if policy.argument is not None:
        if policy.argument.service_anti_affinity is not None:
            label = policy.argument.service_anti_affinity.label
            pcf = PriorityConfigFactory(
                function=lambda args: new_service_anti_affinity_priority(args.pod_lister, args.service_lister, label),
                weight=policy.weight,
            )
        elif policy.argument.label_preference is not None:
            preference = policy.argument.label_preference
            pcf = PriorityConfigFactory(
                map_reduce_function=lambda args: new_node_label_priority(preference.label, preference.presence),
                weight=policy.weight,
            )
    elif policy.name in reg.priority_function_map:
        existing_pcf = reg.priority_function_map[policy.name]
        glog.v(2).infof("Priority type %s already registered, reusing.", policy.name)
        pcf = PriorityConfigFactory(
            function=existing_pcf.function,
            map_reduce_function=existing_pcf.map_reduce_function,
            weight=policy.weight,
        )

    if pcf is None:
        glog.fatalf("Invalid configuration: Priority type not found for %s", policy.name)

    return register_priority_config_factory(policy.name, pcf, registry=reg)


def register_get_equivalence_pod_function(
    equivalence_func: GetEquivalencePodFunc, *, registry: Optional[PluginRegistry] = None
) -> None:
    """Go: func RegisterGetEquivalencePodFunction(equivalenceFunc algorithm.GetEquivalencePodFunc)
    (registered by the defaults, but nothing in 1.6 scheduling uses it)
    """
    _resolve(registry).get_equivalence_pod_func = equivalence_func


def is_priority_function_registered(name: str, *, registry: Optional[PluginRegistry] = None) -> bool:
    """Go: func IsPriorityFunctionRegistered(name string) bool"""
    return name in _resolve(registry).priority_function_map


# --- providers --------------------------------------------------------------------------


def register_algorithm_provider(
    name: str, predicate_keys: Iterable[str], priority_keys: Iterable[str], *, registry: Optional[PluginRegistry] = None
) -> str:
    """Register (or replace) a provider: a named pair of key sets; returns ``name``.

    Go: func RegisterAlgorithmProvider(name string, predicateKeys, priorityKeys sets.String) string
    """
    reg = _resolve(registry)
    _validate_algorithm_name_or_die(name)
    reg.algorithm_provider_map[name] = AlgorithmProviderConfig(
        fit_predicate_keys=frozenset(predicate_keys), priority_function_keys=frozenset(priority_keys)
    )
    return name


def get_algorithm_provider(name: str, *, registry: Optional[PluginRegistry] = None) -> AlgorithmProviderConfig:
    """The provider registered as ``name``; raises ``plugin "<name>" has not been registered``.

    Go: func GetAlgorithmProvider(name string) (*AlgorithmProviderConfig, error)
    """
    provider = _resolve(registry).algorithm_provider_map.get(name)
    if provider is None:
        raise PluginLookupError(sprintf("plugin %q has not been registered", name))
    return provider


# --- building the functions (called by ConfigFactory.CreateFromKeys) -----------------------


def _get_fit_predicate_functions(
    names: Iterable[str], args: PluginFactoryArgs, *, registry: Optional[PluginRegistry] = None
) -> dict[str, FitPredicate]:
    """Build each named predicate from its factory; an unknown name is an error.

    Go: func getFitPredicateFunctions(names sets.String, args PluginFactoryArgs) (map[string]algorithm.FitPredicate, error)
    Differs from Go: the result is a dict filled in sorted name order.
    """
    reg = _resolve(registry)
    fit_predicates: dict[str, FitPredicate] = {}
    for name in sorted(set(names)):
        factory = reg.fit_predicate_map.get(name)
        if factory is None:
            raise PluginLookupError(
                sprintf("Invalid predicate name %q specified - no corresponding function found", name)
            )
        fit_predicates[name] = factory(args)
    return fit_predicates


def _get_priority_metadata_producer(
    args: PluginFactoryArgs, *, registry: Optional[PluginRegistry] = None
) -> MetadataProducer:
    """The registered priority metadata producer, or one that produces None.

    Go: func getPriorityMetadataProducer(args PluginFactoryArgs) (algorithm.MetadataProducer, error)
    """
    reg = _resolve(registry)
    if reg.priority_metadata_producer is None:
        return empty_metadata_producer
    return reg.priority_metadata_producer(args)


def _get_predicate_metadata_producer(
    args: PluginFactoryArgs, *, registry: Optional[PluginRegistry] = None
) -> MetadataProducer:
    """The registered predicate metadata producer, or one that produces None.

    Go: func getPredicateMetadataProducer(args PluginFactoryArgs) (algorithm.MetadataProducer, error)
    """
    reg = _resolve(registry)
    if reg.predicate_metadata_producer is None:
        return empty_metadata_producer
    # The producer reads this registry's precomputations (Go: the predicates package variable).
    return reg.predicate_metadata_producer(attrs.evolve(args, predicate_precomputations=reg.predicate_precomputations))


def _get_priority_function_configs(
    names: Iterable[str], args: PluginFactoryArgs, *, registry: Optional[PluginRegistry] = None
) -> list[PriorityConfig]:
    """Build a PriorityConfig per name, in **sorted** name order (Go's ``sets.String.List()``).

    Go: func getPriorityFunctionConfigs(names sets.String, args PluginFactoryArgs) ([]algorithm.PriorityConfig, error)
    """
    reg = _resolve(registry)
    configs: list[PriorityConfig] = []
    for name in sorted(set(names)):
        factory = reg.priority_function_map.get(name)
        if factory is None:
            raise PluginLookupError(f"Invalid priority name {name} specified - no corresponding function found")
        if factory.function is not None:
            configs.append(PriorityConfig(function=factory.function(args), weight=factory.weight, name=name))
        else:
            map_function, reduce_function = factory.map_reduce_function(args)
            configs.append(PriorityConfig(map_fn=map_function, reduce=reduce_function, weight=factory.weight,
                                          name=name))
    return configs


# --- validation -------------------------------------------------------------------------

_valid_name = re.compile(r"^[a-zA-Z0-9]([-a-zA-Z0-9]*[a-zA-Z0-9])$")
"""Go: validName. Note it needs at least two characters. Use ``fullmatch``: Python's ``$``
would also accept a trailing newline, Go's does not."""


def _validate_algorithm_name_or_die(name: str) -> None:
    """Go: func validateAlgorithmNameOrDie(name string) — fatal on a malformed name."""
    if _valid_name.fullmatch(name) is None:
        glog.fatalf('Algorithm name %v does not match the name validation regexp "%v".', name, _valid_name.pattern)


def _validate_predicate_or_die(predicate: "PredicatePolicy") -> None:
    """An argument, if given, must set exactly one kind. Go: func validatePredicateOrDie"""
    if predicate.argument is not None:
        num_args = 0
        if predicate.argument.service_affinity is not None:
            num_args += 1
        if predicate.argument.labels_presence is not None:
            num_args += 1
        if num_args != 1:
            glog.fatalf(
                "Exactly 1 predicate argument is required, numArgs: %v, Predicate: %s", num_args, predicate.name
            )


def _validate_priority_or_die(priority: "PriorityPolicy") -> None:
    """An argument, if given, must set exactly one kind. Go: func validatePriorityOrDie"""
    if priority.argument is not None:
        num_args = 0
        if priority.argument.service_anti_affinity is not None:
            num_args += 1
        if priority.argument.label_preference is not None:
            num_args += 1
        if num_args != 1:
            glog.fatalf("Exactly 1 priority argument is required, numArgs: %v, Priority: %s", num_args, priority.name)


# --- listing ----------------------------------------------------------------------------


def list_registered_fit_predicates(*, registry: Optional[PluginRegistry] = None) -> list[str]:
    """Go: func ListRegisteredFitPredicates() []string
    Differs from Go: sorted (Go returns map order, i.e. random)."""
    return sorted(_resolve(registry).fit_predicate_map)


def list_registered_priority_functions(*, registry: Optional[PluginRegistry] = None) -> list[str]:
    """Go: func ListRegisteredPriorityFunctions() []string
    Differs from Go: sorted (Go returns map order, i.e. random)."""
    return sorted(_resolve(registry).priority_function_map)


def list_algorithm_providers(*, registry: Optional[PluginRegistry] = None) -> str:
    """Provider names, sorted, joined by `` | `` (the ``--algorithm-provider`` help text).

    Go: func ListAlgorithmProviders() string
    """
    return " | ".join(sorted(_resolve(registry).algorithm_provider_map))
