"""Generate ``adk_deterministic.json``: ADK's own trajectory and ROUGE evaluators on a case table.

Run it in its own venv (never the project's):

    python3.11 -m venv /work/refvenvs/adk
    /work/refvenvs/adk/bin/pip install "google-adk[eval]==2.13.0"
    /work/refvenvs/adk/bin/python tests/reference/gen_adk_deterministic.py

Trajectory: ``google.adk.evaluation.trajectory_evaluator.TrajectoryEvaluator`` with a
``ToolTrajectoryCriterion(threshold=1.0, match_type=..., ignore_args=...)``, every case ×
EXACT / IN_ORDER / ANY_ORDER × ignore_args False / True; the overall score and the
per-invocation scores are recorded.

ROUGE: ``google.adk.evaluation.final_response_match_v1.RougeEvaluator`` (overall and
per-invocation scores) plus ``_calculate_rouge_1_scores`` (precision / recall / F) and the
tokens of ``_UnicodeAwareTokenizer(use_stemmer=True)`` for each text pair.

Invocations are stored as the snake_case / camelCase dicts ADK was given, so our tests
feed the very same JSON to our evaluators.
"""

import importlib.metadata as md
import json
import platform
from pathlib import Path
from typing import Any, Dict, List, Optional

HERE = Path(__file__).resolve().parent
MATCH_TYPES = ["EXACT", "IN_ORDER", "ANY_ORDER"]


def fc(name: str, args: Any = "absent") -> Dict[str, Any]:
    """An ADK FunctionCall dict; ``args="absent"`` leaves the key out (ADK then has ``args=None``)."""
    return {"name": name} if args == "absent" else {"name": name, "args": args}


def inv(calls: Optional[List[Dict[str, Any]]] = None, text: Optional[str] = "done", query: str = "q") -> Dict[str, Any]:
    out: Dict[str, Any] = {"invocation_id": "", "user_content": {"role": "user", "parts": [{"text": query}]}}
    if calls is not None:
        out["intermediate_data"] = {"tool_uses": calls}
    if text is not None:
        out["final_response"] = {"role": "model", "parts": [{"text": text}]}
    return out


def events_inv(calls: List[Dict[str, Any]]) -> Dict[str, Any]:
    """The newer ``invocation_events`` form, one event per call, camelCase keys."""
    return {
        "invocationId": "e1",
        "userContent": {"role": "user", "parts": [{"text": "q"}]},
        "intermediateData": {
            "invocationEvents": [
                {"author": "agent", "content": {"role": "model", "parts": [{"functionCall": c}]}} for c in calls
            ]
        },
        "finalResponse": {"role": "model", "parts": [{"text": "done"}]},
    }


A = fc("get_weather", {"city": "Paris"})
B = fc("get_time", {"tz": "CET"})
C = fc("book", {"room": 2, "guests": [1, 2]})


def trajectory_cases() -> List[Dict[str, Any]]:
    one = lambda actual, expected: ([inv(actual)], [inv(expected)])  # noqa: E731
    table = {
        "identical": one([A, B], [A, B]),
        "reordered": one([B, A], [A, B]),
        "extra_call_at_end": one([A, B, C], [A, B]),
        "extra_call_between": one([A, C, B], [A, B]),
        "missing_call": one([A], [A, B]),
        "different_args": one([fc("get_weather", {"city": "Rome"}), B], [A, B]),
        "different_name": one([fc("get_weathr", {"city": "Paris"})], [A]),
        "name_case_differs": one([fc("Get_Weather", {"city": "Paris"})], [A]),
        "duplicate_actual": one([A, A], [A]),
        "duplicate_expected": one([A], [A, A]),
        "duplicates_reordered": one([A, B, A], [A, A, B]),
        "args_none_vs_empty": one([fc("ping")], [fc("ping", {})]),
        "args_empty_vs_none": one([fc("ping", {})], [fc("ping")]),
        "args_none_vs_none": one([fc("ping")], [fc("ping")]),
        "args_int_vs_float": one([fc("book", {"room": 2})], [fc("book", {"room": 2.0})]),
        "args_string_vs_int": one([fc("book", {"room": "2"})], [fc("book", {"room": 2})]),
        "args_bool_vs_int": one([fc("flag", {"on": True})], [fc("flag", {"on": 1})]),
        "args_key_order": one([fc("book", {"guests": [1, 2], "room": 2})], [C]),
        "args_list_order": one([fc("book", {"room": 2, "guests": [2, 1]})], [C]),
        "args_nested_dict": one([fc("q", {"f": {"a": 1, "b": [1, {"c": 2}]}})], [fc("q", {"f": {"b": [1, {"c": 2}], "a": 1}})]),
        "both_empty": one([], []),
        "no_intermediate_data": ([inv(None)], [inv(None)]),
        "actual_empty": one([], [A]),
        "expected_empty": one([A], []),
        "invocation_events_form": ([events_inv([A, B])], [inv([A, B])]),
        "invocation_events_form_reordered": ([events_inv([B, A])], [inv([A, B])]),
        "two_invocations_one_fails": ([inv([A]), inv([B])], [inv([A]), inv([A])]),
        "three_invocations_mixed": ([inv([A, B]), inv([]), inv([C, A])], [inv([A, B]), inv([A]), inv([A, C])]),
        "three_invocations_all_pass": ([inv([A]), inv([B, C]), inv([])], [inv([A]), inv([B, C]), inv([])]),
    }
    return [{"name": k, "actual": v[0], "expected": v[1]} for k, v in table.items()]


ROUGE_PAIRS = [
    ("identical", "The weather in Paris is sunny.", "The weather in Paris is sunny."),
    ("punctuation_and_case", "hello world", "Hello, WORLD!!!"),
    ("stemming", "The dogs are running", "the dog runs"),
    ("short_words_not_stemmed", "was has its", "wa ha it"),
    ("repeated_tokens_clipped", "yes yes yes yes", "yes no"),
    ("numbers_and_underscores", "Set device_2 to 1,000,000", "set device 2 to 1000000"),
    ("partial_overlap", "Done, device_2 in the Bedroom is now off.", "I have set the device_2 status to off."),
    ("japanese", "東京の天気は晴れです。", "東京の天気は雨です。"),
    ("japanese_mixed_script", "Tokyoの気温は25度です", "tokyo の 気温 は 25 度"),
    ("katakana", "コーヒーを注文しました", "コーヒーを注文します"),
    ("chinese", "今天北京天气晴朗。", "北京今天天气很好。"),
    ("korean", "서울 날씨는 맑음", "서울의 날씨는 흐림"),
    ("thai", "สวัสดีครับ วันนี้อากาศดี", "วันนี้อากาศดีมาก"),
    ("lao_khmer_myanmar", "ສະບາຍດີ សួស្តី မင်္ဂလာပါ", "ສະບາຍດີ မင်္ဂလာပါ"),
    ("accented_latin_not_stemmed", "café crème", "cafe creme"),
    ("accented_latin_equal", "Café Crème", "café crème"),
    ("nfkc_fullwidth", "ＡＢＣ １２３", "abc 123"),
    ("devanagari_marks", "नमस्ते दुनिया", "नमस्ते दोस्त"),
    ("arabic", "مرحبا بالعالم", "مرحبا يا عالم"),
    ("emoji_only", "👍👍", "👍"),
    ("empty_vs_empty", "", ""),
    ("empty_vs_text", "", "Paris"),
    ("text_vs_empty", "Paris", ""),
    ("no_overlap", "apples", "oranges"),
]


def rouge_cases() -> List[Dict[str, Any]]:
    out = [{"name": n, "actual": [inv([], a)], "expected": [inv([], e)], "pair": [a, e]} for n, a, e in ROUGE_PAIRS]
    null_text = inv([], None)
    null_text["final_response"] = {"role": "model", "parts": [{"text": None}]}
    multi_parts = inv([], None)
    multi_parts["final_response"] = {"role": "model", "parts": [{"text": "The weather"}, {"text": None}, {"text": "is sunny"}]}
    out += [
        {"name": "missing_final_response_both", "actual": [inv([], None)], "expected": [inv([], None)]},
        {"name": "null_text_part_self_match", "actual": [null_text], "expected": [null_text]},
        {"name": "parts_joined_by_newline", "actual": [multi_parts], "expected": [inv([], "the weather is sunny")]},
        {
            "name": "two_invocations_mean",
            "actual": [inv([], "hello world"), inv([], "The dogs are running")],
            "expected": [inv([], "Hello, WORLD!!!"), inv([], "the dog runs")],
        },
        {
            "name": "camel_case_keys",
            "actual": [{"userContent": {"parts": [{"text": "q"}]}, "finalResponse": {"parts": [{"text": "Paris is sunny"}]}}],
            "expected": [{"userContent": {"parts": [{"text": "q"}]}, "finalResponse": {"parts": [{"text": "sunny in Paris"}]}}],
        },
    ]
    return out


def main() -> None:
    from google.adk.evaluation.eval_case import Invocation
    from google.adk.evaluation.eval_metrics import EvalMetric, ToolTrajectoryCriterion
    from google.adk.evaluation.final_response_match_v1 import (
        RougeEvaluator,
        _calculate_rouge_1_scores,
        _UnicodeAwareTokenizer,
    )
    from google.adk.evaluation.trajectory_evaluator import TrajectoryEvaluator

    def invocations(items: List[Dict[str, Any]]) -> List[Any]:
        return [Invocation.model_validate(i) for i in items]

    trajectory = []
    for case in trajectory_cases():
        results: Dict[str, Dict[str, Any]] = {}
        for match_type in MATCH_TYPES:
            for ignore_args in (False, True):
                criterion = ToolTrajectoryCriterion(threshold=1.0, match_type=match_type, ignore_args=ignore_args)
                metric = EvalMetric(metric_name="tool_trajectory_avg_score", threshold=1.0, criterion=criterion)
                result = TrajectoryEvaluator(eval_metric=metric).evaluate_invocations(
                    invocations(case["actual"]), invocations(case["expected"])
                )
                results[f"{match_type}{'/ignore_args' if ignore_args else ''}"] = {
                    "score": result.overall_score,
                    "status": result.overall_eval_status.name,
                    "per_invocation_scores": [r.score for r in result.per_invocation_results],
                }
        trajectory.append({**case, "adk": results})

    tokenizer = _UnicodeAwareTokenizer(use_stemmer=True)
    rouge = []
    for case in rouge_cases():
        metric = EvalMetric(metric_name="response_match_score", threshold=0.8)
        result = RougeEvaluator(metric).evaluate_invocations(invocations(case["actual"]), invocations(case["expected"]))
        entry = {
            **case,
            "adk": {
                "score": result.overall_score,
                "status": result.overall_eval_status.name,
                "per_invocation_scores": [r.score for r in result.per_invocation_results],
            },
        }
        if "pair" in case:
            actual, expected = case["pair"]
            scores = _calculate_rouge_1_scores(actual, expected)
            entry["adk_rouge1"] = {"precision": scores.precision, "recall": scores.recall, "fmeasure": scores.fmeasure}
            entry["adk_tokens"] = {"actual": tokenizer.tokenize(actual), "expected": tokenizer.tokenize(expected)}
        rouge.append(entry)

    meta = {
        "generator": "tests/reference/gen_adk_deterministic.py",
        "versions": {p: md.version(p) for p in ("google-adk", "google-genai", "rouge-score", "nltk")},
        "python": platform.python_version(),
        "trajectory_threshold": 1.0,
        "rouge_threshold": 0.8,
    }
    path = HERE / "adk_deterministic.json"
    path.write_text(
        json.dumps({"meta": meta, "trajectory": trajectory, "rouge": rouge}, indent=1, ensure_ascii=False) + "\n",
        encoding="utf-8",
    )
    print(f"wrote {path} ({len(trajectory)} trajectory cases, {len(rouge)} ROUGE cases)")


if __name__ == "__main__":
    main()
