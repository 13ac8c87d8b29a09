"""Messages that name what the user set, in the words of whoever reads them.

The same mistake reaches people through different doors: ``evaluate(max_concurrency=0)``,
``agent-eval run --max-concurrency 0``, ``max_concurrency: 0`` in a run config. A message
that says ``max_concurrency=0`` is right for the first and wrong for the other two, so a
message is not a string but a :class:`Text`: a template whose named fields may be
*references* to what the user set:

* :class:`Option`: a run option (a keyword of ``evaluate()``), alone (``max_concurrency``)
  or with a value (``force=True``, ``engine='ray'``);
* :class:`JudgeKey`: a judge setting, a ``model_config`` key (``base_url``);
* :class:`ColumnMap`: one column mapping of an evaluator input (``evaluator_config=...``).

A :class:`Words` (a vocabulary) says each reference its own way. :data:`PYTHON` is the one
``str()`` uses: ``max_concurrency``, ``force=True``, ``model_config 'base_url'``. The command
line's words (``--max-concurrency``, ``--force``, ``--judge-base-url``, ``--map a.x=COLUMN``)
are made from the option table and the judge-flag table in ``agent_evaluators/cli/flag_vocabulary.py``;
a run config's (``max_concurrency:``, ``force: true``, ``judge.base_url``) in
``agent_evaluators/config/yaml_vocabulary.py``. A sentence whose advice differs by more than a name
(how to give the judge a key, where a raw reply is kept) carries a *key*
(:meth:`Text.keyed`): a vocabulary may hold its own template for that key over the same
fields, and says the Python sentence otherwise. Nothing is rewritten after the fact: each
reader's words are rendered from the fields.

A field that is not a reference or a :class:`Text` is formatted as ``str.format`` would
(``{value!r}``); a reference or a nested text is replaced by its words (write it as ``{name}``).

Some messages travel as stored text before anyone prints them: an ADK case result lists the
judge errors of its criteria as strings (they are saved in ADK's result files). :func:`remember`
keeps, for the most recent messages that have references, their Python words -> the
:class:`Text` (every error of this package is remembered when it is made), and :func:`recall`
gives the text back for words read from such a string, so the command line can still say them
its way. It is a bounded memory of this process (:data:`REMEMBERED`), not a store: words that
were never remembered, or were forgotten, come back as plain text and print as they are.
"""

import enum
import threading
from collections import OrderedDict
from typing import Any, Dict, Iterable, Iterator, Mapping, Optional, Tuple, Type, TypeVar, Union

__all__ = ["Ref", "Option", "JudgeKey", "ColumnMap", "Text", "Words", "PYTHON", "UNSET", "words_of", "remember",
           "recall", "REMEMBERED"]

R = TypeVar("R", bound="Ref")


class _Unset(enum.Enum):
    """No value given (an enum member: it survives pickling into a Ray worker and back as itself)."""

    UNSET = 0

    def __repr__(self) -> str:
        return "UNSET"


UNSET = _Unset.UNSET


class Ref:
    """A named reference in a message: something the user set, which each vocabulary names its own way.

    Plain value objects (no dataclasses: ``import agent_evaluators`` loads this module and stays light):
    equal when their fields are, hashable, picklable into a Ray worker and back."""

    __slots__ = ()
    _fields: Tuple[str, ...] = ()

    def spoken_in(self, words: "Words") -> str:
        raise NotImplementedError

    def _values(self) -> Tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._fields)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._values() == other._values()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self).__name__, *map(repr, self._values())))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{n}={v!r}' for n, v in zip(self._fields, self._values()))})"

    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]:
        return type(self), self._values()


class Option(Ref):
    """A run option of ``evaluate()`` (:mod:`agent_evaluators.runner.option_table`), optionally with the
    value it is set to: ``Option("max_rows")``, ``Option("force", True)``, ``Option("engine", "ray")``."""

    __slots__ = ("name", "value")
    _fields = ("name", "value")

    def __init__(self, name: str, value: Any = UNSET) -> None:
        self.name = name
        self.value = value

    @property
    def has_value(self) -> bool:
        return self.value is not UNSET

    def spoken_in(self, words: "Words") -> str:
        return words.option(self)


class JudgeKey(Ref):
    """A judge setting: a ``model_config`` key (``base_url``, ``timeout``, ``api_key``); ``missing``: the
    message says the judge lacks it."""

    __slots__ = ("key", "missing")
    _fields = ("key", "missing")

    def __init__(self, key: str, missing: bool = False) -> None:
        self.key = key
        self.missing = missing

    def spoken_in(self, words: "Words") -> str:
        return words.judge_key(self)


class ColumnMap(Ref):
    """The column mapping of input ``input`` of evaluator ``alias`` (``'default'``: every evaluator) to
    ``column`` (a placeholder such as ``<column>`` when the message suggests one)."""

    __slots__ = ("alias", "input", "column")
    _fields = ("alias", "input", "column")

    def __init__(self, alias: str, input: str, column: str = "<column>") -> None:
        self.alias = alias
        self.input = input
        self.column = column

    def spoken_in(self, words: "Words") -> str:
        return words.column_map(self)


class Text:
    """A message template with named fields, rendered in a vocabulary's words (``str()``: Python's).

    ``Text("{option} must be a positive integer, got {value!r}", option=Option("num_runs"), value=0)``.
    Texts join with ``+`` (to a ``str`` or another ``Text``), so a message can be prefixed with where it
    happened and keep its references.
    """

    __slots__ = ("template", "key", "fields", "_python")

    def __init__(self, template: str, /, **fields: Any) -> None:
        self.template = template
        self.key: Optional[str] = None
        self.fields: Dict[str, Any] = fields
        self._python: Optional[str] = None

    @classmethod
    def keyed(cls, key: str, template: str, /, **fields: Any) -> "Text":
        """A sentence another vocabulary may say with its own template (``Words.templates[key]``) over the
        same fields; ``template`` is the Python sentence."""
        text = cls(template, **fields)
        text.key = key
        return text

    @classmethod
    def of(cls, value: Union[str, "Text"]) -> "Text":
        """``value`` as a text: a ``Text`` as it is, a string as plain words (braces in it are not fields)."""
        return value if isinstance(value, Text) else cls("{text}", text=str(value))

    def render(self, words: "Words") -> str:
        """The message in ``words``."""
        if words is PYTHON and self._python is not None:
            return self._python
        values = {name: words.say(value) if isinstance(value, (Ref, Text)) else value
                  for name, value in self.fields.items()}
        out = words.template_for(self).format(**values)
        if words is PYTHON:
            self._python = out
        return out

    def refs(self) -> Iterator[Ref]:
        """Every reference in this text, nested texts included, in field order."""
        for value in self.fields.values():
            if isinstance(value, Ref):
                yield value
            elif isinstance(value, Text):
                yield from value.refs()

    def says_more_than_words(self) -> bool:
        """Whether another vocabulary may say this text differently (it has a reference or a keyed sentence)."""
        if self.key is not None:
            return True
        return any(isinstance(v, Ref) or (isinstance(v, Text) and v.says_more_than_words()) for v in self.fields.values())

    def first(self, kind: Type[R]) -> Optional[R]:
        """The first reference of ``kind`` in this text, or ``None``."""
        return next((r for r in self.refs() if isinstance(r, kind)), None)

    @classmethod
    def joined(cls, parts: Iterable[Union[str, "Text"]], separator: str) -> "Text":
        """``separator.join(parts)``, each part keeping its references."""
        items = list(parts)
        template = separator.replace("{", "{{").replace("}", "}}").join("{_%d}" % i for i in range(len(items)))
        return cls(template, **{f"_{i}": part for i, part in enumerate(items)})

    def __add__(self, other: Union[str, "Text"]) -> "Text":
        return Text("{head}{tail}", head=self, tail=other)

    def __radd__(self, other: str) -> "Text":
        return Text("{head}{tail}", head=other, tail=self)

    def __str__(self) -> str:
        return self.render(PYTHON)

    def __repr__(self) -> str:
        return f"Text({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Text):
            return NotImplemented
        return (self.template, self.key, self.fields) == (other.template, other.key, other.fields)

    def __hash__(self) -> int:
        return hash((self.template, self.key))

    def __getstate__(self) -> Dict[str, Any]:
        return {"template": self.template, "key": self.key, "fields": self.fields}

    def __setstate__(self, state: Mapping[str, Any]) -> None:
        self.template, self.key, self.fields = state["template"], state["key"], dict(state["fields"])
        self._python = None


class Words:
    """A vocabulary: how its readers name options, judge settings and column mappings, plus its own
    templates for keyed sentences. This base class speaks Python (:data:`PYTHON`); the command line and
    the run config subclass it."""

    #: message key -> this vocabulary's template for it (the same fields as the Python sentence)
    templates: Mapping[str, str] = {}

    def say(self, value: Union[Ref, Text]) -> str:
        return value.render(self) if isinstance(value, Text) else value.spoken_in(self)

    def template_for(self, text: Text) -> str:
        return self.templates.get(text.key, text.template) if text.key is not None else text.template

    def option(self, ref: Option) -> str:
        """``max_concurrency``, ``force=True``, ``engine='ray'``."""
        return f"{ref.name}={ref.value!r}" if ref.has_value else ref.name

    def judge_key(self, ref: JudgeKey) -> str:
        """``model_config 'base_url'``; missing: ``model_config is missing 'model'``."""
        return f"model_config is missing {ref.key!r}" if ref.missing else f"model_config {ref.key!r}"

    def column_map(self, ref: ColumnMap) -> str:
        """``evaluator_config={'a': {'column_mapping': {'x': '${data.<column>}'}}}``."""
        return f"evaluator_config={{{ref.alias!r}: {{'column_mapping': {{{ref.input!r}: '${{data.{ref.column}}}'}}}}}}"

    def render(self, message: Any) -> str:
        """Any message in these words: an error of this package or a :class:`Text`; anything else as ``str()``."""
        text = message if isinstance(message, Text) else getattr(message, "text", None)
        return text.render(self) if isinstance(text, Text) else str(message)


#: Python's words: what ``str(error)`` and ``rows.jsonl`` say
PYTHON = Words()


def words_of(message: Any) -> Optional[Text]:
    """The structured text of ``message`` (an error of this package, or a :class:`Text`), else ``None``."""
    text = message if isinstance(message, Text) else getattr(message, "text", None)
    return text if isinstance(text, Text) else None


#: how many recent messages :func:`remember` keeps (a bound on this process's memory, not a store)
REMEMBERED = 4096
_remembered: "OrderedDict[str, Text]" = OrderedDict()
_remembered_lock = threading.Lock()


def remember(message: Union[str, Text]) -> str:
    """``message`` in Python's words; a text with references is remembered under them (see the module
    docstring), so :func:`recall` can give it back to a reader of the stored words."""
    if isinstance(message, str):
        return message
    said = message.render(PYTHON)
    if message.says_more_than_words():
        with _remembered_lock:
            _remembered[said] = message
            _remembered.move_to_end(said)
            if len(_remembered) > REMEMBERED:
                _remembered.popitem(last=False)
    return said


def recall(said: str) -> Text:
    """The remembered text whose Python words are ``said``, else ``said`` as plain words."""
    with _remembered_lock:
        text = _remembered.get(said)
    return text if text is not None else Text.of(said)
