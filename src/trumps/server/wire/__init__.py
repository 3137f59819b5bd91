"""The wire vocabulary: the protocol's messages, their limits and error codes."""
