"""``agent-eval``'s commands come from one table (``agent_evaluators/cli/commands.py``): every
entry is reachable, and a new command is one entry (shown here with a throw-away one)."""

import importlib

from agent_evaluators.cli import commands
from agent_evaluators.cli import main as cli
from agent_evaluators.cli.commands import Command

SEEN = []


def hello_main(argv):
    SEEN.append(list(argv))
    return 7


def test_every_command_in_the_table_is_listed_and_its_code_resolves(capsys):
    assert cli(["--help"]) == 0
    listed = capsys.readouterr().out
    for command in commands.COMMANDS:
        assert command.words[0] in listed, command
        module, _, name = command.target.partition(":")
        assert callable(getattr(importlib.import_module(module), name)), command.target


def test_a_new_command_is_one_entry_of_the_table(monkeypatch, capsys):
    entry = Command(("hello",), f"{__name__}:hello_main", "argv", "say hello from a throw-away command")
    monkeypatch.setattr(commands, "COMMANDS", commands.COMMANDS + (entry,))
    assert cli(["hello", "--loud", "x"]) == 7
    assert SEEN[-1] == ["--loud", "x"]
    assert cli(["--help"]) == 0
    assert "say hello from a throw-away command" in capsys.readouterr().out
