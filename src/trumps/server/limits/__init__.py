"""Limits on what one client or address may do: sockets, connections, message rates, hint and table budgets, HTTP bodies and headers."""
