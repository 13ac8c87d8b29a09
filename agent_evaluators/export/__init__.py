"""Sending a finished run's results where teams already look: OpenTelemetry (:mod:`.otel`) and MLflow
(:mod:`.mlflow_run`).

Both run after the run folder is complete, so a collector or tracking server that is down costs a
warning, never the results on disk or the run's exit status. They are the interfaces layer's result
sinks: the run option that switches each on names it (``RunOption.sink`` in
``runner/option_table.py``) and the run engine calls it by that name at the end of a run
(``runner/publishing.py``). Neither package is imported unless its option (``otel=True`` /
``mlflow=True``) is on; the option's check refuses the run up front when the extra is missing.
"""
