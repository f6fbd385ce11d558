"""The ``qwirkle`` command: parse, one library call, render. No game logic;
it may import every other folder and none imports it.

Its modules do without ``from __future__ import annotations``: typer reads every command's
annotations at each start, and given as strings it compiles and evaluates each of them twice
(a quarter of ``qwirkle --help``'s instructions). A name imported for the type checker alone
is quoted where it annotates."""
