"""Writing output files safely: atomically, and never over what must be kept."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO

from .errors import QwirkleError


class OutputError(QwirkleError):
    """An output that must not be written (it exists, or it is the input)."""


def check_output(out: str | os.PathLike[str], inputs: Sequence[str | os.PathLike[str]] = (),
                 force: bool = False, in_place: bool = False) -> Path:
    """The output path, once it is safe to write.

    Raises:
        OutputError: ``out`` is one of ``inputs`` (without ``in_place``), or
            already exists (without ``force``).
    """
    path = Path(out)
    same = any(path.exists() and Path(i).exists() and path.samefile(i) for i in inputs)
    if same and not in_place:
        raise OutputError(f"{path}: refusing to overwrite the input file (use --in-place)")
    if path.exists() and path.is_dir():
        raise OutputError(f"{path}: is a folder")
    if path.exists() and not path.is_file():
        raise OutputError(f"{path}: not a regular file; refusing to replace it")
    if path.exists() and not same and not force:
        raise OutputError(f"{path}: already exists (use --force to overwrite)")
    return path.resolve() if path.is_symlink() else path  # write through a link, not over it


class AtomicFile:
    """A file written under a temporary name beside ``path`` and renamed over
    it by :meth:`commit`, so ``path`` never holds half a file.

    Write to :attr:`temp` (by name, or through :meth:`open`); :meth:`discard`
    (or leaving a ``with`` block by an exception) removes it. A symbolic link
    is written through (the file it names is replaced) and an existing
    file's permissions are kept; a hard link to the old file keeps the old
    content, as with any atomic replace.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.target = Path(path).resolve()
        try:
            self.mode = self.target.stat().st_mode & 0o7777  # keep an existing file's permissions
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            self.mode = 0o666 & ~umask
        fd, name = tempfile.mkstemp(dir=self.target.parent, prefix=f".{self.target.name}.", suffix=".tmp")
        os.close(fd)
        self.temp = Path(name)

    def open(self) -> BinaryIO:
        return self.temp.open("wb")

    def commit(self) -> None:
        """Flush the temporary file to disk and rename it over the target."""
        with self.temp.open("rb+") as handle:
            os.fsync(handle.fileno())
        os.chmod(self.temp, self.mode)
        os.replace(self.temp, self.target)

    def discard(self) -> None:
        try:
            os.unlink(self.temp)
        except FileNotFoundError:
            pass

    def __enter__(self) -> AtomicFile:
        return self

    def __exit__(self, kind: object, *_: object) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename (see
    :class:`AtomicFile`): either the whole new content is there afterwards or
    the old file is untouched."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    with AtomicFile(path) as out, out.open() as handle:
        handle.write(raw)
