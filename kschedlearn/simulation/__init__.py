"""The notebook API: :class:`Simulation` over a scenario (DESIGN §7)."""

from kschedlearn.simulation.simulation import Breakpoint, Simulation, SimulationError, TEACHING_STAGES

__all__ = ["Breakpoint", "Simulation", "SimulationError", "TEACHING_STAGES"]
