"""Structured errors (issue item 4): every error raised on purpose is an ``AgentEvalError`` whose message keeps
its references (the run option, the judge setting, the column mapping it is about) as fields, and each reader
says them in its own words: Python's for ``str(err)`` and ``rows.jsonl``, the command line's flags, a run
config's keys. Nothing rewrites a message's text: no regular expression in the CLI or the config layer."""

import ast
import logging
import pickle
from pathlib import Path

import pytest

import agent_evaluators
from agent_evaluators import ResponseMatchEvaluator, evaluate
from agent_evaluators.cli.flag_vocabulary import COMMAND_LINE, EVAL_SETS
from agent_evaluators.cli.messages import FlagWords, cell_reason, for_cli
from agent_evaluators.config.yaml_vocabulary import RUN_CONFIG, RunConfigWords
from agent_evaluators.errors import (
    AgentEvalError,
    BudgetExhausted,
    ConfigError,
    EvaluatorErrors,
    InputError,
    JudgeError,
    RunInterrupted,
)
from agent_evaluators.judge.client import get_judge_client
from agent_evaluators.runner.run_settings import RunSettings
from agent_evaluators.wording import PYTHON, ColumnMap, JudgeKey, Option, Text, recall, remember

PACKAGE = Path(agent_evaluators.__file__).parent


# ---------------------------------------------------------------------------- the tree
def test_the_whole_tree_is_importable_from_the_package_and_its_old_homes():
    from agent_evaluators.judge.caps import BudgetExhausted as from_caps
    from agent_evaluators.runner import RunInterrupted as from_runner
    from agent_evaluators.runner.ledger import EvaluatorErrors as from_ledger
    from agent_evaluators.runner.ledger import RunInterrupted as from_ledger_too

    assert agent_evaluators.BudgetExhausted is BudgetExhausted is from_caps
    assert agent_evaluators.EvaluatorErrors is EvaluatorErrors is from_ledger
    assert agent_evaluators.RunInterrupted is RunInterrupted is from_ledger_too is from_runner
    for cls in (ConfigError, InputError, JudgeError, BudgetExhausted, EvaluatorErrors):
        assert issubclass(cls, AgentEvalError)
    assert issubclass(BudgetExhausted, JudgeError)
    assert issubclass(ConfigError, ValueError) and issubclass(InputError, ValueError)


def test_ctrl_c_is_not_an_exception_a_broad_except_swallows():
    assert issubclass(RunInterrupted, KeyboardInterrupt)
    assert not issubclass(RunInterrupted, Exception) and not issubclass(RunInterrupted, AgentEvalError)
    caught = None
    try:
        try:
            raise RunInterrupted("interrupted", rows_done=1, total=2, output_path=None)
        except Exception:  # noqa: BLE001 - what user code writes
            caught = "swallowed"
    except KeyboardInterrupt as exc:
        caught = exc
    assert isinstance(caught, RunInterrupted)


def test_the_errors_module_draws_the_tree():
    doc = agent_evaluators.errors.__doc__ or ""
    for name in ("AgentEvalError", "ConfigError", "InputError", "JudgeError", "BudgetExhausted", "EvaluatorErrors",
                 "RunInterrupted", "KeyboardInterrupt"):
        assert f"── {name}" in doc, name


# ---------------------------------------------------------------------------- fields and words
ZERO = "max_concurrency must be a positive integer, got 0"


def test_a_bad_max_concurrency_names_its_option_in_every_readers_words():
    with pytest.raises(ConfigError) as caught:
        RunSettings(max_concurrency=0)
    err = caught.value
    assert err.option == "max_concurrency" and err.key is None
    assert str(err) == ZERO
    assert for_cli(err) == "--max-concurrency must be a positive integer, got 0"
    assert RUN_CONFIG.render(err) == "max_concurrency: must be a positive integer, got 0"
    assert RunConfigWords(keys={"max_concurrency": "concurrency"}).render(err) == \
        "concurrency: must be a positive integer, got 0"  # the older spelling the file used


def test_a_bad_judge_setting_names_its_key():
    with pytest.raises(ConfigError) as caught:
        get_judge_client({"model": "m", "base_url": "http://127.0.0.1:9/v1", "timeout": 0})
    err = caught.value
    assert err.key == "timeout" and err.option is None
    assert str(err) == "model_config 'timeout' must be a positive number of seconds, got 0"
    assert for_cli(err) == "--judge-timeout must be a positive number of seconds, got 0"
    assert RUN_CONFIG.render(err) == "judge.timeout must be a positive number of seconds, got 0"


def test_a_missing_judge_setting_reads_as_what_the_judge_needs():
    from agent_evaluators.judge.endpoint import resolve_config

    with pytest.raises(ConfigError) as caught:
        resolve_config({"azure_endpoint": "https://x.openai.azure.com"})
    err = caught.value
    assert err.key == "azure_deployment"
    assert str(err).startswith("model_config is missing 'azure_deployment' (model_config dict); give the deployment")
    assert for_cli(err).startswith("the judge needs --judge-azure-deployment; give the deployment")
    assert for_cli(err, EVAL_SETS).startswith("the judge flags lack --judge-azure-deployment NAME; give the deployment")


def test_a_column_mapping_names_the_evaluator_and_input():
    with pytest.raises(ConfigError) as caught:
        evaluate(data=[{"response": "a", "ground_truth": "a"}], evaluators={"m": ResponseMatchEvaluator()},
                 evaluator_config={"m": {"column_mapping": {"response": "${foo}"}}})
    err = caught.value
    assert (err.evaluator, err.input_name) == ("m", "response")
    assert str(err) == ("evaluator_config['m']['column_mapping']['response'] = '${foo}' is not a column reference; "
                        "use '${data.<column>}' (nested: '${data.a.b}') or '${target.<output>}'")
    assert for_cli(err) == "--map m.response='${foo}' is not a column reference; write --map m.response=COLUMN (nested: a.b)"


def test_a_flag_and_a_choice_in_each_readers_words():
    text = Text("pass {resume} or {force}, or {start_over}; not with {engine}", resume=Option("resume", True),
                force=Option("force", True), start_over=Option("resume", False), engine=Option("engine", "ray"))
    assert str(text) == "pass resume=True or force=True, or resume=False; not with engine='ray'"
    assert for_cli(text) == "pass --resume or --force, or run without --resume; not with --engine ray"
    assert RUN_CONFIG.render(text) == "pass resume: true or force: true, or resume: false; not with engine: ray"
    assert for_cli(Text("{x}", x=Option("show_progress", False))) == "--no-show-progress"
    assert for_cli(Text("{x}", x=Option("num_runs"))) == "--num-runs"
    assert for_cli(Text("{x}", x=Option("num_runs")), EVAL_SETS) == "--num_runs"  # agent-eval adk's own spelling


def test_a_keyed_sentence_has_each_vocabularys_template_over_the_same_fields():
    raw = Text.keyed("raw-text", "The raw {what} is in JudgeError.raw_text", what="reply")
    assert str(raw) == "The raw reply is in JudgeError.raw_text"
    assert for_cli(raw) == "The raw reply is in the cell's details (raw_text) in rows.jsonl"
    assert for_cli(raw, EVAL_SETS) == "The raw reply is kept in the run's rows.jsonl"
    assert RUN_CONFIG.render(raw) == str(raw)  # a vocabulary without its own template says Python's


def test_plain_text_is_never_rewritten():
    said = "pass force=True, set model_config 'base_url', evaluator_config={'a': 1}"
    assert for_cli(said) == said and for_cli(AgentEvalError(said)) == said and RUN_CONFIG.render(said) == said


def test_texts_and_errors_survive_pickling_into_a_worker_and_back():
    err = ConfigError(Text("{o} is wrong: {k}", o=Option("num_runs"), k=JudgeKey("timeout")))
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is ConfigError and back.text == err.text and str(back) == str(err)
    assert (back.option, back.key) == ("num_runs", "timeout")
    assert for_cli(back) == "--num-runs is wrong: --judge-timeout"
    budget = pickle.loads(pickle.dumps(BudgetExhausted("max_judge_calls 2 reached")))
    assert for_cli(budget).endswith("resume the run with a higher --max-cost / --max-judge-calls")


def test_remembered_words_come_back_with_their_references():
    text = Text("pass {x} ({n})", x=Option("force", True), n=id(object()))
    said = remember(text)
    assert recall(said) is text and for_cli(recall(said)) == f"pass --force ({text.fields['n']})"
    assert recall("never said") == Text.of("never said")
    assert remember("plain") == "plain"


# ---------------------------------------------------------------------------- error cells and warnings
class _Misconfigured:
    """An evaluator whose every call fails with a configuration error naming a run option and a mapping."""

    def __call__(self, *, response):
        raise ConfigError(Text("raise {option}, or map {mapping}", option=Option("max_rows"),
                               mapping=ColumnMap("me", "response")))


def test_an_error_cell_keeps_its_problem_for_the_command_line_and_stores_python_words(tmp_path):
    result = evaluate(data=[{"response": "a"}, {"response": "b"}], evaluators={"me": _Misconfigured()},
                      output_path=tmp_path / "out", show_progress=False)
    stored = [row["outputs.me.error"] for row in result.rows]
    python = ("ConfigError: raise max_rows, or map evaluator_config={'me': {'column_mapping': {'response': "
              "'${data.<column>}'}}}")
    assert stored == [f"row {n}: evaluator 'me' (_Misconfigured): {python}" for n in (0, 1)]  # rows.jsonl: Python's
    problem = result.problems[(1, "me")]
    assert problem.class_name == "_Misconfigured" and str(problem.text) == python
    assert cell_reason(problem) == "ConfigError: raise --max-rows, or map --map me.response=<column>"
    assert [e["message"] for e in result.errors] == stored  # summary.json's errors: unchanged


def test_a_library_warning_is_logged_in_python_words_and_filtered_into_flag_words(caplog):
    record = logging.LogRecord("agent_evaluators.runner", logging.WARNING, __file__, 1,
                               Text("use {r} to continue it", r=Option("resume", True)), None, None)
    assert record.getMessage() == "use resume=True to continue it"  # any handler of the user's
    assert FlagWords().filter(record) and record.getMessage() == "use --resume to continue it"
    with_args = logging.LogRecord("x", logging.WARNING, __file__, 1, "%s: %s", ("note", ConfigError(
        Text("{o} off", o=Option("otel")))), None)
    FlagWords().filter(with_args)
    assert with_args.getMessage() == "note: --otel off"


def test_python_vocabulary_is_what_str_says():
    text = Text("{k} and {m}", k=JudgeKey("base_url"), m=JudgeKey("model", missing=True))
    assert PYTHON.render(text) == str(text) == "model_config 'base_url' and model_config is missing 'model'"
    assert for_cli(text) == "--judge-base-url and the judge needs --judge-model"
    assert COMMAND_LINE.render(Text("{k}", k=JudgeKey("extra_headers"))) == "model_config 'extra_headers'"  # no flag


# ---------------------------------------------------------------------------- nothing rewrites text
REGEX_CALLS = ("compile", "sub", "subn", "match", "search", "fullmatch", "findall", "finditer", "split")


def _regex_calls(path: Path) -> list:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [f"{path.name}:{n.lineno}" for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in REGEX_CALLS
            and isinstance(n.func.value, ast.Name) and n.func.value.id == "re"]


def test_no_regular_expression_rewrites_messages_in_the_interfaces():
    """The command line has no regular expression at all; the run config's only one reads a threshold the
    user wrote (``alias.metric >= 0.7``), none touches a message."""
    found = [c for p in sorted((PACKAGE / "cli").glob("*.py")) for c in _regex_calls(p)]
    assert not found, f"cli/ uses regular expressions: {found}"
    config = [c for p in sorted((PACKAGE / "config").glob("*.py")) for c in _regex_calls(p)]
    assert [c.split(":")[0] for c in config] == ["thresholds.py"], config
    for words_module in ("wording.py", "cli/flag_vocabulary.py", "config/yaml_vocabulary.py", "cli/messages.py", "config/run_call.py"):
        assert "import re\n" not in (PACKAGE / words_module).read_text(encoding="utf-8"), words_module
