"""Reference solutions of the exercises (instructor material; learners should not peek).

Go: each solution mirrors the Go function named in its docstring. ``tools/make_exercises.py``
generates the learner stubs from these functions (signature and docstring, body replaced by a
``TODO(task N.M)``), and CI proves every solution passes its task's checks.
"""
