"""The public pages of a game: its day data, vote pictures, static site, and their place in the tick (issue 20)."""
