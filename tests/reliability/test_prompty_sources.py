"""Issue 14.5: a ``.prompty`` cannot read arbitrary local files or environment variables into the judge request.

Rule: ``${file:...}`` only for files inside the template's own folder (``..`` escapes, absolute
paths elsewhere and symlinks resolving outside are a ``ConfigError``); ``${env:...}`` only under
``model.configuration`` (how to reach the judge), never in inputs, defaults, parameters or
samples. The error names the template file and the key. Templates written the way promptflow's
docs write them (``${env:...}`` in the connection, ``${file:sample.json}`` next to the file)
and every shipped template still load.
"""

import os
from pathlib import Path

import pytest

from agent_evaluators import PromptyEvaluator
from agent_evaluators.errors import ConfigError
from agent_evaluators.templates import Prompty, load_prompty

SECRET = "s3cret-" + "x" * 12
BODY = "---\nsystem:\nGrade it.\nuser:\n{{query}}\n"


def _write(folder: Path, front: str, name: str = "judge.prompty") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("---\n" + front.strip("\n") + "\n" + BODY, encoding="utf-8")
    return path


@pytest.fixture()
def outside(tmp_path: Path) -> Path:
    """A secret file outside the template folder (``tmp_path/templates``)."""
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET, encoding="utf-8")
    return secret


def _assert_refused(path: Path, key: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_prompty(path)
    message = str(info.value)
    assert str(path) in message and repr(key) in message, message
    assert SECRET not in message


@pytest.mark.parametrize(
    "front, key",
    [
        ("inputs:\n  query:\n    default: '${file:%(abs)s}'", "inputs.query.default"),
        ("inputs:\n  query:\n    default: '${file:../secret.txt}'", "inputs.query.default"),
        ("inputs:\n  query:\n    type: string\nsample:\n  query: '${file:../secret.txt}'", "sample.query"),
        ("model:\n  parameters:\n    user: '${file:%(abs)s}'\ninputs:\n  query: {type: string}", "model.parameters.user"),
        ("model:\n  configuration:\n    api_key: '${file:../secret.txt}'", "model.configuration.api_key"),
        ("inputs:\n  query:\n    default: '${file:/etc/passwd}'", "inputs.query.default"),
    ],
)
def test_file_reference_outside_the_template_folder_is_refused(tmp_path: Path, outside: Path, front: str, key: str) -> None:
    path = _write(tmp_path / "templates", front % {"abs": outside})
    _assert_refused(path, key)


def test_symlink_inside_the_folder_pointing_outside_is_refused(tmp_path: Path, outside: Path) -> None:
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "innocent.txt").symlink_to(outside)
    path = _write(folder, "inputs:\n  query:\n    default: '${file:innocent.txt}'")
    _assert_refused(path, "inputs.query.default")


def test_dotdot_that_comes_back_inside_and_symlinks_within_the_folder_are_fine(tmp_path: Path) -> None:
    folder = tmp_path / "templates"
    (folder / "data").mkdir(parents=True)
    (folder / "data" / "sample.json").write_text('{"query": "hi"}', encoding="utf-8")
    (folder / "alias.json").symlink_to(folder / "data" / "sample.json")
    path = _write(folder, "inputs:\n  query: {type: string}\nsample: ${file:../templates/data/sample.json}")
    assert load_prompty(path).sample == {"query": "hi"}
    path = _write(folder, "inputs:\n  query: {type: string}\nsample: ${file:alias.json}")
    assert load_prompty(path).sample == {"query": "hi"}


@pytest.mark.parametrize(
    "front, key",
    [
        ("model:\n  parameters:\n    user: '${env:AE_SOURCE_SECRET}'\ninputs:\n  query: {type: string}", "model.parameters.user"),
        ("inputs:\n  query:\n    default: '${env:AE_SOURCE_SECRET}'", "inputs.query.default"),
        ("inputs:\n  query: {type: string}\nsample:\n  query: '${env:AE_SOURCE_SECRET}'", "sample.query"),
        ("name: '${env:AE_SOURCE_SECRET}'\ninputs:\n  query: {type: string}", "name"),
        (
            "model:\n  parameters:\n    stop: ['${env:AE_SOURCE_SECRET}']\ninputs:\n  query: {type: string}",
            "model.parameters.stop[0]",
        ),
    ],
)
def test_env_reference_outside_model_configuration_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, front: str, key: str
) -> None:
    monkeypatch.setenv("AE_SOURCE_SECRET", SECRET)
    path = _write(tmp_path, front)
    _assert_refused(path, key)
    with pytest.raises(ConfigError, match="AE_SOURCE_SECRET"):
        Prompty.from_text(path.read_text(encoding="utf-8"), source="inline.prompty")


def test_prompty_evaluator_refuses_before_any_request(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AE_SOURCE_SECRET", SECRET)
    path = _write(tmp_path, "model:\n  parameters:\n    user: '${env:AE_SOURCE_SECRET}'\ninputs:\n  query: {type: string}")
    with pytest.raises(ConfigError, match=r"model\.parameters\.user"):
        PromptyEvaluator(prompty=path, model_config={"type": "openai", "model": "m", "base_url": "http://127.0.0.1:9"})


def test_file_reference_in_a_template_given_as_text_is_refused() -> None:
    """The old loader read relative paths against the working directory."""
    with pytest.raises(ConfigError, match="no folder"):
        Prompty.from_text("---\ninputs:\n  query:\n    default: '${file:sample.json}'\n" + BODY, source="t.prompty")


def test_promptflow_style_template_still_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The front matter of promptflow's docs: env vars in the connection, a sample file next to the template."""
    monkeypatch.setenv("AZURE_OPENAI_DEPLOYMENT", "gpt-4o")
    monkeypatch.setenv("AZURE_OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("AZURE_OPENAI_ENDPOINT", "https://example.openai.azure.com")
    (tmp_path / "sample.json").write_text('{"query": "What is 2+2?"}', encoding="utf-8")
    front = (
        "name: Basic\nmodel:\n  api: chat\n  configuration:\n    type: azure_openai\n"
        "    azure_deployment: ${env:AZURE_OPENAI_DEPLOYMENT}\n    api_key: ${env:AZURE_OPENAI_API_KEY}\n"
        "    azure_endpoint: ${env:AZURE_OPENAI_ENDPOINT}\n  parameters:\n    temperature: 0.0\n"
        "    response_format:\n      type: json_object\ninputs:\n  query:\n    type: string\nsample: ${file:sample.json}"
    )
    prompty = load_prompty(_write(tmp_path, front))
    assert prompty.model["configuration"] == {
        "type": "azure_openai",
        "azure_deployment": "gpt-4o",
        "api_key": SECRET,
        "azure_endpoint": "https://example.openai.azure.com",
    }
    assert prompty.sample == {"query": "What is 2+2?"}
    assert SECRET not in str(prompty.render(query="q"))


def test_every_shipped_template_loads() -> None:
    folder = Path(__file__).resolve().parents[2] / "prompty"
    shipped = sorted(folder.glob("*.prompty"))
    assert len(shipped) >= 10
    for path in shipped:
        assert load_prompty(os.fspath(path)).name
