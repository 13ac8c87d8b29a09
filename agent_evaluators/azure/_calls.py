"""The calls 1.18 accepts, accepted the same way by every class of :mod:`agent_evaluators.azure`.

azure-ai-evaluation 1.18's evaluators take ``**kwargs`` and pick out the inputs they use, so a
loop such as ``for row in rows: ev(**row)`` works whatever columns a row has: ``Fluency(query=...)``,
``ToolInputAccuracy(tool_calls=...)``, a misspelt keyword are ignored. Its judge-backed and service
evaluators also swallow unknown constructor keywords (``temperature=``), except the "decision
model" execution controls, which it refuses for a chat model. A conversation with no assistant
reply is ``{}``. The top-level classes of :mod:`agent_evaluators` keep naming an unknown input as an
error (their meaning); this layer does what 1.18 does (:class:`AzureCall`, :func:`constructor_extras`).

Every error this layer raises is also 1.18's ``EvaluationException`` (:mod:`._exceptions`):
:class:`AzureCall` converts what leaves a call, :func:`azure_init` what leaves a constructor.
"""

import functools
import inspect
import logging
from typing import Any, Callable, ClassVar, Dict, Mapping, TypeVar

from ..errors import ConfigError
from ._exceptions import raised_as_1_18

logger = logging.getLogger(__name__)

F = TypeVar("F", bound=Callable[..., Any])

#: 1.18's "decision model" execution controls: refused with a chat-model config (its words below)
DECISION_CONTROLS = ("timeout", "timeout_seconds", "max_retries", "cancellation_requested", "max_request_bytes",
                     "max_state_question_bytes", "max_response_bytes")
DECISION_CONTROLS_REFUSED = "Decision execution controls are only supported by decision model evaluators."


def constructor_extras(owner: str, extras: Mapping[str, Any]) -> None:
    """1.18's handling of the constructor keywords an evaluator does not name: a decision-model
    control is a ``ConfigError`` with 1.18's words (no local evaluator serves decision models);
    anything else is ignored, as 1.18 ignores it (logged at debug level)."""
    refused = [name for name in DECISION_CONTROLS if extras.get(name) is not None]
    if refused:
        raise ConfigError(f"{owner}: {DECISION_CONTROLS_REFUSED} ({refused[0]}=)", evaluator=owner)
    for name in extras:
        logger.debug("%s: constructor keyword %s= is not used (azure-ai-evaluation 1.18 ignores it too)", owner, name)


def azure_init(init: F) -> F:
    """``init`` as this layer's constructor: its errors are also 1.18's ``EvaluationException``, and where
    the class ``takes_any_keyword`` (1.18's ``**kwargs``), the keywords ``init`` does not name go to
    :func:`constructor_extras`. The signature shown is ``init``'s."""
    if getattr(init, "__azure_init__", False):
        return init
    parameters = inspect.signature(init).parameters.values()
    named = frozenset(p.name for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))
    takes_all = any(p.kind is p.VAR_KEYWORD for p in parameters)

    @functools.wraps(init)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        owner = type(self).__name__
        with raised_as_1_18(owner):
            if getattr(self, "takes_any_keyword", False) and not takes_all and not named.issuperset(kwargs):
                constructor_extras(owner, {k: kwargs.pop(k) for k in list(kwargs) if k not in named})
            init(self, *args, **kwargs)

    __init__.__azure_init__ = True  # type: ignore[attr-defined]
    return __init__  # type: ignore[return-value]


class AzureCall:
    """Mixin (before the evaluator class) for every class of this layer: unknown inputs are ignored,
    an error that leaves a call or a constructor is also 1.18's ``EvaluationException``, and a required
    input whose column a row lacks reaches the evaluator as NaN in ``evaluate()``
    (``absent_column_is_nan``: what 1.18's pandas-read table passes; the evaluator then does what
    1.18 does with it). ``takes_any_keyword``: the constructor ignores keywords it does not name, as
    1.18's judge-backed and service evaluators do (its NLP and navigation evaluators do not)."""

    absent_column_is_nan = True
    #: the engine may map inputs it does not take (a shared ``"default"`` mapping): they are ignored here
    ignores_unknown_inputs = True
    takes_any_keyword: ClassVar[bool] = False

    _accepted_inputs: Any
    name: str

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        from ..evaluators.base import Evaluator

        if issubclass(cls, Evaluator):  # a concrete evaluator (a mixin has no constructor of its own to wrap)
            cls.__init__ = azure_init(cls.__init__)  # type: ignore[method-assign]

    def _bind(self, inputs: Dict[str, Any]) -> Dict[str, Any]:
        accepted = self._accepted_inputs
        if not accepted.issuperset(inputs):
            unused = [k for k in inputs if k not in accepted]
            logger.debug("%s: inputs %s are not used (azure-ai-evaluation 1.18 ignores them too)", self.name, unused)
            inputs = {k: v for k, v in inputs.items() if k in accepted}
        if isinstance(inputs.get("tool_definitions"), str):  # 1.18 takes them as JSON text too (a CSV column)
            from ._tools import definitions_from_text

            inputs = {**inputs, "tool_definitions": definitions_from_text(inputs["tool_definitions"])}
        return super()._bind(inputs)  # type: ignore[misc, no-any-return]

    def _run_sync(self, inputs: Dict[str, Any]) -> Dict[str, Any]:
        with raised_as_1_18(self.name):
            return super()._run_sync(inputs)  # type: ignore[misc, no-any-return]

    async def _run_async(self, inputs: Dict[str, Any]) -> Dict[str, Any]:
        with raised_as_1_18(self.name):
            return await super()._run_async(inputs)  # type: ignore[misc, no-any-return]
