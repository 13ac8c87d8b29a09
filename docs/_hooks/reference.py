"""MkDocs hook: the reference pages, generated from the code at build time, never written twice.

* one page per evaluator of the registry (``agent_evaluators.registry``), titled with its class name:
  registry name and aliases, judge or deterministic, inputs with their types, options, result keys,
  scale, default threshold, ADK metric, the azure-ai-evaluation 1.18 counterpart, a minimal call;
* one page per run option of the option table (``agent_evaluators.runner.option_table``): Python
  keyword, CLI flag, YAML key, default, meaning;
* the CLI, each command's ``--help`` as its parser prints it (``agent_evaluators.cli.commands``);
* one Python API page per public module (every module that declares ``__all__``: its public face),
  rendered by mkdocstrings from the docstrings of the names in ``__all__``;

and adds them to the navigation. The pages are not files in ``docs/``: they exist only in the built
site, so the registry or the option table cannot gain an entry the site lacks
(``tests/docs/test_site.py`` checks the built site against both).
"""

import ast
import inspect
import io
import re
import textwrap
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

from mkdocs.structure.files import File, Files

EVALUATORS = "reference/evaluators"
OPTIONS = "reference/run-options"
API = "reference/api"
API_INDEX = "reference/python-api.md"
API_MARKER = "<!-- api-modules -->"
PACKAGE = Path(__file__).resolve().parent.parent.parent / "agent_evaluators"


# ------------------------------------------------------------------------------ evaluators
def _type_text(annotation: Any) -> str:
    if annotation is inspect.Parameter.empty:
        return "any"
    text = annotation if isinstance(annotation, str) else inspect.formatannotation(annotation)
    return text.replace("typing.", "").replace("NoneType", "None")


def _inputs_table(cls: type) -> List[str]:
    signature = getattr(cls, "_public_signature", None) or inspect.signature(cls.__call__)
    rows = ["| input | type | required |", "|---|---|---|"]
    for name, p in signature.parameters.items():
        if name == "self" or p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL):
            continue
        required = "yes" if p.default is p.empty else f"no (default `{p.default!r}`)"
        rows.append(f"| `{name}` | `{_type_text(p.annotation)}` | {required} |")
    return rows


def _required_inputs(cls: type) -> List[str]:
    signature = getattr(cls, "_public_signature", None) or inspect.signature(cls.__call__)
    return [n for n, p in signature.parameters.items()
            if n != "self" and p.default is p.empty and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]


def _example(entry: Any, cls: type) -> str:
    args = ", ".join(f"{name}=..." for name in _required_inputs(cls)) or "..."
    construct = "model_config=judge" if entry.judge else ""
    lines = [f"from agent_evaluators import {cls.__name__}", ""]
    if entry.judge:
        lines += ['judge = {"model": "gpt-4o-mini"}  # or an AzureOpenAIModelConfiguration, or a local server', ""]
    lines += [f"evaluator = {cls.__name__}({construct})", f"result = evaluator({args})",
              f"print(result[\"{entry.result_key}\"], result[\"{entry.result_key}_result\"])"]
    return "\n".join(lines)


def _azure_line(name: str) -> str:
    from agent_evaluators import registry

    try:
        azure = registry.compat_entry(name)
    except Exception:
        return "none: azure-ai-evaluation 1.18 has no evaluator of this name."
    if azure.target == registry.get(name).target:
        return f"`agent_evaluators.azure.{azure.class_name}` is this class (the same meaning in both)."
    cls = azure.load()
    scale = getattr(cls, "score_scale", None)
    scale_text = f", scale {scale[0]:g}–{scale[1]:g}" if isinstance(scale, (tuple, list)) else ""
    return (f"`agent_evaluators.azure.{azure.class_name}` keeps 1.18's meaning{scale_text}; "
            f"`agent-eval run --azure-compat` uses it for `{name}`. The differences from 1.18 are listed in the "
            "guide [Moving from azure-ai-evaluation](../../guides/azure-migration.md).")


def evaluator_page(entry: Any) -> str:
    from agent_evaluators.cli.listing import describe_class

    cls = entry.load()
    d = describe_class(cls)
    key = entry.result_key
    scale = getattr(cls, "score_scale", None)
    scale_text = f"{scale[0]:g} to {scale[1]:g}" if isinstance(scale, (tuple, list)) else "set by its options"
    better = "higher is better" if getattr(cls, "higher_is_better", True) else "lower is better"
    threshold = d["threshold"]
    threshold_text = ("none: informational, a value and never a pass or fail" if threshold is None
                      else f"`{threshold}`")
    doc = inspect.getdoc(cls) or ""
    lines = [
        f"# {cls.__name__}", "",
        d["summary"], "",
        "| fact | |", "|---|---|",
        f"| registry name | `{entry.name}` (`agent-eval run -e {entry.name}`, YAML `type: {entry.name}`) |",
    ]
    if entry.aliases:
        lines.append(f"| also answers to | {', '.join(f'`{a}`' for a in entry.aliases)} |")
    lines += [
        f"| class | `{cls.__module__}.{cls.__name__}`, importable as `agent_evaluators.{cls.__name__}` |",
        f"| calls a judge | {'yes: construct it with `model_config`' if entry.judge else 'no: deterministic'} |",
        f"| score | {scale_text}, {better} |",
        f"| default threshold | {threshold_text} |",
    ]
    if entry.adk_metric:
        lines.append(f"| Google ADK criterion | `{entry.adk_metric}` (`test_config.json`) |")
    lines += [f"| azure-ai-evaluation 1.18 | {_azure_line(entry.name)} |", "", "## Inputs", ""]
    lines += _inputs_table(cls)
    if d["options"]:
        lines += ["", "## Options", "", "Constructor keywords beside `model_config`, `threshold` and `cache`:", ""]
        lines += [f"- `{o}`" for o in d["options"]]
    lines += ["", "## Result keys", "",
              f"- `{key}`: the score;",
              f"- `{key}_result`: `\"pass\"`, `\"fail\"` or `\"not_applicable\"` (`\"error\"` in a batch run's cell);",
              f"- `{key}_threshold`, `{key}_reason`.", "",
              "## Example", "", "```python", _example(entry, cls), "```"]
    rest = doc.split("\n\n", 1)[1] if "\n\n" in doc else ""
    if rest.strip():
        lines += ["", "## Details", "", "```text", rest.strip(), "```"]
    return "\n".join(lines) + "\n"


def evaluators_index(entries: List[Any]) -> str:
    lines = ["# Evaluators", "",
             "Every evaluator the registry holds, one page each (generated from the code: "
             "`agent-eval list` prints the same facts).", "",
             "| class | registry name | judge | result key |", "|---|---|---|---|"]
    for entry in entries:
        lines.append(f"| [{entry.class_name}]({entry.name}.md) | `{entry.name}` | "
                     f"{'yes' if entry.judge else 'no'} | `{entry.result_key}` |")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------ run options
def _yaml_key(option: Any) -> str:
    from agent_evaluators.runner.option_table import OWN_FORM_ARGUMENTS

    return "(own form)" if option.name in OWN_FORM_ARGUMENTS else option.name


def option_page(option: Any) -> str:
    flags = ", ".join(f"`{f}`" for f in (option.flag, *option.flag_aliases, *(c for c, _ in option.const_flags)))
    lines = [f"# {option.name}", "", option.help, "", "| fact | |", "|---|---|",
             f"| Python | `evaluate(..., {option.name}=...)`"
             f"{'' if option.async_too else ' (not `evaluate_async`)'} |",
             f"| CLI | {flags} |",
             f"| run config (YAML) | `{_yaml_key(option)}:`"
             + (f" (older spellings: {', '.join(f'`{a}`' for a in option.aliases)})" if option.aliases else "") + " |",
             f"| default | `{option.default!r}` |",
             f"| value | {option.kind}" + (f": one of {', '.join(f'`{c}`' for c in option.choices)}" if option.choices else "")
             + " |",
             f"| recorded in `summary.json` | {'yes' if option.in_summary else 'no'} |"]
    return "\n".join(lines) + "\n"


def options_index(options: Tuple[Any, ...]) -> str:
    lines = ["# Run options", "",
             "The keywords of `evaluate()`, the flags of `agent-eval run` and the keys of a run config are one "
             "table in the code (`agent_evaluators.runner.option_table`); these pages are generated from it.", "",
             "A run config is code: it chooses judges, endpoints and where keys go, so read one before you run it.",
             "", "| option | CLI flag | default | meaning |", "|---|---|---|---|"]
    for option in options:
        lines.append(f"| [`{option.name}`]({option.name}.md) | `{option.flag}` | `{option.default!r}` | "
                     f"{option.help.replace('|', '/')} |")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------ CLI
def _help_texts() -> Iterator[Tuple[str, str]]:
    import importlib

    from agent_evaluators.cli.commands import command_table
    from agent_evaluators.cli.main import build_parser

    parser = build_parser()
    yield "agent-eval", parser.format_help()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    for command in command_table():
        words = " ".join(command.words)
        if command.kind == "parser":
            yield f"agent-eval {words}", sub.choices[command.words[0]].format_help()  # type: ignore[attr-defined]
        else:
            module, _, function = command.target.partition(":")
            out = io.StringIO()
            with redirect_stdout(out):
                try:
                    getattr(importlib.import_module(module), function)(["--help"])
                except SystemExit:
                    pass
                except ImportError as e:  # an extra that is not installed: say so instead of a help text
                    out.write(f"(its help needs an optional extra: {e})\n")
            yield f"agent-eval {words}", out.getvalue()


def cli_page() -> str:
    lines = ["# The agent-eval command", "",
             "Every command's `--help`, as its parser prints it (generated from the parsers).", ""]
    for title, text in _help_texts():
        lines += [f"## {title}", "", "```text", textwrap.dedent(text).rstrip(), "```", ""]
    return "\n".join(lines)


# ------------------------------------------------------------------------------ Python API
def declared_all(path: Path) -> Optional[List[str]]:
    """A module's ``__all__``, read from its source (importing it could need an extra that is not installed)."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            try:
                return list(ast.literal_eval(node.value))
            except ValueError:  # built from other lists (``[*a.__all__, ...]``): the module knows
                import importlib

                parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
                module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
                return list(importlib.import_module(module).__all__)
    return None


def public_modules() -> Dict[str, List[str]]:
    """Dotted name -> ``__all__`` for every module of the package that declares one (the package itself
    left out: its names are the evaluators, each with its page, and ``evaluate``, on the API index page)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        names = declared_all(path)
        if names is None:
            continue
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if module != PACKAGE.name:
            found[module] = names
    return found


def _module_summary(module: str) -> str:
    path = PACKAGE.parent.joinpath(*module.split("."))
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    first = " ".join(doc.split("\n\n", 1)[0].split())
    return re.sub(r":\w+:`~?\.?([^`]+)`", r"`\1`", first)  # reST roles as code (griffe_rst.py does the pages)


def _module_path(module: str) -> Path:
    path = PACKAGE.parent.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def _is_submodule(module: str) -> bool:
    path = PACKAGE.parent.joinpath(*module.split("."))
    return path.is_dir() or path.with_suffix(".py").is_file()


def origins(module: str) -> Tuple[Dict[str, str], Dict[str, str]]:
    """Where each re-exported name of ``module`` is defined, read from its source: the lazy tables
    (``_LAZY`` / ``_WHERE``: name -> submodule, ``agent_evaluators._util.lazy``) and relative imports,
    as name -> the object's full dotted path (followed through a package that re-exports it in turn, and
    through ``import x as y``); and the names imported from outside the package (``typing.Unpack``),
    name -> their module."""
    path = _module_path(module)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    inside: Dict[str, str] = {}
    outside: Dict[str, str] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        if isinstance(getattr(node, "value", None), ast.Dict) and any(
                isinstance(t, ast.Name) and t.id in ("_LAZY", "_WHERE") for t in targets):
            for key, value in zip(node.value.keys, node.value.values):
                if isinstance(key, ast.Constant) and isinstance(value, ast.Constant):
                    source = (value.value if value.value.startswith(PACKAGE.name + ".")
                              else f"{package}.{value.value}")
                    inside[key.value] = f"{source}.{key.value}"
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                if source.startswith(PACKAGE.name):
                    inside.setdefault(alias.asname or alias.name, f"{source}.{alias.name}")
                else:
                    outside.setdefault(alias.asname or alias.name, source)
    for name, where in inside.items():  # a name re-exported from a package that itself re-exports it
        source, _, original = where.rpartition(".")
        if source != module and not _is_submodule(where) and _module_path(source).name == "__init__.py":
            inside[name] = origins(source)[0].get(original, where)
    return inside, outside


def api_page(module: str, names: List[str]) -> str:
    """The module's docstring and its own names from one ``::: module``; each name it re-exports from a
    submodule from where it is defined (mkdocstrings reads sources: a lazy export is invisible to it)."""
    inside, outside = origins(module)
    submodules = [n for n in names if n not in inside and _is_submodule(f"{module}.{n}")]
    own = [n for n in names if n not in inside and n not in outside and n not in submodules]
    lines = [f"# {module}", "", f"The public names of `{module}` (its `__all__`), from their docstrings; "
             f"import them from `{module}`.", "",
             f"::: {module}", "    options:", "      show_root_heading: false", "      show_root_toc_entry: false",
             "      members:" + ("" if own else " false")]
    lines += [f"        - {name}" for name in own]
    for name in names:
        if name in inside:
            lines += ["", f"::: {inside[name]}", "    options:", "      show_root_full_path: false"]
        elif name in submodules:
            lines += ["", f"::: {module}.{name}", "    options:", "      members: false"]
        elif name in outside:
            lines += ["", f"## {name}", "", f"`{outside[name]}.{name}`, re-exported for convenience."]
    return "\n".join(lines) + "\n"


def api_index(modules: Dict[str, List[str]]) -> str:
    lines = ["| module | what it holds |", "|---|---|"]
    lines += [f"| [`{m}`](api/{m}.md) | {_module_summary(m).replace('|', '/')} |" for m in modules]
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------ the hook
def pages() -> Dict[str, str]:
    """Path under ``docs/`` -> Markdown, for every generated page."""
    from agent_evaluators import registry
    from agent_evaluators.runner.option_table import RUN_OPTIONS

    entries = list(registry.entries())
    out = {f"{EVALUATORS}/index.md": evaluators_index(entries)}
    out.update({f"{EVALUATORS}/{e.name}.md": evaluator_page(e) for e in entries})
    out[f"{OPTIONS}/index.md"] = options_index(RUN_OPTIONS)
    out.update({f"{OPTIONS}/{o.name}.md": option_page(o) for o in RUN_OPTIONS})
    out["reference/cli.md"] = cli_page()
    out.update({f"{API}/{m}.md": api_page(m, names) for m, names in public_modules().items()})
    return out


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if page.file.src_uri == API_INDEX:
        return markdown.replace(API_MARKER, api_index(public_modules()))
    return markdown


def on_files(files: Files, config: Any) -> Files:
    generated = pages()
    for path, content in generated.items():
        files.append(File.generated(config, path, content=content))
    _add_to_nav(config, generated)
    return files


def _add_to_nav(config: Any, generated: Dict[str, str]) -> None:
    """Fill the ``Reference`` section's generated parts (``nav`` in mkdocs.yml names them by folder)."""
    def section(folder: str) -> List[Any]:
        index = f"{folder}/index.md"
        titled = sorted(((text.split("\n", 1)[0].lstrip("# ").strip(), path) for path, text in generated.items()
                         if path.startswith(folder + "/") and path != index), key=lambda t: t[0].lower())
        return [index, *({title: path} for title, path in titled)]

    api = [API_INDEX, *({path[len(API) + 1:-3]: path} for path in sorted(generated) if path.startswith(API + "/"))]
    for item in config["nav"]:
        if isinstance(item, dict) and "Reference" in item:
            filled = []
            for sub in item["Reference"]:
                if isinstance(sub, dict):
                    (title, value), = sub.items()
                    if value in (EVALUATORS + "/", OPTIONS + "/"):
                        sub = {title: section(value.rstrip("/"))}
                    elif value == API_INDEX:
                        sub = {title: api}
                filled.append(sub)
            item["Reference"] = filled
