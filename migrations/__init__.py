"""Alembic environment and revisions. Run from code (``citeline db upgrade``, :mod:`citeline.store.db`)."""

#: The newest revision in ``versions/``: what the store checks a database against without importing
#: alembic (``tests/test_store.py`` checks it equals alembic's own head). Update it with every new
#: revision, and record the SQLite schema the revisions make (``sqlite_head.py``, what a new SQLite
#: database is given): ``python -m tests.sqlite_head --regenerate``.
HEAD = "0008"
