"""One run context: a run's state reaches the code it runs through one frozen ``RunContext`` in one
``ContextVar`` (``agent_evaluators.run_context``), installed by the engine for the run's duration."""

import ast
import asyncio
import contextvars
from pathlib import Path
from typing import Any, Dict, List

import pytest

from agent_evaluators import evaluate, evaluate_async
from agent_evaluators.judge import get_judge_client
from agent_evaluators.judge.batch_route import batch_route
from agent_evaluators.judge.caps import JudgeBudget
from agent_evaluators.judge.dry_transport import DryRunTransport
from agent_evaluators.run_context import NOTHING, Fields, RunContext, current, scoped, set_for_task
from agent_evaluators.testing import JudgeServer

PACKAGE = Path(__file__).resolve().parents[1] / "agent_evaluators"
ROWS = [{"query": f"q{i}", "response": f"r{i}"} for i in range(3)]
PRICE = {"input": 1.0, "cached_input": 1.0, "output": 1.0}


def _in_a_fresh_context(fn: Any) -> Any:
    """Run ``fn`` in a copy of the context, so a test leaves the session's context as it found it."""
    return contextvars.copy_context().run(fn)


def test_the_package_defines_exactly_one_contextvar():
    made = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                if name == "ContextVar":
                    made.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert len(made) == 1 and made[0].startswith("run_context.py:"), made


def test_the_keyword_fields_are_the_context_fields():
    assert set(Fields.__annotations__) == set(RunContext.__dataclass_fields__)


def test_nothing_is_installed_outside_a_run():
    assert current() == RunContext() == NOTHING
    assert batch_route.get() is None


def test_a_run_installs_its_state_once_and_judge_calls_in_gathered_tasks_see_it(tmp_path):
    seen: List[RunContext] = []

    with JudgeServer(lambda req: {"score": 3, "reason": "ok"}, delay_s=0.05) as server:
        judge = get_judge_client(server.openai_config("judge-model"))

        async def one_call(query: str) -> RunContext:
            await judge.complete([{"role": "user", "content": query}])
            return current()

        async def fans_out(query: str, response: str) -> Dict[str, Any]:
            seen.extend(await asyncio.gather(*(one_call(f"{query} {i}") for i in range(4))))
            return {"score": 1}

        result = evaluate(data=ROWS, evaluators={"fan": fans_out}, output_path=tmp_path / "out", show_progress=False,
                          max_concurrency=2, max_judge_calls=100, prices={"judge-model": PRICE})
        in_flight = server.stats()["max_in_flight"]

    assert len(seen) == 12 and not result.errors
    limiters = {id(c.limiter) for c in seen}
    budgets = {id(c.budget) for c in seen}
    assert len(limiters) == 1 and len(budgets) == 1 and len({id(c.secrets) for c in seen}) == 1  # one for the run
    assert isinstance(seen[0].budget, JudgeBudget) and seen[0].budget.calls == 12  # every call was admitted
    assert in_flight <= 2  # the run's limiter gated the calls of the gathered tasks
    assert seen[0].prices == {"judge-model": PRICE}
    assert all(c.batch_route is None and c.dry_transport is None for c in seen)
    assert current() == NOTHING  # after the run nothing is left installed


def test_after_an_awaited_run_the_callers_context_is_as_it_was(tmp_path):
    async def check(query: str) -> Dict[str, Any]:
        assert current().limiter is not None
        return {"score": 1}

    async def go() -> RunContext:
        await evaluate_async(data=ROWS, evaluators={"check": check}, output_path=tmp_path / "out",
                             show_progress=False)
        return current()

    assert asyncio.run(go()) == NOTHING


def test_a_dry_run_installs_its_judge_in_the_run_context(tmp_path):
    seen: List[Any] = []

    async def look(query: str) -> Dict[str, Any]:
        seen.append(current().dry_transport)
        return {"score": 1}

    evaluate(data=ROWS, evaluators={"look": look}, output_path=tmp_path / "out", show_progress=False, dry_run=True)
    assert len(seen) == 3 and isinstance(seen[0], DryRunTransport) and len({id(t) for t in seen}) == 1
    assert current().dry_transport is None


def test_a_change_in_one_task_is_not_seen_by_a_sibling_task():
    async def judge(index: int, started: asyncio.Event, changed: asyncio.Event) -> int:
        if index:
            set_for_task(panel_index=index)
            changed.set()
        else:
            started.set()
            await changed.wait()
        await asyncio.sleep(0)
        return current().panel_index

    async def go() -> List[int]:
        started, changed = asyncio.Event(), asyncio.Event()
        with scoped(eval_set_id="set-1"):
            return list(await asyncio.gather(judge(0, started, changed), judge(2, started, changed)))

    assert _in_a_fresh_context(lambda: asyncio.run(go())) == [0, 2]


def test_leaving_a_scope_gives_back_only_the_fields_it_changed():
    budget = JudgeBudget(max_judge_calls=1)

    def go() -> RunContext:
        with scoped(budget=budget, prices={"m": PRICE}) as inside:
            assert inside is current() and current().budget is budget
            set_for_task(batch_origin="row 3 intent")  # a value of the task, as the runner sets per cell
            with scoped(budget=None):
                assert current().budget is None and current().prices == {"m": PRICE}
            assert current().budget is budget
        return current()

    after = _in_a_fresh_context(go)
    assert after.budget is None and after.prices is None
    assert after.batch_origin == "row 3 intent"  # as a separate variable would have kept it


def test_a_context_is_frozen_and_an_unknown_field_is_an_error():
    with pytest.raises(AttributeError):
        current().panel_index = 3  # type: ignore[misc]
    with pytest.raises(TypeError, match="no_such_field"):
        current().replace(no_such_field=1)  # type: ignore[call-arg]
    assert current().replace(panel_index=2).panel_index == 2 and current().panel_index == 0


def test_an_old_contextvar_name_reads_and_writes_the_field():
    def go() -> None:
        route = object()
        token = batch_route.set(route)  # type: ignore[arg-type]
        assert current().batch_route is route and batch_route.get() is route
        batch_route.reset(token)
        assert current().batch_route is None

    _in_a_fresh_context(go)
