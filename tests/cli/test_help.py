"""Every command's help: each example is one whole command line, copyable at any terminal width."""

from __future__ import annotations

import inspect

import pytest
from typer.testing import CliRunner

from qwirkle_tools.cli.app import app

runner = CliRunner()
COMMANDS = {c.name or c.callback.__name__: c.callback for c in app.registered_commands if c.callback is not None}


def examples(name: str) -> list[str]:
    """The example command lines of a command's docstring."""
    doc = inspect.getdoc(COMMANDS[name]) or ""
    return [line.strip() for line in doc.splitlines() if line.strip().startswith("qwirkle ")]


@pytest.mark.parametrize("width", [40, 80, 200])
@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_example_line_in_the_help_is_a_whole_command(name: str, width: int) -> None:
    result = runner.invoke(app, [name, "--help"], terminal_width=width)
    assert result.exit_code == 0
    lines = [line.strip() for line in result.stdout.splitlines()]
    wanted = examples(name)
    assert wanted, f"{name} has no example"
    for example in wanted:
        assert example in lines, (name, example)  # printed whole, on its own line
    after = lines.index("Example:") if "Example:" in lines else lines.index("Examples:")
    block = []
    for line in lines[after + 1:]:
        if line in ("Arguments:", "Options:"):
            break
        block.append(line)
    assert [line for line in block if line] == wanted  # nothing but the commands: no piece of one on a line of its own


def test_a_mistyped_command_is_told_did_you_mean_once() -> None:
    result = runner.invoke(app, ["valdate", "x.json"])
    assert result.exit_code == 2
    assert result.stderr.count("Did you mean") == 1 and "'validate'" in result.stderr
    result = runner.invoke(app, ["zzzz"])
    assert result.exit_code == 2 and "No such command 'zzzz'" in result.stderr and "Did you mean" not in result.stderr


def test_every_command_is_annotated_with_objects_not_strings() -> None:
    # typer reads each command's annotations; given as strings (from __future__ import annotations),
    # it compiles and evaluates every one of them twice at each start of the command
    hints = {name: [p.annotation for p in inspect.signature(callback).parameters.values()]
             for name, callback in COMMANDS.items()}
    assert sum(map(len, hints.values())) > 100
    assert [name for name, found in hints.items() if any(isinstance(h, str) for h in found)] == []
