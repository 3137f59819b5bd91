"""``GET /api/catalog``: what a client may offer (``trumps.host.catalog``), encoded once,
since it is the same for the life of the process."""

from __future__ import annotations

import functools

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from trumps.host.catalog import catalog

__all__ = ["catalog", "catalog_endpoint", "catalog_json"]


@functools.cache
def catalog_json() -> bytes:
    """The catalog encoded once as JSON."""
    return msgspec.json.encode(catalog())


async def catalog_endpoint(_request: Request) -> Response:
    """``GET /api/catalog``."""
    return Response(catalog_json(), media_type="application/json")
