"""Small words: counts with their nouns, ordinals, texts cut short (qwirkle_tools.core.text)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qwirkle_tools.core.text import ELLIPSIS, count, cut, cut_apart, ordinal, plural


@pytest.mark.parametrize(("n", "expected"), [
    (0, "0 errors"), (1, "1 error"), (2, "2 errors"), (1_000, "1,000 errors"), (-1, "-1 errors"),
])
def test_count_pluralises_every_number_but_one(n: int, expected: str) -> None:
    assert count(n, "error") == expected


def test_an_irregular_plural_is_given() -> None:
    assert count(1, "turn score differs", "turn scores differ") == "1 turn score differs"
    assert count(3, "turn score differs", "turn scores differ") == "3 turn scores differ"
    assert plural(2, "field") == "fields"
    assert plural(1, "field") == "field"


@pytest.mark.parametrize(("n", "expected"), [
    (1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (10, "10th"), (11, "11th"), (12, "12th"), (13, "13th"),
    (20, "20th"), (21, "21st"), (22, "22nd"), (23, "23rd"), (100, "100th"), (101, "101st"), (111, "111th"),
    (112, "112th"), (121, "121st"),
])
def test_ordinal(n: int, expected: str) -> None:
    assert ordinal(n) == expected


@given(st.integers(1, 10_000))
def test_ordinal_suffix_follows_the_last_two_digits(n: int) -> None:
    suffix = ordinal(n)[len(str(n)):]
    if n % 100 in (11, 12, 13):
        assert suffix == "th"
    else:
        assert suffix == {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


@given(st.text(max_size=40), st.integers(3, 40))
def test_cut_keeps_short_texts_and_marks_where_it_cut(text: str, most: int) -> None:
    shown = cut(text, most)
    if len(text) <= most:
        assert shown == text
    else:
        assert len(shown) == most
        assert shown.endswith(ELLIPSIS)
        assert text.startswith(shown[: -len(ELLIPSIS)])


def test_the_package_spells_these_words_only_here() -> None:
    # the plural and the cut were written out in seven and nine places; a new copy would show as this pattern
    import re
    from pathlib import Path

    package = Path(__file__).parents[2] / "qwirkle_tools"
    copies = re.compile(r"""'s' if \w+|"s" if \w+|\[:\d+\] \+ ["']\.\.\.["']""")
    found = [f"{p.relative_to(package)}:{i}" for p in sorted(package.rglob("*.py")) if p.name != "text.py"
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if copies.search(line)]
    assert found == []


def test_names_cut_apart_never_look_alike() -> None:
    versions = ["a-tournament-bot-with-a-long-name version 1", "a-tournament-bot-with-a-long-name version 2"]
    assert len({cut(v, 40) for v in versions}) == 1  # (what the ratings printed: two players alike)
    shown = cut_apart([*versions, "greedy"], 40)
    assert len(set(shown)) == 3 and shown[2] == "greedy"
    assert all(len(s) <= 40 for s in shown) and shown[0].endswith("1") and shown[1].endswith("2")


@given(st.lists(st.text(alphabet="ab-", max_size=30), max_size=8), st.integers(0, 20))
def test_cut_apart_keeps_different_texts_apart(texts: list[str], most: int) -> None:
    shown = cut_apart(texts, most)
    for (t1, s1) in zip(texts, shown):
        for (t2, s2) in zip(texts, shown):
            if t1 != t2:
                assert s1 != s2, (texts, shown)
    assert all(s == t or len(s) <= max(most, len(ELLIPSIS)) for t, s in zip(texts, shown)) or most < len(ELLIPSIS)
