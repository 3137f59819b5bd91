"""The ``db`` fixture of ``test_store.py`` (one empty database on SQLite, one on PostgreSQL)
for every test module of the store."""

from store.test_store import db

__all__ = ["db"]
