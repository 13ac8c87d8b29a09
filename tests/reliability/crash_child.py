"""The process the crash tests kill: ``evaluate()`` with three judge evaluators on a data file.

``python -m tests.reliability.crash_child DATA OUT BASE_URL MAX_CONCURRENCY RESUME``; the
parent owns the judge server (so it outlives this process) and SIGKILLs us part-way.
"""

import sys


def evaluators_for(base_url: str):
    from .support import judge_evaluators

    return judge_evaluators({"model": "judge-model", "base_url": base_url, "api_key": "test-key"})


def main() -> None:
    data, out, base_url, max_concurrency, resume = sys.argv[1:6]
    from agent_evaluators import evaluate

    evaluate(data=data, evaluators=evaluators_for(base_url), output_path=out, max_concurrency=int(max_concurrency),
             resume=resume == "1")


if __name__ == "__main__":
    main()
