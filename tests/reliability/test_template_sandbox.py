"""Users' own ``.prompty`` templates render in a sandbox: no attribute access to Python internals.

Each template below is a known Jinja server-side-template-injection (SSTI) gadget. Loading
may succeed, but rendering must fail with a clear ``ConfigError`` (the sandbox blocked it)
or ``InputError`` (an undefined name), never hand back Python internals, and never run a
command (the gadgets that would call ``os.popen`` try to create a marker file). Through
``PromptyEvaluator`` and ``evaluate()`` the same templates give an error cell and send
nothing to the judge.
"""


import pytest

from agent_evaluators import PromptyEvaluator, evaluate
from agent_evaluators.errors import ConfigError, InputError
from agent_evaluators.templates import Prompty, load_prompty
from agent_evaluators.testing import JudgeServer

FRONT = "---\nname: user-judge\ninputs:\n  response:\n    type: string\n---\nsystem:\nGrade it.\nuser:\n"

GADGETS = {
    "class mro subclasses": "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "input value class": "{{ response.__class__.__init__.__globals__ }}",
    "cycler globals": "{{ cycler.__init__.__globals__.os.popen('touch MARKER').read() }}",
    "lipsum globals": "{{ lipsum.__globals__['os'].popen('touch MARKER').read() }}",
    "joiner globals": "{{ joiner.__init__.__globals__ }}",
    "namespace globals": "{{ namespace.__init__.__globals__ }}",
    "self context": "{{ self._TemplateReference__context }}",
    "attr filter": "{{ response|attr('__class__')|attr('__mro__') }}",
    "format string": "{{ '{0.__class__.__mro__}'.format(response) }}",
    "set then use": "{% set c = response.__class__ %}{{ c.__subclasses__() }}",
    "for over subclasses": "{% for c in [].__class__.__base__.__subclasses__() %}{{ c }}{% endfor %}",
    "list mutation": "{% set xs = [1] %}{{ xs.append(2) }}{{ xs }}",
    "dict update": "{% set d = {} %}{{ d.update({'a': 1}) }}",
    "func globals": "{{ range.__call__.__globals__ }}",
    "getattr builtin": "{{ getattr(response, '__class__') }}",
    "import": "{% import 'os' as os %}{{ os }}",
    "include file": "{% include '/etc/passwd' %}",
}
LEAK_WORDS = ("<class", "__builtins__", "subprocess", "<module", "root:", "function ")


@pytest.mark.parametrize("name", list(GADGETS))
def test_gadget_is_blocked(tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "judge.prompty"
    path.write_text(FRONT + GADGETS[name].replace("MARKER", str(tmp_path / "pwned")) + "\n", encoding="utf-8")
    try:
        template = load_prompty(path)
    except ConfigError as exc:  # rejected at load (e.g. a syntax the loader refuses): fine, and clear
        assert str(path) in str(exc)
        return
    with pytest.raises((ConfigError, InputError)) as info:
        messages = template.render(response="an answer")
        pytest.fail(f"rendered: {messages!r}")
    assert str(path) in str(info.value), "the error names the template"
    assert not any(w in str(info.value) for w in LEAK_WORDS if w != "function "), str(info.value)
    assert not (tmp_path / "pwned").exists(), "a command ran"


def test_safe_template_features_still_work():
    t = Prompty.from_text(FRONT + "{% for w in ['a', 'b'] %}{{ w | upper }} {% endfor %}{{ response | length }}"
                          " {{ response | raw }}\n")
    assert t.render(response="abc") == [{"role": "system", "content": "Grade it."},
                                        {"role": "user", "content": '"A" "B" 3 abc'}]


@pytest.mark.parametrize("name", ["class mro subclasses", "lipsum globals", "attr filter"])
def test_prompty_evaluator_with_gadget_sends_nothing(tmp_path, name):
    path = tmp_path / "judge.prompty"
    path.write_text(FRONT + GADGETS[name].replace("MARKER", str(tmp_path / "pwned")) + "\n", encoding="utf-8")
    with JudgeServer() as server:
        ev = PromptyEvaluator(prompty=path, model_config=server.openai_config(), result_key="custom")
        with pytest.raises((ConfigError, InputError), match="sandbox|undefined"):
            ev(response="an answer")
        result = evaluate(data=[{"response": "an answer"}], evaluators={"custom": ev})
        requests = server.stats()["requests"]
    row = result.rows[0]
    assert row["outputs.custom.custom"] is None and row["outputs.custom.custom_result"] == "error"
    assert requests == 0, "a blocked template must not reach the judge"
    assert not (tmp_path / "pwned").exists()
