"""The process the budget kill tests SIGKILL: a capped ``evaluate()`` resumed in the same folder.

``python -m tests.reliability.budget_child DATA OUT BASE_URL CAP_KIND CAP MAX_CONCURRENCY ENGINE``; the
parent owns the fake judge (it counts every request across kills). ``CAP_KIND`` is ``calls`` or
``cost``; ``ENGINE`` is ``local`` or ``ray``.
"""

import sys


def main() -> None:
    data, out, base_url, kind, cap, concurrency, engine = sys.argv[1:8]
    from agent_evaluators import IntentResolutionEvaluator, evaluate

    judge = IntentResolutionEvaluator(model_config={"model": "judge-m", "base_url": base_url, "api_key": "k",
                                                    "price": {"input": 1.0, "output": 5.0}})
    caps = {"max_judge_calls": int(cap)} if kind == "calls" else {"max_cost": float(cap)}
    extra = {"engine": "ray", "num_workers": 2} if engine == "ray" else {}
    evaluate(data=data, evaluators={"intent": judge}, output_path=out, resume=True, show_progress=False,
             max_concurrency=int(concurrency), **caps, **extra)


if __name__ == "__main__":
    main()
