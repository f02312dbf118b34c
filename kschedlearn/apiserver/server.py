"""The embedded in-memory Kubernetes API server.

Go: stands in for kube-apiserver's generic registry store
(https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go:
Create, Get, List, Update, Delete with graceful deletion, Watch), the pod binding subresource
(https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/registry/core/pod/storage/storage.go#L128-L140)
and the watch cache (storage.py). Reached through :mod:`kschedlearn.apiserver.clientset`.

Differs from Go: no HTTP, no etcd, no admission, no validation beyond what the scheduler can
observe; one Python object holds it all. Its goroutines (watch pumps, graceful-deletion timers)
run in a simulated process of its own (``kube-apiserver``). Calls run on the caller's goroutine
(or, for non-blocking ones, outside any goroutine, e.g. from the notebook).
"""

from __future__ import annotations

import itertools
import sys
from typing import Any

import attrs

from kschedlearn import trace
from kschedlearn.api.validation import validate_object, validate_object_update
from kschedlearn.api.validation.validation import validate_object_meta_update
from kschedlearn.apimachinery.util.validation.field import CAUSE_TYPES, to_aggregate
from kschedlearn.apimachinery.api.errors import (
    StatusCause,
    StatusError,
    new_already_exists,
    new_bad_request,
    new_conflict,
    new_gone,
    new_invalid,
    new_not_found,
)
from kschedlearn.apimachinery.watch import ADDED, ERROR, Event
from kschedlearn.apiserver import finalizers, pod_storage
from kschedlearn.apiserver.faults import Faults
from kschedlearn.apiserver.fieldsets import compiled_matcher, selectable_fields
from kschedlearn.apiserver.lists import List, ListMeta
from kschedlearn.apiserver.registry import (
    ResourceInfo,
    generate_name,
    new_uid,
    pod_grace_period,
    prepare_for_create,
    prepare_for_update,
    resource_info,
)
from kschedlearn.apiserver.request import (
    Selector,
    parse_field_selector,
    parse_label_selector,
    parse_resource_version,
)
from kschedlearn.apiserver.storage import DEFAULT_WATCH_WINDOW, HistoryEntry, Key, Storage, WatchFilter
from kschedlearn.apiserver.watchers import ServerWatch
from kschedlearn.sim import Process, Runtime, WouldBlockError, current_goroutine

_REGISTRY = trace.stages.K8S + "staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go"
_CACHER = trace.stages.K8S + "staging/src/k8s.io/apiserver/pkg/storage/cacher.go"
for _name, _ref, _why in [
    ("apiserver.create", _REGISTRY + "#L274-L322", "The API server stored a new object and told every matching watch (ADDED)."),
    ("apiserver.update", _REGISTRY + "#L372-L508", "The API server replaced an object; its resourceVersion went up and watches saw MODIFIED (or ADDED/DELETED if it entered or left their selector)."),
    ("apiserver.delete", _REGISTRY + "#L829-L902", "The API server deleted an object, or marked a pod for graceful deletion."),
    ("apiserver.bind", trace.stages.K8S + "pkg/registry/core/pod/storage/storage.go#L142-L176",
     "POST .../bindings: BindingREST's setPodHostAndAnnotations set spec.nodeName and PodScheduled=True on the pod."),
    ("apiserver.watch", _CACHER + "#L293-L348", "Cacher.Watch: a client opened (or lost) a watch on the API server."),
    ("apiserver.watch_event", _CACHER + "#L841-L890", "sendWatchCacheEvent: the API server delivered one watch event to a client (a reflector)."),
]:
    trace.register_stage(_name, _ref, _why)

_OPTIMISTIC_LOCK_MSG = (
    "the object has been modified; please apply your changes to the latest version and try again"
)

@attrs.define(eq=False)
class APIServer:
    """The in-memory API server of one simulation (``server.faults`` holds the fault hooks)."""

    runtime: Runtime
    name: str = "kube-apiserver"
    watch_window: int = DEFAULT_WATCH_WINDOW
    #: run 1.6's object validation on create and update (False: like client-go's fake clientset,
    #: which the ported Go tests use and which stores whatever it is given)
    validation: bool = True
    #: the store's garbage-collection half (Go: ``--enable-garbage-collector``, on by default in
    #: 1.6): deletes honour finalizers and propagation policies (:mod:`.finalizers`). Off unless
    #: the world runs a controller manager whose garbage collector removes the finalizers.
    enable_garbage_collection: bool = False
    process: Process = attrs.field(init=False)
    storage: Storage = attrs.field(init=False)
    faults: Faults = attrs.field(init=False)
    watches: list[ServerWatch] = attrs.field(factory=list, init=False)
    _wids: itertools.count[int] = attrs.field(factory=lambda: itertools.count(1), init=False)
    _created: int = attrs.field(default=0, init=False)  # creations so far (uids, generated names)

    def __attrs_post_init__(self) -> None:
        self.process = self.runtime.new_process(self.name)
        self.storage = Storage(watch_window=self.watch_window)
        self.storage.listeners.append(self._fan_out)
        self.faults = Faults(self)

    # -- plumbing ------------------------------------------------------------------------
    def now(self) -> float:
        return self.runtime.now

    def _emit(self, stage: str, message: str, **data: Any) -> None:
        trace.emit(stage, message, data=data, runtime=self.runtime)

    def _before(self, verb: str, info: ResourceInfo) -> None:
        """Apply injected delays (the caller sleeps) and failures before serving a call."""
        delay = self.faults.take_delay(verb, info.resource)
        if delay > 0:
            if current_goroutine() is None:
                raise WouldBlockError(
                    f"apiserver: {verb} {info.resource} is delayed {delay:g}s by an injected"
                    " fault; call it from a goroutine"
                )
            self.runtime.sleep(delay)
        err = self.faults.take_failure(verb, info.resource)
        if err is not None:
            raise err

    def _namespace(self, info: ResourceInfo, request_ns: str, obj_ns: str = "") -> str:
        if not info.namespaced:
            return ""
        if request_ns and obj_ns and request_ns != obj_ns:
            raise new_bad_request(
                "the namespace of the provided object does not match the namespace sent on the"
                " request"
            )
        # interned, as the codec interns decoded strings (see api/v1/codec.py _dec_str)
        return sys.intern(request_ns or obj_ns or "default")

    @staticmethod
    def _check_kind(info: ResourceInfo, obj: Any) -> None:
        kind = getattr(type(obj), "kind", None)
        if kind != info.kind:
            raise new_bad_request(
                f"{info.resource}: expected a {info.kind} object, got {type(obj).__name__}"
            )

    def _filter(self, info: ResourceInfo, namespace: str, label_selector: Selector,
                field_selector: Selector) -> WatchFilter:
        lsel = parse_label_selector(label_selector)
        fsel = parse_field_selector(info, field_selector)
        return WatchFilter(
            namespace=namespace if info.namespaced else "",
            matches_labels=lambda o: lsel.matches(o.metadata.labels),
            matches_fields=(compiled_matcher(info.resource, fsel)
                            or (lambda o: fsel.matches(selectable_fields(info.resource, o)))),
        )

    def _validate(self, info: ResourceInfo, obj: Any, old: Any = None, *, status_only: bool = False) -> None:
        """Go: the strategy's ``Validate`` (create) or ``BeforeUpdate``'s checks and ``ValidateUpdate``
        (an update of ``old``), from ``pkg/api/validation`` (the controllers' kinds: the strategies
        of :mod:`kschedlearn.apiserver.workloads`): 422 Invalid."""
        from kschedlearn.apiserver import workloads

        if not self.validation:
            return
        kind = info.kind
        if info.resource in workloads.RESOURCES:
            # Go: BeforeUpdate's validateCommonFields, then the kind's ValidateUpdate
            errs = [] if old is None else validate_object_meta_update(obj.metadata, old.metadata)
            errs += workloads.validate(info.resource, obj, old, status_only=status_only)
            kind = workloads.QUALIFIED_KINDS[info.resource]
        elif old is None:
            errs = validate_object(info.resource, obj)
        else:
            errs = validate_object_update(info.resource, obj, old, status_only=status_only)
        if errs:
            causes = tuple(StatusCause(type=CAUSE_TYPES.get(e.type, e.type), message=e.error_body(), field=e.field)
                           for e in errs)
            raise new_invalid(kind, obj.metadata.name, to_aggregate(errs), causes)

    def _get_or_not_found(self, info: ResourceInfo, key: Key) -> Any:
        obj = self.storage.get(info.resource, key)
        if obj is None:
            raise new_not_found(info.qualified(), key[1])
        return obj

    # -- verbs ---------------------------------------------------------------------------
    def create(self, resource: str, namespace: str, obj: Any, *, dry_run: bool = False) -> Any:
        """Store a new object with its system fields and API defaults filled in.

        Go: Store.Create + rest.BeforeCreate (uid, creationTimestamp, generateName) and the
        kind's defaults. Raises AlreadyExists (409) if the name is taken.
        Differs from Go: a resourceVersion on the new object is ignored rather than refused.
        ``dry_run`` (kschedlearn-only, 1.6 had none): every check, nothing stored, no trace event,
        no injected fault consumed; the answer is what would be stored, without a resourceVersion.
        """
        info = resource_info(resource)
        if not dry_run:
            self._before("create", info)
        self._check_kind(info, obj)
        meta = obj.metadata
        ns = self._namespace(info, namespace, meta.namespace)
        counter = self._created + 1  # every real attempt takes a number (uids, generated names)
        if not dry_run:
            self._created = counter
        name = meta.name
        if not name and meta.generate_name:
            name = generate_name(meta.generate_name, counter)
        if not name:
            raise new_invalid(info.kind, "", "metadata.name: Required value: name or"
                              " generateName is required")
        key = (ns, name)
        if self.storage.get(resource, key) is not None:
            raise new_already_exists(info.qualified(), name)
        meta = attrs.evolve(meta, name=name, namespace=ns, resource_version="", self_link="",
                            uid=meta.uid or new_uid(resource, ns, name, counter),
                            creation_timestamp=self.now(), deletion_timestamp=None,
                            deletion_grace_period_seconds=None)
        candidate = prepare_for_create(info, attrs.evolve(obj, metadata=meta))
        self._validate(info, candidate)
        if dry_run:
            return candidate
        stored = self.storage.create(resource, key, candidate)
        self._emit("apiserver.create", f"create {resource} {_key_str(key)}", resource=resource,
                   key=_key_str(key), resource_version=stored.metadata.resource_version)
        return stored

    def get(self, resource: str, namespace: str, name: str, *, faults: bool = True) -> Any:
        """Go: Store.Get. Raises NotFound (404). ``faults=False``: an HTTP client's read, which
        no injected fault meant for the simulated processes may hit."""
        info = resource_info(resource)
        if faults:
            self._before("get", info)
        return self._get_or_not_found(info, (self._namespace(info, namespace), name))

    def list(self, resource: str, namespace: str = "", label_selector: Selector = None,
             field_selector: Selector = None, resource_version: str = "", *, faults: bool = True) -> List:
        """Matching objects sorted by namespace/name, with the list's resourceVersion.

        Go: Store.List (served from the watch cache for ``resource_version="0"``).
        Differs from Go: every resource_version is served from the current state.
        """
        info = resource_info(resource)
        if faults:
            self._before("list", info)
        parse_resource_version(resource_version)
        flt = self._filter(info, namespace, label_selector, field_selector)
        items = tuple(o for o in self.storage.items(resource) if flt.matches(o))
        return List(kind=f"{info.kind}List", items=items,
                    metadata=ListMeta(resource_version=str(self.storage.resource_version)))

    def update(self, resource: str, namespace: str, obj: Any, *, status_only: bool = False,
               dry_run: bool = False) -> Any:
        """Replace an object; Conflict (409) if its resourceVersion is stale, "" = unconditional.

        Go: Store.Update (GuaranteedUpdate with a resourceVersion precondition; an unconditional
        update takes the stored version), then rest.BeforeUpdate: the strategy's
        ``PrepareForUpdate`` and the update validation (``ValidatePodUpdate``: a pod's spec may
        change only its images, activeDeadlineSeconds and added tolerations). A main update
        keeps the stored status; ``status_only`` (the ``/status`` subresource) keeps the spec. An
        update that changes nothing writes nothing (etcd3's byte-equality short cut): same
        resourceVersion, no watch event. ``dry_run``: as for :meth:`create`.
        """
        info = resource_info(resource)
        if not dry_run:
            self._before("update_status" if status_only else "update", info)
        self._check_kind(info, obj)
        key = (self._namespace(info, namespace, obj.metadata.namespace), obj.metadata.name)
        old = self._get_or_not_found(info, key)
        rv = obj.metadata.resource_version
        if rv and rv != old.metadata.resource_version:
            raise new_conflict(info.qualified(), key[1], _OPTIMISTIC_LOCK_MSG)
        obj = attrs.evolve(obj, metadata=attrs.evolve(obj.metadata, resource_version=old.metadata.resource_version))
        new = prepare_for_update(info, obj, old, status_only=status_only)
        self._validate(info, new, old, status_only=status_only)
        if new == old or dry_run:
            return old if new == old else new
        if self.enable_garbage_collection and finalizers.should_delete_during_update(new.metadata, old.metadata):
            self._delete_now(info, key)  # Go: deleteForEmptyFinalizers
            return new
        stored = self.storage.update(resource, key, new)
        verb = "update_status" if status_only else "update"
        self._emit("apiserver.update", f"{verb} {resource} {_key_str(key)}", resource=resource,
                   key=_key_str(key), resource_version=stored.metadata.resource_version)
        return stored

    def update_status(self, resource: str, namespace: str, obj: Any, *, dry_run: bool = False) -> Any:
        """PUT .../{name}/status. Go: the ``StatusREST`` of the kind's registry."""
        return self.update(resource, namespace, obj, status_only=True, dry_run=dry_run)

    def delete(self, resource: str, namespace: str, name: str,
               grace_period_seconds: int | None = None, *, dry_run: bool = False,
               options: finalizers.DeleteOptions | None = None) -> Any:
        """Delete an object; pods are deleted gracefully. Returns its state after the call (its
        last state if it is gone).

        Go: Store.Delete with rest.BeforeDelete and podStrategy.CheckGracefulDelete: a bound
        pod with a grace period > 0 (default: its terminationGracePeriodSeconds) only gets
        ``deletionTimestamp = now + grace`` (MODIFIED); an unbound pod or grace 0 is removed at
        once (DELETED). A second delete may only shorten the grace period.
        Differs from Go: the kubelet's final delete is replaced by a timer on the API server's
        process that removes the pod when the grace period is over. ``dry_run``: as for
        :meth:`create` (the answer is the object as the delete would leave it).

        ``options`` (Go: the request's DeleteOptions) carries a UID precondition and, with
        garbage collection on, the propagation policy: the finalizers of :mod:`.finalizers`.
        """
        info = resource_info(resource)
        if not dry_run:
            self._before("delete", info)
        key = (self._namespace(info, namespace), name)
        obj = self._get_or_not_found(info, key)
        if options is not None and options.precondition_uid is not None and options.precondition_uid != obj.metadata.uid:
            raise new_conflict(info.qualified(), name, finalizers.precondition_failed(
                resource, key[0], name, options.precondition_uid, obj.metadata.uid))
        if self.enable_garbage_collection and resource != "pods":
            kept = self._delete_with_finalizers(info, key, obj, options or finalizers.DeleteOptions(), dry_run=dry_run)
            if kept is not None:
                return kept
        grace = 0
        if resource == "pods":
            grace = pod_grace_period(obj, grace_period_seconds)
        meta = obj.metadata
        if meta.deletion_timestamp is not None and meta.deletion_grace_period_seconds is not None:
            if grace >= meta.deletion_grace_period_seconds:
                return obj  # already terminating at least as soon
            if grace > 0:
                start = meta.deletion_timestamp - meta.deletion_grace_period_seconds
                return self._mark_deleting(info, key, obj, start + grace, grace, dry_run=dry_run)
        if grace > 0:
            return self._mark_deleting(info, key, obj, self.now() + grace, grace, dry_run=dry_run)
        return obj if dry_run else self._delete_now(info, key)

    def _delete_with_finalizers(self, info: ResourceInfo, key: Key, obj: Any,
                                options: finalizers.DeleteOptions, *, dry_run: bool = False) -> Any:
        """Go: Store.Delete's garbage-collection branch (updateForGracefulDeletionAndFinalizers for
        a kind without graceful deletion): put the finalizers the options ask for and, while any
        is pending, only mark the object as deleting. The object as it stays (for now), or None
        when it is to be deleted at once."""
        meta = obj.metadata
        if meta.deletion_timestamp is not None:
            return obj  # Go: pendingGraceful — the deletion already runs
        should_update, new_finalizers = finalizers.should_update_finalizers(info.resource, meta.finalizers, options)
        if not should_update and not meta.finalizers:
            return None
        if not new_finalizers:
            return None  # Go: errDeleteNow
        meta = finalizers.mark_as_deleting(attrs.evolve(meta, finalizers=new_finalizers), self.now())
        if dry_run:
            return attrs.evolve(obj, metadata=meta)
        stored = self.storage.update(info.resource, key, attrs.evolve(obj, metadata=meta))
        self._emit("apiserver.delete", f"delete {info.resource} {_key_str(key)} (finalizers {', '.join(new_finalizers)})",
                   resource=info.resource, key=_key_str(key), grace_period_seconds=0,
                   finalizers=list(new_finalizers), resource_version=stored.metadata.resource_version)
        return stored

    def _mark_deleting(self, info: ResourceInfo, key: Key, obj: Any, at: float, grace: int, *,
                       dry_run: bool = False) -> Any:
        meta = attrs.evolve(obj.metadata, deletion_timestamp=at,
                            deletion_grace_period_seconds=grace)
        if dry_run:
            return attrs.evolve(obj, metadata=meta)
        stored = self.storage.update(info.resource, key, attrs.evolve(obj, metadata=meta))
        self._emit("apiserver.delete", f"delete {info.resource} {_key_str(key)} (grace {grace}s)",
                   resource=info.resource, key=_key_str(key), grace_period_seconds=grace,
                   resource_version=stored.metadata.resource_version)
        self.process.go(self._finish_graceful_delete, info, key, meta.uid, at,
                        name=f"graceful-delete {_key_str(key)}")
        return stored

    def _finish_graceful_delete(self, info: ResourceInfo, key: Key, uid: str, at: float) -> None:
        self.runtime.sleep(at - self.now())
        obj = self.storage.get(info.resource, key)
        if (obj is not None and obj.metadata.uid == uid
                and obj.metadata.deletion_timestamp == at):
            self._delete_now(info, key)

    def _delete_now(self, info: ResourceInfo, key: Key) -> Any:
        stored = self.storage.delete(info.resource, key)
        self._emit("apiserver.delete", f"delete {info.resource} {_key_str(key)}",
                   resource=info.resource, key=_key_str(key), grace_period_seconds=0,
                   resource_version=stored.metadata.resource_version)
        return stored

    def bind(self, namespace: str, binding: Any, *, route: str = "bindings", dry_run: bool = False) -> None:
        """POST /api/v1/namespaces/{ns}/bindings (``route="bindings"``, what 1.6's scheduler
        posts) or .../pods/{name}/binding (``route="pods/binding"``): assign a pod to a node.

        1.6 serves both with the same ``BindingREST`` (lines 190-191 of NewLegacyRESTStorage,
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/registry/core/rest/storage_core.go#L91-L235);
        the rules live in :func:`kschedlearn.apiserver.pod_storage.bind`.
        """
        if route not in ("bindings", "pods/binding"):
            raise ValueError(f"apiserver: no binding route {route!r}")
        pod_storage.bind(self, namespace, binding, dry_run=dry_run)

    def evict(self, namespace: str, name: str, delete_options: dict[str, Any] | None, *,
              dry_run: bool = False) -> Any:
        """POST .../pods/{name}/eviction (policy/v1beta1): see :func:`kschedlearn.apiserver.pod_storage.evict`."""
        return pod_storage.evict(self, namespace, name, delete_options, dry_run=dry_run)

    def watch(self, resource: str, namespace: str = "", label_selector: Selector = None,
              field_selector: Selector = None, resource_version: str = "",
              timeout_seconds: float | None = None) -> ServerWatch:
        """Open a watch: events after ``resource_version``, then live ones.

        A watch without one ("" or "0") first gets an ADDED event for every object that matches
        now (in namespace/name order; Go's watch cache lists its store in map order). If events
        after the version already left the history window, the watch delivers one ERROR event
        carrying a 410 Status (``too old resource version: %d (%d)``) and closes.
        Go: Cacher.Watch / watchCache.GetAllEventsSinceThreadUnsafe.
        """
        info = resource_info(resource)
        self._before("watch", info)
        flt = self._filter(info, namespace, label_selector, field_selector)
        rv = parse_resource_version(resource_version)
        deadline = self.now() + timeout_seconds if timeout_seconds else None
        w = ServerWatch(next(self._wids), resource, flt, label_selector=str(label_selector or ""),
                        field_selector=str(field_selector or ""), deadline=deadline,
                        on_deliver=self._on_deliver, on_stop=self._unregister)
        history = self.storage.history(resource)
        too_old = history.too_old_message(rv) if rv else None
        if too_old is not None:
            w.close_when_drained = True
            w.enqueue(Event(ERROR, new_gone(too_old).status()))
        else:
            for event in self.watch_start(resource, flt, rv):
                w.enqueue(event)
            self.watches.append(w)
        self.process.go(w.pump, name=f"watch-{w.wid} {resource}")
        self._emit("apiserver.watch", f"watch {resource} from rv {resource_version or 'now'}"
                   + (f": {too_old}" if too_old else ""), watch=w.wid, resource=resource,
                   resource_version=resource_version, too_old=too_old is not None)
        return w

    def watch_start(self, resource: str, flt: WatchFilter, rv: int) -> list[Event]:
        """What a new watch from ``rv`` gets first: the stored changes after it, or for 0 the
        current objects as ADDED (Go: ``watchCache.GetAllEventsSinceThreadUnsafe``)."""
        if rv == 0:
            return [Event(ADDED, o) for o in self.storage.items(resource) if flt.matches(o)]
        return [e for e in (flt.translate(entry) for entry in self.storage.history(resource).since(rv)) if e]

    # -- watch plumbing ------------------------------------------------------------------
    def _fan_out(self, resource: str, entry: HistoryEntry) -> None:
        for w in list(self.watches):
            if w.resource == resource:
                event = w.filter.translate(entry)
                if event is not None:
                    w.enqueue(event)

    def _unregister(self, w: ServerWatch) -> None:
        if w in self.watches:
            self.watches.remove(w)

    def _on_deliver(self, w: ServerWatch, event: Event) -> None:
        obj = event.object
        what = (_key_str((obj.metadata.namespace, obj.metadata.name))
                if event.type != ERROR else obj.message)
        self._emit("apiserver.watch_event", f"watch-{w.wid} {event.type} {what}", watch=w.wid,
                   resource=w.resource, type=event.type, object=what)

    # -- fault hooks on watches ----------------------------------------------------------
    def close_watches(self, resource: str | None = None) -> int:
        """Close every open watch (of ``resource``) now, dropping undelivered events."""
        victims = [w for w in self.watches if resource is None or w.resource == resource]
        for w in victims:
            w.stop()
        return len(victims)

    def stall_watches(self, duration: float, resource: str | None = None) -> int:
        """Hold back events of open watches for ``duration`` seconds, then release in order."""
        victims = [w for w in self.watches if resource is None or w.resource == resource]
        for w in victims:
            w.stall(self.now() + duration)
        return len(victims)

    def set_watch_window(self, n: int, resource: str | None = None) -> None:
        """Keep only the last ``n`` events per resource (older RVs become "too old")."""
        if n < 0:
            raise ValueError(f"apiserver: watch window must be >= 0, got {n}")
        self.storage.set_watch_window(n, resource)

    # -- kschedlearn-only ----------------------------------------------------------------
    def debug_state(self) -> dict[str, Any]:
        """Plain data: every stored object (manifest form), open watches, pending faults."""
        return {
            "resource_version": str(self.storage.resource_version),
            "objects": {
                resource: {_key_str(_obj_key(o)): o.to_dict() for o in self.storage.items(resource)}
                for resource in sorted(self.storage.objects)
                if self.storage.objects[resource]
            },
            "watches": [
                {"id": w.wid, "resource": w.resource, "namespace": w.filter.namespace,
                 "label_selector": w.label_selector, "field_selector": w.field_selector,
                 "pending": len(w.pending), "delivered": w.delivered,
                 "stalled_until": w.stalled_until}
                for w in self.watches
            ],
            "faults": self.faults.describe(),
        }


def _obj_key(obj: Any) -> Key:
    return (obj.metadata.namespace, obj.metadata.name)


def _key_str(key: Key) -> str:
    return f"{key[0]}/{key[1]}" if key[0] else key[1]


__all__ = ["APIServer", "StatusError"]
