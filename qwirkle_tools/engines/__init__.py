"""The players and the searches: the built-in policies (the one registry of players by name),
self-play, the look-ahead, the equity player and its leaves, the simulation and the exact
endgame solver. Builds on :mod:`~qwirkle_tools.play` (the game they play)."""
