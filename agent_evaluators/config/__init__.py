"""Run configuration outside Python: run configs (``.eval.yaml``), the judge's settings and panels,
calibration records, run-level thresholds and code named by ``module:function``."""
