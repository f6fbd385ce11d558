"""The analysis as the viewer page carries it (:mod:`qwirkle_tools.outputs.viewer`).

Per turn: the move played, the best move (the engine's when one judged the
turn, else the best score), the top candidates with their score, value and
what each loses, the engine's verdict, and, when the analysis gives one, the
endgame's exact loss; for the game: the loss per turn for the small graph
(value lost with an engine, else points lost) with its axis, and the legend
of colours and shapes with the letters the notation spells them with. All
worked out here: the page's script draws it as given.
"""

from __future__ import annotations

from typing import Any

from ..analysis.analyse import Analysis, TurnAnalysis
from ..analysis.verdicts import Candidate
from ..core.board import Placement, format_move
from ..core.tiles import COLOUR_CODES, COLOURS, SHAPE_CODES, SHAPES
from .charts import ticks


def _tiles(tiles: tuple[Placement, ...]) -> list[list[int]]:
    return [[int(p.tile), p.x, p.y] for p in tiles]


def _value(v: float | None) -> float | None:
    return None if v is None else round(v, 2)


def _candidate(c: Candidate) -> dict[str, Any]:
    """A candidate for the page; what it lacks (no value, no Qwirkle, not played) left out: a page holds hundreds."""
    out: dict[str, Any] = {"m": _tiles(c.move.tiles), "text": format_move(c.move.tiles), "s": c.score, "lost": c.lost}
    if c.move.qwirkles:
        out["q"] = c.move.qwirkles
    if c.value is not None:
        out["v"], out["vl"] = _value(c.value), _value(c.value_lost)
    if c.played:
        out["pl"] = True
    return out


def turn_analysis(ta: TurnAnalysis, placed: tuple[Placement, ...] | None) -> dict[str, Any]:
    """What the page shows of a turn's analysis beyond its flags (see :func:`~qwirkle_tools.outputs.viewer.page_data`):

    ``cands``: the candidates (``m`` tiles as ``[tile, x, y]``, ``text``, ``s``
    score, ``lost`` points lost; only when there is one: ``q`` its Qwirkles, ``v``
    its value and ``vl`` value lost, ``pl``: it is the move played); ``best``: the
    move to draw as the best (``m``, ``text``, ``s``, ``v``, ``by``: the engine,
    ``"greedy"``, or ``"same-tiles"`` where the rack is not recorded (the best of the
    tiles played, with ``gain``), or ``"inferred"`` where no tile was placed either (the move most
    often best over the racks drawn), ``pl``: it is the move played, or as good); ``verdict``: the engine's
    (``engine``, ``best_value``, ``played_value``, ``value_lost``, ``better``:
    flagged ``better-move``); ``exact``: the endgame's exact loss, only when
    the analysis gives one; ``inferred``: where the rack is not recorded, the racks drawn's
    figures (``loss`` expected, ``better`` the chance of a better move, ``n`` racks, and the
    move most often best: ``m``, ``text``, ``s``, ``share``). ``placed``: the tiles the turn placed, if any.
    """
    out: dict[str, Any] = {}
    found = ta.candidates
    if found:
        out["cands"] = [_candidate(c) for c in found]
    v = ta.verdict
    if v is not None:
        out["verdict"] = {"engine": v.engine, "best_value": _value(v.best_value), "played_value": _value(v.played_value),
                          "value_lost": _value(v.value_lost), "better": "better-move" in ta.flags}
    best = v.best if v is not None else ta.best
    if best is not None:
        played = placed is not None and frozenset(placed) == frozenset(best.tiles)
        out["best"] = {"m": _tiles(best.tiles), "text": format_move(best.tiles),
                       "s": v.best_score if v is not None else ta.best_score, "v": None if v is None else _value(v.best_value),
                       "by": "greedy" if v is None else v.engine, "pl": played}
    same = ta.same_tiles
    if best is None and same is not None:  # the rack not recorded: the best of the very tiles played, a fact
        played = placed is not None and frozenset(placed) == frozenset(same.best.tiles)
        out["best"] = {"m": _tiles(same.best.tiles), "text": format_move(same.best.tiles), "s": same.best.score,
                       "v": None, "by": "same-tiles", "pl": played or not same.gain, "gain": same.gain}
    inferred = ta.inferred
    if "best" not in out and inferred is not None and inferred.likely is not None:  # (an exchange, its rack not recorded)
        out["best"] = {"m": _tiles(inferred.likely.tiles), "text": format_move(inferred.likely.tiles),
                       "s": inferred.likely.score, "v": None, "by": "inferred", "pl": False}
    if inferred is not None:
        out["inferred"] = {"loss": round(inferred.expected_loss, 2), "better": round(inferred.better, 3),
                           "n": inferred.samples, "share": round(inferred.share, 3),
                           **({} if inferred.likely is None else {"m": _tiles(inferred.likely.tiles),
                                                                  "text": format_move(inferred.likely.tiles),
                                                                  "s": inferred.likely.score})}
    exact = getattr(ta, "exact_loss", None)  # the endgame solver's, when the analysis carries it
    if exact is not None:
        out["exact"] = exact
    return out


def losses(analysis: Analysis) -> dict[str, Any]:
    """The loss per turn for the page's small graph: ``kind`` (``"value"`` with
    an engine; else ``"points"``, ``"inferred"`` where every figure is inferred, the racks not
    recorded, or ``"mixed"``), ``values`` (turn ``n`` at ``n - 1``; ``None`` where the turn
    was not judged; an inferred turn's expected loss), and ``ticks`` for its axis."""
    engine = any(t.verdict is not None for t in analysis.turns)
    values: list[float | None] = []
    known = guessed = 0
    for t in analysis.turns:
        if engine:
            values.append(None if t.verdict is None else _value(t.verdict.value_lost))
        elif t.best_score is not None:
            values.append(t.points_lost)
            known += 1
        elif t.inferred is not None:
            values.append(round(t.inferred.expected_loss, 2))
            guessed += 1
        else:
            values.append(None)
    top = max((v for v in values if v is not None), default=0.0)
    kind = "value" if engine else "mixed" if known and guessed else "inferred" if guessed else "points"
    return {"kind": kind, "values": values, "ticks": ticks(int(-(-top // 1)), 4)}


def legend() -> dict[str, Any]:
    """The legend of colours and shapes: their names and letters (a tile's short
    form is its colour's letter then its shape's, ``rc``), in the order of the
    page's ``colours`` and ``shapes``, so the legend draws with the page's own fills."""
    return {"colours": [[code, name] for code, name in zip(COLOUR_CODES, COLOURS)],
            "shapes": [[code, name] for code, name in zip(SHAPE_CODES, SHAPES)]}


def extra_cells(analysis: Analysis) -> set[tuple[int, int]]:
    """The cells the page may draw a move on that no tile of the game takes:
    every candidate's and every engine's best move."""
    cells: set[tuple[int, int]] = set()
    for t in analysis.turns:
        moves = [c.move for c in t.candidates] + ([t.verdict.best] if t.verdict is not None and t.verdict.best else [])
        for m in moves:
            cells.update((p.x, p.y) for p in m.tiles)
    return cells


__all__ = ["extra_cells", "legend", "losses", "turn_analysis"]
