"""Data-derived text made safe to show: on a terminal, in the HTML report, in JUnit XML.

Why: row ids, reasons, error messages and aliases come from users' data and judges' replies.
Raw, they can drive a terminal (ESC sequences, an OSC window title ``\\x1b]0;...\\x07``, NUL,
a CR that overwrites the line), spoof displayed text with Unicode bidi overrides/isolates
(``U+202E`` makes ``gnp.exe`` read as ``exe.png``), or make XML ill-formed (XML 1.0 forbids
most C0 controls even as character references). One rule for all three places:

* every C0 control, DEL, every C1 control, the bidi marks, embeddings, overrides and isolates
  (U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069), the line/paragraph separators U+2028/9,
  lone surrogates and the non-characters U+FFFE/U+FFFF are shown as visible escapes;
* on a terminal that includes tab, newline and CR (one data value stays one line);
  in HTML and XML those three are kept, since they are harmless there.

Escapes are ``\\x1b`` style on a terminal (as Python writes them) and ``\\u001b`` style in
HTML/XML, which keeps JSON shown in the report valid JSON. Nothing is deleted, so what the
data held is still visible.
"""

import re

_SPECIAL = "\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff"
_TERMINAL_UNSAFE = re.compile(f"[\x00-\x1f{_SPECIAL}]")
_DISPLAY_UNSAFE = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f{_SPECIAL}]")


def _terminal_escape(match: "re.Match[str]") -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _display_escape(match: "re.Match[str]") -> str:
    return f"\\u{ord(match.group()):04x}"


def terminal_safe(text: object) -> str:
    """``text`` (any value, via ``str``) with every control and bidi character shown as an escape.

    Use on every data-derived string the CLI prints: the result holds no ESC, NUL, CR, LF or
    other control byte, so it can neither move the cursor nor retitle the window.
    """
    s = text if isinstance(text, str) else str(text)
    return _TERMINAL_UNSAFE.sub(_terminal_escape, s) if _TERMINAL_UNSAFE.search(s) else s


def terminal_message(text: object, indent: str = "  ") -> str:
    """A multi-line message of ours for the terminal: its line breaks kept, every other control escaped.

    Our messages (a config error listing each problem on its own line, a YAML error with its
    caret) are laid out in lines; :func:`terminal_safe` alone would print them as one line of
    ``\\x0a``. Lines after the first are indented by ``indent``, so a line break that came
    from data can never make a line that looks like one of ours (``Result: PASS``).
    """
    s = text if isinstance(text, str) else str(text)
    first, *rest = [terminal_safe(line) for line in s.strip("\n").split("\n")]
    return "\n".join([first, *(indent + line if line else "" for line in rest)])


def display_safe(text: object) -> str:
    """``text`` for HTML or XML: as :func:`terminal_safe` but keeping tab, LF and CR, with ``\\uXXXX`` escapes.

    Escape ``<``/``&`` for the markup afterwards as usual (``html.escape``, ElementTree).
    """
    s = text if isinstance(text, str) else str(text)
    return _DISPLAY_UNSAFE.sub(_display_escape, s) if _DISPLAY_UNSAFE.search(s) else s
