"""The protobuf codec: wire primitives, the special messages, gogo's error texts, every served object.

Go: none — kschedlearn-only. Byte-level expectations are protobuf's wire format (varints, keys
``number << 3 | wire type``, length-delimited fields) and the hand-written marshalling of 1.6's
``metav1.Time``, ``resource.Quantity`` and ``intstr.IntOrString``; the error texts are gogo's
generated ``Unmarshal``'s and the 1.6 protobuf serializer's (checked against the real v1.6.1
apiserver in ``test_bad_input_corpus_http2.py``).
"""

from __future__ import annotations

import pytest

from kschedlearn import Simulation
from kschedlearn.apiserver.rest import protobuf
from kschedlearn.apiserver.rest.protobuf_schema import KINDS, MESSAGES
from kschedlearn.apiserver.rest.protobuf_wire import ProtobufError, decode_message, encode_message, fields


def test_every_message_a_field_names_is_in_the_table() -> None:
    scalars = {"string", "int32", "int64", "bool", "bytes"}
    for name in MESSAGES:
        for f in fields(name):
            assert f.type in scalars or f.type in MESSAGES, (name, f)
    assert set(KINDS.values()) <= set(MESSAGES)


@pytest.mark.parametrize(("message", "value", "wire"), [
    ("meta.ObjectMeta", {"name": "a"}, b"\x0a\x01a"),
    ("meta.ObjectMeta", {"generation": 300}, b"\x38\xac\x02"),
    ("meta.ObjectMeta", {"generation": -1}, b"\x38" + b"\xff" * 9 + b"\x01"),  # 64-bit two's complement
    ("meta.ObjectMeta", {"labels": {"b": "2", "a": "1"}},  # map entries in key order, as gogo writes them
     b"\x5a\x06\x0a\x01a\x12\x011" + b"\x5a\x06\x0a\x01b\x12\x012"),
    ("v1.ResourceRequirements", {"requests": {"cpu": "100m"}}, b"\x12\x0d\x0a\x03cpu\x12\x06\x0a\x04100m"),
    ("v1.ContainerPort", {"containerPort": 80, "protocol": "TCP"}, b"\x18\x50\x22\x03TCP"),
    ("v1.ServicePort", {"targetPort": 8080}, b"\x22\x05\x08\x00\x10\x90\x3f"),
    ("v1.ServicePort", {"targetPort": "http"}, b"\x22\x08\x08\x01\x1a\x04http"),
    ("meta.ObjectMeta", {"creationTimestamp": "2017-04-03T00:00:01.5Z"},
     b"\x42\x0c\x08\x81\xa1\x86\xc7\x05\x10\x80\xca\xb5\xee\x01"),  # seconds 1491177601, nanos 5e8
    ("v1.Volume", {"name": "v", "emptyDir": {}}, b"\x0a\x01v\x12\x02\x12\x00"),  # volumeSource inlined in JSON
    ("v1.PodSpec", {"hostNetwork": True}, b"\x58\x01"),
])
def test_wire_bytes(message: str, value: dict, wire: bytes) -> None:
    assert encode_message(message, value) == wire
    assert decode_message(message, wire) == value


def test_unknown_fields_are_skipped_and_packed_varints_read() -> None:
    # field 99 (varint), field 98 (fixed64), field 97 (bytes), then the name
    wire = b"\x98\x06\x05" + b"\x91\x06" + b"\x00" * 8 + b"\x8a\x06\x02xy" + b"\x0a\x01a"
    assert decode_message("meta.ObjectMeta", wire) == {"name": "a"}
    packed = b"\x22\x02\x07\x08"  # PodSecurityContext.supplementalGroups (4) packed
    assert decode_message("v1.PodSecurityContext", packed) == {"supplementalGroups": [7, 8]}


@pytest.mark.parametrize(("wire", "error"), [
    (b"\x0a\x05ab", "unexpected EOF"),
    (b"\x0a", "unexpected EOF"),
    (b"\x08\x01", "proto: wrong wireType = 0 for field Name"),
    (b"\x3a\x00", "proto: wrong wireType = 2 for field Generation"),
    (b"\x0c", "proto: ObjectMeta: wiretype end group for non-group"),
    (b"\x00", "proto: ObjectMeta: illegal tag 0 (wire type 0)"),
    (b"\xff" * 11, "proto: integer overflow"),
    (b"\x9f\x06", "proto: illegal wireType 7"),
    (b"\x0a" + b"\xff" * 9 + b"\x01", "proto: negative length found during unmarshaling"),
])
def test_gogo_error_texts(wire: bytes, error: str) -> None:
    with pytest.raises(ProtobufError) as info:
        decode_message("meta.ObjectMeta", wire)
    assert str(info.value) == error


def test_a_key_the_schema_lacks_is_an_error_not_a_loss() -> None:
    with pytest.raises(ProtobufError, match="the protobuf schema of v1.PodSpec has no field 'frob'"):
        encode_message("v1.PodSpec", {"frob": 1})
    assert encode_message("v1.Pod", {"apiVersion": "v1", "kind": "Pod"}) == b""  # list items carry these


def test_envelope_and_watch_frame() -> None:
    obj = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}}
    data = protobuf.encode_object(obj)
    assert data.startswith(b"k8s\x00\x0a\x0a\x0a\x02v1\x12\x04Node")
    envelope = protobuf.decode_envelope(data)
    assert (envelope.api_version, envelope.kind) == ("v1", "Node")
    assert protobuf.decode_object("v1.Node", envelope) == obj
    frame = protobuf.watch_frame("ADDED", obj)
    assert int.from_bytes(frame[:4], "big") == len(frame) - 4
    assert list(protobuf.read_watch_frames(frame * 2)) == [("ADDED", obj), ("ADDED", obj)]
    with pytest.raises(ProtobufError, match="unexpected EOF"):
        list(protobuf.read_watch_frames(frame[:-1]))


@pytest.fixture(scope="module")
def replayed_dump() -> Simulation:
    sim = Simulation.from_manifests("kschedlearn/scenarios/data/dumps/sample-cluster.yaml", seed=0, snapshots=False)
    sim.run_for(1)
    return sim


def test_every_object_of_a_replayed_dump_round_trips(replayed_dump: Simulation) -> None:
    """No field kschedlearn models is missing from the schema tables (nodes, pods with affinity,
    services, ReplicaSets, StatefulSets, PVs and PVCs of a 12-node dump, and its events)."""
    storage = replayed_dump.world.api.storage
    seen = set()
    for resource in storage.objects:
        for obj in storage.items(resource):
            d = obj.to_dict()
            envelope = protobuf.decode_envelope(protobuf.encode_object(d))
            assert protobuf.decode_object(protobuf.message_for(d["apiVersion"], d["kind"]) or "", envelope) == d
            seen.add(d["kind"])
    assert {"Node", "Pod", "Service", "ReplicaSet", "StatefulSet", "PersistentVolume", "PersistentVolumeClaim"} <= seen


def test_an_eviction_in_protobuf_deletes_as_1_6_did() -> None:
    """EvictionREST with no PodDisruptionBudget: with the body's DeleteOptions the pod gets its grace
    period; without any (nil options) 1.6 deletes it at once, even a bound one."""
    from kschedlearn.apiserver import APIServer
    from kschedlearn.apiserver.rest import RestHandler, RestRequest
    from kschedlearn.sim import Runtime

    handler = RestHandler(APIServer(Runtime(seed=0)))
    api = handler.api
    for name in ("a", "b"):
        pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name},
               "spec": {"nodeName": "node-1", "containers": [{"name": "c", "image": "nginx"}]}}
        created = handler.handle(RestRequest.from_target("POST", "/api/v1/namespaces/default/pods",
                                                         body=protobuf.encode_object(pod), content_type=protobuf.MEDIA_TYPE))
        assert created.code == 201

    def evict(name: str, options: dict | None) -> int:
        body = {"apiVersion": "policy/v1beta1", "kind": "Eviction", "metadata": {"name": name}}
        if options is not None:
            body["deleteOptions"] = options
        answer = handler.handle(RestRequest.from_target("POST", f"/api/v1/namespaces/default/pods/{name}/eviction",
                                                        body=protobuf.encode_object(body),
                                                        content_type=protobuf.MEDIA_TYPE,
                                                        accept=protobuf.MEDIA_TYPE))
        assert answer.content_type == protobuf.MEDIA_TYPE
        return answer.code

    assert evict("a", {}) == 201
    marked = api.storage.get("pods", ("default", "a"))
    assert marked.metadata.deletion_grace_period_seconds == 30 and marked.metadata.deletion_timestamp == 30.0
    assert evict("b", None) == 201
    assert api.storage.get("pods", ("default", "b")) is None
