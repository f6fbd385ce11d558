"""One base class for everything the library refuses, and what the CLI makes of it."""

from __future__ import annotations

import pytest

from qwirkle_tools.analysis.analyse import AnalysisError
from qwirkle_tools.core.board import PlacementError
from qwirkle_tools.core.errors import QwirkleError
from qwirkle_tools.core.tiles import TileError
from qwirkle_tools.formats.fileio import OutputError
from qwirkle_tools.formats.record import RecordError
from qwirkle_tools.formats.sources import InputError, UnreadableRecord
from qwirkle_tools.outputs.pictures import BoardUnknown
from qwirkle_tools.play.engine import IllegalMoveError


@pytest.mark.parametrize("error", [AnalysisError, BoardUnknown, IllegalMoveError, InputError, OutputError,
                                   PlacementError, RecordError, TileError, UnreadableRecord])
def test_every_refusal_is_a_qwirkle_error(error: type[Exception]) -> None:
    assert issubclass(error, QwirkleError)


def test_errors_about_text_are_value_errors_too() -> None:
    for error in (TileError, PlacementError, RecordError, IllegalMoveError):
        assert issubclass(error, ValueError)


def test_exit_codes_and_details() -> None:
    from qwirkle_tools.core.findings import make

    assert QwirkleError("x").exit_code == 2 and QwirkleError("x").details == ()
    broken = UnreadableRecord("g.json", (make("json", None, "", "line 1, column 2: bad"),))
    assert broken.exit_code == 1
    assert broken.details == ("g.json: json: line 1, column 2: bad",)
    assert str(broken) == "g.json: not a readable record; fix the errors above first"
