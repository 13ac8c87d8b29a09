"""Read a trace file's rows in a process of its own and print its peak memory (the heavy memory test, the bench).

``python -m tests.traces.trace_memory_child FILE`` reads every row of FILE as ``evaluate()`` does
(:func:`agent_evaluators.traces.trace_rows`), keeping none, and prints ``{"peak_mb", "rows", "errors"}``.
"""

import json
import sys

from tests.peak_memory import peak_mb


def main() -> None:
    from agent_evaluators.runner.readers import RowError
    from agent_evaluators.traces import trace_rows

    rows = errors = 0
    for row in trace_rows(sys.argv[1], RowError):
        rows += 1
        errors += isinstance(row, RowError)
    print(json.dumps({"peak_mb": peak_mb(), "rows": rows, "errors": errors}))


if __name__ == "__main__":
    main()
