"""The feature-gate object, and which one ``DefaultFeatureGate`` is in a simulated process.

Go: staging/src/k8s.io/apiserver/pkg/util/feature/feature_gate.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apiserver/pkg/util/feature/feature_gate.go

In Go ``utilfeature.DefaultFeatureGate`` is a package variable: one gate per binary. The
simulation runs several kube-scheduler binaries side by side, so each simulated
:class:`~kschedlearn.sim.Process` owns its gate, and :func:`default_feature_gate` returns the
gate of the process whose goroutine is running — the place where 1.6 reads
``DefaultFeatureGate`` reads this. ``--feature-gates`` sets that same object (the kube-scheduler's
``SchedulerServer.feature_gates`` *is* its process's gate).

Differs from Go: code called outside every simulated process (a notebook cell, a unit test)
reads :func:`host_feature_gate`, the gate of the Python process itself, all defaults unless a
test sets it the way Go's tests set ``DefaultFeatureGate`` (``with host_feature_gate().set_for(...)``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import attrs

from kschedlearn.apimachinery._gostrconv import quote
from kschedlearn.sim.runtime import current_goroutine


@attrs.frozen
class FeatureSpec:
    """Go: utilfeature.FeatureSpec — default and maturity ("ALPHA", "BETA")."""

    default: bool
    pre_release: str


def _known() -> dict[str, FeatureSpec]:
    from kschedlearn.features.kube_features import KNOWN_FEATURES  # noqa: PLC0415 - import cycle

    return dict(KNOWN_FEATURES)


def _parse_bool(v: str) -> bool:
    """Go: strconv.ParseBool (the error quotes the value with Go's ``%q``)."""
    if v in ("1", "t", "T", "TRUE", "true", "True"):
        return True
    if v in ("0", "f", "F", "FALSE", "false", "False"):
        return False
    raise ValueError(f"strconv.ParseBool: parsing {quote(v)}: invalid syntax")


@attrs.define(eq=False)
class FeatureGate:
    """The ``--feature-gates`` value: ``key=bool`` pairs over the known gates.

    Go: featureGate (Set, String, Type, Enabled, KnownFeatures, AddFlag) in feature_gate.go.
    Unknown keys and bad booleans are refused with Go's messages.
    """

    known: dict[str, FeatureSpec] = attrs.field(factory=_known)
    enabled_map: dict[str, bool] = attrs.field(factory=dict)

    def set(self, value: str) -> None:
        """Go: featureGate.Set — comma-separated ``Key=true|false``; AllAlpha sets every alpha gate."""
        for s in value.split(","):
            if len(s) == 0:
                continue
            arr = s.split("=", 1)
            k = arr[0].strip()
            if k not in self.known:
                raise ValueError(f"unrecognized key: {k}")
            if len(arr) != 2:
                raise ValueError(f"missing bool value for {k}")
            v = arr[1].strip()
            try:
                bool_value = _parse_bool(v)
            except ValueError as err:
                raise ValueError(f"invalid value of {k}: {v}, err: {err}") from None
            self.enabled_map[k] = bool_value
        if "AllAlpha" in self.enabled_map:
            for k, spec in self.known.items():
                if spec.pre_release == "ALPHA" and k not in self.enabled_map:
                    self.enabled_map[k] = self.enabled_map["AllAlpha"]

    def string(self) -> str:
        """Go: featureGate.String — ``k=v`` pairs, sorted."""
        return ",".join(f"{k}={'true' if v else 'false'}" for k, v in sorted(self.enabled_map.items()))

    def type(self) -> str:
        """Go: featureGate.Type."""
        return "mapStringBool"

    def enabled(self, key: str) -> bool:
        """Go: featureGate.Enabled — the explicit setting, else the gate's default (false for a
        gate this table does not list: Go reads the zero ``FeatureSpec`` of a missing map key)."""
        if key in self.enabled_map:
            return self.enabled_map[key]
        spec = self.known.get(key)
        return spec.default if spec is not None else False

    def known_features(self) -> list[str]:
        """Go: featureGate.KnownFeatures — ``Name=true|false (ALPHA - default=false)``, sorted."""
        return sorted(
            f"{k}=true|false ({spec.pre_release + ' - ' if spec.pre_release else ''}"
            f"default={'true' if spec.default else 'false'})"
            for k, spec in self.known.items()
        )

    def add_flag(self, fs: Any) -> None:
        """Go: featureGate.AddFlag — registers ``--feature-gates``."""
        fs.var(self, "feature-gates",
               "A set of key=value pairs that describe feature gates for alpha/experimental features. "
               "Options are:\n" + "\n".join(self.known_features()))

    @contextmanager
    def set_for(self, value: str) -> Iterator[FeatureGate]:
        """Set ``value`` for the duration of a ``with`` block, then restore. kschedlearn-only
        (Go tests call ``Set`` and leave it set)."""
        saved = dict(self.enabled_map)
        try:
            self.set(value)
            yield self
        finally:
            self.enabled_map = saved


_HOST_GATE = FeatureGate()


def host_feature_gate() -> FeatureGate:
    """The gate of the Python process itself, read by code outside every simulated process.

    kschedlearn-only (see the module docstring).
    """
    return _HOST_GATE


def default_feature_gate() -> FeatureGate:
    """Go's ``utilfeature.DefaultFeatureGate`` for the running code: its simulated process's gate.

    Go: utilfeature.DefaultFeatureGate (feature_gate.go). Differs from Go: one per simulated
    process (created on first use), the host gate outside the simulation.
    """
    g = current_goroutine()
    if g is None:
        return _HOST_GATE
    process = g.process
    if process.feature_gate is None:
        process.feature_gate = FeatureGate()
    return process.feature_gate
