"""The course around the curriculum: objectives, checked activities, progress, the mastery check.

Go: none — kschedlearn-only (issue 22). In a notebook::

    from kschedlearn.curriculum import ask
    ask("05/expire-time", 36)       # your prediction, checked against a simulation run
    import kschedlearn
    kschedlearn.course()            # the course map: path, time, your progress
    kschedlearn.progress()          # what you passed; .reset() starts over

- :mod:`~kschedlearn.curriculum.catalog` / ``units`` — units, objectives, activities;
- :mod:`~kschedlearn.curriculum.activity` and the ``activities_*`` modules — checked activities;
- :mod:`~kschedlearn.curriculum.progress` — the JSON progress file (``$KSCHEDLEARN_DATA_DIR``);
- :mod:`~kschedlearn.curriculum.report` — ``course()`` and ``progress()``;
- :mod:`~kschedlearn.curriculum.mastery` — the final, seeded mastery check;
- :mod:`~kschedlearn.curriculum.timing` — learner time from a headless run.
"""

from __future__ import annotations

from kschedlearn.curriculum.activity import ask, check_code
from kschedlearn.curriculum.report import course

# ``progress`` stays the submodule (the JSON file); ``kschedlearn.progress()`` is the report.
__all__ = ["ask", "check_code", "course"]
