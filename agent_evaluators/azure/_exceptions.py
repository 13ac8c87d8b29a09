"""azure-ai-evaluation 1.18's exception, so ``except EvaluationException`` keeps catching what this layer raises.

1.18 raises :class:`EvaluationException` (``azure.ai.evaluation._exceptions``) with a ``category``,
a ``blame`` and a ``target``; code written against it says ``except EvaluationException`` and reads
``err.blame == ErrorBlame.USER_ERROR``. This module has the same names with 1.18's values (the
module's path mirrors 1.18's, so ``from agent_evaluators.azure._exceptions import ...`` works too), and
every error raised through :mod:`agent_evaluators.azure` (a constructor, a call, ``evaluate()``) is
both: our own class (``InputError``, ``ConfigError``, ``JudgeError``, ..., with their structured fields
and their words, :mod:`agent_evaluators.wording`) and an ``EvaluationException`` with 1.18's fields.

The error object is the one our code raised: :func:`as_evaluation_exception` gives it a class that
derives from both (made once per class, kept here by name so it pickles) and sets 1.18's fields; its
message, fields and traceback are untouched. ``str()`` is our message, without 1.18's ``(UserError)``
prefix (the same text in an error cell and on a terminal).
"""

import contextlib
from enum import Enum
from typing import Any, Dict, Iterator, Optional, Type

from ..errors import AgentEvalError, ConfigError, EvaluatorErrors, InputError, JudgeError


class ErrorCategory(Enum):
    """1.18's error categories (its values)."""

    INVALID_VALUE = "INVALID VALUE"
    UNKNOWN_FIELD = "UNKNOWN FIELD"
    MISSING_FIELD = "MISSING FIELD"
    FILE_OR_FOLDER_NOT_FOUND = "FILE OR FOLDER NOT FOUND"
    RESOURCE_NOT_FOUND = "RESOURCE NOT FOUND"
    FAILED_EXECUTION = "FAILED_EXECUTION"
    SERVICE_UNAVAILABLE = "SERVICE UNAVAILABLE"
    MISSING_PACKAGE = "MISSING PACKAGE"
    FAILED_REMOTE_TRACKING = "FAILED REMOTE TRACKING"
    PROJECT_ACCESS_ERROR = "PROJECT ACCESS ERROR"
    UNKNOWN = "UNKNOWN"
    UPLOAD_ERROR = "UPLOAD ERROR"
    NOT_APPLICABLE = "NOT APPLICABLE"


class ErrorBlame(Enum):
    """Whose error it is, in 1.18's words."""

    USER_ERROR = "UserError"
    SYSTEM_ERROR = "SystemError"
    UNKNOWN = "Unknown"


class ErrorTarget(Enum):
    """The code area an error is about (1.18's values; the evaluators' are their class names)."""

    EVAL_RUN = "EvalRun"
    CODE_CLIENT = "CodeClient"
    RAI_CLIENT = "RAIClient"
    COHERENCE_EVALUATOR = "CoherenceEvaluator"
    COMPLETENESS_EVALUATOR = "CompletenessEvaluator"
    CONTENT_SAFETY_CHAT_EVALUATOR = "ContentSafetyEvaluator"
    ECI_EVALUATOR = "ECIEvaluator"
    F1_EVALUATOR = "F1Evaluator"
    GROUNDEDNESS_EVALUATOR = "GroundednessEvaluator"
    TASK_NAVIGATION_EFFICIENCY_EVALUATOR = "_TaskNavigationEfficiencyEvaluator"
    PROTECTED_MATERIAL_EVALUATOR = "ProtectedMaterialEvaluator"
    INTENT_RESOLUTION_EVALUATOR = "IntentResolutionEvaluator"
    RELEVANCE_EVALUATOR = "RelevanceEvaluator"
    SIMILARITY_EVALUATOR = "SimilarityEvaluator"
    FLUENCY_EVALUATOR = "FluencyEvaluator"
    RETRIEVAL_EVALUATOR = "RetrievalEvaluator"
    TOOL_CALL_SUCCESS_EVALUATOR = "_ToolCallSuccessEvaluator"
    TASK_ADHERENCE_EVALUATOR = "TaskAdherenceEvaluator"
    TASK_COMPLETION_EVALUATOR = "_TaskCompletionEvaluator"
    INDIRECT_ATTACK_EVALUATOR = "IndirectAttackEvaluator"
    INDIRECT_ATTACK_SIMULATOR = "IndirectAttackSimulator"
    ADVERSARIAL_SIMULATOR = "AdversarialSimulator"
    DIRECT_ATTACK_SIMULATOR = "DirectAttackSimulator"
    EVALUATE = "Evaluate"
    CALLBACK_CONVERSATION_BOT = "CallbackConversationBot"
    MODELS = "Models"
    UNKNOWN = "Unknown"
    CONVERSATION = "Conversation"
    TOOL_CALL_ACCURACY_EVALUATOR = "ToolCallAccuracyEvaluator"
    TOOL_SELECTION_EVALUATOR = "_ToolSelectionEvaluator"
    TOOL_INPUT_ACCURACY_EVALUATOR = "_ToolInputAccuracyEvaluator"
    RED_TEAM = "RedTeam"
    AOAI_GRADER = "AoaiGrader"
    CONVERSATION_HISTORY_PARSING = "_get_conversation_history"
    TOOL_OUTPUT_UTILIZATION_EVALUATOR = "ToolOutputUtilizationEvaluator"
    QA_EVALUATOR = "QAEvaluator"
    ROUGE_EVALUATOR = "RougeScoreEvaluator"
    DOCUMENT_RETRIEVAL_EVALUATOR = "DocumentRetrievalEvaluator"
    QUALITY_GRADER_EVALUATOR = "QualityGraderEvaluator"
    CUSTOMER_SATISFACTION_EVALUATOR = "CustomerSatisfactionEvaluator"
    DEFLECTION_RATE_EVALUATOR = "DeflectionRateEvaluator"
    REGEX_MATCH_EVALUATOR = "RegexMatchEvaluator"


class EvaluationException(Exception):
    """1.18's exception: ``message``, and ``internal_message``, ``target``, ``category``, ``blame``,
    ``tsg_link``, ``properties`` (its constructor, so code that raises one of its own keeps working).
    What this layer raises is also one of our errors (module docstring)."""

    category: ErrorCategory = ErrorCategory.UNKNOWN
    target: ErrorTarget = ErrorTarget.UNKNOWN
    blame: ErrorBlame = ErrorBlame.UNKNOWN
    internal_message: Optional[str] = None
    tsg_link: Optional[str] = None
    properties: Optional[Dict[str, Any]] = None

    def __init__(self, message: str = "", *args: Any, internal_message: Optional[str] = None,
                 target: ErrorTarget = ErrorTarget.UNKNOWN, category: ErrorCategory = ErrorCategory.UNKNOWN,
                 blame: ErrorBlame = ErrorBlame.UNKNOWN, tsg_link: Optional[str] = None,
                 properties: Optional[Dict[str, Any]] = None, **kwargs: Any) -> None:
        super().__init__(message, *args)
        self.category = category
        self.target = target
        self.blame = blame
        self.internal_message = internal_message
        self.tsg_link = tsg_link
        self.properties = properties


#: our error class -> (1.18's blame, its category) for it (the most specific class that matches wins)
_KINDS = (
    (JudgeError, ErrorBlame.SYSTEM_ERROR, ErrorCategory.FAILED_EXECUTION),
    (EvaluatorErrors, ErrorBlame.SYSTEM_ERROR, ErrorCategory.FAILED_EXECUTION),
    (InputError, ErrorBlame.USER_ERROR, ErrorCategory.INVALID_VALUE),
    (ConfigError, ErrorBlame.USER_ERROR, ErrorCategory.INVALID_VALUE),
    (AgentEvalError, ErrorBlame.UNKNOWN, ErrorCategory.UNKNOWN),
)
_BOTH: Dict[type, type] = {}


def _both(cls: Type[AgentEvalError]) -> type:
    """``cls`` and :class:`EvaluationException` in one class, made once and kept in this module by name."""
    made = _BOTH.get(cls)
    if made is None:
        name = f"_Azure{cls.__name__}"
        if cls.__module__ != "agent_evaluators.errors":
            name = f"_Azure{cls.__module__.replace('.', '_')}_{cls.__name__}"
        made = type(name, (cls, EvaluationException), {
            "__module__": __name__, "__qualname__": name,
            "__doc__": f"{cls.__name__}, raised through agent_evaluators.azure: also 1.18's EvaluationException."})
        globals()[name] = made
        _BOTH[cls] = made
    return made


for _cls in (JudgeError, EvaluatorErrors, InputError, ConfigError, AgentEvalError):
    _both(_cls)  # made at import: a pickled error of these classes loads in a fresh process


def _target(name: Optional[str]) -> ErrorTarget:
    if not name:
        return ErrorTarget.UNKNOWN
    for candidate in (name, "_" + name):
        try:
            return ErrorTarget(candidate)
        except ValueError:
            continue
    return ErrorTarget.UNKNOWN


def as_evaluation_exception(exc: AgentEvalError, target: Optional[str] = None) -> AgentEvalError:
    """``exc``, now also an :class:`EvaluationException` with 1.18's fields (the same object, returned).
    ``target``: the evaluator's class name or ``"Evaluate"`` (1.18's ``ErrorTarget``); ``UNKNOWN`` otherwise."""
    if isinstance(exc, EvaluationException):
        return exc
    blame, category = next((b, c) for kind, b, c in _KINDS if isinstance(exc, kind))
    exc.__class__ = _both(type(exc))
    fields = {"category": category, "blame": blame, "target": _target(target or exc.evaluator),
              "internal_message": None, "tsg_link": None, "properties": None}
    vars(exc).update(fields)
    return exc


@contextlib.contextmanager
def raised_as_1_18(target: Optional[str] = None) -> Iterator[None]:
    """Inside: an error of ours that leaves is also 1.18's :class:`EvaluationException`."""
    try:
        yield
    except AgentEvalError as exc:
        as_evaluation_exception(exc, target)
        raise
