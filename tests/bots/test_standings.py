"""``qwirkle standings``: a club's table over its games, checked against a count done here, and its bad inputs."""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict
from pathlib import Path

import pytest
from conftest import run_cli as run

from qwirkle_tools.bots.ratings import Ranked, rate
from qwirkle_tools.bots.standings import ORDER, StandingsError, parse_date, standings
from qwirkle_tools.formats.sources import read_record
from qwirkle_tools.play.engine import replay

SAMPLES = Path(__file__).parents[2] / "sample_games"


def by_hand(paths: list[Path]) -> dict[str, dict[str, float]]:
    """Each player's games, wins, total score and margin and Qwirkles, counted here from the replays of
    ``paths`` (valid records; a top score shared by two: half a win each)."""
    out: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for path in paths:
        record = read_record(path)
        history = replay(record)
        assert not any(f.severity == "error" for f in history.findings)
        totals = history.totals
        for seat, player in enumerate(record.players):
            mine = out[player.name]
            best_other = max(t for s, t in enumerate(totals) if s != seat)
            tops = sum(1 for t in totals if t == max(totals))
            mine["games"] += 1
            mine["wins"] += (1 if tops == 1 else 0.5) if totals[seat] == max(totals) else 0
            mine["score"] += totals[seat]
            mine["margin"] += totals[seat] - best_other
            made = [r.qwirkles for r in history if r.turn is not None and r.turn.player == seat]
            if None not in made:
                mine["qwirkles"] += sum(q or 0 for q in made)
                mine["qwirkle_games"] += 1
    return out


FILES = ["complete-2p.json", "296-295.json", "296-295.qgn", "296-295-sheet.csv", "weak-play.json", "score-sheet.json",
         "double-qwirkle.json", "wrong-scores.json", "club-night.qgn"]


def test_standings_on_the_sample_games_match_a_count_done_here() -> None:
    paths = [SAMPLES / f for f in FILES]
    found = standings(paths)
    expected = by_hand(paths[:7])
    assert {p.player for p in found.players} == set(expected) == {"Ana", "Ben"}
    assert found.games == 7 and len(found.left_out) == 2  # wrong-scores.json and club-night.qgn have errors
    assert [line.split(":")[0] for line in found.left_out] == [str(SAMPLES / f) for f in FILES[7:]]
    for p in found.players:
        e = expected[p.player]
        assert (p.games, p.wins) == (e["games"], e["wins"])
        assert p.average_score == pytest.approx(e["score"] / e["games"])
        assert p.average_margin == pytest.approx(e["margin"] / e["games"])
        assert (p.qwirkles, p.qwirkle_games) == (e["qwirkles"], e["qwirkle_games"])
        assert p.qwirkle_games == p.games - 2  # the two score sheets tell no Qwirkles
        assert p.points_lost is not None and p.analysed_turns > 0
    rates = [p.win_rate for p in found.players]
    assert rates == sorted(rates, reverse=True) and found.to_data()["order"] == ORDER
    # the ratings are openskill's over the same games in the same order
    again = rate(Ranked(("Ana", "Ben"), (1, 2) if a > b else (2, 1) if b > a else (1, 1))
                 for a, b in (replay(read_record(SAMPLES / f)).totals for f in FILES[:7]))
    assert {r.player: round(r.mu, 6) for r in again.ratings} == \
        {p.player: round(p.rating.mu, 6) for p in found.players if p.rating is not None}


def test_the_order_is_the_win_rate_then_the_rating(tmp_path: Path) -> None:
    """Cy won his one game, Ben 2 of 3, Ana 1 of 4: by the win rate, not the count of wins (Ben's 2 led
    before); Di, who also won her one game, is placed beside Cy by the rating."""
    data = json.loads((SAMPLES / "complete-2p.json").read_text(encoding="utf-8"))  # Ben wins 203-197

    def between(first: str, second: str) -> str:  # the game with Ben's seat named first, Ana's second
        return json.dumps({**data, "players": [{"name": second}, {"name": first}]})

    games = [between("Ben", "Ana"), between("Ben", "Ana"), between("Ana", "Ben"), between("Cy", "Ana"),
             between("Di", "Ed")]
    path = tmp_path / "club.jsonl"
    path.write_text("\n".join(games) + "\n", encoding="utf-8")
    found = standings([path])
    order = [p.player for p in found.players]
    assert {p.player: (p.wins, p.games) for p in found.players} == {
        "Cy": (1, 1), "Di": (1, 1), "Ben": (2, 3), "Ana": (1, 4), "Ed": (0, 1)}
    assert order[2:] == ["Ben", "Ana", "Ed"]
    first, second = found.players[:2]
    assert {first.player, second.player} == {"Cy", "Di"}
    assert first.rating is not None and second.rating is not None and first.rating.mu >= second.rating.mu
    text = found.text()
    assert f"by {ORDER}" in text and "win %" in text and " 66.7 " in text  # Ben's 2 of 3
    row = next(r for r in csv.DictReader(io.StringIO(found.csv())) if r["player"] == "Ana")
    assert row["win_rate"] == "0.25"


def test_a_score_sheet_alone_knows_no_qwirkles_or_points_lost() -> None:
    found = standings([SAMPLES / "score-sheet.json"])
    for p in found.players:
        assert p.qwirkles is None and p.qwirkles_per_game is None and p.points_lost is None
    assert "n/a" in found.text()
    assert all(row["qwirkles"] == "" and row["points_lost"] == "" for row in csv.DictReader(io.StringIO(found.csv())))
    assert all(p["qwirkles"] is None for p in found.to_data()["players"])  # type: ignore[union-attr]


def test_since_filters_by_the_meta_date_and_counts_the_undated() -> None:
    paths = [SAMPLES / "complete-2p.json", SAMPLES / "corpus-10.jsonl"]  # the corpus's games have no date
    assert standings(paths).games == 11
    found = standings(paths, since=parse_date("2026-11-29"))
    assert found.games == 1 and found.undated == 10 and "left out: 10 games without a date" in found.text()
    with pytest.raises(StandingsError, match="no game since 2026-11-30"):
        standings(paths, since=parse_date("2026-11-30"))


def test_the_ratings_take_the_games_by_date_not_in_the_order_given(tmp_path: Path) -> None:
    data = json.loads((SAMPLES / "complete-2p.json").read_text(encoding="utf-8"))  # Ben wins 203-197
    paths = []
    for name, date, players in [("a.json", "2026-11-20", ["Ana", "Ben"]), ("b.json", "2026-11-10", ["Ben", "Ana"]),
                                ("c.json", None, ["Ben", "Ana"])]:  # c: undated, given after b: rated after b
        game = {**data, "players": [{"name": n} for n in players], "meta": {**data["meta"], "date": date}}
        if date is None:
            del game["meta"]["date"]
        paths.append(tmp_path / name)
        paths[-1].write_text(json.dumps(game), encoding="utf-8")
    ben_wins, ana_wins = Ranked(("Ana", "Ben"), (2, 1)), Ranked(("Ben", "Ana"), (2, 1))
    expected = {r.player: r.mu for r in rate([ana_wins, ana_wins, ben_wins]).ratings}  # b, c, a
    given = {r.player: r.mu for r in rate([ben_wins, ana_wins, ana_wins]).ratings}
    assert expected != given  # (the order matters to openskill)
    got = {p.player: p.rating.mu for p in standings(paths).players if p.rating is not None}
    assert got == pytest.approx(expected)


def test_the_command_prints_text_json_and_csv_and_draws_the_chart(tmp_path: Path) -> None:
    files = [str(SAMPLES / f) for f in ("complete-2p.json", "weak-play.json")]
    code, out, err = run("standings", *files, "-o", str(tmp_path / "s.png"))
    assert code == 0, err
    assert out.startswith("Standings: 2 games, 2026-11-29, 2 players")
    assert (tmp_path / "s.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code, out, _ = run("standings", *files, "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["games"] == 2 and {p["player"] for p in data["players"]} == {"Ana", "Ben"}
    code, out, _ = run("standings", *files, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and [r["place"] for r in rows] == ["1", "2"] and rows[0]["games"] == "2"


def test_a_record_left_out_as_invalid_exits_1_and_is_listed() -> None:
    code, out, _ = run("standings", str(SAMPLES / "complete-2p.json"), str(SAMPLES / "wrong-scores.json"))
    assert code == 1 and "left out (invalid): " in out and "wrong-scores.json:turn 5: score-mismatch" in out


@pytest.mark.parametrize(("args", "message"), [
    (["--since", "29/11/2026"], "qwirkle: --since: not a date like 2026-11-29: '29/11/2026'"),
    (["--since", "2026-02-30"], "qwirkle: --since: not a date like 2026-11-29: '2026-02-30'"),
    (["--since", "2030-01-01"], "qwirkle: no standings: no game since 2030-01-01"),
    (["-o", "chart.pdf"], "qwirkle: chart.pdf: give a .png or .svg file"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    code, out, err = run("standings", str(SAMPLES / "complete-2p.json"), *args)
    assert code == 2 and out == "" and err.strip() == message


def test_no_valid_game_is_one_line_and_exit_2(tmp_path: Path) -> None:
    code, _, err = run("standings", str(SAMPLES / "illegal-moves.json"))
    assert code == 2 and err.strip() == "qwirkle: no standings: no valid game (1 record left out as invalid)"
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = run("standings", str(empty))
    assert code == 2 and len(err.strip().splitlines()) == 1 and err.startswith("qwirkle: ")


def _renamed(folder: Path, name: str, *players: str, date: str | None = None) -> Path:
    data = json.loads((SAMPLES / "complete-2p.json").read_text())
    data["players"] = [{"name": p} for p in players]
    if date is not None:
        data["meta"]["date"] = date
    (folder / name).write_text(json.dumps(data))
    return folder / name


def test_a_name_written_two_unicode_ways_or_with_a_space_is_one_player(tmp_path: Path) -> None:
    _renamed(tmp_path, "a.json", "Zoe\u0308", "Ben ")  # a combining diaeresis; a space after
    _renamed(tmp_path, "b.json", "Zo\u00eb", "Ben")
    _renamed(tmp_path, "c.json", " Ben", "Zo\u00eb")
    found = standings([tmp_path])
    assert sorted((p.player, p.games) for p in found.players) == [("Ben", 3), ("Zo\u00eb", 3)]
    code, out, _ = run("standings", str(tmp_path))
    assert code == 0 and out.splitlines()[0].startswith("Standings: 3 games, 2026-11-29, 2 players")


def test_a_game_of_one_player_in_two_seats_is_listed_and_not_counted(tmp_path: Path) -> None:
    _renamed(tmp_path, "a.json", "Ana", "Ben")
    _renamed(tmp_path, "b.json", "Ana", "Ana ")  # one player after the spaces
    found = standings([tmp_path])
    assert (found.games, found.rated) == (1, 1)
    assert {p.player: (p.games, p.wins) for p in found.players} == {"Ana": (1, 0), "Ben": (1, 1)}
    assert found.refused == (f"{tmp_path / 'b.json'}: same-player: Ana sits in seats 0 and 1 (names compared after "
                             "Unicode NFC and spaces): a game against oneself is not counted",)
    assert found.refused[0].split(": ")[1] == "same-player"
    code, out, _ = run("standings", str(tmp_path))
    assert code == 0 and f"left out (one player in two seats): {found.refused[0]}" in out.splitlines()
    code, out, _ = run("standings", str(tmp_path), "--format", "json")
    assert json.loads(out)["refused"] == list(found.refused) and json.loads(out)["left_out"] == []
    with pytest.raises(StandingsError, match=r"no valid game \(1 game of one player in two seats\)"):
        standings([tmp_path / "b.json"])


@pytest.mark.parametrize("text", ["20261129xx", "2026-W48-7", "20261129", "2026-333", "2026-11-2",
                                  "\uff12\uff10\uff12\uff16-11-29", "2026-1-129", "+2026-11-29"])
def test_one_date_grammar_on_every_python(tmp_path: Path, text: str) -> None:
    # (date.fromisoformat of Python 3.11 takes the first four; 3.10 none): YYYY-MM-DD only, for --since and meta.date
    with pytest.raises(StandingsError, match="not a date like 2026-11-29"):
        parse_date(text)
    code, out, err = run("standings", str(SAMPLES / "complete-2p.json"), "--since", text)
    assert (code, out, err.count("\n")) == (2, "", 1), err
    _renamed(tmp_path, "a.json", "Ana", "Ben", date=text)
    _renamed(tmp_path, "b.json", "Ana", "Ben", date="2026-11-29")
    found = standings([tmp_path], since=parse_date("2026-01-01"))
    assert (found.games, found.undated) == (1, 1)  # the game dated so has no date


def test_the_chart_of_1200_players_is_capped(tmp_path: Path) -> None:
    from dataclasses import dataclass

    from qwirkle_tools.outputs.charts import render
    from qwirkle_tools.outputs.standings_chart import MOST_PLAYERS, standings_figure

    @dataclass
    class Line:
        player: str
        games: int
        wins: float
        rating: None = None

    fig = standings_figure([Line(f"Player {i:04d}", 3, i % 4) for i in range(1200)], "Standings: 1,800 games")
    width, height = (float(v) * 150 for v in fig.get_size_inches())  # the PNG's 150 dpi
    assert width <= 1500 and height <= 5400, (width, height)  # (uncapped: 1500 x 75,780)
    assert fig.texts[0].get_text() == (f"Standings: 1,800 games (1,200 players; the first {MOST_PLAYERS} drawn, "
                                       f"{1200 - MOST_PLAYERS:,} more in the table)")
    png = render(fig, "png")
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(png[20:24], "big") <= 5400
