"""Column mapping: which row value each evaluator input gets.

``evaluator_config={"<alias>" | "default": {"column_mapping": {"<input>": "${data.<path>}" | "${target.<path>}"}}}``

Rules (azure-ai-evaluation's, plus the fixes users asked for):

* an alias's own mapping replaces ``"default"`` entirely (it is not merged);
* ``"default"`` is shared: each evaluator takes the inputs of it that it has, and leaves the
  rest (one mapping for evaluators that take different inputs, as azure-ai-evaluation users
  write it); an input no evaluator of the run takes is a ``ConfigError`` naming
  ``evaluator_config['default']`` (a misspelt name), unless one of them ignores the inputs it
  does not take (``ignores_unknown_inputs``, as a ``**kwargs`` evaluator does), and an input an alias's own mapping names
  that its evaluator lacks is a ``ConfigError`` naming that alias's entry;
* paths may be nested (``${data.item.response}``, ``${data.turns.0.text}``); a
  top-level column whose name contains a dot is matched first;
* inputs that are not mapped are taken by name, from the target's outputs first,
  then from the data row;
* mapping selects as well as renames: an evaluator that takes ``**kwargs`` gets
  every column only when it has no mapping at all; with a mapping it gets the
  mapped inputs and its named inputs;
* conversation vs single-turn inputs (our evaluators with
  ``conversation_turn_inputs``): an explicit mapping wins; otherwise the
  single-turn inputs are used when the row has all of them, else ``conversation``.

Mappings are checked against every evaluator's signature and the first row
before anything is evaluated (:func:`validate_first_row`); a later row that lacks
a column gets an error cell naming it (:meth:`ArgPlan.build`), unless the evaluator
declares ``absent_column_is_nan`` (azure-ai-evaluation's evaluators, ours of its meaning
included): it then gets NaN for that required input, as a pandas-read table gives it in that
library's ``evaluate()`` (the first row must still have every required column, so the column
is one the table has).
"""

import re
from collections.abc import Mapping  # not typing.Mapping: isinstance() against it is 3x slower
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from ..errors import ConfigError, InputError
from ..wording import ColumnMap, Text
from .callables import Invoker

_REF = re.compile(r"^\$\{(data|target)\.([^{}]+)\}$")


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()

#: how to add a column mapping, for a message that suggests one (the command line says ``--map``)
MAPPING_EXAMPLE = Text.keyed(
    "mapping-example", "{mapping} ('default' applies to every evaluator without its own)",
    mapping=ColumnMap("<alias>", "<input>"), default=ColumnMap("default", "<input>"))


@dataclass(frozen=True)
class Ref:
    """A parsed ``${data.a.b}`` / ``${target.x}`` reference."""

    source: str
    path: str
    parts: Tuple[str, ...]
    text: str

    @classmethod
    def parse(cls, text: Any, *, alias: str, input_name: str) -> "Ref":
        m = _REF.match(text.strip()) if isinstance(text, str) else None
        if m is None:
            raise ConfigError(Text.keyed(
                "not-a-column-reference",
                "evaluator_config[{alias!r}]['column_mapping'][{input!r}] = {value!r} is not a column reference; "
                "use '${{data.<column>}}' (nested: '${{data.a.b}}') or '${{target.<output>}}'",
                alias=alias, input=input_name, value=text), evaluator=alias, input_name=input_name)
        path = m.group(2)
        return cls(m.group(1), path, tuple(path.split(".")), text.strip())


def resolve(ref: Ref, row: Mapping[str, Any], target_out: Optional[Mapping[str, Any]]) -> Any:
    """The value ``ref`` points at, or :data:`MISSING`."""
    root = row if ref.source == "data" else target_out
    if root is None:
        return MISSING
    if ref.path in root:
        return root[ref.path]
    value: Any = root
    for part in ref.parts:
        if isinstance(value, Mapping):
            if part not in value:
                return MISSING
            value = value[part]
        elif isinstance(value, (list, tuple)) and part.lstrip("-").isdigit():
            idx = int(part)
            if not -len(value) <= idx < len(value):
                return MISSING
            value = value[idx]
        else:
            return MISSING
    return value


#: the value a required input whose column a row lacks is given, for an evaluator that takes it (pandas' NaN)
ABSENT = float("nan")
#: the ``evaluator_config`` key that maps inputs for every evaluator without a mapping of its own
DEFAULT_KEY = "default"


def parse_evaluator_config(
    evaluator_config: Optional[Mapping[str, Any]], aliases: Sequence[str]
) -> Dict[str, Dict[str, Ref]]:
    """Per alias, its explicit mapping ``{input: Ref}`` (the alias's own, else ``"default"``)."""
    return {alias: refs for alias, (_, refs) in parse_column_mappings(evaluator_config, aliases).items()}


def parse_column_mappings(
    evaluator_config: Optional[Mapping[str, Any]], aliases: Sequence[str]
) -> Dict[str, Tuple[str, Dict[str, Ref]]]:
    """Per alias, (the ``evaluator_config`` key its mapping is under, ``{input: Ref}``): the alias's
    own entry, else ``"default"`` (the key is then ``"default"``, so a message names what the user wrote)."""
    config = dict(evaluator_config or {})
    unknown = [k for k in config if k != "default" and k not in aliases]
    if unknown:
        raise ConfigError(
            f"evaluator_config has an entry for {unknown[0]!r}, which is not an evaluator alias; "
            f"aliases are: {', '.join(aliases)} (or 'default' for all)"
        )
    parsed: Dict[str, Dict[str, Ref]] = {}
    for key, entry in config.items():
        if entry is None:
            entry = {}
        if not isinstance(entry, Mapping):
            raise ConfigError(f"evaluator_config[{key!r}] must be a dict like {{'column_mapping': {{...}}}}")
        extra = [k for k in entry if k != "column_mapping"]
        if extra:
            raise ConfigError(
                f"evaluator_config[{key!r}] has unknown key {extra[0]!r}; the only key is 'column_mapping'"
            )
        mapping = entry.get("column_mapping") or {}
        if not isinstance(mapping, Mapping):
            raise ConfigError(f"evaluator_config[{key!r}]['column_mapping'] must be a dict of input -> '${{data.col}}'")
        parsed[key] = {name: Ref.parse(text, alias=key, input_name=name) for name, text in mapping.items()}
    default = parsed.get(DEFAULT_KEY, {})
    return {alias: (alias, parsed[alias]) if alias in parsed else (DEFAULT_KEY, default) for alias in aliases}


def plan_arguments(evaluator_config: Optional[Mapping[str, Any]], invokers: Mapping[str, Invoker]) -> List["ArgPlan"]:
    """Every evaluator's :class:`ArgPlan`, in ``invokers``' order. The ``"default"`` mapping is shared:
    each evaluator keeps the inputs of it that it takes, and an input that no evaluator takes is a
    ``ConfigError`` naming ``evaluator_config['default']`` (a misspelt input name)."""
    mappings = parse_column_mappings(evaluator_config, list(invokers))
    plans = [ArgPlan(alias, invoker, refs, mapped_under=key) for alias, invoker in invokers.items()
             for key, refs in [mappings[alias]]]
    shared = [(key, refs) for key, refs in mappings.values() if key == DEFAULT_KEY]
    if shared:
        takers = [inv for alias, inv in invokers.items() if mappings[alias][0] == DEFAULT_KEY]
        for name in shared[0][1]:
            if not any(inv.accepts(name) or inv.ignores_unknown for inv in takers):
                raise ConfigError(Text.keyed(
                    "default-maps-unknown-input",
                    "evaluator_config['default'] maps input {input!r}, which no evaluator that uses it takes "
                    "({evaluators}); check the input's name",
                    input=name, evaluators=", ".join(f"{alias!r} ({inv.class_name})" for alias, inv in invokers.items()
                                                     if mappings[alias][0] == DEFAULT_KEY)),
                    evaluator=DEFAULT_KEY, input_name=name)
    return plans


def _describe_columns(row: Mapping[str, Any], target_out: Optional[Mapping[str, Any]]) -> str:
    cols = ", ".join(map(str, row)) or "(none)"
    if target_out is not None:
        cols += "; target outputs: " + (", ".join(map(str, target_out)) or "(none)")
    return cols


class ArgPlan:
    """How one evaluator's keyword arguments are built from a row; prepared once per run."""

    __slots__ = ("alias", "invoker", "explicit", "auto", "all_columns", "turn_inputs", "required_names",
                 "_required_sorted", "_required_sets")

    def __init__(self, alias: str, invoker: Invoker, explicit: Dict[str, Ref], *, mapped_under: Optional[str] = None) -> None:
        """``mapped_under``: the ``evaluator_config`` key ``explicit`` came from (the alias when not given);
        from ``"default"``, the inputs this evaluator does not take are left to the evaluators that do."""
        self.alias = alias
        self.invoker = invoker
        key = alias if mapped_under is None else mapped_under
        if key == DEFAULT_KEY and key != alias:
            explicit = {name: ref for name, ref in explicit.items() if invoker.accepts(name)}
        self.explicit = tuple(explicit.items())
        names = set(invoker.params)
        turn_all = tuple(invoker.turn_inputs) if invoker.ours and "conversation" in names else ()
        skip = set(explicit)
        if turn_all and "conversation" in explicit:
            skip.update(turn_all)  # mapped conversation: do not also pick up query/response by name
        elif turn_all and any(t in explicit for t in turn_all):
            skip.add("conversation")
        self.auto = tuple(n for n in sorted(names) if n not in skip)
        # A **kwargs evaluator gets every column, but only when it has no mapping (mapping selects).
        self.all_columns = invoker.var_kw and not explicit
        if turn_all and (any(t in explicit for t in turn_all) or "conversation" in explicit):
            turn_all = ()  # explicit mapping decides; no precedence rule needed
        self.turn_inputs = turn_all
        self.required_names = frozenset().union(*invoker.required) if invoker.required else frozenset()
        self._required_sorted = [tuple(sorted(req)) for req in invoker.required]  # checked on every row
        self._required_sets = [frozenset(req) for req in invoker.required]
        for name in explicit:
            if not invoker.accepts(name):
                accepted = ", ".join(sorted(invoker.params)) or "(none)"
                raise ConfigError(Text.keyed(
                    "maps-unknown-input",
                    "evaluator_config[{key!r}] maps input {input!r}, but evaluator {alias!r} ({class_name}) has no "
                    "such input; its inputs are: {accepted}",
                    key=key, alias=alias, input=name, class_name=invoker.class_name, accepted=accepted),
                    evaluator=alias, input_name=name)

    def build(
        self, row: Mapping[str, Any], target_out: Optional[Mapping[str, Any]], *, fill_absent: bool = True
    ) -> Tuple[Dict[str, Any], Optional[Union[str, Text]]]:
        """(kwargs, problem) for one row; ``problem`` names a missing column, else ``None``.
        An evaluator that takes NaN for an absent column (``invoker.absent_is_nan``) gets it for each
        missing required input instead, unless ``fill_absent=False`` (the first-row check)."""
        absent = fill_absent and self.invoker.absent_is_nan
        kwargs: Dict[str, Any] = {}
        if self.all_columns:
            kwargs.update(row)
            if target_out:
                kwargs.update(target_out)
        for name, ref in self.explicit:
            value = resolve(ref, row, target_out)
            if value is MISSING:
                if name in self.required_names and not absent:
                    return kwargs, (
                        f"input {name!r} is mapped to {ref.text}, which this row does not have "
                        f"(available columns: {_describe_columns(row, target_out)})"
                    )
                continue
            kwargs[name] = value
        for name in self.auto:
            if target_out and name in target_out:
                kwargs[name] = target_out[name]
            elif name in row:
                kwargs[name] = row[name]
        if self.turn_inputs:
            if all(kwargs.get(t) is not None for t in self.turn_inputs):
                kwargs.pop("conversation", None)
            elif kwargs.get("conversation") is not None:
                for t in self.turn_inputs:
                    kwargs.pop(t, None)
        missing = self._missing(kwargs)
        if missing is not None and absent:
            kwargs.update((name, ABSENT) for name in self.missing_inputs(kwargs))
            return kwargs, None
        if missing is not None:
            return kwargs, Text(
                "input {missing!r} is missing: this row has no column {missing!r} (available columns: {columns}); "
                "map one with {mapping}", missing=missing, columns=_describe_columns(row, target_out),
                mapping=ColumnMap(self.alias, missing))
        return kwargs, None

    def _missing(self, kwargs: Mapping[str, Any]) -> Optional[str]:
        """The first required input not present (conversation stands in for turn inputs)."""
        keys = kwargs.keys()
        for required in self._required_sets:  # the usual row: every input of an overload present, at once
            if keys >= required:
                return None
        absent = self.missing_inputs(kwargs)
        return absent[0] if absent else None

    def missing_inputs(self, kwargs: Mapping[str, Any]) -> List[str]:
        """Required inputs not present, for the closest overload (empty when satisfied)."""
        best: Optional[List[str]] = None
        for req in self._required_sorted:
            absent = [n for n in req if n not in kwargs]
            if self.invoker.turn_inputs and kwargs.get("conversation") is not None:
                absent = [n for n in absent if n not in self.invoker.turn_inputs]
            if not absent:
                return []
            if best is None or len(absent) < len(best):
                best = absent
        return best or []


def validate_first_row(
    plans: Sequence[ArgPlan], row: Mapping[str, Any], target_out: Optional[Mapping[str, Any]]
) -> None:
    """Fail fast, before any evaluator runs, when the first row cannot feed every evaluator."""
    problems: List[str] = []
    first_alias = first_input = None
    for plan in plans:
        for name, ref in plan.explicit:
            if resolve(ref, row, target_out) is MISSING:
                problems.append(
                    f"- evaluator {plan.alias!r} ({plan.invoker.class_name}): input {name!r} is mapped to "
                    f"{ref.text}, which does not exist in the first row"
                )
                first_alias, first_input = first_alias or plan.alias, first_input or name
        kwargs, problem = plan.build(row, target_out, fill_absent=False)
        if problem is not None and "is missing:" in str(problem):
            missing = plan.missing_inputs(kwargs)
            names = ", ".join(repr(m) for m in missing)
            problems.append(
                f"- evaluator {plan.alias!r} ({plan.invoker.class_name}): required input(s) {names} "
                f"neither mapped nor found as columns"
            )
            first_alias, first_input = first_alias or plan.alias, first_input or missing[0]
    if problems:
        raise InputError(
            Text("Some evaluators cannot get their inputs from the data (checked on the first row, before any "
                 "evaluator ran):\n{problems}\nAvailable columns: {columns}\nFix the data or add a mapping, e.g. {example}.",
                 problems="\n".join(problems), columns=_describe_columns(row, target_out), example=MAPPING_EXAMPLE),
            evaluator=first_alias,
            input_name=first_input,
        )
