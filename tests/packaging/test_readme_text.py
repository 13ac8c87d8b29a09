"""The user documents (README.md, docs/, CONTRIBUTING.md) say each thing once and agree with their tables.

Checked: no run of ten words of prose (code blocks and table rows aside) appears twice (an ADK
paragraph was pasted twice); the NLP speed figures are not written by hand in the guide (hand-written
figures drifted from their table: F1 8.4× in a sentence beside 24.3× in the table), only on the
evidence page, from the bench's record.
"""

import re
from collections import defaultdict

from tests.conftest import REPO_ROOT
from tests.packaging.readme_commands import user_docs_text

README = user_docs_text(REPO_ROOT)


def _prose(text: str) -> str:
    return re.sub(r"^\|.*$", "", re.sub(r"```.*?```", "", text, flags=re.S), flags=re.M)


def _section(title: str) -> str:
    start = README.index(f"\n## {title}")
    return README[start:README.index("\n## ", start + 1)]


def test_no_ten_words_of_prose_are_written_twice():
    words = _prose(README).split()
    seen = defaultdict(list)
    for i in range(len(words) - 10):
        seen[" ".join(words[i:i + 10])].append(i)
    assert not [k for k, v in seen.items() if len(v) > 1]


def test_the_nlp_speed_figures_are_measured_not_written():
    """The NLP section's speed figures are the evidence page's, rendered from bench_nlp's record (with its
    command and date): the guide links there and states no ratio of its own that could drift from them."""
    section = _section("NLP scores with azure's numbers")
    assert "evidence.md#nlp-metrics-against-azure-ai-evaluation" in section
    assert not re.findall(r"\d(?:\.\d+)?×", _prose(section)), re.findall(r"[^.]*\d×[^.]*", _prose(section))
    assert "<!-- record: bench_nlp -->" in (REPO_ROOT / "docs" / "evidence.md").read_text(encoding="utf-8")


#: where README's examples write: run folders, report and JUnit files, tool recordings, 1.18's result file
_WRITES = (r"(?:--output|-o|--junit|--record-tools)\s+\[?([^\s\]]+)", r"output_path=\"([^\"]+)\"",
           r"ToolRecorder\(\"([^\"]+)\"")


def test_every_readme_example_writes_under_an_ignored_path():
    """Following README in a clone leaves nothing for `git status` to show (or to be committed by mistake)."""
    import subprocess

    blocks = "\n".join(re.findall(r"```\w*\n(.*?)```", README, re.S))
    paths = {p for pattern in _WRITES for p in re.findall(pattern, blocks)
             if not p.isupper() and "<" not in p and not p.startswith("$")}
    assert {"out/adk", "out/before", "out/recordings", "results.json"} <= paths, paths
    for path in sorted(paths):
        check = subprocess.run(["git", "check-ignore", "--no-index", "-q", path.rstrip("/") + "/x"], cwd=REPO_ROOT)
        assert check.returncode == 0, f"README writes to {path}, which .gitignore does not cover"
