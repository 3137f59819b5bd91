"""Who a player is: passwords and logins, sessions, the accounts API."""
