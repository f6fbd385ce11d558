"""Players and matches: the bot protocol (QBP), the three kinds of player
(built-in policies, Python functions, outside programs) and the match runner.
Builds on :mod:`~qwirkle_tools.core`, :mod:`~qwirkle_tools.formats`,
:mod:`~qwirkle_tools.play` and :mod:`~qwirkle_tools.corpus` (its process pool)."""
