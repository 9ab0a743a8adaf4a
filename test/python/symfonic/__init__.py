"""A test-only stand-in for the symfonic framework: just enough to produce its reprs and values."""
