#!/usr/bin/env bash
# The command-line usage styles, on the bundled samples. Run from the repository root.
set -u

# 1. The sample run: deterministic evaluators always, judge-backed ones when a judge is
#    configured (OPENAI_API_KEY, --judge-base-url, or AZURE_OPENAI_*). Exit code 0/1/2.
agent-eval run --config samples/eval.yaml --html --junit agent-eval-results/junit.xml
echo "exit code: $?"

# 2. No config file: data + evaluators + column mapping + options + a run-level threshold
#    on the command line (the same run as the config file's deterministic part).
agent-eval run --data samples/data/agents.jsonl \
  --evaluator tool_trajectory=trajectory --evaluator response_match \
  --map trajectory.ground_truth=expected_tool_calls --option trajectory.match_type=in_order \
  --threshold "trajectory.pass_rate >= 0.7" --output agent-eval-results/adhoc
echo "exit code: $?"

# 3. A local OpenAI-compatible judge (llama.cpp, Ollama, vLLM, or our test server):
#    python -m agent_evaluators.testing --port 8099 &   # prints: listening on http://127.0.0.1:8099
#    agent-eval run --config samples/eval.yaml --judge-base-url http://127.0.0.1:8099/v1 --judge-model local

# 4. Re-render the report, compared with an earlier run.
agent-eval report agent-eval-results/agents --compare agent-eval-results/adhoc

# 5. What evaluators exist, with their inputs and defaults.
agent-eval list

# 6. Google ADK eval sets with ADK's criteria (test_config.json), on recorded agent runs.
#    Results go under agent-eval-results/ (ignored by git) rather than ADK's default ./.adk/eval_history.
agent-eval adk samples/data/home_automation.evalset.json \
  --actual samples/data/home_automation.actual.jsonl --config samples/data/test_config.json \
  --output agent-eval-results/adk
echo "exit code: $? (1: home-004 switched off the wrong lamp)"
