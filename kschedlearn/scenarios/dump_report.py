"""The import report of a replayed cluster dump, in three parts a learner reads once.

kschedlearn-only. ``Simulation.from_manifests`` keeps what the 1.6 scheduler reads and reports the
rest, never silently: (1) what changes scheduling — where 1.6 may place a pod differently from the
captured cluster, and every change the replay made to let 1.6 take an item; (2) what 1.6 did not
have — fields and resource names born after 1.6, harmless to its placements; (3) what kschedlearn
does not model — fields 1.6 had but its scheduler never read (``env``, probes, ``volumeMounts``,
``status.containerStatuses`` ...). Skipped kinds and items, apiVersion conversions and pods bound
to nodes the dump lacks are listed too. Plain data (``attrs.frozen``), for notebooks and the CLI.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

import attrs

GO = "https://github.com/kubernetes/kubernetes/blob/v1.6.1/"
#: the three parts, in the order the summary prints them
SCHEDULING = "scheduling"
NOT_IN_1_6 = "not-in-1.6"
NOT_MODELLED = "not-modelled"
_TITLES = {
    SCHEDULING: "What changes scheduling (1.6 may place pods differently from the captured cluster):",
    NOT_IN_1_6: "What 1.6 did not have (ignored; no effect on 1.6's placements):",
    NOT_MODELLED: "What kschedlearn does not model (1.6 had it; its scheduler does not read it):",
}
_EXAMPLES = 3


@attrs.frozen
class Finding:
    """One field (or fact) of one kind, how many objects had it, what the replay did and why."""

    part: str
    kind: str
    field: str
    count: int
    action: str = "ignored"
    why: str = ""
    examples: tuple[str, ...] = ()

    def line(self) -> str:
        """``Pod spec.priority ×5 — ignored: ...`` (with up to three example objects)."""
        eg = f" (e.g. {', '.join(self.examples)})" if self.examples and self.part == SCHEDULING else ""
        what = self.action + (f": {self.why}" if self.why else "")
        return f"{self.kind} {self.field} ×{self.count}{eg} — {what}"


@attrs.frozen
class SkippedItem:
    """An item 1.6 could not take at all: where it is in the dump and why (field and value named)."""

    where: str
    reason: str

    def line(self) -> str:
        return f"{self.where}: {self.reason}"


@attrs.frozen
class DumpReport:
    """What an import kept, changed, skipped and could not model."""

    source: str
    nodes: int
    bound_pods: int
    pending_pods: int
    other_objects: int
    changes_scheduling: tuple[Finding, ...] = ()
    not_in_1_6: tuple[Finding, ...] = ()
    not_modelled: tuple[Finding, ...] = ()
    skipped_kinds: tuple[tuple[str, int], ...] = ()
    skipped_items: tuple[SkippedItem, ...] = ()
    conversions: tuple[tuple[str, str, int], ...] = ()  # (from "apiVersion Kind", to apiVersion, objects)
    ghost_pods: tuple[tuple[str, str], ...] = ()  # (namespace/name, the node the dump lacks)

    def part(self, name: str) -> tuple[Finding, ...]:
        """The findings of one part (:data:`SCHEDULING`, :data:`NOT_IN_1_6`, :data:`NOT_MODELLED`)."""
        return {SCHEDULING: self.changes_scheduling, NOT_IN_1_6: self.not_in_1_6,
                NOT_MODELLED: self.not_modelled}[name]

    def find(self, kind: str, field: str) -> Finding | None:
        """The finding for ``kind`` and ``field`` in any part, or None."""
        return next((f for f in (*self.changes_scheduling, *self.not_in_1_6, *self.not_modelled)
                     if f.kind == kind and f.field == field), None)

    def summary(self, width: int = 110) -> str:
        """The whole report as text, wrapped at ``width`` columns (a few dozen lines for a real cluster).

        Findings of one kind that share what was done and why are printed on one entry.
        """
        skipped = len(self.skipped_items)
        lines = [f"{self.source}: {_n(self.nodes, 'node')}, {_n(self.bound_pods, 'bound pod')}, "
                 f"{_n(self.pending_pods, 'pending pod')}, {_n(self.other_objects, 'other object')}"
                 + (f"; {_n(skipped, 'item')} skipped" if skipped else "")]
        for name in (SCHEDULING, NOT_IN_1_6, NOT_MODELLED):
            findings = self.part(name)
            if findings:
                lines.append(_TITLES[name])
                lines.extend(_wrap(entry, width) for entry in _grouped(findings))
        if self.ghost_pods:
            lines.append(_wrap(f"Pods bound to nodes not in the dump ({len(self.ghost_pods)}): "
                               + ", ".join(f"{pod} on {node}" for pod, node in self.ghost_pods), width, ""))
        for frm, to, n in self.conversions:
            lines.append(f"Read as 1.6's {to}: {frm} ×{n}")
        if self.skipped_kinds or self.skipped_items:
            lines.append("Skipped:")
        if self.skipped_kinds:
            lines.append(_wrap("kinds the 1.6 scheduler does not read: "
                               + ", ".join(f"{k} ×{n}" for k, n in self.skipped_kinds), width))
        lines.extend(_wrap(s.line(), width) for s in self.skipped_items)
        return "\n".join(lines)

    def _repr_markdown_(self) -> str:
        return "```\n" + self.summary() + "\n```"


def _grouped(findings: tuple[Finding, ...]) -> list[str]:
    """One entry per (kind, action, why): ``Pod spec.priority ×5, spec.priorityClassName ×5 — ignored: ...``."""
    groups: dict[tuple[str, str, str], list[Finding]] = {}
    for f in findings:
        groups.setdefault((f.kind, f.action, f.why), []).append(f)
    out = []
    for (kind, action, why), members in groups.items():
        fields = ", ".join(f"{f.field} ×{f.count}" for f in members)
        examples = [e for f in members if f.part == SCHEDULING for e in f.examples]
        eg = f" (e.g. {examples[0]})" if examples else ""
        out.append(f"{kind} {fields}{eg} — {action}" + (f": {why}" if why else ""))
    return out


def _wrap(text: str, width: int, indent: str = "  ") -> str:
    return textwrap.fill(text, width=width, initial_indent=indent, subsequent_indent=indent + "    ",
                         break_long_words=False, break_on_hyphens=False)


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


@attrs.define(eq=False)
class ReportBuilder:
    """Counts findings while a dump is read (one per object per field), then freezes the report."""

    _counts: dict[tuple[str, str, str, str, str], int] = attrs.field(factory=dict)
    _examples: dict[tuple[str, str, str, str, str], list[str]] = attrs.field(factory=dict)

    def add(self, part: str, kind: str, field: str, example: str, action: str = "ignored", why: str = "") -> None:
        key = (part, kind, field, action, why)
        self._counts[key] = self._counts.get(key, 0) + 1
        shown = self._examples.setdefault(key, [])
        if len(shown) < _EXAMPLES and example not in shown:
            shown.append(example)

    def findings(self, part: str) -> tuple[Finding, ...]:
        """The part's findings, sorted by kind and field."""
        return tuple(sorted((Finding(p, kind, field, n, action, why, tuple(self._examples[(p, kind, field, action, why)]))
                             for (p, kind, field, action, why), n in self._counts.items() if p == part),
                            key=lambda f: (f.kind, f.field, f.action)))


_GHOST_WHY = (
    "1.6's scheduler cache files such a pod under a NodeInfo with no Node (schedulerCache.addPod, "
    f"{GO}plugin/pkg/scheduler/schedulercache/cache.go#L183-L191): no listed node counts it, but while it "
    "exists 1.6 computes no predicate metadata (getMatchingAntiAffinityTerms, "
    f"{GO}plugin/pkg/scheduler/algorithm/predicates/predicates.go#L1041-L1095; GetMetadata, "
    f"{GO}plugin/pkg/scheduler/algorithm/predicates/metadata.go#L37-L59), and if such a pod has pod "
    "anti-affinity, MatchInterPodAffinity fails on every node for every pod "
    f"((PodAffinityChecker).getMatchingAntiAffinityTerms, {GO}plugin/pkg/scheduler/algorithm/predicates/"
    "predicates.go#L1097-L1120)")


def ghost_finding(ghosts: Iterable[tuple[str, str]]) -> Finding:
    """The changes-scheduling entry for pods bound to nodes the dump lacks (what 1.6's cache does)."""
    ghosts = list(ghosts)
    return Finding(SCHEDULING, "Pod", "spec.nodeName (a node not in the dump)", len(ghosts),
                   "kept, bound to the missing node", _GHOST_WHY,
                   tuple(f"{pod} on {node}" for pod, node in ghosts[:_EXAMPLES]))


__all__ = ["DumpReport", "Finding", "SkippedItem", "ReportBuilder", "ghost_finding",
           "SCHEDULING", "NOT_IN_1_6", "NOT_MODELLED"]
