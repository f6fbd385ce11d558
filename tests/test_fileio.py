"""Safe output: atomic writes, refusals, no leftovers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from qwirkle_tools.fileio import AtomicFile, OutputError, check_output, write_atomic


def test_write_atomic_replaces_and_keeps_the_mode(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    target.write_text("old")
    os.chmod(target, 0o640)
    write_atomic(target, "new")
    assert target.read_text() == "new" and target.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    target.write_text("old")
    with pytest.raises(RuntimeError), AtomicFile(target) as out:
        with out.open() as handle:
            handle.write(b"half")
        raise RuntimeError("interrupted")
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_atomic_file_is_invisible_until_commit(tmp_path: Path) -> None:
    target = tmp_path / "t.csv"
    out = AtomicFile(target)
    out.temp.write_text("a,b\n")
    assert not target.exists()
    out.commit()
    assert target.read_text() == "a,b\n" and not out.temp.exists()


def test_check_output_refusals(tmp_path: Path) -> None:
    src = tmp_path / "in.json"
    src.write_text("{}")
    with pytest.raises(OutputError, match="input file"):
        check_output(src, [src])
    assert check_output(src, [src], in_place=True) == src
    other = tmp_path / "o.json"
    other.write_text("x")
    with pytest.raises(OutputError, match="already exists"):
        check_output(other, [src])
    assert check_output(other, [src], force=True) == other
    with pytest.raises(OutputError, match="is a folder"):
        check_output(tmp_path)
