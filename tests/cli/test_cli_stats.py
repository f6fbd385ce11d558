"""``qwirkle stats`` and ``qwirkle simulate --jobs``: summaries, broken corpora, equal output for any --jobs."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli as run
from test_corpus import corpus

ROOT = Path(__file__).parents[2]
SAMPLES = ROOT / "sample_games"


def test_stats_of_a_clean_corpus_exits_0() -> None:
    code, out, err = run("stats", str(SAMPLES / "corpus-10.jsonl"))
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "10 records: 10 games read (10 valid, 0 with errors), 0 unreadable"
    assert any(line.startswith("  2 players, 10 games: ") for line in lines)
    assert any(line.startswith("  Final score                   20") for line in lines)
    assert "No findings." in out


def test_stats_lists_broken_records_and_goes_on(tmp_path: Path) -> None:
    path = corpus(tmp_path)
    code, out, _ = run("stats", str(path))
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith(f"{path}:2: json: line 1, column 1: ")
    assert lines[1].startswith(f"{path}:5: json: ")
    assert lines[2].startswith(f"{path}:6:turn 1: score-mismatch: ")  # as qwirkle validate writes it
    assert "12 records: 10 games read (9 valid, 1 with errors), 2 unreadable" in lines
    assert any(line.split()[:2] == ["json", "2"] for line in lines)


def test_stats_output_is_the_same_for_any_jobs(tmp_path: Path) -> None:
    path = corpus(tmp_path)
    outputs = []
    for jobs in ("1", "2"):
        folder = tmp_path / f"tables-{jobs}"
        text = run("stats", str(path), str(SAMPLES), "--analyse", "--jobs", jobs, "--csv", str(folder))
        data = run("stats", str(path), "--analyse", "--jobs", jobs, "--format", "json")
        files = {p.name: p.read_bytes() for p in folder.iterdir()}
        outputs.append((text[:2], data[:2], files))
    assert outputs[0] == outputs[1]
    assert set(outputs[0][2]) == {"games.csv", "turns.csv", "findings.csv"}
    summary = json.loads(outputs[0][1][1])
    assert summary["unreadable"] == 2 and summary["games"] == 10
    assert len(summary["players"]) == 4  # Bot 1, Bot 2, and Ana and Ben of the invalid game


def test_stats_tables_refuse_to_overwrite(tmp_path: Path) -> None:
    (tmp_path / "turns.csv").write_text("mine")
    code, _, err = run("stats", str(SAMPLES / "complete-2p.json"), "--csv", str(tmp_path))
    assert code == 2 and "already exists (use --force" in err
    assert (tmp_path / "turns.csv").read_text() == "mine" and len(list(tmp_path.iterdir())) == 1
    code, _, err = run("stats", str(SAMPLES / "complete-2p.json"), "--csv", str(tmp_path), "--force")
    assert code == 0 and (tmp_path / "turns.csv").read_text().startswith("game,turn,seat,")


def test_stats_parquet(tmp_path: Path) -> None:
    import pandas as pd

    code, _, err = run("stats", str(SAMPLES / "corpus-10.jsonl"), "--parquet", str(tmp_path / "pq"))
    assert code == 0 and "wrote" in err
    assert len(pd.read_parquet(tmp_path / "pq" / "games.parquet")) == 10


def test_stats_usage_errors(tmp_path: Path) -> None:
    code, _, err = run("stats", str(tmp_path / "missing.jsonl"))
    assert code == 2 and "no such file or folder" in err
    code, _, err = run("stats", str(SAMPLES / "complete-2p.json"), "--csv", str(tmp_path), "--parquet", str(tmp_path))
    assert code == 2 and "not both" in err
    (tmp_path / "file").write_text("x")
    code, _, err = run("stats", str(SAMPLES / "complete-2p.json"), "--csv", str(tmp_path / "file"))
    assert code == 2 and "not a folder" in err
    code, _, _ = run("stats", str(SAMPLES / "complete-2p.json"), "--jobs", "0")
    assert code == 2


def test_progress_bar_only_when_asked() -> None:
    code, _, err = run("stats", str(SAMPLES / "corpus-10.jsonl"), "--progress")
    assert code == 0  # the bar draws at most ten times a second and clears its line at the end
    assert err == "" or err.startswith("\r[")
    code, _, err = run("stats", str(SAMPLES / "corpus-10.jsonl"))
    assert err == ""  # not a terminal: quiet


def test_simulate_jobs_gives_the_same_corpus(tmp_path: Path) -> None:
    for jobs in ("1", "2"):
        code, _, _ = run("simulate", "--games", "6", "--seed", "9", "--jobs", jobs, "-o", str(tmp_path / f"{jobs}.jsonl"))
        assert code == 0
    one, two = (tmp_path / "1.jsonl").read_bytes(), (tmp_path / "2.jsonl").read_bytes()
    assert one == two and one.count(b"\n") == 6
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_an_empty_corpus_in_a_club_folder_is_one_finding_and_the_rest_is_read(tmp_path: Path) -> None:
    for sample in ("complete-2p.json", "296-295.json"):
        (tmp_path / sample).write_bytes((SAMPLES / sample).read_bytes())
    (tmp_path / "empty.jsonl").write_bytes(b"")
    finding = f"{tmp_path / 'empty.jsonl'}: empty-file: holds no record (every line is blank)"
    code, out, err = run("validate", str(tmp_path))
    assert (code, err) == (1, "") and out.splitlines() == [finding, "3 records: 2 valid, 1 invalid (1 error, 0 warnings)"]
    code, out, err = run("validate", "--format", "json", str(tmp_path))
    assert code == 1 and json.loads(out)["records"][2]["findings"][0]["code"] == "empty-file"
    code, out, err = run("stats", str(tmp_path))
    assert (code, err) == (1, "") and out.splitlines()[:3] == [
        finding, "", "3 records: 2 games read (2 valid, 0 with errors), 1 unreadable"]
    code, out, err = run("standings", str(tmp_path))
    assert (code, err) == (1, "") and out.startswith("Standings: 2 games,") and f"left out (invalid): {finding}" in out
    # the whole input, it is nothing to read: exit 2 as before
    code, out, err = run("validate", str(tmp_path / "empty.jsonl"))
    assert (code, out) == (2, "") and "no records in this corpus" in err
