"""The HTTP scheduler extender: ask an outside service to filter and score nodes.

Go: plugin/pkg/scheduler/core/extender.go (``HTTPExtender``, ``NewHTTPExtender``, ``Filter``,
``Prioritize``, ``send``, ``makeTransport``)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/core/extender.go#L39-L47

A policy file may list extenders (``ExtenderConfig``). After the built-in predicates,
``find_nodes_that_fit`` hands the surviving nodes to each extender's ``filter``; after the
built-in priorities, ``prioritize_nodes`` adds each extender's ``prioritize`` scores times its
weight. Each call is an HTTP POST of JSON to ``urlPrefix + "/" + verb``.

Wire format, as 1.6 really sends it: the scheduler marshals its *internal* API types, which in
1.6 carry no JSON tags, so the top-level keys are the Go field names — ``{"Pod": <v1 Pod>,
"Nodes": <v1 NodeList> | null, "NodeNames": [...] | null}`` — while the embedded Pod and Nodes
use the usual camelCase v1 form. Replies are decoded like Go's ``encoding/json`` does: key
matching is case-insensitive, so ``{"nodes": ..., "failedNodes": ..., "error": ...}`` and
``[{"host": ..., "score": ...}]`` (what extenders normally send) work, and so do the Go names.

Differs from Go: the HTTP call is real wall-clock network I/O done synchronously inside the
calling goroutine with ``urllib.request`` (timeout = ``httpTimeout``, 5 s by default). The
simulated clock does **not** advance while it runs and no other goroutine runs meanwhile, so in
a trace an extender call takes zero virtual time. Errors are raised, not returned (naming rule).
"""

from __future__ import annotations

import json
import os
import ssl
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from kschedlearn.api.errors import ManifestError
from kschedlearn.api.v1 import Node, Pod
from kschedlearn.scheduler.api.types import HostPriority

_EXTENDER_GO = "https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/core/extender.go"

#: Go: DefaultExtenderTimeout = 5 * time.Second (used when httpTimeout is 0).
DEFAULT_EXTENDER_TIMEOUT = 5.0


class ExtenderError(Exception):
    """An error from talking to an extender (Go: the ``error`` values of extender.go).

    Covers transport failures (``Post <url>: <reason>``, including timeouts), undecodable
    replies, and the extender's own ``Error`` field, whose text is used verbatim.
    """


@attrs.define(eq=False)
class HTTPClient:
    """The pieces of Go's ``http.Client`` the extender uses: a timeout and a TLS setup.

    Go: ``&http.Client{Transport: makeTransport(config), Timeout: config.HTTPTimeout}``
    Differs from Go: a thin wrapper over ``urllib.request`` (see :meth:`post_json`).
    """

    timeout: float | None
    ssl_context: ssl.SSLContext | None = None

    def post_json(self, url: str, body: bytes) -> bytes:
        """POST ``body`` with ``Content-Type: application/json``; return the reply body.

        Like 1.6's ``send``, the status code is not looked at: the body of an error reply is
        returned and decoded like any other. Transport errors are wrapped Go-style,
        ``Post <url>: <reason>``.
        """
        req = urllib.request.Request(url, data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
        handlers: list[Any] = [urllib.request.ProxyHandler(_proxies_for(url))]
        if self.ssl_context is not None:
            handlers.append(urllib.request.HTTPSHandler(context=self.ssl_context))
        opener = urllib.request.build_opener(*handlers)
        try:
            with opener.open(req, timeout=self.timeout) as resp:
                return resp.read()
        except urllib.error.HTTPError as err:  # a reply with a non-2xx status still has a body
            with err:
                return err.read()
        except (urllib.error.URLError, OSError, ValueError) as err:
            reason = getattr(err, "reason", err)
            raise ExtenderError(f"Post {url}: {reason}") from err


def _proxies_for(url: str) -> dict[str, str]:
    """Go's ``ProxyFromEnvironment`` never proxies requests to localhost or loopback IPs."""
    host = (urllib.parse.urlsplit(url).hostname or "").lower()
    if host == "localhost" or host.startswith("127.") or host == "::1":
        return {}
    return urllib.request.getproxies()


@attrs.define(eq=False)
class HTTPExtender:
    """One configured extender (implements ``algorithm.SchedulerExtender``).

    Go: type HTTPExtender struct — extender.go#L39-L47
    """

    extender_url: str
    filter_verb: str
    prioritize_verb: str
    weight: int
    client: HTTPClient
    node_cache_capable: bool = False

    def filter(
        self, pod: Pod, nodes: Sequence[Node], node_name_to_info: Mapping[str, Any]
    ) -> tuple[list[Node | None], dict[str, str]]:
        """Let the extender drop nodes; return (kept nodes, failed node → message).

        Go: HTTPExtender.Filter — extender.go#L95-L150. No filter verb → every node passes.
        With ``nodeCacheCapable`` only names travel, and the kept names are mapped back
        through ``node_name_to_info``: a name the scheduler does not know maps to ``None``
        (Go's nil-safe ``NodeInfo.Node()`` on a missing entry returns nil — a 1.6 hazard that
        later crashes the caller). Raises :class:`ExtenderError` (including the reply's
        ``Error`` text).
        """
        if self.filter_verb == "":
            return list(nodes), {}

        node_list: dict[str, Any] | None = None
        node_names: list[str] | None = None
        if self.node_cache_capable:
            node_names = [node.metadata.name for node in nodes]
        else:
            node_list = _node_list(nodes)
        args = {"Pod": pod.to_dict(), "Nodes": node_list, "NodeNames": node_names}

        result = _decode_filter_result(self._send(self.filter_verb, args))
        if result["Error"] != "":
            raise ExtenderError(result["Error"])

        node_result: list[Node | None] = []
        if self.node_cache_capable and result["NodeNames"] is not None:
            for name in result["NodeNames"]:
                info = node_name_to_info.get(name)
                node_result.append(info.node() if info is not None else None)
        elif result["Nodes"] is not None:
            node_result = list(result["Nodes"])
        return node_result, result["FailedNodes"]

    def prioritize(self, pod: Pod, nodes: Sequence[Node]) -> tuple[list[HostPriority], int]:
        """Ask the extender for per-node scores; return (scores, this extender's weight).

        Go: HTTPExtender.Prioritize — extender.go#L152-L194. No prioritize verb → every node
        scores 0 and the weight is 0. Raises :class:`ExtenderError` (the caller ignores it).
        """
        if self.prioritize_verb == "":
            return [HostPriority(host=node.metadata.name, score=0) for node in nodes], 0

        node_list: dict[str, Any] | None = None
        node_names: list[str] | None = None
        if self.node_cache_capable:
            node_names = [node.metadata.name for node in nodes]
        else:
            node_list = _node_list(nodes)
        args = {"Pod": pod.to_dict(), "Nodes": node_list, "NodeNames": node_names}

        result = _decode_host_priority_list(self._send(self.prioritize_verb, args))
        return result, self.weight

    def _send(self, action: str, args: Mapping[str, Any]) -> Any:
        """POST ``args`` as JSON to ``<urlPrefix>/<action>`` and decode the JSON reply.

        Go: HTTPExtender.send — extender.go#L196-L227
        """
        out = json.dumps(args, separators=(",", ":")).encode()
        url = self.extender_url + "/" + action
        body = self.client.post_json(url, out)
        try:
            return json.loads(body)
        except ValueError as err:
            raise ExtenderError(f"extender {action} reply from {url} is not JSON: {err}") from err


def _node_list(nodes: Sequence[Node]) -> dict[str, Any]:
    """Go's ``v1.NodeList`` as json.Marshal writes it (empty TypeMeta and ListMeta).

    Differs from Go: each item's ``to_dict()`` includes ``kind``/``apiVersion``, which Go's
    lister objects usually leave empty (and so omit).
    """
    return {"metadata": {}, "items": [node.to_dict() for node in nodes] or None}


def _fold_fields(obj: Any, fields: Sequence[str], what: str) -> dict[str, Any]:
    """Match JSON object keys to Go field names the way ``encoding/json`` does.

    Key matching is case-insensitive; unknown keys are ignored; a later duplicate wins.
    """
    if obj is None:
        return {}
    if not isinstance(obj, dict):
        raise ExtenderError(f"json: cannot unmarshal {_json_kind(obj)} into Go value of type {what}")
    by_fold = {f.lower(): f for f in fields}
    out: dict[str, Any] = {}
    for key, value in obj.items():
        field = by_fold.get(str(key).lower())
        if field is not None:
            out[field] = value
    return out


def _json_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _decode_filter_result(doc: Any) -> dict[str, Any]:
    """Decode an ``ExtenderFilterResult`` reply (Nodes, NodeNames, FailedNodes, Error)."""
    what = "api.ExtenderFilterResult"
    raw = _fold_fields(doc, ("Nodes", "NodeNames", "FailedNodes", "Error"), what)
    error = raw.get("Error") or ""
    if not isinstance(error, str):
        raise ExtenderError(f"json: cannot unmarshal {_json_kind(error)} into Go value of type string "
                            f"({what}.Error)")
    failed = raw.get("FailedNodes") or {}
    if not isinstance(failed, dict) or not all(isinstance(v, str) for v in failed.values()):
        raise ExtenderError(f"{what}.FailedNodes: want an object of node name → message string, "
                            f"got {failed!r}")
    names = raw.get("NodeNames")
    if names is not None and (not isinstance(names, list)
                              or not all(isinstance(n, str) for n in names)):
        raise ExtenderError(f"{what}.NodeNames: want a list of strings, got {names!r}")
    nodes: list[Node] | None = None
    if raw.get("Nodes") is not None:
        node_list = _fold_fields(raw["Nodes"], ("Items",), "v1.NodeList")
        items = node_list.get("Items") or []
        if not isinstance(items, list):
            raise ExtenderError(f"{what}.Nodes.items: want a list of nodes, got {items!r}")
        nodes = []
        for i, item in enumerate(items):
            try:
                nodes.append(Node.from_dict(item, path=f"Nodes.items[{i}]"))
            except ManifestError as err:
                raise ExtenderError(f"{what}: {err}") from err
    return {"Nodes": nodes, "NodeNames": names, "FailedNodes": dict(failed), "Error": error}


def _decode_host_priority_list(doc: Any) -> list[HostPriority]:
    """Decode a ``HostPriorityList`` reply: ``[{"Host"|"host": str, "Score"|"score": int}]``."""
    if doc is None:
        return []
    if not isinstance(doc, list):
        raise ExtenderError(f"json: cannot unmarshal {_json_kind(doc)} into Go value of type "
                            "api.HostPriorityList")
    result: list[HostPriority] = []
    for i, entry in enumerate(doc):
        raw = _fold_fields(entry, ("Host", "Score"), "api.HostPriority")
        host, score = raw.get("Host", ""), raw.get("Score", 0)
        if not isinstance(host, str):
            raise ExtenderError(f"HostPriorityList[{i}].Host: want a string, got {host!r}")
        if isinstance(score, bool) or not isinstance(score, int):
            raise ExtenderError(f"json: cannot unmarshal number {score} into Go value of type int "
                                f"(HostPriorityList[{i}].Score)")
        result.append(HostPriority(host=host, score=score))
    return result


def _make_transport(config: Any) -> ssl.SSLContext | None:
    """Build the TLS setup: HTTPS without a CA file or CA data skips verification.

    Go: makeTransport — extender.go#L49-L70 (``restclient.TLSConfigFor``; ``Insecure`` when
    ``EnableHttps`` and no CA). Differs from Go: returns an ``ssl.SSLContext`` or None; it only
    matters for ``https://`` URLs. Client certificate *data* is written to a temporary file
    because Python's ``ssl`` loads certificates from files.
    """
    tls = getattr(config, "tls_config", None)
    ca_file = getattr(tls, "ca_file", "") if tls is not None else ""
    ca_data = getattr(tls, "ca_data", b"") if tls is not None else b""
    cert_file = getattr(tls, "cert_file", "") if tls is not None else ""
    key_file = getattr(tls, "key_file", "") if tls is not None else ""
    cert_data = getattr(tls, "cert_data", b"") if tls is not None else b""
    key_data = getattr(tls, "key_data", b"") if tls is not None else b""
    has_ca = bool(ca_file) or bool(ca_data)
    insecure = bool(getattr(config, "enable_https", False)) and not has_ca
    has_cert = bool(cert_file or cert_data)
    if not (insecure or has_ca or has_cert):
        return None  # Go: TLSConfigFor returns nil, plain transport
    if insecure:
        ctx = ssl.create_default_context()
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
    else:
        ctx = ssl.create_default_context(
            cafile=ca_file or None,
            cadata=ca_data.decode() if isinstance(ca_data, bytes) and ca_data else (ca_data or None),
        )
    if has_cert:
        _load_client_cert(ctx, cert_file, key_file, cert_data, key_data)
    return ctx


def _load_client_cert(ctx: ssl.SSLContext, cert_file: str, key_file: str,
                      cert_data: bytes, key_data: bytes) -> None:
    if cert_file:
        ctx.load_cert_chain(cert_file, key_file or None)
        return
    with tempfile.TemporaryDirectory() as tmp:
        cert_path, key_path = os.path.join(tmp, "cert.pem"), os.path.join(tmp, "key.pem")
        with open(cert_path, "wb") as f:
            f.write(cert_data)
        with open(key_path, "wb") as f:
            f.write(key_data)
        ctx.load_cert_chain(cert_path, key_path if key_data else None)


def new_http_extender(config: Any) -> HTTPExtender:
    """Build an :class:`HTTPExtender` from a policy ``ExtenderConfig``.

    Go: NewHTTPExtender — extender.go#L72-L93. A zero ``http_timeout`` means 5 s.
    Differs from Go: Go writes the default timeout back into the (pointer) config; the
    Python config is frozen, so only the client gets it. ``config`` may be any object with
    the ExtenderConfig attributes (``url_prefix``, ``filter_verb``, ``prioritize_verb``,
    ``weight``, ``enable_https``, ``tls_config``, ``http_timeout``, ``node_cache_capable``).
    """
    missing = [a for a in ("url_prefix", "filter_verb", "prioritize_verb", "weight")
               if not hasattr(config, a)]
    if missing:
        raise TypeError(f"ExtenderConfig: missing field(s) {', '.join(missing)} on {config!r}")
    timeout: float | None = float(getattr(config, "http_timeout", 0.0) or 0.0)
    if timeout == 0:
        timeout = DEFAULT_EXTENDER_TIMEOUT
    elif timeout is not None and timeout < 0:
        timeout = None  # Go's http.Client only sets a deadline for a positive Timeout
    client = HTTPClient(timeout=timeout, ssl_context=_make_transport(config))
    return HTTPExtender(
        extender_url=config.url_prefix,
        filter_verb=config.filter_verb,
        prioritize_verb=config.prioritize_verb,
        weight=config.weight,
        client=client,
        node_cache_capable=bool(getattr(config, "node_cache_capable", False)),
    )
