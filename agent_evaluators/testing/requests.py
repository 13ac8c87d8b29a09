"""What the local judge server received and what a responder may answer.

``ChatRequest`` is the parsed request a responder reads (so replies derive from the
content that actually reached the judge); ``Reply`` scripts one reply exactly
(status, headers, finish reason, usage, delay) where a plain dict or string is not enough.
"""

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Union


class _Auto:
    """Sentinel: let the server compute a realistic default."""

    def __repr__(self) -> str:
        return "AUTO"


AUTO: Any = _Auto()


def _content_text(content: Any) -> str:
    """Text of a message ``content``: a string, or the text parts of a parts list."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, dict) and isinstance(part.get("text"), str):
                parts.append(part["text"])
            elif isinstance(part, str):
                parts.append(part)
        return "\n".join(parts)
    return str(content)


@dataclass
class ChatRequest:
    """One chat-completions request as the server saw it.

    ``headers`` has lower-case names (``authorization``, ``api-key``, ...).
    ``query`` holds the URL query parameters (``api-version`` on the Azure route);
    ``deployment`` the Azure deployment from the path (``None`` on OpenAI routes).
    ``choice_index`` is which of ``n`` choices the responder is producing.
    """

    path: str
    headers: Dict[str, str]
    body: Dict[str, Any]
    query: Dict[str, str] = field(default_factory=dict)
    deployment: Optional[str] = None
    choice_index: int = 0

    @property
    def messages(self) -> List[Dict[str, Any]]:
        msgs = self.body.get("messages")
        return msgs if isinstance(msgs, list) else []

    @property
    def model(self) -> Optional[str]:
        return self.body.get("model") or self.deployment

    @property
    def text(self) -> str:
        """All message contents joined with newlines (what a rule usually searches)."""
        return "\n".join(_content_text(m.get("content")) for m in self.messages if isinstance(m, dict))

    def _last(self, role: str) -> str:
        for m in reversed(self.messages):
            if isinstance(m, dict) and m.get("role") == role:
                return _content_text(m.get("content"))
        return ""

    @property
    def last_user_text(self) -> str:
        return self._last("user")

    @property
    def system_text(self) -> str:
        return "\n".join(
            _content_text(m.get("content"))
            for m in self.messages
            if isinstance(m, dict) and m.get("role") in ("system", "developer")
        )

    @property
    def response_format(self) -> Optional[Dict[str, Any]]:
        rf = self.body.get("response_format")
        return rf if isinstance(rf, dict) else None

    @property
    def response_format_type(self) -> str:
        """``json_schema``, ``json_object`` or ``text`` (no response_format sent)."""
        rf = self.response_format
        return str(rf.get("type")) if rf and rf.get("type") else "text"

    @property
    def json_schema(self) -> Optional[Dict[str, Any]]:
        """The JSON schema asked for in ``json_schema`` mode, else ``None``."""
        rf = self.response_format
        if not rf or rf.get("type") != "json_schema":
            return None
        js = rf.get("json_schema") or {}
        schema = js.get("schema") if isinstance(js, dict) else None
        return schema if isinstance(schema, dict) else None

    def prompt_tokens(self, count: Callable[[str], int]) -> int:
        """The prompt's tokens as a chat endpoint counts them: each message's content by ``count``,
        plus OpenAI's published framing (3 tokens per message, 3 to prime the reply). The
        response-format schema is not counted (providers count it differently)."""
        return 3 + sum(3 + count(_content_text(m.get("content"))) for m in self.messages if isinstance(m, dict))

    @property
    def params(self) -> Dict[str, Any]:
        """Every body key other than ``model``, ``messages`` and ``response_format``."""
        return {k: v for k, v in self.body.items() if k not in ("model", "messages", "response_format")}


@dataclass
class Reply:
    """One scripted reply.

    ``content``: a dict (sent as JSON text), a string (sent verbatim) or ``None``.
    For ``status != 200`` the body is ``{"error": {...}}`` built from ``content``
    (a string message, or a dict used as the error object). ``usage``: ``AUTO``
    (realistic counts from the text lengths), a dict, or ``None`` (no usage field).
    ``delay_s`` overrides the server's delay for this reply; ``reset=True`` drops the
    connection (after the delay) without answering.

    Faults a real endpoint or proxy produces: ``refusal`` answers ``content: null`` with
    the text in ``message.refusal`` (a model refusing); ``body`` is sent verbatim as the
    HTTP body with ``status`` (an HTML page labelled JSON, or a redirect with a
    ``Location`` header); ``trickle_s`` sends the body one byte every ``trickle_s`` seconds.
    """

    content: Union[Dict[str, Any], str, None] = None
    finish_reason: str = "stop"
    status: int = 200
    headers: Dict[str, str] = field(default_factory=dict)
    usage: Any = AUTO
    delay_s: Optional[float] = None
    reset: bool = False
    refusal: Optional[str] = None
    body: Optional[str] = None
    trickle_s: Optional[float] = None
