"""The transport: the Starlette app (WebSocket and HTTP), each client's outbox, the page's files."""
