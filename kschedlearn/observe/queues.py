"""Trace points of the FIFO / DeltaFIFO queues: ``fifo.<op>`` and ``delta_fifo.<op>``.

Go: none — kschedlearn-only (DESIGN principle 5: the queue code carries no notebook lines).
:func:`observe_queue` puts probes on one queue's methods: after ``add``, ``update``,
``delete``, ``replace`` (and ``resync``) the event carries the key and the key line after the
operation; ``pop`` is announced when the item leaves the queue, just before it is processed
(Pop runs the process function under its lock), so a trace reads pop → handler calls.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from kschedlearn.client_go.tools.cache.delta_fifo import DeltaFIFO, Deltas
from kschedlearn.client_go.tools.cache.fifo import FIFO
from kschedlearn.observe.points import point
from kschedlearn.observe.views import queue_state
from kschedlearn.observe.wrap import Call, on_method
from kschedlearn.trace import register_stage
from kschedlearn.trace.stages import CLIENT_GO_CACHE

_OPS = {
    "fifo": (FIFO, ("add", "update", "delete", "pop", "replace"), "fifo.go"),
    "delta_fifo": (DeltaFIFO, ("add", "update", "delete", "pop", "replace", "resync"), "delta_fifo.go"),
}
# The exact v1.6.1 line range of each queue method (declaration through closing brace).
_RANGES = {
    "fifo": {"add": "#L137-L153", "update": "#L185-L188", "delete": "#L190-L203",
             "pop": "#L255-L293", "replace": "#L295-L326"},
    "delta_fifo": {"add": "#L172-L179", "update": "#L181-L187", "delete": "#L189-L223",
                   "pop": "#L414-L460", "replace": "#L462-L535", "resync": "#L537-L549"},
}
for _prefix, (_cls, _ops, _file) in _OPS.items():
    for _op in _ops:
        register_stage(f"{_prefix}.{_op}", CLIENT_GO_CACHE + _file + _RANGES[_prefix][_op],
                       f"{_cls.__name__}.{_op}: the queue changed (keys shown after the operation).")


#: the queues already observed (a queue's trace points are attached once)
_OBSERVED: weakref.WeakSet[Any] = weakref.WeakSet()


def _key_of(queue: Any, obj: Any) -> str:
    try:
        return queue.key_of(obj) if isinstance(queue, DeltaFIFO) else queue._key_func(obj)
    except Exception:  # noqa: BLE001 - trace data only
        return "<no key>"


def _data(queue: Any, name: str, op: str, args: tuple[Any, ...], result: Any) -> dict[str, Any]:
    state = queue_state(queue)
    data: dict[str, Any] = {"queue": name, "queue_keys": list(state.queue)}
    if op in ("add", "update", "delete"):
        data["key"] = _key_of(queue, args[0])
    elif op == "pop":
        data["key"] = _key_of(queue, result)
        if isinstance(result, Deltas):
            data["deltas"] = [d.type for d in result]
    elif op == "replace":
        data["count"] = len(state.items)
    if isinstance(queue, DeltaFIFO) and "key" in data and data["key"] in state.items:
        data["deltas"] = [d.type for d in state.items[data["key"]]]
    return data


def _after(name: str, prefix: str, op: str, method: Callable[..., Any]) -> Callable[[Call], None]:
    def announce(call: Call) -> None:
        data = _data(call.receiver, name, op, call.args, call.result)
        point(f"{prefix}.{op}", f"{name}.{op} {data.get('key', '')}".rstrip(), data, method)

    return announce


def _popping(name: str, prefix: str) -> Callable[[Callable[..., Any], Call], Any]:
    """Around ``pop(process)``: announce the item as ``process`` receives it."""

    def around(proceed: Callable[..., Any], call: Call) -> Any:
        queue = call.receiver
        process = call.args[0]

        def announced_process(item: Any) -> Any:
            data = _data(queue, name, "pop", (), item)
            point(f"{prefix}.pop", f"{name}.pop {data.get('key', '')}".rstrip(), data, None)
            return process(item)

        return proceed(announced_process, *call.args[1:], **call.kwargs)

    return around


def observe_queue(queue: FIFO | DeltaFIFO, name: str) -> FIFO | DeltaFIFO:
    """Make this one ``queue`` emit a trace event on every operation (once); returns it."""
    if queue in _OBSERVED:
        return queue
    _OBSERVED.add(queue)
    prefix = "delta_fifo" if isinstance(queue, DeltaFIFO) else "fifo"
    cls = _OPS[prefix][0]
    for op in _OPS[prefix][1]:
        if op == "pop":
            on_method(queue, op, around=_popping(name, prefix))
        else:
            on_method(queue, op, after=_after(name, prefix, op, getattr(cls, op)))
    return queue


__all__ = ["observe_queue"]
