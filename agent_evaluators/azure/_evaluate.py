"""azure-ai-evaluation 1.18's ``evaluate()``, on our engine.

The signature, the returned plain dict (``rows``, ``metrics``, ``studio_url``), the row keys
and the metric names and values are 1.18's (:mod:`._rows`, :mod:`._metrics`); the run
itself is :func:`agent_evaluators.evaluate`'s: lazy reading, one judge budget, timeouts,
error cells, a run folder that can be resumed. Our run options that 1.18 lacks are
keywords here too (``max_concurrency``, ``resume``, ``rerun_failed``, ``force``,
``num_runs``, ``show_progress``, ``timeout``, ``max_rows``, ``engine``, ``ray_address``,
``num_workers``); 1.18's own extra keywords (``user_agent`` and the underscore ones) are
accepted and have no effect; any other keyword is a :class:`ConfigError` (1.18 swallows
a misspelt one silently).
"""

import logging
import os
from pathlib import Path
from typing import Any, Callable, Dict, Mapping, Optional, Tuple, Union

from ..errors import ConfigError
from ..runner.option_table import RUN_OPTIONS
from ..runner.options import LOCAL_ONLY_NOTE
from ._output import write_azure_doc
from ._rows import AzureTable
from ._run_metrics import azure_metrics

logger = logging.getLogger(__name__)

#: 1.18's file name when ``output_path`` is a folder
RESULT_FILE_NAME = "evaluation_results.json"
#: the one key we add to 1.18's result dict: our run folder, error cells, the local-only note
OUR_KEY = "agent_evaluators"

#: 1.18's own keywords, and ``azure_compat`` (always on here: this function is 1.18's)
_SIGNATURE = ("target", "output_path", "fail_on_evaluator_errors", "evaluation_name", "tags", "azure_compat")
#: our run options, taken as keywords (1.18's ``**kwargs``)
OUR_OPTIONS = tuple(o.name for o in RUN_OPTIONS if o.name not in _SIGNATURE)
#: 1.18's own extra keywords: accepted, no effect (they steer its upload, tracing and client choice)
_AZURE_EXTRAS = ("user_agent",)


def _split_kwargs(kwargs: Mapping[str, Any]) -> Dict[str, Any]:
    """Our run options from ``**kwargs``; 1.18's extras are dropped, anything else is an error."""
    ours: Dict[str, Any] = {}
    for name, value in kwargs.items():
        if name in OUR_OPTIONS:
            ours[name] = value
        elif name in _AZURE_EXTRAS or name.startswith("_"):
            logger.debug("evaluate(): %s= is azure-ai-evaluation's own and has no effect here", name)
        else:
            raise ConfigError(f"evaluate() got an unknown keyword {name!r}; besides azure-ai-evaluation 1.18's "
                              f"arguments it takes our run options: {', '.join(OUR_OPTIONS)}")
    return ours


def _output_paths(output_path: Optional[Union[str, "os.PathLike[str]"]]) -> Tuple[Optional[Path], Optional[Path]]:
    """(1.18's result file, our run folder) for ``output_path``.

    As in 1.18: an existing folder gets ``evaluation_results.json`` in it; anything else is
    the file's path, and its folder must exist. Our run folder (``rows.jsonl``,
    ``summary.json``; what ``resume=True`` continues) is the file's path without its suffix.
    """
    if output_path is None:
        return None, None
    if not isinstance(output_path, (str, os.PathLike)):
        raise ConfigError(f"output_path must be a file or folder path, got {type(output_path).__name__}")
    path = Path(output_path)
    if path.is_dir():
        path = path / RESULT_FILE_NAME
    elif str(path.parent) not in ("", ".") and not path.parent.exists():
        raise ConfigError(f"output_path: the folder {path.parent} does not exist; create it first "
                          "(azure-ai-evaluation 1.18 refuses it too)")
    folder = path.with_suffix("") if path.suffix else path.with_name(path.name + ".run")
    return path, folder


def _known_entries(evaluator_config: Optional[Mapping[str, Any]],
                   evaluators: Mapping[str, Any]) -> Optional[Dict[str, Any]]:
    """``evaluator_config`` without the entries for an alias not in ``evaluators``: 1.18 ignores them
    (a config shared by several runs); a warning names them."""
    if evaluator_config is None:
        return None
    unused = [k for k in evaluator_config if k != "default" and k not in evaluators]
    if unused:
        logger.warning("evaluator_config entries %s name no evaluator of this run and are ignored "
                       "(as azure-ai-evaluation 1.18 ignores them)", ", ".join(repr(k) for k in unused))
    return {k: v for k, v in evaluator_config.items() if k not in unused}


def evaluate(
    *,
    data: Any,
    evaluators: Mapping[str, Callable[..., Any]],
    evaluation_name: Optional[str] = None,
    target: Optional[Callable[..., Any]] = None,
    evaluator_config: Optional[Mapping[str, Any]] = None,
    azure_ai_project: Any = None,
    output_path: Optional[Union[str, "os.PathLike[str]"]] = None,
    fail_on_evaluator_errors: bool = False,
    tags: Optional[Dict[str, str]] = None,
    **kwargs: Any,
) -> Dict[str, Any]:
    """azure-ai-evaluation 1.18's ``evaluate()``: the same arguments, the same result dict.

    Returns a plain dict ``{"rows": [...], "metrics": {...}, "studio_url": None,
    "agent_evaluators": {...}}`` (``json.dumps`` works on it). ``rows`` and ``metrics`` are
    1.18's (see :mod:`agent_evaluators.azure._rows` and ``.azure_metrics`` for the rules and the
    deliberate differences). ``agent_evaluators`` is ours: ``run_folder`` (our ``rows.jsonl``
    and ``summary.json``, or ``None``), ``errors`` (``{"line_number", "alias", "message"}``
    per error cell), ``usage`` (judge tokens per alias) and ``note``.

    ``azure_ai_project`` is accepted and nothing is uploaded: results stay local, a warning
    says so once per call, ``studio_url`` is ``None`` and ``note`` says why.
    ``output_path``: 1.18's file (or ``evaluation_results.json`` in an existing folder), with
    our run folder beside it. Our run options are keywords too (module docstring).
    """
    from ..runner import evaluate as run

    options = _split_kwargs(kwargs)
    evaluator_config = _known_entries(evaluator_config, evaluators)
    azure_file, folder = _output_paths(output_path)
    result = run(data=data, evaluators=evaluators, evaluator_config=evaluator_config, target=target,
                 output_path=folder, fail_on_evaluator_errors=fail_on_evaluator_errors,
                 evaluation_name=evaluation_name, tags=tags, azure_ai_project=azure_ai_project, **options)
    table = AzureTable.from_records(result.rows, list(evaluators), with_target=target is not None)
    doc: Dict[str, Any] = {
        "rows": table.rows,
        "metrics": azure_metrics(table, evaluators),
        "studio_url": None,
        OUR_KEY: {
            "run_folder": str(result.output_path) if result.output_path is not None else None,
            "errors": list(result.errors),
            "usage": dict(result.usage or {}),
            "note": LOCAL_ONLY_NOTE if azure_ai_project is not None else None,
        },
    }
    if azure_file is not None:
        write_azure_doc(azure_file, doc)
    return doc
