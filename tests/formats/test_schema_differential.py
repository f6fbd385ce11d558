"""Differential tests of the schema check on damaged records.

The reference engine (jsonschema) and the fast path (jsonschema-rs, see
:mod:`qwirkle_tools.formats.schema`) must give the same verdict on every record and
fail it at the same JSON pointers; the tool's own schema findings must be
the reference's, plus the whole-number floats it also refuses; the
validator must call a record schema-invalid exactly then; and the two
reading modes (orjson, and the exact mode that writes records back) must
reach the same verdict on the same text.

The records are the sample games damaged as in ``tests/fuzzing.py``, which
also says how to make a long run (``QWIRKLE_FUZZ=long``).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

import fuzzing
import pytest
from fuzzing import damaged_files, fuzz_settings, tried
from hypothesis import given

from qwirkle_tools.analysis.validate import check_data, check_source
from qwirkle_tools.formats import schema
from qwirkle_tools.formats.record import deep_enough
from qwirkle_tools.formats.sources import Source, parse_source

report_cases = fuzzing.report_cases  # prints the case counts of a long run


@cache
def _fast_engine() -> Any:
    import jsonschema_rs

    return jsonschema_rs.Draft202012Validator(schema.schema())


def reference_pointers(data: Any) -> set[str]:
    with deep_enough():
        return {schema.pointer(e.path) for e in schema._reference().iter_errors(data)}


def fast_pointers(data: Any) -> set[str] | None:
    """Where jsonschema-rs fails the data; ``None`` when it cannot say.

    Its errors carry the failing value, which it cannot build for values
    nested more than about 255 deep ("Recursion limit reached"); the tool
    only asks it for a verdict, which it gives at any depth.
    """
    try:
        return {schema.pointer(e.instance_path) for e in _fast_engine().iter_errors(data)}
    except ValueError as exc:
        assert "Recursion limit" in str(exc)
        return None


def readings(raw: bytes) -> Iterator[tuple[bool, Any]]:
    """The data of the text in each reading mode that accepts it."""
    for exact in (False, True):
        data, problem = parse_source(raw, exact)
        if problem is None:
            yield exact, data


@pytest.mark.slow
@fuzz_settings(120)
@given(damaged_files(byte_damage=False))
def test_engines_and_the_tool_agree_on_damaged_records(case: tuple[str, bytes]) -> None:
    name, raw = case
    tried()
    verdicts = {}
    for exact, data in readings(raw):
        fast = schema.fast_validator()
        assert fast is not None
        reference = schema.reference_is_valid(data)
        assert fast(data) == reference, name
        wrong = reference_pointers(data)
        assert fast_pointers(data) in (wrong, None), name
        assert (not wrong) == reference

        floats = {f.pointer for f in schema._floats(data)}
        found = schema.check(data)
        assert {f.pointer for f in found} == wrong | floats, name
        assert all(f.code == "schema" and f.severity == "error" for f in found)

        record, findings = check_data(data)
        assert ("schema" in {f.code for f in findings}) == bool(wrong | floats), name
        if not wrong | floats:
            assert record is not None
        verdicts[exact] = (reference, frozenset(wrong | floats))
    if len(verdicts) == 2:  # the same text read exactly or by orjson (big integers as floats)
        assert verdicts[False][0] == verdicts[True][0], name


@fuzz_settings(60)
@given(damaged_files())
def test_both_reading_modes_give_the_same_findings(case: tuple[str, bytes]) -> None:
    """``qwirkle validate`` (orjson) and the commands that write records back
    (the exact mode) report the same findings on the same text."""
    tried()
    name, raw = case
    loose = check_source(Source("r.json", 0, raw))
    exact = check_source(Source("r.json", 0, raw), exact=True)
    assert loose.findings == exact.findings, name
    assert (loose.record is None) == (exact.record is None), name
