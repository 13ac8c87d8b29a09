"""Issue 21.3 (parts) and 21.16 (module:Class): what a run config may do with keys and the process.

Before: without ``api_key_env``, ``OPENAI_API_KEY`` went to whatever ``base_url`` a run config
named (and ``AZURE_OPENAI_API_KEY`` to its ``azure_endpoint``); a module beside the config stayed
on ``sys.path`` for the rest of the process; a ``module:Class`` whose instances are not callable
ended ``agent-eval run`` with a raw ``TypeError`` and exit 1. Driven through the CLI in a
subprocess against the local :class:`JudgeServer`, except the ``sys.path`` check, which is about
the calling process itself.
"""

import json
import secrets
import sys

from agent_evaluators import evaluate
from agent_evaluators.config.run_config import build_evaluators, load_config
from agent_evaluators.errors import ConfigError
from agent_evaluators.testing import JudgeServer, schema_reply
from tests.cli.helpers import agent_eval, clean_env, write_jsonl

ROWS = [{"query": "Book a table for two", "response": "Booked for 7pm."}]
KEY = "sk-env-" + secrets.token_hex(16)


def _config(tmp_path, judge, evaluators=None):
    write_jsonl(tmp_path / "rows.jsonl", ROWS)
    config = {"data": "rows.jsonl", "output": "out", "judge": {"model": "judge-model", **judge},
              "evaluators": evaluators or {"intent": {"type": "intent_resolution"}}}
    path = tmp_path / "run.json"
    path.write_text(json.dumps(config))
    return path


def _keys_seen(server):
    return {req.headers.get("authorization", "") for req in server.requests}


def test_the_environment_key_is_not_sent_to_a_host_only_the_config_names(tmp_path):
    with JudgeServer(schema_reply) as server:
        url = server.url + "/v1"
        config = _config(tmp_path, {"base_url": url})
        r = agent_eval("run", "--config", config, env=clean_env(OPENAI_API_KEY=KEY))
        seen = _keys_seen(server)
    assert r.rc == 0, r
    assert seen and not any(KEY in s for s in seen)
    assert f"OPENAI_API_KEY is not sent to {url}" in r.err and f"--judge-base-url {url}" in r.err, r
    assert KEY not in r.out + r.err


def test_the_environment_key_goes_where_the_user_named_the_host(tmp_path):
    with JudgeServer(schema_reply) as server:
        url = server.url + "/v1"
        config = _config(tmp_path, {"base_url": url})
        on_command_line = agent_eval("run", "--config", config, "--judge-base-url", url, "--force",
                                     env=clean_env(OPENAI_API_KEY=KEY))
        in_environment = agent_eval("run", "--config", config, "--force",
                                    env=clean_env(OPENAI_API_KEY=KEY, OPENAI_BASE_URL=url))
        seen = [req.headers.get("authorization", "") for req in server.requests]
    assert on_command_line.rc == 0 and in_environment.rc == 0, (on_command_line, in_environment)
    assert seen == [f"Bearer {KEY}"] * 2
    assert "is not sent to" not in on_command_line.err + in_environment.err


def test_an_explicit_api_key_env_in_the_config_is_honoured(tmp_path):
    with JudgeServer(schema_reply) as server:
        config = _config(tmp_path, {"base_url": server.url + "/v1", "api_key_env": "MY_JUDGE_KEY"})
        r = agent_eval("run", "--config", config, env=clean_env(MY_JUDGE_KEY=KEY))
        seen = _keys_seen(server)
    assert r.rc == 0 and seen == {f"Bearer {KEY}"}, r


def test_an_azure_endpoint_only_the_config_names_gets_no_environment_key(tmp_path):
    with JudgeServer(schema_reply) as server:
        config = _config(tmp_path, {"azure_endpoint": server.url, "azure_deployment": "judge"})
        r = agent_eval("run", "--config", config, env=clean_env(AZURE_OPENAI_API_KEY=KEY))
        assert server.stats()["requests"] == 0
    assert r.rc == 2 and f"AZURE_OPENAI_API_KEY is not sent to {server.url}" in r.err, r
    assert "--judge-azure-endpoint" in r.err and "Traceback" not in r.err and KEY not in r.err


def test_a_module_beside_the_config_leaves_sys_path_as_it_was(tmp_path):
    (tmp_path / "my_trust_evals.py").write_text(
        "class Length:\n    def __call__(self, response):\n        return {'length': len(response)}\n")
    config = _config(tmp_path, {}, {"length": {"type": "my_trust_evals:Length"}})
    before = list(sys.path)
    try:
        evaluators, _, _ = build_evaluators(load_config(config))
        assert evaluators["length"](response="abc") == {"length": 3}
        assert sys.path == before
    finally:
        sys.modules.pop("my_trust_evals", None)


def test_a_class_whose_instances_are_not_callable_is_a_config_error(tmp_path):
    (tmp_path / "my_flat_evals.py").write_text("class NotAnEvaluator:\n    pass\n")
    config = _config(tmp_path, {}, {"flat": {"type": "my_flat_evals:NotAnEvaluator"}})
    r = agent_eval("run", "--config", config, env=clean_env())
    assert r.rc == 2, r
    assert "evaluator 'flat' (my_flat_evals:NotAnEvaluator): NotAnEvaluator objects are not callable" in r.err
    assert "__call__" in r.err and "Traceback" not in r.err


def test_evaluate_with_an_object_that_is_not_callable_is_a_config_error(tmp_path):
    try:
        evaluate(data=ROWS, evaluators={"flat": object()})
    except ConfigError as exc:
        assert "evaluator 'flat' must be callable" in str(exc)
    else:
        raise AssertionError("no ConfigError")


def test_a_401_after_the_key_was_withheld_says_so_and_how_to_allow_it(tmp_path):
    """A host that needs the key answers 401 to the keyless request: every cell's reason says the key was
    withheld from that host and which flag allows it, not "check the key" (which sent users to rotate a
    key that was never sent)."""
    with JudgeServer(schema_reply, require_api_key=KEY) as server:
        url = server.url + "/v1"
        config = _config(tmp_path, {"base_url": url})
        r = agent_eval("run", "--config", config, env=clean_env(OPENAI_API_KEY=KEY))
        seen = _keys_seen(server)
    assert not any(KEY in s for s in seen)
    assert "HTTP 401" in r.out, r
    assert "no key was sent: OPENAI_API_KEY was withheld: only the run config names this host" in r.out, r
    assert "--judge-api-key-env OPENAI_API_KEY" in r.out and "check the api_key" not in r.out, r
    assert KEY not in r.out + r.err
