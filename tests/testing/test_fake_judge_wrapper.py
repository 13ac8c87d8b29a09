"""``python -m agent_evaluators.testing -- COMMAND``: the fake judge for the length of one command, with
no real key left in that command's environment and the command's exit code passed on."""

import subprocess
import sys

from agent_evaluators.testing.__main__ import judge_environment
from tests.cli.helpers import clean_env


def test_the_commands_environment_names_the_fake_judge_and_no_real_key():
    env = judge_environment("http://127.0.0.1:9", {"OPENAI_API_KEY": "sk-real", "AZURE_OPENAI_API_KEY": "az-real",
                                                   "AZURE_OPENAI_ENDPOINT": "https://x.openai.azure.com", "HOME": "/h"})
    assert env == {"HOME": "/h", "OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "AGENT_EVAL_JUDGE_MODEL": "fake",
                   "OPENAI_API_KEY": "fake-judge"}


def test_the_command_runs_against_the_judge_and_its_exit_code_is_passed_on():
    code = ("import os, sys, urllib.request, json\n"
            "body = json.dumps({'model': 'fake', 'messages': [{'role': 'user', 'content': 'hi'}]}).encode()\n"
            "req = urllib.request.Request(os.environ['OPENAI_BASE_URL'] + '/chat/completions', body,\n"
            "                             {'Content-Type': 'application/json', 'Authorization': 'Bearer x'})\n"
            "reply = json.load(urllib.request.urlopen(req, timeout=30))\n"
            "print(reply['choices'][0]['message']['content'])\n"
            "sys.exit(3)\n")
    proc = subprocess.run([sys.executable, "-m", "agent_evaluators.testing", "--", sys.executable, "-c", code],
                          capture_output=True, text=True, timeout=120, env=clean_env(OPENAI_API_KEY="sk-real"))
    assert proc.returncode == 3, proc.stderr
    assert "score" in proc.stdout, proc.stdout


def test_a_missing_command_is_127_with_its_name():
    proc = subprocess.run([sys.executable, "-m", "agent_evaluators.testing", "--", "no-such-command-here"],
                          capture_output=True, text=True, timeout=60, env=clean_env())
    assert proc.returncode == 127 and "no-such-command-here" in proc.stderr
