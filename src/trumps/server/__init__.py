"""The game server (issue 4): protocol, table actors, the ASGI app."""
