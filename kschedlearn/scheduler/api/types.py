"""Types of the scheduler API: per-node priority scores and the scheduler Policy.

Go: plugin/pkg/scheduler/api/types.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/api/types.go

Two sections: ``HostPriority`` (what priority functions return) and the Policy types (the
scheduler configuration file, decoded by ``kschedlearn.scheduler.api.latest.load_policy``).
"""

from __future__ import annotations

from typing import Any, Optional

import attrs

# --------------------------------------------------------------------------------------------
# Priorities: HostPriority / HostPriorityList
# --------------------------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class HostPriority:
    """The score one priority function gave one node (``host`` is the node name).

    Go: type HostPriority struct { Host string; Score int }
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/api/types.go#L167-L173
    Differs from Go: frozen; code that changes a score in place (the reduce functions) replaces
    the list element with ``attrs.evolve(hp, score=...)``.
    """

    host: str
    score: int


HostPriorityList = list[HostPriority]
"""Go: type HostPriorityList []HostPriority (a plain Python list of HostPriority)."""


# --------------------------------------------------------------------------------------------
# Policy: the scheduler configuration file (--policy-config-file), internal version
# https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/api/types.go
#
# These are the *internal* types that CreateFromConfig consumes. The JSON form (camelCase keys,
# ``kind: Policy``, ``apiVersion: v1``) is decoded by ``kschedlearn.scheduler.api.v1.types``;
# ``kschedlearn.scheduler.api.latest.load_policy`` is the entry point.
# Differs from Go: Go slices become tuples (empty, never None); Go pointers to optional structs
# (``*PredicateArgument``, ...) become ``Optional`` fields defaulting to None.
# --------------------------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class ServiceAffinity:
    """Argument of a ServiceAffinity custom predicate: node labels that group nodes.

    Go: type ServiceAffinity struct { Labels []string }
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/api/types.go#L80-L85
    """

    labels: tuple[str, ...] = ()


@attrs.frozen(kw_only=True)
class LabelsPresence:
    """Argument of a LabelsPresence custom predicate: labels that must (not) exist on the node.

    Go: type LabelsPresence struct { Labels []string; Presence bool }
    """

    labels: tuple[str, ...] = ()
    presence: bool = False


@attrs.frozen(kw_only=True)
class ServiceAntiAffinity:
    """Argument of a ServiceAntiAffinity custom priority: the label to spread a service over.

    Go: type ServiceAntiAffinity struct { Label string }
    """

    label: str = ""


@attrs.frozen(kw_only=True)
class LabelPreference:
    """Argument of a NodeLabel custom priority: prefer nodes with (or without) a label.

    Go: type LabelPreference struct { Label string; Presence bool }
    """

    label: str = ""
    presence: bool = False


@attrs.frozen(kw_only=True)
class PredicateArgument:
    """What kind of custom predicate a policy entry builds; exactly one field should be set.

    Go: type PredicateArgument struct { ServiceAffinity *ServiceAffinity; LabelsPresence *LabelsPresence }
    """

    service_affinity: Optional[ServiceAffinity] = None
    labels_presence: Optional[LabelsPresence] = None


@attrs.frozen(kw_only=True)
class PriorityArgument:
    """What kind of custom priority a policy entry builds; exactly one field should be set.

    Go: type PriorityArgument struct { ServiceAntiAffinity *ServiceAntiAffinity; LabelPreference *LabelPreference }
    """

    service_anti_affinity: Optional[ServiceAntiAffinity] = None
    label_preference: Optional[LabelPreference] = None


@attrs.frozen(kw_only=True)
class PredicatePolicy:
    """One predicate of a policy: a registered name, or a new name plus an argument.

    Go: type PredicatePolicy struct { Name string; Argument *PredicateArgument }
    """

    name: str = ""
    argument: Optional[PredicateArgument] = None


@attrs.frozen(kw_only=True)
class PriorityPolicy:
    """One priority of a policy: name, weight (must be > 0, see validation) and optional argument.

    Go: type PriorityPolicy struct { Name string; Weight int; Argument *PriorityArgument }
    """

    name: str = ""
    weight: int = 0
    argument: Optional[PriorityArgument] = None


@attrs.frozen(kw_only=True)
class TLSClientConfig:
    """TLS files/data for talking to an HTTPS extender.

    Go: restclient.TLSClientConfig {CertFile, KeyFile, CAFile, CertData, KeyData, CAData}
    (pkg/client/restclient/config.go). It has no JSON tags, so in a policy file its keys are
    the Go field names; the ``*Data`` fields are base64 strings in JSON.
    """

    cert_file: str = ""
    key_file: str = ""
    ca_file: str = ""
    cert_data: bytes = b""
    key_data: bytes = b""
    ca_data: bytes = b""


@attrs.frozen(kw_only=True)
class ExtenderConfig:
    """How to reach one HTTP scheduler extender (spec §5.6).

    Go: type ExtenderConfig struct {URLPrefix, FilterVerb, PrioritizeVerb, Weight, EnableHttps,
    TLSConfig, HTTPTimeout, NodeCacheCapable}
    Differs from Go: ``http_timeout`` is float seconds (Go: a time.Duration, nanoseconds in JSON).
    """

    url_prefix: str = ""
    filter_verb: str = ""
    prioritize_verb: str = ""
    weight: int = 0
    enable_https: bool = False
    tls_config: Optional[TLSClientConfig] = None
    http_timeout: float = 0.0
    node_cache_capable: bool = False


@attrs.frozen(kw_only=True)
class Policy:
    """A scheduler policy: which predicates and priorities to run, and which extenders to call.

    Go: type Policy struct { metav1.TypeMeta; Predicates; Priorities; ExtenderConfigs }
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/api/types.go#L27-L35
    Differs from Go: TypeMeta is not kept (the codec checks ``kind``/``apiVersion`` on decode).
    An empty predicate list means *no* predicates, an empty priority list *no* priorities.
    """

    predicates: tuple[PredicatePolicy, ...] = ()
    priorities: tuple[PriorityPolicy, ...] = ()
    extender_configs: tuple[ExtenderConfig, ...] = ()


@attrs.frozen(kw_only=True)
class ExtenderArgs:
    """What the scheduler POSTs to an extender's filter/prioritize verb.

    Go: type ExtenderArgs struct { Pod v1.Pod; Nodes *v1.NodeList; NodeNames *[]string }
    Differs from Go: ``nodes`` is a tuple of Node (or None), not a NodeList object.
    """

    pod: Any = None
    nodes: Optional[tuple[Any, ...]] = None
    node_names: Optional[tuple[str, ...]] = None


@attrs.frozen(kw_only=True)
class ExtenderFilterResult:
    """An extender's filter answer: kept nodes (or names), failed nodes with reasons, an error.

    Go: type ExtenderFilterResult struct { Nodes *v1.NodeList; NodeNames *[]string;
    FailedNodes FailedNodesMap; Error string }
    """

    nodes: Optional[tuple[Any, ...]] = None
    node_names: Optional[tuple[str, ...]] = None
    failed_nodes: dict[str, str] = attrs.field(factory=dict)
    error: str = ""
