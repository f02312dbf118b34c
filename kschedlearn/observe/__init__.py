"""The observation layer: trace points attached from outside the mirror, per simulation.

Go: none — kschedlearn-only (HELPERS' Observation rule). This branch holds only
:mod:`kschedlearn.observe.controllers`; the lead's ``observe`` package supersedes this file.
"""
