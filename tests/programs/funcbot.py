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


def malformed(view: SeatView) -> Move:
    """A Move built by hand of things that are no tiles."""
    return Move("place", (("red-circle", 0, 0),))  # type: ignore[arg-type]


def wrong_action(view: SeatView) -> Move:
    return Move("castle")  # type: ignore[arg-type]


def exits(view: SeatView) -> Move:
    import sys

    sys.exit(0)
