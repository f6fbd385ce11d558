"""``--game N``: view, board, moves and endgame read one game of a ``.jsonl`` file (a match's output)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli

CORPUS = Path(__file__).parents[2] / "sample_games" / "corpus-10.jsonl"


def command(name: str, file: Path, out: Path) -> list[str]:
    return {"view": ["view", str(file), "-o", str(out / "game.html"), "--force"],
            "board": ["board", str(file), "--no-colour"],
            "moves": ["moves", str(file), "--turn", "9", "-n", "5"],
            "endgame": ["endgame", str(file), "--seconds", "0.2", "--format", "json"]}[name]


@pytest.mark.parametrize("name", ["view", "board", "moves", "endgame"])
def test_a_game_of_a_corpus_is_that_record_read_alone(name: str, tmp_path: Path) -> None:
    third = CORPUS.read_text(encoding="utf-8").splitlines()[2]
    alone = tmp_path / "third.json"
    alone.write_text(third, encoding="utf-8")
    code, out, err = run_cli(*command(name, CORPUS, tmp_path), "--game", "3")
    assert code == 0, err
    code_alone, out_alone, _ = run_cli(*command(name, alone, tmp_path))
    assert code_alone == 0
    if name == "endgame":  # (a search against the clock: the position is the same)
        import json

        assert json.loads(out)["turn"] == json.loads(out_alone)["turn"]
    else:
        assert out == out_alone


@pytest.mark.parametrize("name", ["view", "board", "moves", "endgame"])
def test_a_game_that_is_not_there_is_one_line_and_exit_2(name: str, tmp_path: Path) -> None:
    for extra, said in [([], "corpus-10.jsonl holds 10 games (a .jsonl corpus): choose one with --game N (1 to 10)"),
                        (["--game", "11"], "--game 11: "),
                        (["--game", "0"], "--game 0: the games of a file are numbered from 1")]:
        code, out, err = run_cli(*command(name, CORPUS, tmp_path), *extra)
        assert code == 2 and out == "", (name, extra, err)
        assert err.splitlines() == [err.strip()] and said in err, err
    code, _, err = run_cli(*command(name, Path(__file__).parents[2] / "sample_games" / "296-295.json", tmp_path),
                           "--game", "2")
    assert code == 2 and "holds 1 game (1 to 1)" in err, err


def test_a_corpus_of_one_game_needs_no_number(tmp_path: Path) -> None:
    one = tmp_path / "one.jsonl"
    one.write_text("\n" + CORPUS.read_text(encoding="utf-8").splitlines()[0] + "\n\n", encoding="utf-8")
    assert run_cli("board", str(one), "--no-colour")[0] == 0
    assert run_cli("board", str(one), "--no-colour", "--game", "1")[0] == 0
