"""Alembic migrations of the store's schema, run by ``SqlStore.create()``."""
