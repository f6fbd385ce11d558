"""Find the 296-295 game: a whole legal game that Ben wins 296 to 295 after trailing all game.

    python tools/search_296_295.py                       # find it again, from its seed (seconds)
    python tools/search_296_295.py --first-seed 0        # the whole search (about 2 minutes)
    python tools/search_296_295.py --write               # ... and write sample_games/296-295.qgn and .json

The seed write-ups end on a photo of a two-player score sheet: the right-hand
player trailed the whole game, took the lead at the very end and won 296 to
295. This script builds a game with that finish, every rack and draw recorded.

The game is stored once, in the notation: ``sample_games/296-295.qgn`` (every
rack and draw recorded). :func:`make` reads it into the record that
``sample_games/make_samples.py`` writes as ``296-295.json``, so making the
samples does not depend on the search, nor on the order in which the move
generator lists moves.

How it was found (``--search``). Any draw order is legal, so the search plays
both players and also chooses which tiles come out of the bag (a
*constructed draw order*), always from the tiles really left in it:

* **Main phase**, until the bag holds ``ENDGAME_BAG`` tiles or fewer. Each
  player plays the most *efficient* allowed move: score minus ``C_TILE`` per
  tile placed (a tile scoring in two lines beats a long cheap line), minus
  ``GIFT`` if it leaves a line of five open; a Qwirkle whenever one is
  allowed. Ben plays no move that leaves him less than ``margin()`` behind
  Ana (1 to 9 points, varying), exchanging instead if he must; Ana plays no
  move that takes her more than ``ANA_LEAD`` ahead; a player whose best move
  scores 3 or less exchanges. After each move the player's draw is chosen
  among ``N_CAND`` draws from the bag (half uniformly random, half favouring
  tiles that help the rack, ``HOT``): the search plans the opponent's coming
  move, then looks at the player's next move with each candidate draw on
  that board, and keeps the draw that brings the player closest to a scoring
  pace (``PACE`` points per tile on the board; Ben ``BEN_BEHIND`` lower),
  avoiding racks whose best move the player would not play, racks offering
  a Qwirkle the player would have to refuse, and further Qwirkles for a
  player who has ``QCAP``. A share ``BAD_LUCK`` of the draws are simply the
  worst candidates, as in real games (they bring the exchanges).
* **Endgame**, when the totals are in ``WINDOW``: random playouts until the
  bag is empty (moves from :func:`options`, each draw the best of
  ``ENDGAME_DRAWS`` random ones), then a depth-first search of every way to
  play the last racks, for exactly 295 for Ana and 296 for Ben, Ben behind
  after every turn but the last one or two. In the endgame a player takes a
  Qwirkle whenever one fits, plays at least ``MIN_SHARE`` of the best score
  that fits, and leaves no line of five open when he can help it.

Seeds are tried in order; a finish is kept if the whole game looks like a
real one (:func:`quality`: 45 to 70 turns, an exchange at least, 4 to
``MAX_QWIRKLES`` Qwirkles and at most ``MAX_MISSED`` missed Qwirkles per
player by ``qwirkle annotate``'s analysis). The search says whether the game it
finds is the stored one, and with ``--write`` stores it. Everything is seeded: the same run gives the same bytes.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from qwirkle_tools.analysis.analyse import analyse, open_fives
from qwirkle_tools.analysis.validate import check_data
from qwirkle_tools.core.board import Placement
from qwirkle_tools.core.move import Move
from qwirkle_tools.core.movegen import generate
from qwirkle_tools.core.rules import DEFAULT_RULES
from qwirkle_tools.core.tiles import COPIES, RACK_SIZE, TILES, largest_group
from qwirkle_tools.formats.qgn import format_qgn
from qwirkle_tools.formats.record import Player, Record, Result, Turn, from_data
from qwirkle_tools.formats.sources import read_record
from qwirkle_tools.play.engine import Replay as Engine
from qwirkle_tools.play.engine import replay

SAMPLES = Path(__file__).parent.parent / "sample_games"
STORED = SAMPLES / "296-295.qgn"
OUT = SAMPLES / "296-295.json"
NAMES = ("Ana", "Ben")
ANA, BEN = 0, 1
FINAL = (295, 296)

# search parameters
C_TILE = 1.5       # each placed tile "costs" this much in a move's value
QCAP = 4           # no draw offers a Qwirkle to a player who has made this many
N_CAND = 32        # candidate draws looked at per draw
ENDGAME_BAG = 8    # the endgame search starts when the bag holds this many tiles or fewer
PACE = 3.3         # Ana's scoring pace: points per tile on the board
ANA_LEAD = 30      # Ana plays no move that takes her further ahead than this
BEN_BEHIND = 10    # how far behind Ana Ben aims to be, on average
WINDOW = ((228, 276), (212, 264), (2, 30))  # Ana, Ben, Ana - Ben when the endgame starts
ENDGAME_NO_FIVES = True
ENDGAME_DRAWS = 3  # in the endgame, the draw that gives the best next move of this many random ones
PLAYOUTS = 24      # endgame playouts per game
FINISH_NODES = 300 # positions searched once the bag is empty, per playout
EXCHANGE_COST = 8.0  # an exchange fits the pace as well as a move this many points off it
HOT = 2.0          # tiles adding this many points to the best move are twice as likely in half the draws
GIFT = 4.0         # what leaving a line of five open costs in a move's value
MIN_SHARE = 0.5    # in the endgame a move scores at least this share of the best one
BAD_LUCK = 0.06    # the share of draws that are the worst of the candidates
LOST_WEIGHT = 0.5  # how much a draw is held against for the points the policy's move leaves on the table

MAX_TURNS = 90     # a main phase longer than this is given up
MAX_GAME_TURNS = 70
MAX_QWIRKLES = 8   # Qwirkles a player makes in the game found, at most
MIN_EXCHANGES = 1  # a real game has an exchange or two
MAX_MISSED = 0     # Qwirkles a player may miss (an analysis flag) in the game found

# --------------------------------------------------------------------------------------------
# the record of a game the search found


def build(g: Game, seed: int | None) -> dict[str, Any]:
    """The record of a game the search played, every turn played (and scored) again by a strict
    engine, which refuses an illegal move, a wrong rack or draw, or a 4th copy of a tile."""
    racks = [[TILES[t] for t in rack] for rack in g.opening]
    engine = Engine(NAMES)
    out: list[Turn] = []
    for i, (p, action, items, drawn) in enumerate(g.turns):
        if engine.ended is not None:
            raise ValueError(f"turn {i + 1}: after the end")
        rack, draw = racks[p], [TILES[t] for t in drawn]
        held = tuple(rack)
        if action == "place":
            placed = tuple(Placement(TILES[t], x, y) for t, x, y in items)
            turn = Turn(p, "place", tiles=placed, rack=held, draw=tuple(draw))
            for pl in placed:
                rack.remove(pl.tile)
        elif action == "exchange":
            exchanged = tuple(TILES[t] for t in items)
            turn = Turn(p, "exchange", exchanged=exchanged, rack=held, draw=tuple(draw))
            for tile in exchanged:
                rack.remove(tile)
        else:
            turn = Turn(p, "pass", rack=held)
        rack.extend(draw)
        out.append(turn._replace(score=engine.play(turn).points))
    record = Record(
        players=tuple(Player(n) for n in NAMES), turns=tuple(out),
        result=Result(tuple(engine.totals), "out" if engine.ended == "out" else "unfinished"),
        meta={
            "event": "Club night, final table",
            "site": "Lyon",
            "date": "2026-11-29",
            "comment": ("A constructed game (legal, every rack and draw recorded) with the finish of the seed "
                        "write-ups' photo: Ben, the right-hand player, trails all game, takes the lead on the "
                        f"last turn and wins 296 to 295. Made by tools/search_296_295.py (search seed {seed})."),
        },
    )
    return record.to_data()


def make() -> dict[str, Any]:
    """The record of the stored game (``sample_games/296-295.qgn``)."""
    return read_record(STORED).to_data()


def write(data: dict[str, Any]) -> None:
    """Store a game found: the notation (the one copy) and the record made from it."""
    _, findings = check_data(data)
    if findings:
        raise SystemExit("the game does not validate:\n" + "\n".join(str(f) for f in findings))
    STORED.write_text(format_qgn(from_data(data)), encoding="utf-8")
    OUT.write_text(json.dumps(make(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


# --------------------------------------------------------------------------------------------
# the search (``--search``)

Action = tuple[str, Any]  # ("place", Move), ("exchange", [tiles]) or ("pass", None)


class Game:
    """A game in progress: the engine's game (board, totals), the racks and the bag (sorted) the
    search deals from, the Qwirkles and the turns so far."""

    def __init__(self, engine: Engine, racks: list[list[int]], bag: list[int], qw: list[int],
                 opening: tuple[tuple[int, ...], ...] = (),
                 turns: list[tuple[int, str, tuple[Any, ...], tuple[int, ...]]] | None = None) -> None:
        self.engine = engine
        self.racks = racks
        self.bag = bag
        self.qw = qw
        self.opening = opening
        self.turns = turns if turns is not None else []

    @property
    def cells(self) -> dict[int, int]:
        return self.engine.cells

    @property
    def scores(self) -> list[int]:
        return self.engine.totals

    def copy(self) -> Game:
        return Game(self.engine.copy(), [list(r) for r in self.racks], list(self.bag), list(self.qw), self.opening,
                    list(self.turns))


def points(move: Move) -> int:
    """A generated move's score (the generator always gives one)."""
    assert move.score is not None
    return move.score


def legal(cells: dict[int, int], rack: list[int]) -> list[Move]:
    return generate(cells, rack, largest_first=not cells)


def value(m: Move) -> float:
    return points(m) - C_TILE * len(m.tiles)


def opens_five(cells: dict[int, int], move: Move) -> bool:
    """Whether the move leaves a line of five whose sixth tile is not yet all on the board (a Qwirkle
    offered to the opponent; the seeds' tip: avoid making lines of 5)."""
    after = dict(cells)
    after.update((pl.key, int(pl.tile)) for pl in move.tiles)
    return bool(open_fives(after, [pl.key for pl in move.tiles]))


def most_valuable(cells: dict[int, int], moves: list[Move]) -> Move:
    """The move of highest value, a move that opens a line of five counting ``GIFT`` points less."""
    best: tuple[float, Move] | None = None
    for m in sorted(moves, key=value, reverse=True):
        if best is not None and value(m) <= best[0]:
            break
        v = value(m) - (GIFT if opens_five(cells, m) else 0)
        if best is None or v > best[0]:
            best = (v, m)
    assert best is not None
    return best[1]


def allowed(moves: list[Move], p: int, scores: list[int], ana_cap: int | None, n: int) -> list[Move]:
    """Moves the main-phase policy may play: Ben staying behind (by ``margin(n)``), Ana below her cap."""
    out = []
    for m in moves:
        if p == BEN and scores[BEN] + points(m) > scores[ANA] - margin(n):
            continue
        if ana_cap is not None and scores[ANA] + points(m) > ana_cap:
            continue
        out.append(m)
    return out


def decide(cells: dict[int, int], rack: list[int], p: int, scores: list[int], qw: list[int], bag_len: int,
           moves: list[Move] | None = None) -> Action:
    """The main-phase policy: the most efficient allowed move (a Qwirkle if there is one), else an exchange."""
    if moves is None:
        moves = legal(cells, rack)
    if not moves:
        return ("exchange", exchange_tiles(rack, bag_len)) if bag_len else ("pass", None)
    ana_cap = scores[BEN] + ANA_LEAD if p == ANA else None
    ok = allowed(moves, p, scores, ana_cap, len(cells))
    if not ok and p == ANA:  # every move runs away: the smallest one
        ok = allowed(moves, p, scores, None, len(cells))
        if ok:
            return "place", min(ok, key=lambda m: (m.score, len(m.tiles)))
    if not ok:
        return ("exchange", exchange_tiles(rack, bag_len)) if bag_len else ("place", moves[-1])
    best = most_valuable(cells, [m for m in ok if m.qwirkles] or ok)
    if points(best) <= 3 and bag_len >= 12 and len(cells) >= 8:
        return "exchange", exchange_tiles(rack, bag_len)
    return "place", best


def exchange_tiles(rack: list[int], bag_len: int) -> list[int]:
    """Keep the largest group (one colour or one shape, no duplicates), give back the rest."""
    keep: list[int] = []
    for v in range(6):
        for group in ({t for t in rack if t // 6 == v}, {t for t in rack if t % 6 == v}):
            if len(group) > len(keep):
                keep = sorted(group)
    if len(keep) < 2:
        keep = []
    out = sorted(rack)
    for t in keep:
        out.remove(t)
    return out[:bag_len]


def target(p: int, n: int) -> float:
    """Where ``p``'s total should be with ``n`` tiles on the board."""
    return PACE * n - (BEN_BEHIND if p == BEN else 0)


def margin(n: int) -> int:
    """How far behind Ana a move of Ben's must leave him, with ``n`` tiles on the board: 1 point in the
    opening, then 1 to 9 points, changing as the game goes."""
    return 1 if n < 12 else 5 + round(4 * math.sin(n / 4))


def candidates(bag: list[int], k: int, rng: random.Random, limit: int,
               weights: dict[int, float] | None = None) -> list[tuple[int, ...]]:
    """Up to ``limit`` distinct draws of ``k`` tiles from the bag: half of them uniformly random, half
    favouring the tiles of high ``weights``."""
    seen: set[tuple[int, ...]] = set()
    out = []
    for i in range(limit * 2):
        if weights and i % 2:
            left = list(bag)
            c_list = []
            for _ in range(k):
                t = rng.choices(left, [weights[t] for t in left])[0]
                left.remove(t)
                c_list.append(t)
            c = tuple(sorted(c_list))
        else:
            c = tuple(sorted(rng.sample(bag, k)))
        if c not in seen:
            seen.add(c)
            out.append(c)
            if len(out) == limit:
                break
    return out


def hotness(cells: dict[int, int], kept: list[int], bag: list[int]) -> dict[int, float]:
    """A weight per tile of the bag: how much it adds to the best move of the tiles kept."""
    base = max((points(m) for m in legal(cells, kept)), default=0) if kept else 0
    out = {}
    for t in set(bag):
        best = max((points(m) for m in legal(cells, kept + [t])), default=0)
        out[t] = 2.0 ** (max(0, best - base) / HOT)
    return out


def _after(g: Game, p: int, act: Action) -> tuple[dict[int, int], list[int], list[int]]:
    """Board, totals and Qwirkles once ``p`` has played ``act`` (no draw)."""
    return _after_on(g.cells, g.scores, g.qw, p, act)


def _after_on(board: dict[int, int], totals: list[int], qwirkles: list[int], p: int,
              act: Action) -> tuple[dict[int, int], list[int], list[int]]:
    """Board, totals and Qwirkles once ``p`` has played ``act`` on them (no draw; the bag is not empty,
    so there is no end bonus to count)."""
    if act[0] != "place":
        return board, totals, qwirkles
    cells = dict(board)
    for pl in act[1].tiles:
        cells[pl.key] = int(pl.tile)
    scores, qw = list(totals), list(qwirkles)
    scores[p] += act[1].score
    qw[p] += act[1].qwirkles
    return cells, scores, qw


def pick(g: Game, p: int, kept: list[int], k: int, cells: dict[int, int], scores: list[int], qw: list[int],
         bag_len: int, rng: random.Random) -> tuple[int, ...]:
    """The draw of ``k`` tiles that brings p's next move closest to p's pace on that board; now and
    then (``BAD_LUCK``) the draw that leaves p the poorest best move."""
    unlucky = rng.random() < BAD_LUCK
    best: tuple[float, tuple[int, ...]] | None = None
    for c in candidates(g.bag, k, rng, N_CAND, hotness(cells, kept, g.bag) if HOT else None):
        rack = kept + list(c)
        moves = legal(cells, rack)
        act = decide(cells, rack, p, scores, qw, bag_len, moves)
        err = abs(scores[p] - target(p, len(cells))) + EXCHANGE_COST if act[0] == "exchange" else 1000.0
        if unlucky:
            err = points(moves[0]) if moves else 0
        elif act[0] == "place":
            m = act[1]
            err = abs(scores[p] + m.score - target(p, len(cells) + len(m.tiles)))
            err += LOST_WEIGHT * (moves[0].score - m.score)  # a rack whose best move the policy plays
        if any(m.qwirkles for m in moves):
            if act[0] != "place" or not act[1].qwirkles:
                err += 100.0  # a Qwirkle the player would have to refuse (to stay behind)
            elif qw[p] >= QCAP:
                err += 100.0  # enough Qwirkles for this player
        if best is None or err < best[0]:
            best = (err, c)
    assert best is not None
    return best[1]


def apply(g: Game, p: int, act: Action, draw: tuple[int, ...]) -> None:
    """Play ``act`` for ``p`` through the engine and draw ``draw`` (before an exchange's tiles go back)."""
    rack = g.racks[p]
    kind, what = act
    drawn = tuple(TILES[t] for t in draw)
    held = tuple(TILES[t] for t in rack)
    for t in draw:
        g.bag.remove(t)
    if kind == "place":
        result = g.engine.play(Turn(p, "place", tiles=what.tiles, rack=held, draw=drawn))
        for pl in what.tiles:
            rack.remove(int(pl.tile))
        rack.extend(draw)
        g.qw[p] += result.qwirkles or 0
        g.turns.append((p, kind, tuple((int(pl.tile), pl.x, pl.y) for pl in what.tiles), draw))
    elif kind == "exchange":
        g.engine.play(Turn(p, "exchange", exchanged=tuple(TILES[t] for t in what), rack=held, draw=drawn))
        for t in what:
            rack.remove(t)
        rack.extend(draw)
        g.bag.extend(what)
        g.bag.sort()
        g.turns.append((p, kind, tuple(what), draw))
    else:
        g.engine.play(Turn(p, "pass", rack=held))
        g.turns.append((p, kind, (), ()))


def draw_size(act: Action, bag_len: int) -> int:
    if act[0] == "place":
        return min(len(act[1].tiles), bag_len)
    return len(act[1]) if act[0] == "exchange" else 0


def main_phase(seed: int) -> tuple[Game, int] | None:
    """Play until the bag is nearly empty, steering the draws; the game and the seat to move."""
    rng = random.Random(seed)
    bag = sorted(t for t in range(len(TILES)) for _ in range(COPIES))
    while True:  # Ana opens with a group of 4
        ana = sorted(rng.sample(bag, RACK_SIZE))
        if largest_group(ana) == 4:
            break
    for t in ana:
        bag.remove(t)
    g = Game(Engine(NAMES), [ana, []], bag, [0, 0])
    first = decide(g.cells, ana, ANA, g.scores, g.qw, len(bag))
    cells, scores, qw = _after(g, ANA, first)
    # Ben's opening rack (drawn before Ana's first move): a smaller largest group, a fair reply
    best: tuple[float, list[int]] | None = None
    for _ in range(N_CAND):
        ben = sorted(rng.sample(bag, RACK_SIZE))
        if largest_group(ben) > 3:
            continue
        act = decide(cells, ben, BEN, scores, qw, len(bag) - 12)
        err = abs(scores[BEN] + act[1].score - scores[ANA] + 2) if act[0] == "place" else 1000.0
        if best is None or err < best[0]:
            best = (err, ben)
    if best is None:
        return None
    g.racks[BEN] = best[1]
    for t in best[1]:
        g.bag.remove(t)
    g.opening = (tuple(ana), tuple(best[1]))
    plan: dict[int, Action] = {ANA: first}
    p = ANA
    while len(g.bag) > ENDGAME_BAG:
        if len(g.turns) > MAX_TURNS:
            return None
        act = plan.pop(p) if p in plan else decide(g.cells, g.racks[p], p, g.scores, g.qw, len(g.bag))
        k = draw_size(act, len(g.bag))
        bag_after = len(g.bag) - (k if act[0] == "place" else 0)
        cells, scores, qw = _after(g, p, act)
        # the opponent's coming move does not depend on this draw: plan it, then draw for after it
        opp = 1 - p
        plan[opp] = decide(cells, g.racks[opp], opp, scores, qw, bag_after)
        cells2, scores2, qw2 = _after_on(cells, scores, qw, opp, plan[opp])
        kept = list(g.racks[p])
        for t in (pl.tile for pl in act[1].tiles) if act[0] == "place" else act[1] if act[0] == "exchange" else ():
            kept.remove(int(t))
        draw = pick(g, p, kept, k, cells2, scores2, qw2, bag_after, rng) if k else ()
        apply(g, p, act, draw)
        p = opp
    return g, p


class _Budget(Exception):
    pass


def options(g: Game, p: int, lead: bool) -> list[tuple[Action, bool]]:
    """The endgame moves of ``p`` that keep a 295-296 finish possible, each with whether Ben leads after it.

    Ben stays behind until his last move: either he goes out with exactly 296
    while Ana has 295, or his last move takes him to exactly 296 and Ana then
    goes out with exactly 295. A player plays a Qwirkle whenever one fits these
    conditions (none at all if that would be one too many: see ``MAX_QWIRKLES``),
    and never a move worth less than ``MIN_SHARE`` of the best one that does.
    """
    a_end, b_end = FINAL
    rack = g.racks[p]
    moves = legal(g.cells, rack)
    if not moves:
        if g.bag:
            return [(("exchange", sorted(rack)[:len(g.bag)]), lead)]
        if not legal(g.cells, g.racks[1 - p]):
            return []  # blocked
        return [(("pass", None), lead)]
    a = g.scores[ANA]
    acts: list[tuple[Action, bool]] = []
    for m in moves:
        out = len(m.tiles) == len(rack) and not g.bag
        new = g.scores[p] + points(m) + DEFAULT_RULES.end_points(len(rack) - len(m.tiles), len(g.bag))
        if p == ANA:
            if (out and not (lead and new == a_end)) or (not out and (lead or new > a_end)):
                continue
            after = lead
        else:
            if new > b_end or new == a or (lead and not out):
                continue
            if out and not (new == b_end and a == a_end):
                continue
            if not out and new > a and not (new == b_end and a < a_end):
                continue
            after = new > a
        acts.append((("place", m), after))
    if any(act[1].qwirkles for act, _ in acts):
        acts = [(act, after) for act, after in acts if act[1].qwirkles and g.qw[p] + act[1].qwirkles <= MAX_QWIRKLES]
    if acts:
        top = max(act[1].score for act, _ in acts)
        acts = [(act, after) for act, after in acts if act[1].score >= top * MIN_SHARE]
    if ENDGAME_NO_FIVES:  # leave no line of five open, when possible
        acts = [(act, after) for act, after in acts if not opens_five(g.cells, act[1])] or acts
    return acts


def finish(g: Game, p: int, lead: bool, budget: int) -> Game | None:
    """Every way to play on once the bag is empty (depth first, at most ``budget`` positions)."""
    nodes = 0

    def rec(g: Game, p: int, lead: bool) -> Game | None:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            raise _Budget
        for act, after in options(g, p, lead):
            h = g.copy()
            apply(h, p, act, ())
            if act[0] == "place" and not h.racks[p]:
                return h
            found = rec(h, 1 - p, after)
            if found is not None:
                return found
        return None

    try:
        return rec(g, p, lead)
    except _Budget:
        return None


def endgame(start: Game, p0: int, rng: random.Random, playouts: int, budget: int) -> Iterator[Game]:
    """Finishes 295-296: random playouts until the bag is empty (moves from :func:`options`, random
    draws), then an exhaustive search of the rest; each playout gives at most one finish."""
    for _ in range(playouts):
        g = start.copy()
        p, lead = p0, False
        while g.bag:
            acts = options(g, p, lead)
            if not acts:
                break
            act, lead = acts[rng.randrange(len(acts))]
            k = draw_size(act, len(g.bag))
            draw: tuple[int, ...] = ()
            if k:
                cells, _, _ = _after(g, p, act)
                kept = list(g.racks[p])
                for t in (pl.tile for pl in act[1].tiles) if act[0] == "place" else act[1]:
                    kept.remove(int(t))
                draw = max(candidates(g.bag, k, rng, ENDGAME_DRAWS),
                           key=lambda c: max((points(m) for m in legal(cells, kept + list(c))), default=0))
            apply(g, p, act, draw)
            if act[0] == "place" and not g.racks[p] and not g.bag:
                yield g
                break
            p = 1 - p
        else:
            done = finish(g, p, lead, budget)
            if done is not None:
                yield done


def running(data: dict[str, Any]) -> list[tuple[int, int]]:
    """Ana's and Ben's totals after each turn of a record."""
    return [(r.totals[ANA], r.totals[BEN]) for r in replay(from_data(data), positions=False)]


def quality(data: dict[str, Any]) -> str | None:
    """Why the game does not have the finish or does not look like a real game, or None."""
    turns = data["turns"]
    if not 45 <= len(turns) <= MAX_GAME_TURNS:
        return f"{len(turns)} turns"
    totals = running(data)
    if any(b >= a for a, b in totals[:-2]) or totals[-1] != FINAL:
        return "Ben is not behind until the last turns"
    exchanges = sum(1 for turn in turns if turn["action"] == "exchange")
    if exchanges < MIN_EXCHANGES:
        return f"{exchanges} exchanges"
    players = analyse(from_data(data)).players
    made = [s.qwirkles_made or 0 for s in players]  # (a self-played game records every tile: never unknown)
    missed = [s.qwirkles_missed or 0 for s in players]
    if not all(4 <= q <= MAX_QWIRKLES for q in made):
        return f"Qwirkles made {made}"
    if max(missed) > MAX_MISSED:
        return f"Qwirkles missed {missed}"
    return None


def search(first_seed: int = 0, seeds: int = 200, verbose: bool = True) -> tuple[int, dict[str, Any]]:
    """Try seeds in order; the first seed whose game passes every check, and the game's record."""
    for seed in range(first_seed, first_seed + seeds):
        t0 = time.perf_counter()
        made = main_phase(seed)
        if made is None:
            continue
        g, p = made
        (a_lo, a_hi), (b_lo, b_hi), (d_lo, d_hi) = WINDOW
        a, b = g.scores
        note = f"seed {seed}: {a}-{b} with {len(g.bag)} in the bag after {len(g.turns)} turns"
        if not (a_lo <= a <= a_hi and b_lo <= b <= b_hi and d_lo <= a - b <= d_hi):
            if verbose:
                print(note + ", outside the window", file=sys.stderr)
            continue
        found = 0
        for done in endgame(g, p, random.Random(seed), PLAYOUTS, FINISH_NODES):
            found += 1
            if max(done.qw) > MAX_QWIRKLES or len(done.turns) > MAX_GAME_TURNS:
                continue
            data = build(done, seed)
            why = quality(data)
            if verbose:
                print(note + f", finish {found}: {why or 'accepted'} ({time.perf_counter() - t0:.1f} s)", file=sys.stderr)
            if why is None:
                return seed, data
        if verbose:
            print(note + f", {found} finishes, none accepted ({time.perf_counter() - t0:.1f} s)", file=sys.stderr)
    raise SystemExit("no game found")


SEED = 64
"""The seed the stored game was found from."""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--first-seed", type=int, default=SEED,
                        help="the first seed tried (default: the stored game's; 0 repeats the whole search)")
    parser.add_argument("--seeds", type=int, default=200, help="how many seeds to try at most")
    parser.add_argument("--write", action="store_true", help="store the game found (296-295.qgn, and the .json from it)")
    args = parser.parse_args(argv)
    seed, data = search(args.first_seed, args.seeds)
    same = data["turns"] == make()["turns"]
    print(f"seed {seed}: " + ("the stored game" if same else "a game other than the stored one"), file=sys.stderr)
    if args.write:
        write(data)
        print(f"wrote {STORED} and {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
