"""``match --dask``: the deals played on a Dask cluster give the same games and summary as one process."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from qwirkle_tools.bots.match import Match, Sprt, run, run_games

distributed = pytest.importorskip("distributed")

PY = sys.executable
FUNCBOT = f"{Path(__file__).parents[1] / 'programs' / 'funcbot.py'}:weakest"


@pytest.fixture(scope="module")
def address(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A LocalCluster of two worker processes, its scratch space in the test run's temporary folder."""
    import dask

    scratch = str(tmp_path_factory.mktemp("dask"))
    with dask.config.set({"temporary-directory": scratch}), distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None,
            silence_logs=50, local_directory=scratch) as local:
        yield local.scheduler_address


def test_a_match_on_the_cluster_gives_the_same_games(address: str) -> None:
    here = list(run(Match("greedy", FUNCBOT, 5, seed=8)))
    there = list(run(Match("greedy", FUNCBOT, 5, seed=8), dask=address))
    assert here == there and len(here) == 5
    three = Match("greedy", "random", 4, seed=2, others=("random",))
    assert list(run(three)) == list(run(three, dask=address))


def test_the_sequential_test_stops_a_match_on_the_cluster(address: str) -> None:
    here = list(run_games(Match("greedy", "random", 200, seed=1), sprt=Sprt(0, 200)))
    there = list(run_games(Match("greedy", "random", 200, seed=1), sprt=Sprt(0, 200), dask=address))
    assert here == there and len(here) < 200


def test_the_match_command_on_the_cluster(address: str, tmp_path: Path) -> None:
    outputs = []
    for extra in ([], ["--dask", address]):
        out = tmp_path / f"m{len(outputs)}.jsonl"
        proc = subprocess.run([PY, "-m", "qwirkle_tools", "match", "greedy", "random", "--games", "4", "--seed", "5",
                               "-o", str(out), *extra], capture_output=True, text=True, timeout=600, check=False)
        assert proc.returncode == 0, proc.stderr
        outputs.append((out.read_bytes(), proc.stdout))
    assert outputs[0] == outputs[1]
    proc = subprocess.run([PY, "-m", "qwirkle_tools", "match", "greedy", "random", "--games", "2", "--dask",
                           "tcp://127.0.0.1:1", "-o", str(tmp_path / "x.jsonl")], capture_output=True, text=True,
                          timeout=600, check=False)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert not (tmp_path / "x.jsonl").exists()
