"""The guides a club player reads are written in short sentences: under 20 words a sentence on average.

Only prose is counted, as a reader meets it. Code blocks, tables, headings, pictures and HTML comments are
left out; a span of inline code is one word; a link counts as its text. A sentence ends at ``.``, ``!`` or
``?`` followed by a space or the end of a line, at the end of a paragraph, and at the start of a list
item. A word is a run of text holding a letter or a digit (a lone ``-`` or ``=`` is not one).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
GUIDES = ["docs/club-players.md", "docs/getting-started.md"]
LIMIT = 20

ABBREVIATIONS = ("e.g.", "i.e.", "vs.")
"""Dots that do not end a sentence (kept out of the split, so they make a sentence longer, never shorter)."""


def prose(text: str) -> str:
    """The prose of a Markdown page: paragraphs separated by blank lines, each list item a paragraph of
    its own, with code blocks, tables, headings, pictures and comments taken out, inline code one word."""
    text = re.sub(r"<!--.*?-->", "\n\n", text, flags=re.S)
    text = re.sub(r"^(```|~~~|:::).*?^\1[^\n]*$", "\n\n", text, flags=re.S | re.M)  # fenced blocks, directives
    kept = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(("|", "#")):  # a table row, a heading
            kept.append("")
        elif re.match(r"([-*+]|[0-9]+\.)\s", stripped):  # a list item starts a new sentence
            kept.extend(["", re.sub(r"^([-*+]|[0-9]+\.)\s+", "", stripped)])
        else:
            kept.append(stripped)
    text = "\n".join(kept)
    text = re.sub(r"!\[[^\]]*\]\([^)]*\)", " ", text)  # a picture: its alt text is not read as prose
    text = re.sub(r"`[^`]+`", "CODE", text)  # inline code: one word
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link: its text
    return text.replace("**", "").replace("*", "")


def sentences(text: str) -> list[list[str]]:
    """The prose sentences of a Markdown page, each as its words."""
    found = []
    for paragraph in re.split(r"\n\s*\n", prose(text)):
        paragraph = " ".join(paragraph.split())
        for abbreviation in ABBREVIATIONS:
            paragraph = paragraph.replace(abbreviation, abbreviation.replace(".", ""))
        for sentence in re.split(r"(?<=[.!?])(?:\s+|$)", paragraph):
            words = [w for w in sentence.split() if re.search(r"\w", w)]
            if words:
                found.append(words)
    return found


def mean_words(text: str) -> float:
    """The mean number of words a prose sentence of a Markdown page."""
    found = sentences(text)
    return sum(len(s) for s in found) / len(found)


@pytest.mark.parametrize("guide", GUIDES)
def test_a_club_guide_averages_under_20_words_a_sentence(guide: str) -> None:
    text = (ROOT / guide).read_text(encoding="utf-8")
    assert len(sentences(text)) >= 40  # the page has prose to count
    assert mean_words(text) < LIMIT, f"{guide}: {mean_words(text):.1f} words a sentence"


def test_the_count_reads_prose_only() -> None:
    page = """# A heading of many many words that is not counted at all

Check a game. It takes `qwirkle validate sample_games/club-night.qgn` and one
[link with words](notation.md#the-notation)!

<!-- a comment of many words that is not read by anyone -->

```console
$ qwirkle validate a very long command that is code and not prose at all
```

| a | table row of many words |
| --- | --- |

![a picture of many words, its alt text](board.png)

- First item
- Second item, e.g. this one - with a dash
"""
    assert [len(s) for s in sentences(page)] == [3, 8, 2, 8]
    assert mean_words(page) == 21 / 4


def test_the_count_sees_a_long_sentence() -> None:
    assert mean_words(" ".join(["word"] * 30) + ".\n\nShort one.\n") == 16
