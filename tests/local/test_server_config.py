"""The local provider's configuration errors, without starting llama.cpp (no model needed)."""

import re
import sys

import pytest

from agent_evaluators.cli.judge_serve import serve_main
from agent_evaluators.errors import ConfigError
from agent_evaluators.local_judge import LocalJudge, start_local_judge


def test_missing_model_file_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="local judge model file not found: .*nope.gguf.*pass the path of a .gguf"):
        start_local_judge(tmp_path / "nope.gguf")


def test_a_file_that_is_not_gguf_is_rejected(tmp_path):
    fake = tmp_path / "model.gguf"
    fake.write_bytes(b"PK\x03\x04 not a model")
    with pytest.raises(ConfigError, match="is not a GGUF model file"):
        start_local_judge(fake)


@pytest.mark.parametrize("kwargs,match", [({"port": -1}, "port must be"), ({"port": True}, "port must be"),
                                          ({"n_parallel": 0}, "n_parallel must be")])
def test_bad_numbers_are_rejected_before_loading(tmp_path, kwargs, match):
    model = tmp_path / "m.gguf"
    model.write_bytes(b"GGUF" + b"\0" * 16)
    with pytest.raises(ConfigError, match=match):
        start_local_judge(model, **kwargs)


def test_missing_xllamacpp_names_the_extra(tmp_path, monkeypatch):
    model = tmp_path / "m.gguf"
    model.write_bytes(b"GGUF" + b"\0" * 16)
    monkeypatch.setitem(sys.modules, "xllamacpp", None)  # what an environment without the extra looks like
    with pytest.raises(ConfigError, match=re.escape(
            "pip install 'agent-evaluators[local]' (from a checkout: pip install -e '.[local]')")):
        start_local_judge(model)


def test_serve_exits_2_with_the_reason(tmp_path, capsys):
    assert serve_main(["--model", str(tmp_path / "none.gguf"), "--port", "0"]) == 2
    assert "model file not found" in capsys.readouterr().err


def test_serve_requires_a_model(capsys):
    with pytest.raises(SystemExit) as exc:
        serve_main([])
    assert exc.value.code == 2 and "--model" in capsys.readouterr().err


def test_model_config_is_an_openai_compatible_dict(tmp_path):
    judge = LocalJudge(server=None, url="http://127.0.0.1:5000/", model="tiny", model_path=tmp_path, n_parallel=1)
    assert judge.model_config == {"model": "tiny", "base_url": "http://127.0.0.1:5000/v1", "api_key": "not-needed",
                                  "timeout": 600.0, "max_attempts": 2, "max_text_length": 1000,
                                  "max_list_items": 64}
    assert not judge.running and "stopped" in repr(judge)
