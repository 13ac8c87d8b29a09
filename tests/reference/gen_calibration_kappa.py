"""Expected accuracy and Cohen's kappa for tests/calibration, computed by scikit-learn.

Run in a separate venv (never the project's); any venv with scikit-learn works, e.g.:

    python -m venv /work/refvenvs/sklearn && /work/refvenvs/sklearn/bin/pip install scikit-learn
    /work/refvenvs/adk/bin/python tests/reference/gen_calibration_kappa.py > tests/reference/calibration_kappa.json

(/work/refvenvs/adk has scikit-learn 1.x as a dependency of google-adk[eval].)
The label vectors are written out here and copied into the JSON, so the tests read
truth, prediction and sklearn's numbers from one place.
"""

import json
import math

import sklearn
from sklearn.metrics import accuracy_score, cohen_kappa_score, confusion_matrix

G, B = "good", "bad"

VECTORS = {
    # tests/calibration/test_calibrate.py: the scripted judge's planned verdicts on the
    # intent_resolution set (scenario order, good then bad case per scenario): scenarios
    # 0-1 good judged bad, scenarios 2-4 bad judged good, and scenario 5's good case a
    # judge error (None: left out of accuracy and kappa).
    "scripted_intent_resolution": {
        "truth": [G, B] * 12,
        "predicted": [B, B,  B, B,  G, G,  G, G,  G, G,  None, B,  G, B,  G, B,  G, B,  G, B,  G, B,  G, B],
    },
    "perfect": {"truth": [G] * 10 + [B] * 10, "predicted": [G] * 10 + [B] * 10},
    "always_pass": {"truth": [G] * 10 + [B] * 10, "predicted": [G] * 20},
    "inverted": {"truth": [G] * 5 + [B] * 5, "predicted": [B] * 5 + [G] * 5},
    "imbalanced": {"truth": [G] * 17 + [B] * 3, "predicted": [G] * 15 + [B] * 2 + [B] * 2 + [G]},
    "one_label_both": {"truth": [G] * 6, "predicted": [G] * 6},
}

out = {"sklearn_version": sklearn.__version__, "cases": {}}
for name, v in VECTORS.items():
    pairs = [(t, p) for t, p in zip(v["truth"], v["predicted"]) if p is not None]
    truth = [t for t, _ in pairs]
    pred = [p for _, p in pairs]
    kappa = cohen_kappa_score(truth, pred, labels=[G, B])
    cm = confusion_matrix(truth, pred, labels=[G, B]).tolist()
    out["cases"][name] = {
        "truth": v["truth"],
        "predicted": v["predicted"],
        "accuracy": accuracy_score(truth, pred),
        "kappa": None if math.isnan(kappa) else kappa,
        "confusion": {G: {G: cm[0][0], B: cm[0][1]}, B: {G: cm[1][0], B: cm[1][1]}},
    }
print(json.dumps(out, indent=2))
