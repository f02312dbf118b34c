"""Solutions for notebook 04: the informer (Reflector → DeltaFIFO → processLoop → handlers).

Go: func NewInformer (its Process func literal, lines 256-280)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/controller.go#L220-L283
and staging/src/k8s.io/client-go/tools/cache/reflector.go,
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/reflector.go#L339-L407
"""

from __future__ import annotations

from typing import Any

from kschedlearn.client_go.tools.cache.delta_fifo import ADDED, DELETED, SYNC, UPDATED, Deltas


def informer_process(client_state: Any, handler: Any, deltas: Deltas) -> None:
    """Apply one key's ``deltas`` to the informer's store and call the handler for each.

    Go: the ``Process`` func literal inside NewInformer (NewIndexerInformer has the same one),
    controller.go#L220-L283.
    ``deltas`` is a tuple of ``Delta(type, object)``, **oldest first**; ``type`` is one of
    ``SYNC``, ``ADDED``, ``UPDATED``, ``DELETED``. ``client_state`` is the informer's store
    (``get(obj) -> (old, exists)``, ``add``, ``update``, ``delete``); ``handler`` has
    ``on_add(obj)``, ``on_update(old, new)``, ``on_delete(obj)``. For Sync/Added/Updated:
    if the store already has the object, update it and call ``on_update(old, new)``, else add
    it and call ``on_add``. For Deleted: delete it and call ``on_delete``. Always change the
    store first, then call the handler.
    """
    for d in deltas:
        if d.type in (SYNC, ADDED, UPDATED):
            old, exists = client_state.get(d.object)
            if exists:
                client_state.update(d.object)
                handler.on_update(old, d.object)
            else:
                client_state.add(d.object)
                handler.on_add(d.object)
        elif d.type == DELETED:
            client_state.delete(d.object)
            handler.on_delete(d.object)


def reflector_handle_event(reflector: Any, event: Any, resource_version: list[str]) -> bool:
    """Apply one watch event to the reflector's store and remember its resourceVersion.

    Go: the ``case event, ok := <-w.ResultChan()`` branch of (*Reflector).watchHandler,
    reflector.go#L339-L407. ``event`` has ``type`` (``"ADDED"``, ``"MODIFIED"``, ``"DELETED"``;
    ERROR events never get here - the loop raises them so ListAndWatch relists) and ``object``.
    An object that is not of ``reflector.expected_type`` is skipped (return False). Otherwise
    ADDED → ``reflector.store.add``, MODIFIED → ``update``, DELETED → ``delete`` (an unknown type
    only logs); then, in every case, the object's ``metadata.resource_version`` becomes
    ``resource_version[0]`` (where the next watch resumes) and
    ``reflector._set_last_sync_resource_version(rv)``; return True.
    """
    obj = event.object
    if reflector.expected_type is not None and type(obj) is not reflector.expected_type:
        return False
    new_resource_version = obj.metadata.resource_version
    if event.type == "ADDED":
        reflector.store.add(obj)
    elif event.type == "MODIFIED":
        reflector.store.update(obj)
    elif event.type == "DELETED":
        reflector.store.delete(obj)
    resource_version[0] = new_resource_version
    reflector._set_last_sync_resource_version(new_resource_version)
    return True
