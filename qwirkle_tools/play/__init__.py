"""The game: a record replayed and checked (the validator's engine), and the playable game
(deal, legal moves, push, pop, per-seat views). Builds on :mod:`~qwirkle_tools.core` and
:mod:`~qwirkle_tools.formats`."""
