"""load_manifests: multi-document YAML into objects, with file/document-prefixed errors."""

from __future__ import annotations

import textwrap

import pytest

from kschedlearn.api import v1
from kschedlearn.api.errors import ManifestError

SCENARIO = textwrap.dedent(
    """\
    apiVersion: v1
    kind: Node
    metadata:
      name: node-1
      labels: {kubernetes.io/hostname: node-1}
    status:
      allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
    ---
    # an empty document is skipped but still counted
    ---
    apiVersion: v1
    kind: Pod
    metadata:
      name: web-1
      namespace: default
      creationTimestamp: 2017-04-03T00:00:30Z
    spec:
      containers:
      - name: nginx
        image: nginx
        resources:
          requests: {cpu: 500m, memory: 1Gi}
    ---
    apiVersion: v1
    kind: List
    items:
    - apiVersion: v1
      kind: Service
      metadata: {name: web, namespace: default}
      spec: {selector: {app: web}}
    - apiVersion: extensions/v1beta1
      kind: ReplicaSet
      metadata: {name: web, namespace: default}
      spec:
        selector: {matchLabels: {app: web}}
    """
)


def test_load_multi_document_text():
    objs = v1.load_manifests(SCENARIO)
    assert [type(o).__name__ for o in objs] == ["Node", "Pod", "Service", "ReplicaSet"]
    node, pod, svc, rs = objs
    assert node.status.allocatable["cpu"].milli_value() == 4000
    assert pod.metadata.creation_timestamp == 30.0  # YAML timestamp -> simulated seconds
    assert pod.spec.containers[0].resources.requests["memory"].value() == 1024**3
    assert svc.spec.selector == {"app": "web"}
    assert rs.spec.selector.match_labels == {"app": "web"}


def test_load_from_file_path(tmp_path):
    path = tmp_path / "scenario.yaml"
    path.write_text(SCENARIO)
    assert len(v1.load_manifests(path)) == 4
    assert len(v1.load_manifests(str(path))) == 4


def _error(text_or_path):
    with pytest.raises(ManifestError) as info:
        v1.load_manifests(text_or_path)
    return str(info.value)


def test_field_error_names_file_and_document(tmp_path):
    path = tmp_path / "scenario.yaml"
    path.write_text(
        textwrap.dedent(
            """\
            kind: Node
            metadata: {name: n1}
            ---
            kind: Pod
            metadata: {name: web-1, namespace: default}
            spec:
              containers:
              - resources: {requests: {cpu: 12Q}}
            """
        )
    )
    assert _error(path) == (
        f'{path}: document 2: Pod default/web-1: spec.containers[0].resources.requests.cpu: invalid quantity "12Q"'
    )


def test_unknown_kind():
    text = "kind: Pod\nmetadata: {name: a}\n---\nkind: Job\nmetadata: {name: web, namespace: default}\n"
    assert _error(text) == (
        'document 2: Job default/web: kind: unknown kind "Job" (known: Binding, DaemonSet, Deployment, Endpoints, '
        "Event, Node, PersistentVolume, PersistentVolumeClaim, Pod, ReplicaSet, ReplicationController, Service, "
        "StatefulSet)"
    )


def test_missing_kind():
    assert _error("metadata: {name: a}\n") == "document 1: <no kind> a: kind: missing"


def test_document_not_a_map():
    assert _error("kind: Pod\n---\n- a\n- b\n") == "document 2: expected a manifest map, got list"


def test_yaml_syntax_error_names_file_and_document(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("kind: Node\nmetadata: {name: n1}\n---\nkind: Pod\nmetadata:\n  name: [unclosed\n")
    message = _error(path)
    assert message.startswith(f"{path}: document 2: invalid YAML at line 7, column 1: ")
    assert "expected ',' or ']'" in message


def test_list_item_error_names_item():
    text = "kind: List\nitems:\n- kind: Pod\n  metadata: {name: a}\n  spec: {nodeName: 5}\n"
    assert _error(text) == "document 1: items[0]: Pod a: spec.nodeName: expected string, got 5"


def test_missing_file(tmp_path):
    message = _error(tmp_path / "nope.yaml")
    assert message.startswith(f"{tmp_path / 'nope.yaml'}: cannot read: ")
