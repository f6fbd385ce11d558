"""Small words for messages: a count with its noun, an ordinal, a text cut short.

The one home of these (the package wrote "s if n != 1" in seven places and
had two ordinals that disagreed). They know English's regular forms only: an
irregular plural is given (``count(2, "turn score differs", "turn scores differ")``).
Nothing here escapes text: :mod:`qwirkle_tools.core.safetext` does that.

    >>> count(1, "error"), count(2, "error"), count(0, "error"), count(12_000, "turn")
    ('1 error', '2 errors', '0 errors', '12,000 turns')
    >>> ordinal(21), cut("a long player name", 10)
    ('21st', 'a long ...')
"""

from __future__ import annotations

from collections.abc import Sequence

ELLIPSIS = "..."
"""What :func:`cut` puts where it cut (three dots: every output takes them)."""


def plural(n: int, word: str, many: str | None = None) -> str:
    """``word`` as it goes with ``n``: itself for 1, else ``many`` (by default
    ``word`` and an ``s``).

        >>> plural(1, "field"), plural(3, "field"), plural(2, "score differs", "scores differ")
        ('field', 'fields', 'scores differ')
    """
    return word if n == 1 else many if many is not None else word + "s"


def count(n: int, word: str, many: str | None = None) -> str:
    """``n`` (with thousands separated) and ``word`` as :func:`plural` gives it.

        >>> count(1, "gift"), count(3, "tile"), count(1_000, "tile"), count(2, "turn score differs", "turn scores differ")
        ('1 gift', '3 tiles', '1,000 tiles', '2 turn scores differ')
    """
    return f"{n:,} {plural(n, word, many)}"


UNKNOWN = "n/a"
"""What a text shows for a figure the record cannot tell (never a 0)."""


def count_known(n: int | None, word: str, many: str | None = None) -> str:
    """:func:`count`, or for a figure not known (``None``) :data:`UNKNOWN` and the plural.

        >>> count_known(1, "gift"), count_known(None, "gift"), count_known(0, "gift")
        ('1 gift', 'n/a gifts', '0 gifts')
    """
    return f"{UNKNOWN} {plural(2, word, many)}" if n is None else count(n, word, many)


def ordinal(n: int) -> str:
    """``n`` as an ordinal: 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 112th.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111, 112)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st', '111th', '112th']
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def cut(text: str, most: int) -> str:
    """``text`` if it has at most ``most`` characters, else its start and
    :data:`ELLIPSIS`, ``most`` characters in all (just the dots if ``most`` < 3).
    It does not make the text safe to show (:func:`~qwirkle_tools.core.safetext.one_line` does).

        >>> cut("Ana", 6), cut("Ana Ben", 6), cut("Ana Ben", 7)
        ('Ana', 'Ana...', 'Ana Ben')
    """
    return text if len(text) <= most else text[: max(0, most - len(ELLIPSIS))] + ELLIPSIS


def cut_apart(texts: Sequence[str], most: int) -> list[str]:
    """Each text cut to ``most`` characters as :func:`cut` cuts it, except where that
    would make different texts look alike: those keep their start and their end
    (``start...end``, ``most`` characters), or, if even that is not enough, are not cut.

        >>> cut_apart(["a-long-bot v1", "a-long-bot v2", "Ana"], 10)
        ['a-lo... v1', 'a-lo... v2', 'Ana']
        >>> cut_apart(["abcdefg-x-hijklmn", "abcdefg-y-hijklmn", "abcdefghijklmnopq"], 10)
        ['abcdefg-x-hijklmn', 'abcdefg-y-hijklmn', 'abcd...opq']
    """
    shown = [cut(t, most) for t in texts]
    for _ in range(2):  # cut at the end, then in the middle, then not at all
        seen: dict[str, set[str]] = {}
        for text, form in zip(texts, shown):
            seen.setdefault(form, set()).add(text)
        alike = {form for form, originals in seen.items() if len(originals) > 1}
        if not alike:
            return shown
        shown = [(_middle(t, most) if _ == 0 else t) if form in alike else form for t, form in zip(texts, shown)]
    return shown


def _middle(text: str, most: int) -> str:
    """``text`` cut in its middle to ``most`` characters (``start...end``), if it is longer."""
    if len(text) <= most:
        return text
    room = max(0, most - len(ELLIPSIS))
    tail = room // 2
    return text[: room - tail] + ELLIPSIS + text[len(text) - tail:]


__all__ = ["ELLIPSIS", "UNKNOWN", "count", "count_known", "cut", "cut_apart", "ordinal", "plural"]
