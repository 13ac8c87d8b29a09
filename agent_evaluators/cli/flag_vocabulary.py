"""The command line's words for the library's messages: flags where Python says keywords.

A message of the library is a :class:`~agent_evaluators.wording.Text` whose references name what
the user set. This vocabulary says them as an ``agent-eval`` user sets them:

* a run option by its flag, from the option table (``max_rows`` -> ``--max-rows``,
  ``force=True`` -> ``--force``, ``resume=False`` -> ``run without --resume``,
  ``engine='ray'`` -> ``--engine ray``, ``show_progress=False`` -> ``--no-show-progress``);
* a judge setting by its judge flag, from the judge-flag table (``model_config 'base_url'`` ->
  ``--judge-base-url``; a missing one: ``the judge needs --judge-model``);
* a column mapping as ``--map alias.input=COLUMN``;
* a keyed sentence whose advice is not a name (how to give the judge a key, where the raw
  reply is kept) by the template in :data:`COMMAND_LINE_SENTENCES`, over the same fields.

``agent-eval adk`` has flags of its own (``--num_runs``) and no run config or ``--map``:
:data:`EVAL_SETS` says those its way. Nothing here reads a message's text: only its fields.
"""

from typing import Dict, Mapping

from ..config.judge_settings import JUDGE_HOWTO
from ..runner.option_table import option as table_option
from ..runner.option_table import option_names
from ..wording import ColumnMap, JudgeKey, Option, Words
from .judge_flags import flag_for, metavar_for

#: keyed sentences in the words of ``agent-eval run`` / ``report`` / ``calibrate`` (same fields as Python's)
COMMAND_LINE_SENTENCES: Dict[str, str] = {
    # run options whose Python sentence is more than a name
    "no-limit": "",  # "(or None for no limit)": a flag cannot be given None
    "no-cap": "",
    "raise-timeout": "--timeout SECONDS",
    "run-folder-how": "agent-eval run --output DIR",
    "resume-continues": "--resume continues it",
    "reader-more": " (convert the file to one of them)",
    # column mappings
    "mapping-example": "{mapping} ({default} applies to every evaluator without its own)",
    "not-a-column-reference": "--map {alias}.{input}={value!r} is not a column reference; write --map "
                              "{alias}.{input}=COLUMN (nested: a.b)",
    "maps-unknown-input": "--map {alias}.{input}=... maps input {input!r}, but evaluator {alias!r} ({class_name}) has "
                          "no such input; its inputs are: {accepted}",
    "mapping-changed": "the column mapping (--map) changed",
    # the judge
    "no-judge": "no judge model configured: " + JUDGE_HOWTO,
    "model-config-dict": "",  # where a model config came from: on the command line, always the judge flags
    "judge-model-example": "--judge-model gpt-4o-mini",
    "pass-judge-model": "pass --judge-model M",
    "give-openai-key": "set OPENAI_API_KEY (or name the variable that holds the key with --judge-api-key-env VAR)",
    "base-url-word": "{key}",
    "put-key-elsewhere": "remove them and put the key in a variable named by --judge-api-key-env VAR",
    "azure-no-key": "no API key for Azure endpoint {endpoint}{source}; set AZURE_OPENAI_API_KEY, or name the variable "
                    "that holds the key with --judge-api-key-env VAR",
    "check-key": "check the API key: the variable named by --judge-api-key-env, else OPENAI_API_KEY / "
                 "AZURE_OPENAI_API_KEY",
    "key-refused": "; no more requests are sent with this key in this run: put the right key in the variable "
                   "--judge-api-key-env names (default {var})",
    "reply-limit": "raise {key} (now {limit})",
    "raw-text": "The raw {what} is in the cell's details (raw_text) in rows.jsonl",
}

#: ``agent-eval adk``'s own sentences, over the command line's (no run config there, a case deadline)
EVAL_SET_SENTENCES: Dict[str, str] = {
    **COMMAND_LINE_SENTENCES,
    "no-judge": "No judge model configured: pass --judge-model M (with --judge-base-url URL and --judge-api-key-env "
                "VAR for an OpenAI-compatible server), or --judge-azure-endpoint URL and --judge-azure-deployment NAME "
                "for Azure, or set OPENAI_API_KEY and AGENT_EVAL_JUDGE_MODEL (or AZURE_OPENAI_ENDPOINT, "
                "AZURE_OPENAI_DEPLOYMENT and AZURE_OPENAI_API_KEY).",
    "give-openai-key": "give --judge-api-key-env VAR, set OPENAI_API_KEY",
    "azure-no-key": "the judge flags give no API key for Azure endpoint {endpoint}{source}; give --judge-api-key-env "
                    "VAR or set AZURE_OPENAI_API_KEY",
    "name-judge-model": "pass --judge-model, or set AGENT_EVAL_JUDGE_MODEL",  # test_config.json has no judge section
    "raw-text": "The raw {what} is kept in the run's rows.jsonl",
    "timeout-in-python": "",
    "from-python-producer": "",
    "record-first": "--record-tools DIR",
}


class CommandLineWords(Words):
    """How ``agent-eval run``, ``report`` and ``calibrate`` name what the user set (see the module docstring)."""

    templates: Mapping[str, str] = COMMAND_LINE_SENTENCES

    def option(self, ref: Option) -> str:
        if ref.name not in option_names():
            return super().option(ref)  # not a run option (an engine's own keyword): Python's words
        entry = table_option(ref.name)
        flag = self.flag_of(ref.name)
        if not ref.has_value:
            return flag
        value = ref.value
        if entry.kind in ("flag", "switch") and isinstance(value, bool):
            if value:
                return flag
            return f"--no-{flag[2:]}" if entry.kind == "switch" else f"run without {flag}"
        return f"{flag} {value}"

    def flag_of(self, name: str) -> str:
        """The flag of run option ``name`` on this command."""
        return table_option(name).flag

    def judge_key(self, ref: JudgeKey) -> str:
        flag = flag_for(ref.key)
        if flag is None:
            return super().judge_key(ref)  # a key no flag sets (extra_headers, credential): Python's words
        return f"the judge needs {flag}" if ref.missing else flag

    def column_map(self, ref: ColumnMap) -> str:
        return f"--map {ref.alias}.{ref.input}={ref.column}"


class EvalSetCommandWords(CommandLineWords):
    """``agent-eval adk``'s words: its own flag spellings (``--num_runs``) and judge flags with their values."""

    templates = EVAL_SET_SENTENCES
    #: run options that ``agent-eval adk`` spells its own way (ADK's ``adk eval`` spelling)
    FLAGS = {"num_runs": "--num_runs"}

    def flag_of(self, name: str) -> str:
        return self.FLAGS.get(name) or super().flag_of(name)

    def judge_key(self, ref: JudgeKey) -> str:
        flag, metavar = flag_for(ref.key), metavar_for(ref.key)
        if ref.missing and flag is not None:
            return f"the judge flags lack {flag} {metavar}" if metavar else f"the judge flags lack {flag}"
        return super().judge_key(ref)


#: the words of ``agent-eval run`` / ``report`` / ``compare`` / ``calibrate``
COMMAND_LINE = CommandLineWords()
#: the words of ``agent-eval adk``
EVAL_SETS = EvalSetCommandWords()
