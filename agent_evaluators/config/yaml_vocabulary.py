"""A run config's words for the library's messages: the file's keys where Python says keywords.

A message of the library is a :class:`~agent_evaluators.wording.Text` whose references name what
the user set; for someone who set it in a run config (``agent-eval run --config``, a
``*.eval.yaml`` test file) this vocabulary says them as the file does:

* a run option by its key (``max_concurrency:``; with a value ``force: true``, ``engine: ray``),
  or by the older spelling the file used (``concurrency:``);
* a judge setting by its key in the ``judge:`` section (``judge.base_url``);
* a column mapping as the file's ``column_mapping:`` (under ``evaluators.<alias>``, or the
  top-level one for every evaluator);
* a keyed sentence by the template in :data:`RUN_CONFIG_SENTENCES` (``null`` where Python says ``None``).
"""

from typing import Any, Dict, Mapping, Optional

from ..wording import ColumnMap, JudgeKey, Option, Words
from .judge_settings import _JUDGE_KEYS

#: keyed sentences in a run config's words (same fields as Python's)
RUN_CONFIG_SENTENCES: Dict[str, str] = {
    "no-limit": " (or null for no limit)",
    "no-cap": " (or null for no cap)",
    "raise-timeout": "{option}",
    "mapping-example": "{mapping} (a top-level column_mapping applies to every evaluator without its own)",
    "mapping-changed": "column_mapping changed",
    "reader-more": " (convert the file to one of them)",
    "model-config-dict": " (the judge: section)",
    "base-url-word": "{key}",
}


def yaml_scalar(value: Any) -> str:
    """``value`` as a YAML file spells it (``true``, ``null``, ``ray``, ``0.5``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class RunConfigWords(Words):
    """How a run config names what the user set (see the module docstring).

    ``keys``: the spelling the file used for an option (``{"max_concurrency": "concurrency"}``), so a
    message about a key names the key as written.
    """

    templates: Mapping[str, str] = RUN_CONFIG_SENTENCES

    def __init__(self, keys: Optional[Mapping[str, str]] = None) -> None:
        self.keys: Mapping[str, str] = dict(keys or {})

    def option(self, ref: Option) -> str:
        key = self.keys.get(ref.name, ref.name)
        return f"{key}: {yaml_scalar(ref.value)}" if ref.has_value else f"{key}:"

    def judge_key(self, ref: JudgeKey) -> str:
        key = "api_key_env" if ref.key == "api_key" else ref.key
        if key not in _JUDGE_KEYS:
            return super().judge_key(ref)  # not a judge: key (extra_headers, credential): Python's words
        return f"judge.{key} is not set" if ref.missing else f"judge.{key}"

    def column_map(self, ref: ColumnMap) -> str:
        where = "" if ref.alias == "default" else f" under evaluators.{ref.alias}"
        return f"column_mapping: {{{ref.input}: ${{data.{ref.column}}}}}{where}"


#: the words of a run config (``agent-eval run --config``, ``*.eval.yaml``)
RUN_CONFIG = RunConfigWords()
