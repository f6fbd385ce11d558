"""Slips of the pen in the notation (``.qgn``) that the reader reads past:
what was meant, and the warning that says so.

Each function looks at one kind of slip and returns what the reader
(:mod:`~qwirkle_tools.formats.qgn.read`) needs, or ``None`` when there
is none (the reader tests a turn's number itself, on every turn): the reader reads on as meant and gives the warning (its code is
in :data:`~qwirkle_tools.core.findings.CODES`), once, at the slip's line and
column. Nothing here reads a file or keeps state.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from itertools import islice

from ...core.text import ordinal
from ...core.tiles import BY_TEXT
from ..schema import MAX_PLAYERS
from .tokens import HEADER_CUTOFF, INT, MAX_DIGITS, RESERVED, Mistake, near, tokens

NUMBERS = re.compile(r"-?[0-9]+")
NAME_CUTOFF = 0.6
"""How close a word must be to a player's name to be read as it (``Anna``
is 0.86 from ``Ana``, ``Bne`` 0.67 from ``Ben``, ``Bob`` 0.33)."""


def number_slip(written: int, last: int | None, index: int) -> str:
    """The warning for the turn at ``index`` (0-based) numbered ``written``
    after a turn numbered ``last`` (``None`` for the first turn), a number
    out of sequence: neither ``last + 1`` nor its count (``index + 1``).
    Either is in sequence, so that one slip is told once: after a number
    left out or written twice, the lines that follow (numbered on from the
    one written) are not each told again, and after one number miswritten
    (``5.`` for ``6.``) neither is the next (``7.``).

    >>> number_slip(4, 2, 2)
    "turn 4 after turn 2 (no turn 3): read as the 3rd turn of the game, in the order written (number it '3.')"
    >>> number_slip(2, 2, 2)
    "a second turn 2: read as the 3rd turn of the game, in the order written (number it '3.')"
    """
    if last is None:
        slip = f"the first turn is numbered {written}"
    elif written == last:
        slip = f"a second turn {written}"
    elif written < last:
        slip = f"turn {written} after turn {last}"
    else:
        gap = f"turn {last + 1}" if written == last + 2 else f"turns {last + 1} to {written - 1}"
        slip = f"turn {written} after turn {last} (no {gap})"
    return f"{slip}: read as the {ordinal(index + 1)} turn of the game, in the order written (number it '{index + 1}.')"


def header_slip(name: str, given: set[str]) -> tuple[str, str] | None:
    """The reserved header (not ``given`` yet) that the header ``name`` is
    a slip of the pen for (``player`` for ``players``), and the warning.

    >>> header_slip("player", set())
    ('players', "'Player' is not a header of the notation: did you mean 'Players'? (read as Players:)")
    >>> header_slip("player", {"players"}), header_slip("event", set())
    (None, None)
    """
    meant = near(name, [r for r in RESERVED if r not in given], HEADER_CUTOFF)
    if not meant:
        return None
    shown = meant[0].capitalize()
    return meant[0], f"{name.capitalize()!r} is not a header of the notation: did you mean {shown!r}? (read as {shown}:)"


def spaced_names(line: str, at: int) -> tuple[list[str], int, str] | None:
    """The names of a ``Players:`` value written without commas
    (``Players: Ana Ben``), the column of the second and the warning. A
    game has two players or more, so one word a name is what was meant;
    a value with a comma, a quote or a brace is read as the grammar says.

    >>> spaced_names("Players: Ana Ben", 9)[:2]
    (['Ana', 'Ben'], 14)
    >>> spaced_names("Players: Ana", 9), spaced_names("Players: Ana Lee, Ben", 9)
    (None, None)

    Raises:
        Mistake: more than :data:`~qwirkle_tools.formats.schema.MAX_PLAYERS` words.
    """
    value = line[at:]
    if "," in value or '"' in value or "{" in value:
        return None
    words = list(islice(tokens(line, at), MAX_PLAYERS + 1))  # (a line of a million words is not split)
    if len(words) < 2:
        return None
    if len(words) > MAX_PLAYERS:
        raise Mistake(words[MAX_PLAYERS].column, f"more than {MAX_PLAYERS} players")
    names = [t.text for t in words]
    return names, words[1].column, (f"the names are not separated by commas: read as {len(names)} players, "
                                    f"{', '.join(map(repr, names))} (write 'Players: {', '.join(names)}'; "
                                    f"quote a name with a space)")


def names_near(word: str, names: list[str]) -> list[str]:
    """The players' ``names`` close to ``word`` (no player's name), in seat order.

    >>> names_near("Anna", ["Ben", "Ana"]), names_near("Anna", ["Ann", "Ana"]), names_near("Bob", ["Ana", "Ben"])
    (['Ana'], ['Ann', 'Ana'], [])
    """
    meant = set(near(word, names, NAME_CUTOFF))
    return [n for n in names if n in meant]


def unnumbered(line: str, names: Mapping[str, object]) -> bool:
    """Whether the line is a turn written without its number: a player's name (``names``: casefolded),
    then a move.

    >>> unnumbered("Ana rc@0,0 4", {"ana": [0]}), unnumbered("Ana: a header", {"ana": [0]})
    (True, False)
    """
    words = line.split(None, 2)
    if len(words) < 2 or words[0].endswith(":") or words[0].casefold() not in names:
        return False
    return "@" in words[1] or words[1] in ("exchange", "pass", "-")


def misspelt(text: str) -> tuple[int, int, str] | None:
    """The cell and the tile's text of a placement whose cell reads but whose tile may not (``rz@1,-1``),
    or whose tile reads and whose cell holds two numbers written otherwise (``rc@1;-1``, ``rc@1.-1``).

    >>> misspelt("rz@1,-1"), misspelt("rz@1"), misspelt("rz@a,1"), misspelt("rc@1;-2"), misspelt("rc@1-2")
    ((1, -1, 'rz'), None, None, (1, -2, 'rc'), (1, -2, 'rc'))
    """
    name, _, where = text.partition("@")
    if len(name) > 30:
        return None
    x, comma, y = where.partition(",")
    if comma and INT.fullmatch(x) and INT.fullmatch(y) and len(x) <= MAX_DIGITS and len(y) <= MAX_DIGITS:
        return int(x), int(y), name
    numbers = NUMBERS.findall(where)
    if name.lower() in BY_TEXT and len(numbers) == 2 and len(where) <= 2 * MAX_DIGITS + 4 and \
            all(len(n.lstrip("-")) <= MAX_DIGITS for n in numbers):
        return int(numbers[0]), int(numbers[1]), name
    return None


def unscored(index: int) -> str:
    """The warning for the turn at ``index`` (0-based), a placement with no score."""
    return f"the {ordinal(index + 1)} turn has no score: the validator computes it (write the points after the move)"


__all__ = ["NAME_CUTOFF", "header_slip", "misspelt", "names_near", "number_slip", "spaced_names", "unnumbered",
           "unscored"]
