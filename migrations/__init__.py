"""Alembic environment and revisions. Run from code (``citeline db upgrade``, :mod:`store.db`)."""
