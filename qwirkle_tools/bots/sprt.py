"""The sequential probability ratio test of a two-player match (Wald's, on the games' results).

:class:`Sprt` decides between two hypotheses of how many Elo A is stronger
than B; :func:`qwirkle_tools.bots.match.run_games` tests it after each pair
and stops the match once it decides.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Sprt:
    """The sequential probability ratio test of H0: A is ``elo0`` stronger than B,
    against H1: ``elo1`` (logistic Elo), with error rates ``alpha`` and ``beta``.

    Wald's test on each game's result ``r`` (1 a win, 0.5 a draw, 0 a loss):
    the log-likelihood ratio adds ``r log(s1 / s0) + (1 - r) log((1 - s1) / (1 - s0))``
    a game, ``s0`` and ``s1`` being the expected scores of the two hypotheses
    (a draw counts as half a win and half a loss); it decides once it leaves
    ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``. It needs no estimate of
    the results' variance, so a short run of equal results does not decide early.
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"--sprt ELO0,ELO1 needs ELO0 < ELO1, not {self.elo0:g},{self.elo1:g}")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ValueError("alpha and beta must be between 0 and 0.5")

    @classmethod
    def parse(cls, text: str) -> Sprt:
        """Read ``ELO0,ELO1`` (``--sprt 0,10``)."""
        try:
            elo0, elo1 = (float(part) for part in text.split(","))
        except ValueError:
            raise ValueError(f"--sprt takes ELO0,ELO1 (two numbers, e.g. 0,10), not {text!r}") from None
        return cls(elo0, elo1)

    def llr(self, results: Sequence[float]) -> float:
        """The log-likelihood ratio of H1 to H0 over the games' results (1, 0.5, 0)."""
        return self.llr_of(sum(results), len(results))

    def llr_of(self, points: float, games: int) -> float:
        """The log-likelihood ratio of ``games`` results that add up to ``points`` (it needs no more of them)."""
        s0, s1 = _expected(self.elo0), _expected(self.elo1)
        win, loss = math.log(s1 / s0), math.log((1 - s1) / (1 - s0))
        return points * win + (games - points) * loss

    @property
    def bounds(self) -> tuple[float, float]:
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def decide(self, results: Sequence[float]) -> str | None:
        """``"H1"`` (A is at least ``elo1`` stronger), ``"H0"`` (at most ``elo0``) or ``None`` (go on)."""
        return self.decide_of(sum(results), len(results))

    def decide_of(self, points: float, games: int) -> str | None:
        """:meth:`decide` of ``games`` results that add up to ``points``."""
        llr = self.llr_of(points, games)
        low, high = self.bounds
        return "H1" if llr >= high else "H0" if llr <= low else None


def _expected(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


__all__ = ["Sprt"]
