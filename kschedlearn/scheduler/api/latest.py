"""The newest Policy version, and the codec that reads policy files.

Go: plugin/pkg/scheduler/api/latest/latest.go (``Version = "v1"``, ``Codec``)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/api/latest/latest.go

Differs from Go: the Go package is ``api/latest/latest.go``; a one-file package becomes the
module ``api/latest.py``. ``Codec`` becomes the two functions :func:`load_policy` (Go:
``runtime.DecodeInto(latest.Codec, data, &policy)``, as the server and the compatibility test
call it) and :func:`dump_policy`. Only JSON is read, as in 1.6.
"""

from __future__ import annotations

import json

from kschedlearn.scheduler.api.types import Policy
from kschedlearn.scheduler.api.v1.types import VERSION as _V1, PolicyError, policy_to_dict
from kschedlearn.scheduler.api.v1.types import load_policy as _v1_load_policy

VERSION = _V1
"""Go: latest.Version — the version policy files are written in."""


def load_policy(data: str | bytes) -> Policy:
    """Decode a policy document (JSON text or bytes) into a :class:`Policy`.

    Go: runtime.DecodeInto(latestschedulerapi.Codec, data, &policy) — the latest version is v1,
    so this is ``kschedlearn.scheduler.api.v1.types.load_policy``.
    Raises :class:`PolicyError` (a ``ValueError``) naming the field on malformed input.
    """
    return _v1_load_policy(data)


def dump_policy(policy: Policy) -> str:
    """Encode ``policy`` as v1 JSON text. Go: runtime.Encode(latest.Codec, &policy)."""
    return json.dumps(policy_to_dict(policy), indent=2)


__all__ = ["VERSION", "PolicyError", "dump_policy", "load_policy"]
