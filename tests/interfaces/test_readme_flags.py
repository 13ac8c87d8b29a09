"""The guide's command-line section (docs/guides/batch-and-cli.md) lists every flag ``agent-eval run --help`` shows."""

import re

from tests.cli.helpers import agent_eval
from tests.conftest import REPO_ROOT


def test_every_run_flag_is_in_the_readme():
    readme = (REPO_ROOT / "docs" / "guides" / "batch-and-cli.md").read_text(encoding="utf-8")
    section = readme.split("## Command line", 1)[1].split("\n## ", 1)[0]
    help_text = agent_eval("run", "--help").out
    flags = sorted(set(re.findall(r"(?<![\w-])(--[a-z][a-z-]+)", help_text)) - {"--help"})
    assert len(flags) > 20, flags
    missing = [f for f in flags if f not in section]
    assert not missing, f"the Command line section of docs/guides/batch-and-cli.md does not mention {missing}"
