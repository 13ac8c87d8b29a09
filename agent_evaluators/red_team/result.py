"""A scan's result: :class:`RedTeamResult` (azure-ai-evaluation 1.18.10's shape) and its run folder.

The run folder (the contract the CLI and the HTML report read)
--------------------------------------------------------------

``RedTeam.scan()`` writes everything into ``<output_dir>/<scan_name>/`` (``scan_name`` defaults to
``redteam-<UTC yyyymmdd-HHMMSS>``; ``output_path=`` names the folder outright). The folder is an
ordinary run folder of the run engine, so ``resume``, the dry run, the budget caps and the judge
client's retries apply to a scan as to any run:

* ``attacks.jsonl`` -- the generated attack rows, one per (risk category, objective, strategy),
  written once before any attack is sent and reused as is on resume. Keys: ``attack_id``
  (stable: ``<strategy>/<risk_category>/<objective index>``), ``risk_category`` (value string,
  e.g. ``"violence"``), ``attack_technique`` (azure's strategy name: ``"baseline"``, ``"base64"``,
  a composition joined by ``_`` such as ``"tense_base64"``), ``attack_complexity`` (``"baseline"``,
  ``"easy"``, ``"moderate"``, ``"difficult"``), ``objective`` (the plain test objective),
  ``objective_id``, ``prompt`` (the objective after the text converters; attacker-model strategies
  rewrite it when the attack is sent), ``strategies`` (the strategy values applied, in order).
* ``rows.jsonl`` / ``summary.json`` -- the engine's files: one record per attack row; the target
  step's outputs are ``outputs.conversation`` (messages, tool calls included), ``outputs.response``,
  ``outputs.target_status`` (``"ok"`` | ``"error"`` | ``"interrupted"``); the scorer's cell is
  ``outputs.attack.*`` (``attack_success`` 1/0/None, ``outcome``, ``reason``).
* ``sent.jsonl`` -- the send journal: a line ``{"attack_id", "event": "sent"}`` is flushed before the
  target is called and ``{"attack_id", "event": "replied", "conversation", ...}`` after it answers.
  A resumed scan never sends an attack the journal says was sent: a reply on record is reused,
  and an attack sent but never answered (the process was killed in between) is counted as a
  ``target_error`` with the reason "interrupted".
* ``red_team.json`` -- :meth:`RedTeamResult.to_json`: azure 1.18.10's ``ScanResult`` document:
  ``scorecard``, ``parameters`` (``attack_objective_generated_from``, ``attack_complexity``,
  ``techniques_used``, ``attack_success_thresholds``), ``attack_details``, ``studio_url`` (null), plus ours:

  - each ``attack_details`` entry: azure's ``attack_success`` (true / false / null),
    ``attack_technique``, ``attack_complexity``, ``risk_category``, ``conversation``,
    ``risk_assessment``, ``attack_success_threshold``, and ``attack_success_reason`` (why it
    counted), ``outcome`` (``"success"`` | ``"defended"`` | ``"refused"`` | ``"target_error"`` |
    ``"judge_error"``), ``attack_id``, ``objective``;
  - in the scorecard every ``<x>_asr`` (a percentage, 0-100, rounded to 2 places as azure's;
    ``NaN`` written as ``null`` when nothing was scored) has siblings ``<x>_asr_interval``
    ``[lo, hi]`` (Wilson 95 %, same percent unit; ``null`` when n is 0) and ``<x>_asr_n`` (the
    attacks scored: successes + defended + refused). Target errors and judge errors are never
    in n: they are counted apart in the scorecard's ``outcome_counts``
    (``{"overall" | <risk category> | <attack technique>: {"success", "defended", "refused",
    "target_error", "judge_error"}}``);
  - the scorecard also has ``attack_technique_asr``: ``{<attack technique>: {"asr", "asr_interval",
    "asr_n", "total", "successful_attacks"}}`` (per strategy, paired: every strategy runs on the same
    objectives as ``baseline``);
  - ``scan``: ``{"scan_name", "run_folder", "target", "judge", "num_objectives", "strategies",
    "risk_categories", "language", "skip_evals"}``.
"""
