"""The notebooks run top to bottom, and are committed without outputs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import matplotlib
import pytest

ROOT = Path(__file__).parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def code_cells(path: Path) -> list[dict[str, Any]]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    assert nb["nbformat"] == 4
    return [c for c in nb["cells"] if c["cell_type"] == "code"]


def test_there_is_a_notebook() -> None:
    assert [p.name for p in NOTEBOOKS] == ["corpus-walkthrough.ipynb"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_committed_without_outputs(path: Path) -> None:
    for cell in code_cells(path):
        assert cell["outputs"] == [] and cell["execution_count"] is None


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs_top_to_bottom(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import matplotlib.pyplot as plt

    matplotlib.use("Agg")
    monkeypatch.chdir(path.parent)  # as Jupyter would start it
    namespace: dict[str, Any] = {"__name__": "__main__"}
    for i, cell in enumerate(code_cells(path)):
        source = "".join(cell["source"])
        try:
            exec(compile(source, f"{path.name}[cell {i}]", "exec"), namespace)
        except Exception as exc:  # pragma: no cover - the message names the cell
            pytest.fail(f"{path.name}: code cell {i} failed: {type(exc).__name__}: {exc}\n{source}")
    plt.close("all")
    # the questions were answered from the data the notebook built
    games, turns = namespace["games"], namespace["turns"]
    assert len(games[games["policy"] == "greedy"]) == namespace["GAMES"]
    assert set(namespace["first_wins"].index) == {"greedy", "random"}
    assert namespace["cost"].loc["random", "count"] > 0
    assert (turns.groupby("game")["score"].sum() > 0).all()
