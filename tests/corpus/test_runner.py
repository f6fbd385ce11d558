"""The one runner for corpora: the paths walked once, each report built once,
the same parts and summary over any number of processes, a run that stops
when it is closed; and the commands that are one call of it."""

from __future__ import annotations

import ast
import json
import multiprocessing
import shutil
import time
from pathlib import Path

import pytest
from test_cli import run as cli

import qwirkle_tools.corpus.rows as rows
import qwirkle_tools.corpus.runner as runner
from qwirkle_tools.analysis.validate import Report
from qwirkle_tools.engines.selfplay import simulate_line
from qwirkle_tools.formats import sources
from qwirkle_tools.formats.sources import InputError

ROOT = Path(__file__).parents[2]
SAMPLES = ROOT / "sample_games"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A folder of records: clean and broken ones, and a corpus of ten."""
    for name in ("complete-2p.json", "wrong-scores.json", "illegal-moves.json", "corpus-10.jsonl"):
        shutil.copy(SAMPLES / name, tmp_path / name)
    return tmp_path


def test_one_validate_walks_the_paths_once_and_builds_each_report_once(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    walked: list[Path] = []
    walk = sources.record_files

    def counted_walk(path: Path) -> list[Path]:
        if path.is_dir():
            walked.append(path)
        return walk(path)

    built: list[Report] = []
    check = rows.check_source

    def counted_check(*args: object, **kwargs: object) -> Report:
        built.append(check(*args, **kwargs))  # type: ignore[arg-type]
        return built[-1]

    monkeypatch.setattr(sources, "record_files", counted_walk)
    monkeypatch.setattr(rows, "check_source", counted_check)
    code, out, _ = cli("validate", str(folder), "--format", "json")
    records = json.loads(out)["summary"]["records"]
    assert (code, records) == (1, 13)
    assert walked == [folder]  # not once for the progress bar and again for the run
    assert len(built) == records  # each record checked once

    built.clear()
    shown = [r for part in runner.check([folder], every=True) for r in part.reports]
    assert len(shown) == len(built) == records
    clean = [b for b in built if not b.findings]
    assert clean and all(s is b for s, b in zip(shown, built) if not b.findings)  # handed on as built, not built again
    assert all(s.record is None and s.history is None for s in shown)  # what crosses processes holds no record


def test_a_run_gives_the_same_parts_and_summary_over_processes(folder: Path) -> None:
    def checked(jobs: int) -> tuple[list[dict[str, object]], dict[str, int]]:
        done = runner.check([folder], every=True, jobs=jobs)
        reports = [r.to_data() for part in done for r in part.reports]
        return reports, done.summary.to_data()

    one, two = checked(1), checked(2)
    assert one == two and one[1]["records"] == len(one[0]) == 13

    def summarised(jobs: int) -> tuple[list[str], dict[str, object], int]:
        done = runner.summarise([folder], rows=True, jobs=jobs)
        broken = [line for part in done for line in part.broken]
        return broken, done.summary.to_data(), done.summary.records

    assert summarised(1) == summarised(2)
    broken, data, records = summarised(1)
    assert records == 13 and len(broken) == data["invalid"] + data["unreadable"] > 0


def test_a_run_knows_its_size_and_files_before_any_work(folder: Path) -> None:
    done = runner.summarise([folder])
    files = sorted(folder.iterdir())
    assert done.files == tuple(files)
    assert done.size == sum(f.stat().st_size for f in files)
    assert done.summary.records == 0  # nothing read yet
    assert sum(part.size for part in done) == done.size and done.summary.records == 13


def test_a_missing_path_fails_at_the_call(tmp_path: Path) -> None:
    for call in (runner.check, runner.summarise):
        with pytest.raises(InputError, match="no such file or folder"):
            call([tmp_path / "missing.json"])


def test_self_play_gives_the_games_in_order_and_counts_them() -> None:
    done = runner.play(5, players=3, seed=7, policy="random", jobs=2)
    assert done.size == 5
    lines = b"".join(part.lines for part in done)
    assert lines == b"".join(simulate_line(i, 3, 7, "random") for i in range(5))
    assert done.summary == 5


@pytest.mark.serial
def test_closing_a_run_stops_its_processes() -> None:
    done = runner.play(400, seed=1, jobs=2)
    first = next(iter(done))
    assert first.games == 1 and multiprocessing.active_children()
    done.close()
    deadline = time.monotonic() + 10
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert multiprocessing.active_children() == []


def test_the_local_files_of_a_cluster_run_are_its_local_inputs(folder: Path) -> None:
    from qwirkle_tools.corpus.cluster import Input

    found = [Input(str(folder / "a.json"), str(folder / "a.json"), 1), Input("s3://b/c.json", "s3://b/c.json", 2),
             Input("zip://x.json::s3://b/y.zip", "zip://x.json::s3://b/y.zip", 3)]
    assert runner._local(found) == (folder / "a.json",)


@pytest.mark.parametrize("name", ["validate", "stats", "simulate"])
def test_the_corpus_commands_are_parse_one_call_render(name: str) -> None:
    path = ROOT / "qwirkle_tools" / "cli" / ("records.py" if name == "validate" else "corpora.py")
    (fn,) = [n for n in ast.parse(path.read_text(encoding="utf-8")).body if isinstance(n, ast.FunctionDef) and n.name == name]
    body = fn.body[1:]  # after the docstring
    assert body[-1].end_lineno is not None and body[-1].end_lineno - body[0].lineno + 1 < 25
    text = ast.unparse(fn)
    assert "dask is not None" not in text and "cluster" not in text  # where it runs is the runner's choice
    assert f"corpus.runner import {dict(validate='check', stats='summarise', simulate='play')[name]}" in text
