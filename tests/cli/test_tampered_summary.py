"""A ``summary.json`` that was edited or damaged is a clear error naming the file, exit 2, in every
command that reads it back (report, plan, compare, run --resume, a new run over the folder), never a
traceback; ``--force`` still lets a run replace it."""

import json
import shutil

import pytest

from agent_evaluators.cli.main import main
from tests.cli.helpers import write_jsonl

ROWS = [{"id": f"r{i}", "response": f"the answer is {i}", "ground_truth": f"the answer is {i % 3}"} for i in range(4)]

#: (where, value): what an edit puts in place of a part of a good summary
TAMPERED = [
    ((), "{\"metrics\": "), ((), [1, 2]), ((), "just text"), ((), 7),
    *[((key,), bad) for key in ("status", "config", "metrics", "usage", "intervals", "errors", "fingerprint", "noise")
      for bad in ([1], 5, "x") if not (key == "status" and bad == "x")],
    (("config", "evaluators"), [1]), (("config", "evaluators", "f1"), 3), (("usage", "f1"), "many"),
    (("intervals", "f1.f1_score"), 9), (("errors", 0), "boom"), (("fingerprint", "evaluators"), "sha"),
]


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("tampered")
    data = write_jsonl(tmp / "data.jsonl", ROWS)
    assert main(["run", "--data", str(data), "-e", "f1_score=f1", "-o", str(tmp / "good")]) in (0, 1)
    return tmp


def _tamper(good, tmp_path, where, value):
    out = tmp_path / "out"
    shutil.copytree(good / "good", out)
    path = out / "summary.json"
    if not where and isinstance(value, str) and value.startswith("{"):
        path.write_text(value, encoding="utf-8")
        return out
    summary = json.loads(path.read_text(encoding="utf-8"))
    if not where:
        summary = value
    else:
        *parents, last = where
        holder = summary
        for part in parents:
            holder = holder[part]
        if isinstance(holder, list):
            holder.append(value)
        else:
            holder[last] = value
    path.write_text(json.dumps(summary), encoding="utf-8")
    return out


@pytest.mark.parametrize("where,value", TAMPERED, ids=[f"{'.'.join(map(str, w)) or 'whole'}={v!r}"[:40] for w, v in TAMPERED])
def test_a_tampered_summary_is_an_error_naming_the_file_with_exit_2(good, tmp_path, where, value, capsys):
    out = _tamper(good, tmp_path, where, value)
    data = str(good / "data.jsonl")
    for argv in (["report", str(out)], ["plan", "--from", str(out), "--effect", "0.1"],
                 ["compare", str(out), str(good / "good")],
                 ["compare", str(good / "good"), str(out)],
                 ["run", "--data", data, "-e", "f1_score=f1", "-o", str(out), "--resume"],
                 ["run", "--data", data, "-e", "f1_score=f1", "-o", str(out)]):
        capsys.readouterr()
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert str(out / "summary.json") in err and "Traceback" not in err, (argv, err)


def test_force_replaces_a_tampered_summary(good, tmp_path, capsys):
    out = _tamper(good, tmp_path, "", [1, 2])
    data = str(good / "data.jsonl")
    assert main(["run", "--data", data, "-e", "f1_score=f1", "-o", str(out), "--force"]) in (0, 1)
    assert json.loads((out / "summary.json").read_text(encoding="utf-8"))["status"] == "complete"
