"""Go's ``%q`` formatting, so error messages read exactly as the Go ones do.

Go: ``strconv.Quote`` (Go standard library), https://pkg.go.dev/strconv#Quote — what ``%q``
prints in Kubernetes messages such as the label parser's, e.g.
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/labels/selector.go

Differs from Go: printability follows Python's ``str.isprintable`` (close to Go's
``unicode.IsPrint``); only used for messages.
"""

from __future__ import annotations

_ESCAPES = {
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
    "\\": "\\\\",
    '"': '\\"',
}


def quote(s: str) -> str:
    """Double-quote ``s`` with Go escapes (``\\n``, ``\\x01``, ``\\u00ad``, ...).

    Go: strconv.Quote (Go standard library).
    """
    out = ['"']
    for ch in s:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ch.isprintable():
            out.append(ch)
        elif ord(ch) < 0x80:
            out.append(f"\\x{ord(ch):02x}")
        elif ord(ch) < 0x10000:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    out.append('"')
    return "".join(out)
