"""The user documents (README.md, docs/, CONTRIBUTING.md) say each thing once and agree with their tables.

Checked: no run of ten words of prose (code blocks and table rows aside) appears twice (an ADK
paragraph was pasted twice); the NLP speed section's figures agree (it said F1 reached 8.4× on
150-word texts while its table said 24.3× and the sentence before it 8.6×, and ROUGE-L 65× beside
a table's 61.8×).
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


def test_the_nlp_speed_prose_agrees_with_itself_and_its_table():
    section = _section("NLP scores with azure's numbers")
    prose = _prose(section)
    assert len(set(re.findall(r"F1 (\d+(?:\.\d+)?)×", prose))) == 1, re.findall(r"F1 \d+(?:\.\d+)?×", prose)
    call_level = section[section.index("*Call level*"):section.index("*Batch engine*")]
    row = re.search(r"^\| ROUGE rougeL \|.*, ([\d.]+)× \|$", call_level, re.M)
    assert row is not None
    for said in re.findall(r"ROUGE-L is (\d+)× faster", prose):
        assert abs(float(said) - float(row[1])) < 1, (said, row[1])


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
