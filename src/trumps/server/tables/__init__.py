"""Live tables: one game's single writer and what it holds (seats, clocks, projection, bot play, persistence), where bots think, the group commit."""
