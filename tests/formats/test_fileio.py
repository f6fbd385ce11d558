"""Safe output: atomic writes, refusals, no leftovers."""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

import pytest

from qwirkle_tools.formats.fileio import (
    AtomicFile,
    LineFile,
    OutputError,
    check_output,
    discard_pending,
    scratch_folder,
    write_atomic,
)


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


# -- the resolved path, exclusive creation, read-only files (hardening, second round) --------

def test_a_path_through_a_missing_folder_is_refused_not_collapsed(tmp_path: Path) -> None:
    src = tmp_path / "in.json"
    src.write_text("keep")
    with pytest.raises(OutputError, match="does not exist"):
        check_output(tmp_path / "missing" / ".." / "in.json", [src], force=True)
    with pytest.raises(OutputError, match="does not exist"):
        write_atomic(tmp_path / "missing" / ".." / "in.json", "lost")
    assert src.read_text() == "keep"


def test_the_checked_path_is_the_written_path(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "sub")
    assert check_output(link / ".." / "x.json") == tmp_path / "x.json"  # the link's folder, as the system sees it


def test_without_force_the_name_is_created_exclusively(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    out = AtomicFile(target, replace=False)
    out.temp.write_text("mine")
    target.write_text("someone else's")  # appeared while this ran
    with pytest.raises(OutputError, match="appeared while this ran"):
        out.commit()
    assert target.read_text() == "someone else's" and [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_read_only_files_are_kept_unless_forced(tmp_path: Path) -> None:
    src = tmp_path / "in.json"
    src.write_text("{}")
    os.chmod(src, 0o444)
    with pytest.raises(OutputError, match="read-only"):
        check_output(src, [src], in_place=True)
    assert check_output(src, [src], in_place=True, force=True) == src


@pytest.mark.parametrize("interrupt", [KeyboardInterrupt, OSError, SystemExit])
def test_an_interrupted_commit_leaves_no_temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   interrupt: type[BaseException]) -> None:
    target = tmp_path / "out.json"
    target.write_text("old")

    def broken(*_: object) -> None:
        raise interrupt()

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OutputError if interrupt is OSError else interrupt):  # (the system's refusal, named)
        write_atomic(target, "new")
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_a_folder_that_cannot_hold_a_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="cannot write a file in"):
        write_atomic("/proc/self/status", "x")


# -- a folder of files, put in place as a whole ---------------------------------------------------

FILES = {"a.txt": b"1", "b.txt": b"2"}


def test_write_folder_new_and_replaced(tmp_path: Path) -> None:
    from qwirkle_tools.formats.fileio import write_folder

    out = tmp_path / "report"
    write_folder(out, FILES)
    assert sorted(p.name for p in out.iterdir()) == ["a.txt", "b.txt"]
    with pytest.raises(OutputError, match="already holds"):
        write_folder(out, {"a.txt": b"x", "b.txt": b"y"})
    write_folder(out, {"a.txt": b"x"}, force=True, names=["a.txt", "b.txt"])
    assert sorted(p.name for p in out.iterdir()) == ["a.txt"] and (out / "a.txt").read_bytes() == b"x"
    assert [p.name for p in tmp_path.iterdir()] == ["report"]  # no temporary or old folder left


def test_write_folder_never_replaces_other_files(tmp_path: Path) -> None:
    from qwirkle_tools.formats.fileio import write_folder

    out = tmp_path / "mine"
    out.mkdir()
    (out / "thesis.tex").write_text("years of work")
    with pytest.raises(OutputError, match="other files"):
        write_folder(out, FILES, force=True)
    assert (out / "thesis.tex").read_text() == "years of work"


@pytest.mark.parametrize("after", [0, 1])
def test_an_interrupted_folder_leaves_the_old_one_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        after: int) -> None:
    from qwirkle_tools.formats.fileio import write_folder

    out = tmp_path / "report"
    write_folder(out, FILES)
    calls = []
    real = os.fsync

    def failing(fd: int) -> None:
        calls.append(fd)
        if len(calls) > after:
            raise KeyboardInterrupt
        real(fd)

    monkeypatch.setattr(os, "fsync", failing)
    with pytest.raises(KeyboardInterrupt):
        write_folder(out, {"a.txt": b"new", "b.txt": b"new"}, force=True)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == FILES
    assert [p.name for p in tmp_path.iterdir()] == ["report"]


def test_interrupted_between_the_renames_puts_the_old_folder_back(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from qwirkle_tools.formats.fileio import write_folder

    out = tmp_path / "report"
    write_folder(out, FILES)
    real = os.rename

    def failing(a: object, b: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "rename", failing)
    with pytest.raises(KeyboardInterrupt):
        write_folder(out, {"a.txt": b"new"}, force=True, names=list(FILES))
    monkeypatch.setattr(os, "rename", real)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == FILES
    assert [p.name for p in tmp_path.iterdir()] == ["report"]


def test_a_folder_that_appears_meanwhile_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from qwirkle_tools.formats import fileio

    out = tmp_path / "report"
    real = fileio.check_folder
    made = []

    def racing(path: object, names: object, force: bool = False) -> Path:
        found = real(path, names, force)  # type: ignore[arg-type]
        if not made:  # another run puts its report there just after the check
            made.append(1)
            out.mkdir()
            (out / "a.txt").write_bytes(b"theirs")
        return found

    monkeypatch.setattr(fileio, "check_folder", racing)
    with pytest.raises(OutputError, match="appeared|already holds"):
        fileio.write_folder(out, FILES)
    assert (out / "a.txt").read_bytes() == b"theirs" and [p.name for p in tmp_path.iterdir()] == ["report"]


# -- what the system refuses is an OutputError naming the output (hardening, third round: item 19) --

REFUSALS = [(errno.ENOSPC, "No space left on device"), (errno.EROFS, "Read-only file system"),
            (errno.EACCES, "Permission denied"), (errno.EINVAL, "Invalid argument"), (errno.EIO, "Input/output error")]


def refuse(monkeypatch: pytest.MonkeyPatch, where: str, number: int) -> None:
    """Make one step of writing fail as the system would: ``write`` (the data), ``fsync``
    (the flush to disk), ``rename`` (putting it in place) or ``create`` (a temporary name)."""
    import tempfile

    def fail(*_: object, **__: object) -> None:
        raise OSError(number, os.strerror(number))

    if where == "write":  # every writer here writes its data through Path.open
        real_open = Path.open

        def opened(self: Path, mode: str = "r", *args: object, **kwargs: object) -> object:
            handle = real_open(self, mode, *args, **kwargs)  # type: ignore[call-overload]
            return _Refusing(handle, number) if "w" in mode or "a" in mode else handle

        monkeypatch.setattr(Path, "open", opened)
        try:  # and .parquet tables through pyarrow's own files
            import pyarrow.parquet as pq

            monkeypatch.setattr(pq.ParquetWriter, "write_table", fail)
        except ImportError:
            pass
    elif where == "fsync":
        monkeypatch.setattr(os, "fsync", fail)
    elif where == "rename":
        for name in ("replace", "link", "rename"):
            monkeypatch.setattr(os, name, fail)
    else:
        monkeypatch.setattr(tempfile, "mkstemp", fail)
        monkeypatch.setattr(tempfile, "mkdtemp", fail)


class _Refusing:
    """A file whose writes fail with ``number`` (a full disk, say); closing it works."""

    def __init__(self, handle: object, number: int) -> None:
        self.handle, self.number = handle, number

    def write(self, _: object) -> int:
        raise OSError(self.number, os.strerror(self.number))

    def __getattr__(self, name: str) -> object:
        return getattr(self.handle, name)

    def __enter__(self) -> _Refusing:
        return self

    def __exit__(self, *_: object) -> None:
        self.handle.close()  # type: ignore[attr-defined]


@pytest.mark.parametrize(("number", "reason"), REFUSALS)
@pytest.mark.parametrize("where", ["write", "fsync", "rename", "create"])
def test_what_the_system_refuses_is_an_output_error_naming_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str, number: int, reason: str) -> None:
    from qwirkle_tools.formats.fileio import write_folder

    (tmp_path / "old.json").write_text("kept")
    refuse(monkeypatch, where, number)
    with pytest.raises(OutputError) as caught:
        write_atomic(tmp_path / "out.json", "new", replace=where != "rename")
    assert "out.json" in str(caught.value) and reason in str(caught.value)
    with pytest.raises(OutputError) as caught:
        write_atomic(tmp_path / "old.json", "new")
    assert "old.json" in str(caught.value) and reason in str(caught.value)
    with pytest.raises(OutputError) as caught:
        write_folder(tmp_path / "report", FILES)
    assert "report" in str(caught.value) and reason in str(caught.value)
    monkeypatch.undo()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.json"] and (tmp_path / "old.json").read_text() == "kept"


def test_a_report_into_proc_is_an_output_error() -> None:
    from qwirkle_tools.formats.fileio import write_folder

    with pytest.raises(OutputError, match="^/proc/qwirkle-report: cannot write: "):
        write_folder("/proc/qwirkle-report", FILES)


def test_a_line_file_keeps_each_line_as_it_is_written(tmp_path: Path) -> None:
    target = tmp_path / "games.jsonl"
    with LineFile(target) as out:
        out.write(b"one\n")
        assert target.read_bytes() == b"one\n"  # on disk at once: a run killed now keeps it
        out.write(b"two\n")
    assert target.read_bytes() == b"one\ntwo\n" and [p.name for p in tmp_path.iterdir()] == ["games.jsonl"]
    with pytest.raises(OutputError, match="already exists .*--resume"):
        LineFile(target)
    with LineFile(target, resume=True) as out:
        assert list(out.lines()) == [b"one\n", b"two\n"]
        out.write(b"three\n")
    assert target.read_bytes() == b"one\ntwo\nthree\n"
    with LineFile(target, force=True) as out:
        assert list(out.lines()) == []
    assert target.read_bytes() == b""


def test_resuming_cuts_a_torn_last_line(tmp_path: Path) -> None:
    target = tmp_path / "games.jsonl"
    target.write_bytes(b"one\ntwo\nthr")  # a run killed as it wrote its third line
    with LineFile(target, resume=True) as out:
        assert list(out.lines()) == [b"one\n", b"two\n"]
        out.write(b"three\n")
    assert target.read_bytes() == b"one\ntwo\nthree\n"
    target.write_bytes(b"x" * 200_000)  # no whole line at all
    with LineFile(target, resume=True) as out:
        assert list(out.lines()) == []
    assert target.read_bytes() == b""


def test_a_fresh_line_file_that_got_no_line_is_removed(tmp_path: Path) -> None:
    target = tmp_path / "games.jsonl"
    with pytest.raises(KeyboardInterrupt), LineFile(target):
        raise KeyboardInterrupt
    assert not target.exists()
    with LineFile(target, resume=True):  # nothing to resume: a fresh run
        pass
    assert not target.exists()


def test_a_line_file_another_run_holds_is_refused(tmp_path: Path) -> None:
    import subprocess
    import sys

    target = tmp_path / "games.jsonl"
    with LineFile(target) as out:
        out.write(b"one\n")
        code = (f"from qwirkle_tools.formats.fileio import LineFile\n"
                f"LineFile({str(target)!r}, resume=True)")
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
        assert "another run is writing it now" in proc.stderr
    with LineFile(target, resume=True):  # the lock went with the first
        pass


def test_a_scratch_folder_is_gone_however_its_block_ends(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with scratch_folder("qwirkle-test-") as folder:
        (folder / "sub").mkdir()
        (folder / "sub" / "f").write_text("x")
        assert folder.parent == tmp_path and folder.name.startswith("qwirkle-test-")
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(KeyboardInterrupt), scratch_folder("qwirkle-test-") as folder:
        (folder / "f").write_text("x")
        raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []
    # an interrupt between its making and its removal: the command's last act removes it
    block = scratch_folder("qwirkle-test-")
    folder = block.__enter__()
    (folder / "f").write_text("x")
    discard_pending()
    assert list(tmp_path.iterdir()) == []

