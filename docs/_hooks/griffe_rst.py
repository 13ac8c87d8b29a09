"""Griffe extension: the package's reST docstring markup read as Markdown on the Python API pages.

The docstrings are written for ``help()`` and Sphinx: ``:class:`~x.Y```, ``:func:`name```, and
literal blocks introduced by ``::``. mkdocstrings renders docstrings as Markdown, where those show
as raw roles and run-on text. This extension rewrites each docstring as it is loaded, for the site
only (the source is unchanged): a role becomes inline code of its target (``~`` keeps the last
part), and a ``::`` block becomes a fenced code block.
"""

import re
from typing import Any, List

import griffe

ROLE = re.compile(r":(?:py:)?(?:func|class|mod|meth|attr|data|exc|obj|const|ref|doc):`(~?)([^`]+)`")


def _role(match: "re.Match[str]") -> str:
    short, target = match.group(1), match.group(2).strip()
    if "<" in target and target.endswith(">"):  # :ref:`text <target>`
        target = target[:target.index("<")].strip()
    target = target.lstrip(".")
    if short:
        target = target.rsplit(".", 1)[-1]
    return f"`{target}`"


def _literal_blocks(text: str) -> str:
    """``para::`` + blank line + an indented block -> ``para:`` + a fenced block (``::`` alone: no line)."""
    lines = text.split("\n")
    out: List[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.rstrip().endswith("::") and i + 1 < len(lines) and not lines[i + 1].strip():
            head = line.rstrip()[:-2].rstrip()
            indent = len(line) - len(line.lstrip())
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            block_indent = len(lines[j]) - len(lines[j].lstrip()) if j < len(lines) else 0
            if j < len(lines) and block_indent > indent:
                k = j
                block: List[str] = []
                while k < len(lines) and (not lines[k].strip() or
                                          len(lines[k]) - len(lines[k].lstrip()) >= block_indent):
                    block.append(lines[k][block_indent:])
                    k += 1
                while block and not block[-1].strip():
                    block.pop()
                if head.strip():
                    out.append(head + ":")
                out += ["", " " * indent + "```", *(" " * indent + b if b else "" for b in block),
                        " " * indent + "```", ""]
                i = k
                continue
        out.append(line)
        i += 1
    return "\n".join(out)


def rest_to_markdown(text: str) -> str:
    return _literal_blocks(ROLE.sub(_role, text))


class RestToMarkdown(griffe.Extension):
    """Rewrite each loaded object's docstring (modules, classes, functions, attributes)."""

    def on_instance(self, *, node: Any, obj: Any, agent: Any, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = rest_to_markdown(obj.docstring.value)
