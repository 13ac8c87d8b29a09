"""A judge run in its own process; prints its peak RSS (issue 21's attack figure "memory flat at 20,000
rows with 20% 429s").

``python -m tests.reliability.memory_child DATA OUT JUDGE_URL`` runs IntentResolution and
ResponseCompleteness over DATA with ``output_path=OUT`` at ``max_concurrency=32`` against the judge at
JUDGE_URL, reads every row back through ``result.rows``, and prints
``{"peak_mb", "rows", "scored", "errors"}``.
"""

import json
import sys

from tests.peak_memory import peak_mb


def main() -> None:
    data, out, url = sys.argv[1:4]
    from agent_evaluators import IntentResolutionEvaluator, ResponseCompletenessEvaluator, evaluate

    judge = {"model": "fake", "base_url": url + "/v1", "api_key": "sk-memory-test", "timeout": 10}
    result = evaluate(
        data=data, output_path=out, max_concurrency=32, show_progress=False,
        evaluators={"intent": IntentResolutionEvaluator(model_config=judge),
                    "completeness": ResponseCompletenessEvaluator(model_config=judge)},
    )
    rows = scored = 0
    for row in result.rows:
        rows += 1
        scored += sum(row.get(f"outputs.{a}.{k}") is not None
                      for a, k in (("intent", "intent_resolution"), ("completeness", "response_completeness")))
    print(json.dumps({"peak_mb": peak_mb(), "rows": rows, "scored": scored,
                      "errors": result.metrics["intent.error_count"] + result.metrics["completeness.error_count"]}))


if __name__ == "__main__":
    main()
