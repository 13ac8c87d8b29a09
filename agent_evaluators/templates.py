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
"""

import hashlib
import importlib.resources
import json
import logging
import os
import re
import secrets
from pathlib import Path
from typing import Any, Dict, List, Optional, Union

import yaml
from jinja2 import DictLoader, StrictUndefined, TemplateNotFound, TemplateSyntaxError, UndefinedError
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError
from markupsafe import Markup

from .conversation._values import json_default
from .errors import ConfigError, InputError

__all__ = ["Prompty", "load_prompty", "find_template", "ROLES"]

logger = logging.getLogger(__name__)

#: Roles a template may use. Shipped templates use only system/user/assistant (Prompt flow reads them too).
ROLES = ("system", "developer", "user", "assistant")
_ROLE_LINE = re.compile(r"^[ \t]*#?[ \t]*(system|developer|user|assistant)[ \t]*:[ \t]*\r?$", re.IGNORECASE | re.MULTILINE)
_REFERENCE = re.compile(r"^\$\{(env|file):(.*)\}$")


# ---------------------------------------------------------------------------- value encoding
def _encode(value: Any) -> str:
    """How every ``{{ expression }}`` is written: JSON, with ``<``/``>`` escaped.

    ``Markup`` (from ``| raw``, ``| safe`` or ``| tojson``) is the author's explicit opt-out and is
    written as is; input values are never Markup unless the caller made them so.
    """
    if isinstance(value, Markup):
        return str(value)
    try:
        text = json.dumps(value, ensure_ascii=False, default=json_default)
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


def _environment() -> ImmutableSandboxedEnvironment:
    env = ImmutableSandboxedEnvironment(
        trim_blocks=True,
        keep_trailing_newline=True,
        undefined=StrictUndefined,
        autoescape=False,
        loader=DictLoader({}),  # no other templates or files: {% include %} / {% import %} find nothing
        finalize=_encode,
    )
    env.filters["raw"] = _raw
    return env


_ENV = _environment()


# ---------------------------------------------------------------------------- front matter
def _split_front_matter(text: str, source: str) -> tuple:
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].strip() != "---":
        raise ConfigError(f"{source}: a .prompty file must start with a '---' line opening the YAML front matter")
    for i in range(1, len(lines)):
        if lines[i].rstrip("\r\n") == "---":
            return "".join(lines[1:i]), "".join(lines[i + 1 :])
    raise ConfigError(f"{source}: the YAML front matter is not closed by a '---' line")


def _resolve(value: Any, base: Optional[Path]) -> Any:
    """Resolve ``${env:VAR}`` (kept as written when unset, as promptflow) and ``${file:path}``."""
    if isinstance(value, dict):
        return {k: _resolve(v, base) for k, v in value.items()}
    if isinstance(value, list):
        return [_resolve(v, base) for v in value]
    if not isinstance(value, str):
        return value
    match = _REFERENCE.match(value)
    if not match:
        return value
    kind, ref = match.groups()
    if kind == "env":
        return os.environ.get(ref, value)
    path = Path(ref)
    if not path.is_absolute() and base is not None:
        path = base / path
    if not path.is_file():
        raise ConfigError(f"front matter references {value!r} but {path} does not exist")
    content = path.read_text(encoding="utf-8")
    if path.suffix.lower() == ".json":
        return json.loads(content)
    if path.suffix.lower() in (".yaml", ".yml"):
        return yaml.safe_load(content)
    return content


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
        front, body = _split_front_matter(text, source)
        try:
            meta = yaml.safe_load(front) or {}
        except yaml.YAMLError as exc:
            raise ConfigError(f"{source}: invalid YAML front matter: {exc}") from None
        if not isinstance(meta, dict):
            raise ConfigError(f"{source}: the front matter must be a YAML mapping")
        meta = _resolve(meta, base_dir)
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
        self.template_hash: str = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
        self.body = body
        self._nonce = secrets.token_hex(8)
        marked = _ROLE_LINE.sub(lambda m: f"\x00{self._nonce}:{m.group(1).lower()}\x00", body)
        if marked == body:
            raise ConfigError(
                f"{source}: the template body has no role line; start each message with a line "
                "'system:', 'developer:', 'user:' or 'assistant:'"
            )
        self._split = re.compile(f"\x00{self._nonce}:([a-z]+)\x00")
        try:
            self._template = _ENV.from_string(marked)
        except TemplateSyntaxError as exc:
            raise ConfigError(f"{source}: template syntax error on line {exc.lineno}: {exc.message}") from None

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
        if self.inputs:
            unknown = sorted(set(given) - set(self.inputs))
            if unknown:
                raise InputError(
                    f"{self.source}: unknown template input(s) {unknown}; the template declares {sorted(self.inputs)}",
                    input_name=unknown[0],
                )
        missing = [n for n in self.required_inputs if given.get(n) is None]
        if missing:
            raise InputError(f"{self.source}: missing required template input(s) {missing}", input_name=missing[0])
        values = {n: s.get("default") for n, s in self.inputs.items()}
        values.update({k: v for k, v in given.items() if v is not None or k not in values})
        return values

    def render(self, **inputs: Any) -> List[Dict[str, str]]:
        """The chat messages (``[{"role", "content"}]``) for these inputs.

        Raises :class:`InputError` for a missing required or unknown input, and
        :class:`ConfigError` when the template itself is at fault (undefined variable it did
        not declare, a blocked attribute access).
        """
        values = self._bind(inputs)
        try:
            text = self._template.render(values)
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
        return self._messages(text)

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
