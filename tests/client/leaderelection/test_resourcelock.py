"""Tests for the resource lock: the record's JSON form and the Endpoints lock.

Go: pkg/client/leaderelection/resourcelock/{interface,endpointslock}.go (no Go tests in 1.6).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from kschedlearn.api.v1 import Endpoints, ObjectMeta
from kschedlearn.apimachinery.api.errors import ConflictError, NotFoundError
from kschedlearn.apiserver.clientset import new_for_server
from kschedlearn.apiserver.server import APIServer
from kschedlearn.client.leaderelection.resourcelock import (
    ENDPOINT_NOT_INITIALIZED,
    LEADER_ELECTION_RECORD_ANNOTATION_KEY,
    EndpointsLock,
    LeaderElectionRecord,
    LockNotInitializedError,
    RecordDecodeError,
    ResourceLockConfig,
    new,
)
from kschedlearn.sim import Runtime


def test_annotation_key() -> None:
    assert LEADER_ELECTION_RECORD_ANNOTATION_KEY == "control-plane.alpha.kubernetes.io/leader"


def test_record_json_is_go_marshal_output() -> None:
    rec = LeaderElectionRecord(holder_identity="host-1", lease_duration_seconds=15, acquire_time=0.0,
                               renew_time=61.75, leader_transitions=2)
    assert rec.to_json() == (
        '{"holderIdentity":"host-1","leaseDurationSeconds":15,'
        '"acquireTime":"2017-04-03T00:00:00Z","renewTime":"2017-04-03T00:01:01Z","leaderTransitions":2}'
    )


def test_zero_record_marshals_null_times() -> None:
    assert LeaderElectionRecord().to_json() == (
        '{"holderIdentity":"","leaseDurationSeconds":0,"acquireTime":null,"renewTime":null,"leaderTransitions":0}'
    )


@pytest.mark.parametrize("text, expected", [
    pytest.param('{"holderIdentity":"bing"}', LeaderElectionRecord(holder_identity="bing"), id="only holder"),
    pytest.param('{"holderIdentity":"a","leaseDurationSeconds":15,"acquireTime":"2017-04-03T00:00:10Z",'
                 '"renewTime":"2017-04-03T01:00:00Z","leaderTransitions":3,"extra":1}',
                 LeaderElectionRecord(holder_identity="a", lease_duration_seconds=15, acquire_time=10.0,
                                      renew_time=3600.0, leader_transitions=3), id="full record, unknown key ignored"),
    pytest.param('{"acquireTime":null}', LeaderElectionRecord(), id="null time"),
    pytest.param("{}", LeaderElectionRecord(), id="empty object"),
])
def test_record_from_json(text: str, expected: LeaderElectionRecord) -> None:
    assert LeaderElectionRecord.from_json(text) == expected


@pytest.mark.parametrize("text, message", [  # Go 1.7's json.Unmarshal texts
    pytest.param("not json", "invalid character 'o' in literal null (expecting 'u')", id="not json"),
    pytest.param("", "unexpected end of JSON input", id="empty"),
    pytest.param("[1]", "json: cannot unmarshal array into Go value of type resourcelock.LeaderElectionRecord",
                 id="array"),
    pytest.param('{"holderIdentity":5}', "json: cannot unmarshal number into Go value of type string",
                 id="holder not string"),
    pytest.param('{"leaseDurationSeconds":"15s"}', "json: cannot unmarshal string into Go value of type int",
                 id="lease not int"),
    pytest.param('{"leaseDurationSeconds":1.5}', "json: cannot unmarshal number 1.5 into Go value of type int",
                 id="lease not integral"),
    pytest.param('{"LEADERTRANSITIONS":1e3}', "json: cannot unmarshal number 1e3 into Go value of type int",
                 id="exponent is not an integer literal"),
    pytest.param('{"renewTime":"yesterday"}',
                 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"',
                 id="bad time"),
    pytest.param('{"renewTime":5}',
                 'parsing time "" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "2006"',
                 id="time not a string"),
])
def test_record_from_json_errors_are_go_json_errors(text: str, message: str) -> None:
    with pytest.raises(RecordDecodeError) as info:
        LeaderElectionRecord.from_json(text)
    assert str(info.value) == message


@settings(max_examples=examples(60), deadline=None)
@given(
    holder=st.text(max_size=12),
    lease=st.integers(0, 10**6),
    acquire=st.one_of(st.none(), st.integers(-10**6, 10**8).map(float)),
    renew=st.one_of(st.none(), st.integers(-10**6, 10**8).map(float)),
    transitions=st.integers(0, 10**6),
)
def test_record_round_trips_whole_seconds(holder: str, lease: int, acquire: float | None,
                                          renew: float | None, transitions: int) -> None:
    rec = LeaderElectionRecord(holder_identity=holder, lease_duration_seconds=lease, acquire_time=acquire,
                               renew_time=renew, leader_transitions=transitions)
    assert LeaderElectionRecord.from_json(rec.to_json()) == rec


def test_fractional_times_are_truncated_like_go_rfc3339() -> None:
    rec = LeaderElectionRecord(renew_time=12.999)
    assert LeaderElectionRecord.from_json(rec.to_json()).renew_time == 12.0


def _lock(server: APIServer, identity: str = "host-1") -> EndpointsLock:
    return EndpointsLock(endpoints_meta=ObjectMeta(namespace="kube-system", name="kube-scheduler"),
                         client=new_for_server(server), lock_config=ResourceLockConfig(identity=identity))


def test_endpoints_lock_get_create_update_against_the_api_server() -> None:
    server = APIServer(Runtime())
    lock = _lock(server)
    assert lock.describe() == "kube-system/kube-scheduler"
    assert lock.identity() == "host-1"
    with pytest.raises(LockNotInitializedError) as info:
        lock.update(LeaderElectionRecord())
    assert str(info.value) == ENDPOINT_NOT_INITIALIZED == "endpoint not initialized, call get or create first"
    with pytest.raises(NotFoundError):
        lock.get()
    rec = LeaderElectionRecord(holder_identity="host-1", lease_duration_seconds=15, acquire_time=0.0, renew_time=0.0)
    lock.create(rec)
    stored = server.get("endpoints", "kube-system", "kube-scheduler")
    assert stored.metadata.annotations == {LEADER_ELECTION_RECORD_ANNOTATION_KEY: rec.to_json()}
    assert stored.subsets == ()
    assert lock.get() == rec
    renewed = LeaderElectionRecord(holder_identity="host-1", lease_duration_seconds=15, acquire_time=0.0, renew_time=2.0)
    lock.update(renewed)
    assert _lock(server, "other").get() == renewed


def test_endpoints_lock_update_conflicts_after_someone_else_wrote() -> None:
    server = APIServer(Runtime())
    a, b = _lock(server, "a"), _lock(server, "b")
    a.create(LeaderElectionRecord(holder_identity="a"))
    b.get()
    a.get()
    a.update(LeaderElectionRecord(holder_identity="a", leader_transitions=0, renew_time=2.0))
    with pytest.raises(ConflictError):
        b.update(LeaderElectionRecord(holder_identity="b", leader_transitions=1))


def test_endpoints_lock_get_without_annotation_is_empty_record() -> None:
    server = APIServer(Runtime())
    server.create("endpoints", "kube-system", Endpoints(metadata=ObjectMeta(name="kube-scheduler", namespace="kube-system")))
    assert _lock(server).get() == LeaderElectionRecord()


def test_new_lock_types() -> None:
    server = APIServer(Runtime())
    rlc = ResourceLockConfig(identity="x")
    lock = new("endpoints", "kube-system", "kube-scheduler", new_for_server(server), rlc)
    assert isinstance(lock, EndpointsLock)
    assert lock.describe() == "kube-system/kube-scheduler"
    with pytest.raises(ValueError) as info:
        new("configmaps", "kube-system", "kube-scheduler", None, rlc)
    assert str(info.value) == "Invalid lock-type configmaps"
