"""``errors.NewAggregate``: several errors reported as one.

Go: staging/src/k8s.io/apimachinery/pkg/util/errors/errors.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/util/errors/errors.go
"""

from __future__ import annotations

from collections.abc import Sequence


class Aggregate(Exception):
    """Go: errors.Aggregate — one error's text alone, several as ``[a, b]``."""

    def __init__(self, errs: Sequence[BaseException]) -> None:
        self.errs = list(errs)
        super().__init__(self.error())

    def error(self) -> str:
        """Go: aggregate.Error()."""
        if len(self.errs) == 1:
            return str(self.errs[0])
        return "[" + ", ".join(str(e) for e in self.errs) + "]"

    def __str__(self) -> str:
        return self.error()


def new_aggregate(errs: Sequence[BaseException]) -> Aggregate | None:
    """Go: errors.NewAggregate — None for an empty list."""
    errs = [e for e in errs if e is not None]
    return Aggregate(errs) if errs else None


class ErrPreconditionViolated(Exception):
    """A write's precondition does not hold (the object is already as wanted).

    Go: ``ErrPreconditionViolated`` — errors.go#L181-L182 (a sentinel ``errors.New`` value; here a class,
    so ``except ErrPreconditionViolated`` plays ``err == ErrPreconditionViolated``).
    """

    def __init__(self) -> None:
        super().__init__("precondition is violated")
