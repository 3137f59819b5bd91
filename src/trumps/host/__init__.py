"""What a table host decides without any I/O, shared by the server and the page's own
host (issue 28): what each action's event tells beyond the action (``notes``), which cards
a seat is told it may not play and why, and when a player may take a move back
(``takeback``); and ``local``, a host of games against the computer that speaks the
server's protocol (docs/protocol.md) with plain dictionaries, so that it runs where the
server's libraries do not (the page's Web Worker).

It imports the games, the bots and the records, never the server: the server builds its
typed messages on these parts."""
