"""The response-quality judges azure-ai-evaluation users run on every response, as declarations.

* :class:`RelevanceEvaluator`: does the response answer what was asked (1–5).
* :class:`CoherenceEvaluator`: do the response's ideas follow from one another (1–5).
* :class:`FluencyEvaluator`: how well the response is written, whatever it says (1–5).
* :class:`SimilarityEvaluator`: how close the response's meaning is to a reference answer (1–5).
* :class:`RetrievalEvaluator`: how relevant and well ranked retrieved context is for the query (1–5).

Groundedness, which reads its context from the agent's tool results, is in :mod:`.groundedness`.
Scales, inputs and default thresholds are azure-ai-evaluation 1.18's (pass at score ≥ 3); the
templates and the structured verdicts are ours, and what the judge lists besides its score
(unaddressed parts, logic breaks, writing errors, differences, missing information) goes to
``<key>_details``.
"""

from typing import List

from ..conversation.transcript import Reads
from .declared import CalibrationCases, ContextInput, DeclaredJudgeEvaluator, FinalText, Messages, SaidText, Text

#: what relevance and coherence read: the request in its conversation and the reply, nothing of the machinery
REPLY_TO_REQUEST_READS = Reads("the reply is weighed against the user's request: the users' words (earlier turns as "
                               "context) and the agent's replies; no system policy, tool calls, results or schemas",
                               tool_calls=False)


class RelevanceEvaluator(DeclaredJudgeEvaluator):
    """How well the response answers the latest user message.

    Key ``relevance``; inputs ``query`` and ``response`` (text or messages in any supported
    format), or ``conversation=`` (per user turn, mean). Score 1–5: 1 irrelevant, 2 on the topic
    but not an answer, 3 leaves a part out, 4 answers every part, 5 answers every part and adds
    related insight. Default threshold 3. Details list the parts of the question left
    unaddressed. ``not_applicable`` when the response ends in a tool call (no answer yet).
    """

    result_key = "relevance"
    default_threshold = 3
    score_scale = (1.0, 5.0)
    template_name = "relevance.prompty"
    conversation_turn_inputs = ("query", "response")
    inputs = (Messages("query", "user"), Messages("response", "assistant", answered=True))
    verdict_fields = {"unaddressed": (List[str], "Parts of the question the response does not address")}
    reads = REPLY_TO_REQUEST_READS
    calibration_cases = CalibrationCases(
        good={"query": "query+system", "response": "answer"},
        bad={"query": "query+system", "response": "off_topic"},
        why_bad="the response talks about something the user did not ask")


class CoherenceEvaluator(DeclaredJudgeEvaluator):
    """Whether the response's ideas are ordered logically and connect into one line of thought.

    Key ``coherence``; inputs ``query`` and ``response``, or ``conversation=`` (per user turn,
    mean). Score 1–5: 1 incoherent, 2 loose fragments, 3 partly coherent, 4 coherent,
    5 highly coherent. Default threshold 3. Details list where the logic or order breaks.
    """

    result_key = "coherence"
    default_threshold = 3
    score_scale = (1.0, 5.0)
    template_name = "coherence.prompty"
    conversation_turn_inputs = ("query", "response")
    inputs = (Messages("query", "user"), Messages("response", "assistant"))
    verdict_fields = {"breaks": (List[str], "Places where the response's logic or order breaks down")}
    reads = REPLY_TO_REQUEST_READS
    # no scenario field is incoherent text: the set is the hand-written calibration/data/coherence.jsonl


class FluencyEvaluator(DeclaredJudgeEvaluator):
    """How well the response is written (grammar, vocabulary, sentence structure), whatever it says.

    Key ``fluency``; input ``response`` (text or messages), or ``conversation=`` (each turn's
    response, mean). Score 1–5: 1 emergent, 2 basic, 3 competent, 4 proficient, 5 exceptional.
    Default threshold 3. Details list the grammar, spelling and wording problems.
    """

    result_key = "fluency"
    default_threshold = 3
    score_scale = (1.0, 5.0)
    template_name = "fluency.prompty"
    conversation_turn_inputs = ("response",)
    inputs = (Messages("response", "assistant"),)
    verdict_fields = {"errors": (List[str], "Grammar, spelling or wording problems that make reading harder")}
    reads = Reads("fluency is how the reply is written, whatever it says: only the agent's reply text", earlier="none",
                  tool_calls=False)
    # no scenario field is badly written text: the set is the hand-written calibration/data/fluency.jsonl


class SimilarityEvaluator(DeclaredJudgeEvaluator):
    """How close the response's meaning is to the ground truth, as an answer to the query.

    Key ``similarity``; inputs ``query`` (the user's question; text or messages), ``response``
    (the agent's final text; text or messages) and ``ground_truth`` (text). Score 1–5:
    1 a different answer, 2 same subject but a different answer, 3 partly equivalent,
    4 mostly equivalent, 5 equivalent. Default threshold 3. Details list the differences.
    """

    result_key = "similarity"
    default_threshold = 3
    score_scale = (1.0, 5.0)
    template_name = "similarity.prompty"
    inputs = (SaidText("query", "user"), FinalText("response"), Text("ground_truth"))
    verdict_name = "GroundTruthSimilarityVerdict"  # "SimilarityVerdict" is AnswerSimilarityEvaluator's
    verdict_fields = {"differences": (List[str], "Points where the response's meaning differs from the ground truth")}
    reads = Reads("meaning is compared answer to answer: the user's question, the agent's final text and the "
                  "reference, as plain text")
    calibration_cases = CalibrationCases(
        good={"query": "query", "response": "answer", "ground_truth": "ground_truth"},
        bad={"query": "query", "response": "wrong_answer", "ground_truth": "ground_truth"},
        why_bad="the response gives a different answer than the ground truth")


class RetrievalEvaluator(DeclaredJudgeEvaluator):
    """How relevant retrieved context is to the query, and whether the best of it comes first.

    Key ``retrieval``; inputs ``query`` (text or messages) and ``context`` (the retrieved text,
    or a list of passages in rank order), or ``conversation=`` (per user turn, each with the
    context its messages carry). Score 1–5: 1 irrelevant, 2 poor, 3 fair, 4 good, 5 excellent.
    Default threshold 3. Details list what an answer needs that the context does not hold.
    """

    result_key = "retrieval"
    default_threshold = 3
    score_scale = (1.0, 5.0)
    template_name = "retrieval.prompty"
    conversation_turn_inputs = ("query", "context")
    inputs = (Messages("query", "user"), ContextInput("context"))
    verdict_fields = {"missing_information": (List[str], "What an answer to the query needs that the context lacks")}
    reads = Reads("the passages are rated against the request: the users' words and the retrieved passages in rank "
                  "order (each kept head and tail past 20,000 characters)", tool_calls=False, context=20_000)
    calibration_cases = CalibrationCases(
        good={"query": "query+system", "context": "result"},
        bad={"query": "query+system", "context": "off_topic"},
        why_bad="the retrieved context has nothing to do with the question")
