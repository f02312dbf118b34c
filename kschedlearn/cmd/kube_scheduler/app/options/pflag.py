"""A small mirror of spf13/pflag as vendored by Kubernetes 1.6: typed flags, parsing, help text.

Go: vendor/github.com/spf13/pflag (flag.go, bool.go, int32.go, float32.go, duration.go, ...)
https://github.com/kubernetes/kubernetes/tree/v1.6.1/vendor/github.com/spf13/pflag
(the core is https://github.com/kubernetes/kubernetes/blob/v1.6.1/vendor/github.com/spf13/pflag/flag.go)

What a learner sees is what the 1.6 binary prints: ``--leader-elect=false`` (a bool needs
``=``; ``--leader-elect false`` sets it to true and leaves ``false`` as a stray argument),
``invalid argument "maybe" for --leader-elect=maybe: strconv.ParseBool: parsing "maybe":
invalid syntax``, ``unknown flag: --foo``, and the ``--help`` table with defaults.
Flag names are normalised ``_`` → ``-`` (kube's ``WordSepNormalizeFunc``, set by
``flag.InitFlags`` in main).

Differs from Go: a flag is bound to ``(object, attribute)`` instead of a pointer; errors are
raised as :class:`FlagError` (main prints it and exits 2, like ``ExitOnError``) instead of
being printed here; deprecation notices are collected in ``FlagSet.warnings``.
"""

from __future__ import annotations

import math
import re
import struct
from collections.abc import Callable
from typing import Any, Protocol

import attrs

from kschedlearn.apimachinery._gostrconv import quote
from kschedlearn.apis.componentconfig.duration import DurationError, format_duration, parse_duration


class FlagError(Exception):
    """A command-line error with pflag's exact message; ``usage`` is the help pflag prints after it.

    Go: the errors pflag's FlagSet.Parse returns (flag.go). Differs from Go: raised.
    """

    exit_code = 2

    def __init__(self, message: str, usage: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.usage = usage


class HelpRequested(FlagError):
    """Go: ``pflag.ErrHelp`` (``-h`` / ``--help``); the 1.6 pflag exits 2 for it as well."""


class Value(Protocol):
    """Go: pflag.Value -- ``string()``, ``set(s)`` (raises ValueError with Go's text), ``type()``."""

    def string(self) -> str: ...
    def set(self, s: str) -> None: ...
    def type(self) -> str: ...


# -- strconv, as pflag's value types call it -------------------------------------------------------
_BOOLS = {"1": True, "t": True, "T": True, "TRUE": True, "true": True, "True": True,
          "0": False, "f": False, "F": False, "FALSE": False, "false": False, "False": False}
_FLOAT = re.compile(r"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|infinity|nan)", re.IGNORECASE)
_MAX_FLOAT32 = 3.4028234663852886e38


def parse_bool(s: str) -> bool:
    """Go: ``strconv.ParseBool``."""
    if s in _BOOLS:
        return _BOOLS[s]
    raise ValueError(f"strconv.ParseBool: parsing {quote(s)}: invalid syntax")


def parse_int(s: str, bit_size: int) -> int:
    """Go: ``strconv.ParseInt(s, 0, bitSize)`` -- ``0x`` hex and leading-``0`` octal accepted."""
    syntax = ValueError(f"strconv.ParseInt: parsing {quote(s)}: invalid syntax")
    body, neg = s, False
    if body[:1] in ("+", "-"):
        neg, body = body[0] == "-", body[1:]
    if body == "":
        raise syntax
    base, digits = 10, body
    if body[0] == "0" and len(body) > 1 and body[1] in "xX":
        base, digits = 16, body[2:]
    elif body[0] == "0":
        base = 8
    valid = "0123456789abcdefABCDEF"[: base if base <= 10 else 22]
    if digits == "" or any(ch not in valid for ch in digits):
        raise syntax
    value = int(digits, base)
    cutoff = 1 << (bit_size - 1)
    if (not neg and value >= cutoff) or (neg and value > cutoff):
        raise ValueError(f"strconv.ParseInt: parsing {quote(s)}: value out of range")
    return -value if neg else value


def parse_float32(s: str) -> float:
    """Go: ``strconv.ParseFloat(s, 32)``, rounded to float32 as pflag's Float32Var stores it."""
    if not _FLOAT.fullmatch(s):
        raise ValueError(f"strconv.ParseFloat: parsing {quote(s)}: invalid syntax")
    value = float(s)
    if math.isfinite(value) and abs(value) > _MAX_FLOAT32:
        raise ValueError(f"strconv.ParseFloat: parsing {quote(s)}: value out of range")
    return struct.unpack("f", struct.pack("f", value))[0] if math.isfinite(value) else value


def format_float32(f: float) -> str:
    """Go: ``fmt.Sprintf("%v", float32(f))`` -- shortest digits, ``%e`` form from 1e+06 and below 1e-04."""
    if math.isnan(f):
        return "NaN"
    if math.isinf(f):
        return "+Inf" if f > 0 else "-Inf"
    if f == 0:
        return "0"
    for prec in range(1, 10):  # float32 needs at most 9 significant digits
        text = f"{f:.{prec - 1}e}"
        if struct.unpack("f", struct.pack("f", float(text)))[0] == f:
            break
    mantissa, exp_text = text.split("e")
    exp = int(exp_text)
    digits = mantissa.replace("-", "").replace(".", "").rstrip("0") or "0"
    sign = "-" if f < 0 else ""
    if exp < -4 or exp >= 6:  # strconv %g with shortest digits decides with precision 6
        frac = digits[1:]
        return f"{sign}{digits[0]}{'.' + frac if frac else ''}e{'-' if exp < 0 else '+'}{abs(exp):02d}"
    if exp < 0:
        return f"{sign}0.{'0' * (-exp - 1)}{digits}"
    whole, frac = digits[: exp + 1].ljust(exp + 1, "0"), digits[exp + 1:]
    return f"{sign}{whole}{'.' + frac if frac else ''}"


# -- typed values bound to an attribute --------------------------------------------------------------
@attrs.define(eq=False)
class _Bound:
    obj: Any
    attr: str
    kind: str
    parse: Callable[[str], Any]
    show: Callable[[Any], str]

    def string(self) -> str:
        return self.show(getattr(self.obj, self.attr))

    def set(self, s: str) -> None:
        setattr(self.obj, self.attr, self.parse(s))

    def type(self) -> str:
        return self.kind


def _duration(s: str) -> float:
    try:
        return parse_duration(s)
    except DurationError as err:
        raise ValueError(str(err)) from None


_KINDS: dict[str, tuple[Callable[[str], Any], Callable[[Any], str]]] = {
    "bool": (parse_bool, lambda v: "true" if v else "false"),
    "int32": (lambda s: parse_int(s, 32), str),
    "int": (lambda s: parse_int(s, 64), str),
    "float32": (parse_float32, format_float32),
    "string": (lambda s: s, str),
    "duration": (_duration, format_duration),
}


@attrs.define(eq=False)
class Flag:
    """Go: pflag.Flag."""

    name: str
    usage: str
    value: Value
    def_value: str
    no_opt_def_val: str = ""
    deprecated: str = ""
    changed: bool = False
    shorthand: str = ""

    def default_is_zero_value(self) -> bool:
        """Go: Flag.defaultIsZeroValue -- zero defaults are left out of the help text."""
        kind = self.value.type()
        if kind == "bool":
            return self.def_value == "false"
        if kind == "duration":
            return self.def_value in ("0", "0s")
        if kind in ("int", "int32", "float32"):
            return self.def_value == "0"
        if kind == "string":
            return self.def_value == ""
        return self.value.string() in ("false", "<nil>", "", "0")


def normalize(name: str) -> str:
    """Go: kube's ``flag.WordSepNormalizeFunc`` -- ``_`` is accepted for ``-``."""
    return name.replace("_", "-")


@attrs.define(eq=False)
class FlagSet:
    """Go: pflag.FlagSet (the ``pflag.CommandLine`` kube-scheduler's main uses)."""

    name: str = "kube-scheduler"
    formal: dict[str, Flag] = attrs.field(factory=dict)
    shorthands: dict[str, Flag] = attrs.field(factory=dict)
    warnings: list[str] = attrs.field(factory=list)
    _args: list[str] = attrs.field(factory=list)
    parsed: bool = False

    # -- registration (Go: BoolVar, Int32Var, ... each writes the default into the target) -------
    def _typed(self, kind: str, obj: Any, attr: str, name: str, value: Any, usage: str) -> None:
        parse, show = _KINDS[kind]
        setattr(obj, attr, value)
        flag = Flag(name=normalize(name), usage=usage, value=_Bound(obj, attr, kind, parse, show),
                    def_value=show(value), no_opt_def_val="true" if kind == "bool" else "")
        self.add_flag(flag)

    def bool_var(self, obj: Any, attr: str, name: str, value: bool, usage: str) -> None:
        self._typed("bool", obj, attr, name, value, usage)

    def int32_var(self, obj: Any, attr: str, name: str, value: int, usage: str) -> None:
        self._typed("int32", obj, attr, name, value, usage)

    def int_var(self, obj: Any, attr: str, name: str, value: int, usage: str) -> None:
        self._typed("int", obj, attr, name, value, usage)

    def float32_var(self, obj: Any, attr: str, name: str, value: float, usage: str) -> None:
        self._typed("float32", obj, attr, name, value, usage)

    def string_var(self, obj: Any, attr: str, name: str, value: str, usage: str) -> None:
        self._typed("string", obj, attr, name, value, usage)

    def duration_var(self, obj: Any, attr: str, name: str, value: float, usage: str) -> None:
        self._typed("duration", obj, attr, name, value, usage)

    def var(self, value: Value, name: str, usage: str) -> None:
        """Go: FlagSet.Var -- a custom Value (the feature gates)."""
        self.add_flag(Flag(name=normalize(name), usage=usage, value=value, def_value=value.string()))

    def add_flag(self, flag: Flag) -> None:
        """Go: FlagSet.AddFlag — register ``flag`` (a redefinition panics in Go)."""
        if flag.name in self.formal:
            raise ValueError(f"{self.name} flag redefined: {flag.name}")  # Go panics
        self.formal[flag.name] = flag
        if flag.shorthand:
            if flag.shorthand in self.shorthands:  # Go panics
                raise ValueError(f"unable to redefine {flag.shorthand!r} shorthand in {self.name!r} flagset")
            self.shorthands[flag.shorthand] = flag

    def add_go_flag(self, name: str, value: Value, usage: str) -> None:
        """Go: AddGoFlag (PFlagFromGoFlag) -- a one-letter Go flag also gets itself as shorthand
        (``-v`` and ``--v``); a Go bool flag needs no argument."""
        self.add_flag(Flag(name=normalize(name), usage=usage, value=value, def_value=value.string(),
                           no_opt_def_val="true" if value.type() == "bool" else "",
                           shorthand=name if len(name) == 1 else ""))

    def mark_deprecated(self, name: str, usage_message: str) -> None:
        """Go: MarkDeprecated -- hidden from help; using it prints a notice."""
        flag = self.formal.get(normalize(name))
        if flag is None:
            raise ValueError(f"flag {quote(name)} does not exist")
        if usage_message == "":
            raise ValueError(f"deprecated message for flag {quote(name)} must be set")
        flag.deprecated = usage_message

    def lookup(self, name: str) -> Flag | None:
        return self.formal.get(normalize(name))

    def args(self) -> list[str]:
        """Arguments left after the flags (Go: FlagSet.Args)."""
        return list(self._args)

    # -- parsing -----------------------------------------------------------------------------------
    def _fail(self, message: str, cls: type[FlagError] = FlagError) -> FlagError:
        return cls(message, self.usage_text())

    def _set_flag(self, flag: Flag, value: str, orig_arg: str) -> None:
        try:
            flag.value.set(value)
        except ValueError as err:
            raise self._fail(f"invalid argument {quote(value)} for {orig_arg}: {err}") from None
        flag.changed = True
        if flag.deprecated:
            self.warnings.append(f"Flag --{flag.name} has been deprecated, {flag.deprecated}")

    def _parse_long_arg(self, s: str, args: list[str]) -> list[str]:
        name = s[2:]
        if name == "" or name[0] in "-=":
            raise self._fail(f"bad flag syntax: {s}")
        split = name.split("=", 1)
        name = split[0]
        flag = self.formal.get(normalize(name))
        if flag is None:
            if name == "help":
                raise self._fail("pflag: help requested", HelpRequested)
            raise self._fail(f"unknown flag: --{name}")
        if len(split) == 2:
            value = split[1]
        elif flag.no_opt_def_val:
            value = flag.no_opt_def_val
        elif args:
            value, args = args[0], args[1:]
        else:
            raise self._fail(f"flag needs an argument: {s}")
        self._set_flag(flag, value, s)
        return args

    def _parse_short_args(self, s: str, args: list[str]) -> list[str]:
        """Go: parseShortArg -- each letter of ``-abc`` in turn; a value ends the group."""
        out = args
        shorthands = s[1:]
        while shorthands:
            shorthands, out = self._parse_single_short_arg(shorthands, args)
        return out

    def _parse_single_short_arg(self, shorthands: str, args: list[str]) -> tuple[str, list[str]]:
        """Go: parseSingleShortArg -- ``-v=2``, ``-v2`` and ``-v 2``; ``-h`` is help."""
        c, rest = shorthands[0], shorthands[1:]
        flag = self.shorthands.get(c)
        if flag is None:
            if c == "h":
                raise self._fail("pflag: help requested", HelpRequested)
            raise self._fail(f"unknown shorthand flag: '{c}' in -{shorthands}")
        if len(shorthands) > 2 and shorthands[1] == "=":
            value, rest = shorthands[2:], ""
        elif flag.no_opt_def_val:
            value = flag.no_opt_def_val
        elif rest:
            value, rest = rest, ""
        elif args:
            value, args = args[0], args[1:]
        else:
            raise self._fail(f"flag needs an argument: '{c}' in -{shorthands}")
        self._set_flag(flag, value, shorthands)  # Go passes the letters, without the dash
        return rest, args

    def parse(self, arguments: list[str]) -> None:
        """Go: FlagSet.Parse. Raises :class:`FlagError` (or :class:`HelpRequested`)."""
        self.parsed = True
        args = list(arguments)
        self._args = []
        while args:
            s, args = args[0], args[1:]
            if len(s) == 0 or s[0] != "-" or len(s) == 1:
                self._args.append(s)
                continue
            if s[1] == "-":
                if len(s) == 2:  # "--" ends the flags
                    self._args.extend(args)
                    break
                args = self._parse_long_arg(s, args)
            else:
                args = self._parse_short_args(s, args)

    # -- help ----------------------------------------------------------------------------------------
    def flag_usages(self) -> str:
        """Go: FlagSet.FlagUsages -- sorted, deprecated flags hidden, defaults shown when non-zero."""
        lines: list[str] = []
        maxlen = 0
        for name in sorted(self.formal):
            flag = self.formal[name]
            if flag.deprecated:
                continue
            line = f"  -{flag.shorthand}, --{flag.name}" if flag.shorthand else f"      --{flag.name}"
            varname = flag.value.type()
            if varname != "bool":
                line += " " + varname
            if flag.no_opt_def_val:
                if varname == "string":
                    line += f'[="{flag.no_opt_def_val}"]'
                elif varname != "bool" or flag.no_opt_def_val != "true":
                    line += f"[={flag.no_opt_def_val}]"
            line += "\x00"
            maxlen = max(maxlen, len(line))
            line += flag.usage
            if not flag.default_is_zero_value():
                default = quote(flag.def_value) if flag.value.type() == "string" else flag.def_value
                line += f" (default {default})"
            lines.append(line)
        out = []
        for line in lines:
            sidx = line.index("\x00")
            out.append(f"{line[:sidx]} {' ' * (maxlen - sidx)} {line[sidx + 1:]}\n")
        return "".join(out)

    def usage_text(self) -> str:
        """Go: pflag's default usage -- ``Usage of <name>:`` and the flag table."""
        return f"Usage of {self.name}:\n" + self.flag_usages()
