"""Observe FIFO / DeltaFIFO operations from outside, as trace events.

Go: none - kschedlearn-only (DESIGN principle 5: the queue code carries no notebook lines).
``instrument_queue(queue, name)`` replaces the queue *instance's* methods with wrappers that
call the original and then emit ``fifo.<op>`` or ``delta_fifo.<op>`` with compact data: the key
and the queue's keys after the operation (for DeltaFIFO pops, the popped Delta types). A queue
that is never instrumented pays nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from kschedlearn.client_go.tools.cache.delta_fifo import DeltaFIFO, Deltas
from kschedlearn.client_go.tools.cache.fifo import FIFO
from kschedlearn.sim.runtime import current_goroutine
from kschedlearn.trace import emit, observed_call, register_stage
from kschedlearn.trace.stages import CLIENT_GO_CACHE

_OPS = {
    "fifo": (FIFO, ("add", "update", "delete", "pop", "replace"), "fifo.go"),
    "delta_fifo": (DeltaFIFO, ("add", "update", "delete", "pop", "replace", "resync"),
                   "delta_fifo.go"),
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


def _key_of(queue: Any, obj: Any) -> str:
    try:
        return queue.key_of(obj) if isinstance(queue, DeltaFIFO) else queue._key_func(obj)
    except Exception:  # noqa: BLE001 - trace data only
        return "<no key>"


def _recorded(stage: str) -> bool:
    """Whether ``emit(stage)`` here would record: the queue's picture is computed only then (it
    is as large as the queue — an informer's first list of 150,000 pods would make each pop cost
    the whole queue)."""
    g = current_goroutine()
    tracer = g.runtime.tracer if g is not None else None
    return tracer is not None and tracer.wants(stage)


def _data(queue: Any, name: str, op: str, args: tuple[Any, ...], result: Any) -> dict[str, Any]:
    state = queue.debug_state()
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


def _wrap(name: str, prefix: str, op: str, original: Callable[..., Any]) -> Callable[..., Any]:
    if op == "pop":
        return _wrap_pop(name, prefix, original)
    observed = observed_call(original, "returned")

    @functools.wraps(original)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        result = original(self, *args, **kwargs)
        if not _recorded(f"{prefix}.{op}"):
            return result
        data = _data(self, name, op, args, result)
        emit(f"{prefix}.{op}", f"{name}.{op} {data.get('key', '')}".rstrip(), data=data, observed=observed)
        return result

    return wrapper


def _wrap_pop(name: str, prefix: str, original: Callable[..., Any]) -> Callable[..., Any]:
    """Emit ``<prefix>.pop`` when the item leaves the queue, *before* it is processed, so the
    trace reads pop → handler calls (Pop runs the process function under its lock)."""

    @functools.wraps(original)
    def wrapper(self: Any, process: Callable[[Any], Any]) -> Any:
        def traced_process(item: Any) -> Any:
            if not _recorded(f"{prefix}.pop"):
                return process(item)
            data = _data(self, name, "pop", (), item)
            emit(f"{prefix}.pop", f"{name}.pop {data.get('key', '')}".rstrip(), data=data)
            return process(item)

        return original(self, traced_process)

    return wrapper


def instrument_queue(queue: FIFO | DeltaFIFO, name: str) -> FIFO | DeltaFIFO:
    """Make ``queue`` (this instance only, in place) emit a trace event on every operation.

    The queues are slotted attrs classes, so the instance's class is swapped for a generated
    subclass whose methods wrap the originals (same slots, so the swap is allowed); everyone
    already holding the queue sees the change. Returns the same queue; idempotent.
    """
    base = type(queue)
    if getattr(base, "_kschedlearn_instrumented", False):
        return queue
    prefix = "delta_fifo" if isinstance(queue, DeltaFIFO) else "fifo"
    namespace: dict[str, Any] = {"__slots__": (), "_kschedlearn_instrumented": True,
                                 "_kschedlearn_name": name}
    for op in _OPS[prefix][1]:
        namespace[op] = _wrap(name, prefix, op, getattr(base, op))
    queue.__class__ = type(f"Instrumented{base.__name__}", (base,), namespace)
    return queue


def uninstrument_queue(queue: FIFO | DeltaFIFO) -> FIFO | DeltaFIFO:
    """Undo ``instrument_queue`` (restore the original class)."""
    cls = type(queue)
    if getattr(cls, "_kschedlearn_instrumented", False):
        queue.__class__ = cls.__mro__[1]
    return queue


__all__ = ["instrument_queue", "uninstrument_queue"]
