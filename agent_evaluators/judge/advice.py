"""What a failed judge call tells its reader to do, with the settings it names as references.

The judge client's messages name the run's ``max_concurrency``, the judge's ``timeout`` and
``api_key``, and where the judge's raw reply is kept; as :class:`~agent_evaluators.wording.Text`
references a command-line reader sees ``--max-concurrency``, ``--judge-timeout``,
``--judge-api-key-env`` and the run's ``rows.jsonl`` instead.
"""

from typing import Dict, Optional, Union

from ..wording import JudgeKey, Option, Text

#: what to do, by how the last attempt failed (``{concurrency}``, ``{timeout}``: references, ``{where}``: the URL)
_ADVICE = {
    "429": "The endpoint is rate-limiting: lower {concurrency}, or raise the deployment's quota.",
    "timeout": "The judge is too slow for the timeout: raise timeout ({timeout}) for slow local models, or lower "
               "{concurrency}.",
    "connect": "No connection could be made: check the URL; is the server running at {where}?",
    "dropped": "The connection kept breaking: check proxies / the server's logs, or retry later.",
    "5xx": "The endpoint is failing or overloaded: lower {concurrency}, check the endpoint and deployment, "
           "or retry later.",
}


def advice(kind: Optional[str], where: str) -> Text:
    """What to do when the last attempt failed this way (``kind``: ``429``, ``timeout``, ``connect``, ...)."""
    return Text(_ADVICE.get(kind or "5xx", _ADVICE["5xx"]), concurrency=Option("max_concurrency"),
                timeout=JudgeKey("timeout"), where=where)


def raw_text_kept(what: str) -> Text:
    """Where the judge's raw reply (``what``: reply, body, refusal) is kept: ``JudgeError.raw_text`` for a
    Python caller, the cell's details in ``rows.jsonl`` for a run from the command line."""
    return Text.keyed("raw-text", "The raw {what} is in JudgeError.raw_text", what=what)


def rejected_message(where: str, model: str, status: int, message: str, key_var: Optional[str],
                     withheld: Optional[str] = None) -> Text:
    """An HTTP error the judge will not retry; ``key_var``: the variable of the refused key, when a refused
    key is remembered for the rest of the run (``None``: an Entra ID token, refreshed instead);
    ``withheld``: why no key was sent at all (a key the environment holds, withheld from this host)."""
    refused: Union[str, Text] = ""
    if key_var is not None:
        refused = Text.keyed(
            "key-refused", "; no more requests are sent with this key in this run: put the right key in the "
            "variable agent-eval's --judge-api-key-env names (default {var}), or {key}", var=key_var,
            key=JudgeKey("api_key"))
    hints: Dict[int, Union[str, Text]] = {
        401: Text.keyed("check-key", "check the api_key / credential for this endpoint") + refused,
        403: "the key or identity has no access to this deployment" + refused,
        404: "check the model / azure_deployment name, base_url and api_version",
        400: "the request was rejected; check the model parameters in the template and the model name",
    }
    if withheld is not None:  # the host refused a request that carried no key: say why none was sent
        hints[401] = hints[403] = f"no key was sent: {withheld}"
    return Text("judge request to {where} (model {model!r}) failed with HTTP {status}: {message} ({hint})",
                where=where, model=model, status=status, message=message,
                hint=hints.get(status, "the request was rejected and is not retried"))
