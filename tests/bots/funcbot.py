"""A Python-function player for the referee's tests: the lowest-scoring legal placement."""

from qwirkle_tools.play.game import Move, SeatView


def weakest(view: SeatView) -> Move:
    moves = view.legal_moves()
    placements = [m for m in moves if m.action == "place"]
    return placements[-1] if placements else moves[0]


def as_text(view: SeatView) -> str:
    return str(view.legal_moves()[0])


def broken(view: SeatView) -> Move:
    raise RuntimeError("this bot has a bug")
