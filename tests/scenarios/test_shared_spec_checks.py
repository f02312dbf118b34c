"""A dump's replicas share one decoded PodSpec, and its checks are made once per spec.

kschedlearn-only (issue 25: loading 150,000 pods). ``api_validation_error`` checks a spec it has
seen pass ``validate_pod_spec`` only through the pod's other parts; the import report classifies
a shared spec's fields once (``dump_fields.classify_field``). Both must answer exactly what the
whole checks answer.
"""

from __future__ import annotations

import json

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from kschedlearn.api.v1 import Pod
from kschedlearn.api.v1.yaml_load import KINDS
from kschedlearn.scenarios import validate
from kschedlearn.scenarios.dump_fields import classify, classify_field
from kschedlearn.scenarios.validate import api_validation_error

GOOD_SPEC = {"containers": [{"name": "c", "image": "x", "ports": [{"containerPort": 80}],
                             "resources": {"requests": {"cpu": "100m", "memory": "500Mi"}}}]}
BAD_SPEC = {"containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": "-1"}}}]}

names = st.sampled_from(["web-1", "Web_1", "a" * 64, "ok.name", "-bad", "x"])
label_values = st.sampled_from(["a", "a b", "", "x" * 64, "ok-1"])
annotations = st.sampled_from([
    {}, {"note": "x"},
    {"scheduler.alpha.kubernetes.io/affinity": '{"podAffinity": []}'},
    {"scheduler.alpha.kubernetes.io/affinity": '{"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":'
                                               ' {"nodeSelectorTerms": [{"matchExpressions": [{"key": "a",'
                                               ' "operator": "Foo"}]}]}}}'},
    {"scheduler.alpha.kubernetes.io/tolerations": "not json"},
])


def _pod(name: str, labels: dict[str, str], notes: dict[str, str], namespace: str, spec: object) -> Pod:
    pod = Pod.from_dict({"metadata": {"name": name, "namespace": namespace, "labels": labels,
                                      "annotations": notes}, "spec": GOOD_SPEC})
    return attrs.evolve(pod, spec=spec)


@settings(max_examples=examples(150), deadline=None)
@given(name=names, labels=st.dictionaries(st.sampled_from(["app", "bad key", "tier"]), label_values, max_size=2),
       notes=annotations, namespace=st.sampled_from(["default", "Bad_NS", ""]), good=st.booleans())
def test_a_spec_checked_once_gives_the_same_answer_as_checking_it_again(name, labels, notes, namespace, good) -> None:
    spec = Pod.from_dict({"metadata": {"name": "seed"}, "spec": GOOD_SPEC if good else BAD_SPEC}).spec
    api_validation_error(_pod("seed", {}, {}, "default", spec))  # the spec is now known
    assert validate._clean_spec(spec) is good
    shared = api_validation_error(_pod(name, labels, notes, namespace, spec))
    fresh_spec = attrs.evolve(spec)  # equal, but never seen: checked whole
    assert fresh_spec is not spec and not validate._clean_spec(fresh_spec)
    assert shared == api_validation_error(_pod(name, labels, notes, namespace, fresh_spec))
    if not good:
        assert "spec.containers[0].resources.requests[cpu]" in shared


leaves = st.one_of(st.none(), st.booleans(), st.integers(-2, 2), st.sampled_from(["", "x", "TCP"]))
values = st.recursive(leaves, lambda inner: st.one_of(
    st.lists(inner, max_size=2),
    st.dictionaries(st.sampled_from(["name", "image", "env", "ports", "containerPort", "resizePolicy", "x.y",
                                     "requests", "nodeName", "affinity"]), inner, max_size=3)), max_leaves=8)
top_keys = st.sampled_from(["metadata", "spec", "status", "weird", "metadata.name", "apiVersion", "kind"])


containers = st.lists(st.dictionaries(st.sampled_from(["name", "env", "resizePolicy", "ports"]), values, max_size=3),
                      max_size=2)
specs = st.fixed_dictionaries({"containers": containers}, optional={"priority": values})


@settings(max_examples=examples(200), deadline=None)
@given(doc=st.dictionaries(top_keys, st.one_of(values, specs), max_size=5))
def test_classify_is_its_fields_classified_one_by_one(doc) -> None:
    found: dict[tuple[str, str], None] = {}
    for key, value in doc.items():
        found.update(dict.fromkeys(classify_field("Pod", key, value, KINDS["Pod"])))
    assert list(found) == classify("Pod", json.loads(json.dumps(doc)), KINDS["Pod"])


def test_a_clean_spec_checks_the_metadata_alone_only_with_the_registrys_defaults(monkeypatch) -> None:
    """A pod with a spec known clean is checked through its metadata alone (no candidate pod):
    while the registry's pod defaults are its own. Defaults that also touch the metadata (a
    test's, here: an invalid label) step aside to the whole candidate, which sees them; so does a
    swapped annotation check on a pod without annotations."""
    from kschedlearn.api.validation import validation
    from kschedlearn.apiserver import registry

    spec = Pod.from_dict({"metadata": {"name": "seed"}, "spec": GOOD_SPEC}).spec
    api_validation_error(_pod("seed", {}, {}, "default", spec))
    assert validate._clean_spec(spec)
    assert api_validation_error(_pod("web-1", {}, {}, "", spec)) == ""
    mirror_default = registry.default_pod

    def labelled(pod):
        out = mirror_default(pod)
        return attrs.evolve(out, metadata=attrs.evolve(out.metadata, labels={"bad key": "x"}))

    monkeypatch.setattr(registry, "default_pod", labelled)
    assert "metadata.labels" in api_validation_error(_pod("web-1", {}, {}, "", spec))
    monkeypatch.undo()
    assert api_validation_error(_pod("web-1", {}, {}, "", spec)) == ""
    monkeypatch.setattr(validation, "validate_pod_specific_annotations",
                        lambda notes, path: [validation.f.required(path)])
    assert "metadata.annotations" in api_validation_error(_pod("web-1", {}, {}, "", spec))
