"""Fuzzing every command with damaged records: a result or a clear error, never a traceback or a hang.

The records are the bundled sample games damaged at the data and at the byte
level (see ``tests/fuzzing.py``). Each case is written to a file in a fresh
temporary folder and given to the commands in-process (``CliRunner``). Each
run must end with a documented exit code (0 done/clean, 1 a record has an
error or is unreadable, 2 the command could not run), let no exception
escape, print no traceback, explain a failure in short lines that say
where (the file, the turn, the JSON pointer or the option), leave the input
file's bytes as they were and leave no temporary file behind. The commands
must also agree: a record ``qwirkle validate`` finds unreadable (a ``json``,
``too-large`` or ``schema`` finding) is refused by every other command with
exit 1, and a readable one is read by all of them; a record written by
``rescore -o`` or ``annotate -o`` reads back with no such finding.

Run lengths (see ``tests/fuzzing.py``):

* default: a short, fixed set of cases (well under a minute here);
* ``QWIRKLE_FUZZ=long QWIRKLE_FUZZ_EXAMPLES=3000 python -m pytest tests/test_fuzz.py``:
  3,000 fresh random cases per test (default 2,000); the number of cases
  each test tried and its time are printed at the end.

A hang detector (``signal.alarm``, 60 s per command) turns a command that
never answers into a failure; normal cases never come near it. (Run this
way, a bug shows as an exception; the installed command would report it as
an internal error with exit code 3, which is a failure here too.)
"""

from __future__ import annotations

import json
import re
import signal
import tempfile
import traceback
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

import fuzzing
import pytest
import typer
from fuzzing import damaged_files, damaged_written, fuzz_settings, tried
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from qwirkle_tools.analysis.validate import check_data
from qwirkle_tools.cli.app import app
from qwirkle_tools.core.findings import CODES, MAX_FINDINGS, MAX_MESSAGE
from qwirkle_tools.formats.sources import parse_source

runner = CliRunner()
EXIT_CODES = {0, 1, 2}
HANG_SECONDS = 60
BLOCKING = {"json", "too-large", "schema", "qgn", "sheet"}
SLIPS = {"turn-number", "two-turns", "names-without-commas", "header-misspelt", "name-misspelt", "no-score"}
"""The warnings of a slip read past in a .qgn game: placed and shown as a ``qgn`` mistake is."""


class Hang(Exception):
    """A command that did not answer within HANG_SECONDS."""


@contextmanager
def hang_guard(seconds: int = HANG_SECONDS) -> Iterator[None]:
    def ring(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"no answer within {seconds} s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def has_command(name: str) -> bool:
    return name in typer.main.get_command(app).commands


@dataclass
class Run:
    args: list[str]
    code: int
    stdout: str
    stderr: str

    def __str__(self) -> str:
        return f"qwirkle {' '.join(self.args)} -> {self.code}\nstdout: {self.stdout[-1500:]}\nstderr: {self.stderr[-1500:]}"


def invoke(*args: str) -> Run:
    with hang_guard():
        result = runner.invoke(app, list(args))
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        assert result.exc_info is not None
        trace = "".join(traceback.format_exception(*result.exc_info))
        raise AssertionError(f"qwirkle {' '.join(args)} raised {exc!r}\n{trace}")
    run = Run(list(args), result.exit_code, result.stdout, result.stderr)
    assert run.code in EXIT_CODES, run
    assert "Traceback" not in run.stdout + run.stderr, run
    return run


FINDING_LINE = re.compile(r"^(?P<where>.+?)(?::\d+)?:(?:turn (?P<turn>\d+): | )(?P<code>[a-z-]+): (?P<message>.*)$")
SUMMARY_LINE = re.compile(r"^\d+ records?: \d+ valid, \d+ invalid \(\d+ errors?, \d+ warnings?\)$")
OPTIONS = ("--turn", "--rack", "--output", "--in-place", "--format", "-o ")


def check_lines(run: Run, path: Path, text: str) -> None:
    """Every line a finding with its place, a short ``qwirkle:`` message saying where, or a known line
    (under a finding in hand-written text, its excerpt: the line and a caret, indented)."""
    excerpt = 0
    for line in text.splitlines():
        if excerpt and line.startswith("    "):
            excerpt -= 1
            assert line.isprintable() and len(line) <= 4 + 3 + 72 + 3, f"not an excerpt line: {line!r}\n{run}"
            continue
        excerpt = 0
        if line.startswith(tuple(f"{code}: " for code in ("qgn", "sheet", *SLIPS)), len(str(path)) + 2) and \
                line.startswith(str(path)) or line.startswith(f"qwirkle: warning: {path}: "):  # (chart, view)
            excerpt = 2
        if line.startswith("qwirkle: "):
            message = line[len("qwirkle: "):]
            assert len(message) <= MAX_MESSAGE + len(str(path)) + 80, run
            assert str(path.parent.parent) in message or any(o in message for o in OPTIONS) \
                or re.search(r"\bturn \d+", message), f"no place in {line!r}\n{run}"
        elif line.startswith(str(path)):
            m = FINDING_LINE.match(line)
            assert m is not None and m["code"] in CODES, f"not a finding line: {line!r}\n{run}"
            assert len(m["message"]) <= MAX_MESSAGE, run
        elif SUMMARY_LINE.match(line):
            assert run.args[0] == "validate", run
        elif line.startswith("wrote "):
            assert run.code in (0, 1), run
        elif run.code == 2 and line.startswith(("Usage:", "Try ", "Error: ", "│", "╭", "╰")):
            pass  # click's own usage errors
        elif line.strip():
            raise AssertionError(f"unexpected line {line!r}\n{run}")


def written_record_reads_back(target: Path) -> None:
    data, problem = parse_source(target.read_bytes(), exact=True)
    assert problem is None, (target, problem)
    _, found = check_data(data)
    assert not [f for f in found if f.code in BLOCKING], (target, found[:3])


def strict_json(text: str) -> Any:
    def refuse(name: str) -> None:
        raise ValueError(f"{name} in output")

    return json.loads(text, parse_constant=refuse)


@contextmanager
def case_folder(raw: bytes, name: str = "record.json") -> Iterator[tuple[Path, Path]]:
    """A folder with the input file, and an empty output folder; both checked afterwards."""
    with tempfile.TemporaryDirectory(prefix="qwirkle-fuzz-") as tmp:
        folder = Path(tmp)
        (folder / "in").mkdir()
        (folder / "out").mkdir()
        path = folder / "in" / name
        path.write_bytes(raw)
        yield path, folder / "out"
        assert path.read_bytes() == raw, "the input file was changed"
        assert sorted(p.name for p in path.parent.iterdir()) == [name], "stray files next to the input"
        stray = [p.name for p in (folder / "out").rglob("*") if p.name.startswith(".") or p.name.endswith(".tmp")]
        assert stray == [], f"temporary files left behind: {stray}"


def verdict(path: Path) -> tuple[int, bool]:
    """``qwirkle validate --format json``: the exit code, and whether the record is readable."""
    run = invoke("validate", str(path), "--format", "json")
    assert run.code in (0, 1), run
    data = strict_json(run.stdout)
    (record,) = data["records"]
    codes = {f["code"] for f in record["findings"]}
    assert codes <= set(CODES), run
    assert (run.code == 1) == (not record["valid"]), run
    for f in record["findings"]:
        assert len(f["message"]) <= MAX_MESSAGE and "\n" not in f["message"]
        assert f["turn"] is None or f["pointer"].startswith(f"/turns/{f['turn'] - 1}"), f
    text = invoke("validate", str(path))
    assert text.code == run.code, (run, text)
    check_lines(text, path, text.stdout)
    return run.code, not codes & BLOCKING


def refused_or_read(run: Run, path: Path, readable: bool) -> None:
    """An unreadable record is refused with exit 1; a readable one is read."""
    check_lines(run, path, run.stderr)
    if readable:
        assert "not a readable record" not in run.stderr, run
    else:
        assert run.code == 1 and f"qwirkle: {path}: not a readable record" in run.stderr, run


report_cases = fuzzing.report_cases  # prints the case counts of a long run


# -- the commands that read one record --------------------------------------

@pytest.mark.slow
@fuzz_settings(45)
@given(damaged_files(), st.data())
def test_every_command_gives_a_result_or_a_clear_error(case: tuple[str, bytes], data: st.DataObject) -> None:
    tried()
    _, raw = case
    with case_folder(raw) as (path, out):
        code, readable = verdict(path)
        turns = _turn_count(raw)

        fixed = out / "fixed.json"
        fmt = data.draw(st.sampled_from([[], ["--format", "json"]]))
        run = invoke("rescore", str(path), "-o", str(fixed), *fmt)
        refused_or_read(run, path, readable)
        if readable:
            assert run.code in (0, 1) and fixed.exists(), run
            written_record_reads_back(fixed)
            if fmt:
                strict_json(run.stdout)

        annotated = out / "annotated.json"
        fmt = data.draw(st.sampled_from([[], ["--format", "json"]]))
        run = invoke("annotate", str(path), "-o", str(annotated), *fmt)
        refused_or_read(run, path, readable)
        if readable:
            assert run.code == 0 and annotated.exists(), run
            written_record_reads_back(annotated)
            if fmt:
                strict_json(run.stdout)

        turn = data.draw(st.integers(-1, turns + 2))
        options = data.draw(st.sampled_from([[], ["-n", "3"], ["--format", "json"]]))
        options += data.draw(st.sampled_from([[], [], ["--rack", data.draw(st.sampled_from(RACKS))]]))
        run = invoke("moves", str(path), "--turn", str(turn), *options)
        if "--rack" in options and not _reads_as_tiles(options[options.index("--rack") + 1]):
            assert run.code == 2 and "--rack" in run.stderr, run  # a bad option stops before the file is read
        else:
            refused_or_read(run, path, readable)
            if readable:
                assert run.code in (0, 2), run

        board_turn = data.draw(st.sampled_from([[], ["--turn", str(data.draw(st.integers(-1, turns + 1)))]]))
        run = invoke("board", str(path), "--no-colour", *board_turn)
        refused_or_read(run, path, readable)
        if readable:
            assert run.code in (0, 2), run


def _reads_as_tiles(text: str) -> bool:
    from qwirkle_tools.core.tiles import TileError, parse_tiles

    try:
        parse_tiles(text)
    except TileError:
        return False
    return True


RACKS = ["rc rs bd", "red-circle blue-star", "zz", "", "rc " * 20, "rc,rs", "🎲", "RC", "purple-clover " * 7, "-rc"]


def _turn_count(raw: bytes) -> int:
    data, problem = parse_source(raw)
    turns = data.get("turns") if problem is None and isinstance(data, dict) else None
    return len(turns) if isinstance(turns, list) else 3


# -- pictures, charts and the report: slow, so fewer cases -------------------

@fuzz_settings(6)
@given(damaged_files(), st.sampled_from(["board.png", "board.svg", "progression.svg", "lead.svg", "turns.svg",
                                         "turns.png"]))
def test_pictures_of_damaged_records(case: tuple[str, bytes], picture: str) -> None:
    tried()
    _, raw = case
    with case_folder(raw) as (path, out):
        _, readable = verdict(path)
        target = out / picture
        kind, _, suffix = picture.partition(".")
        if kind == "board":
            run = invoke("board", str(path), "-o", str(target))
        else:
            run = invoke("chart", str(path), "--kind", kind, "-o", str(target))
        refused_or_read(run, path, readable)
        assert target.exists() == (run.code == 0), run
        if run.code == 0:
            head = target.read_bytes()[:8]
            assert head == b"\x89PNG\r\n\x1a\n" if suffix == "png" else b"<?xml" in head, run


@fuzz_settings(3)
@given(damaged_files())
def test_report_of_damaged_records(case: tuple[str, bytes]) -> None:
    tried()
    _, raw = case
    with case_folder(raw) as (path, out):
        code, readable = verdict(path)
        folder = out / "report"
        run = invoke("report", str(path), "-o", str(folder))
        refused_or_read(run, path, readable)
        if readable:
            assert run.code == code, run  # exit 1 exactly when validate finds an error
            assert (folder / "summary.txt").read_text("utf-8") == run.stdout
            written_record_reads_back(folder / "annotated.json")


# -- stats (a command another change adds; skipped until it is there) --------

@fuzz_settings(15)
@given(damaged_files(), st.data())
def test_stats_on_damaged_records(case: tuple[str, bytes], data: st.DataObject) -> None:
    if not has_command("stats"):
        pytest.skip("no qwirkle stats command yet")
    tried()
    _, raw = case
    with case_folder(raw) as (path, out):
        code, _ = verdict(path)
        options = data.draw(st.sampled_from([[], ["--format", "json"], ["--analyse"], ["--csv", str(out / "tables")]]))
        run = invoke("stats", str(path), *options)
        check_lines(run, path, run.stderr)
        if "--format" not in options:
            check_lines(run, path, "\n".join(line for line in run.stdout.splitlines() if line.startswith(str(path))))
        assert run.code == code, run  # 1 exactly when validate finds an error
        if "--format" in options:
            strict_json(run.stdout)


# -- validate on corpora ------------------------------------------------------

@fuzz_settings(15)
@given(st.lists(damaged_files(), min_size=1, max_size=4))
def test_validate_reads_every_line_of_a_damaged_corpus(cases: list[tuple[str, bytes]]) -> None:
    tried()
    lines = [raw.replace(b"\n", b" ").replace(b"\r", b" ") for _, raw in cases]
    raw = b"\n".join(lines) + b"\n"
    with case_folder(raw, "corpus.jsonl") as (path, _):
        run = invoke("validate", str(path), "--format", "json")
        if not any(line.strip() for line in lines):
            assert run.code == 2 and "no records" in run.stderr, run
            return
        data = strict_json(run.stdout)
        assert [r["index"] for r in data["records"]] == [i for i, line in enumerate(lines, 1) if line.strip()]
        assert run.code == (1 if data["summary"]["invalid"] else 0), run
        text = invoke("validate", str(path))
        check_lines(text, path, text.stdout)


# -- the limits and the regressions the fuzzing found, end to end -------------

SAMPLE = json.dumps(json.loads((fuzzing.SAMPLES / "complete-2p.json").read_bytes())).encode()  # one line


def _with(change: Any) -> bytes:
    data = json.loads(SAMPLE)
    change(data)
    return json.dumps(data).encode()


def _extend(text: bytes, tail: bytes) -> bytes:
    return text.rstrip()[:-1] + b", " + tail + b"}"


AT = len(SAMPLE) + len(b', "x-a": ')  # the column of a value _extend() adds as "x-a"


BAD_INPUTS = {  # kind -> (file bytes, what validate says)
    "not JSON": (b"hello", "json: line 1, column 1: unexpected character"),
    "truncated": (SAMPLE[:100], "json: line 1, column 101: unexpected end of data"),
    "invalid UTF-8": (SAMPLE[:50] + b"\xff" + SAMPLE[50:], "json: line 1, column 51: not UTF-8 (byte 0xff)"),
    "UTF-16": (SAMPLE.decode().encode("utf-16"), "json: line 1, column 1: UTF-16 text"),
    "NaN": (_extend(SAMPLE, b'"x-a": NaN'), f"json: line 1, column {AT}: NaN is not JSON (write a number, or null)"),
    "Infinity": (_extend(SAMPLE, b'"x-a": -Infinity'),
                 f"json: line 1, column {AT + 1}: Infinity is not JSON (write a number, or null)"),
    "float overflow": (_extend(SAMPLE, b'"x-a": 1e400'),
                       f"json: line 1, column {AT}: 1e400 is too large for a number (at most about 1.8e308)"),
    "5,001-digit number": (_extend(SAMPLE, b'"x-a": 1' + b"0" * 5000),
                           f"json: line 1, column {AT}: a number of 5,001 digits (at most 4,300)"),
    "huge score": (_with(lambda d: d["turns"][3].update(score=10**30)),
                   f"turn 4: schema: {10**30} is out of range (maximum 100000)"),
    "nesting too deep": (_extend(SAMPLE, b'"x-a": ' + b"[" * 1024 + b"]" * 1024),
                         f"json: line 1, column {AT + 1024}: nested deeper than 1,024 levels (arrays and objects)"),
    "long name": (_with(lambda d: d["players"][0].update(name="x" * 10**6)),
                  " schema: a string of 1,000,000 characters; at most 200"),
    "too many turns": (_with(lambda d: d["turns"].extend({"player": i % 2, "action": "pass"} for i in range(10**4))),
                       " schema: 10,050 turns; at most 10,000"),
    "coordinate beyond the limit": (_with(lambda d: d["turns"][4]["tiles"][0].update(x=1_000_001)),
                                    "turn 5: schema: 1000001 is out of range (maximum 1000000)"),
    "wrong type": (_with(lambda d: d["turns"][4]["tiles"][0].update(x="3")), "turn 5: schema: expected an integer, got '3'"),
    "whole-number float": (_with(lambda d: d["turns"][4]["tiles"][0].update(x=3.0)),
                           "turn 5: schema: expected an integer, got 3.0"),
    "missing key": (_with(lambda d: d.pop("turns")), " schema: 'turns' is a required property"),
    "unknown key": (_with(lambda d: d["turns"][0].update(scroe=2)),
                    "turn 1: schema: unknown field 'scroe' (fields of your own must start with x-)"),
    "illegal move": (_with(lambda d: d["turns"][1].update(tiles=[{"tile": "red-square", "x": 40, "y": 40}])),
                     "turn 2: not-connected: no placed tile touches a tile on the board (red-square at (40,40))"),
    "wrong score": (_with(lambda d: d["turns"][1].update(score=7)), "turn 2: score-mismatch: Ben (seat 1) claims 7"),
}


@fuzz_settings(12)
@given(fuzzing.damaged_data(max_ops=2, ops=fuzzing.COST_OPS), st.data())
def test_lists_past_the_limits_and_long_rows_cost_a_bounded_replay(case: tuple[str, Any], data: st.DataObject) -> None:
    from qwirkle_tools.core.findings import MAX_FINDINGS

    tried()
    _, record = case
    found = check_data(record)[1]
    assert len(found) <= MAX_FINDINGS
    # a list past its limit is one finding for its length and at most its first 109 elements, not one per element
    counts = Counter(f.pointer.rsplit("/", 1)[0] for f in found)
    assert max(counts.values(), default=0) <= 2 * 109, counts.most_common(3)
    assert all(n == 1 for n in Counter(f.pointer for f in found if f.code == "too-many-tiles").values())
    # and every command on it reads it within the format's bounds, or refuses it with its findings
    with case_folder(fuzzing.serialize(record)) as (path, out):
        command = data.draw(st.sampled_from([["validate"], ["rescore", "-o", "fixed.json"], ["annotate", "-o", "a.json"],
                                              ["view", "-o", "v.html"], ["board"]]))
        target = [str(out / command[2])] if len(command) > 2 else []
        run = invoke(command[0], str(path), *command[1:2], *target)
        assert run.code in EXIT_CODES, run
        if command == ["validate"]:
            check_lines(run, path, run.stdout)


@pytest.mark.parametrize("kind", list(BAD_INPUTS))
def test_each_kind_of_bad_input_is_one_clear_finding(kind: str) -> None:
    raw, expected = BAD_INPUTS[kind]
    with case_folder(raw) as (path, out):
        run = invoke("validate", str(path))
        assert run.code == 1, run
        first = run.stdout.splitlines()[0]
        assert first.startswith(str(path)) and expected in first, run
        check_lines(run, path, run.stdout)
        _, readable = verdict(path)
        run = invoke("rescore", str(path), "-o", str(out / "fixed.json"))
        refused_or_read(run, path, readable)
        assert run.code == 1 and (out / "fixed.json").exists() == readable, run


@pytest.mark.parametrize("kind", ["byte-order mark", "duplicate keys", "integer beyond a double", "nesting at the limit"])
def test_accepted_oddities(kind: str) -> None:
    raw = {"byte-order mark": b"\xef\xbb\xbf" + SAMPLE,
           "duplicate keys": _extend(SAMPLE, b'"format": "qwirkle-record"'),
           "integer beyond a double": _extend(SAMPLE, b'"x-big": 1' + b"0" * 400),
           "nesting at the limit": _extend(SAMPLE, b'"x-deep": ' + b"[" * 1023 + b"]" * 1023)}[kind]
    with case_folder(raw) as (path, out):
        assert invoke("validate", str(path)).code == 0  # the exact reading, below, refused the last two
        fixed = out / "fixed.json"
        assert invoke("rescore", str(path), "-o", str(fixed)).code == 0
        written_record_reads_back(fixed)
        if kind == "integer beyond a double":
            assert b'"x-big": 1' + b"0" * 400 in fixed.read_bytes()  # kept exactly


def test_a_file_over_the_size_limit_is_not_read(tmp_path: Path) -> None:
    from qwirkle_tools.formats.sources import MAX_FILE_BYTES

    path = tmp_path / "huge.json"
    with path.open("wb") as handle:  # sparse: nothing is written to the disk
        handle.truncate(MAX_FILE_BYTES + 1)
    run = invoke("validate", str(path))
    assert run.code == 1 and f"{path}: too-large: 67,108,865 bytes; the limit is 67,108,864" in run.stdout, run
    run = invoke("board", str(path))
    assert run.code == 1 and f"qwirkle: {path}: not a readable record" in run.stderr, run


def test_a_board_a_million_cells_wide_is_drawn_at_once(tmp_path: Path) -> None:
    raw = _with(lambda d: d["turns"][5]["tiles"][0].update(x=1_000_000, y=-1_000_000))  # an illegal move
    with case_folder(raw) as (path, out), hang_guard(20):  # it hung: two million columns
        run = invoke("board", str(path), "--no-colour")
        assert run.code == 0 and len(run.stdout) < 20_000 and " 1000000" in run.stdout.splitlines()[0], run
        assert invoke("board", str(path), "-o", str(out / "b.svg")).code == 0


# -- hostile names and file names ----------------------------------------------------------------

def _printable_lines(text: str) -> None:
    for line in text.splitlines():
        assert line.isprintable(), repr(line)


@pytest.mark.slow
@fuzz_settings(8)
@given(st.lists(fuzzing.hostile_text(), min_size=2, max_size=2), fuzzing.hostile_file_name(), st.data())
def test_hostile_names_and_file_names_stay_in_their_place(names: list[str], file_name: str,
                                                           data: st.DataObject) -> None:
    import xml.etree.ElementTree as ET

    import pandas as pd

    tried()
    base = json.loads((fuzzing.SAMPLES / "wrong-scores.json").read_text())
    base["players"] = [{"name": n} for n in names]
    raw = json.dumps(base).encode()
    with case_folder(raw, file_name) as (path, out):
        command = data.draw(st.sampled_from(["validate", "rescore", "annotate", "stats", "report", "chart", "convert"]))
        form = data.draw(st.sampled_from(["text", "json"]))
        args = {"validate": ["validate", str(path.parent)], "rescore": ["rescore", str(path), "--format", form],
                "annotate": ["annotate", str(path), "--format", form, "-o", str(out / "a.json")],
                "stats": ["stats", str(path.parent), "--csv", str(out / "t"), "--no-progress"],
                "report": ["report", str(path), "-o", str(out / "r")],
                "chart": ["chart", str(path), "-o", str(out / "c.svg")],
                "convert": ["convert", str(path), "-o", str(out / "g.qgn")]}[command]
        run = invoke(*args)
        _printable_lines(run.stdout)
        _printable_lines(run.stderr)
        if form == "json" and command in ("rescore", "annotate"):
            assert not re.search("[\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]", run.stdout)
            json.loads(run.stdout)
        if command == "stats":
            for table in ("games", "turns", "findings"):
                frame = pd.read_csv(out / "t" / f"{table}.csv", dtype=str, keep_default_na=False)
                for column in frame.columns:
                    assert all(not v.startswith(("=", "+", "-", "@", "\t", "\r")) for v in frame[column]), column
            assert len(pd.read_csv(out / "t" / "turns.csv")) == len(base["turns"])
        if command == "report":
            _printable_lines((out / "r" / "summary.txt").read_text())
            assert len(pd.read_csv(out / "r" / "turns.csv")) == len(base["turns"])
        if command == "chart":
            ET.parse(out / "c.svg")
        if command == "convert":  # one line per header and turn, each printable; the names read back
            lines = (out / "g.qgn").read_text(encoding="utf-8").split("\n")
            assert all(line.isprintable() for line in lines)
            assert sum(bool(re.match(r"\d+\. ", line)) for line in lines) == len(base["turns"])
            again = invoke("convert", str(out / "g.qgn"), "-o", str(out / "back.json"))
            assert again.code == 0, again
            assert [p["name"] for p in json.loads((out / "back.json").read_text())["players"]] == names


# -- the notation and score sheets, damaged ------------------------------------------

@fuzz_settings(12)
@given(fuzzing.hostile_endpoints())
def test_a_hostile_endpoint_is_one_line_and_exit_2(case: tuple[str, dict[str, Any]]) -> None:
    # --dask at a port that is not a scheduler: silent, closing, garbage, a frame of 2^62
    # bytes, HTTP, TLS, a byte at a time, or a handshake and then garbage
    pytest.importorskip("distributed")
    from qwirkle_tools.corpus import cluster

    tried()
    kind, spec = case
    timeout, cluster.TIMEOUT = cluster.TIMEOUT, 1.0  # a silent endpoint costs the whole handshake timeout
    try:
        with fuzzing.endpoint(spec) as address:
            run = invoke("validate", str(fuzzing.SAMPLES / "complete-2p.json"), "--dask", address)
    finally:
        cluster.TIMEOUT = timeout
    assert run.code == 2 and run.stdout == "", f"{kind}: {run}"
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("qwirkle: ") and address in lines[0], f"{kind}: {run}"


@pytest.mark.slow
@fuzz_settings(40)
@given(st.sampled_from(["qgn", "csv"]).flatmap(lambda form: st.tuples(st.just(form), damaged_written(form))))
def test_damaged_games_and_sheets_get_findings_with_their_place(case: tuple[str, tuple[str, bytes]]) -> None:
    tried()
    form, (_, raw) = case
    with case_folder(raw, f"game.{form}") as (path, out):
        code, readable = verdict(path)
        run = invoke("validate", str(path), "--format", "json")
        lines = raw.count(b"\n") + raw.count(b"\r") - raw.count(b"\r\n") + 1  # LF, CRLF and CR end a line
        found = strict_json(run.stdout)["records"][0]["findings"]
        assert sum(f["code"] in ("qgn", "sheet") for f in found) <= MAX_FINDINGS + 1  # the cap (its note the last), 'Players:'
        for f in found:
            if f["code"] == "qgn" or f["code"] in SLIPS:
                m = re.match(r"line (\d+), column (\d+): ", f["message"])
                assert m is not None or f["message"].startswith("no 'Players:' line"), f
                assert m is None or 1 <= int(m[1]) <= lines, f
                if m is not None and "not UTF-8" not in f["message"]:
                    assert f["excerpt"].split("\n")[1] == " " * (min(int(m[2]) - 1, 3 + 72)) + "^" or \
                        f["excerpt"].startswith("..."), f
            elif f["code"] == "sheet":
                assert re.match(r"(row \d+, column [A-Z]+|line \d+ of the file|empty)", f["message"]), f
        for target in ("back.json", "back.qgn"):
            run = invoke("convert", str(path), "-o", str(out / target))
            refused_or_read(run, path, readable)
            if readable:
                assert run.code == 0, run
        if readable:
            written_record_reads_back(out / "back.json")
            again = invoke("validate", str(out / "back.qgn"), "--format", "json")
            findings = strict_json(again.stdout)["records"][0]["findings"]
            assert findings == strict_json(invoke("validate", str(out / "back.json"), "--format", "json").stdout
                                           )["records"][0]["findings"]
        run = invoke("rescore", str(path))
        refused_or_read(run, path, readable)
        run = invoke("board", str(path), "--no-colour")
        refused_or_read(run, path, readable)
