"""The ``qwirkle`` command's first module: the console script's (``main``) and ``python -m qwirkle_tools``'s.

A handler on SIGINT and SIGTERM that only notes the signal is in place
before anything of the command loads: one that comes in while the command
line loads ends the run as any other does (one line, exit code 130 or 143;
see :mod:`qwirkle_tools.cli.launch`, which takes over). The package's
``__init__`` puts it there at its first line when it sees the command start
(the console script's wrapper, ``from qwirkle_tools.__main__ import main``,
imports the package first), and this module's first line does in any case.
What comes before the package is the interpreter's (its start-up and
``site``, with an editable install's finder): a signal there is Python's.
"""

from . import _note_signals, _noted

_note_signals()  # (done already by the package's first lines when it saw the command start; again is the same)


def main() -> None:
    """Run the command line (:func:`qwirkle_tools.cli.launch.main`), with the signals noted so far."""
    from .cli.launch import main as run

    run(_noted)


if __name__ == "__main__":
    main()
