"""The HTML report draws each histogram on its evaluator's scale, not one guessed from the scores."""

import re
import textwrap

from tests.cli.helpers import agent_eval, sample_rows, write_jsonl


def _labels(html: str, alias: str):
    card = html.split(f'<div class="card" data-alias="{alias}">', 1)[1].split("</svg>", 1)[0]
    return re.findall(r'class="lbl">([^<]*)<', card)


def test_a_0_1_metric_with_whole_scores_is_drawn_on_0_1(tmp_path):
    good = [r for r in sample_rows() if r["label"] == "good"]
    data = write_jsonl(tmp_path / "good.jsonl", good)
    r = agent_eval("run", "--data", data, "-e", "tool_trajectory=trajectory",
                   "--map", "trajectory.ground_truth=expected_tool_calls", "--option", "trajectory.match_type=in_order",
                   "-o", tmp_path / "run", "--html")
    assert r.rc == 0, r
    html = (tmp_path / "run" / "report.html").read_text()
    assert _labels(html, "trajectory") == ["0", "1"]  # every score is 1.0: it used to be drawn as 1..5


def test_a_prompty_scale_comes_from_the_evaluator(tmp_path):
    from agent_evaluators.testing import JudgeServer

    (tmp_path / "p.prompty").write_text(textwrap.dedent("""\
        ---
        name: ten
        inputs:
          response:
            type: string
        ---
        system:
        Score 0 to 10 as JSON {"reason": str, "score": int}.
        user:
        {{response}}
        """))
    data = write_jsonl(tmp_path / "d.jsonl", [{"response": "a"}, {"response": "b"}])
    with JudgeServer(lambda req: {"reason": "r", "score": 3}) as server:
        r = agent_eval("run", "--data", data, "-e", f"prompty:{tmp_path / 'p.prompty'}=ten",
                       "--option", "ten.scale=[0, 10]", "--judge-base-url", server.url + "/v1", "--judge-model", "m",
                       "-o", tmp_path / "run", "--html")
    assert r.rc in (0, 1), r
    html = (tmp_path / "run" / "report.html").read_text()
    assert _labels(html, "ten") == [str(i) for i in range(11)]
