"""Statistics over many games, in constant memory: :class:`Stats` folds the rows of
:mod:`~qwirkle_tools.corpus.rows` (a game's, its turns', its findings') into a summary:
wins by position, by player and by bot, the spread of scores, margins, Qwirkles and
turns, points lost, and the most common findings. Two folds merge (:meth:`Stats.merge`),
so the blocks of a cluster's run add up to the same summary as one process's.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..core.safetext import one_line
from ..core.text import UNKNOWN, count, cut, ordinal
from .rows import GameRows

# -- statistics -----------------------------------------------------------------

@dataclass
class _Spread:
    """Count, mean, spread and quantiles of integers, exactly, in memory that
    grows with the number of distinct values only."""

    counts: Counter[int] = field(default_factory=Counter)

    def add(self, value: int) -> None:
        self.counts[value] += 1

    def merge(self, other: _Spread) -> _Spread:
        return _Spread(self.counts + other.counts)

    @property
    def n(self) -> int:
        return sum(self.counts.values())

    def summary(self) -> dict[str, float | int] | None:
        n = self.n
        if not n:
            return None
        # exact integer sums, so the result does not depend on the order the values came in
        s1 = sum(v * c for v, c in self.counts.items())
        s2 = sum(v * v * c for v, c in self.counts.items())
        mean = s1 / n
        var = (n * s2 - s1 * s1) / (n * (n - 1)) if n > 1 else 0.0
        ordered = sorted(self.counts.items())

        def quantile(q: float) -> int:
            rank, seen = math.ceil(q * n), 0
            for v, c in ordered:
                seen += c
                if seen >= max(rank, 1):
                    return v
            return ordered[-1][0]

        return {"n": n, "mean": round(mean, 2), "sd": round(math.sqrt(var), 2), "min": ordered[0][0],
                "q1": quantile(0.25), "median": quantile(0.5), "q3": quantile(0.75), "max": ordered[-1][0]}


@dataclass
class _PlayerTotals:
    games: int = 0
    turns: int = 0
    analysed: int = 0
    missed: int = 0
    lost: int = 0
    wins: int = 0
    checked: int = 0  # turns checked for a missed Qwirkle


@dataclass
class Stats:
    """A corpus summary, built one game at a time (:meth:`add`) in constant
    memory: counts and histograms, never the rows themselves."""

    records: int = 0
    unreadable: int = 0
    invalid: int = 0
    analysed: bool = False
    wins: dict[int, Counter[int]] = field(default_factory=dict)  # players -> winner position -> games
    ties: Counter[int] = field(default_factory=Counter)
    games_by_size: Counter[int] = field(default_factory=Counter)
    scores: _Spread = field(default_factory=_Spread)
    margins: _Spread = field(default_factory=_Spread)
    qwirkles: _Spread = field(default_factory=_Spread)
    qwirkles_unknown: int = 0  # games whose Qwirkles cannot be counted (a placement's tiles not recorded)
    turns: _Spread = field(default_factory=_Spread)
    codes: Counter[str] = field(default_factory=Counter)
    code_games: Counter[str] = field(default_factory=Counter)
    players: dict[str, _PlayerTotals] = field(default_factory=dict)
    missed_cost: _Spread = field(default_factory=_Spread)  # points lost on turns that missed a Qwirkle
    bot_games: Counter[str] = field(default_factory=Counter)  # bot or policy -> seats played
    bot_wins: Counter[str] = field(default_factory=Counter)

    def add(self, rows: GameRows) -> None:
        self.records += 1
        for code in {f.code for f in rows.findings}:
            self.code_games[code] += 1
        self.codes.update(f.code for f in rows.findings)
        game = rows.game
        if game is None:
            self.unreadable += 1
            return
        self.invalid += not game["valid"]
        n = _int(game["players"])
        self.games_by_size[n] += 1
        scores, names = game["_scores"], game["_names"]
        assert isinstance(scores, tuple) and isinstance(names, tuple)
        for score in scores:
            self.scores.add(score)
        if game["turns"]:
            if game["tie"]:
                self.ties[n] += 1
            elif game["winner_position"] is not None:
                self.wins.setdefault(n, Counter())[_int(game["winner_position"])] += 1
            if game["margin"] is not None:
                self.margins.add(_int(game["margin"]))
        if game["qwirkles"] is None:  # unknown (a score sheet): left out, not counted as 0
            self.qwirkles_unknown += 1
        else:
            self.qwirkles.add(_int(game["qwirkles"]))
        self.turns.add(_int(game["turns"]))
        winner = game["winner_seat"] if game["turns"] else None
        for seat, name in enumerate(names):
            totals = self.players.setdefault(str(name), _PlayerTotals())
            totals.games += 1
            totals.wins += seat == winner
            bot = game.get(f"bot_{seat}")
            if isinstance(bot, str):
                self.bot_games[bot] += 1
                self.bot_wins[bot] += seat == winner
        for t in rows.turns:
            if t["player"] is None:
                continue
            totals = self.players[str(t["player"])]
            totals.turns += 1
            if "best_score" in t and t["best_score"] is not None:
                totals.analysed += 1
                totals.lost += _int(t["points_lost"])
            totals.checked += t.get("missed_qwirkle") is not None
            if t.get("missed_qwirkle"):
                totals.missed += 1
                if t["best_score"] is not None:
                    self.missed_cost.add(_int(t["points_lost"]))
        self.analysed = self.analysed or any("best_score" in t for t in rows.turns)

    def merge(self, other: Stats) -> Stats:
        """The summary of both parts of a corpus, as if :meth:`add` had seen
        every game of both (a new value; neither part is changed).

        Merging is associative and commutative, so the parts of a corpus run
        anywhere may be merged in any grouping: the text and data are the same.
        """
        wins = {n: self.wins.get(n, Counter()) + other.wins.get(n, Counter())
                for n in sorted(self.wins.keys() | other.wins.keys())}
        players = {}
        for name in sorted(self.players.keys() | other.players.keys()):
            a, b = self.players.get(name, _PlayerTotals()), other.players.get(name, _PlayerTotals())
            players[name] = _PlayerTotals(a.games + b.games, a.turns + b.turns, a.analysed + b.analysed,
                                          a.missed + b.missed, a.lost + b.lost, a.wins + b.wins, a.checked + b.checked)
        return Stats(
            records=self.records + other.records, unreadable=self.unreadable + other.unreadable,
            invalid=self.invalid + other.invalid, analysed=self.analysed or other.analysed, wins=wins,
            ties=self.ties + other.ties, games_by_size=self.games_by_size + other.games_by_size,
            scores=self.scores.merge(other.scores), margins=self.margins.merge(other.margins),
            qwirkles=self.qwirkles.merge(other.qwirkles), qwirkles_unknown=self.qwirkles_unknown + other.qwirkles_unknown,
            turns=self.turns.merge(other.turns),
            codes=self.codes + other.codes, code_games=self.code_games + other.code_games, players=players,
            missed_cost=self.missed_cost.merge(other.missed_cost),
            bot_games=self.bot_games + other.bot_games, bot_wins=self.bot_wins + other.bot_wins,
        )

    def to_data(self) -> dict[str, object]:
        """The summary as JSON data."""
        games = self.records - self.unreadable
        seats = {}
        for n in sorted(self.games_by_size):
            decided = self.wins.get(n, Counter())
            total = self.games_by_size[n]
            seats[str(n)] = {"games": total, "ties": self.ties[n],
                             "win_rate": [round(decided[pos] / total, 4) for pos in range(1, n + 1)]}
        data: dict[str, object] = {
            "records": self.records, "games": games, "valid": games - self.invalid,
            "invalid": self.invalid, "unreadable": self.unreadable,
            "win_rate_by_position": seats,
            "final_scores": self.scores.summary(), "margins": self.margins.summary(),
            "qwirkles_per_game": self.qwirkles.summary(), "qwirkles_unknown": self.qwirkles_unknown,
            "turns_per_game": self.turns.summary(),
            "finding_codes": [{"code": c, "findings": k, "records": self.code_games[c]}
                              for c, k in sorted(self.codes.items(), key=lambda kv: (-kv[1], kv[0]))],
            "wins_by_player": _wins([(name, p.games, p.wins) for name, p in self.players.items()]),
            "wins_by_bot": _wins([(bot, k, self.bot_wins[bot]) for bot, k in self.bot_games.items()]),
        }
        if self.analysed:
            data["missed_qwirkle_cost"] = self.missed_cost.summary()
            data["players"] = [
                {"player": name, "games": p.games, "turns": p.turns, "analysed_turns": p.analysed,
                 "missed_qwirkles": p.missed if p.checked else None, "points_lost": p.lost if p.analysed else None,
                 "points_lost_per_turn": round(p.lost / p.analysed, 2) if p.analysed else None}
                for name, p in sorted(self.players.items())]
        return data

    def text(self, top: int = 10, max_players: int = 20) -> str:
        """The summary for people."""
        d = self.to_data()
        games = _int(d["games"])
        records = count(self.records, "record")
        out = [f"{records}: {count(games, 'game')} read ({_int(d['valid']):,} valid, "
               f"{self.invalid:,} with errors), {self.unreadable:,} unreadable"]
        seats = d["win_rate_by_position"]
        assert isinstance(seats, dict)
        if seats:
            out.append("")
            out.append("Wins by position in the turn order (1st = moved first):")
            for n, s in seats.items():
                rates = "  ".join(f"{ordinal(pos)} {rate:.1%}" for pos, rate in enumerate(s["win_rate"], 1))
                out.append(f"  {count(int(n), 'player')}, {count(s['games'], 'game')}: {rates}  (ties {s['ties']:,})")
        if d["wins_by_player"]:
            out.extend(_wins_lines("Wins by player (a tie for first is no win):", d["wins_by_player"], max_players))
        if d["wins_by_bot"]:
            out.extend(_wins_lines("Wins by bot or policy (from the records' meta):", d["wins_by_bot"], max_players))
        rows = [("Final score", d["final_scores"]), ("Winning margin", d["margins"]),
                ("Qwirkles per game", d["qwirkles_per_game"]), ("Turns per game", d["turns_per_game"])]
        if self.analysed:
            rows.append(("Cost of a missed Qwirkle", d["missed_qwirkle_cost"]))
        if any(v for _, v in rows):
            out.append("")
            out.append(f"{'':26}{'n':>8}{'mean':>9}{'sd':>8}{'min':>6}{'q1':>6}{'median':>8}{'q3':>6}{'max':>6}")
            for label, v in rows:
                if isinstance(v, dict):
                    out.append(f"  {label:24}{v['n']:>8,}{v['mean']:>9.1f}{v['sd']:>8.1f}{v['min']:>6}"
                               f"{v['q1']:>6}{v['median']:>8}{v['q3']:>6}{v['max']:>6}")
            if self.qwirkles_unknown:
                out.append(f"  (Qwirkles per game leaves out {count(self.qwirkles_unknown, 'game')} whose tiles are "
                           "not recorded: unknown, not 0)")
        codes = d["finding_codes"]
        assert isinstance(codes, list)
        out.append("")
        if codes:
            out.append("Most common findings (code: findings in records):")
            for c in codes[:top]:
                out.append(f"  {c['code']:24}{c['findings']:>8,} in {c['records']:,}")
            if len(codes) > top:
                out.append(f"  ... and {len(codes) - top} more codes")
        else:
            out.append("No findings.")
        if self.analysed:
            players = d["players"]
            assert isinstance(players, list)
            out.append("")
            out.append(f"  {'Player':24}{'games':>7}{'analysed turns':>16}{'missed Qwirkles':>17}"
                       f"{'points lost':>13}{'per turn':>10}")
            for p in sorted(players, key=lambda p: (-p["games"], p["player"]))[:max_players]:
                per = UNKNOWN if p["points_lost_per_turn"] is None else f"{p['points_lost_per_turn']:.2f}"
                missed, lost = (UNKNOWN if p[k] is None else f"{p[k]:,}" for k in ("missed_qwirkles", "points_lost"))
                name = one_line(p["player"])
                name = cut(name, 24)
                out.append(f"  {name:24}{p['games']:>7,}{p['analysed_turns']:>16,}{missed:>17}{lost:>13}{per:>10}")
            if len(players) > max_players:
                out.append(f"  ... and {len(players) - max_players} more players")
        return "\n".join(out)


def _wins(rows: Iterable[tuple[str, int, int]]) -> list[dict[str, object]]:
    """Games and wins (a tie for first is no win) by player or bot, most games first."""
    return [{"name": name, "games": games, "wins": wins, "win_rate": round(wins / games, 4) if games else None}
            for name, games, wins in sorted(rows, key=lambda r: (-r[1], r[0]))]


def _wins_lines(title: str, rows: object, most: int) -> list[str]:
    assert isinstance(rows, list)
    out = ["", title, f"  {'':24}{'games':>7}{'wins':>7}{'win rate':>10}"]
    for r in rows[:most]:
        name = cut(one_line(r["name"]), 24)
        rate = "-" if r["win_rate"] is None else f"{r['win_rate']:.1%}"
        out.append(f"  {name:24}{r['games']:>7,}{r['wins']:>7,}{rate:>10}")
    if len(rows) > most:
        out.append(f"  ... and {len(rows) - most} more")
    return out


def _int(value: object) -> int:
    assert isinstance(value, int)
    return value


__all__ = ["Stats"]
