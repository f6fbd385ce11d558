"""Games in motion: the engine's replay, the playable game (deal, legal moves,
push, pop), the look-ahead, the built-in policies and self-play. Builds on
:mod:`~qwirkle_tools.core` and :mod:`~qwirkle_tools.formats`."""
