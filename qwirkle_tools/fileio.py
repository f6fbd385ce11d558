"""Writing output files safely: atomically, and never over what must be kept."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path


class OutputError(Exception):
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


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename.

    Either the whole new content is there afterwards or the old file is
    untouched; a failure leaves no half-written file behind. A symbolic link
    is written through (the file it names is replaced) and an existing
    file's permissions are kept; a hard link to the old file keeps the old
    content, as with any atomic replace.
    """
    target = Path(path).resolve()
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        mode = target.stat().st_mode & 0o7777  # keep an existing file's permissions
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(raw)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
