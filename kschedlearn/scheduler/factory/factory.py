"""ConfigFactory: wires the scheduler together — queues, informers, cache, algorithm, error path.

Go: plugin/pkg/scheduler/factory/factory.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/factory/factory.go

This is where the seed article's "multi-queue" lives:

- ``pod_queue`` — a client-go FIFO fed by a bare Reflector over *unassigned* pods
  (``spec.nodeName==``); ``get_next_pod`` pops it for scheduleOne;
- the *assigned*-pod informer (``spec.nodeName!=``): Reflector → DeltaFIFO → processLoop →
  ``add_pod_to_cache`` / ``update_pod_in_cache`` / ``delete_pod_from_cache`` → scheduler cache;
- the shared node informer → ``add_node_to_cache`` ...;
- the scheduler cache itself (assumed pods expire after 30 s).

Differs from Go: Go's ``sets.String`` of keys becomes a Python ``set``; errors raise; the
plugin registry is an explicit object (see ``plugins.py``). The informer factory's node list
order is its store's insertion order (Go: map order).

Trace points (``NewConfigFactory``, ``CreateFromKeys``, ``ConfigFactory.Run``, the error path's
``error.backoff`` and ``error.requeue``) are attached from outside, by the observation layer
(``kschedlearn/observe/startup.py``, ``observe/scheduler.py``).
"""

from __future__ import annotations

from typing import Any

import attrs

from kschedlearn import sim
from kschedlearn.api.v1 import (
    NODE_NETWORK_UNAVAILABLE,
    NODE_OUT_OF_DISK,
    NODE_READY,
    CONDITION_FALSE,
    CONDITION_TRUE,
    Node,
    Pod,
    PodCondition,
    update_pod_condition,
)
from kschedlearn.apimachinery import fields
from kschedlearn.apimachinery.api.errors import is_not_found
from kschedlearn.client_go.tools.cache.controller import ResourceEventHandlerFuncs, new_indexer_informer
from kschedlearn.client_go.tools.cache.delta_fifo import DeletedFinalStateUnknown
from kschedlearn.client_go.tools.cache.fifo import FIFO, new_fifo, pop
from kschedlearn.client_go.tools.cache.index import NAMESPACE_INDEX, meta_namespace_index_func
from kschedlearn.client_go.tools.cache.listwatch import ListWatch, new_list_watch_from_client
from kschedlearn.client_go.tools.cache.reflector import new_reflector
from kschedlearn.client_go.tools.cache.store import meta_namespace_key_func
from kschedlearn.scheduler import scheduler
from kschedlearn.scheduler.core.generic_scheduler import ErrNoNodesAvailable, new_generic_scheduler
from kschedlearn.scheduler.factory import plugins
from kschedlearn.scheduler.schedulercache import cache as schedulercache
from kschedlearn.scheduler.util.backoff_utils import PodBackoff, create_default_pod_backoff
from kschedlearn.trace import glog


INITIAL_GET_BACKOFF = 0.1  # Go: initialGetBackoff = 100 * time.Millisecond
MAXIMAL_GET_BACKOFF = 60.0  # Go: maximalGetBackoff = time.Minute

UNASSIGNED_POD_SELECTOR = "spec.nodeName==,status.phase!=Succeeded,status.phase!=Failed"
ASSIGNED_POD_SELECTOR = "spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed"


@attrs.define(eq=False, slots=False)
class ConfigFactory:
    """Go: factory.ConfigFactory (implements scheduler.Configurator) — factory.go#L57-L100."""

    client: Any
    pod_queue: FIFO
    scheduled_pod_lister: Any
    pod_lister: Any
    node_lister: Any
    pv_lister: Any
    pvc_lister: Any
    service_lister: Any
    controller_lister: Any
    replica_set_lister: Any
    stateful_set_lister: Any
    stop_everything: sim.Chan
    scheduled_pod_populator: Any
    scheduler_cache: Any
    scheduler_name: str
    hard_pod_affinity_symmetric_weight: int
    registry: Any = None
    scheduled_pod_indexer: Any = None
    unassigned_pod_reflector: Any = None
    pod_backoff: PodBackoff | None = None

    # -- handlers of the assigned-pod informer and the node informer ---------------------
    def add_pod_to_cache(self, obj: Any) -> None:
        """Go: ConfigFactory.addPodToCache — factory.go#L192-L203"""
        if not isinstance(obj, Pod):
            glog.errorf("cannot convert to *v1.Pod: %v", obj)
            return
        try:
            self.scheduler_cache.add_pod(obj)
        except schedulercache.CacheError as err:
            glog.errorf("scheduler cache AddPod failed: %v", err)

    def update_pod_in_cache(self, old_obj: Any, new_obj: Any) -> None:
        """Go: ConfigFactory.updatePodInCache — factory.go#L205-L220"""
        if not isinstance(old_obj, Pod):
            glog.errorf("cannot convert oldObj to *v1.Pod: %v", old_obj)
            return
        if not isinstance(new_obj, Pod):
            glog.errorf("cannot convert newObj to *v1.Pod: %v", new_obj)
            return
        try:
            self.scheduler_cache.update_pod(old_obj, new_obj)
        except schedulercache.CacheError as err:
            glog.errorf("scheduler cache UpdatePod failed: %v", err)

    def delete_pod_from_cache(self, obj: Any) -> None:
        """Go: ConfigFactory.deletePodFromCache — accepts a tombstone. factory.go#L222-L241"""
        if isinstance(obj, Pod):
            pod = obj
        elif isinstance(obj, DeletedFinalStateUnknown):
            if not isinstance(obj.obj, Pod):
                glog.errorf("cannot convert to *v1.Pod: %v", obj.obj)
                return
            pod = obj.obj
        else:
            glog.errorf("cannot convert to *v1.Pod: %v", obj)
            return
        try:
            self.scheduler_cache.remove_pod(pod)
        except schedulercache.CacheError as err:
            glog.errorf("scheduler cache RemovePod failed: %v", err)

    def add_node_to_cache(self, obj: Any) -> None:
        """Go: ConfigFactory.addNodeToCache — factory.go#L243-L253"""
        if not isinstance(obj, Node):
            glog.errorf("cannot convert to *v1.Node: %v", obj)
            return
        try:
            self.scheduler_cache.add_node(obj)
        except schedulercache.CacheError as err:
            glog.errorf("scheduler cache AddNode failed: %v", err)

    def update_node_in_cache(self, old_obj: Any, new_obj: Any) -> None:
        """Go: ConfigFactory.updateNodeInCache — factory.go#L255-L270"""
        if not isinstance(old_obj, Node):
            glog.errorf("cannot convert oldObj to *v1.Node: %v", old_obj)
            return
        if not isinstance(new_obj, Node):
            glog.errorf("cannot convert newObj to *v1.Node: %v", new_obj)
            return
        try:
            self.scheduler_cache.update_node(old_obj, new_obj)
        except schedulercache.CacheError as err:
            glog.errorf("scheduler cache UpdateNode failed: %v", err)

    def delete_node_from_cache(self, obj: Any) -> None:
        """Go: ConfigFactory.deleteNodeFromCache — factory.go#L272-L291"""
        if isinstance(obj, Node):
            node = obj
        elif isinstance(obj, DeletedFinalStateUnknown):
            if not isinstance(obj.obj, Node):
                glog.errorf("cannot convert to *v1.Node: %v", obj.obj)
                return
            node = obj.obj
        else:
            glog.errorf("cannot convert to *v1.Node: %v", obj)
            return
        try:
            self.scheduler_cache.remove_node(node)
        except schedulercache.CacheError as err:
            glog.errorf("scheduler cache RemoveNode failed: %v", err)

    # -- Configurator getters ------------------------------------------------------------
    def get_node_lister(self) -> Any:
        return self.node_lister

    def get_hard_pod_affinity_symmetric_weight(self) -> int:
        return self.hard_pod_affinity_symmetric_weight

    def get_scheduler_name(self) -> str:
        return self.scheduler_name

    def get_client(self) -> Any:
        return self.client

    def get_scheduled_pod_lister(self) -> Any:
        return self.scheduled_pod_lister

    # -- creating the scheduler Config ---------------------------------------------------
    def create(self) -> scheduler.Config:
        """Go: ConfigFactory.Create = CreateFromProvider(DefaultProvider)."""
        return self.create_from_provider(plugins.DEFAULT_PROVIDER)

    def create_from_provider(self, provider_name: str) -> scheduler.Config:
        """Go: ConfigFactory.CreateFromProvider — factory.go#L298-L307"""
        glog.v(2).infof("Creating scheduler from algorithm provider '%v'", provider_name)
        provider = plugins.get_algorithm_provider(provider_name, registry=self.registry)
        return self.create_from_keys(provider.fit_predicate_keys, provider.priority_function_keys, [])

    def create_from_config(self, policy: Any) -> scheduler.Config:
        """Go: ConfigFactory.CreateFromConfig — factory.go#L309-L342"""
        from kschedlearn.scheduler.api.validation import validate_policy
        from kschedlearn.scheduler.core.extender import new_http_extender

        glog.v(2).infof("Creating scheduler from configuration: %v", policy)
        validate_policy(policy)  # raises the aggregated validation errors

        predicate_keys: set[str] = set()
        for predicate in policy.predicates:
            glog.v(2).infof("Registering predicate: %s", predicate.name)
            predicate_keys.add(plugins.register_custom_fit_predicate(predicate, registry=self.registry))

        priority_keys: set[str] = set()
        for priority in policy.priorities:
            glog.v(2).infof("Registering priority: %s", priority.name)
            priority_keys.add(plugins.register_custom_priority_function(priority, registry=self.registry))

        extenders = []
        for extender_config in policy.extender_configs:
            glog.v(2).infof("Creating extender with config %+v", extender_config)
            extenders.append(new_http_extender(extender_config))
        return self.create_from_keys(predicate_keys, priority_keys, extenders)

    def create_from_keys(self, predicate_keys: Any, priority_keys: Any, extenders: list[Any]) -> scheduler.Config:
        """Go: ConfigFactory.CreateFromKeys — factory.go#L344-L388

        Note step 4: ``f.Run()`` starts the pod watches here, so calling a Create method twice
        would start a second pair (Go has the same hazard).
        """
        glog.v(2).infof("Creating scheduler with fit predicates '%v' and priority functions '%v",
                        sorted(predicate_keys), sorted(priority_keys))

        if self.hard_pod_affinity_symmetric_weight < 0 or self.hard_pod_affinity_symmetric_weight > 100:
            raise ValueError(
                f"invalid hardPodAffinitySymmetricWeight: {self.hard_pod_affinity_symmetric_weight},"
                " must be in the range 0-100"
            )

        predicate_funcs = self.get_predicates(predicate_keys)
        priority_configs = self.get_priority_function_configs(priority_keys)
        priority_meta_producer = self.get_priority_metadata_producer()
        predicate_meta_producer = self.get_predicate_metadata_producer()

        self.run()

        algo = new_generic_scheduler(self.scheduler_cache, predicate_funcs, predicate_meta_producer,
                                     priority_configs, priority_meta_producer, extenders)
        pod_backoff = create_default_pod_backoff()
        self.pod_backoff = pod_backoff
        return scheduler.Config(
            scheduler_cache=self.scheduler_cache,
            # the scheduler only considers schedulable (ready, not out of disk...) nodes
            node_lister=NodePredicateLister(self.node_lister),
            algorithm=algo,
            binder=Binder(self.client),
            pod_condition_updater=PodConditionUpdater(self.client),
            next_pod=self.get_next_pod,
            error=self.make_default_error_func(pod_backoff, self.pod_queue),
            stop_everything=self.stop_everything,
        )

    def get_priority_function_configs(self, priority_keys: Any) -> list[Any]:
        """Go: ConfigFactory.GetPriorityFunctionConfigs"""
        return plugins._get_priority_function_configs(priority_keys, self._get_plugin_args(), registry=self.registry)

    def get_priority_metadata_producer(self) -> Any:
        """Go: ConfigFactory.GetPriorityMetadataProducer"""
        return plugins._get_priority_metadata_producer(self._get_plugin_args(), registry=self.registry)

    def get_predicate_metadata_producer(self) -> Any:
        """Go: ConfigFactory.GetPredicateMetadataProducer"""
        return plugins._get_predicate_metadata_producer(self._get_plugin_args(), registry=self.registry)

    def get_predicates(self, predicate_keys: Any) -> dict[str, Any]:
        """Go: ConfigFactory.GetPredicates"""
        return plugins._get_fit_predicate_functions(predicate_keys, self._get_plugin_args(), registry=self.registry)

    def _get_plugin_args(self) -> Any:
        """Go: ConfigFactory.getPluginArgs — factory.go#L433-L447"""
        return plugins.PluginFactoryArgs(
            pod_lister=self.pod_lister,
            service_lister=self.service_lister,
            controller_lister=self.controller_lister,
            replica_set_lister=self.replica_set_lister,
            stateful_set_lister=self.stateful_set_lister,
            node_lister=NodePredicateLister(self.node_lister),
            node_info=CachedNodeInfo(self.node_lister),
            pv_info=PVInfo(self.pv_lister),
            pvc_info=PVCInfo(self.pvc_lister),
            hard_pod_affinity_symmetric_weight=self.hard_pod_affinity_symmetric_weight,
        )

    # -- running -------------------------------------------------------------------------
    def run(self) -> None:
        """Start feeding podQueue and the cache. Go: ConfigFactory.Run — factory.go#L449-L455"""
        # Watch and queue pods that need scheduling: a bare reflector straight into the FIFO.
        self.unassigned_pod_reflector = new_reflector(
            self._create_unassigned_non_terminated_pod_lw(), Pod, self.pod_queue, 0,
            name="unassigned-pods (podQueue)",
        )
        self.unassigned_pod_reflector.run_until(self.stop_everything)
        # Begin populating scheduled pods.
        sim.go(self.scheduled_pod_populator.run, self.stop_everything, name="scheduledPodPopulator.Run")

    def get_next_pod(self) -> Pod:
        """Pop podQueue until a pod this scheduler is responsible for comes out.

        Go: ConfigFactory.getNextPod — factory.go#L457-L465. Pods for other schedulers are
        dropped silently.
        """
        while True:
            pod = pop(self.pod_queue)
            if self.responsible_for_pod(pod):
                glog.v(4).infof("About to try and schedule pod %v", pod.metadata.name)
                return pod

    def responsible_for_pod(self, pod: Pod) -> bool:
        """Go: ConfigFactory.ResponsibleForPod — factory.go#L467-L469"""
        return self.scheduler_name == pod.spec.scheduler_name

    def _create_assigned_non_terminated_pod_lw(self) -> ListWatch:
        """Go: createAssignedNonTerminatedPodLW — factory.go#L506-L512"""
        selector = fields.parse_selector(ASSIGNED_POD_SELECTOR)
        return new_list_watch_from_client(self.client, "pods", "", selector)

    def _create_unassigned_non_terminated_pod_lw(self) -> ListWatch:
        """Go: createUnassignedNonTerminatedPodLW — factory.go#L499-L504"""
        selector = fields.parse_selector(UNASSIGNED_POD_SELECTOR)
        return new_list_watch_from_client(self.client, "pods", "", selector)

    # -- the error path: backoff and requeue ---------------------------------------------
    def make_default_error_func(self, backoff: PodBackoff, pod_queue: FIFO) -> Any:
        """Go: ConfigFactory.MakeDefaultErrorFunc — factory.go#L514-L558"""

        def error_func(pod: Pod, err: BaseException) -> None:
            if isinstance(err, ErrNoNodesAvailable):
                glog.v(4).infof("Unable to schedule %v %v: no nodes are registered to the cluster; waiting",
                                pod.metadata.namespace, pod.metadata.name)
            else:
                glog.errorf("Error scheduling %v %v: %v; retrying",
                            pod.metadata.namespace, pod.metadata.name, err)
            backoff.gc()
            # Retry asynchronously: the goroutine sleeps out the backoff, then re-reads the pod.
            sim.go(self._retry_after_backoff, backoff, pod_queue, pod,
                   name=f"error retry {pod.metadata.namespace}/{pod.metadata.name}")

        return error_func

    def _retry_after_backoff(self, backoff: PodBackoff, pod_queue: FIFO, pod: Pod) -> None:
        """The goroutine of MakeDefaultErrorFunc (Go: an anonymous func under HandleCrash).

        Go: (ConfigFactory).MakeDefaultErrorFunc, its ``go func()``

        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/factory/factory.go#L514-L558
        """
        pod_id = f"{pod.metadata.namespace}/{pod.metadata.name}"
        entry = backoff.get_entry(pod_id)
        if not entry.try_wait(backoff.max_duration):
            glog.warningf("Request for pod %v already in flight, abandoning", pod_id)
            return
        # Get the pod again; it may have changed or been scheduled already.
        get_backoff = INITIAL_GET_BACKOFF
        while True:
            try:
                fresh = self.client.core_v1().pods(pod.metadata.namespace).get(pod.metadata.name)
            except Exception as err:  # noqa: BLE001 - Go's returned error
                if is_not_found(err):
                    glog.warningf("A pod %v no longer exists", pod_id)
                    return
                glog.errorf("Error getting pod %v for retry: %v; retrying...", pod_id, err)
                get_backoff = get_backoff * 2
                if get_backoff > MAXIMAL_GET_BACKOFF:
                    get_backoff = MAXIMAL_GET_BACKOFF
                sim.sleep(get_backoff)
                continue
            if fresh.spec.node_name == "":
                pod_queue.add_if_not_present(fresh)
            return


def new_config_factory(
    scheduler_name: str,
    client: Any,
    node_informer: Any,
    pv_informer: Any,
    pvc_informer: Any,
    replication_controller_informer: Any,
    replica_set_informer: Any,
    stateful_set_informer: Any,
    service_informer: Any,
    hard_pod_affinity_symmetric_weight: int,
    registry: Any = None,
) -> ConfigFactory:
    """Create the factory: FIFO, cache (TTL 30 s), listers, the assigned-pod informer.

    Go: factory.NewConfigFactory — factory.go#L102-L167. ``registry`` is kschedlearn-only
    (None = the default plugin registry).
    """
    stop_everything = sim.Chan(name="StopEverything")
    scheduler_cache = schedulercache.new(30.0, stop_everything)

    c = ConfigFactory(
        client=client,
        pod_queue=new_fifo(meta_namespace_key_func),
        scheduled_pod_lister=None,
        pod_lister=scheduler_cache,
        node_lister=node_informer.lister(),
        pv_lister=pv_informer.lister(),
        pvc_lister=pvc_informer.lister(),
        service_lister=service_informer.lister(),
        controller_lister=replication_controller_informer.lister(),
        replica_set_lister=replica_set_informer.lister(),
        stateful_set_lister=stateful_set_informer.lister(),
        stop_everything=stop_everything,
        scheduled_pod_populator=None,
        scheduler_cache=scheduler_cache,
        scheduler_name=scheduler_name,
        hard_pod_affinity_symmetric_weight=hard_pod_affinity_symmetric_weight,
        registry=registry,
    )

    # The assigned-pod informer is built here but started in Run.
    indexer, c.scheduled_pod_populator = new_indexer_informer(
        c._create_assigned_non_terminated_pod_lw(),
        Pod,
        0,
        ResourceEventHandlerFuncs(
            add_func=c.add_pod_to_cache,
            update_func=c.update_pod_in_cache,
            delete_func=c.delete_pod_from_cache,
        ),
        {NAMESPACE_INDEX: meta_namespace_index_func},
        name="assigned-pods (scheduler cache)",
    )
    c.scheduled_pod_indexer = indexer
    c.scheduled_pod_lister = _pod_lister(indexer)

    node_informer.informer().add_event_handler_with_resync_period(
        ResourceEventHandlerFuncs(
            add_func=c.add_node_to_cache,
            update_func=c.update_node_in_cache,
            delete_func=c.delete_node_from_cache,
        ),
        0,
    )
    return c


def _pod_lister(indexer: Any) -> Any:
    from kschedlearn.client_go.listers.core.v1 import new_pod_lister

    return new_pod_lister(indexer)


@attrs.define(eq=False)
class NodePredicateLister:
    """Go: factory.nodePredicateLister — List() = nodes passing getNodeConditionPredicate."""

    node_lister: Any

    def list(self) -> list[Node]:  # noqa: A003 - Go's method name
        """Go: func (n *nodePredicateLister) List() ([]*v1.Node, error) — factory.go#L394-L396"""
        return self.node_lister.list_with_predicate(get_node_condition_predicate())


def get_node_condition_predicate() -> Any:
    """Ready must be True, OutOfDisk and NetworkUnavailable False, and not unschedulable.

    Go: getNodeConditionPredicate — factory.go#L471-L497. A node lacking a condition passes
    that check.
    """

    def predicate(node: Node) -> bool:
        for cond in node.status.conditions:
            # We consider the node for scheduling only when its:
            # - NodeReady condition status is ConditionTrue,
            # - NodeOutOfDisk condition status is ConditionFalse,
            # - NodeNetworkUnavailable condition status is ConditionFalse.
            if cond.type == NODE_READY and cond.status != CONDITION_TRUE:
                glog.v(4).infof("Ignoring node %v with %v condition status %v", node.metadata.name, cond.type, cond.status)
                return False
            if cond.type == NODE_OUT_OF_DISK and cond.status != CONDITION_FALSE:
                glog.v(4).infof("Ignoring node %v with %v condition status %v", node.metadata.name, cond.type, cond.status)
                return False
            if cond.type == NODE_NETWORK_UNAVAILABLE and cond.status != CONDITION_FALSE:
                glog.v(4).infof("Ignoring node %v with %v condition status %v", node.metadata.name, cond.type, cond.status)
                return False
        # Ignore nodes that are marked unschedulable
        if node.spec.unschedulable:
            glog.v(4).infof("Ignoring node %v since it is unschedulable", node.metadata.name)
            return False
        return True

    return predicate


@attrs.define(eq=False)
class CachedNodeInfo:
    """Go: predicates.CachedNodeInfo — node lookup by name through the (unfiltered) node lister."""

    node_lister: Any

    def get_node_info(self, node_id: str) -> Node:
        try:
            return self.node_lister.get(node_id)
        except Exception as err:  # noqa: BLE001
            if is_not_found(err):
                raise LookupError(f"node '{node_id}' not found") from err
            raise LookupError(f"error retrieving node '{node_id}' from cache: {err}") from err


@attrs.define(eq=False)
class PVInfo:
    """Go: predicates.CachedPersistentVolumeInfo."""

    lister: Any

    def get_persistent_volume_info(self, pv_id: str) -> Any:
        return self.lister.get(pv_id)


@attrs.define(eq=False)
class PVCInfo:
    """Go: predicates.CachedPersistentVolumeClaimInfo."""

    lister: Any

    def get_persistent_volume_claim_info(self, namespace: str, name: str) -> Any:
        return self.lister.persistent_volume_claims(namespace).get(name)


@attrs.define(eq=False, slots=False)
class Binder:
    """Go: factory.binder — POST the Binding. factory.go#L578-L580"""

    client: Any

    def bind(self, binding: Any) -> None:
        """Go: binder.Bind — in factory.go#L582-L589."""
        glog.v(3).infof("Attempting to bind %v to %v", binding.metadata.name, binding.target.name)
        ns = binding.metadata.namespace  # Go: genericapirequest.WithNamespace(..., binding.Namespace)
        self.client.core().rest_client().post().namespace(ns).resource("bindings").body(binding).do().error()


@attrs.define(eq=False)
class PodConditionUpdater:
    """Go: factory.podConditionUpdater — PUT status only if the condition changed. factory.go#L591-L593

    Differs from Go: Go mutates the caller's pod in place; values are frozen here, so the
    updated copy is what gets written.
    """

    client: Any

    def update(self, pod: Pod, condition: PodCondition) -> None:
        """Go: podConditionUpdater.Update — in factory.go#L595-L602."""
        glog.v(2).infof("Updating pod condition for %s/%s to (%s==%s)",
                        pod.metadata.namespace, pod.metadata.name, condition.type, condition.status)
        changed, status = update_pod_condition(pod.status, condition)
        if changed:
            try:
                self.client.core_v1().pods(pod.metadata.namespace).update_status(attrs.evolve(pod, status=status))
            except Exception as err:  # noqa: BLE001 - callers ignore the error, as in Go
                glog.v(2).infof("pod condition update failed: %v", err)
