"""Ports of apimachinery labels/selector_test.go and labels_test.go (v1.6.1).

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/labels/selector_test.go
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from kschedlearn.apimachinery import labels, selection
from kschedlearn.apimachinery.labels import (
    InternalSelector,
    InvalidSelectorError,
    Lexer,
    Parser,
    ParserContext,
    Requirement,
    Set,
    Token,
    new_requirement,
)

GOOD = ["x=a,y=b,z=c", "", "x!=a,y=b", "x=", "x= ", "x=,z= ", "x= ,z= ", "!x", "x>1", "x>1,z<5"]
BAD = ["x=a||y=b", "x==a==b", "!x=a", "x<a"]


@pytest.mark.parametrize("text", GOOD, ids=[f"TestSelectorParse/good/{t!r}" for t in GOOD])
def test_selector_parse_good(text: str) -> None:
    assert labels.parse(text).string() == text.replace(" ", "")


@pytest.mark.parametrize("text", BAD, ids=[f"TestSelectorParse/bad/{t!r}" for t in BAD])
def test_selector_parse_bad(text: str) -> None:
    with pytest.raises(InvalidSelectorError):
        labels.parse(text)


def test_deterministic_parse() -> None:
    """Go: TestDeterministicParse."""
    assert str(labels.parse("x=a,a=x")) == str(labels.parse("a=x,x=a")) == "a=x,x=a"


def test_everything() -> None:
    """Go: TestEverything."""
    assert labels.everything().matches(Set({"x": "y"}))
    assert labels.everything().empty()
    assert not labels.nothing().matches({})
    assert not labels.nothing().empty()
    assert labels.nothing().requirements() == ((), False)


MATCH = [
    ("", {"x": "y"}, True), ("x=y", {"x": "y"}, True), ("x=y,z=w", {"x": "y", "z": "w"}, True),
    ("x!=y,z!=w", {"x": "z", "z": "a"}, True), ("notin=in", {"notin": "in"}, True), ("x", {"x": "z"}, True),
    ("!x", {"y": "z"}, True), ("x>1", {"x": "2"}, True), ("x<1", {"x": "0"}, True),
    ("x=z", {}, False), ("x=y", {"x": "z"}, False), ("x=y,z=w", {"x": "w", "z": "w"}, False),
    ("x!=y,z!=w", {"x": "z", "z": "w"}, False), ("x", {"y": "z"}, False), ("!x", {"x": "z"}, False),
    ("x>1", {"x": "0"}, False), ("x<1", {"x": "2"}, False),
    ("foo=bar", {"foo": "bar", "baz": "blah"}, True), ("baz=blah", {"foo": "bar", "baz": "blah"}, True),
    ("foo=bar,baz=blah", {"foo": "bar", "baz": "blah"}, True), ("foo=blah", {"foo": "bar", "baz": "blah"}, False),
    ("baz=bar", {"foo": "bar", "baz": "blah"}, False),
    ("foo=bar,foobar=bar,baz=blah", {"foo": "bar", "baz": "blah"}, False),
]


@pytest.mark.parametrize(("sel", "ls", "want"), MATCH, ids=[f"TestSelectorMatches/{s!r}-{w}" for s, _, w in MATCH])
def test_selector_matches(sel: str, ls: dict[str, str], want: bool) -> None:
    assert labels.parse(sel).matches(Set(ls)) is want
    assert labels.parse(sel).matches(ls) is want  # plain dicts work too


SET_MATCH = [{}, {"foo": "bar"}, {"baz": "blah"}, {"foo": "bar", "baz": "blah"}]


@pytest.mark.parametrize("sel", SET_MATCH, ids=[f"TestSetMatches/{i}" for i in range(len(SET_MATCH))])
def test_set_matches(sel: dict[str, str]) -> None:
    assert labels.selector_from_set(sel).matches({"foo": "bar", "baz": "blah"})


def test_nil_and_empty_sets_are_everything() -> None:
    """Go: TestNilMapIsValid, TestSetIsEmpty."""
    assert labels.selector_from_set(None).empty()
    assert Set().as_selector().empty()
    assert labels.new_selector().empty()


def test_selector_from_set_string_is_sorted_and_invalid_sets_select_everything() -> None:
    assert str(labels.selector_from_set({"b": "2", "a": "1"})) == "a=1,b=2"
    assert labels.selector_from_set({"a b": "1"}).empty()  # Go's TODO: invalid → everything
    assert str(labels.selector_from_validated_set({"b": "2", "a": "1"})) == "a=1,b=2"


LEX = [
    ("", Token.END_OF_STRING_TOKEN), (",", Token.COMMA_TOKEN), ("notin", Token.NOT_IN_TOKEN),
    ("in", Token.IN_TOKEN), ("=", Token.EQUALS_TOKEN), ("==", Token.DOUBLE_EQUALS_TOKEN),
    (">", Token.GREATER_THAN_TOKEN), ("<", Token.LESS_THAN_TOKEN), ("!", Token.DOES_NOT_EXIST_TOKEN),
    ("!=", Token.NOT_EQUALS_TOKEN), ("(", Token.OPEN_PAR_TOKEN), (")", Token.CLOSED_PAR_TOKEN),
    ("~", Token.IDENTIFIER_TOKEN), ("||", Token.IDENTIFIER_TOKEN),
]


@pytest.mark.parametrize(("text", "tok"), LEX, ids=[f"TestLexer/{t!r}" for t, _ in LEX])
def test_lexer(text: str, tok: Token) -> None:
    token, lit = Lexer(s=text).lex()
    assert token == tok
    assert lit == text


I, N, O, C, CO = Token.IDENTIFIER_TOKEN, Token.IN_TOKEN, Token.OPEN_PAR_TOKEN, Token.CLOSED_PAR_TOKEN, Token.COMMA_TOKEN
SEQ = [
    ("key in ( value )", [I, N, O, I, C]),
    ("key notin ( value )", [I, Token.NOT_IN_TOKEN, O, I, C]),
    ("key in ( value1, value2 )", [I, N, O, I, CO, I, C]),
    ("key", [I]),
    ("!key", [Token.DOES_NOT_EXIST_TOKEN, I]),
    ("()", [O, C]),
    ("x in (),y", [I, N, O, C, CO, I]),
    ("== != (), = notin", [Token.DOUBLE_EQUALS_TOKEN, Token.NOT_EQUALS_TOKEN, O, C, CO, Token.EQUALS_TOKEN,
                           Token.NOT_IN_TOKEN]),
    ("key>2", [I, Token.GREATER_THAN_TOKEN, I]),
    ("key<1", [I, Token.LESS_THAN_TOKEN, I]),
]


@pytest.mark.parametrize(("text", "tokens"), SEQ, ids=[f"TestLexerSequence/{t!r}" for t, _ in SEQ])
def test_lexer_sequence(text: str, tokens: list[Token]) -> None:
    lexer = Lexer(s=text)
    got = []
    while True:
        tok, _ = lexer.lex()
        if tok == Token.END_OF_STRING_TOKEN:
            break
        got.append(tok)
    assert got == tokens


@pytest.mark.parametrize(("text", "tokens"), SEQ + [("", [])], ids=[f"TestParserLookahead/{t!r}" for t, _ in SEQ + [("", [])]])
def test_parser_lookahead(text: str, tokens: list[Token]) -> None:
    p = Parser(l=Lexer(s=text))
    p.scan()
    assert [item.tok for item in p.scanned_items] == tokens + [Token.END_OF_STRING_TOKEN]
    while True:
        look = p.lookahead(ParserContext.KEY_AND_OPERATOR)
        got = p.consume(ParserContext.KEY_AND_OPERATOR)
        if look[0] == Token.END_OF_STRING_TOKEN:
            break
        assert look == got


def test_values_context_turns_keywords_into_identifiers() -> None:
    p = Parser(l=Lexer(s="in"))
    p.scan()
    assert p.lookahead(ParserContext.VALUES) == (Token.IDENTIFIER_TOKEN, "in")
    assert p.lookahead(ParserContext.KEY_AND_OPERATOR) == (Token.IN_TOKEN, "in")


CTOR = [
    ("x", selection.IN, [], False), ("x", selection.NOT_IN, [], False), ("x", selection.IN, ["foo"], True),
    ("x", selection.NOT_IN, ["foo"], True), ("x", selection.EXISTS, [], True),
    ("x", selection.DOES_NOT_EXIST, [], True), ("1foo", selection.IN, ["bar"], True),
    ("1234", selection.IN, ["bar"], True), ("y", selection.GREATER_THAN, ["1"], True),
    ("z", selection.LESS_THAN, ["6"], True), ("foo", selection.GREATER_THAN, ["bar"], False),
    ("barz", selection.LESS_THAN, ["blah"], False), ("a" * 254, selection.EXISTS, [], False),
    ("x", selection.EQUALS, ["a", "b"], False), ("x", selection.EXISTS, ["a"], False), ("x", "bogus", [], False),
]


@pytest.mark.parametrize(("key", "op", "vals", "ok"), CTOR,
                         ids=[f"TestRequirementConstructor/{k[:8]}-{o}-{v}" for k, o, v, _ in CTOR])
def test_requirement_constructor(key: str, op: str, vals: list[str], ok: bool) -> None:
    if ok:
        r = new_requirement(key, op, vals)
        assert (r.key(), r.operator(), r.values()) == (key, op, set(vals))
    else:
        with pytest.raises(InvalidSelectorError):
            new_requirement(key, op, vals)


ERRORS = [
    ("x", selection.IN, [], "for 'in', 'notin' operators, values set can't be empty"),
    ("x", selection.EQUALS, [], "exact-match compatibility requires one single value"),
    ("x", selection.EXISTS, ["a"], "values set must be empty for exists and does not exist"),
    ("x", selection.GREATER_THAN, ["1", "2"], "for 'Gt', 'Lt' operators, exactly one value is required"),
    ("x", selection.LESS_THAN, ["a"], "for 'Gt', 'Lt' operators, the value must be an integer"),
    ("x", "bogus", [], "operator 'bogus' is not recognized"),
    ("a/b/c", selection.EXISTS, [],
     "invalid label key \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', "
     "and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', "
     "regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain "
     "prefix and '/' (e.g. 'example.com/MyName')"),
    ("x", selection.IN, ["-a"],
     "invalid label value: \"-a\": a valid label must be an empty string or consist of alphanumeric characters, "
     "'-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  "
     "or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"),
    ("a" * 64, selection.EXISTS, [], f"invalid label key \"{'a' * 64}\": name part must be no more than 63 characters"),
    ("/a", selection.EXISTS, [], "invalid label key \"/a\": prefix part must be non-empty"),
]


@pytest.mark.parametrize(("key", "op", "vals", "msg"), ERRORS, ids=[f"NewRequirement-error/{i}" for i in range(len(ERRORS))])
def test_requirement_error_messages(key: str, op: str, vals: list[str], msg: str) -> None:
    with pytest.raises(InvalidSelectorError) as info:
        new_requirement(key, op, vals)
    assert str(info.value) == msg


def _r(key: str, op: str, vals: list[str] | None = None) -> Requirement:
    return new_requirement(key, op, vals or [])


TO_STRING = [
    ([_r("x", selection.IN, ["abc", "def"]), _r("y", selection.NOT_IN, ["jkl"]), _r("z", selection.EXISTS)],
     "x in (abc,def),y notin (jkl),z"),
    ([_r("x", selection.NOT_IN, ["abc", "def"]), _r("y", selection.NOT_EQUALS, ["jkl"]),
      _r("z", selection.DOES_NOT_EXIST)], "x notin (abc,def),y!=jkl,!z"),
    ([_r("x", selection.IN, ["abc", "def"]), Requirement()], "x in (abc,def),"),
    ([_r("x", selection.NOT_IN, ["abc"]), _r("y", selection.IN, ["jkl", "mno"]), _r("z", selection.NOT_IN, [""])],
     "x notin (abc),y in (jkl,mno),z notin ()"),
    ([_r("x", selection.EQUALS, ["abc"]), _r("y", selection.DOUBLE_EQUALS, ["jkl"]),
      _r("z", selection.NOT_EQUALS, ["a"]), _r("z", selection.EXISTS)], "x=abc,y==jkl,z!=a,z"),
    ([_r("x", selection.GREATER_THAN, ["2"]), _r("y", selection.LESS_THAN, ["8"]), _r("z", selection.EXISTS)],
     "x>2,y<8,z"),
]


@pytest.mark.parametrize(("reqs", "out"), TO_STRING, ids=[f"TestToString/{i}" for i in range(len(TO_STRING))])
def test_to_string(reqs: list[Requirement], out: str) -> None:
    assert InternalSelector(requirements=tuple(reqs)).string() == out


REQ_MATCH = [
    ({"x": "foo", "y": "baz"}, [Requirement()], False),
    ({"x": "foo", "y": "baz"}, [_r("x", selection.IN, ["foo"]), _r("y", selection.NOT_IN, ["alpha"])], True),
    ({"x": "foo", "y": "baz"}, [_r("x", selection.IN, ["foo"]), _r("y", selection.IN, ["alpha"])], False),
    ({"y": ""}, [_r("x", selection.NOT_IN, [""]), _r("y", selection.EXISTS)], True),
    ({"y": ""}, [_r("x", selection.DOES_NOT_EXIST), _r("y", selection.EXISTS)], True),
    ({"y": ""}, [_r("x", selection.NOT_IN, [""]), _r("y", selection.DOES_NOT_EXIST)], False),
    ({"y": "baz"}, [_r("x", selection.IN, [""])], False),
    ({"z": "2"}, [_r("z", selection.GREATER_THAN, ["1"])], True),
    ({"z": "v2"}, [_r("z", selection.GREATER_THAN, ["1"])], False),
    ({"z": " 2"}, [_r("z", selection.GREATER_THAN, ["1"])], False),  # strict ParseInt: no spaces
]


@pytest.mark.parametrize(("ls", "reqs", "want"), REQ_MATCH,
                         ids=[f"TestRequirementSelectorMatching/{i}" for i in range(len(REQ_MATCH))])
def test_requirement_selector_matching(ls: dict[str, str], reqs: list[Requirement], want: bool) -> None:
    assert InternalSelector(requirements=tuple(reqs)).matches(Set(ls)) is want


PARSER = [
    ("", [], True),
    ("\rx", [_r("x", selection.EXISTS)], True),
    ("this-is-a-dns.domain.com/key-with-dash", [_r("this-is-a-dns.domain.com/key-with-dash", selection.EXISTS)], True),
    ("this-is-another-dns.domain.com/key-with-dash in (so,what)",
     [_r("this-is-another-dns.domain.com/key-with-dash", selection.IN, ["so", "what"])], True),
    ("0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)",
     [_r("0.1.2.domain/99", selection.NOT_IN, ["10.10.100.1", "tick.tack.clock"])], True),
    ("foo  in\t (abc)", [_r("foo", selection.IN, ["abc"])], True),
    ("x notin\n (abc)", [_r("x", selection.NOT_IN, ["abc"])], True),
    ("x  notin\t\t\t(abc,def)", [_r("x", selection.NOT_IN, ["abc", "def"])], True),
    ("x in (abc,def)", [_r("x", selection.IN, ["abc", "def"])], True),
    ("x in (abc,)", [_r("x", selection.IN, ["abc", ""])], True),
    ("x in ()", [_r("x", selection.IN, [""])], True),
    ("x notin (abc,,def),bar,z in (),w",
     [_r("bar", selection.EXISTS), _r("w", selection.EXISTS), _r("x", selection.NOT_IN, ["abc", "", "def"]),
      _r("z", selection.IN, [""])], True),
    ("x,y in (a)", [_r("x", selection.EXISTS), _r("y", selection.IN, ["a"])], True),
    ("x=a", [_r("x", selection.EQUALS, ["a"])], True),
    ("x>1", [_r("x", selection.GREATER_THAN, ["1"])], True),
    ("x<7", [_r("x", selection.LESS_THAN, ["7"])], True),
    ("x=a,y!=b", [_r("x", selection.EQUALS, ["a"]), _r("y", selection.NOT_EQUALS, ["b"])], True),
    ("x=a,y!=b,z in (h,i,j)",
     [_r("x", selection.EQUALS, ["a"]), _r("y", selection.NOT_EQUALS, ["b"]), _r("z", selection.IN, ["h", "i", "j"])],
     True),
    ("x=a||y=b", None, False),
    ("x,,y", None, False),
    (",x,y", None, False),
    ("x nott in (y)", None, False),
    ("x notin ( )", [_r("x", selection.NOT_IN, [""])], True),
    ("x notin (, a)", [_r("x", selection.NOT_IN, ["", "a"])], True),
    ("a in (xyz),", None, False),
    ("a in (xyz)b notin ()", None, False),
    ("a ", [_r("a", selection.EXISTS)], True),
    ("a in (x,y,notin, z,in)", [_r("a", selection.IN, ["in", "notin", "x", "y", "z"])], True),
    ("a in (xyz abc)", None, False),
    ("a notin(", None, False),
    ("a (", None, False),
    ("(", None, False),
]


@pytest.mark.parametrize(("text", "want", "valid"), PARSER, ids=[f"TestSetSelectorParser/{t!r}" for t, _, _ in PARSER])
def test_set_selector_parser(text: str, want: list[Requirement] | None, valid: bool) -> None:
    if not valid:
        with pytest.raises(InvalidSelectorError):
            labels.parse(text)
        return
    assert labels.parse(text) == InternalSelector(requirements=tuple(want or []))


PARSE_ERRORS = [
    ("x,,y", "found ',', expected: identifier after ','"),
    ("(", "found '(', expected: !, identifier, or 'end of string'"),
    ("a in (xyz)b notin ()", "found 'b', expected: ',' or 'end of string'"),
    ("a (", "unable to parse requirement: found '(', expected: '=', '!=', '==', 'in', notin'"),
    ("a in (xyz abc)", "unable to parse requirement: found 'abc', expected: ',' or ')'"),
    ("a notin(", "unable to parse requirement: found '', expected: ',', ')' or identifier"),
    ("x in y", "unable to parse requirement: found 'y' expected: '('"),
    ("x=(", "unable to parse requirement: found '(', expected: identifier"),
    ("!=", "found '!=', expected: !, identifier, or 'end of string'"),
]


@pytest.mark.parametrize(("text", "msg"), PARSE_ERRORS, ids=[f"parse-error/{t!r}" for t, _ in PARSE_ERRORS])
def test_parse_error_messages(text: str, msg: str) -> None:
    with pytest.raises(InvalidSelectorError) as info:
        labels.parse(text)
    assert str(info.value) == msg


def test_add() -> None:
    """Go: TestAdd — Add copies, appends and sorts by key."""
    base = labels.everything()
    one = base.add(new_requirement("key", selection.IN, ["value"]))
    assert one == InternalSelector(requirements=(Requirement(key="key", operator=selection.IN, str_values=("value",)),))
    two = one.add(new_requirement("key2", selection.EQUALS, ["value2"]))
    assert str(two) == "key in (value),key2=value2"
    assert base.empty() and str(one) == "key in (value)"  # receivers unchanged
    assert labels.nothing().add(new_requirement("a", selection.EXISTS, [])) == labels.nothing()


def test_set_helpers() -> None:
    """Go: labels_test.go (TestSetString, TestLabelHas/Get, TestLabelConflict, TestLabelMerge)."""
    s = Set({"x": "y", "a": "b"})
    assert str(s) == "a=b,x=y"
    assert s.has("x") and not s.has("q")
    assert s.get("q") == "" and s.get("x") == "y"
    assert labels.format_labels({}) == "<none>"
    assert labels.format_labels({"b": "1", "a": "2"}) == "a=2,b=1"
    assert labels.conflicts({"a": "1"}, {"a": "2", "b": "3"})
    assert not labels.conflicts({"a": "1"}, {"a": "1", "b": "3"})
    assert labels.merge({"a": "1", "b": "1"}, {"b": "2"}) == {"a": "1", "b": "2"}
    assert labels.equals({"a": "1"}, Set({"a": "1"}))


_key = st.from_regex(r"[a-z][a-z0-9]{0,5}", fullmatch=True)
_val = st.from_regex(r"[a-z0-9]{0,4}", fullmatch=True)


@settings(max_examples=examples(150), deadline=None)
@given(ls=st.dictionaries(_key, _val, max_size=4), sel=st.dictionaries(_key, _val, min_size=1, max_size=3))
def test_string_round_trip_and_set_semantics(ls: dict[str, str], sel: dict[str, str]) -> None:
    """A selector's string parses back to an equal selector; set selectors mean "is a subset"."""
    s = labels.selector_from_set(sel)
    again = labels.parse(s.string())
    assert again == s
    assert s.matches(ls) == all(k in ls and ls[k] == v for k, v in sel.items())
