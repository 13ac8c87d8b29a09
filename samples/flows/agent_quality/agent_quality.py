"""A composite Prompt flow evaluation flow: intent resolution (judge) + tool trajectory (code).

Prompt flow passes plain JSON values, so this wrapper declares simple input types
(``query``: text or messages as a list, ``response``: messages, ``expected_tool_calls``:
a list) and hands them to the evaluators, whose own signatures stay as they are.

No ``from __future__ import annotations`` here: Prompt flow reads the annotations.
"""

from typing import List, Optional, TypedDict, Union

from promptflow.core import AzureOpenAIModelConfiguration, OpenAIModelConfiguration

from agent_evaluators import IntentResolutionEvaluator, ToolTrajectoryEvaluator


class AgentQualityResult(TypedDict):
    intent_resolution: Optional[float]
    intent_resolution_result: str
    intent_resolution_reason: str
    tool_trajectory_avg_score: float
    tool_trajectory_avg_score_result: str
    tool_trajectory_avg_score_reason: str
    passed: bool


class AgentQualityEvaluator:
    """Did the agent resolve the user's intent, and did it call the expected tools in order?"""

    def __init__(
        self,
        model_config: Union[AzureOpenAIModelConfiguration, OpenAIModelConfiguration],
        match_type: str = "in_order",
    ) -> None:
        self.intent = IntentResolutionEvaluator(model_config=model_config)
        self.trajectory = ToolTrajectoryEvaluator(match_type=match_type)

    def __call__(self, *, query: Union[str, list], response: list, expected_tool_calls: list,
                 tool_definitions: Optional[list] = None) -> AgentQualityResult:
        intent = self.intent(query=query, response=response, tool_definitions=tool_definitions)
        trajectory = self.trajectory(response=response, ground_truth=expected_tool_calls)
        out = {k: intent[k] for k in ("intent_resolution", "intent_resolution_result", "intent_resolution_reason")}
        out.update({k: trajectory[k] for k in (
            "tool_trajectory_avg_score", "tool_trajectory_avg_score_result", "tool_trajectory_avg_score_reason")})
        out["passed"] = (intent["intent_resolution_result"] != "fail"
                         and trajectory["tool_trajectory_avg_score_result"] == "pass")
        return out  # type: ignore[return-value]

    def __aggregate__(self, line_results: List[dict]) -> dict:
        """Run metrics after a batch run: mean scores over scored lines and the share of lines that passed."""
        intents = [r["intent_resolution"] for r in line_results if r.get("intent_resolution") is not None]
        trajectories = [r["tool_trajectory_avg_score"] for r in line_results]
        return {
            "intent_resolution": sum(intents) / len(intents) if intents else None,
            "tool_trajectory_avg_score": sum(trajectories) / len(trajectories) if trajectories else None,
            "pass_rate": sum(1 for r in line_results if r.get("passed")) / len(line_results) if line_results else None,
        }
