"""Whether a file holds OpenTelemetry traces (OTLP/JSON), told from its first bytes.

Every run asks this of its data file, so it lives apart from the trace reader
(:mod:`agent_evaluators.traces`): importing that package for a JSONL file of rows cost each
run about 16 ms of CPU, 16 µs per judge call of a 1,000-row run.
"""

import re
from pathlib import Path
from typing import List

_OTLP_START = re.compile(rb'^\s*\{\s*"(resourceSpans|resourceLogs|resource_spans|resource_logs)"')
#: how much of a file is read to recognise it
SNIFF_BYTES = 4096


def looks_like_otlp(path: Path) -> bool:
    """Whether ``path`` is an OTLP/JSON file, or a folder holding one (recognised by content)."""
    if path.is_dir():
        return any(sniff(p) for p in candidates(path))
    return sniff(path)


def sniff(path: Path) -> bool:
    """Whether the file ``path`` starts as an OTLP/JSON export request (``{"resourceSpans": ...``)."""
    try:
        with open(path, "rb") as f:
            head = f.read(SNIFF_BYTES)
    except OSError:
        return False
    return bool(_OTLP_START.match(head.lstrip(b"\xef\xbb\xbf")))


def candidates(folder: Path) -> List[Path]:
    """The files of ``folder``, recursively, by name, hidden ones left out."""
    return sorted(p for p in folder.rglob("*") if p.is_file() and not p.name.startswith("."))
