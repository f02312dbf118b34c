"""Field selectors: ``spec.nodeName==,status.phase!=Succeeded``.

Go: ``k8s.io/apimachinery/pkg/fields/selector.go``,
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/fields/selector.go

The scheduler's two pod list-watches use these (spec §2.3): the unassigned-pod watch selects
``spec.nodeName==,status.phase!=Succeeded,status.phase!=Failed``. Only equality (``=``, ``==``)
and inequality (``!=``) exist; terms are ANDed; ``\\``, ``,`` and ``=`` in values are escaped
with a backslash.

Differs from Go: errors are raised as :class:`InvalidFieldSelectorError` (a ``ValueError``)
with Go's messages; :func:`selector_from_set` orders terms by field (Go uses map order).
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Mapping

import attrs

from kschedlearn.apimachinery import selection
from kschedlearn.apimachinery.fields.requirements import Requirement, Requirements

TransformFunc = Callable[[str, str], tuple[str, str]]
"""Go: selector.go ``TransformFunc`` — rewrite ``(field, value)``; raise to reject."""


class InvalidFieldSelectorError(ValueError):
    """A field selector Go would reject (message as in Go)."""


class InvalidEscapeSequence(InvalidFieldSelectorError):
    """Go: selector.go ``InvalidEscapeSequence``."""

    def __init__(self, sequence: str) -> None:
        self.sequence = sequence
        super().__init__(f"invalid field selector: invalid escape sequence: {sequence}")


class UnescapedRune(InvalidFieldSelectorError):
    """Go: selector.go ``UnescapedRune``.

    Quirk kept from Go: the message formats the rune with ``%v``, which prints its number
    (``=`` shows as ``61``).
    """

    def __init__(self, r: str) -> None:
        self.r = r
        super().__init__(f"invalid field selector: unescaped character in value: {ord(r)}")


class Selector(abc.ABC):
    """A field selector. Go: selector.go ``Selector`` interface."""

    __slots__ = ()

    @abc.abstractmethod
    def matches(self, fields: Mapping[str, str]) -> bool:
        """Whether the fields satisfy the selector (a missing field reads as ``""``)."""

    @abc.abstractmethod
    def empty(self) -> bool:
        """True when the selector does not restrict anything."""

    @abc.abstractmethod
    def requires_exact_match(self, field: str) -> tuple[str, bool]:
        """``(value, True)`` if the selector pins ``field`` to one value."""

    @abc.abstractmethod
    def transform(self, fn: TransformFunc) -> Selector:
        """A new selector with every term rewritten by ``fn``."""

    @abc.abstractmethod
    def requirements(self) -> Requirements:
        """The terms as data."""

    @abc.abstractmethod
    def string(self) -> str:
        """The selector text, values escaped."""

    def deep_copy_selector(self) -> Selector:
        """Go: ``Selector.DeepCopySelector``; selectors are immutable, so ``self``."""
        return self

    def __str__(self) -> str:
        return self.string()


@attrs.frozen
class HasTerm(Selector):
    """``field=value``. Go: selector.go ``hasTerm``. Differs from Go: public name."""

    field: str
    value: str

    def matches(self, fields: Mapping[str, str]) -> bool:
        return fields.get(self.field, "") == self.value

    def empty(self) -> bool:
        return False

    def requires_exact_match(self, field: str) -> tuple[str, bool]:
        if self.field == field:
            return self.value, True
        return "", False

    def transform(self, fn: TransformFunc) -> Selector:
        field, value = fn(self.field, self.value)
        return HasTerm(field=field, value=value)

    def requirements(self) -> Requirements:
        return [Requirement(field=self.field, operator=selection.EQUALS, value=self.value)]

    def string(self) -> str:
        return f"{self.field}={escape_value(self.value)}"

    def __str__(self) -> str:
        return self.string()


@attrs.frozen
class NotHasTerm(Selector):
    """``field!=value``. Go: selector.go ``notHasTerm``. Differs from Go: public name."""

    field: str
    value: str

    def matches(self, fields: Mapping[str, str]) -> bool:
        return fields.get(self.field, "") != self.value

    def empty(self) -> bool:
        return False

    def requires_exact_match(self, field: str) -> tuple[str, bool]:
        return "", False

    def transform(self, fn: TransformFunc) -> Selector:
        field, value = fn(self.field, self.value)
        return NotHasTerm(field=field, value=value)

    def requirements(self) -> Requirements:
        return [Requirement(field=self.field, operator=selection.NOT_EQUALS, value=self.value)]

    def string(self) -> str:
        return f"{self.field}!={escape_value(self.value)}"

    def __str__(self) -> str:
        return self.string()


@attrs.frozen
class AndTerm(Selector):
    """All of the terms. Go: selector.go ``andTerm`` (a ``[]Selector``). Differs: public name."""

    terms: tuple[Selector, ...] = ()

    def matches(self, fields: Mapping[str, str]) -> bool:
        return all(t.matches(fields) for t in self.terms)

    def empty(self) -> bool:
        return all(t.empty() for t in self.terms)

    def requires_exact_match(self, field: str) -> tuple[str, bool]:
        for t in self.terms:
            value, found = t.requires_exact_match(field)
            if found:
                return value, found
        return "", False

    def transform(self, fn: TransformFunc) -> Selector:
        transformed = (t.transform(fn) for t in self.terms)
        return AndTerm(terms=tuple(t for t in transformed if not t.empty()))

    def requirements(self) -> Requirements:
        reqs: Requirements = []
        for t in self.terms:
            reqs.extend(t.requirements())
        return reqs

    def string(self) -> str:
        return ",".join(t.string() for t in self.terms)

    def __str__(self) -> str:
        return self.string()


def selector_from_set(ls: Mapping[str, str] | None) -> Selector:
    """A selector requiring each ``field=value``. Go: selector.go ``SelectorFromSet``."""
    if ls is None:
        return everything()
    items: list[Selector] = [HasTerm(field=field, value=ls[field]) for field in sorted(ls)]
    if len(items) == 1:
        return items[0]
    return AndTerm(terms=tuple(items))


_ESCAPES = {"\\": "\\\\", ",": "\\,", "=": "\\="}


def escape_value(s: str) -> str:
    """Backslash-escape ``\\``, ``,`` and ``=``. Go: selector.go ``EscapeValue``."""
    if not any(c in _ESCAPES for c in s):
        return s
    return "".join(_ESCAPES.get(c, c) for c in s)


def unescape_value(s: str) -> str:
    """Undo :func:`escape_value`; reject stray ``\\``, ``,`` or ``=``. Go: ``UnescapeValue``."""
    if not any(c in _ESCAPES for c in s):
        return s
    out: list[str] = []
    in_slash = False
    for c in s:
        if in_slash:
            if c not in _ESCAPES:
                raise InvalidEscapeSequence("\\" + c)
            out.append(c)
            in_slash = False
            continue
        if c == "\\":
            in_slash = True
        elif c in (",", "="):
            raise UnescapedRune(c)
        else:
            out.append(c)
    if in_slash:
        raise InvalidEscapeSequence("\\")
    return "".join(out)


def parse_selector(selector: str) -> Selector:
    """Parse ``a=b``, ``a==b``, ``a!=b`` terms joined by commas.

    Go: selector.go ``ParseSelector``. Raises :class:`InvalidFieldSelectorError`.
    """
    return _parse_selector(selector, lambda lhs, rhs: (lhs, rhs))


def parse_selector_or_die(s: str) -> Selector:
    """Go: selector.go ``ParseSelectorOrDie`` (panics there; raises here)."""
    return parse_selector(s)


def parse_and_transform_selector(selector: str, fn: TransformFunc) -> Selector:
    """Parse, then rewrite each term with ``fn``. Go: selector.go ``ParseAndTransformSelector``."""
    return _parse_selector(selector, fn)


def _split_terms(field_selector: str) -> list[str]:
    """Split on commas that are not escaped. Go: selector.go ``splitTerms``."""
    if len(field_selector) == 0:
        return []
    terms: list[str] = []
    start = 0
    in_slash = False
    for i, c in enumerate(field_selector):
        if in_slash:
            in_slash = False
        elif c == "\\":
            in_slash = True
        elif c == ",":
            terms.append(field_selector[start:i])
            start = i + 1
    terms.append(field_selector[start:])
    return terms


_NOT_EQUAL_OPERATOR = "!="
_DOUBLE_EQUAL_OPERATOR = "=="
_EQUAL_OPERATOR = "="
# Checked in this order at each position, so "!=" and "==" win over "=".
_TERM_OPERATORS = (_NOT_EQUAL_OPERATOR, _DOUBLE_EQUAL_OPERATOR, _EQUAL_OPERATOR)


def _split_term(term: str) -> tuple[str, str, str, bool]:
    """Split at the first operator: ``(lhs, op, rhs, ok)``. Go: selector.go ``splitTerm``."""
    for i in range(len(term)):
        for op in _TERM_OPERATORS:
            if term.startswith(op, i):
                return term[:i], op, term[i + len(op) :], True
    return "", "", "", False


def _parse_selector(selector: str, fn: TransformFunc) -> Selector:
    """Go: selector.go ``parseSelector`` (terms are sorted as strings first)."""
    parts = sorted(_split_terms(selector))
    items: list[Selector] = []
    for part in parts:
        if part == "":
            continue
        lhs, op, rhs, ok = _split_term(part)
        if not ok:
            raise InvalidFieldSelectorError(f"invalid selector: '{selector}'; can't understand '{part}'")
        unescaped_rhs = unescape_value(rhs)
        if op == _NOT_EQUAL_OPERATOR:
            items.append(NotHasTerm(field=lhs, value=unescaped_rhs))
        else:
            items.append(HasTerm(field=lhs, value=unescaped_rhs))
    if len(items) == 1:
        return items[0].transform(fn)
    return AndTerm(terms=tuple(items)).transform(fn)


def one_term_equal_selector(k: str, v: str) -> Selector:
    """``k=v`` as a selector. Go: selector.go ``OneTermEqualSelector``."""
    return HasTerm(field=k, value=v)


def everything() -> Selector:
    """A selector that matches everything. Go: selector.go ``Everything``."""
    return AndTerm()
