"""Go's ``encoding/json`` errors: the syntax check and the type rules of ``json.Unmarshal``.

Go: none — kschedlearn-only (Go's standard library ``encoding/json`` of Go 1.7.5, which built
v1.6.1: ``scanner.go`` for the syntax errors, ``decode.go``'s ``literalStore``/``array``/
``object`` for the type errors). 1.6 surfaces these texts where it calls ``json.Unmarshal``:
the API server's validation of the alpha annotations (``metadata.annotations: Invalid value:
"scheduler.alpha.kubernetes.io/affinity": json: cannot unmarshal ...``), the serializer's
``couldn't get version/kind; json parse error: ...`` (request bodies, the policy file) and the
leader-election record.

:func:`unmarshal_error` returns the error ``json.Unmarshal(text, &v)`` would return for a value
of the described Go type, or "" when it would succeed:

- the whole text is scanned first (``checkValid``): ``invalid character 'x' looking for
  beginning of value``, ``unexpected end of JSON input``, ...;
- then values are matched to the Go type in document order; the first mismatch is the error
  (Go 1.7 saves it and goes on): ``json: cannot unmarshal string into Go value of type int32``,
  ``json: cannot unmarshal number 1.5 into Go value of type int32`` (an integer field takes only
  an in-range integer literal), ``... array into Go value of type v1.Affinity``; ``null`` fits
  anything; keys match fields exactly, else case-insensitively; unknown keys are skipped;
- a ``metav1.Time`` decodes through its ``UnmarshalJSON``: a string that is not RFC 3339 (or
  any non-string) fails with ``time.Parse``'s error, returned at once.
"""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Mapping
from typing import Any

from kschedlearn.api.v1._gojson import _go_fold

# -- the scanner (Go 1.7 encoding/json/scanner.go) ----------------------------------------------

_SPACE = b" \t\r\n"
_HEX = b"0123456789abcdefABCDEF"
_DIGITS = b"0123456789"


def quote_char(c: int) -> str:
    """Go: ``quoteChar`` (a byte, quoted the way Go's error messages show it)."""
    if c == ord("'"):
        return "'\\''"
    if c == ord('"'):
        return "'\"'"
    s = {7: "\\a", 8: "\\b", 12: "\\f", 10: "\\n", 13: "\\r", 9: "\\t", 11: "\\v", 92: "\\\\"}.get(c)
    if s is None:
        ch = chr(c)
        if c < 0x80:
            s = ch if 0x20 <= c < 0x7F else f"\\x{c:02x}"
        else:
            s = ch if ch.isprintable() else f"\\u{c:04x}"
    return f"'{s}'"


class _Syntax(Exception):
    pass


def _err(c: int, context: str) -> _Syntax:
    return _Syntax(f"invalid character {quote_char(c)} {context}")


def syntax_error(data: bytes | str) -> str:
    """Go's ``checkValid`` error for ``data`` ("" when it is one valid JSON value)."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
    try:
        _scan(raw)
    except _Syntax as err:
        return str(err)
    return ""


def _scan(b: bytes) -> None:  # noqa: C901 - one state machine, as in Go
    stack: list[str] = []  # "key", "value" (object), "array"
    i, n = 0, len(b)

    def end() -> _Syntax:
        return _Syntax("unexpected end of JSON input")

    def skip(i: int) -> int:
        while i < n and b[i] in _SPACE:
            i += 1
        return i

    def literal(i: int, word: bytes) -> int:
        for k, ch in enumerate(word[1:], start=1):
            if i + k >= n:
                raise end()
            if b[i + k] != ch:
                raise _err(b[i + k], f"in literal {word.decode()} (expecting {quote_char(ch)})")
        return i + len(word)

    def string(i: int) -> int:  # b[i] is the opening quote
        i += 1
        while True:
            if i >= n:
                raise end()
            c = b[i]
            if c == 0x22:
                return i + 1
            if c == 0x5C:
                i += 1
                if i >= n:
                    raise end()
                if b[i] == ord("u"):
                    for _ in range(4):
                        i += 1
                        if i >= n:
                            raise end()
                        if b[i] not in _HEX:
                            raise _err(b[i], "in \\u hexadecimal character escape")
                elif b[i] not in b'bfnrt\\/"':
                    raise _err(b[i], "in string escape code")
            elif c < 0x20:
                raise _err(c, "in string literal")
            i += 1

    def number(i: int) -> int:
        if b[i] == ord("-"):
            i += 1
            if i >= n:
                raise end()
            if b[i] not in _DIGITS:
                raise _err(b[i], "in numeric literal")
        if b[i] == ord("0"):
            i += 1
        else:
            while i < n and b[i] in _DIGITS:
                i += 1
        if i < n and b[i] == ord("."):
            i += 1
            if i >= n:
                raise end()
            if b[i] not in _DIGITS:
                raise _err(b[i], "after decimal point in numeric literal")
            while i < n and b[i] in _DIGITS:
                i += 1
        if i < n and b[i] in b"eE":
            i += 1
            if i < n and b[i] in b"+-":
                i += 1
            if i >= n:
                raise end()
            if b[i] not in _DIGITS:
                raise _err(b[i], "in exponent of numeric literal")
            while i < n and b[i] in _DIGITS:
                i += 1
        return i

    def begin_value(i: int) -> tuple[int, bool]:
        """Scan one value's start: (index after it, whether a nested value is due next).

        A container pushes its state and returns after its opening bracket (no recursion:
        Go's scanner has no depth limit, nor does this one)."""
        i = skip(i)
        if i >= n:
            raise end()
        c = b[i]
        if c == ord("{"):
            i = skip(i + 1)
            if i >= n:
                raise end()
            if b[i] == ord("}"):
                return i + 1, False
            stack.append("key")
            return begin_key(i), False
        if c == ord("["):
            i = skip(i + 1)
            if i >= n:
                raise end()
            if b[i] == ord("]"):
                return i + 1, False
            stack.append("array")
            return i, True
        if c == 0x22:
            return string(i), False
        if c == ord("-") or c in _DIGITS:
            return number(i), False
        for word in (b"true", b"false", b"null"):
            if c == word[0]:
                return literal(i, word), False
        raise _err(c, "looking for beginning of value")

    def begin_key(i: int) -> int:
        i = skip(i)
        if i >= n:
            raise end()
        if b[i] != 0x22:
            raise _err(b[i], "looking for beginning of object key string")
        return string(i)

    i, due = begin_value(0)
    while True:
        if due:
            i, due = begin_value(i)
            continue
        i = skip(i)
        if not stack:
            if i < n:
                raise _err(b[i], "after top-level value")
            return
        if i >= n:
            raise end()
        c, top = b[i], stack[-1]
        if top == "key":
            if c != ord(":"):
                raise _err(c, "after object key")
            stack[-1] = "value"
            i, due = i + 1, True
        elif top == "value":
            if c == ord(","):
                stack[-1] = "key"
                i = begin_key(i + 1)
            elif c == ord("}"):
                stack.pop()
                i += 1
            else:
                raise _err(c, "after object key:value pair")
        else:
            if c == ord(","):
                i, due = i + 1, True
            elif c == ord("]"):
                stack.pop()
                i += 1
            else:
                raise _err(c, "after array element")


# -- Go types and the type rules (Go 1.7 encoding/json/decode.go) ---------------------------------

_INT_BITS = {"int": 64, "int64": 64, "int32": 32, "int16": 16, "int8": 8}
RFC3339 = "2006-01-02T15:04:05Z07:00"


class _Mismatch(Exception):
    """An immediate error (an ``UnmarshalJSON`` failing): returned at once, as Go's ``d.error``."""


class _Num(str):
    """A JSON number, kept as its literal text (Go's rules look at the literal)."""


def _go_quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _time_error(value: str, elem: str, layout_elem: str) -> _Mismatch:
    return _Mismatch(f"parsing time {_go_quote(value)} as {_go_quote(RFC3339)}: cannot parse "
                     f"{_go_quote(elem)} as {_go_quote(layout_elem)}")


def parse_rfc3339_error(value: str) -> str:
    """Go: ``time.Parse(time.RFC3339, value)``'s error text ("" when it parses)."""
    try:
        _parse_rfc3339(value)
    except _Mismatch as err:
        return str(err)
    return ""


def _parse_rfc3339(value: str) -> None:  # noqa: C901 - Go's Parse loop over RFC 3339's chunks
    rest = value
    nums: dict[str, int] = {}
    for prefix, elem, width in (("", "2006", 4), ("-", "01", 2), ("-", "02", 2), ("T", "15", 2),
                                (":", "04", 2), (":", "05", 2)):
        if not rest.startswith(prefix):
            raise _time_error(value, rest, prefix)
        rest = rest[len(prefix):]
        digits = rest[:width]
        if len(digits) < width or not digits.isascii() or not digits.isdigit():
            raise _time_error(value, rest, elem)
        nums[elem], rest = int(digits), rest[width:]
        if elem == "01" and not 1 <= nums[elem] <= 12:
            raise _Mismatch(f"parsing time {_go_quote(value)}: month out of range")
        if elem == "15" and not 0 <= nums[elem] < 24:
            raise _Mismatch(f"parsing time {_go_quote(value)}: hour out of range")
        if elem in ("04", "05") and not 0 <= nums[elem] < 60:
            name = "minute" if elem == "04" else "second"
            raise _Mismatch(f"parsing time {_go_quote(value)}: {name} out of range")
        if elem == "05" and len(rest) >= 2 and rest[0] == "." and rest[1].isdigit():
            k = 1
            while k < len(rest) and rest[k].isascii() and rest[k].isdigit():
                k += 1
            rest = rest[k:]
    if rest.startswith("Z"):
        rest = rest[1:]
    elif len(rest) < 6 or rest[3] != ":" or rest[0] not in "+-" or not (rest[1:3] + rest[4:6]).isdigit():
        raise _time_error(value, rest, "Z07:00")
    else:
        rest = rest[6:]
    if rest:
        raise _Mismatch(f"parsing time {_go_quote(value)}: extra text: {rest}")
    try:
        _dt.date(nums["2006"], nums["01"], nums["02"])
    except ValueError:
        raise _Mismatch(f"parsing time {_go_quote(value)}: day out of range") from None


def _fits_int(literal: str, bits: int) -> bool:
    body = literal[1:] if literal.startswith("-") else literal
    if not body.isdigit():
        return False
    return -(1 << (bits - 1)) <= int(literal) < (1 << (bits - 1))


def _field(fields: Mapping[str, str], key: str) -> str | None:
    if key in fields:
        return fields[key]
    folded = _go_fold(key)
    return next((t for k, t in fields.items() if _go_fold(k) == folded), None)


def _check(value: Any, gotype: str, structs: Mapping[str, Mapping[str, str]], strings: frozenset[str],
           saved: list[str]) -> None:
    def save(what: str) -> None:
        if not saved:
            saved.append(f"json: cannot unmarshal {what} into Go value of type {gotype}")

    if value is None:
        return
    if gotype.startswith("*"):
        _check(value, gotype[1:], structs, strings, saved)
        return
    if gotype == "v1.Time":  # metav1.Time.UnmarshalJSON: json.Unmarshal(b, &str) (error ignored), time.Parse
        _parse_rfc3339(value if isinstance(value, str) and not isinstance(value, _Num) else "")
        return
    if isinstance(value, bool):
        if gotype != "bool":
            save("bool")
    elif isinstance(value, _Num):
        if gotype in _INT_BITS:
            if not _fits_int(value, _INT_BITS[gotype]):
                save(f"number {value}")
        elif gotype not in ("float64", "float32"):
            save("number")
    elif isinstance(value, str):
        if gotype != "string" and gotype not in strings:
            save("string")
    elif isinstance(value, list) and not isinstance(value, _Pairs):
        if not gotype.startswith("[]"):
            save("array")
            return
        for item in value:
            _check(item, gotype[2:], structs, strings, saved)
    elif isinstance(value, _Pairs):
        if gotype.startswith("map[string]"):
            for _, item in value:
                _check(item, gotype[len("map[string]"):], structs, strings, saved)
        elif gotype in structs:
            for key, item in value:
                target = _field(structs[gotype], key)
                if target is not None:
                    _check(item, target, structs, strings, saved)
        else:
            save("object")


TOO_DEEP = ("the JSON is nested too deeply for kschedlearn to decode (Go 1.7's encoding/json has no depth "
            "limit; kschedlearn stops at Python's)")


class _Pairs(list):  # type: ignore[type-arg]
    """A JSON object as its (key, value) pairs, in document order, duplicates kept."""


def unmarshal_error(text: str | bytes, gotype: str, structs: Mapping[str, Mapping[str, str]],
                    strings: frozenset[str] = frozenset()) -> str:
    """The error text of Go's ``json.Unmarshal(text, &v)`` for ``v`` of type ``gotype`` ("" = none).

    ``structs`` maps each Go struct type name to ``{json key: Go type}``; ``strings`` names the
    Go types whose kind is string (``v1.NodeSelectorOperator``, ``types.UID``, ...).
    """
    bad = syntax_error(text)
    if bad:
        return bad
    try:
        value = json.loads(text, object_pairs_hook=_Pairs, parse_int=_Num, parse_float=_Num)
    except RecursionError:
        return TOO_DEEP
    saved: list[str] = []
    try:
        _check(value, gotype, structs, strings, saved)
    except _Mismatch as err:
        return str(err)
    except RecursionError:
        return TOO_DEEP
    return saved[0] if saved else ""
