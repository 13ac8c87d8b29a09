"""Load and render ``.prompty`` judge templates, safely.

Format (as Prompt flow): YAML front matter between a first line ``---`` and the next line that
is exactly ``---``, then a Jinja2 body split into chat messages by role lines (``system:``,
``developer:``, ``user:``, ``assistant:`` alone on a line, any case, optional leading ``#``).

Why this loader and not a text-level port of promptflow's:

* Role lines are recognised only in the template source. Before compiling, each role line of the
  source is replaced by a sentinel holding a per-template random nonce and NUL bytes; after
  rendering, the text is split on those sentinels only. Input values can therefore never start a
  message, yet a template may still emit role lines from inside ``{% for %}`` / ``{% if %}``.
* Every ``{{ value }}`` is written as JSON (strings too, ``ensure_ascii=False``) with ``<`` and
  ``>`` escaped as ``\\u003c`` / ``\\u003e``. Untrusted text stays one JSON string on one line: it
  cannot form a role line, cannot close an XML-style block the template wraps around it
  (``<response>{{response}}</response>``), and Jinja syntax inside it is never evaluated. Template
  authors who need the raw text opt out per expression with ``{{ value | raw }}``.
* The body renders in Jinja's immutable sandbox with ``StrictUndefined``: ``{{ ''.__class__ }}``
  fails with a clear error, and a missing required input is an :class:`InputError` naming it.
* A ``---`` line inside the body is body text (promptflow's greedy regex fails on it).
* A body that is only text and ``{{ name }}`` expressions (every shipped metric template) renders
  by joining its text with the encoded values, the same text Jinja writes, without Jinja
  (:func:`plain_parts`); Jinja is imported only for a template that needs it.
"""

import hashlib
import importlib.resources
import json
import logging
import os
import re
import secrets
import threading
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Union

import yaml
from markupsafe import Markup

from ._util.json_text import escape, messages_json
from .conversation._values import json_default
from .conversation.transcript import DataText
from .errors import ConfigError, InputError

__all__ = ["Prompty", "load_prompty", "find_template", "ROLES"]

logger = logging.getLogger(__name__)

#: Roles a template may use. Shipped templates use only system/user/assistant (Prompt flow reads them too).
ROLES = ("system", "developer", "user", "assistant")
_ROLE_LINE = re.compile(r"^[ \t]*#?[ \t]*(system|developer|user|assistant)[ \t]*:[ \t]*\r?$", re.IGNORECASE | re.MULTILINE)
_REFERENCE = re.compile(r"^\$\{(env|file):(.*)\}$")


# ---------------------------------------------------------------------------- value encoding
# json.dumps(value, ensure_ascii=False, default=json_default) builds a new encoder per call: reuse one.
_ENCODER = json.JSONEncoder(ensure_ascii=False, default=json_default)


def _encode(value: Any) -> str:
    """How every ``{{ expression }}`` is written: JSON, with ``<``/``>`` escaped; a judge transcript
    (:class:`~agent_evaluators.conversation.transcript.DataText`, whose row values its renderer
    encoded: ``<``/``>`` escaped, no line of their own) as its text.

    ``Markup`` (from ``| raw``, ``| safe`` or ``| tojson``) is the author's explicit opt-out and is
    written as is; input values are never Markup unless the caller made them so.
    """
    if isinstance(value, (Markup, DataText)):  # DataText: a transcript whose row values are already encoded
        return str(value)
    text: Optional[str]
    if type(value) is str:  # the common case; exactly what json.dumps(value, ensure_ascii=False) writes
        text = escape(value)
    else:
        text = messages_json(value)  # the other common case, written directly (same text)
        if text is None:
            try:
                text = _ENCODER.encode(value)
            except (TypeError, ValueError) as exc:
                raise InputError(f"a template input value could not be written as JSON: {exc}") from None
    return text.replace("<", "\\u003c").replace(">", "\\u003e")


def _raw(value: Any) -> Markup:
    """``{{ value | raw }}``: the string itself (other values as plain JSON), not JSON-quoted.

    For template authors who control the value or need it in a loop; it gives up the
    injection protection for that expression.
    """
    if isinstance(value, str):
        return Markup(value)
    return Markup(json.dumps(value, ensure_ascii=False, default=json_default))


_ENV: Any = None  # the sandboxed Jinja environment, made on first need (importing jinja2 costs ~25 ms)


def _environment() -> Any:
    """The one Jinja environment every non-plain template compiles in (see the module docstring)."""
    global _ENV
    if _ENV is None:
        from jinja2 import DictLoader, StrictUndefined
        from jinja2.sandbox import ImmutableSandboxedEnvironment

        env = ImmutableSandboxedEnvironment(
            trim_blocks=True,
            keep_trailing_newline=True,
            undefined=StrictUndefined,
            autoescape=False,
            loader=DictLoader({}),  # no other templates or files: {% include %} / {% import %} find nothing
            finalize=_encode,
        )
        env.filters["raw"] = _raw
        _ENV = env
    return _ENV


# ---------------------------------------------------------------------------- plain templates
#: ``{{ name }}`` and nothing else inside the braces
_PLAIN_EXPRESSION = re.compile(r"\{\{[ \t\n\r]*([A-Za-z_][A-Za-z0-9_]*)[ \t\n\r]*\}\}")
#: names Jinja reads as constants, not as variables
_JINJA_CONSTANTS = frozenset({"true", "false", "none", "True", "False", "None"})
_NEWLINES = re.compile(r"\r\n|\r")


def plain_parts(body: str) -> Optional[Tuple[Tuple[str, ...], Tuple[str, ...]]]:
    """``(texts, names)`` when ``body`` is only text and ``{{ name }}`` expressions, else ``None``.

    Most judge templates are exactly that. Rendering them is then ``texts[0] + encode(value of
    names[0]) + texts[1] + ...``: what Jinja produces for them (its lexer turns ``\\r\\n`` and ``\\r``
    into ``\\n`` in template text; ``trim_blocks`` only touches block tags, of which there are
    none; each expression goes through the same ``finalize``), at a third of the cost and
    without importing Jinja. Anything else (a block, a comment, a filter, whitespace control,
    an attribute) is left to Jinja. ``tests/templates/test_plain_render.py`` checks the two agree.
    """
    if "{%" in body or "{#" in body:
        return None
    pieces = _PLAIN_EXPRESSION.split(body)
    texts, names = pieces[0::2], pieces[1::2]
    if any("{{" in t for t in texts) or any(n in _JINJA_CONSTANTS for n in names):
        return None
    return tuple(_NEWLINES.sub("\n", t) for t in texts), tuple(names)


#: one message of a plain template: (role, texts, names); a message without names holds its final text
PlainMessage = Tuple[str, Tuple[str, ...], Tuple[str, ...]]


def _plain_messages(marked: str, split: "re.Pattern[str]") -> Optional[Tuple[PlainMessage, ...]]:
    """A plain template cut into its messages at compile time, so rendering it neither scans
    nor splits the rendered text, and a message without expressions (a system prompt) is the
    same string object on every render. ``None``: not plain, or text before the first role
    line (Jinja's path reports that at render, as it always did)."""
    if plain_parts(marked) is None:
        return None
    chunks = split.split(marked)
    if chunks[0].strip():
        return None
    messages: List[PlainMessage] = []
    for role, chunk in zip(chunks[1::2], chunks[2::2], strict=True):
        parts = plain_parts(chunk)
        assert parts is not None  # a piece of a plain text is plain
        texts, names = parts
        if names:
            messages.append((role, texts, names))
        elif texts[0].strip():
            messages.append((role, (texts[0].strip(),), ()))
    return tuple(messages)


# ---------------------------------------------------------------------------- front matter
def _split_front_matter(text: str, source: str) -> tuple:
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].strip() != "---":
        raise ConfigError(f"{source}: a .prompty file must start with a '---' line opening the YAML front matter")
    for i in range(1, len(lines)):
        if lines[i].rstrip("\r\n") == "---":
            return "".join(lines[1:i]), "".join(lines[i + 1 :])
    raise ConfigError(f"{source}: the YAML front matter is not closed by a '---' line")


#: The one place ``${env:VAR}`` may appear: how to reach the judge (endpoint, key, deployment), never
#: what is sent to it. Anything under ``inputs``, ``sample``, ``model.parameters``... is request data.
_ENV_SECTION = ("model", "configuration")


def _key_name(path: Tuple[Any, ...]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else str(p)) for i, p in enumerate(path)) or "<root>"


def _resolve(value: Any, base: Optional[Path], source: str, path: Tuple[Any, ...] = ()) -> Any:
    """Resolve ``${env:VAR}`` (kept as written when unset, as promptflow) and ``${file:path}``.

    Why the limits (issue 14.5): a template is data a user may have downloaded, and whatever it
    resolves goes into the judge request. ``${env:...}`` is therefore honoured only under
    ``model.configuration`` (what promptflow's docs use it for: endpoint, key, deployment), and
    ``${file:...}`` only for files inside the template's own folder (``..`` and symlinks that
    resolve elsewhere included). Anything else is a :class:`ConfigError` naming file and key.
    """
    if isinstance(value, dict):
        return {k: _resolve(v, base, source, path + (str(k),)) for k, v in value.items()}
    if isinstance(value, list):
        return [_resolve(v, base, source, path + (i,)) for i, v in enumerate(value)]
    if not isinstance(value, str):
        return value
    match = _REFERENCE.match(value)
    if not match:
        return value
    kind, ref = match.groups()
    key = _key_name(path)
    if kind == "env":
        if path[: len(_ENV_SECTION)] != _ENV_SECTION:
            raise ConfigError(
                f"{source}: key {key!r} reads environment variable {ref!r} ({value}); a template may use "
                "${env:...} only under model.configuration (endpoint, api_key, deployment), never in inputs, "
                "defaults, parameters or other values sent to the judge. Pass the value as an input instead"
            )
        return os.environ.get(ref, value)
    return _read_reference(value, ref, base, source, key)


def _read_reference(value: str, ref: str, base: Optional[Path], source: str, key: str) -> Any:
    """The content of a ``${file:...}`` reference, which must lie inside the template's folder."""
    if base is None:
        raise ConfigError(
            f"{source}: key {key!r} references {value!r}, but a template given as text has no folder to read "
            "files from; load it from a file with load_prompty(), or inline the value"
        )
    folder = base.resolve()
    target = Path(ref)
    if not target.is_absolute():
        target = base / target
    real = target.resolve()  # follows symlinks and '..', so an escape is seen for what it is
    if not real.is_relative_to(folder):
        raise ConfigError(
            f"{source}: key {key!r} references {value!r}, which resolves to {real}, outside the template's "
            f"folder {folder}; a template may read only files next to it (or below it)"
        )
    if not real.is_file():
        raise ConfigError(f"{source}: key {key!r} references {value!r} but {target} does not exist")
    content = real.read_text(encoding="utf-8")
    if real.suffix.lower() == ".json":
        return json.loads(content)
    if real.suffix.lower() in (".yaml", ".yml"):
        return yaml.safe_load(content)
    return content


# ---------------------------------------------------------------------------- compiled cache
class _Compiled:
    """What a template's text compiles to; shared by every :class:`Prompty` made from that text.

    The front matter is kept as parsed (``${...}`` unresolved: environment and referenced files
    are read again at each load, so a changed key or file is never served stale), the body as
    a compiled Jinja template. Loading the same template again (each evaluator instance, each
    worker) then costs a hash and a dict lookup instead of a YAML parse and a Jinja compile.
    """

    __slots__ = ("digest", "meta", "body", "split", "plain", "plain_names", "_marked", "_source", "_template")

    def __init__(self, text: str, digest: str, source: str) -> None:
        self.digest = digest
        front, self.body = _split_front_matter(text, source)
        try:
            meta = yaml.safe_load(front) or {}
        except yaml.YAMLError as exc:
            raise ConfigError(f"{source}: invalid YAML front matter: {exc}") from None
        if not isinstance(meta, dict):
            raise ConfigError(f"{source}: the front matter must be a YAML mapping")
        self.meta: Dict[str, Any] = meta
        # Role lines become sentinels with a random nonce (see the module docstring); the
        # nonce is per compiled text, which is all the split needs.
        nonce = secrets.token_hex(8)
        marked = _ROLE_LINE.sub(lambda m: f"\x00{nonce}:{m.group(1).lower()}\x00", self.body)
        if marked == self.body:
            raise ConfigError(
                f"{source}: the template body has no role line; start each message with a line "
                "'system:', 'developer:', 'user:' or 'assistant:'"
            )
        self.split = re.compile(f"\x00{nonce}:([a-z]+)\x00")
        self._marked, self._source = marked, source
        self._template: Any = None
        self.plain = _plain_messages(marked, self.split)
        self.plain_names = frozenset(n for _, _, names in self.plain or () for n in names)
        if self.plain is None:
            self.template  # noqa: B018 - compile now: a syntax error is a load error

    @property
    def template(self) -> Any:
        """The compiled Jinja template (for a plain template, compiled only if ever needed)."""
        if self._template is None:
            from jinja2 import TemplateSyntaxError

            try:
                self._template = _environment().from_string(self._marked)
            except TemplateSyntaxError as exc:
                raise ConfigError(f"{self._source}: template syntax error on line {exc.lineno}: {exc.message}") from None
        return self._template


#: Compiled templates by SHA-256 of their text; a few dozen distinct templates is a lot.
_COMPILED: Dict[str, _Compiled] = {}
_COMPILED_MAX = 64
_COMPILED_LOCK = threading.Lock()


def _compiled(text: str, source: str) -> _Compiled:
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    found = _COMPILED.get(digest)
    if found is None:
        found = _Compiled(text, digest, source)  # errors are raised, never cached
        with _COMPILED_LOCK:
            while len(_COMPILED) >= _COMPILED_MAX:
                _COMPILED.pop(next(iter(_COMPILED)))  # oldest first: dicts keep insertion order
            _COMPILED[digest] = found
    return found


# ---------------------------------------------------------------------------- the template
class Prompty:
    """A loaded ``.prompty`` template.

    Attributes: ``name``, ``description``, ``api``, ``model`` (the front matter's ``model``),
    ``parameters`` (request parameters, ``response_format`` included), ``inputs``
    (name -> spec dict with ``type``/``default``/``optional``), ``outputs``, ``sample``,
    ``source``, ``text`` (the file text) and ``template_hash``.
    """

    def __init__(self, text: str, *, source: str = "<string>", base_dir: Optional[Path] = None) -> None:
        self.text = text
        self.source = source
        compiled = _compiled(text, source)
        meta = _resolve(compiled.meta, base_dir, source)  # builds new containers: the cached meta stays as parsed
        model = meta.get("model") or {}
        if not isinstance(model, dict):
            raise ConfigError(f"{source}: 'model' must be a mapping")
        self.name: Optional[str] = meta.get("name") or (Path(source).stem if source != "<string>" else None)
        self.description: Optional[str] = meta.get("description")
        self.model: Dict[str, Any] = model
        self.api: str = model.get("api", "chat")
        if self.api != "chat":
            raise ConfigError(f"{source}: model.api {self.api!r} is not supported; judge templates use 'chat'")
        self.parameters: Dict[str, Any] = dict(model.get("parameters") or {})
        self.inputs: Dict[str, Dict[str, Any]] = self._input_specs(meta.get("inputs"), source)
        self.outputs: Dict[str, Any] = dict(meta.get("outputs") or {})
        self.sample: Any = meta.get("sample")
        self.template_hash: str = compiled.digest[:16]
        self.body = compiled.body
        self._split = compiled.split
        self._compiled = compiled
        self._plain = compiled.plain
        self._plain_names = compiled.plain_names
        self._required = tuple(self.required_inputs)
        self._defaults = {n: spec.get("default") for n, spec in self.inputs.items()}

    @staticmethod
    def _input_specs(raw: Any, source: str) -> Dict[str, Dict[str, Any]]:
        if raw is None:
            return {}
        if not isinstance(raw, dict):
            raise ConfigError(f"{source}: 'inputs' must be a mapping of input name to spec")
        specs: Dict[str, Dict[str, Any]] = {}
        for name, spec in raw.items():
            if spec is None:
                spec = {}
            elif not isinstance(spec, dict):  # shorthand ``name: default`` as promptflow's samples use
                spec = {"default": spec}
            specs[str(name)] = dict(spec)
        return specs

    @classmethod
    def from_text(cls, text: str, *, source: str = "<string>", base_dir: Optional[Path] = None) -> "Prompty":
        """A template from its text; ``source`` names it in error messages."""
        return cls(text, source=source, base_dir=base_dir)

    @property
    def required_inputs(self) -> List[str]:
        """Declared inputs without a default that are not marked ``optional``."""
        return [n for n, s in self.inputs.items() if "default" not in s and not s.get("optional")]

    def _bind(self, given: Dict[str, Any]) -> Dict[str, Any]:
        declared = self.inputs
        if declared and not given.keys() <= declared.keys():  # a set comparison, not a generator per call
            unknown = sorted(k for k in given if k not in declared)
            if unknown:
                raise InputError(
                    f"{self.source}: unknown template input(s) {unknown}; the template declares {sorted(self.inputs)}",
                    input_name=unknown[0],
                )
        missing = [n for n in self._required if given.get(n) is None]
        if missing:
            raise InputError(f"{self.source}: missing required template input(s) {missing}", input_name=missing[0])
        values = dict(self._defaults)
        for k, v in given.items():
            if v is not None or k not in values:
                values[k] = v
        return values

    def render(self, **inputs: Any) -> List[Dict[str, str]]:
        """The chat messages (``[{"role", "content"}]``) for these inputs.

        Raises :class:`InputError` for a missing required or unknown input, and
        :class:`ConfigError` when the template itself is at fault (undefined variable it did
        not declare, a blocked attribute access).
        """
        values = self._bind(inputs)
        plain = self._plain
        if plain is None or not self._plain_names <= values.keys():  # a name it lacks: Jinja says what
            return self._messages(self._render_jinja(values))
        messages = []
        for role, texts, names in plain:
            if names:
                out = [texts[0]]
                for name, text in zip(names, texts[1:]):
                    out.append(_encode(values[name]))
                    out.append(text)
                content = "".join(out).strip()
                if not content:
                    continue
            else:
                content = texts[0]
            messages.append({"role": role, "content": content})
        return messages

    @property
    def _template(self) -> Any:
        """The compiled Jinja template (shared by every load of the same text)."""
        return self._compiled.template

    def _render_jinja(self, values: Dict[str, Any]) -> str:
        from jinja2 import TemplateNotFound, UndefinedError
        from jinja2.sandbox import SecurityError

        try:
            return self._template.render(values)  # type: ignore[no-any-return]
        except SecurityError as exc:
            raise ConfigError(f"{self.source}: the template tried an unsafe operation, blocked by the sandbox: {exc}") from None
        except TemplateNotFound as exc:
            raise ConfigError(
                f"{self.source}: a template cannot include, import or extend other templates or files "
                f"({exc.name!r}); put the text in the template, or pass it as an input"
            ) from None
        except UndefinedError as exc:
            raise InputError(
                f"{self.source}: template variable is undefined ({exc.message}); pass it as an input "
                "or declare it with a default in the front matter"
            ) from None

    def _messages(self, text: str) -> List[Dict[str, str]]:
        chunks = self._split.split(text)
        if chunks[0].strip():
            raise ConfigError(f"{self.source}: text before the first role line: {chunks[0].strip()[:60]!r}")
        messages = []
        for role, content in zip(chunks[1::2], chunks[2::2], strict=True):
            content = content.strip()
            if content:
                messages.append({"role": role, "content": content})
        return messages

    def __repr__(self) -> str:
        return f"Prompty(name={self.name!r}, source={self.source!r}, hash={self.template_hash})"


def load_prompty(path: Union[str, "os.PathLike[str]"]) -> Prompty:
    """Load a ``.prompty`` file (``${file:...}`` references resolve relative to it)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"prompty file not found: {p}") from None
    except OSError as exc:
        raise ConfigError(f"cannot read prompty file {p}: {exc}") from None
    return Prompty(text, source=str(p), base_dir=p.parent)


def find_template(name: str) -> Path:
    """The path of one of our shipped templates (``name`` with or without ``.prompty``).

    Looks in the installed package (``agent_evaluators/prompty/``, where the wheel force-includes
    the repository's ``prompty/`` folder), then in the repository checkout's ``prompty/`` folder
    (editable installs ignore force-include).
    """
    filename = name if name.endswith(".prompty") else f"{name}.prompty"
    tried: List[str] = []
    try:
        packaged = importlib.resources.files("agent_evaluators") / "prompty" / filename
        tried.append(str(packaged))
        if packaged.is_file():
            return Path(str(packaged))
    except (ModuleNotFoundError, NotADirectoryError, TypeError) as exc:  # pragma: no cover - exotic loaders
        tried.append(f"importlib.resources (unavailable: {exc})")
    checkout = Path(__file__).resolve().parent.parent / "prompty" / filename
    tried.append(str(checkout))
    if checkout.is_file():
        return checkout
    raise ConfigError(f"template {filename!r} not found; looked in: {', '.join(tried)}")
