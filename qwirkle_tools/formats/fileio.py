"""Writing output files safely: atomically, and never over what must be kept.

The rules every command follows, here once:

* the output's folder must exist, and the name is checked and written where
  the folder really is (``missing/../NAME`` is refused, not read as ``NAME``);
* an input is never overwritten, even through a link, unless asked
  (``in_place``), and a read-only file not even then unless forced;
* an existing file is replaced only with ``force``; without it the final
  name is created exclusively when the output is committed, so a file that
  appeared there meanwhile is not lost;
* a file is written under a temporary name beside its target and renamed
  into place, a folder of files (a report) built beside its target and
  moved into place as a whole; whatever interrupts the writing (an error,
  Ctrl-C, a full disk) leaves no temporary file or folder behind;
* a file that a long run writes a line at a time (a match's games:
  :class:`LineFile`) keeps every whole line it finished, however the run
  ends, and is resumed by a later run;
* whatever the system refuses while writing (a full disk, a read-only file
  system, no permission, ``/proc``) is an :class:`OutputError` naming the
  output, never a bare :class:`OSError`.
"""

from __future__ import annotations

import errno
import os
import shutil
import signal
import stat
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from ..core.errors import QwirkleError
from ..core.safetext import one_line


class OutputError(QwirkleError):
    """An output that must not be written (it exists, it is an input, its
    folder is missing) or could not be written or put in place."""


def cannot_write(path: str | os.PathLike[str], exc: OSError) -> OutputError:
    """The one-line error for ``exc``, raised while writing ``path``: the
    output's name, and the system's reason (``No space left on device``)."""
    return OutputError(f"{one_line(os.fspath(path))}: cannot write: {one_line(exc.strerror or str(exc))}")


def resolve(out: str | os.PathLike[str]) -> Path:
    """Where ``out`` really is: its folder resolved on the file system (it must
    exist), then its name, so that checking and writing use the same path.
    A symbolic link at the name is followed (the file it names is written).

    Raises:
        OutputError: the folder does not exist, or the name is no file name.
    """
    path = Path(out)
    if path.name in ("", ".", ".."):
        raise OutputError(f"{one_line(str(out))}: not a file name")
    try:
        folder = path.parent.resolve(strict=True)
    except (FileNotFoundError, NotADirectoryError):
        raise OutputError(f"{one_line(str(out))}: the folder {one_line(str(path.parent))} does not exist") from None
    except (OSError, RuntimeError) as exc:  # a loop of links, no permission, ...
        raise OutputError(f"{one_line(str(out))}: cannot use its folder: {getattr(exc, 'strerror', None) or exc}") from None
    if not folder.is_dir():
        raise OutputError(f"{one_line(str(out))}: {one_line(str(path.parent))} is not a folder")
    target = folder / path.name
    return target.resolve() if target.is_symlink() else target


def check_output(out: str | os.PathLike[str], inputs: Sequence[str | os.PathLike[str]] = (),
                 force: bool = False, in_place: bool = False, hint: str = "") -> Path:
    """The resolved output path (see :func:`resolve`), once it is safe to write.

    Raises:
        OutputError: the folder is missing; ``out`` is one of ``inputs``
            (without ``in_place``; ``hint`` is added to the message, e.g.
            ``" (use --in-place)"``), a read-only file (without ``force``), a
            folder or a device, or already exists (without ``force``).
    """
    path = resolve(out)
    shown = one_line(str(out))
    same = path.exists() and any(Path(i).exists() and path.samefile(i) for i in inputs)
    if same and not in_place:
        raise OutputError(f"{shown}: refusing to overwrite the input file{hint}")
    if path.is_dir():
        raise OutputError(f"{shown}: is a folder")
    if path.exists() and not path.is_file():
        raise OutputError(f"{shown}: not a regular file; refusing to replace it")
    if path.exists() and not path.stat().st_mode & stat.S_IWUSR and not force:
        raise OutputError(f"{shown}: the file is read-only (use --force to rewrite it anyway)")
    if path.exists() and not same and not force:
        raise OutputError(f"{shown}: already exists (use --force to overwrite)")
    return path


class AtomicFile:
    """A file written under a temporary name beside ``path`` and put in
    place by :meth:`commit`, so ``path`` never holds half a file.

    With ``replace`` the target is replaced (a rename over it); without, it
    is created exclusively: if a file appeared at the name since the checks,
    the commit fails with :class:`OutputError` and that file is kept. Write
    to :attr:`temp` (by name, or through :meth:`open`); :meth:`discard` (or
    leaving a ``with`` block by any exception, Ctrl-C included) removes it.
    A symbolic link is written through (the file it names is replaced) and
    an existing file's permissions are kept.
    """

    def __init__(self, path: str | os.PathLike[str], replace: bool = True) -> None:
        self.target = resolve(path)
        self.replace = replace
        try:
            self.mode = self.target.stat().st_mode & 0o7777  # keep an existing file's permissions
        except FileNotFoundError:
            self.mode = 0o666 & ~_umask()
        except OSError as exc:
            raise cannot_write(path, exc) from None
        try:
            with _holding():  # (a Ctrl-C now would leave the file unnamed: it is noted before one lands)
                fd, name = tempfile.mkstemp(dir=self.target.parent, prefix=f".{self.target.name}.", suffix=".tmp")
                self.temp = Path(name)
                _PENDING.add(self.temp)  # (an interrupt from here on finds it: discard_pending)
        except OSError as exc:  # /proc, a read-only folder, ...: say where, not just "no such file"
            raise OutputError(f"{one_line(str(path))}: cannot write a file in {one_line(str(self.target.parent))} "
                              f"({exc.strerror or exc})") from None
        os.close(fd)

    def open(self) -> BinaryIO:
        return self.temp.open("wb")

    def commit(self) -> None:
        """Flush the temporary file to disk and put it in place; on any failure
        (or interruption) the temporary file is removed.

        Raises:
            OutputError: a file appeared at the name (without ``replace``), or
                the system refused (see :func:`cannot_write`).
        """
        try:
            with self.temp.open("rb+") as handle:
                os.fsync(handle.fileno())
            os.chmod(self.temp, self.mode)
            if self.replace:
                os.replace(self.temp, self.target)
                _PENDING.discard(self.temp)
            else:
                try:
                    os.link(self.temp, self.target)  # fails if the name exists by now
                except FileExistsError:
                    raise OutputError(f"{one_line(str(self.target))}: appeared while this ran; "
                                      "kept it (use --force to overwrite)") from None
                os.unlink(self.temp)
                _PENDING.discard(self.temp)
        except OSError as exc:
            self.discard()
            raise cannot_write(self.target, exc) from None
        except BaseException:
            self.discard()
            raise

    def discard(self) -> None:
        try:
            os.unlink(self.temp)
        except FileNotFoundError:
            pass
        _PENDING.discard(self.temp)


    def __enter__(self) -> AtomicFile:
        return self

    def __exit__(self, kind: object, value: object, _: object) -> None:
        if kind is None:
            self.commit()
            return
        self.discard()
        if isinstance(value, OSError):  # writing the temporary file (a full disk): say which output
            raise cannot_write(self.target, value) from None


_HELD = {signal.SIGINT, signal.SIGTERM}
_PENDING: set[Path] = set()
"""The temporary files made and not yet put in place or removed."""


def discard_pending() -> None:
    """Remove every temporary file and folder still pending: the command's last act after an
    interrupt that landed between making one and the code that would have removed it."""
    for temp in list(_PENDING):
        try:
            if temp.is_dir() and not temp.is_symlink():
                shutil.rmtree(temp, ignore_errors=True)
            else:
                os.unlink(temp)
        except OSError:
            pass
    _PENDING.clear()


@contextmanager
def _holding() -> Iterator[None]:
    """SIGINT and SIGTERM held back for the block (POSIX), delivered as it ends."""
    mask = getattr(signal, "pthread_sigmask", None)
    held = mask(signal.SIG_BLOCK, _HELD) if mask is not None else None
    try:
        yield
    finally:
        if mask is not None and held is not None:
            mask(signal.SIG_SETMASK, held)


@contextmanager
def scratch_folder(prefix: str) -> Iterator[Path]:
    """A new folder in the system's temporary folder, removed with all it holds on the way
    out, however the block ends; an interrupt that lands between its making and its removal
    leaves it to the command's last act (:func:`discard_pending`)."""
    with _holding():
        folder = Path(tempfile.mkdtemp(prefix=prefix))
        _PENDING.add(folder)
    try:
        yield folder
    finally:
        with _holding():
            shutil.rmtree(folder, ignore_errors=True)
            _PENDING.discard(folder)


def write_atomic(path: str | os.PathLike[str], data: str | bytes, replace: bool = True) -> None:
    """Write ``data`` to ``path`` through a temporary file (see :class:`AtomicFile`):
    either the whole new content is there afterwards or the old file is untouched."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    with AtomicFile(path, replace) as out, out.open() as handle:
        handle.write(raw)


def check_folder(out: str | os.PathLike[str], names: Sequence[str], force: bool = False) -> Path:
    """The resolved output folder for files called ``names``, once it is safe
    to put a new folder there (see :func:`write_folder`).

    Raises:
        OutputError: the parent folder is missing; ``out`` is a file; it is a
            folder holding files (without ``force``), or holding anything but
            such files (a report is put in place as a whole: other files would
            be lost).
    """
    path = resolve(out)
    shown = one_line(str(out))
    if path.exists() and not path.is_dir():
        raise OutputError(f"{shown}: not a folder")
    if path.is_dir():
        present = sorted(p.name for p in path.iterdir())
        others = [n for n in present if n not in names]
        if others:
            raise OutputError(f"{shown}: a folder holding other files ({one_line(', '.join(others[:3]))}"
                              f"{', ...' if len(others) > 3 else ''}); give a new or empty folder")
        if present and not force:
            raise OutputError(f"{shown}: already holds a report (use --force to replace it)")
    return path


def write_folder(out: str | os.PathLike[str], files: Mapping[str, bytes], force: bool = False,
                 names: Sequence[str] = ()) -> Path:
    """Put a folder holding ``files`` (name to content) at ``out`` as a whole.

    ``names`` are the files an earlier folder of the same kind may hold
    (default: those of ``files``), which ``force`` lets it replace.

    The folder is built beside ``out`` under a temporary name, every file
    flushed to disk, then renamed into place: onto a missing or empty
    folder directly; with ``force``, over an earlier folder of the same
    files, which is moved aside first and then removed. Whatever interrupts
    it, ``out`` is either the old folder or the new one, never a mix, and no
    temporary folder is left behind.

    Raises:
        OutputError: see :func:`check_folder`; also when a file or folder
            appeared at ``out`` while the files were written.
    """
    allowed = list(names) or list(files)
    path = check_folder(out, allowed, force)
    try:
        with _holding():  # (a Ctrl-C now would leave the folder unnamed: it is noted before one lands)
            temp = Path(tempfile.mkdtemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"))
            _PENDING.add(temp)
    except OSError as exc:  # /proc, a read-only file system, ...
        raise cannot_write(out, exc) from None
    old: Path | None = None
    try:
        for name, content in files.items():
            with (temp / name).open("wb") as handle:
                handle.write(content)
                handle.flush()
                os.fsync(handle.fileno())
        os.chmod(temp, 0o777 & ~_umask())
        if path.is_dir() and any(path.iterdir()):
            check_folder(out, allowed, force)  # still only an earlier report there
            old = Path(tempfile.mkdtemp(dir=path.parent, prefix=f".{path.name}.", suffix=".old"))
            os.replace(path, old)  # (onto the empty folder just made)
        try:
            os.rename(temp, path)  # onto a missing or empty folder only
        except OSError as exc:
            if old is not None:
                os.replace(old, path)  # put the earlier report back
                old = None
            if exc.errno not in (errno.EEXIST, errno.ENOTEMPTY, errno.ENOTDIR, errno.EISDIR):
                raise  # not a race: the system refused (said below)
            raise OutputError(f"{one_line(str(out))}: something appeared there while the report was made "
                              f"({exc.strerror or exc}); kept it") from None
    except BaseException as exc:
        shutil.rmtree(temp, ignore_errors=True)
        _PENDING.discard(temp)
        if old is not None and not path.exists():
            os.replace(old, path)  # interrupted between the two renames: the earlier report goes back
        if isinstance(exc, OSError):  # a full disk, ...
            raise cannot_write(out, exc) from None
        raise
    _PENDING.discard(temp)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    return path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


class LineFile:
    """A file of lines (a match's games, one record a line) written as a long run
    goes, so that a run that is interrupted, fails or is killed keeps every
    line it finished, and a later run can ``resume`` it.

    A fresh run creates the file exclusively (``force``: empties an existing
    one); a run that resumes keeps its whole lines (:meth:`lines`) and cuts a
    last line left half-written by a run that was killed. Each line is written
    whole, in one write, as it comes; :meth:`close` flushes it to disk, and
    removes the file if a fresh run wrote nothing. While open, the file is
    locked (``flock``): a second run on it is refused, and the lock goes with
    the process, however it ends.

    Raises (on opening):
        OutputError: the file exists (neither ``force`` nor ``resume``), another
            run holds it, or the system refused (see :func:`cannot_write`).
    """

    def __init__(self, path: str | os.PathLike[str], force: bool = False, resume: bool = False) -> None:
        import fcntl

        self.path = resolve(path)
        shown = one_line(os.fspath(path))
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
        if not force and not resume:
            flags |= os.O_EXCL
        existed = os.path.lexists(self.path)
        try:
            self.fd = os.open(self.path, flags, 0o666)
        except FileExistsError:
            raise OutputError(f"{shown}: already exists (use --force to overwrite it, or --resume to "
                              "continue the run that wrote it)") from None
        except OSError as exc:
            raise cannot_write(path, exc) from None
        self.made = not existed
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(self.fd)
            raise OutputError(f"{shown}: another run is writing it now") from None
        try:
            if not stat.S_ISREG(os.fstat(self.fd).st_mode):
                raise OutputError(f"{shown}: not a regular file")
            if force and not resume:
                os.ftruncate(self.fd, 0)
            self.kept = self._cut_torn_line()
            self.written = 0
        except OSError as exc:
            os.close(self.fd)
            raise cannot_write(path, exc) from None
        except BaseException:
            os.close(self.fd)
            raise

    def _cut_torn_line(self) -> int:
        """Cut a last line with no line end (a run killed as it wrote it); the whole lines' size."""
        size = os.fstat(self.fd).st_size
        end = size
        while end > 0:
            start = max(0, end - 65_536)
            chunk = os.pread(self.fd, end - start, start)
            newline = chunk.rfind(b"\n")
            if newline >= 0:
                end = start + newline + 1
                break
            end = start
        if end != size:
            os.ftruncate(self.fd, end)
        os.lseek(self.fd, end, os.SEEK_SET)
        return end

    def lines(self) -> Iterator[bytes]:
        """The whole lines already in the file (a run to resume), each with its line end."""
        with open(self.path, "rb") as handle:
            left = self.kept
            for line in handle:
                if left <= 0:
                    return
                left -= len(line)
                yield line

    def write(self, line: bytes) -> None:
        """Append one whole line (it must end with a line end).

        Raises:
            OutputError: the system refused (a full disk).
        """
        view = memoryview(line)
        try:
            while view:
                view = view[os.write(self.fd, view):]
        except OSError as exc:
            raise cannot_write(self.path, exc) from None
        self.written += 1

    def close(self) -> None:
        """Flush the file to disk and let it go (a fresh file with no line is removed)."""
        if self.fd < 0:
            return
        fd, self.fd = self.fd, -1
        try:
            if self.made and not self.written:
                os.unlink(self.path)
            else:
                os.fsync(fd)
        except OSError:
            pass
        finally:
            os.close(fd)

    def __enter__(self) -> LineFile:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
