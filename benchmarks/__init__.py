"""Speed and strength measurements: scripts that print their figures (not tests)."""
