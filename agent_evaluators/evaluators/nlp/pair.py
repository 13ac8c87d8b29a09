"""The shared base of the text-pair metrics (F1, BLEU, GLEU, METEOR): ``response`` against ``ground_truth``.

A metric says how to score two texts (:meth:`_PairMetric.score_texts`); this base reads the
inputs, builds the outcome and the reason. The same scoring function serves the
top-level class (our result dict) and the :mod:`agent_evaluators.azure` class (azure 1.18's),
so the two cannot give different numbers.
"""

from typing import Any, ClassVar, Dict, List, Tuple, Union

from ...errors import InputError
from ..base import Evaluator, Outcome

TextInput = Union[str, List[Any], Dict[str, Any]]

#: the longest text a pair metric counts, in characters: the judge metrics' default prompt limit
#: (``max_input_chars``, 400,000), since a text this long is almost always a mistake (a log file, an
#: image pasted as base64) and counting it costs memory in proportion; raise it per evaluator with
#: its ``max_input_chars`` attribute
DEFAULT_MAX_INPUT_CHARS = 400_000


def answer_text(evaluator: Any, value: Any, name: str) -> str:
    """``value`` as text: a string as given (empty included: azure scores it), or the final
    assistant text of a message list (none: ``""``)."""
    if isinstance(value, str):
        return value
    if value is None or isinstance(value, (bool, int, float)):
        raise InputError(
            f"{evaluator.name}: input {name!r} must be text or a message list, got {type(value).__name__}",
            evaluator=evaluator.name,
            input_name=name,
        )
    from ...conversation import final_text, to_messages

    return final_text(to_messages(value, input_name=name, default_role="assistant")) or ""


class _PairMetric(Evaluator):
    """A 0–1 score of ``response`` against ``ground_truth``; pass at ``score >= threshold`` (0.5)."""

    score_scale = (0.0, 1.0)
    default_threshold = 0.5
    #: how the reason names the score (``"token F1"``, ``"BLEU"`` ...)
    metric_label: ClassVar[str] = ""
    #: a longer ``response`` or ``ground_truth`` is refused before any counting (an error cell)
    max_input_chars: int = DEFAULT_MAX_INPUT_CHARS

    def __init__(self, *, threshold: float = 0.5) -> None:
        super().__init__(threshold=threshold)

    def score_texts(self, response: str, ground_truth: str) -> Tuple[float, Dict[str, Any]]:
        """The score and its details for two texts (no input checks)."""
        raise NotImplementedError

    def _evaluate(self, *, response: TextInput, ground_truth: TextInput) -> Outcome:
        if type(response) is not str:  # text as given costs no call
            response = answer_text(self, response, "response")
        if type(ground_truth) is not str:
            ground_truth = answer_text(self, ground_truth, "ground_truth")
        for name, text in (("response", response), ("ground_truth", ground_truth)):
            if len(text) > self.max_input_chars:  # type: ignore[arg-type]
                raise InputError(
                    f"{self.name}: input {name!r} is {len(text):,} characters, over the limit of "  # type: ignore[arg-type]
                    f"{self.max_input_chars:,} (max_input_chars); it is refused before counting. Shorten it, map "
                    f"a smaller column, or raise the evaluator's max_input_chars attribute",
                    evaluator=self.name, input_name=name)
        score, details = self.score_texts(response, ground_truth)  # type: ignore[arg-type]
        if not self.writes_reason:
            return Outcome(score, "", details)
        verdict = "at or above" if score >= self.threshold else "below"
        return Outcome(score, f"{self.metric_label} {score:.3f}, {verdict} the threshold {self.threshold}", details)
