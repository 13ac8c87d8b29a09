"""Templates load the same from a built wheel in a fresh venv and from the editable checkout.

Editable installs ignore hatch's build-time ``force-include`` of ``prompty/``, so
template lookup has two paths; this proves both. The built wheel also carries the C speed-up of
F1 and ROUGE-N where the build could compile it (``hatch_build.py``), and then uses it, and METEOR's
WordNet 3.0 table with its licence (``evaluators/nlp/data/``), which METEOR then reads from the wheel.
"""

import os
import subprocess
import sys
import venv
import zipfile

import pytest

from agent_evaluators.templates import find_template, load_prompty

from ..conftest import REPO_ROOT

SHIPPED = sorted(p.name for p in (REPO_ROOT / "prompty").glob("*.prompty"))

CHECK = """
import json, sys
import agent_evaluators
from agent_evaluators.templates import find_template, load_prompty
names = json.loads(sys.argv[1])
out = {}
for name in names:
    path = find_template(name)
    messages = load_prompty(path).render(**{k: ["x"] if v.get("type") == "list" else "x" for k, v in load_prompty(path).inputs.items()})
    out[name] = [str(path), [m["role"] for m in messages]]
from agent_evaluators.evaluators.nlp import grams
from agent_evaluators.evaluators.nlp.wordnet import TABLE_FILE
ev = agent_evaluators.MeteorScoreEvaluator()
meteor = [ev(response=r, ground_truth="The car is red.")["meteor_score"] for r in ("The auto is red.", "The spoon is red.")]
print(json.dumps({"package": agent_evaluators.__file__, "templates": out, "grams": grams.IMPLEMENTATION,
                  "wordnet": str(TABLE_FILE), "meteor": meteor}))
"""


def test_templates_found_from_editable_checkout():
    assert SHIPPED, "no templates in prompty/"
    for name in SHIPPED:
        path = find_template(name)
        assert path.read_text() == (REPO_ROOT / "prompty" / name).read_text()
        assert load_prompty(path).render  # parses


@pytest.mark.heavy  # builds a wheel into a fresh venv (about 20 s)
def test_templates_render_from_wheel_in_fresh_venv(tmp_path):
    import json

    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(dist), str(REPO_ROOT)],
                   check=True, capture_output=True, text=True)
    wheel = next(dist.glob("agent_evaluators-*.whl"))
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)], check=True, capture_output=True, text=True)
    out = subprocess.run([str(python), "-c", CHECK, json.dumps(SHIPPED)], check=True, capture_output=True,
                         text=True, cwd=tmp_path)
    report = json.loads(out.stdout)
    assert str(env_dir) in report["package"], "imported the checkout instead of the installed wheel"
    for name in SHIPPED:
        path, roles = report["templates"][name]
        assert path.startswith(str(env_dir)) and "/agent_evaluators/prompty/" in path
        assert roles == ["system", "user"]
    names = zipfile.ZipFile(wheel).namelist()
    assert {"agent_evaluators/evaluators/nlp/data/wordnet30_synonyms.txt.gz",
            "agent_evaluators/evaluators/nlp/data/WORDNET_LICENSE"} <= set(names)
    assert report["wordnet"].startswith(str(env_dir)) and report["meteor"][0] > report["meteor"][1]  # synonym matched
    carried = [n for n in names if "nlp/_overlap" in n and not n.endswith(".c")]
    assert report["grams"] == ("c" if carried else "python")
    if os.environ.get("AGENT_EVAL_EXPECT_EXTENSION") == "1":  # set by .ci/run, where a compiler is present
        assert carried and "-none-any" not in wheel.name, f"{wheel.name} was built without the C extension"
