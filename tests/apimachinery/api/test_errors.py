"""apimachinery api/errors: messages, codes, reasons and the Is* predicates."""

from __future__ import annotations

import pytest

from kschedlearn.apimachinery.api import errors
from kschedlearn.apimachinery.api.errors import GroupResource

PODS = GroupResource("", "pods")


@pytest.mark.parametrize(
    ("err", "cls", "code", "reason", "message"),
    [
        (errors.new_not_found(PODS, "web-1"), errors.NotFoundError, 404, "NotFound",
         'pods "web-1" not found'),
        (errors.new_already_exists(PODS, "web-1"), errors.AlreadyExistsError, 409,
         "AlreadyExists", 'pods "web-1" already exists'),
        (errors.new_conflict(PODS, "web-1", "boom"), errors.ConflictError, 409, "Conflict",
         'Operation cannot be fulfilled on pods "web-1": boom'),
        (errors.new_gone("too old resource version: 1 (2)"), errors.GoneError, 410, "Gone",
         "too old resource version: 1 (2)"),
        (errors.new_invalid("Pod", "web-1", "spec.x: Required value"), errors.InvalidError, 422,
         "Invalid", 'Pod "web-1" is invalid: spec.x: Required value'),
        (errors.new_bad_request("nope"), errors.BadRequestError, 400, "BadRequest", "nope"),
        (errors.new_internal_error("etcd"), errors.InternalError, 500, "InternalError",
         "Internal error occurred: etcd"),
        (errors.new_not_found(GroupResource("extensions", "replicasets"), "rs"),
         errors.NotFoundError, 404, "NotFound", 'replicasets.extensions "rs" not found'),
    ],
    ids=["NotFound", "AlreadyExists", "Conflict", "Gone", "Invalid", "BadRequest",
         "InternalError", "GroupQualified"],
)
def test_error_shapes(err, cls, code, reason, message):
    assert isinstance(err, cls) and isinstance(err, errors.StatusError)
    assert (err.code, err.reason, str(err)) == (code, reason, message)
    assert err.status().message == message
    back = errors.from_object(err.status())
    assert type(back) is cls and back.status() == err.status()


def test_predicates():
    nf = errors.new_not_found(PODS, "x")
    assert errors.is_not_found(nf) and not errors.is_conflict(nf)
    assert errors.is_conflict(errors.new_conflict(PODS, "x", "y"))
    assert errors.is_gone(errors.new_gone("g"))
    assert not errors.is_not_found(ValueError("plain"))
    assert errors.reason_for_error(ValueError("plain")) == ""
