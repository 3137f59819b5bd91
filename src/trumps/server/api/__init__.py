"""The HTTP API beside the game socket: the catalog, ratings, post-game analysis."""
