"""Label selectors: requirements, their string form, and the selector-language parser.

Go: ``k8s.io/apimachinery/pkg/labels/selector.go``,
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/labels/selector.go

A selector is an AND of requirements such as ``tier in (web,api)``, ``!canary`` or ``env=prod``.
``parse`` reads the text form with Go's hand-written lexer and recursive-descent parser, so it
accepts and rejects exactly what kubectl's ``-l`` accepts, with the same error texts.

Differs from Go: errors are raised as :class:`InvalidSelectorError` (a ``ValueError``) carrying
Go's message; the ``glog.V(10)`` debug lines inside ``Requirement.Matches`` are omitted.
"""

from __future__ import annotations

import abc
import enum
from collections.abc import Iterable, Mapping

import attrs

from kschedlearn.apimachinery import selection
from kschedlearn.apimachinery._gostrconv import quote
from kschedlearn.apimachinery.selection import Operator
from kschedlearn.apimachinery.util.validation import is_qualified_name, is_valid_label_value

_DIGITS = frozenset("0123456789")


class InvalidSelectorError(ValueError):
    """A requirement or selector string that Go would reject (message as in Go)."""


def _parse_int64(s: str) -> int | None:
    """``strconv.ParseInt(s, 10, 64)``: optional sign and ASCII digits within int64, else None."""
    body = s[1:] if s[:1] in ("+", "-") else s
    if not body or any(c not in _DIGITS for c in body):
        return None
    v = int(s)
    return v if -(1 << 63) <= v < (1 << 63) else None


@attrs.frozen
class Requirement:
    """One condition on one label key: ``key <operator> values``.

    Go: selector.go ``Requirement`` (build it with :func:`new_requirement`; the zero value,
    ``Requirement()``, is invalid and matches nothing, as in Go).
    """

    _key: str = ""
    _operator: Operator = ""
    _str_values: tuple[str, ...] = ()

    def _has_value(self, value: str) -> bool:
        return value in self._str_values

    def matches(self, ls: Mapping[str, str]) -> bool:
        """Whether the labels satisfy this requirement.

        Go: selector.go ``Requirement.Matches``. A missing key satisfies only ``notin``, ``!=``
        and ``!``; ``gt``/``lt`` compare base-10 int64 values and fail on anything else.
        """
        op = self._operator
        if op in (selection.IN, selection.EQUALS, selection.DOUBLE_EQUALS):
            if self._key not in ls:
                return False
            return self._has_value(ls[self._key])
        if op in (selection.NOT_IN, selection.NOT_EQUALS):
            if self._key not in ls:
                return True
            return not self._has_value(ls[self._key])
        if op == selection.EXISTS:
            return self._key in ls
        if op == selection.DOES_NOT_EXIST:
            return self._key not in ls
        if op in (selection.GREATER_THAN, selection.LESS_THAN):
            if self._key not in ls:
                return False
            ls_value = _parse_int64(ls[self._key])
            if ls_value is None or len(self._str_values) != 1:
                return False
            r_value = _parse_int64(self._str_values[0])
            if r_value is None:
                return False
            if op == selection.GREATER_THAN:
                return ls_value > r_value
            return ls_value < r_value
        return False

    def key(self) -> str:
        """Go: selector.go ``Requirement.Key``."""
        return self._key

    def operator(self) -> Operator:
        """Go: selector.go ``Requirement.Operator``."""
        return self._operator

    def values(self) -> set[str]:
        """The value set (a fresh ``set``). Go: selector.go ``Requirement.Values``."""
        return set(self._str_values)

    def string(self) -> str:
        """The requirement in selector syntax, e.g. ``x in (a,b)``, ``!y``, ``z>3``.

        Go: selector.go ``Requirement.String``.
        """
        parts: list[str] = []
        if self._operator == selection.DOES_NOT_EXIST:
            parts.append("!")
        parts.append(self._key)
        symbol = _OPERATOR_TEXT.get(self._operator)
        if self._operator in (selection.EXISTS, selection.DOES_NOT_EXIST):
            return "".join(parts)
        if symbol is not None:
            parts.append(symbol)
        set_based = self._operator in (selection.IN, selection.NOT_IN)
        if set_based:
            parts.append("(")
        parts.append(",".join(self._str_values))
        if set_based:
            parts.append(")")
        return "".join(parts)

    def __str__(self) -> str:
        return self.string()


_OPERATOR_TEXT: dict[Operator, str] = {
    selection.EQUALS: "=",
    selection.DOUBLE_EQUALS: "==",
    selection.NOT_EQUALS: "!=",
    selection.IN: " in ",
    selection.NOT_IN: " notin ",
    selection.GREATER_THAN: ">",
    selection.LESS_THAN: "<",
}


def new_requirement(key: str, op: Operator, vals: Iterable[str]) -> Requirement:
    """Build a validated requirement; values are stored sorted.

    Go: selector.go ``NewRequirement``. Rules: ``in``/``notin`` need at least one value;
    ``=``/``==``/``!=`` exactly one; ``exists``/``!`` none; ``gt``/``lt`` exactly one integer;
    the key must be a qualified name and each value a valid label value.
    Raises :class:`InvalidSelectorError` with Go's message.
    """
    values = list(vals)
    _validate_label_key(key)
    if op in (selection.IN, selection.NOT_IN):
        if len(values) == 0:
            raise InvalidSelectorError("for 'in', 'notin' operators, values set can't be empty")
    elif op in (selection.EQUALS, selection.DOUBLE_EQUALS, selection.NOT_EQUALS):
        if len(values) != 1:
            raise InvalidSelectorError("exact-match compatibility requires one single value")
    elif op in (selection.EXISTS, selection.DOES_NOT_EXIST):
        if len(values) != 0:
            raise InvalidSelectorError("values set must be empty for exists and does not exist")
    elif op in (selection.GREATER_THAN, selection.LESS_THAN):
        if len(values) != 1:
            raise InvalidSelectorError("for 'Gt', 'Lt' operators, exactly one value is required")
        for value in values:
            if _parse_int64(value) is None:
                raise InvalidSelectorError("for 'Gt', 'Lt' operators, the value must be an integer")
    else:
        raise InvalidSelectorError(f"operator '{op}' is not recognized")
    for value in values:
        _validate_label_value(value)
    return Requirement(key=key, operator=op, str_values=tuple(sorted(values)))


class Selector(abc.ABC):
    """A label selector. Go: selector.go ``Selector`` interface."""

    __slots__ = ()

    @abc.abstractmethod
    def matches(self, labels: Mapping[str, str]) -> bool:
        """Whether the selector matches the labels."""

    @abc.abstractmethod
    def empty(self) -> bool:
        """True when the selector does not restrict anything."""

    @abc.abstractmethod
    def string(self) -> str:
        """The selector in selector syntax."""

    @abc.abstractmethod
    def add(self, *reqs: Requirement) -> Selector:
        """A new selector with more requirements."""

    @abc.abstractmethod
    def requirements(self) -> tuple[tuple[Requirement, ...], bool]:
        """The requirements, and False when the selector selects nothing."""

    def deep_copy_selector(self) -> Selector:
        """Go: ``Selector.DeepCopySelector``; selectors are immutable, so ``self``."""
        return self

    def __str__(self) -> str:
        return self.string()


@attrs.frozen
class InternalSelector(Selector):
    """The usual selector: requirements ANDed together, kept sorted by key.

    Go: selector.go ``internalSelector`` (a ``[]Requirement``).
    Differs from Go: public name so learners can inspect it; holds a tuple.
    """

    _requirements: tuple[Requirement, ...] = ()

    def matches(self, labels: Mapping[str, str]) -> bool:
        """Go: selector.go ``internalSelector.Matches``."""
        return all(r.matches(labels) for r in self._requirements)

    def empty(self) -> bool:
        """Go: selector.go ``internalSelector.Empty``."""
        return len(self._requirements) == 0

    def string(self) -> str:
        """Requirements joined by ``,``. Go: selector.go ``internalSelector.String``."""
        return ",".join(r.string() for r in self._requirements)

    def add(self, *reqs: Requirement) -> Selector:
        """Go: selector.go ``internalSelector.Add`` (copies, appends, sorts by key)."""
        return InternalSelector(requirements=_sorted_by_key([*self._requirements, *reqs]))

    def requirements(self) -> tuple[tuple[Requirement, ...], bool]:
        """Go: selector.go ``internalSelector.Requirements``."""
        return self._requirements, True

    def __str__(self) -> str:
        return self.string()


@attrs.frozen
class NothingSelector(Selector):
    """A selector that matches nothing. Go: selector.go ``nothingSelector``."""

    def matches(self, labels: Mapping[str, str]) -> bool:
        return False

    def empty(self) -> bool:
        return False

    def string(self) -> str:
        return ""

    def add(self, *reqs: Requirement) -> Selector:
        return self

    def requirements(self) -> tuple[tuple[Requirement, ...], bool]:
        return (), False

    def __str__(self) -> str:
        return self.string()


def _sorted_by_key(reqs: Iterable[Requirement]) -> tuple[Requirement, ...]:
    """Go: ``sort.Sort(ByKey(...))`` (stable here; Go's insertion sort is stable for short lists)."""
    return tuple(sorted(reqs, key=lambda r: r.key()))


def everything() -> Selector:
    """A selector that matches all labels. Go: selector.go ``Everything``."""
    return InternalSelector()


def nothing() -> Selector:
    """A selector that matches no labels. Go: selector.go ``Nothing``."""
    return NothingSelector()


def new_selector() -> Selector:
    """An empty (match-everything) selector to ``add`` to. Go: selector.go ``NewSelector``."""
    return InternalSelector()


# ---------------------------------------------------------------------------------------------
# Lexer
# ---------------------------------------------------------------------------------------------


class Token(enum.IntEnum):
    """Lexer token kinds. Go: selector.go ``Token`` constants (same order and values)."""

    ERROR_TOKEN = 0
    END_OF_STRING_TOKEN = 1
    CLOSED_PAR_TOKEN = 2
    COMMA_TOKEN = 3
    DOES_NOT_EXIST_TOKEN = 4
    DOUBLE_EQUALS_TOKEN = 5
    EQUALS_TOKEN = 6
    GREATER_THAN_TOKEN = 7
    IDENTIFIER_TOKEN = 8
    IN_TOKEN = 9
    LESS_THAN_TOKEN = 10
    NOT_EQUALS_TOKEN = 11
    NOT_IN_TOKEN = 12
    OPEN_PAR_TOKEN = 13


_STRING2TOKEN: dict[str, Token] = {
    ")": Token.CLOSED_PAR_TOKEN,
    ",": Token.COMMA_TOKEN,
    "!": Token.DOES_NOT_EXIST_TOKEN,
    "==": Token.DOUBLE_EQUALS_TOKEN,
    "=": Token.EQUALS_TOKEN,
    ">": Token.GREATER_THAN_TOKEN,
    "in": Token.IN_TOKEN,
    "<": Token.LESS_THAN_TOKEN,
    "!=": Token.NOT_EQUALS_TOKEN,
    "notin": Token.NOT_IN_TOKEN,
    "(": Token.OPEN_PAR_TOKEN,
}

# Go's lexer reads bytes and uses byte 0 as "end of input" (so an embedded NUL also ends it).
_EOF = "\x00"


@attrs.frozen
class ScannedItem:
    """A token and its text. Go: selector.go ``ScannedItem``."""

    tok: Token
    literal: str


def _is_whitespace(ch: str) -> bool:
    return ch in (" ", "\t", "\r", "\n")


def _is_special_symbol(ch: str) -> bool:
    return ch in ("=", "!", "(", ")", ",", ">", "<")


@attrs.define(eq=False)
class Lexer:
    """Splits a selector string into tokens. Go: selector.go ``Lexer``."""

    s: str
    pos: int = 0

    def read(self) -> str:
        """The next character, or NUL at the end. Go: ``Lexer.read``."""
        if self.pos < len(self.s):
            ch = self.s[self.pos]
            self.pos += 1
            return ch
        return _EOF

    def unread(self) -> None:
        """Go: ``Lexer.unread``."""
        self.pos -= 1

    def scan_id_or_keyword(self) -> tuple[Token, str]:
        """An identifier, or the keywords ``in`` / ``notin``. Go: ``Lexer.scanIDOrKeyword``."""
        buffer: list[str] = []
        while True:
            ch = self.read()
            if ch == _EOF:
                break
            if _is_special_symbol(ch) or _is_whitespace(ch):
                self.unread()
                break
            buffer.append(ch)
        text = "".join(buffer)
        if text in _STRING2TOKEN:
            return _STRING2TOKEN[text], text
        return Token.IDENTIFIER_TOKEN, text

    def scan_special_symbol(self) -> tuple[Token, str]:
        """The longest operator made of ``=!(),<>``. Go: ``Lexer.scanSpecialSymbol``."""
        last: ScannedItem | None = None
        buffer: list[str] = []
        while True:
            ch = self.read()
            if ch == _EOF:
                break
            if not _is_special_symbol(ch):
                self.unread()
                break
            buffer.append(ch)
            text = "".join(buffer)
            if text in _STRING2TOKEN:
                last = ScannedItem(tok=_STRING2TOKEN[text], literal=text)
            elif last is not None:
                self.unread()
                break
        if last is None:
            return Token.ERROR_TOKEN, f"error expected: keyword found '{''.join(buffer)}'"
        return last.tok, last.literal

    def skip_white_spaces(self, ch: str) -> str:
        """Go: ``Lexer.skipWhiteSpaces``."""
        while _is_whitespace(ch):
            ch = self.read()
        return ch

    def lex(self) -> tuple[Token, str]:
        """The next token and its literal. Go: ``Lexer.Lex``."""
        ch = self.skip_white_spaces(self.read())
        if ch == _EOF:
            return Token.END_OF_STRING_TOKEN, ""
        self.unread()
        if _is_special_symbol(ch):
            return self.scan_special_symbol()
        return self.scan_id_or_keyword()


# ---------------------------------------------------------------------------------------------
# Parser
# ---------------------------------------------------------------------------------------------


class ParserContext(enum.IntEnum):
    """Whether ``in``/``notin`` are operators or plain values here. Go: ``ParserContext``."""

    KEY_AND_OPERATOR = 0
    VALUES = 1


@attrs.define(eq=False)
class Parser:
    """Recursive-descent parser over the scanned tokens. Go: selector.go ``Parser``."""

    l: Lexer  # noqa: E741 - Go's field name
    scanned_items: list[ScannedItem] = attrs.Factory(list)
    position: int = 0

    def _item(self, index: int, context: ParserContext) -> tuple[Token, str]:
        item = self.scanned_items[index]
        tok = item.tok
        if context == ParserContext.VALUES and tok in (Token.IN_TOKEN, Token.NOT_IN_TOKEN):
            tok = Token.IDENTIFIER_TOKEN
        return tok, item.literal

    def lookahead(self, context: ParserContext) -> tuple[Token, str]:
        """The current token, without advancing. Go: ``Parser.lookahead``."""
        return self._item(self.position, context)

    def consume(self, context: ParserContext) -> tuple[Token, str]:
        """The current token, advancing past it. Go: ``Parser.consume``."""
        self.position += 1
        return self._item(self.position - 1, context)

    def scan(self) -> None:
        """Lex the whole input up to END_OF_STRING. Go: ``Parser.scan``."""
        while True:
            token, literal = self.l.lex()
            self.scanned_items.append(ScannedItem(tok=token, literal=literal))
            if token == Token.END_OF_STRING_TOKEN:
                break

    def parse(self) -> list[Requirement]:
        """``requirement ("," requirement)*``. Go: ``Parser.parse``."""
        self.scan()
        requirements: list[Requirement] = []
        while True:
            tok, lit = self.lookahead(ParserContext.VALUES)
            if tok in (Token.IDENTIFIER_TOKEN, Token.DOES_NOT_EXIST_TOKEN):
                try:
                    r = self.parse_requirement()
                except InvalidSelectorError as err:
                    raise InvalidSelectorError(f"unable to parse requirement: {err}") from err
                requirements.append(r)
                t, l = self.consume(ParserContext.VALUES)  # noqa: E741 - Go's name
                if t == Token.END_OF_STRING_TOKEN:
                    return requirements
                if t == Token.COMMA_TOKEN:
                    t2, l2 = self.lookahead(ParserContext.VALUES)
                    if t2 not in (Token.IDENTIFIER_TOKEN, Token.DOES_NOT_EXIST_TOKEN):
                        raise InvalidSelectorError(f"found '{l2}', expected: identifier after ','")
                else:
                    raise InvalidSelectorError(f"found '{l}', expected: ',' or 'end of string'")
            elif tok == Token.END_OF_STRING_TOKEN:
                return requirements
            else:
                raise InvalidSelectorError(f"found '{lit}', expected: !, identifier, or 'end of string'")

    def parse_requirement(self) -> Requirement:
        """Go: ``Parser.parseRequirement``."""
        key, operator = self.parse_key_and_infer_operator()
        if operator in (selection.EXISTS, selection.DOES_NOT_EXIST):
            return new_requirement(key, operator, [])
        operator = self.parse_operator()
        values: set[str] = set()
        if operator in (selection.IN, selection.NOT_IN):
            values = self.parse_values()
        elif operator in (
            selection.EQUALS,
            selection.DOUBLE_EQUALS,
            selection.NOT_EQUALS,
            selection.GREATER_THAN,
            selection.LESS_THAN,
        ):
            values = self.parse_exact_value()
        return new_requirement(key, operator, sorted(values))

    def parse_key_and_infer_operator(self) -> tuple[str, Operator]:
        """A key, optionally after ``!``; infers ``exists`` when no operator follows.

        Go: ``Parser.parseKeyAndInferOperator``.
        """
        operator: Operator = ""
        tok, literal = self.consume(ParserContext.VALUES)
        if tok == Token.DOES_NOT_EXIST_TOKEN:
            operator = selection.DOES_NOT_EXIST
            tok, literal = self.consume(ParserContext.VALUES)
        if tok != Token.IDENTIFIER_TOKEN:
            raise InvalidSelectorError(f"found '{literal}', expected: identifier")
        _validate_label_key(literal)
        t, _ = self.lookahead(ParserContext.VALUES)
        if t in (Token.END_OF_STRING_TOKEN, Token.COMMA_TOKEN):
            if operator != selection.DOES_NOT_EXIST:
                operator = selection.EXISTS
        return literal, operator

    def parse_operator(self) -> Operator:
        """Go: ``Parser.parseOperator``."""
        tok, lit = self.consume(ParserContext.KEY_AND_OPERATOR)
        op = _TOKEN_OPERATORS.get(tok)
        if op is None:
            raise InvalidSelectorError(f"found '{lit}', expected: '=', '!=', '==', 'in', notin'")
        return op

    def parse_values(self) -> set[str]:
        """``"(" values ")"``; ``()`` means the single empty value. Go: ``Parser.parseValues``."""
        tok, lit = self.consume(ParserContext.VALUES)
        if tok != Token.OPEN_PAR_TOKEN:
            raise InvalidSelectorError(f"found '{lit}' expected: '('")
        tok, lit = self.lookahead(ParserContext.VALUES)
        if tok in (Token.IDENTIFIER_TOKEN, Token.COMMA_TOKEN):
            s = self.parse_identifiers_list()
            tok, _ = self.consume(ParserContext.VALUES)
            if tok != Token.CLOSED_PAR_TOKEN:
                # Go reports the literal seen *before* the list here, not the offending one.
                raise InvalidSelectorError(f"found '{lit}', expected: ')'")
            return s
        if tok == Token.CLOSED_PAR_TOKEN:
            self.consume(ParserContext.VALUES)
            return {""}
        raise InvalidSelectorError(f"found '{lit}', expected: ',', ')' or identifier")

    def parse_identifiers_list(self) -> set[str]:
        """Comma-separated, possibly empty identifiers. Go: ``Parser.parseIdentifiersList``."""
        s: set[str] = set()
        while True:
            tok, lit = self.consume(ParserContext.VALUES)
            if tok == Token.IDENTIFIER_TOKEN:
                s.add(lit)
                tok2, lit2 = self.lookahead(ParserContext.VALUES)
                if tok2 == Token.COMMA_TOKEN:
                    continue
                if tok2 == Token.CLOSED_PAR_TOKEN:
                    return s
                raise InvalidSelectorError(f"found '{lit2}', expected: ',' or ')'")
            if tok == Token.COMMA_TOKEN:
                if len(s) == 0:
                    s.add("")  # "(," starts with an empty value
                tok2, _ = self.lookahead(ParserContext.VALUES)
                if tok2 == Token.CLOSED_PAR_TOKEN:
                    s.add("")  # ",)" ends with an empty value
                    return s
                if tok2 == Token.COMMA_TOKEN:
                    self.consume(ParserContext.VALUES)
                    s.add("")  # ",," has an empty value between
                continue
            raise InvalidSelectorError(f"found '{lit}', expected: ',', or identifier")

    def parse_exact_value(self) -> set[str]:
        """The single value after ``=``/``==``/``!=``/``<``/``>`` (may be empty).

        Go: ``Parser.parseExactValue``.
        """
        tok, lit = self.lookahead(ParserContext.VALUES)
        if tok in (Token.END_OF_STRING_TOKEN, Token.COMMA_TOKEN):
            return {""}
        tok, lit = self.consume(ParserContext.VALUES)
        if tok == Token.IDENTIFIER_TOKEN:
            return {lit}
        raise InvalidSelectorError(f"found '{lit}', expected: identifier")


_TOKEN_OPERATORS: dict[Token, Operator] = {
    Token.IN_TOKEN: selection.IN,
    Token.EQUALS_TOKEN: selection.EQUALS,
    Token.DOUBLE_EQUALS_TOKEN: selection.DOUBLE_EQUALS,
    Token.GREATER_THAN_TOKEN: selection.GREATER_THAN,
    Token.LESS_THAN_TOKEN: selection.LESS_THAN,
    Token.NOT_IN_TOKEN: selection.NOT_IN,
    Token.NOT_EQUALS_TOKEN: selection.NOT_EQUALS,
}


def parse(selector: str) -> Selector:
    """Parse the selector language, e.g. ``"x in (foo,,baz),y,z notin ()"``.

    Go: selector.go ``Parse``. Raises :class:`InvalidSelectorError` with Go's message.
    """
    return _parse(selector)


def _parse(selector: str) -> InternalSelector:
    """Go: selector.go ``parse`` (requirements sorted by key for a deterministic result)."""
    p = Parser(l=Lexer(s=selector, pos=0))
    items = p.parse()
    return InternalSelector(requirements=_sorted_by_key(items))


def parse_to_requirements(selector: str) -> list[Requirement]:
    """Go: selector.go ``ParseToRequirements``."""
    return list(_parse(selector).requirements()[0])


def _validate_label_key(k: str) -> None:
    """Go: selector.go ``validateLabelKey``."""
    errs = is_qualified_name(k)
    if errs:
        raise InvalidSelectorError(f"invalid label key {quote(k)}: {'; '.join(errs)}")


def _validate_label_value(v: str) -> None:
    """Go: selector.go ``validateLabelValue``."""
    errs = is_valid_label_value(v)
    if errs:
        raise InvalidSelectorError(f"invalid label value: {quote(v)}: {'; '.join(errs)}")


def selector_from_set(ls: Mapping[str, str] | None) -> Selector:
    """A selector requiring exactly these ``key=value`` pairs; empty or None → everything.

    Go: selector.go ``SelectorFromSet``. Quirk kept from Go: if any pair is invalid the result
    is the *match-everything* selector (Go's TODO).
    """
    if not ls:
        return InternalSelector()
    requirements: list[Requirement] = []
    for label, value in ls.items():
        try:
            requirements.append(new_requirement(label, selection.EQUALS, [value]))
        except InvalidSelectorError:
            return InternalSelector()
    return InternalSelector(requirements=_sorted_by_key(requirements))


def selector_from_validated_set(ls: Mapping[str, str] | None) -> Selector:
    """Like :func:`selector_from_set` but trusts the input. Go: ``SelectorFromValidatedSet``."""
    if not ls:
        return InternalSelector()
    requirements = [
        Requirement(key=label, operator=selection.EQUALS, str_values=(value,)) for label, value in ls.items()
    ]
    return InternalSelector(requirements=_sorted_by_key(requirements))
