"""The ``qwirkle`` command's first module: the console script's (``main``) and ``python -m qwirkle_tools``'s.

Its first lines put a handler on SIGINT and SIGTERM that only notes the
signal, before anything else loads: one that comes in the moment after the
package is imported, while the command line loads, ends the run as any other
does (one line, exit code 130 or 143; see :mod:`qwirkle_tools.cli.launch`, which
takes over). Nothing else is imported before (the package's ``__init__``
imports nothing heavy).
"""

import signal

_noted: list[int] = []


def _note(number: int, frame: object) -> None:
    _noted.append(number)  # launch.main() ends the run with its exit code


signal.signal(signal.SIGINT, _note)
signal.signal(signal.SIGTERM, _note)


def main() -> None:
    """Run the command line (:func:`qwirkle_tools.cli.launch.main`), with the signals noted so far."""
    from .cli.launch import main as run

    run(_noted)


if __name__ == "__main__":
    main()
