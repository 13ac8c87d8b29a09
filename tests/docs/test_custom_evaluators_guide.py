"""docs/guides/custom-evaluators.md runs as written: its ``.prompty`` block saved as the file it says,
then each Python block in a fresh interpreter with the bundled fake judge in its environment
(``python -m agent_evaluators.testing -- python block.py``), each printing what the page says."""

import re
import subprocess
import sys

from tests.cli.helpers import clean_env
from tests.conftest import REPO_ROOT

GUIDE = (REPO_ROOT / "docs" / "guides" / "custom-evaluators.md").read_text(encoding="utf-8")


def test_the_guides_examples_run_against_the_fake_judge(tmp_path):
    (prompty,) = re.findall(r"```yaml\n(.*?)```", GUIDE, re.DOTALL)
    assert "Save this as `helpfulness.prompty`" in GUIDE
    (tmp_path / "helpfulness.prompty").write_text(prompty, encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", GUIDE, re.DOTALL)
    assert len(blocks) == 2
    outputs = []
    for n, block in enumerate(blocks):
        (tmp_path / f"block{n}.py").write_text(block, encoding="utf-8")
        proc = subprocess.run([sys.executable, "-m", "agent_evaluators.testing", "--", sys.executable, f"block{n}.py"],
                              capture_output=True, text=True, timeout=300, cwd=tmp_path, env=clean_env())
        assert proc.returncode == 0, f"block {n}:\n{block}\n{proc.stdout}{proc.stderr}"
        outputs.append(proc.stdout)
    assert "'mentions_city_result': 'pass'" in outputs[0] and "0.5 0.5" in outputs[0], outputs[0]
    assert outputs[1].startswith("4.0 pass"), outputs[1]
