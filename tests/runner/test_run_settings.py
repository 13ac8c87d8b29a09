"""The run options are typed settings (issue item 3): ``RunSettings`` has exactly the option table's
fields, ``evaluate()`` / ``evaluate_async()`` hand every keyword to it by name, and a value is checked
once, by the table's check, wherever a user sets it."""

import asyncio
import dataclasses
import typing
from pathlib import Path

import pytest

from agent_evaluators import evaluate, evaluate_async
from agent_evaluators.errors import ConfigError
from agent_evaluators.runner import api
from agent_evaluators.runner.option_table import RUN_OPTIONS, checked
from agent_evaluators.runner.options import RunOptions
from agent_evaluators.runner.run_settings import RunSettings


def test_the_fields_are_the_table_in_its_order_with_its_defaults():
    fields = dataclasses.fields(RunSettings)
    assert [f.name for f in fields] == [o.name for o in RUN_OPTIONS]
    for f, o in zip(fields, RUN_OPTIONS):
        assert f.default == o.default, o.name
    hints = typing.get_type_hints(RunSettings)
    assert set(hints) == {o.name for o in RUN_OPTIONS}  # every field is typed


def test_settings_are_frozen_and_hold_checked_values():
    settings = RunSettings(output_path="out", tags={"team": 1}, max_cost=2)  # type: ignore[arg-type]
    assert settings.output_path == Path("out") and settings.tags == {"team": 1} and settings.max_cost == 2.0
    assert isinstance(settings.max_cost, float)
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.max_concurrency = 3  # type: ignore[misc]
    assert RunSettings().tags == {}  # the table's check: no tags is an empty dict


class _Captured(Exception):
    def __init__(self, keywords):
        super().__init__("captured")
        self.keywords = keywords


def _capture(**keywords):
    raise _Captured(keywords)


@pytest.mark.parametrize("entry", ["evaluate", "evaluate_async"])
def test_every_keyword_reaches_the_settings_by_name(monkeypatch, entry):
    """A keyword that a signature takes but does not pass on would be silently ignored: pass a distinct
    object for every option and find each one in the settings' keywords."""
    monkeypatch.setattr(api, "RunSettings", _capture)
    names = [o.name for o in RUN_OPTIONS if entry == "evaluate" or o.async_too]
    given = {name: object() for name in names if name != "output_path"}
    call = evaluate if entry == "evaluate" else (lambda **kw: asyncio.run(evaluate_async(**kw)))
    with pytest.raises(_Captured) as caught:
        call(data=[{"a": 1}], evaluators={"e": lambda **kw: 1}, output_path="out", **given)
    assert caught.value.keywords == {**given, "output_path": Path("out")}


def test_an_unknown_keyword_in_a_mapping_names_the_run_options():
    with pytest.raises(ConfigError, match="unknown run option 'max_concurency'; run options: target, output_path"):
        RunOptions.from_keywords(data=[], evaluators={"e": len}, max_concurency=3)


ZERO = "max_concurrency must be a positive integer, got 0"


def test_max_concurrency_is_checked_once_with_one_message_wherever_it_is_set():
    from agent_evaluators.calibration import calibrate

    attempts = {
        "RunSettings": lambda: RunSettings(max_concurrency=0),
        "evaluate()": lambda: evaluate(data=[{"response": "a"}], evaluators={"e": lambda **kw: 1}, max_concurrency=0),
        "evaluate_async()": lambda: asyncio.run(evaluate_async(data=[{"response": "a"}],
                                                               evaluators={"e": lambda **kw: 1}, max_concurrency=0)),
        "the table's check": lambda: checked("max_concurrency", 0),
        "calibrate()": lambda: calibrate("intent_resolution", {"model": "m", "base_url": "http://127.0.0.1:9/v1"},
                                         max_concurrency=0),
    }
    for where, attempt in attempts.items():
        with pytest.raises(ConfigError) as caught:
            attempt()
        assert str(caught.value) == ZERO, where
        assert caught.value.option == "max_concurrency", where


def test_options_that_are_wrong_only_together():
    with pytest.raises(ConfigError, match=r"judge_mode='batch' runs on the local engine only") as caught:
        RunSettings(engine="ray", judge_mode="batch")
    assert caught.value.option == "judge_mode"
    with pytest.raises(ConfigError, match=r"resume=True / rerun_failed=True need output_path"):
        RunSettings(resume=True)
    with pytest.raises(ConfigError, match=r"ray_address / num_workers apply to engine='ray' only"):
        RunSettings(num_workers=2)
    with pytest.raises(ConfigError, match=r"output_path is a folder for rows.jsonl and summary.json, not a .json file"):
        RunSettings(output_path=Path("x.json"))
