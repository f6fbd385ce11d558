"""What the endgame solver (:func:`~qwirkle_tools.engines.endgame.solve`) answers: the value
of the position, the best line, each candidate with what it loses, and that answer as text."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.move import Move
from ..core.pickling import Rebuilt, rebuilt
from ..core.safetext import one_line
from ..core.tiles import format_tiles
from ..formats.jsontext import JSON
from ..play.game import Game


@dataclass(frozen=True, slots=True)
class Candidate:
    """A move at the root, its value (the spread to the end after it, from the
    mover's side), and the points it loses against the best move."""

    move: Move
    value: int
    loss: int

    def __str__(self) -> str:
        return f"{self.move} {self.value:+d}" + (f" (loses {self.loss})" if self.loss else "")

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


@dataclass(frozen=True, slots=True)
class Solution:
    """What :func:`solve` found.

    ``value`` is the spread of the points to come with best play from both
    sides, from the side of the player to move; ``line`` is the principal
    variation (the best move, the best reply, ... to the end, or to where the
    search stopped and the playout took over); ``proven`` says the search
    reached the end of the game on every line it needed (the value is exact),
    else ``depth`` is the last depth it completed within the budget (the
    value is then that depth's, with greedy playouts below it). ``nodes`` counts
    the positions searched, ``seconds`` the time taken. ``cut``: some move
    generation was cut short, by the budget (a crowded board may offer a
    million moves, seconds of work each time) or by the moves the search keeps
    (:data:`~qwirkle_tools.engines.endgame.MOVES_KEPT`): the moves searched there
    were the best found, not all, and nothing is proven.
    """

    value: int
    line: tuple[Move, ...]
    candidates: tuple[Candidate, ...]
    proven: bool
    depth: int
    nodes: int
    seconds: float
    cut: bool = False

    @property
    def best(self) -> Move:
        return self.line[0]

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def loss(self, move: Move) -> int | None:
        """What ``move`` loses against the best, if it was valued."""
        return next((c.loss for c in self.candidates if str(c.move) == str(move)), None)

    def to_json(self) -> dict[str, JSON]:
        return {
            "value": self.value, "proven": self.proven, "depth": self.depth, "nodes": self.nodes,
            "seconds": round(self.seconds, 3), "cut": self.cut, "line": [str(m) for m in self.line],
            "candidates": [{"move": str(c.move), "value": c.value, "loss": c.loss} for c in self.candidates],
        }

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


def outcome(margin: int) -> str:
    """A final margin for the mover as its outcome: ``win``, ``draw`` or ``loss``."""
    return "draw" if margin == 0 else "win" if margin > 0 else "loss"


def result_text(margin: int) -> str:
    """A final margin for the mover as a result: ``win by 1``, ``draw``, ``loss by 2``."""
    return "draw" if margin == 0 else f"win by {margin}" if margin > 0 else f"loss by {-margin}"


def _ends(name: str, margin: int) -> str:
    return "a draw" if margin == 0 else f"{name} wins by {margin}" if margin > 0 else f"{name} loses by {-margin}"


def lead(game: Game) -> int:
    """The mover's points less the best of the others': with a candidate's value, the final margin."""
    scores = game.scores
    return scores[game.to_move] - max(s for p, s in enumerate(scores) if p != game.to_move)


def solution_data(solution: Solution, game: Game) -> dict[str, JSON]:
    """:meth:`Solution.to_json` with the result each candidate leads to with best play, and the
    position's (``"result": {"outcome": "win" | "draw" | "loss", "margin": N}``, for the mover)."""
    ahead = lead(game)

    def result(value: int) -> JSON:
        return {"outcome": outcome(ahead + value), "margin": ahead + value}

    data = solution.to_json()
    data["result"] = result(solution.value)
    data["candidates"] = [{**c, "result": result(c["value"])} for c in data["candidates"]
                          if isinstance(c, dict) and isinstance(c["value"], int)]
    return data


def format_solution(solution: Solution, game: Game, played: Move | None = None, first_turn: int = 1) -> str:
    """The solution as text: the value, the line turn by turn, the candidates
    and what the played move loses."""
    names = [one_line(name, most=24) for name in game.names]  # a record's names are any text: shown safe
    mover = names[game.to_move]
    how = "proven" if solution.proven else \
        f"searched {solution.depth} {'ply' if solution.depth == 1 else 'plies'} deep, greedy play below"
    if solution.cut:
        how += "; not every move was generated within the time or the memory bound: the best found were searched"
    lines = [f"{mover} to move; the bag is empty; " + ", ".join(f"{n} {s}" for n, s in zip(names, game.scores)),
             "racks: " + ", ".join(f"{n} {format_tiles(r)}" for n, r in zip(names, game.racks)),
             f"best play: {solution.value:+d} for {mover} from here ({how}): {_ends(mover, lead(game) + solution.value)}",
             "line:"]
    seat = game.to_move
    for i, move in enumerate(solution.line):
        lines.append(f"  {first_turn + i}. {names[seat]}: {move}")
        seat = (seat + 1) % len(names)
    ahead = lead(game)
    lines.append(f"candidates (value: the points {mover} gains on the other player from here to the end, with best "
                 "play on both sides; what each loses against the best; the result it leads to):")
    for c in solution.candidates:
        lost = "best" if not c.loss else f"-{c.loss}"
        lines.append(f"  {c.value:+4d}  {lost:>5}  {result_text(ahead + c.value):<11}  {c.move}")
    if played is not None:
        loss = solution.loss(played)
        value = next((c.value for c in solution.candidates if c.move == played), None)
        best, then = result_text(ahead + solution.value), None if value is None else result_text(ahead + value)
        lines.append(f"played: {played}: " + ("the best" if loss == 0 else f"loses {loss}" if loss is not None
                                             else "not a legal move here")
                     + ("" if then is None or then == best else f": it turns a {best} into a {then}"))
    lines.append(f"{solution.nodes:,} positions in {solution.seconds:.2f} s")
    return "\n".join(lines)
