"""A small subset of Go's ``fmt.Sprintf`` so message strings read exactly as in Go.

Go: https://pkg.go.dev/fmt — verbs ``%v %+v %#v %s %q %d %t %f %g %x %T %%`` with optional
width and precision.

Differs from Go: ``%v`` of a struct prints Python's ``str()`` of the value, not Go's
``{field field}`` layout; strings, numbers, booleans, errors and ``nil`` print as Go prints them.
"""

from __future__ import annotations

import json
import re
from typing import Any

_VERB = re.compile(r"%([-+# 0]*)(\d+)?(?:\.(\d+))?([vsqdtfgxXTe%])")


def go_str(value: Any) -> str:
    """How ``%v`` prints a value."""
    if value is None:
        return "<nil>"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, BaseException):
        return str(value)
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    if isinstance(value, (list, tuple)):
        return "[" + " ".join(go_str(v) for v in value) + "]"
    if isinstance(value, dict):
        return "map[" + " ".join(f"{go_str(k)}:{go_str(v)}" for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))) + "]"
    return str(value)


def go_quote(value: Any) -> str:
    """``%q``: a double-quoted Go string literal."""
    return json.dumps(value if isinstance(value, str) else go_str(value), ensure_ascii=False)


def _one(flags: str, width: str | None, prec: str | None, verb: str, arg: Any) -> str:
    if verb in "vs":
        out = go_str(arg)
    elif verb == "q":
        out = go_quote(arg)
    elif verb == "d":
        out = str(int(arg)) if not isinstance(arg, bool) else go_str(arg)
    elif verb == "t":
        out = go_str(bool(arg))
    elif verb in "fge":
        spec = f".{prec}{verb}" if prec is not None else ("f" if verb == "f" else verb)
        out = format(float(arg), spec if verb != "f" or prec is not None else ".6f")
        if verb == "g" and prec is None:
            out = repr(float(arg)) if not float(arg).is_integer() else str(int(arg))
    elif verb in "xX":
        out = format(int(arg), verb) if isinstance(arg, int) else arg.encode().hex()
    elif verb == "T":
        out = type(arg).__name__
    else:
        out = str(arg)
    if width:
        out = out.ljust(int(width)) if "-" in flags else out.rjust(int(width), "0" if "0" in flags else " ")
    return out


def sprintf(fmt: str, *args: Any) -> str:
    """Go's ``fmt.Sprintf`` for the verbs above; extra or missing args are shown as Go does."""
    it = iter(args)
    used = 0

    def repl(m: re.Match[str]) -> str:
        nonlocal used
        flags, width, prec, verb = m.groups()
        if verb == "%":
            return "%"
        try:
            arg = next(it)
        except StopIteration:
            return f"%!{verb}(MISSING)"
        used += 1
        return _one(flags, width, prec, verb, arg)

    out = _VERB.sub(repl, fmt)
    extra = list(it)
    if extra:
        out += "%!(EXTRA " + ", ".join(f"{type(a).__name__}={go_str(a)}" for a in extra) + ")"
    return out
