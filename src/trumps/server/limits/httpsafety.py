"""The HTTP side's safe defaults: security headers on every answer, and request bodies that
are JSON, refused before they are read when too large.

- ``SecurityHeaders`` (ASGI middleware) adds to every HTTP answer a Content-Security-Policy
  that allows only the server's own scripts, styles, images and connections (no inline
  script or style, no framing: ``frame-ancestors 'none'``, with ``X-Frame-Options: DENY`` for
  older browsers), ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer``
  (an invite link in the address bar never leaks to another site).
- ``json_body`` reads a state-changing request's body: it must say
  ``Content-Type: application/json`` (a cross-site HTML form can send only ``text/plain``,
  form or multipart bodies without a preflight), a ``Content-Length`` over the limit is
  refused before any byte is read, and a streamed body is read no further than the limit.
"""

from __future__ import annotations

from typing import Final

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CSP", "Refused", "SecurityHeaders", "json_body"]

CSP: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
_HEADERS: Final = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class Refused(Exception):
    """A request refused before it was handled: its HTTP status, error code and message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code = status, code


class SecurityHeaders:
    """ASGI middleware: the security headers on every HTTP answer (WebSockets pass by)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                have = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(n, v) for n, v in _HEADERS if n not in have]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def json_body(request: Request, limit: int) -> bytes:
    """The body of ``request``, a JSON document of at most ``limit`` bytes (else ``Refused``)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise Refused(415, "bad_content_type", "send the body as Content-Type: application/json")
    announced = request.headers.get("content-length")
    if announced is not None:
        try:
            size = int(announced)
        except ValueError:
            raise Refused(400, "bad_field", "Content-Length is not a number") from None
        if size > limit:
            raise Refused(413, "too_large", f"the request body is over {limit} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise Refused(413, "too_large", f"the request body is over {limit} bytes")
    return bytes(body)
