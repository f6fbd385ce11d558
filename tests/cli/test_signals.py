"""Interruption: Ctrl-C, SIGTERM and a killed parent, at random moments, with real signals.

Each run is a real ``qwirkle`` process; the signal comes after a random delay
(seeded, bounded), so some land while it is loading, some while it works,
some while it writes. Whatever the moment: no traceback, the documented exit
code, the input intact, no temporary file, and a report folder either absent
or whole.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import simulated
from fuzzing import LONG, LONG_EXAMPLES

pytestmark = pytest.mark.serial  # it sends signals or times processes: run alone (see the development page)

ROOT = Path(__file__).parents[2]
ATTEMPTS = max(8, LONG_EXAMPLES // 20) if LONG else 8
"""Signals sent per test: a few in CI; ``QWIRKLE_FUZZ=long`` sends ``QWIRKLE_FUZZ_EXAMPLES / 20``."""
QWIRKLE = [sys.executable, "-m", "qwirkle_tools"]  # as the console script runs it: qwirkle_tools.__main__ first
REPORT_FILES = {"annotated.json", "summary.txt", "turns.csv", "progression.png", "lead.png", "turns.png",
                "win-chance.png", "board.png", "game.html"}


def as_from_a_shell() -> None:
    """In a child before it runs: SIGINT and SIGTERM as a shell hands them to a command (the default
    action, not blocked), whatever this test process holds at the moment (a serial run's earlier tests
    have been seen to leave it ignoring or holding them back, which a child inherits)."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def start(args: list[str], cwd: Path, env: dict[str, str] | None = None, session: bool = False) -> subprocess.Popen[str]:
    """The command, started and past the interpreter's own start-up: once its
    handlers are in place (the promise holds from the package's loading on;
    a signal inside ``site`` is Python's, and a loaded machine can take
    longer than the shortest delays below to get there)."""
    proc = subprocess.Popen([*QWIRKLE, *args], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}, start_new_session=session,
                            preexec_fn=as_from_a_shell)
    status = Path(f"/proc/{proc.pid}/status")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            caught = next(int(line.split()[1], 16) for line in status.read_text().splitlines()
                          if line.startswith("SigCgt:"))
        except (OSError, StopIteration):
            break  # no /proc here: start at once, as before
        if caught & (1 << (signal.SIGTERM - 1)):
            break
        time.sleep(0.002)
    return proc


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if p.name.startswith(".") and (".tmp" in p.name or ".old" in p.name))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("corpus") / "c.jsonl"
    path.write_text("".join(json.dumps(simulated(2, seed)) + "\n" for seed in range(200)))
    return path


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_report_interrupted_at_random_moments(tmp_path: Path, sig: signal.Signals) -> None:
    game = tmp_path / "g.json"
    game.write_bytes((ROOT / "sample_games" / "weak-play.json").read_bytes())
    before = game.read_bytes()
    rng = random.Random(int(sig) if not LONG else None)
    codes = set()
    for attempt in range(ATTEMPTS):
        out = tmp_path / f"r{attempt}"
        proc = start(["report", str(game), "-o", str(out)], tmp_path)
        time.sleep(rng.uniform(0.05, 1.5))
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
        codes.add(proc.returncode)
        assert "Traceback" not in err and "panicked" not in err, err
        if proc.returncode in (130, 143):
            assert proc.returncode == (143 if sig == signal.SIGTERM else 130)
            assert err.strip().splitlines()[-1] == ("qwirkle: terminated" if sig == signal.SIGTERM else "qwirkle: interrupted")
        else:
            assert proc.returncode == 0, err  # finished before the signal came
        assert not out.exists() or {p.name for p in out.iterdir()} == REPORT_FILES
        assert game.read_bytes() == before and leftovers(tmp_path) == []
    assert codes & {130, 143}  # some runs were really interrupted


@pytest.mark.slow
def test_stats_tables_interrupted_leave_no_folder_behind(tmp_path: Path, corpus: Path) -> None:
    rng = random.Random(5 if not LONG else None)
    codes = set()
    for attempt in range(ATTEMPTS):
        sig = (signal.SIGINT, signal.SIGTERM)[attempt % 2]
        out = tmp_path / f"new{attempt}" / "tables"  # two folders the command makes
        proc = start(["stats", str(corpus), "--csv", str(out), "--no-progress"], tmp_path)
        time.sleep(rng.uniform(0.05, 2.5))
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
        codes.add(proc.returncode)
        assert "Traceback" not in err and proc.returncode in (0, 130, 143), err
        if proc.returncode == 0:  # finished before the signal came: the three tables
            assert {p.name for p in out.iterdir()} == {"games.csv", "turns.csv", "findings.csv"}
        else:
            assert not out.parent.exists(), sorted(p.name for p in out.parent.rglob("*"))
        assert leftovers(tmp_path) == []
    assert codes & {130, 143}  # some runs were really interrupted


def test_rescore_in_place_interrupted_keeps_the_file_whole(tmp_path: Path) -> None:
    game = tmp_path / "g.json"
    data = simulated(2, 4)
    data["turns"][2]["score"] += 1
    game.write_text(json.dumps(data))
    rng = random.Random(7)
    for _ in range(ATTEMPTS):
        before = game.read_bytes()
        proc = start(["rescore", str(game), "--in-place"], tmp_path)
        time.sleep(rng.uniform(0.05, 0.6))
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        assert "Traceback" not in err and proc.returncode in (0, 1, 130)
        after = game.read_bytes()
        assert after == before or json.loads(after)["turns"][2]["score"] == data["turns"][2]["score"] - 1
        assert leftovers(tmp_path) == []


def children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found.update(int(c) for c in (task / "children").read_text().split())
        except OSError:
            pass
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ")[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def wait_for_workers(proc: subprocess.Popen[str]) -> set[int]:
    for _ in range(200):
        workers = children(proc.pid)
        if len(workers) >= 2:
            return workers
        time.sleep(0.05)
    raise AssertionError("no workers started")


def test_ctrl_c_during_a_jobs_run_is_one_line_and_stops_the_workers(tmp_path: Path, corpus: Path) -> None:
    proc = start(["stats", str(corpus), "--analyse", "--jobs", "2", "--no-progress"], tmp_path)
    workers = wait_for_workers(proc)
    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "Traceback" not in err, err
    assert err.strip().splitlines()[-1] == "qwirkle: interrupted"
    deadline = time.time() + 5
    while any(alive(w) for w in workers) and time.time() < deadline:
        time.sleep(0.1)
    assert not any(alive(w) for w in workers)


def test_workers_exit_when_their_parent_is_killed(tmp_path: Path, corpus: Path) -> None:
    proc = start(["stats", str(corpus), "--analyse", "--jobs", "2", "--no-progress"], tmp_path)
    workers = wait_for_workers(proc)
    proc.kill()
    proc.communicate(timeout=30)
    deadline = time.time() + 5
    while any(alive(w) for w in workers) and time.time() < deadline:
        time.sleep(0.1)
    assert not any(alive(w) for w in workers), "workers outlived their parent"


# The command as the console script and ``python -m`` run it, with a signal sent to itself the moment a
# given module starts to load: right after the package is imported (launch), and later on.
AT_IMPORT = """
import importlib.abc, os, runpy, signal, sys
moment, sig = sys.argv.pop(1), getattr(signal, sys.argv.pop(1))
class Moment(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == moment:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), sig)
        return None
sys.meta_path.insert(0, Moment())
sys.argv[0] = "qwirkle"
runpy.run_module("qwirkle_tools", run_name="__main__", alter_sys=True)
"""


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("moment", ["qwirkle_tools.cli.launch", "click", "qwirkle_tools.cli.app",
                                    "qwirkle_tools.analysis.validate"])
def test_a_signal_while_the_entry_point_loads_ends_the_run_in_one_line(tmp_path: Path, moment: str, sig: str) -> None:
    game = ROOT / "sample_games" / "complete-2p.json"
    proc = subprocess.run([sys.executable, "-c", AT_IMPORT, moment, sig, "validate", str(game)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "Traceback" not in proc.stderr, proc.stderr
    assert (proc.returncode, proc.stderr.splitlines()) == (
        (130, ["qwirkle: interrupted"]) if sig == "SIGINT" else (143, ["qwirkle: terminated"]))
    assert proc.stdout == ""  # the command did not run on


AT_END = """
import os, signal, sys
import qwirkle_tools.cli.launch as launch
run, sig = launch._run, getattr(signal, sys.argv.pop(1))
def then_a_signal():
    code = run()
    os.kill(os.getpid(), sig)  # the command is done; its last line not yet written
    return code
launch._run = then_a_signal
sys.argv[0] = "qwirkle"
launch.main()
"""


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_a_signal_as_the_run_ends_is_one_line_too(tmp_path: Path, sig: str) -> None:
    game = ROOT / "sample_games" / "complete-2p.json"
    proc = subprocess.run([sys.executable, "-c", AT_END, sig, "validate", str(game)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "Traceback" not in proc.stderr, proc.stderr
    assert (proc.returncode, proc.stderr.splitlines()) == (
        (130, ["qwirkle: interrupted"]) if sig == "SIGINT" else (143, ["qwirkle: terminated"]))
    assert proc.stdout.startswith("1 record: 1 valid")  # the command itself finished


AT_FORK = """
import os, signal, sys
import qwirkle_tools.cli.launch as launch
sig, fired = getattr(signal, sys.argv.pop(1)), []
def hook():  # the signal lands in a hook run at a fork (logging's runs at each), where nothing can be raised
    if not fired:
        fired.append(sig)
        os.kill(os.getpid(), sig)
        sum(range(10000))  # (its handler runs here)
os.register_at_fork(after_in_parent=hook)
sys.argv[0] = "qwirkle"
launch.main()
"""


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_a_signal_lost_in_a_hook_at_a_fork_still_ends_the_run(tmp_path: Path, sig: str) -> None:
    # a match with --jobs forks its workers: the interrupt, lost there, is raised again (it played on for ever)
    proc = subprocess.run([sys.executable, "-c", AT_FORK, sig, "match", "greedy", "greedy", "--games", "1000000",
                           "--jobs", "2", "-o", "m.jsonl"], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == (130 if sig == "SIGINT" else 143), proc.stderr
    assert proc.stderr.splitlines()[-1] == ("qwirkle: interrupted" if sig == "SIGINT" else "qwirkle: terminated")


IN_A_CHILD = """
import os, signal, sys, time
import qwirkle_tools.cli.launch as launch
signal.signal(signal.SIGTERM, launch._on_signal)  # as in a command under way
launch._armed[0] = True
pid = os.fork()
if pid == 0:  # a --jobs worker stopped before it set its own handlers
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(5)
    os._exit(0)
print(os.waitpid(pid, 0)[1])
"""


def test_a_forked_child_stopped_before_it_sets_its_handlers_ends_quietly() -> None:
    done = subprocess.run([sys.executable, "-c", IN_A_CHILD], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert (done.stdout, done.stderr) == (f"{int(signal.SIGTERM)}\n", "")  # killed by the signal, with no traceback


def test_ctrl_c_while_the_command_loads_or_starts(tmp_path: Path) -> None:
    # from the moment the package loads (the interpreter's own start-up, a few ms, is not ours)
    rng = random.Random(3)
    game = ROOT / "sample_games" / "complete-2p.json"
    for _ in range(ATTEMPTS):
        proc = start(["validate", str(game)], tmp_path)
        time.sleep(rng.uniform(0.04, 0.3))
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        assert "Traceback" not in err and "panicked" not in err, err
        assert proc.returncode in (0, 130), err
        if proc.returncode == 130:
            assert err.strip().splitlines() == ["qwirkle: interrupted"] or err.strip().splitlines()[-1] == "qwirkle: interrupted"


DASK_ATTEMPTS = ATTEMPTS if LONG else 2
"""``--dask local`` runs per test: each starts a cluster (seconds), so fewer in CI."""


def dask_leftovers(tmp: Path) -> tuple[list[str], list[int]]:
    """What a run with ``TMPDIR=tmp`` left: files there, and processes (its
    cluster's host and workers inherit that TMPDIR)."""
    files = sorted(str(p.relative_to(tmp)) for p in tmp.rglob("*"))
    mark = f"TMPDIR={tmp}".encode()
    procs = []
    for environ in Path("/proc").glob("[0-9]*/environ"):
        try:
            if mark in environ.read_bytes().split(b"\0") and alive(int(environ.parent.name)):
                procs.append(int(environ.parent.name))
        except OSError:  # gone meanwhile
            pass
    return files, procs


@pytest.mark.parametrize("how", ["SIGTERM", "Ctrl-C"])  # Ctrl-C: SIGINT to the whole process group, as a terminal sends it
def test_a_dask_local_run_interrupted_at_random_moments(tmp_path: Path, corpus: Path, how: str) -> None:
    pytest.importorskip("distributed")
    sig = signal.SIGTERM if how == "SIGTERM" else signal.SIGINT
    rng = random.Random(len(how) if not LONG else None)
    codes = set()
    for attempt in range(DASK_ATTEMPTS):
        tmp = tmp_path / f"tmp{attempt}"
        tmp.mkdir()
        proc = start(["stats", str(corpus), "--analyse", "--dask", "local", "--jobs", "2", "--no-progress"], tmp_path,
                     env={"TMPDIR": str(tmp)}, session=how == "Ctrl-C")
        if attempt % 2 == 0:  # while the cluster starts (that takes seconds)
            time.sleep(rng.uniform(0.1, 1.5))
        else:  # once its host and workers run (with this run, 4 processes have its TMPDIR): working or closing
            deadline = time.monotonic() + 60
            while len(dask_leftovers(tmp)[1]) < 4 and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(rng.uniform(0, 1.5))
        if how == "Ctrl-C":
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)
        out, err = proc.communicate(timeout=120)
        codes.add(proc.returncode)
        if proc.returncode in (130, 143):
            assert err.splitlines() == ["qwirkle: terminated" if sig == signal.SIGTERM else "qwirkle: interrupted"], err
        else:
            assert (proc.returncode, err) == (0, ""), err  # finished before the signal came
        deadline = time.monotonic() + 15
        while dask_leftovers(tmp)[1] and time.monotonic() < deadline:
            time.sleep(0.1)
        assert dask_leftovers(tmp) == ([], [])
    assert codes & {130, 143}  # some runs were really interrupted


def test_an_input_a_worker_cannot_read_is_one_line(tmp_path: Path) -> None:
    # a zip member whose bytes are damaged: listed on the client, unreadable on the worker
    pytest.importorskip("distributed")
    import zipfile

    archive = tmp_path / "games.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as z:
        z.writestr("c.jsonl", (ROOT / "sample_games" / "corpus-10.jsonl").read_bytes())
    data = bytearray(archive.read_bytes())
    data[2000:2010] = b"#" * 10  # the member's CRC no longer matches
    archive.write_bytes(bytes(data))
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    url = f"zip://c.jsonl::{archive.as_uri()}"
    proc = start(["stats", url, "--dask", "local", "--jobs", "1", "--no-progress"], tmp_path, env={"TMPDIR": str(tmp)})
    out, err = proc.communicate(timeout=120)
    assert (proc.returncode, out) == (2, ""), err
    assert err == f"qwirkle: {url}: cannot read: BadZipFile: Bad CRC-32 for file 'c.jsonl'\n"
    assert dask_leftovers(tmp)[0] == []


F_SETPIPE_SZ = 1031  # (Linux's fcntl; Python 3.10 has no name for it)
PIPE_SIZE = 4096


def closed_after_one_byte(args: list[str], cwd: Path) -> tuple[int, str]:
    """The command with its standard output a pipe of one page, of which one byte
    is read before the pipe is closed (``qwirkle ... | head -c 1``): its exit code and
    standard error. A command that writes more than the page meets the closed pipe."""
    import fcntl

    r, w = os.pipe()
    try:
        fcntl.fcntl(w, F_SETPIPE_SZ, PIPE_SIZE)
    except OSError:
        pass  # (not Linux: the default pipe, and outputs larger than it below)
    proc = subprocess.Popen([*QWIRKLE, *args], cwd=cwd, stdout=w, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    os.close(w)
    assert os.read(r, 1)
    os.close(r)
    _, err = proc.communicate(timeout=300)
    return proc.returncode, err


@pytest.fixture(scope="module")
def loud(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of inputs whose outputs are long: a valid corpus of 120 games between
    240 players, five .qgn games with 50 warnings each, a position with 2,333 moves."""
    import re

    from qwirkle_tools.formats.qgn import format_qgn
    from qwirkle_tools.formats.record import from_data

    folder = tmp_path_factory.mktemp("loud")
    games = []
    for seed in range(120):
        data = simulated(2, seed)
        del data["meta"]  # (a self-play game's policy would name both seats alike)
        data["players"] = [{"name": f"Player {seed}"}, {"name": f"Player {seed + 1000}"}]
        games.append(json.dumps(data) + "\n")
    (folder / "corpus.jsonl").write_text("".join(games))
    (folder / "warned").mkdir()
    for seed in range(5):  # every turn numbered 1: a turn-number warning on each line
        text = format_qgn(from_data(json.loads(games[seed])))
        (folder / "warned" / f"g{seed}.qgn").write_text(re.sub(r"(?m)^[0-9]+\.", "1.", text))
    return folder


PIPED = {
    "validate text": ["validate", "warned"],
    "validate json": ["validate", "--format", "json", "corpus.jsonl", "warned"],
    "moves": ["moves", str(ROOT / "sample_games" / "296-295.json"), "--turn", "60", "--rack", "rc oc yc gc bc pc"],
    "stats": ["stats", "--format", "json", "corpus.jsonl"],
    "standings": ["standings", "corpus.jsonl"],
    "ratings": ["ratings", "corpus.jsonl"],
    "rescore": ["rescore", "--format", "json", str(ROOT / "sample_games" / "296-295.json")],
}


@pytest.mark.parametrize("command", PIPED)
def test_a_pipe_closed_early_ends_the_run_quietly(loud: Path, command: str) -> None:
    # (| head -c 1): exit 0 (or 141, a shell's SIGPIPE), never 1, "a record has an error", and nothing said
    args = PIPED[command]
    whole = subprocess.run([*QWIRKLE, *args], cwd=loud, capture_output=True, text=True, timeout=300,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert whole.returncode == 0 and len(whole.stdout) > 4 * PIPE_SIZE, (whole.returncode, whole.stderr)
    code, err = closed_after_one_byte(args, loud)
    assert code in (0, 141) and err == "", (code, err)


# The same moments, with the real entry points: the console script (pip's wrapper imports the package, then
# __main__) and ``python -m qwirkle_tools``, the hook put in place by a sitecustomize before either starts.
SITE_HOOK = """
import importlib.abc, os, signal, sys
moment, sig = os.environ.pop("QWIRKLE_TEST_MOMENT", None), os.environ.pop("QWIRKLE_TEST_SIGNAL", "SIGINT")
class Moment(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == moment:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), getattr(signal, sig))
        return None
if moment:
    sys.meta_path.insert(0, Moment())
"""
CONSOLE_SCRIPT = Path(sys.executable).parent / "qwirkle"


def entry_point(way: str) -> list[str]:
    if way == "console script":
        if not CONSOLE_SCRIPT.exists():
            pytest.skip("no console script installed beside this Python")
        return [sys.executable, str(CONSOLE_SCRIPT)]
    return [sys.executable, "-m", "qwirkle_tools"]


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("moment", ["qwirkle_tools.version", "qwirkle_tools.__main__",
                                    "qwirkle_tools.cli.launch"])
@pytest.mark.parametrize("way", ["console script", "-m"])
def test_a_signal_while_the_package_loads_ends_the_run_in_one_line(tmp_path: Path, way: str, moment: str,
                                                                    sig: str) -> None:
    (tmp_path / "sitecustomize.py").write_text(SITE_HOOK)
    game = ROOT / "sample_games" / "complete-2p.json"
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}", "QWIRKLE_TEST_MOMENT": moment,
           "QWIRKLE_TEST_SIGNAL": sig}
    proc = subprocess.run([*entry_point(way), "validate", str(game)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60, env=env)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert (proc.returncode, proc.stderr.splitlines(), proc.stdout) == (
        (130, ["qwirkle: interrupted"], "") if sig == "SIGINT" else (143, ["qwirkle: terminated"], ""))


def ours(traceback: str) -> list[str]:
    """The frames of a traceback in this package's code: a traceback with none came while the
    interpreter started (``site``, an editable install's finder) or found the package (pip's wrapper)."""
    frames = re.findall(r'File "([^"]+)", line (\d+)', traceback)
    return [f"{f}:{n}" for f, n in frames if f.startswith(str(ROOT / "qwirkle_tools"))]


STARTUP = "Failed checking if argv[0] is an import path entry"
"""What CPython itself prints when Ctrl-C lands while it looks at the script's path, before any of the
command's code runs; it then goes on and runs the command (seen once in 40 runs on a loaded machine)."""

SITE = "Error processing line 1 of "
"""What CPython's ``site`` prints when Ctrl-C lands while it runs an editable install's ``.pth`` line
(its finder's imports), before any of the command's code; it then goes on and runs the command."""


@pytest.mark.slow
def test_ctrl_c_at_random_moments_of_the_console_scripts_first_200_ms(tmp_path: Path) -> None:
    command = [*entry_point("console script"), "validate", str(ROOT / "sample_games" / "complete-2p.json")]
    rng = random.Random(23 if not LONG else None)
    seen: list[tuple[float, int, list[str]]] = []
    for _ in range(max(40, ATTEMPTS)):
        delay = rng.uniform(0, 0.2)
        proc = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env={**os.environ, "PYTHONPATH": str(ROOT)}, preexec_fn=as_from_a_shell)
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        seen.append((delay, proc.returncode, ours(err)))
        # else killed before Python's own handler was in place (-2), or at the interpreter's start (its traceback)
        assert not ours(err), (delay, err)
        if proc.returncode in (0, 130) and not err.startswith((STARTUP, SITE)):
            assert err in ("", "qwirkle: interrupted\n"), err
    assert {code for _, code, _ in seen} & {130}, seen  # (some landed while the command ran)


def test_a_library_import_leaves_the_signals_alone() -> None:
    # only the command notes signals at the package's import: a program (or a notebook) importing it keeps Ctrl-C
    code = ("import signal, sys, qwirkle_tools, qwirkle_tools.play.game; "
            "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler, "
            "signal.getsignal(signal.SIGTERM) == signal.SIG_DFL)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, preexec_fn=as_from_a_shell)
    assert proc.stdout.split() == ["True", "True"], proc.stderr
