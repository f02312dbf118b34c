"""Tracing: events, the stage catalogue, and the Go-shaped shims mirrored code calls.

Go: none — kschedlearn-only (DESIGN §6).
"""

from kschedlearn.trace.core import Frame, ObservedCall, TraceEvent, Tracer, capture_stack, emit, observed_call
from kschedlearn.trace.stages import CATALOGUE, Stage, register_stage, stage

__all__ = [
    "CATALOGUE", "Frame", "ObservedCall", "Stage", "TraceEvent", "Tracer", "capture_stack", "emit", "observed_call",
    "register_stage", "stage",
]
