"""The ``qwirkle`` command's entry point: signals, exit codes, the last line of defence.

Nothing heavy is imported before the signal handlers are in place, so that
an interrupt at any moment, even while the command line is still loading,
ends the same way:

* Ctrl-C (SIGINT): one line, ``qwirkle: interrupted``, exit code 130;
* SIGTERM: one line, ``qwirkle: terminated``, exit code 143;
* a closed pipe (``qwirkle validate ... | head``): quietly, exit code 0;
* standard output that cannot be written (a full disk): one line, exit code 2;
* anything else that escapes (a bug): one line, exit code 3
  (``QWIRKLE_DEBUG=1`` shows the traceback).

An interrupt is raised where the program is (SIGTERM as :class:`Terminated`),
so every ``finally`` and ``with`` block runs and removes its temporary
files; and once a signal came, the run ends with its exit code even if
something on the way swallowed the exception (a library that turns it into
a panic of its own, say). Outside the command itself (before it starts,
while the last line is written, and before :func:`main` is called, from
the entry point's first line on: see :mod:`qwirkle_tools.__main__`) a
signal is only noted, never raised where no handler would catch it, and the
run ends with its exit code all the same.
"""

import os
import signal
import sys

EXIT_OK, EXIT_USAGE, EXIT_BUG, EXIT_INTERRUPTED, EXIT_TERMINATED = 0, 2, 3, 130, 143


class Terminated(BaseException):
    """SIGTERM, raised where the program is, as Ctrl-C raises :class:`KeyboardInterrupt`."""


_received: list[int] = []
_armed: list[bool] = [False]
"""Whether a signal is raised as an exception: only while the command runs, inside :func:`_run`'s handlers."""


def _on_signal(number: int, frame: object) -> None:
    _received.append(number)
    if len(_received) > 1 or not _armed[0]:
        return  # the run is already ending (let its cleanup finish), or is not running: main() ends it
    _interrupt()


def _forked() -> None:
    """In a forked child (a ``--jobs`` worker): the signals back to their defaults until it sets its own,
    rather than this process's handlers, which would raise an interrupt where nothing catches it."""
    _armed[0] = False
    _received.clear()
    for number in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(number) is _on_signal:
            try:
                signal.signal(number, signal.SIG_DFL)
            except ValueError:  # (not the main thread: Python keeps its handlers to the main one)
                pass


os.register_at_fork(after_in_child=_forked)


def _interrupt() -> None:
    if _received[0] == signal.SIGTERM:
        raise Terminated
    raise KeyboardInterrupt


def main(noted: list[int] | None = None) -> None:
    """Run the command line; exits with its code (see the module's notes).
    ``noted``: the signals the entry point noted before (and goes on noting
    until the handlers here take over). The process ignores SIGINT and
    SIGTERM from its last line on."""
    _received.clear()
    _armed[0] = False
    signal.signal(signal.SIGINT, _on_signal)
    signal.signal(signal.SIGTERM, _on_signal)
    _received.extend(noted or ())  # (after the handlers are in place: none is lost in between)
    sys.unraisablehook = _unraisable
    code = _run()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the run is over: nothing may interrupt its last line
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if _received:
        from ..formats.fileio import discard_pending

        discard_pending()  # a temporary file an interrupt caught between its making and its removal
        code = EXIT_TERMINATED if signal.SIGTERM in _received else EXIT_INTERRUPTED
        _say("terminated" if code == EXIT_TERMINATED else "interrupted")
        # our own cleanup ran as the interrupt unwound the run; what is left are the
        # interpreter's exit hooks, which can wait for ever on worker processes gone
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)
    sys.exit(code)


def _run() -> int:
    try:
        try:
            _armed[0] = True
            if _received:  # noted before the command started: it does not
                _interrupt()
            return _command()
        finally:
            _armed[0] = False  # from here on a signal is noted, and main() ends the run with its code
    except BrokenPipeError:
        from .common import silence_stdout

        silence_stdout()  # what is left in its buffer must not fail again at exit
        try:
            sys.stderr.close()
        except OSError:
            pass
        return EXIT_OK
    except (KeyboardInterrupt, Terminated):
        return EXIT_INTERRUPTED  # main() says which, and how
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else EXIT_BUG
    except BaseException as exc:  # a bug in the toolkit, or a library's panic: one line, never a traceback
        if _received:
            return EXIT_INTERRUPTED
        if os.environ.get("QWIRKLE_DEBUG"):
            raise
        _say(f"internal error: {type(exc).__name__}: {str(exc)[:300]}")
        _say("this is a bug; please report it (QWIRKLE_DEBUG=1 shows the traceback)")
        return EXIT_BUG


def _command() -> int:
    for stream in (sys.stdout, sys.stderr):  # a name the terminal cannot show must not crash the run
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    import click

    from .app import app

    try:
        code = app(standalone_mode=False, prog_name=_program_name())
    except SystemExit as exc:  # typer ends a closed pipe with exit 1, "a record has an error": ours is a quiet 0
        if isinstance(exc.__context__, BrokenPipeError):
            raise exc.__context__ from None
        raise
    except click.exceptions.Abort:  # click's form of a KeyboardInterrupt
        return EXIT_INTERRUPTED
    except click.exceptions.NoArgsIsHelpError as exc:  # a bare command: its help
        exc.show()
        return exc.exit_code
    except click.ClickException as exc:  # a bad option or argument: click's message, in one line
        _say(_usage_line(exc))
        return exc.exit_code
    try:
        sys.stdout.flush()  # now, not at exit: a full disk under standard output is said in one line
    except BrokenPipeError:
        raise
    except OSError as exc:
        from .app import silence_stdout

        silence_stdout()
        _say(f"standard output: cannot write: {exc.strerror or exc}")
        return EXIT_USAGE
    return code if isinstance(code, int) else EXIT_OK


def _program_name() -> str:
    """How the user started us, for help and usage lines: ``python -m qwirkle_tools`` or the
    script's name (``qwirkle``). Click's own guess names the host's module when the command runs
    inside another program started with ``-m`` (``python -m pytest.qwirkle``)."""
    main = sys.modules.get("__main__")
    if getattr(main, "__package__", None) == __package__.partition(".")[0]:
        return f"python -m {__package__.partition('.')[0]}"
    return os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "qwirkle"


def _usage_line(exc: object) -> str:
    """A :class:`click.ClickException`'s message in one line, with where to find help:
    ``missing argument 'PATHS...' (try 'qwirkle validate --help')``, not click's four."""
    import click

    from ..core.safetext import one_line

    message = " ".join(str(getattr(exc, "format_message", exc.__str__)()).split()).removesuffix(".")
    if message[:1].isupper() and message[1:2].islower():  # ("Missing argument": a clause of our line)
        message = message[0].lower() + message[1:]
    ctx = getattr(exc, "ctx", None)
    helps = [n for n in getattr(ctx, "help_option_names", ()) if n.startswith("--")]
    hint = f" (try '{ctx.command_path} {helps[0]}')" if ctx is not None and helps else \
        " (try 'qwirkle --help')" if isinstance(exc, click.UsageError) else ""
    return one_line(message, 400) + hint


def _unraisable(event: object) -> None:
    """An exception where none can be raised (a finaliser, a weakref callback, a hook run at a
    fork): an interrupt lost there is raised again in a moment, anything else said in one line."""
    kind = getattr(event, "exc_type", None)
    if kind is not None and issubclass(kind, (KeyboardInterrupt, Terminated)):
        if _armed[0] and _received:  # (the run goes on: the same signal again, from a thread, so that it
            _again(_received.pop())  # lands outside this hook, in code that can raise it)
        return
    value = getattr(event, "exc_value", None)
    _say(f"ignored: {getattr(kind, '__name__', kind)}: {str(value)[:200]}")


def _again(number: int) -> None:
    """Send this process signal ``number`` in 10 ms (a moment: the hook that lost it has returned)."""
    import threading

    timer = threading.Timer(0.01, os.kill, (os.getpid(), number))
    timer.daemon = True
    timer.start()


def _say(message: str) -> None:
    try:
        sys.stderr.write(f"qwirkle: {message}\n")
        sys.stderr.flush()
    except (OSError, ValueError):  # stderr closed or gone
        pass


__all__ = ["EXIT_BUG", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_TERMINATED", "Terminated", "main"]
