"""The Go types 1.6 ``json.Unmarshal``-s from annotations and the serializer's kind probe.

Go: none — kschedlearn-only tables for :func:`~kschedlearn.api.v1._gojson_check.unmarshal_error`:
``{json key: Go type}`` per struct, as declared in pkg/api/v1/types.go, pkg/api/types.go
(the internal ``api.*`` types the API server's validation decodes into) and apimachinery's
meta/v1 types.go (LabelSelector, OwnerReference, Time), and the anonymous
``struct{APIVersion, Kind string}`` of runtime/serializer/json/meta.go ``Interpret``.
"""

from __future__ import annotations

from kschedlearn.api.v1._gojson_check import TOO_DEEP, unmarshal_error



def _annotation_structs(pkg: str) -> dict[str, dict[str, str]]:
    """The affinity and avoid-pods structs of package ``pkg`` ("v1", or "api" for the internal
    types the API server's validation decodes into); LabelSelector and Time are metav1's."""
    p = pkg + "."
    terms = {"requiredDuringSchedulingIgnoredDuringExecution": f"[]{p}PodAffinityTerm",
             "preferredDuringSchedulingIgnoredDuringExecution": f"[]{p}WeightedPodAffinityTerm"}
    return {
        f"{p}Affinity": {"nodeAffinity": f"*{p}NodeAffinity", "podAffinity": f"*{p}PodAffinity",
                         "podAntiAffinity": f"*{p}PodAntiAffinity"},
        f"{p}NodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": f"*{p}NodeSelector",
                             "preferredDuringSchedulingIgnoredDuringExecution": f"[]{p}PreferredSchedulingTerm"},
        f"{p}NodeSelector": {"nodeSelectorTerms": f"[]{p}NodeSelectorTerm"},
        f"{p}NodeSelectorTerm": {"matchExpressions": f"[]{p}NodeSelectorRequirement"},
        f"{p}NodeSelectorRequirement": {"key": "string", "operator": f"{p}NodeSelectorOperator", "values": "[]string"},
        f"{p}PreferredSchedulingTerm": {"weight": "int32", "preference": f"{p}NodeSelectorTerm"},
        f"{p}PodAffinity": dict(terms),
        f"{p}PodAntiAffinity": dict(terms),
        f"{p}WeightedPodAffinityTerm": {"weight": "int32", "podAffinityTerm": f"{p}PodAffinityTerm"},
        f"{p}PodAffinityTerm": {"labelSelector": "*v1.LabelSelector", "namespaces": "[]string",
                                "topologyKey": "string"},
        "v1.LabelSelector": {"matchLabels": "map[string]string", "matchExpressions": "[]v1.LabelSelectorRequirement"},
        "v1.LabelSelectorRequirement": {"key": "string", "operator": "v1.LabelSelectorOperator", "values": "[]string"},
        f"{p}AvoidPods": {"preferAvoidPods": f"[]{p}PreferAvoidPodsEntry"},
        f"{p}PreferAvoidPodsEntry": {"podSignature": f"{p}PodSignature", "evictionTime": "v1.Time",
                                     "reason": "string", "message": "string"},
        f"{p}PodSignature": {"podController": "*v1.OwnerReference"},
        "v1.OwnerReference": {"apiVersion": "string", "kind": "string", "name": "string", "uid": "types.UID",
                              "controller": "*bool", "blockOwnerDeletion": "*bool"},
    }


#: 1.6's API validation still decodes the (unused by the scheduler) tolerations and taints
#: annotations into the internal ``[]api.Toleration`` / ``[]api.Taint``
_TAINTS = {"api.Toleration": {"key": "string", "operator": "api.TolerationOperator", "value": "string",
                              "effect": "api.TaintEffect", "tolerationSeconds": "*int64"},
           "api.Taint": {"key": "string", "value": "string", "effect": "api.TaintEffect", "timeAdded": "v1.Time"}}
ANNOTATION_STRUCTS = {**_annotation_structs("api"), **_annotation_structs("v1"), **_TAINTS}
ANNOTATION_STRINGS = frozenset({"v1.NodeSelectorOperator", "api.NodeSelectorOperator", "v1.LabelSelectorOperator",
                                "types.UID", "api.TolerationOperator", "api.TaintEffect"})

#: ``struct { APIVersion string; Kind string }`` of the serializer's ``SimpleMetaFactory.Interpret``
FIND_KIND = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }'
FIND_KIND_STRUCTS = {FIND_KIND: {"apiVersion": "string", "kind": "string"}}


def interpret_error(text: str | bytes) -> str:
    """Go: ``SimpleMetaFactory.Interpret``'s error ("" = none): ``couldn't get version/kind; json
    parse error: <json.Unmarshal's error into struct{APIVersion, Kind string}>``."""
    bad = unmarshal_error(text, FIND_KIND, FIND_KIND_STRUCTS)
    if bad == TOO_DEEP:  # not Go's: Go would read it; say kschedlearn's limit plainly
        return bad
    return f"couldn't get version/kind; json parse error: {bad}" if bad else ""
