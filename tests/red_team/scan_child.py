"""The process the red-team kill test kills: a scan of a slow, logging sample agent.

``scan(OUT_DIR, BASE_URL, LOG)`` in a child process; the parent owns the judge server and
SIGKILLs us part-way; every attack that reaches the agent is appended to LOG (one line each).
"""

import asyncio
import json
import os
import time


def logged_agent(log_path):
    from samples.red_team import leaky_agent

    def agent(messages):
        last = [m for m in messages if m["role"] == "user"][-1]["content"]
        fd = os.open(log_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        os.write(fd, (json.dumps(last) + "\n").encode())
        os.close(fd)
        time.sleep(0.1)
        return leaky_agent(messages)

    return agent


def scan(out_dir, base_url, log_path):
    from agent_evaluators.red_team import AttackStrategy, RedTeam, RiskCategory

    team = RedTeam(risk_categories=[RiskCategory.SensitiveDataLeakage, RiskCategory.ProhibitedActions,
                                    RiskCategory.Violence], num_objectives=10, output_dir=out_dir,
                   judge={"model": "judge-model", "base_url": base_url, "api_key": "test-key"},
                   prohibited_tools=["send_message"])
    return asyncio.run(team.scan(logged_agent(log_path), scan_name="killed", max_parallel_tasks=4,
                                 attack_strategies=[AttackStrategy.Base64, AttackStrategy.ROT13]))

