"""The notebook API: :class:`Simulation` over a scenario (DESIGN §7)."""

from kschedlearn.simulation.checks import ProcessCrash, ScenarioEnded, SimulatedProcessCrashed, UnknownNameError
from kschedlearn.simulation.simulation import Breakpoint, Simulation, SimulationError, TEACHING_STAGES
from kschedlearn.simulation.where import CodeLocation

__all__ = ["Breakpoint", "CodeLocation", "ProcessCrash", "ScenarioEnded", "SimulatedProcessCrashed", "Simulation",
           "SimulationError", "TEACHING_STAGES", "UnknownNameError"]
