"""SharedInformerFactory: hands out one shared informer per kind and starts them.

Go: pkg/client/informers/informers_generated/externalversions/factory.go (+ the generated
``core/v1/*.go``, ``extensions/v1beta1/replicaset.go``, ``apps/v1beta1/statefulset.go`` and
the group ``interface.go`` files)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/informers/informers_generated/externalversions/factory.go#L42-L91

Asking for ``.informer()`` or ``.lister()`` *registers* the kind; ``start(stop_ch)`` then runs
every registered informer not yet running (spec §9.7, §2.2). Kinds nobody asked for are never
listed or watched.

Differs from Go: Go keys informers by ``reflect.Type``; here by the API class. The many small
generated Go files (one per kind, one per group/version interface) are folded into this module:
``_KindInformer`` plays each ``xxxInformer`` struct, parametrised by a ``_Kind`` record.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from kschedlearn import sim
from kschedlearn.api.v1 import (
    Node,
    PersistentVolume,
    PersistentVolumeClaim,
    Pod,
    ReplicaSet,
    ReplicationController,
    Service,
    StatefulSet,
)
from kschedlearn.client_go.listers.apps import v1beta1 as apps_listers
from kschedlearn.client_go.listers.core import v1 as core_listers
from kschedlearn.client_go.listers.extensions import v1beta1 as ext_listers
from kschedlearn.client_go.tools.cache.index import NAMESPACE_INDEX, meta_namespace_index_func
from kschedlearn.client_go.tools.cache.listwatch import ListOptions, ListWatch, call_list, call_watch
from kschedlearn.client_go.tools.cache.shared_informer import (
    SharedIndexInformer,
    new_shared_index_informer,
)
from kschedlearn.sim import Chan

NewInformerFunc = Callable[[Any, float], SharedIndexInformer]
"""Go: internalinterfaces.NewInformerFunc."""


@attrs.frozen
class _Kind:
    """How to reach one kind: its class, client accessor and lister constructor."""

    obj_type: type
    resource_client: Callable[[Any], Any]  # client -> typed client for all namespaces
    new_lister: Callable[[Any], Any]


def _new_informer_func(kind: _Kind) -> NewInformerFunc:
    """Go: e.g. core/v1/pod.go ``newPodInformer`` - list/watch all namespaces, namespace index."""

    def new_informer(client: Any, resync_period: float) -> SharedIndexInformer:
        def list_func(options: ListOptions) -> Any:
            return call_list(kind.resource_client(client), options)

        def watch_func(options: ListOptions) -> Any:
            return call_watch(kind.resource_client(client), options)

        return new_shared_index_informer(
            ListWatch(list_func, watch_func), kind.obj_type, resync_period,
            {NAMESPACE_INDEX: meta_namespace_index_func},
            name=f"informers/{kind.obj_type.__name__}")

    return new_informer


@attrs.define(eq=False)
class _KindInformer:
    """Go: e.g. core/v1/pod.go ``podInformer`` with ``Informer()`` and ``Lister()``."""

    factory: SharedInformerFactory
    kind: _Kind

    def informer(self) -> SharedIndexInformer:
        """The shared informer of this kind (created and registered on first use)."""
        return self.factory.informer_for(self.kind.obj_type, _new_informer_func(self.kind))

    def lister(self) -> Any:
        """A lister over the shared informer's indexer (registers the informer too)."""
        return self.kind.new_lister(self.informer().get_indexer())


_PODS = _Kind(Pod, lambda c: c.core_v1().pods(""), core_listers.new_pod_lister)
_NODES = _Kind(Node, lambda c: c.core_v1().nodes(), core_listers.new_node_lister)
_SERVICES = _Kind(Service, lambda c: c.core_v1().services(""), core_listers.new_service_lister)
_RCS = _Kind(ReplicationController, lambda c: c.core_v1().replication_controllers(""),
             core_listers.new_replication_controller_lister)
_PVS = _Kind(PersistentVolume, lambda c: c.core_v1().persistent_volumes(),
             core_listers.new_persistent_volume_lister)
_PVCS = _Kind(PersistentVolumeClaim, lambda c: c.core_v1().persistent_volume_claims(""),
              core_listers.new_persistent_volume_claim_lister)
_RSS = _Kind(ReplicaSet, lambda c: c.extensions_v1beta1().replica_sets(""),
             ext_listers.new_replica_set_lister)
_SSS = _Kind(StatefulSet, lambda c: c.apps_v1beta1().stateful_sets(""),
             apps_listers.new_stateful_set_lister)


@attrs.define(eq=False)
class CoreV1Interface:
    """Go: core/v1/interface.go."""

    factory: SharedInformerFactory

    def pods(self) -> _KindInformer:
        return _KindInformer(self.factory, _PODS)

    def nodes(self) -> _KindInformer:
        return _KindInformer(self.factory, _NODES)

    def services(self) -> _KindInformer:
        return _KindInformer(self.factory, _SERVICES)

    def replication_controllers(self) -> _KindInformer:
        return _KindInformer(self.factory, _RCS)

    def persistent_volumes(self) -> _KindInformer:
        return _KindInformer(self.factory, _PVS)

    def persistent_volume_claims(self) -> _KindInformer:
        return _KindInformer(self.factory, _PVCS)


@attrs.define(eq=False)
class ExtensionsV1beta1Interface:
    """Go: extensions/v1beta1/interface.go (only ReplicaSets)."""

    factory: SharedInformerFactory

    def replica_sets(self) -> _KindInformer:
        return _KindInformer(self.factory, _RSS)


@attrs.define(eq=False)
class AppsV1beta1Interface:
    """Go: apps/v1beta1/interface.go (only StatefulSets)."""

    factory: SharedInformerFactory

    def stateful_sets(self) -> _KindInformer:
        return _KindInformer(self.factory, _SSS)


@attrs.define(eq=False)
class _CoreGroup:
    factory: SharedInformerFactory

    def v1(self) -> CoreV1Interface:
        """Go: core/interface.go ``V1()``."""
        return CoreV1Interface(self.factory)


@attrs.define(eq=False)
class _ExtensionsGroup:
    factory: SharedInformerFactory

    def v1beta1(self) -> ExtensionsV1beta1Interface:
        """Go: extensions/interface.go ``V1beta1()``."""
        return ExtensionsV1beta1Interface(self.factory)


@attrs.define(eq=False)
class _AppsGroup:
    factory: SharedInformerFactory

    def v1beta1(self) -> AppsV1beta1Interface:
        """Go: apps/interface.go ``V1beta1()``."""
        return AppsV1beta1Interface(self.factory)


@attrs.define(eq=False, slots=False)
class SharedInformerFactory:
    """Go: factory.go ``sharedInformerFactory``."""

    client: Any
    default_resync: float
    informers: dict[type, SharedIndexInformer] = attrs.field(factory=dict)
    started_informers: dict[type, bool] = attrs.field(factory=dict)
    lock: sim.Mutex = attrs.field(factory=sim.Mutex)

    def start(self, stop_ch: Chan) -> None:
        """Run every registered, not yet started informer in its own goroutine.

        Go: ``(*sharedInformerFactory).Start``
        """
        with self.lock:
            for informer_type, informer in self.informers.items():
                if not self.started_informers.get(informer_type, False):
                    sim.go(informer.run, stop_ch, name=f"informer {informer_type.__name__}")
                    self.started_informers[informer_type] = True

    def informer_for(self, obj_type: type, new_func: NewInformerFunc) -> SharedIndexInformer:
        """The one informer for ``obj_type``, created with ``new_func`` the first time.

        Go: ``(*sharedInformerFactory).InformerFor``
        """
        with self.lock:
            informer = self.informers.get(obj_type)
            if informer is not None:
                return informer
            informer = new_func(self.client, self.default_resync)
            self.informers[obj_type] = informer
            return informer

    def core(self) -> _CoreGroup:
        """Go: ``Core()``."""
        return _CoreGroup(self)

    def extensions(self) -> _ExtensionsGroup:
        """Go: ``Extensions()``."""
        return _ExtensionsGroup(self)

    def apps(self) -> _AppsGroup:
        """Go: ``Apps()``."""
        return _AppsGroup(self)


def new_shared_informer_factory(client: Any, default_resync: float) -> SharedInformerFactory:
    """Go: factory.go ``NewSharedInformerFactory``."""
    return SharedInformerFactory(client=client, default_resync=default_resync)
