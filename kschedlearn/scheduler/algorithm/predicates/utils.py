"""Small label/pod helpers used by the ServiceAffinity predicate.

Go: plugin/pkg/scheduler/algorithm/predicates/utils.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/predicates/utils.go
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Mapping, MutableMapping

from kschedlearn.apimachinery import labels

if TYPE_CHECKING:
    from kschedlearn.api.v1 import Pod


def find_labels_in_set(labels_to_keep: Iterable[str], selector: Mapping[str, str]) -> dict[str, str]:
    """Pick from ``selector`` the entries whose key is in ``labels_to_keep``.

    Go: predicates.FindLabelsInSet
    """
    aff: dict[str, str] = {}
    for label in labels_to_keep:
        if label in selector:
            aff[label] = selector[label]
    return aff


def add_unset_labels_to_map(
    aff: MutableMapping[str, str], labels_to_add: Iterable[str], label_set: Mapping[str, str]
) -> None:
    """Copy into ``aff`` the listed labels found in ``label_set`` that ``aff`` lacks (in place).

    Go: predicates.AddUnsetLabelsToMap
    """
    for label in labels_to_add:
        if label in aff:
            continue
        if label in label_set:
            aff[label] = label_set[label]


def filter_pods_by_namespace(pods: Iterable["Pod"], ns: str) -> list["Pod"]:
    """Keep only the pods of namespace ``ns``.

    Go: predicates.FilterPodsByNamespace
    """
    return [p for p in pods if p.metadata.namespace == ns]


def create_selector_from_labels(a_l: Mapping[str, str] | None) -> "labels.Selector":
    """A selector requiring every given label; no labels selects everything.

    Go: predicates.CreateSelectorFromLabels
    """
    if not a_l:
        return labels.everything()
    return labels.selector_from_set(a_l)
