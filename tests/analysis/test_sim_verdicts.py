"""The simulation engine in the analysis (``annotate --engine sim``): seeded, every candidate valued,
and in a bag-empty two-player turn the endgame solver's exact loss."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

from qwirkle_tools.analysis import verdicts
from qwirkle_tools.analysis.analyse import Analysis, analyse
from qwirkle_tools.analysis.recorded import recorded_engine
from qwirkle_tools.engines.endgame import position, solve
from qwirkle_tools.formats.record import from_data
from qwirkle_tools.play.load import load_history

SAMPLE = Path(__file__).parents[2] / "sample_games" / "296-295.json"


@pytest.fixture(scope="module")
def judged() -> Iterator[Analysis]:
    # a smaller solver budget than the analysis's own (the game's 6-against-6 turns take seconds
    # each at 20,000 positions): the last turns are still proven, the first bag-empty ones not
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(verdicts, "ENDGAME_NODES", 2_000)
        yield analyse(load_history(SAMPLE), "sim")


def test_the_same_record_gives_the_same_analysis() -> None:
    history = load_history(SAMPLE)
    short = dataclasses.replace(history.record, turns=history.record.turns[:12], result=None)
    first, again = analyse(short, "sim"), analyse(short, "sim")
    assert [t.verdict for t in first.turns] == [t.verdict for t in again.turns]
    assert sum(1 for t in first.turns if t.verdict is not None) >= 10


@pytest.mark.slow
def test_every_judged_turn_has_the_sims_verdict_and_valued_candidates(judged: Analysis) -> None:
    turns = [t for t in judged.turns if t.best_score is not None and t.action == "place"]
    assert turns and all(t.verdict is not None and t.verdict.engine == "sim" for t in turns)
    for t in turns:
        assert t.verdict is not None
        values = [c.value for c in t.candidates]
        assert all(v is not None for v in values)
        assert t.verdict.best_value >= t.verdict.played_value - 1e-9 or t.verdict.value_lost == 0
    assert judged.players[0].value_lost is not None


def test_a_bag_empty_turn_carries_the_solvers_exact_loss(judged: Analysis) -> None:
    record = load_history(SAMPLE).record
    exact = [t for t in judged.turns if t.exact_loss is not None]
    assert exact, "the 296-295 game ends with the bag empty: its last turns are solved"
    for t in exact[:3]:
        game, played = position(record, t.turn)
        assert game.bag_size == 0 and played is not None
        solution = solve(game, seconds=None, include=[played])
        assert solution.proven
        assert t.exact_loss == solution.loss(played)
    assert all(t.exact_loss is None for t in judged.turns if t.turn < exact[0].turn)


def test_an_annotated_record_names_its_engine(judged: Analysis) -> None:
    from qwirkle_tools.analysis.annotation import annotated

    data = annotated(load_history(SAMPLE), judged)
    assert recorded_engine(from_data(data)) == "sim"
    last = data["turns"][-1]["analysis"]  # type: ignore[index]
    assert "exact_loss" in last["sim"]


# -- the engines' time is bounded: a turn (--movetime) and a record (RECORD_SECONDS) -------------

def one_turn_crowded(tmp_path: Path) -> Path:
    """A legal bag-empty record of one turn on a crowded board: Ana's two tiles, then Ben's six
    circles would have 139,536 moves a position (the solver's 20,000 positions took hours)."""
    import json

    from conftest import crowded_endgame

    from qwirkle_tools import Game

    data = crowded_endgame("rs ps", "rc oc yc gc bc rc")
    move = Game.from_record(from_data(data)).legal_moves()[0]
    data["turns"] = [{"player": 0, "action": "place", "score": move.score,
                      "tiles": [{"tile": str(p.tile), "x": p.x, "y": p.y} for p in move.tiles]}]
    path = tmp_path / "one-turn.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def measured(*args: str) -> tuple[float, int, int, str]:
    """``qwirkle ARGS``: its wall time, peak memory (KiB), exit code and standard error, measured
    by a process of its own (RUSAGE_CHILDREN: the command alone)."""
    import json
    import subprocess
    import sys

    code = ("import json, resource, subprocess, sys, time; t = time.monotonic(); "
            "p = subprocess.run([sys.executable, '-m', 'qwirkle_tools', *sys.argv[1:]], capture_output=True, text=True); "
            "print(json.dumps([time.monotonic() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "
            "p.returncode, p.stderr]))")
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=600)
    seconds, rss, returncode, err = json.loads(proc.stdout)
    return seconds, rss, returncode, err


@pytest.mark.serial
def test_a_crowded_bag_empty_turn_is_judged_within_its_time(tmp_path: Path) -> None:
    import json

    # annotate/report/view --engine sim ran past 300 s and 856 MB; a record whose analysis names sim
    # made plain view and report do the same. Each now keeps its --movetime a turn
    path = one_turn_crowded(tmp_path)
    annotated = tmp_path / "annotated.json"
    seconds, rss, code, err = measured("annotate", str(path), "--engine", "sim", "-o", str(annotated))
    assert code == 0 and seconds < 2.0 + 3.0 and rss < 300 * 1024, (seconds, rss, err)  # the default: 2 s a turn
    assert recorded_engine(from_data(json.loads(annotated.read_text()))) == "sim"
    for args in (["view", str(annotated), "-o", str(tmp_path / "game.html")], ["report", str(annotated), "-o",
                                                                                  str(tmp_path / "report")]):
        seconds, rss, code, err = measured(*args, "--movetime", "500")
        assert code == 0 and seconds < 0.5 + 4.0 and rss < 300 * 1024, (args[0], seconds, rss, err)


@pytest.mark.serial
def test_a_records_engine_time_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    # a legal crowded record of 10,000 turns took 149 s with sim: the engines' time for a record is
    # bounded (RECORD_SECONDS), the turns after it say so
    import time

    from test_lookahead import crowded_lookahead_record

    monkeypatch.setattr(verdicts, "RECORD_SECONDS", 1.0)
    started = time.monotonic()
    turns = analyse(from_data(crowded_lookahead_record(400)), "sim").turns
    assert time.monotonic() - started < 1.0 + 5.0
    spent = [t for t in turns if t.note == "not judged by the engine: the analysis bound of 1 s of engine time for a "
                                           "record is spent"]
    judged = [t for t in turns if t.verdict is not None]
    assert judged and spent and max(t.turn for t in judged) < min(t.turn for t in spent)


def test_a_turn_out_of_time_is_noted() -> None:
    from test_lookahead import crowded_lookahead_record

    turns = analyse(from_data(crowded_lookahead_record(2)), "lookahead", movetime_ms=1).turns
    assert turns[0].verdict is None
    assert turns[0].note == "not judged by the engine: its time for the turn (1 ms, --movetime) ran out"
    with pytest.raises(ValueError, match="at least 1 ms"):
        analyse(from_data(crowded_lookahead_record(2)), "lookahead", movetime_ms=0)


def test_the_commands_default_movetime_is_the_analysis_own() -> None:
    from qwirkle_tools.cli.study import MOVETIME_DEFAULT

    assert MOVETIME_DEFAULT == verdicts.MOVETIME_MS


def test_each_turns_win_chance_comes_from_the_playouts_and_is_the_result_once_solved(judged: Analysis) -> None:
    """With ``--engine sim`` a turn's chances are the simulation's (from its playouts); once the bag
    is empty the solver's result: 1, 0.5 or 0. Ana's turn 63 turns a win into a loss: a blunder."""
    history = load_history(SAMPLE)
    final = history.totals
    sources = {t.win.source for t in judged.turns if t.win is not None}
    assert sources <= {"sim", "exact", "solver"} and {"sim", "exact"} <= sources
    for t in judged.turns:
        if t.win is None or t.verdict is None:
            continue
        assert t.win.played == t.verdict.played_chance and t.win.best >= t.win.played
        if t.win.source == "exact":
            before = history.before(t.turn - 1)
            lead = before.scores[t.player] - before.scores[1 - t.player]
            margin = lead + t.verdict.played_value
            assert t.win.played == (1.0 if margin > 0 else 0.5 if margin == 0 else 0.0)
    last = judged.turns[62]
    assert last.win is not None and (last.win.source, last.win.played, last.win.best, last.win.kind) == ("exact", 0.0, 1.0,
                                                                                                       "blunder")
    assert final[0] < final[1] and "exact, the endgame solved" in last.win.text()
    early = [t.win.played for t in judged.turns[:40] if t.win is not None and t.win.source == "sim"]
    assert len(early) >= 38 and len(set(early)) > 30 and all(0.0 < c < 1.0 for c in early)


def test_the_sims_chances_are_read_back_from_an_annotated_record(judged: Analysis) -> None:
    from qwirkle_tools.analysis.annotation import annotated

    record = load_history(SAMPLE).record
    written = from_data(annotated(record, judged))
    again = analyse(written, "sim", reuse=True, endgames=False)
    pairs = [(a.win, b.win) for a, b in zip(judged.turns, again.turns) if a.verdict is not None]
    assert len(pairs) > 50
    for a, b in pairs:
        assert a is not None and b is not None and a.source == b.source
        assert b.played == pytest.approx(a.played, abs=1e-4) and b.best == pytest.approx(a.best, abs=1e-4)
