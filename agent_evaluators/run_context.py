"""What a run installs for the code it runs: one frozen :class:`RunContext` in one ``ContextVar``.

A judge call deep inside an evaluator needs the run's state (its concurrency limiter, its budget,
its prices, the batch route, the dry run's transport, the run's secrets ...), and no evaluator
signature carries it. So the engine installs it for the run's duration and the readers (the judge
client, the ADK runner, the tool recorder) look it up with :func:`current`. Tasks the run starts
inherit it, as they inherit every ``ContextVar``, and a thread started with a copied context sees it
too.

Why one context and not a variable per piece: one place says what a run's state is, one ``with``
block installs it (:func:`scoped`), and one read (:func:`current`) answers every question a judge
call has. The bindings are frozen: a change makes a new :class:`RunContext` for the current context
only, so a change in one task is never seen by a sibling task. An object the context holds may
itself be mutable (the budget's accounts, a cell's list of refusals): frozen means the bindings.

Two ways to change fields:

* ``with scoped(budget=..., prices=...):`` for a block: on leaving it, each changed field gets back
  the value it had on entry (only those fields, so a per-task value set inside stays as it would
  with separate variables);
* :func:`set_for_task` for a value that holds for the rest of the current task: the batch origin of
  the cell a task runs, whether the task's last judge exchange was answered by a batch, the panel
  judge a gathered task asks, the eval set whose case a producer runs.

The field types are described here by the few members their readers use (``Protocol`` classes), or
imported for type checking only where that makes no import cycle: at run time this module imports
nothing of the package, and every module that reads or installs a field imports it.
"""

import dataclasses
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Dict, Generic, List, Mapping, Optional, Protocol, Tuple, TypedDict, TypeVar

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["RunContext", "Fields", "NOTHING", "current", "scoped", "set_for_task", "FieldView",
           "Limiter", "Budget", "Admission", "BatchRoute", "Sender", "SecretsSink"]

#: a price in USD per million tokens, ``{"input", "cached_input", "output"}`` (:data:`.judge.prices.Price`)
_Price = Dict[str, float]


class Limiter(Protocol):
    """Anything that hands out permits: the local engine's :class:`~._util.concurrency.Permits` (an
    ``asyncio.Semaphore`` would do), or a cluster-wide one. A ``try_acquire()`` that takes a free permit
    without waiting, where a limiter has one, is used first (:func:`~._util.concurrency.take_free_permit`)."""

    async def acquire(self) -> object: ...

    def release(self) -> None: ...


class Admission(Protocol):
    """One judge call admitted by the budget: settled with the call's usage when it ends."""

    def settle(self, usage: Optional[Mapping[str, Any]]) -> None: ...


class Budget(Protocol):
    """The run's judge caps as the judge client asks them (:class:`.judge.caps.CallBudget`)."""

    #: why the budget stopped admitting calls (``None``: it has not, as far as this side knows)
    stopped: Optional[str]

    async def admit(self, model: str, price: Optional[_Price], messages: List[Dict[str, Any]],
                    params: Mapping[str, Any]) -> Admission: ...


class BatchRoute(Protocol):
    """Takes one chat request body and returns the judge's reply body once its batch is done."""

    async def send(self, transport: Any, body: Dict[str, Any], headers: Optional[Dict[str, str]], timeout: float,
                   max_reply_bytes: int) -> Dict[str, Any]: ...


class Sender(Protocol):
    """What the judge client sends a chat request through (:class:`.judge.transport.Transport`)."""

    async def send(self, body: Dict[str, Any], headers: Optional[Dict[str, str]], timeout: float,
                   max_reply_bytes: int = ...) -> Dict[str, Any]: ...


class SecretsSink(Protocol):
    """The run's secrets (:class:`._util.scrub.RunSecrets`): every judge client it uses joins them."""

    def join(self, owner: Any) -> None: ...


@dataclasses.dataclass(frozen=True)
class RunContext:
    """A run's state as the code it runs sees it; the defaults are "no run": nothing installed."""

    #: the judge concurrency budget: one permit per HTTP attempt on the wire (``None``: no limit)
    limiter: Optional[Limiter] = None
    #: ``max_judge_calls`` / ``max_cost`` (``None``: no caps)
    budget: Optional[Budget] = None
    #: the current cell's list of the budget's refusals (``None``: nobody is watching)
    refusals: Optional[List[str]] = None
    #: the run's ``prices`` by model name (``None``: none given; the shipped table still applies)
    prices: Optional[Mapping[str, _Price]] = None
    #: batch mode's collector (``None``: requests go on the wire)
    batch_route: Optional[BatchRoute] = None
    #: which row and evaluator the current task's judge requests are for (recorded in batch mode)
    batch_origin: str = ""
    #: whether the current task's last judge exchange was answered by a batch (priced at the batch price)
    answered_by_batch: bool = False
    #: a dry run's in-process judge (``None``: a real run)
    dry_transport: Optional[Sender] = None
    #: the secrets the run masks in what it writes (``None``: outside a run's rows)
    secrets: Optional[SecretsSink] = None
    #: which judge of a panel the current task asks (0 for a single judge)
    panel_index: int = 0
    #: the tool recorder's session of the case running (an ``agents.recordings.ToolSession``, typed there:
    #: the bottom of the core names no class above it); ``None`` outside ``recorder.case``
    tool_session: Any = None
    #: the eval set whose case the running producer was called for (``None`` outside an eval-set run)
    eval_set_id: Optional[str] = None
    #: ``max_prompt_tokens``: the agent metrics' prompt budget (``None``: the default)
    prompt_budget: Optional[int] = None
    #: ``terminal_tools``: more tool names whose call ends a conversation
    terminal_tools: Tuple[str, ...] = ()

    def replace(self, **changes: "Unpack[Fields]") -> "RunContext":
        """A copy with ``changes`` (a ``TypeError`` names a field that does not exist)."""
        return _replaced(self, changes)


class Fields(TypedDict, total=False):
    """:class:`RunContext`'s fields as keyword arguments, so the type checker checks what is installed."""

    limiter: Optional[Limiter]
    budget: Optional[Budget]
    refusals: Optional[List[str]]
    prices: Optional[Mapping[str, _Price]]
    batch_route: Optional[BatchRoute]
    batch_origin: str
    answered_by_batch: bool
    dry_transport: Optional[Sender]
    secrets: Optional[SecretsSink]
    panel_index: int
    tool_session: Any
    eval_set_id: Optional[str]
    prompt_budget: Optional[int]
    terminal_tools: Tuple[str, ...]


_FIELD_NAMES = frozenset(RunContext.__dataclass_fields__)


def _replaced(context: RunContext, changes: Mapping[str, Any]) -> RunContext:
    """``context`` with ``changes``: its attributes copied into a new instance, which is what
    ``dataclasses.replace`` does through ``__init__`` at five times the cost (this runs per cell)."""
    if not _FIELD_NAMES.issuperset(changes):
        raise TypeError(f"RunContext has no field(s) {sorted(set(changes) - _FIELD_NAMES)}")
    new = object.__new__(RunContext)
    new.__dict__.update(context.__dict__, **changes)  # frozen refuses setattr, not the new instance's own dict
    return new


#: no run: what :func:`current` answers where nothing was installed
NOTHING = RunContext()

#: the package's one ``ContextVar`` for a run's state
_RUN: ContextVar[RunContext] = ContextVar("agent_evaluators_run_context", default=NOTHING)


def current() -> RunContext:
    """The run context of the running code (:data:`NOTHING` outside a run)."""
    return _RUN.get()


class scoped:
    """``with scoped(**fields):`` — the current context with ``fields`` changed, for the block and the
    tasks started in it. Leaving the block gives each changed field back its value from the entry.

    A plain class rather than a generator: it is entered per cell on the hot path."""

    __slots__ = ("_changes", "_before")

    def __init__(self, **changes: "Unpack[Fields]") -> None:
        self._changes: Dict[str, Any] = dict(changes)
        self._before: Dict[str, Any] = {}

    def __enter__(self) -> RunContext:
        context = _RUN.get()
        self._before = {name: getattr(context, name) for name in self._changes}
        if _differs(context, self._changes):
            context = _replaced(context, self._changes)
            _RUN.set(context)
        return context

    def __exit__(self, *exc: object) -> None:
        context = _RUN.get()
        if _differs(context, self._before):
            _RUN.set(_replaced(context, self._before))


def _differs(context: RunContext, values: Mapping[str, Any]) -> bool:
    """Whether any of ``values`` is not already the context's: a block that installs what is installed
    already (a cell's sync evaluators joining the run's secrets again) makes no new context."""
    return any(getattr(context, name) is not value for name, value in values.items())


def set_for_task(**changes: "Unpack[Fields]") -> None:
    """Change ``changes`` for the rest of the current task (its context), with no block to leave.

    For a value that belongs to one task: ``asyncio.gather`` and ``create_task`` give each task its
    own copy of the context, so a sibling task never sees it."""
    _RUN.set(_replaced(_RUN.get(), changes))


T = TypeVar("T")


class FieldView(Generic[T]):
    """One field of the run context with a ``ContextVar``'s ``get`` / ``set`` / ``reset``: the names that
    were ``ContextVar`` objects before the run context (``judge.batch_route.batch_route``, ...) keep
    working for one more release. ``set`` changes the field for the current task (:func:`set_for_task`);
    its token is the value to give back with ``reset``."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        if name not in RunContext.__dataclass_fields__:
            raise AttributeError(f"RunContext has no field {name!r}")
        self.name = name

    def __repr__(self) -> str:
        return f"<run context field {self.name}>"

    def get(self) -> T:
        return getattr(_RUN.get(), self.name)  # type: ignore[no-any-return]

    def set(self, value: T) -> T:
        before = self.get()
        _RUN.set(_replaced(_RUN.get(), {self.name: value}))
        return before

    def reset(self, token: T) -> None:
        self.set(token)
