"""A recorded event is a TraceEvent like one built by ``TraceEvent(...)``.

kschedlearn-only. The tracer builds its events without attrs' frozen ``__init__`` (plain slot
stores into a class of the same layout, then ``__class__`` assignment: ``trace/events.py``
``_new_event``); what comes out must be indistinguishable from ``TraceEvent(...)``: same type,
same field values (the very objects passed), equal, same repr, frozen, weakly referenceable.
"""

from __future__ import annotations

import weakref

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kschedlearn.sim import Runtime
from kschedlearn.trace import Frame, ObservedCall, TraceEvent, Tracer, emit
from kschedlearn.trace.events import _EventFields, _new_event

_FIELDS = [a.name for a in attrs.fields(TraceEvent)]

_values = st.tuples(
    st.integers(min_value=0), st.floats(allow_nan=False), st.text(), st.text(), st.text(), st.text(), st.text(),
    st.text(), st.dictionaries(st.text(), st.integers() | st.lists(st.text())),
    st.lists(st.builds(Frame, st.text(), st.text(), st.integers())).map(tuple),
    st.none() | st.just(object()),
    st.none() | st.builds(ObservedCall, st.text(), st.text(), st.integers(), st.sampled_from(["returned", "raised"])),
)


def test_the_layout_twin_has_tracevents_fields_in_order() -> None:
    assert list(_EventFields.__slots__) == _FIELDS
    assert _EventFields.__bases__ == TraceEvent.__bases__


@given(_values)
def test_new_event_is_a_traceevent_equal_to_the_attrs_built_one(values: tuple) -> None:
    built = TraceEvent(*values)
    event = _new_event(*values)
    assert type(event) is TraceEvent
    assert event == built and repr(event) == repr(built)
    for name, value in zip(_FIELDS, values):
        assert getattr(event, name) is value
    assert weakref.ref(event)() is event
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        event.seq = 1  # type: ignore[misc]


def test_recorded_events_equal_attrs_built_ones() -> None:
    rt = Runtime(seed=0)
    rt.tracer = Tracer()
    rt.run_fn(lambda: emit("log", "hello", data={"v": 1}))
    (event,) = rt.tracer.events
    rebuilt = TraceEvent(*(getattr(event, name) for name in _FIELDS))
    assert type(event) is TraceEvent and event == rebuilt and event.to_json() == rebuilt.to_json()
    assert attrs.asdict(event, recurse=False) == attrs.asdict(rebuilt, recurse=False)
