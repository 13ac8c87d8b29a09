"""The shared machinery of judge-backed evaluators.

A judge metric says which ``.prompty`` template it renders and what verdict it
expects (a pydantic model); :class:`JudgeEvaluator` does the rest once: resolve
the judge client, render the template in the sandbox, call the judge with
structured output, validate the verdict, and attach usage. Subclasses stay a
few lines long (inspect_ai's scorers are the model).

:class:`PromptyEvaluator` is the public base for users' own judge templates: the
template's ``inputs`` become the evaluator's keyword inputs, and the verdict is
``{"reason": str, "score": number}`` on the declared scale.
"""

import asyncio
import inspect
import math
import os
import sys
from collections.abc import Mapping  # not typing.Mapping: isinstance() against it is 3x slower
from typing import Any, ClassVar, Dict, List, Optional, Tuple, Type, TypedDict, TypeVar

from pydantic import BaseModel, ConfigDict, Field, create_model

if sys.version_info >= (3, 11):
    from typing import Unpack
else:  # pydantic depends on typing_extensions
    from typing_extensions import Unpack

from .._util import validators
from ..errors import ConfigError, InputError, JudgeError
from ..judge.usage import merge_usage
from ..run_context import scoped
from ..wording import JudgeKey
from .base import Evaluator, Outcome
from .panel import JudgePanel, current_judge, panel_configs, without_name

__all__ = [
    "JudgeEvaluator",
    "JudgeOptions",
    "Unpack",
    "PromptyEvaluator",
    "LikertVerdict",
    "likert_verdict",
    "check_num_samples",
    "check_temperature",
]

V = TypeVar("V", bound=BaseModel)


class LikertVerdict(BaseModel):
    """A reason first (so the judge reasons before it scores), then an integer score 1–5."""

    model_config = ConfigDict(extra="forbid")
    reason: str
    score: int = Field(ge=1, le=5)


def likert_verdict(low: float, high: float, integer: bool = True) -> Type[BaseModel]:
    """A ``{"reason", "score"}`` verdict model whose score is bounded to ``[low, high]``."""
    kind: Any = int if integer else float
    return create_model(
        f"Verdict_{int(low)}_{int(high)}",
        __config__=ConfigDict(extra="forbid"),
        reason=(str, ...),
        score=(kind, Field(ge=low, le=high)),
    )


class JudgeOptions(TypedDict, total=False):
    """The options every judge evaluator takes, declared once.

    A subclass that adds options of its own writes ``**judge: Unpack[JudgeOptions]``
    and forwards them to ``super().__init__(model_config, **judge)``: its public
    signature (``inspect.signature``, ``agent-eval list``, docs) still lists each of
    these by name (:meth:`JudgeEvaluator.__init_subclass__` writes it), and a
    misspelled keyword still raises ``TypeError`` naming it, from the base.
    """

    threshold: Optional[float]
    is_reasoning_model: bool
    credential: Any
    cache: Optional[str]


#: the judge options' parameters, keyword-only, as they appear in every judge evaluator's signature
_JUDGE_PARAMETERS = (
    inspect.Parameter("threshold", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=Optional[float]),
    inspect.Parameter("is_reasoning_model", inspect.Parameter.KEYWORD_ONLY, default=False, annotation=bool),
    inspect.Parameter("credential", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=Any),
    inspect.Parameter("cache", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=Optional[str]),
)

#: largest rendered prompt sent to a judge, in characters (about 100k tokens): a bigger row is
#: almost always a mistake (a log file, a base64 image pasted as text) and would cost real
#: money or overflow the model's context; raise it with the ``max_input_chars`` key of the
#: model config (``--judge-max-input-chars``, YAML ``judge.max_input_chars``)
DEFAULT_MAX_INPUT_CHARS = 400_000

#: sampling temperature range, the same for every sampled judge metric (OpenAI's range)
TEMPERATURE_RANGE = (0.0, 2.0)


def check_num_samples(owner: str, value: Any) -> int:
    """``num_samples`` of a sampled judge metric: an integer >= 1."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(f"{owner}: num_samples must be an integer >= 1, got {value!r}")
    return value


def check_temperature(owner: str, value: Any) -> float:
    """The sampling ``temperature`` of a sampled judge metric, in :data:`TEMPERATURE_RANGE`."""
    low, high = TEMPERATURE_RANGE
    if (isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
            or not low <= value <= high):
        raise ConfigError(f"{owner}: temperature must be a number in [{low:g}, {high:g}], got {value!r}")
    return float(value)


class JudgeEvaluator(Evaluator):
    """Base of evaluators that ask a judge model for a verdict.

    Args:
        model_config: azure-ai-evaluation-style model config dict, an ``openai``
            client, or ``None`` to read the judge from the environment.
        threshold: pass mark; defaults to the metric's ``default_threshold``.
        is_reasoning_model: send ``max_completion_tokens`` and no temperature
            (needed for Azure deployments of o-series / gpt-5 models with
            arbitrary names; model names are recognised automatically).
        credential: accepted for azure-ai-evaluation compatibility (Entra ID
            token provider object); used when the config has no api_key.
        cache: path of an on-disk sqlite cache of judge replies (errors are never cached).

    The template is loaded when the evaluator is built. The model config is resolved and
    the :class:`~agent_evaluators.judge.JudgeClient` built once per evaluator, on first use
    (``check_ready`` or the first request), and reused by every request; the client keeps
    one HTTP client per event loop. It is never pickled: a copy (e.g. on a Ray worker)
    builds its own on first use.
    """

    uses_judge = True
    #: file name of the template in the top-level ``prompty/`` folder.
    template_name: ClassVar[str] = ""

    def __init__(
        self,
        model_config: Any = None,
        *,
        threshold: Optional[float] = None,
        is_reasoning_model: bool = False,
        credential: Any = None,
        cache: Optional[str] = None,
    ) -> None:
        super().__init__(threshold=threshold)
        configs = panel_configs(type(self).__name__, model_config)
        if configs is not None and len(configs) > 1:  # a panel: every judge asked, their verdicts combined
            self._model_config: Any = [_with_credential(c, credential) for c in configs]
            self._panel = JudgePanel(self._model_config)
            self._panel_clients: List[Any] = [None] * len(configs)
        else:
            self._model_config = _with_credential(without_name(configs[0]) if configs else model_config, credential)
        self._is_reasoning_model = bool(is_reasoning_model)
        self._cache = cache
        self._prompty: Any = None
        self._judge_client: Any = None
        if self.template_name:
            self.prompty  # noqa: B018 - load now: a broken template fails here, and no row pays for the load

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # the __init__ this class runs: its own, a mixin's (ADK rubric metrics) or the base's (a no-op)
        _spell_out_judge_options(cls, cls.__init__)

    # -------------------------------------------------------------- template
    @property
    def prompty(self) -> Any:
        """The loaded template (loaded on first use, then kept)."""
        if self._prompty is None:
            from ..templates import load_prompty

            self._prompty = load_prompty(_template_path(type(self)))
        return self._prompty

    @property
    def judge_config(self) -> Dict[str, Any]:
        """What identifies this evaluator's configuration (never secrets): the class, the
        template, the judge options and every public attribute (the metric's own options)."""
        own = {k: v for k, v in vars(self).items() if not k.startswith("_") and k != "threshold"}
        return {
            "class": type(self).__name__,
            "threshold": self.threshold,
            "template_hash": self.prompty.template_hash,
            "is_reasoning_model": self._is_reasoning_model,
            **own,
        }

    def _repr_extra(self) -> Dict[str, Any]:
        """The judge model and endpoint (a ``?key=`` in the URL masked; the API key never)."""
        cfg = self._model_config
        if self._panel is not None:
            return {"judges": self._panel.labels}
        if not isinstance(cfg, Mapping):
            return {} if cfg is None else {"model_config": type(cfg).__name__}
        from ..judge.endpoint import public_url

        out: Dict[str, Any] = {}
        model = cfg.get("model") or cfg.get("azure_deployment")
        where = cfg.get("base_url") or cfg.get("azure_endpoint")
        if isinstance(model, str):
            out["model"] = model
        if isinstance(where, str):
            out["endpoint"] = public_url(where)
        if self._is_reasoning_model:
            out["is_reasoning_model"] = True
        return out

    # -------------------------------------------------------------- judging
    def check_ready(self) -> None:
        """Raise ``ConfigError`` now when no usable judge is configured.

        ``evaluate()`` calls this before the first row, so a missing key or endpoint is one
        clear error instead of an error cell on every row. Nothing is sent over the network.
        """
        for _ in self._each_judge():
            self._client()

    def _each_judge(self) -> Any:
        """Make each judge of a panel the current one in turn (once for a single judge)."""
        for i in range(len(self._panel) if self._panel is not None else 1):
            with scoped(panel_index=i):
                yield i

    def _current_model_config(self) -> Any:
        """The model config of the judge asked now (a panel's current judge, :func:`.panel.current_judge`)."""
        panel = self._panel
        return self._model_config if panel is None else panel.configs[current_judge()]

    def _client(self) -> Any:
        """This evaluator's judge client (the current panel judge's), built on first use and then reused."""
        panel = self._panel
        client = self._judge_client if panel is None else self._panel_clients[current_judge()]
        if client is None:
            from ..judge import get_judge_client

            model_config = self._current_model_config()
            if isinstance(model_config, Mapping) and "max_input_chars" in model_config:
                # ours, not the HTTP client's: read by _check_input_size
                model_config = {k: v for k, v in model_config.items() if k != "max_input_chars"}
            client = get_judge_client(model_config, is_reasoning_model=self._is_reasoning_model, cache=self._cache)
            if panel is None:
                self._judge_client = client
            else:
                client.cache_scope = panel.labels[current_judge()]
                self._panel_clients[current_judge()] = client
        return client

    async def _ask(
        self,
        verdict_model: Type[V],
        inputs: Mapping[str, Any],
        *,
        params: Optional[Mapping[str, Any]] = None,
        sample_index: int = 0,
    ) -> Tuple[V, Dict[str, Any]]:
        """Render the template with ``inputs``, ask the judge, return (verdict, usage)."""
        prompty = self.prompty
        messages = prompty.render(**inputs)
        self._check_input_size(messages, inputs)
        merged = {k: v for k, v in prompty.parameters.items() if k != "response_format"}
        if params:
            merged.update(params)
        try:
            reply = await self._client().complete(
                messages,
                output_model=verdict_model,
                params=merged,
                sample_index=sample_index,
                template_hash=prompty.template_hash,
            )
        except JudgeError as exc:
            raise JudgeError(
                self.name + ": " + exc.text,
                raw_text=exc.raw_text,
                status_code=exc.status_code,
                attempts=exc.attempts,
                usage=exc.usage,
                evaluator=self.name,
                key=exc.key,
            ) from exc
        return reply.data, reply.usage

    def _max_input_chars(self) -> int:
        cfg = self._current_model_config()
        # read twice per judge call: a plain dict without the ABC check first
        limit = cfg.get("max_input_chars") if type(cfg) is dict or isinstance(cfg, Mapping) else None
        if limit is None:
            return DEFAULT_MAX_INPUT_CHARS
        try:
            return validators.positive_int(JudgeKey("max_input_chars"), limit)
        except ConfigError as exc:
            raise ConfigError(self.name + ": " + exc.text, evaluator=self.name) from None

    def _check_input_size(self, messages: Any, inputs: Mapping[str, Any]) -> None:
        """Refuse, before any request, a prompt larger than ``max_input_chars`` (an error cell, not a bill)."""
        size = 0
        for m in messages:  # rendered messages: dicts with text content
            content = m.get("content") if type(m) is dict or isinstance(m, Mapping) else m
            size += len(content) if type(content) is str else len(str(content or ""))
        self._refuse_over_limit(size, inputs)

    def _refuse_over_limit(self, size: int, inputs: Mapping[str, Any]) -> None:
        """An ``InputError`` when ``size`` characters (a prompt's, or a row's raw input) pass ``max_input_chars``."""
        limit = self._max_input_chars()
        if size > limit:
            biggest = max(inputs, key=lambda k: len(str(inputs[k])), default="")
            raise InputError(
                f"{self.name}: the prompt for this row is {size:,} characters, over the limit of {limit:,} "
                f"(max_input_chars); the largest input is {biggest!r} ({len(str(inputs.get(biggest, ''))):,} characters). "
                "Shorten it, map a smaller column, or raise max_input_chars in the model config "
                "(--judge-max-input-chars, judge.max_input_chars)",
                evaluator=self.name, input_name=biggest or None,
            )

    async def _ask_samples(
        self,
        verdict_model: Type[V],
        inputs: Mapping[str, Any],
        *,
        num_samples: int,
        temperature: Optional[float],
    ) -> Tuple[List[V], Optional[Dict[str, Any]]]:
        """``num_samples`` concurrent judge requests for the same prompt.

        Each has its own ``sample_index`` (so a cache never collapses them) and the
        sampling temperature. Any failed sample fails the whole set with
        :class:`JudgeError` once every request has finished (ADK: that invocation is
        not evaluated); no request is left running. Shared by every sampled metric
        (ADK's voted criteria, the rubric judge).
        """
        params = {"temperature": temperature} if temperature is not None else None
        replies = await asyncio.gather(
            *(self._ask(verdict_model, inputs, params=params, sample_index=i) for i in range(num_samples)),
            return_exceptions=True,
        )
        failures = [(i, r) for i, r in enumerate(replies) if isinstance(r, BaseException)]
        usage = merge_usage([r[1] for r in replies if not isinstance(r, BaseException)])
        if failures:
            i, exc = failures[0]
            if not isinstance(exc, JudgeError) or num_samples == 1:  # a bug, a cancellation, or nothing to add
                raise exc
            raise JudgeError(
                f"{self.name}: sample {i + 1} of {num_samples} failed, so the invocation is not evaluated: {exc}",
                raw_text=exc.raw_text,
                status_code=exc.status_code,
                attempts=exc.attempts,
                usage=usage,
            ) from exc
        return [r[0] for r in replies], usage  # type: ignore[index]

    def __reduce__(self) -> Any:
        # Judge clients hold sockets bound to an event loop (and a cache connection):
        # ship configuration only; the copy builds its own client on first use.
        state = dict(self.__dict__, _prompty=None, _judge_client=None)
        if self._panel is not None:
            state["_panel_clients"] = [None] * len(self._panel)
        return (_rebuild, (type(self), state))


def _template_path(cls: type) -> Any:
    """Where a class's ``template_name`` is: beside the module of a class of your own (a metric
    in your package ships its template with it), else in the package's ``prompty/`` folder."""
    from ..templates import find_template

    name = cls.template_name  # type: ignore[attr-defined]
    if not cls.__module__.startswith("agent_evaluators."):
        from pathlib import Path

        module = sys.modules.get(cls.__module__)
        beside = Path(getattr(module, "__file__", None) or ".").resolve().parent / name
        if beside.is_file():
            return beside
    return find_template(name)


def _rebuild(cls: Any, state: Dict[str, Any]) -> Any:
    obj = cls.__new__(cls)
    obj.__dict__.update(state)
    return obj


def _spell_out_judge_options(cls: type, init: Any) -> None:
    """Give a subclass ``__init__`` that forwards ``**judge`` the judge options by name in its signature."""
    sig = inspect.signature(init)
    params = list(sig.parameters.values())
    var_kw = [p for p in params if p.kind is inspect.Parameter.VAR_KEYWORD]
    if not var_kw:
        return
    own = [p for p in params if p.kind is not inspect.Parameter.VAR_KEYWORD]
    taken = {p.name for p in own}
    merged = own + [p for p in _JUDGE_PARAMETERS if p.name not in taken]
    init.__signature__ = sig.replace(parameters=merged)


def _with_credential(model_config: Any, credential: Any) -> Any:
    if credential is None:
        return model_config
    if isinstance(model_config, Mapping):
        merged = dict(model_config)
        merged.setdefault("credential", credential)
        return merged
    return model_config


# ---------------------------------------------------------------------------- users' own templates
_PROMPTY_TYPES: Dict[str, Any] = {
    "string": Any,
    "str": Any,
    "list": Any,
    "object": Any,
    "dict": Any,
    "int": Any,
    "double": Any,
    "float": Any,
    "bool": Any,
}


class PromptyEvaluator(JudgeEvaluator):
    """A judge evaluator built from a user's own ``.prompty`` file.

    The template's declared ``inputs`` become this evaluator's keyword inputs
    (required unless they declare a default or ``optional: true``), so an unknown
    or missing input raises ``InputError`` exactly as with the built-in metrics.
    The judge must answer ``{"reason": str, "score": number}`` with the score on
    ``scale``; the score is reported as given and passes at ``score >= threshold``.

    Example::

        helpful = PromptyEvaluator(prompty="helpfulness.prompty", model_config=judge,
                                   result_key="helpfulness", threshold=4, scale=(1, 5))
        helpful(question="...", answer="...")
    """

    def __new__(cls, *args: Any, **kwargs: Any) -> "PromptyEvaluator":
        if cls is not PromptyEvaluator:
            return super().__new__(cls)
        path = kwargs.get("prompty", args[0] if args else None)
        if path is None:
            raise ConfigError("PromptyEvaluator: pass prompty=<path to a .prompty file>")
        from ..templates import load_prompty

        template = load_prompty(os.fspath(path))
        sub = _prompty_subclass(template)
        obj: "PromptyEvaluator" = super().__new__(sub)
        obj._prompty = template
        return obj

    def __init__(
        self,
        prompty: Any = None,
        model_config: Any = None,
        *,
        result_key: str = "score",
        scale: Tuple[float, float] = (1, 5),
        **judge: Unpack[JudgeOptions],
    ) -> None:
        template = self._prompty
        threshold = judge.get("threshold")
        low, high = scale
        if not low < high:
            raise ConfigError(f"PromptyEvaluator: scale must be (low, high) with low < high, got {scale!r}")
        self.result_key = result_key  # type: ignore[misc]
        self.default_threshold = (low + high) / 2 if threshold is None else threshold  # type: ignore[misc]
        super().__init__(model_config, **judge)
        self._prompty = template
        self._prompty_path = os.fspath(prompty) if prompty is not None else None
        self.scale = (low, high)
        self._verdict = likert_verdict(low, high, integer=float(low).is_integer() and float(high).is_integer())

    @property
    def score_scale(self) -> Tuple[float, float]:  # type: ignore[override]  # the scale given, per instance
        return float(self.scale[0]), float(self.scale[1])

    def __reduce__(self) -> Any:
        return (
            _rebuild_prompty,
            (self._prompty_path, self._model_config, self.result_key, self.threshold, self.scale,
             self._is_reasoning_model, self._cache),
        )


def _rebuild_prompty(path: str, model_config: Any, result_key: str, threshold: float,
                     scale: Tuple[float, float], reasoning: bool, cache: Optional[str]) -> PromptyEvaluator:
    return PromptyEvaluator(prompty=path, model_config=model_config, result_key=result_key,
                            threshold=threshold, scale=scale, is_reasoning_model=reasoning, cache=cache)


def _prompty_subclass(template: Any) -> type:
    """A PromptyEvaluator subclass whose ``_evaluate`` signature is the template's inputs."""
    params = []
    for name, spec in template.inputs.items():
        if not name.isidentifier():
            raise ConfigError(f"PromptyEvaluator: template input {name!r} is not a valid Python identifier")
        spec = spec or {}
        optional = bool(spec.get("optional")) or "default" in spec
        params.append(
            inspect.Parameter(
                name,
                inspect.Parameter.KEYWORD_ONLY,
                default=spec.get("default") if optional else inspect.Parameter.empty,
                annotation=_PROMPTY_TYPES.get(str(spec.get("type", "string")).lower(), Any),
            )
        )
    params.sort(key=lambda p: p.default is not inspect.Parameter.empty)

    async def _evaluate(self: PromptyEvaluator, **inputs: Any) -> Outcome:
        verdict: Any
        verdict, usage = await self._ask(self._verdict, inputs)
        return Outcome(float(verdict.score), verdict.reason, None, usage)

    _evaluate.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)] + params
    )
    name = "".join(part.capitalize() for part in str(template.name or "Custom").replace("-", " ").split()) or "Custom"
    return type(f"{name}PromptyEvaluator", (PromptyEvaluator,), {"_evaluate": _evaluate, "__module__": __name__})
