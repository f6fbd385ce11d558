"""The one base class of every error the library raises for input it refuses.

A bad tile name, an unreadable record, an illegal move in strict play, a
path that cannot be read or an output that must not be written: each is a
:class:`QwirkleError` whose message says what is wrong and where. The
command line turns these into one line and an exit code; any other
exception is a bug.
"""

from __future__ import annotations


class QwirkleError(Exception):
    """Input the library refuses; the message quotes it and says where.

    Errors about a value's text (a tile, a placement, a record) are also
    :class:`ValueError` subclasses, as python-chess's are. ``exit_code`` is
    the command line's exit code for it (2: the command could not run; 1:
    a record is broken), and ``details`` lines to show before the message.
    """

    exit_code = 2

    @property
    def details(self) -> tuple[str, ...]:
        return ()


__all__ = ["QwirkleError"]
