"""The shell commands and ``samples/`` paths the user documents name (README.md, ``docs/``,
CONTRIBUTING.md), read the way a user reads them.

Commands come from README's shell code blocks (```` ```bash ```` and unlabelled blocks; Python, YAML
and JSON blocks are code, not commands) and from inline code spans that start with a command word.
A line continued with ``\\`` is joined, a trailing ``# comment`` and a trailing ``&`` are dropped,
and ``a && b`` is two commands. Optional parts of a synopsis (``[--html]``) are dropped: the command
as run is the one a user types first.
"""

import re
from pathlib import Path
from typing import List

COMMAND_WORDS = ("agent-eval", "pytest", "python", "python3", "pip", "bash", "ray", "export", "kill", ".")
SHELL_LANGS = ("", "bash", "sh", "shell", "console")

_FENCE = re.compile(r"^```([\w-]*)\s*$")
_INLINE = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
_COMMENT = re.compile(r"\s+#\s.*$")
_OPTIONAL = re.compile(r"\s*\[[^\[\]]*\]")
_SAMPLE_PATH = re.compile(r"\bsamples/[A-Za-z0-9_./-]*")


def _is_command(text: str) -> bool:
    """A command word and at least one argument (a bare `pytest` in prose names the tool)."""
    word, _, rest = text.partition(" ")
    return word in COMMAND_WORDS and bool(rest.strip())


def _split(line: str) -> List[str]:
    line = _COMMENT.sub("", line).strip()
    parts = [p.strip() for p in line.split(" && ")]
    return [p[:-1].strip() if p.endswith(" &") else p for p in parts if p]


def shell_block_commands(readme: str) -> List[str]:
    """Every command of README's shell code blocks, in order (continuations joined, ``&&`` split)."""
    out: List[str] = []
    lang = None  # None: outside a block
    pending = ""
    for raw in readme.splitlines():
        fence = _FENCE.match(raw.strip())
        if fence:
            lang = fence.group(1) if lang is None else None
            continue
        if lang is None or lang not in SHELL_LANGS:
            continue
        line = pending + raw.strip()
        if line.endswith("\\"):
            pending = line[:-1].rstrip() + " "
            continue
        pending = ""
        out.extend(c for c in _split(line) if _is_command(c))
    return out


def inline_commands(readme: str) -> List[str]:
    """Every inline code span outside code blocks that starts with a command word, in order."""
    out: List[str] = []
    in_block = False
    for raw in readme.splitlines():
        if _FENCE.match(raw.strip()):
            in_block = not in_block
            continue
        if not in_block:
            out.extend(m.group(1).strip() for m in _INLINE.finditer(raw) if _is_command(m.group(1).strip()))
    return out


def as_typed(command: str) -> str:
    """A synopsis as a user types it first: optional ``[...]`` parts dropped."""
    return _OPTIONAL.sub("", command).strip()


def sample_paths(readme: str) -> List[str]:
    return sorted({m.group(0).rstrip(".,") for m in _SAMPLE_PATH.finditer(readme)})


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def user_documents(root: Path) -> List[Path]:
    """What a user reads: README.md, the docs site's pages (``docs/``, in path order) and CONTRIBUTING.md."""
    pages = sorted(p for p in (root / "docs").rglob("*.md") if "_hooks" not in p.parts)
    return [root / "README.md", *pages, root / "CONTRIBUTING.md"]


def user_docs_text(root: Path) -> str:
    """Every user document, one after the other (for the command and path checks)."""
    return "\n\n".join(read(p) for p in user_documents(root))
