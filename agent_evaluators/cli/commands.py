"""Every ``agent-eval`` command, in one table: a new command is one :class:`Command` here.

A command names its code by ``"module:function"``, so the table imports nothing:

* ``kind="parser"``: ``function(subparsers)`` adds the command's parser and sets its ``func``
  (``run``, ``report``, ...): its flags show in ``agent-eval --help``;
* ``kind="argv"``: ``function(argv) -> exit code`` parses its own arguments and is imported only
  when the command runs (``adk``, ``judge serve``, ``calibrate``: commands whose imports are
  heavy, or whose flags are another tool's), so ``agent-eval list`` loads none of them.

A command of several words (``judge serve``) sits under a group parser (``judge``), described in
:data:`GROUPS`. The order of the table is the order ``agent-eval --help`` lists them.
"""

from dataclasses import dataclass
from typing import Dict, Mapping, Tuple


@dataclass(frozen=True)
class Command:
    """One command: its words, where its code is, and how it joins the parser."""

    words: Tuple[str, ...]
    target: str
    kind: str = "parser"  # "parser" | "argv"
    help: str = ""  # for an "argv" command, the line ``agent-eval --help`` shows


COMMANDS: Tuple[Command, ...] = (
    Command(("run",), "agent_evaluators.cli.run:add_run_parser"),
    Command(("report",), "agent_evaluators.cli.report:add_report_parser"),
    Command(("compare",), "agent_evaluators.cli.compare:add_compare_parser"),
    Command(("label",), "agent_evaluators.cli.label:add_label_parser"),
    Command(("plan",), "agent_evaluators.cli.plan:add_plan_parser"),
    Command(("list",), "agent_evaluators.cli.listing:add_list_parser"),
    Command(("traces",), "agent_evaluators.cli.traces:add_traces_parser"),
    Command(("adk",), "agent_evaluators.cli.eval_sets:main", "argv",
            "run ADK eval sets with ADK's criteria (agent-eval adk --help)"),
    Command(("judge", "serve"), "agent_evaluators.cli.judge_serve:serve_main", "argv",
            "serve a GGUF model as an OpenAI-compatible judge (agent-eval judge serve --help)"),
    Command(("calibrate",), "agent_evaluators.cli.calibrate:calibrate_main", "argv",
            "accuracy and Cohen's kappa of your judge on our labelled sets"),
    Command(("redteam",), "agent_evaluators.cli.redteam:redteam_main", "argv",
            "attack your agent, score each attack on its trajectory: ASR per risk category and strategy"),
)

#: group word -> (its line in ``agent-eval --help``, its own description)
GROUPS: Mapping[str, Tuple[str, str]] = {
    "judge": ("serve a local GGUF judge: agent-eval judge serve --model FILE.gguf", "Local judge commands."),
}


def command_table() -> Tuple[Command, ...]:
    """The table as it stands when asked (read at each call, so a test may add a command)."""
    return COMMANDS


def argv_commands() -> Dict[Tuple[str, ...], str]:
    """The commands that parse their own arguments: words -> ``"module:function(argv)"``."""
    return {c.words: c.target for c in command_table() if c.kind == "argv"}
