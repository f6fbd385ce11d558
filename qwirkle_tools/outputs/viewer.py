"""``qwirkle view``: one game as one self-contained HTML page, stepped turn by turn.

:func:`page` turns a replay (:class:`~qwirkle_tools.play.engine.History`) and its
:class:`~qwirkle_tools.analysis.analyse.Analysis` into the text of one HTML file:
the page's script and style (``qwirkle_tools/web/``, package data) inline,
and the game embedded once as JSON. Everything the page shows that needs the
rules is worked out here, by the engine, and embedded: the board changes of
each turn, the scores, each turn's findings and analysis, the tiles the
player to move has not seen (:meth:`~qwirkle_tools.play.engine.GameState.unseen`),
the sole leader after each turn and whether each claimed score differs from
the computed one. The script only draws and steps; it knows no rule, and no
tile encoding either: each tile comes with its colour and shape index.

The page fetches nothing: no network, no font, no file. Its
Content-Security-Policy (``default-src 'none'``, the one script and the one
style allowed by their hashes) makes the browser refuse anything else.
Record text (names, comments, ``meta``) is embedded as JSON that cannot close
its ``<script>`` element and is put on the page as text, never as markup.

What is not done: the page does not replay or check anything itself, does not
show legal moves beyond the analysis' candidates (the 8 best-scoring), and does
not edit records.

The stable hooks for tests and tools (see ``docs/getting-started.md``): the root element's
``data-turn`` (turns played, 0 = before the first) and ``data-shown`` (the move
drawn as ghosts); each board tile's ``data-tile`` (``colour-shape``), ``data-x``
and ``data-y``, a best-move ghost's ``data-best``; each candidate row's
``data-cand``, ``data-score``, ``data-lost`` (``data-value``, ``data-value-lost``
with an engine); each player's score element's ``data-seat`` and ``data-score``;
each tile tracker cell's ``data-unseen`` (``colour-shape``) with its count as
text; the legend's ``data-colour`` and ``data-shape``.
"""

from __future__ import annotations

import base64
import hashlib
import html
import re
from dataclasses import replace
from functools import cache
from importlib import resources
from typing import Any

from ..analysis.analyse import Analysis, TurnAnalysis, analyse
from ..analysis.annotation import flag_details
from ..analysis.inference import SAMPLES
from ..analysis.rescore import Rescoring, rescore
from ..core.board import key_cell
from ..core.findings import Finding
from ..core.safetext import json_text, one_line
from ..core.tiles import COLOURS, SHAPES, TILES, tile
from ..draw.extent import axis, cut_note, not_shown
from ..draw.palette import COLOUR_HEX, TILE_FACE
from ..draw.svg import shape_svg
from ..formats.jsontext import JSON
from ..formats.sources import Loaded
from ..play.engine import GameState, History, sole_leader
from .charts import PALETTE, ticks
from .pageanalysis import extra_cells, legend, losses, turn_analysis
from .winchart import basis, marks, series

FORMAT = 1
"""The version of the embedded data's layout (``"v"`` in it)."""

_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")


def script_json(data: Any) -> str:
    """``data`` as JSON text that is safe inside an HTML ``<script>`` element.

    Every ``<``, ``>`` and ``&`` is written as a ``\\u`` escape (so ``</script>``
    and ``<!--`` cannot occur), and so is every character that is not
    printable (U+2028 and U+2029 included); ``JSON.parse`` gives the same data.

    >>> script_json({"name": "</script><!--"})
    '{"name":"\\\\u003c/script\\\\u003e\\\\u003c!--"}'
    """
    text = json_text(data, separators=(",", ":"))
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def _cells(state: GameState) -> dict[int, int]:
    return dict(state.board.cells)


def _placed(cells: dict[int, int], keys: list[int]) -> list[list[int]]:
    out = []
    for k in keys:
        x, y = key_cell(k)
        out.append([cells[k], x, y])
    return out


def _as_the_mover_knows(history: History, n: int, state: GameState) -> GameState:
    """``state`` (before turn ``n + 1``) with the mover's rack as the record
    gives or implies it for that turn (:meth:`~qwirkle_tools.play.engine.History.known_rack`).

    A rack recorded on a turn is in the mover's hand before the turn is
    played, but the replay learns it only when it plays that turn: so the
    start position (which knows only the setup), and any position whose
    rack the earlier turns do not tell, would count the mover's own tiles as
    unseen. Nothing else changes.
    """
    turn = history.turns[n] if n < len(history.turns) else None
    if turn is None or not 0 <= turn.player < len(state.known):
        return state
    rack, _ = history.known_rack(n)
    if rack is None:
        return state
    p = turn.player
    return replace(state, known=tuple(tuple(TILES[t] for t in rack) if q == p else k for q, k in enumerate(state.known)),
                   rack_sizes=tuple(len(rack) if q == p else size for q, size in enumerate(state.rack_sizes)))


def _meta(value: JSON) -> str:
    return value if isinstance(value, str) else json_text(value)


def page_data(history: History, analysis: Analysis, title: str = "", rescoring: Rescoring | None = None,
              reading: Loaded | None = None) -> dict[str, Any]:
    """The data the page embeds (plain JSON types; see ``web/viewer.js`` for its use).

    ``states[n]`` is the game after ``n`` turns: the board changes from the
    state before (``add``: ``[tile, x, y]``, ``del``: ``[x, y]``), whether the
    board is known, the bag, each seat's known rack and size, the sole leader
    (:func:`~qwirkle_tools.play.engine.sole_leader`; ``None`` on a tie for the top), and the unseen
    count of each of the 36 tiles from the point of view of the player of turn
    ``n + 1`` (not on the board, not in the rack that turn records or the
    replay implies; after the last turn: of nobody, the tiles not on the board),
    and, when the board is too wide to draw whole, ``cut``: a note saying how
    many of its tiles the page does not draw (:func:`~qwirkle_tools.draw.extent.cut_note`);
    ``turns[n - 1]`` is turn ``n``: its player, move, claimed and computed
    score and whether they differ, totals, findings, analysis, ghost tiles and gift line, and the
    analysis as :func:`~qwirkle_tools.outputs.pageanalysis.turn_analysis` gives it (the best move,
    the candidates, the engine's verdict); ``lost`` is the loss per turn for the small graph,
    ``legend`` the colours' and shapes' names and letters (:mod:`~qwirkle_tools.outputs.pageanalysis`);
    ``findings`` the game's own (no turn's), with ``reading`` (the file the record was read from) first the
    warnings of reading it, and each told where the hand-written text has it (a sheet's total: its row and column).
    A tile is its number: ``colour_of`` and ``shape_of`` give the index of its
    colour (in ``colours``, the hex fills) and its shape (in ``shapes``, the
    names of the page's symbols), and ``grid`` is the tile tracker, a row per colour.
    """
    record = history.record
    n_players = len(record.players)
    if history.results and history.results[-1].state is None:
        raise ValueError("the page needs a history with a state after every turn (replay with positions=True)")
    if len(history.results) != len(history.turns):
        raise ValueError("the page needs a record whose every turn could be read")
    states: list[GameState] = [history.state(n) for n in range(len(history.turns) + 1)]
    cols, rows, cut = _extent(states, analysis)
    show_board = len(states) == 1 or len(states[0].board) > 0 or any(s.board_known for s in states[1:])
    # the chart's axes: a few round values whatever the range (a sheet's totals may reach 10^9)
    top = max([10, *history.initial.scores[:n_players], *(v for r in history.results for v in r.totals[:n_players])])
    last = len(history.turns)
    return {
        "v": FORMAT,
        "title": title,
        "players": list(record.names),
        "meta": [[str(k), _meta(v)] for k, v in record.meta.items()],
        "tiles": [str(t) for t in TILES],
        "short": [t.short for t in TILES],
        "colour_of": [COLOURS.index(t.colour) for t in TILES],
        "shape_of": [SHAPES.index(t.shape) for t in TILES],
        "colours": list(COLOUR_HEX),
        "shapes": list(SHAPES),
        "legend": legend(),
        "grid": [[int(tile(c, s)) for s in SHAPES] for c in COLOURS],
        "palette": list(PALETTE),
        "cols": cols,
        "rows": rows,
        "board": show_board,
        "scores0": list(history.initial.scores[:n_players]),
        "yticks": ticks(top, 6),
        "xticks": [n for n in ticks(last, 12) if n <= last],
        "states": _state_entries(history, states, cols, rows, cut),
        "turns": _turn_entries(history, analysis, rescore(history) if rescoring is None else rescoring),
        "lead": [[c.turn, c.leader] for c in history.lead_changes()],
        "summary": _summary(analysis),
        "lost": losses(analysis),
        "win": _wins(analysis),
        "notes": list(analysis.notes),
        "findings": [[f.code, f.severity, f.message] for f in _game_findings(history, reading)],
        "end": record.result.end if record.result is not None else None,
    }


def _game_findings(history: History, reading: Loaded | None) -> list[Finding]:
    own = [f for f in history.findings if f.turn is None]
    return own if reading is None else reading.with_warnings(own)


Axis = list[int | None]


def _extent(states: list[GameState], analysis: Analysis) -> tuple[Axis, Axis, bool]:
    """The columns and rows the page draws (:func:`~qwirkle_tools.draw.extent.axis`: long
    empty runs closed up), for every tile of the game, every missed Qwirkle's ghost and every
    move the analysis may draw (:func:`~qwirkle_tools.outputs.pageanalysis.extra_cells`); and
    whether either had to be cut."""
    everything: set[int] = set()
    for s in states:
        everything.update(s.board.cells)
    for judged in analysis.turns:
        if judged.missed_qwirkle is not None:
            everything.update(p.key for p in judged.missed_qwirkle.tiles)
    cells = {key_cell(k) for k in everything} | extra_cells(analysis)
    cols, cut_x = axis(x for x, _ in cells) if cells else ([], False)
    rows, cut_y = axis(y for _, y in cells) if cells else ([], False)
    return cols, rows, cut_x or cut_y


def _state_entries(history: History, states: list[GameState], cols: Axis, rows: Axis, cut: bool) -> list[dict[str, Any]]:
    """``states[n]`` of :func:`page_data`, for every ``n``."""
    n_players = len(history.record.players)
    totals = [history.initial.scores, *(r.totals for r in history.results)]
    out: list[dict[str, Any]] = []
    before: dict[int, int] = {}
    for n, s in enumerate(states):
        s = _as_the_mover_knows(history, n, s)  # the tracker and the racks as seen by the mover
        cells = _cells(s)
        added = sorted(k for k, t in cells.items() if before.get(k) != t)
        removed = sorted(k for k in before if k not in cells)
        turn = history.turns[n] if n < len(history.turns) else None
        pov = turn.player if turn is not None else -1
        known = s.board_known
        hidden = not_shown(map(key_cell, cells), cols, rows) if cut else 0
        out.append({
            "known": known,
            "add": _placed(cells, added),
            "del": [list(key_cell(k)) for k in removed],
            "bag": s.bag,
            "ended": s.ended,
            "pov": pov if 0 <= pov < n_players else -1,
            "leader": sole_leader(totals[n][:n_players]),
            "unseen": list(s.unseen(pov)) if known else None,
            "racks": [[list(s.known[p]) if p < len(s.known) else [],
                       s.rack_sizes[p] if p < len(s.rack_sizes) else None] for p in range(n_players)],
            **({"cut": cut_note(hidden)} if hidden else {}),  # what the page cannot draw, said on it
        })
        before = cells
    return out


def _turn_entries(history: History, analysis: Analysis, rescoring: Rescoring) -> list[dict[str, Any]]:
    """``turns`` of :func:`page_data`: turn ``n`` at ``n - 1``."""
    n_players = len(history.record.players)
    by_turn = {t.turn: t for t in analysis.turns}
    out: list[dict[str, Any]] = []
    for result, row in zip(history.results, rescoring.rows):
        turn = result.turn
        assert turn is not None
        entry: dict[str, Any] = {
            "p": turn.player,
            "a": turn.action,
            "text": row.tiles,
            "claim": row.claimed,
            "calc": row.computed,
            "differs": row.differs,
            "tot": list(result.totals[:n_players]),
            "q": result.qwirkles,
            "f": [[f.code, f.severity, f.message] for f in result.findings],
            "comment": turn.comment,
        }
        if row.breakdown:
            entry["score"] = row.breakdown
        judged = by_turn.get(result.index + 1)
        if judged is not None:
            entry.update(_judged(judged))
            entry.update(turn_analysis(judged, turn.tiles))
        out.append(entry)
    return out


def _judged(ta: TurnAnalysis) -> dict[str, Any]:
    """What the analysis says of a turn, for its entry in ``turns``."""
    entry: dict[str, Any] = {
        "fl": [list(fd) for fd in flag_details(ta)],
        "an": {"rack": ta.rack, "lost": ta.points_lost, "best": ta.best_score, "rank": ta.rank, "moves": ta.moves,
               "note": ta.note},
    }
    if ta.missed_qwirkle is not None:
        entry["ghost"] = [[int(p.tile), p.x, p.y] for p in ta.missed_qwirkle.tiles]
    if ta.gift is not None:
        entry["gift"] = {"line": [list(c) for c in ta.gift.line], "missing": str(ta.gift.missing), "by": ta.gift.completed_at}
    return entry


def _wins(analysis: Analysis) -> dict[str, Any] | None:
    """The first player's win chance after each turn for the page's chart (``values``: turn ``n`` at
    ``n - 1``, ``None`` where there is none), the blunders, mistakes and decisive moments (``marks``:
    ``[turn, class, decisive]``), whether any best move was inferred or any chance simulated, and what
    they come from (``basis``); ``None`` without a chance (more players, an unknown board)."""
    after = dict(series(analysis))
    if not after:
        return None
    values = [None if t.turn not in after else round(after[t.turn], 4) for t in analysis.turns]
    return {"values": values, "marks": [[turn, kind, decisive] for turn, kind, _, _, decisive in marks(analysis)],
            "inferred": any(t.win is not None and t.win.inferred for t in analysis.turns),
            "simulated": any(t.win is not None and t.win.source != "model" for t in analysis.turns), "basis": basis(analysis)}


def _summary(analysis: Analysis) -> list[dict[str, Any]]:
    """Each player's whole-game figures from the analysis."""
    out = []
    for player in analysis.players:
        acc = player.accuracy
        out.append({"accuracy": None if acc is None else round(acc, 4), "analysed": player.analysed_turns,
                    "lost": player.points_lost, "made": player.qwirkles_made, "missed": player.qwirkles_missed,
                    "gifts": player.gifts_given, "same": None if player.same_tiles is None else list(player.same_tiles),
                    "inf": None if player.inferred is None else [round(player.inferred[0], 1), player.inferred[1], SAMPLES]})
    return out


def _shape_defs() -> str:
    """The six shapes as SVG symbols (``#shape-circle``...), drawn by the same
    geometry as the PNG pictures (:func:`~qwirkle_tools.draw.svg.shape_svg`), in a unit cell."""
    parts = [f'<symbol id="shape-{name}" viewBox="-0.5 -0.5 1 1" overflow="visible">{shape_svg(kind, 0.0, 0.0, 0.5)}</symbol>'
             for kind, name in enumerate(SHAPES)]
    return "".join(parts)


@cache
def _asset(name: str) -> str:
    return (resources.files("qwirkle_tools") / "web" / name).read_text(encoding="utf-8")


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def page(history: History, analysis: Analysis | None = None, title: str = "", rescoring: Rescoring | None = None,
         reading: Loaded | None = None) -> str:
    """The viewer page of a replayed game, as HTML text (one self-contained file).

    ``analysis`` defaults to :func:`~qwirkle_tools.analysis.analyse.analyse` of the
    history, ``rescoring`` to :func:`~qwirkle_tools.analysis.rescore.rescore` of it
    (pass them to share the work); ``title`` (a file name, say) heads the page; ``reading``: see
    :func:`page_data`. The history must
    keep its states (``replay(record)``, not ``positions=False``).
    """
    if analysis is None:
        analysis = analyse(history)
    script = _asset("viewer.js")
    style = _asset("viewer.css").replace("{{tile_face}}", TILE_FACE)
    if "</" in script or "</" in style:
        raise AssertionError("the viewer's script and style must not hold '</'")
    values = {
        "csp": (f"default-src 'none'; script-src {_hash(script)}; style-src {_hash(style)}; "
                "base-uri 'none'; form-action 'none'"),
        "title": html.escape(one_line(title or "Qwirkle game"), quote=True),
        "style": style,
        "shapes": _shape_defs(),
        "data": script_json(page_data(history, analysis, title, rescoring, reading)),
        "script": script,
    }
    # one pass over the template: inserted text is never scanned for placeholders
    return _PLACEHOLDER.sub(lambda m: values[m[1]], _asset("viewer.html"))


__all__ = ["FORMAT", "page", "page_data", "script_json"]
