"""The provider's batch API: upload a JSONL of requests, create a batch, poll it, read its files.

One code path for both providers; only the URLs differ (:func:`batch_urls`):

* OpenAI: ``{base_url}/files`` (multipart, ``purpose=batch``), ``{base_url}/batches`` (``endpoint``
  ``/v1/chat/completions``, ``completion_window`` ``24h``), ``{base_url}/batches/{id}``,
  ``{base_url}/files/{id}/content``.
* Azure OpenAI global batch: the same under ``{azure_endpoint}/openai/...?api-version=...``, with
  ``/chat/completions`` as the endpoint and the deployment name as each line's ``model``.

Every exchange goes through the endpoint's pooled :class:`~.transport.AiohttpTransport`
(``fetch``), so the headers, ``api-key`` / ``Authorization`` / Entra token, proxy settings and
the reply size limit are those of the normal chat path.
"""

import json
import uuid
from dataclasses import dataclass
from typing import Any, Dict

from .transport import AiohttpTransport, _split_query, decode_reply

#: the statuses after which a batch changes no more
TERMINAL = frozenset({"completed", "failed", "expired", "cancelled"})
#: a batch's output file may hold up to the input's size again (replies); read that much at most
LINE_LIMIT_BYTES = 1 << 30


@dataclass(frozen=True)
class BatchUrls:
    """Where one endpoint's files and batches live; ``line_url`` is what each request line names."""

    base: str
    query: str
    line_url: str

    def url(self, path: str) -> str:
        return f"{self.base}{path}{'?' + self.query if self.query else ''}"


def batch_urls(config: Any) -> BatchUrls:
    """The batch routes of an endpoint config (the URL query, which may carry a key, is kept)."""
    if config.kind == "azure":
        version = f"api-version={config.api_version}"
        if config.azure_endpoint:
            base, query = _split_query(config.azure_endpoint)
            base += "/openai"
        else:  # a base_url such as https://x.openai.azure.com/openai[/deployments/name]
            base, query = _split_query(config.base_url or "")
            base = base.split("/deployments/")[0]
        return BatchUrls(base, version + ("&" + query if query else ""), "/chat/completions")
    base, query = _split_query(config.base_url or "https://api.openai.com/v1")
    return BatchUrls(base, query, "/v1/chat/completions")


class BatchApi:
    """The four calls a batch needs, on one endpoint's transport. Raises the transport's errors."""

    def __init__(self, transport: AiohttpTransport, timeout: float = 300.0) -> None:
        self.transport = transport
        self.urls = batch_urls(transport.config)
        self.timeout = timeout

    async def _json(self, method: str, path: str, data: Any = None,
                    headers: "Dict[str, str] | None" = None) -> Dict[str, Any]:
        raw = await self.transport.fetch(method, self.urls.url(path), data, headers, self.timeout)
        return decode_reply(raw)

    async def upload(self, jsonl: bytes, name: str) -> str:
        """Upload the requests file (``purpose=batch``); its file id."""
        boundary = uuid.uuid4().hex
        head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\nbatch\r\n"
                f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n"
                "Content-Type: application/jsonl\r\n\r\n").encode()
        data = head + jsonl + f"\r\n--{boundary}--\r\n".encode()
        reply = await self._json("POST", "/files", data, {"Content-Type": f"multipart/form-data; boundary={boundary}"})
        return str(reply["id"])

    async def create(self, file_id: str) -> Dict[str, Any]:
        """Start a batch over an uploaded file; the batch object."""
        body = {"input_file_id": file_id, "endpoint": self.urls.line_url, "completion_window": "24h"}
        return await self._json("POST", "/batches", json.dumps(body).encode())

    async def retrieve(self, batch_id: str) -> Dict[str, Any]:
        return await self._json("GET", f"/batches/{batch_id}")

    async def content(self, file_id: str) -> bytes:
        """A file's bytes (a batch's output or error JSONL)."""
        return await self.transport.fetch("GET", self.urls.url(f"/files/{file_id}/content"), None,
                                          {"Accept": "application/jsonl, application/json"}, self.timeout,
                                          LINE_LIMIT_BYTES)
