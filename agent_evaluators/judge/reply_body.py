"""Read a judge's reply body within a size limit, on the wire and inflated.

A judge (or a proxy in front of it) can answer with far more than a verdict: a 1 MB gzip
body that inflates to 2 GB, a 200 MB ``reason``, a chunked body that never ends. Read
whole, each of those costs gigabytes per concurrent call. So the body is read in
pieces and decompressed here, not by aiohttp (whose decompressor inflates each piece
without a bound): every piece is inflated at most up to what the limit still allows,
and the read stops as soon as either count passes the limit. Only the encodings we
advertise (``gzip``, ``deflate``) are accepted.
"""

import zlib
from typing import Any, AsyncIterator, Optional, Union

#: what we ask servers for: encodings :func:`read_body` can inflate within a bound
ACCEPT_ENCODING = "gzip, deflate"
#: the default limit: a verdict is a few KB; a long one with per-item details well under 1 MB
DEFAULT_MAX_REPLY_BYTES = 4 * 1024 * 1024


class ReplyTooLarge(Exception):
    """The body passed the limit (``what``: on the wire, inflated, or as declared)."""

    def __init__(self, limit: int, what: str) -> None:
        super().__init__(f"the judge reply is larger than the {describe_size(limit)} reply limit ({what})")
        self.limit = limit


class UnreadableBody(Exception):
    """A compressed body that cannot be inflated, or an encoding we did not ask for."""


def describe_size(n: int) -> str:
    """``4 MiB``, ``1.5 MiB``, ``800 KiB``, ``512 bytes``."""
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.4g} {unit}"
    return f"{n} bytes"


def _inflater(encoding: str, first: bytes) -> Any:
    if encoding in ("gzip", "x-gzip"):
        return zlib.decompressobj(16 + zlib.MAX_WBITS)
    # "deflate" is zlib-wrapped by the standard, raw deflate from some servers
    wrapped = len(first) >= 2 and first[0] & 0x0F == 8 and (first[0] << 8 | first[1]) % 31 == 0
    return zlib.decompressobj(zlib.MAX_WBITS if wrapped else -zlib.MAX_WBITS)


async def read_body(response: Any, limit: int) -> bytes:
    """The body of an aiohttp ``response`` (opened without auto-decompression), inflated.

    Raises :class:`ReplyTooLarge` once the bytes received or the bytes inflated pass
    ``limit`` (or the declared ``Content-Length`` does), :class:`UnreadableBody` for a
    corrupt compressed body or an unknown ``Content-Encoding``.
    """
    declared: Optional[int] = response.content_length
    if declared is not None and declared > limit:
        raise ReplyTooLarge(limit, f"Content-Length {declared:,} bytes")
    encoding = (response.headers.get("Content-Encoding") or "").strip().lower()
    if encoding not in ("", "identity", "gzip", "x-gzip", "deflate"):
        raise UnreadableBody(f"the judge answered with Content-Encoding {encoding!r}, which was not asked for")
    compressed = encoding not in ("", "identity")
    if declared is not None and not compressed:
        # the usual verdict: its declared length within the limit, and aiohttp reads no byte past it
        return await response.read()
    inflate: Any = None
    received = 0
    out = bytearray()
    try:
        async for piece in response.content.iter_any():
            received += len(piece)
            if received > limit:
                raise ReplyTooLarge(limit, f"more than {received:,} bytes received")
            if compressed:
                if inflate is None:
                    inflate = _inflater(encoding, piece)
                piece = inflate.decompress(piece, limit + 1 - len(out))  # never more than the limit allows
                if inflate.unconsumed_tail:
                    raise ReplyTooLarge(limit, f"a {encoding} body inflating past the limit")
            out += piece
            if len(out) > limit:
                raise ReplyTooLarge(limit, f"more than {len(out):,} bytes")
        if inflate is not None:
            out += inflate.flush()
            if len(out) > limit:
                raise ReplyTooLarge(limit, f"a {encoding} body inflating past the limit")
    except zlib.error as e:
        raise UnreadableBody(f"the judge's {encoding} body cannot be inflated ({e})") from None
    return bytes(out)


class LineTooLong(Exception):
    """One line of a streamed body passed the limit (it was skipped, not kept)."""


async def iter_lines(response: Any, limit: int) -> AsyncIterator[Union[bytes, LineTooLong]]:
    """The lines of an aiohttp ``response`` (opened without auto-decompression), inflated piece by piece,
    one at a time: memory stays within about ``limit`` whatever the body's size (a batch's output file).

    A line longer than ``limit`` is skipped: its bytes are dropped as they arrive, and the iterator
    yields :class:`LineTooLong` in its place (the caller logs it); a corrupt compressed body or an
    unknown encoding raises :class:`UnreadableBody`.
    """
    encoding = (response.headers.get("Content-Encoding") or "").strip().lower()
    if encoding not in ("", "identity", "gzip", "x-gzip", "deflate"):
        raise UnreadableBody(f"the server answered with Content-Encoding {encoding!r}, which was not asked for")
    compressed = encoding not in ("", "identity")
    inflate: Any = None
    line = bytearray()
    skipping = False

    def split(piece: bytes) -> "list[Any]":
        nonlocal skipping
        out: "list[Any]" = []
        start = 0
        while True:
            end = piece.find(b"\n", start)
            if end < 0:
                break
            if skipping:
                out.append(LineTooLong(f"a line longer than the {describe_size(limit)} reply limit"))
                skipping = False
            else:
                line.extend(piece[start:end])
                out.append(bytes(line))
            line.clear()
            start = end + 1
        if not skipping:
            line.extend(piece[start:])
            if len(line) > limit:
                line.clear()
                skipping = True
        return out

    try:
        async for piece in response.content.iter_chunked(1 << 16):
            if compressed:
                if inflate is None:
                    inflate = _inflater(encoding, piece)
                data = inflate.decompress(piece, 1 << 20)
                for item in split(data):
                    yield item
                while inflate.unconsumed_tail:  # a well-compressed piece: inflate it in bounded steps
                    for item in split(inflate.decompress(inflate.unconsumed_tail, 1 << 20)):
                        yield item
            else:
                for item in split(piece):
                    yield item
        if inflate is not None:
            for item in split(inflate.flush()):
                yield item
    except zlib.error as e:
        raise UnreadableBody(f"the {encoding} body cannot be inflated ({e})") from None
    if skipping:
        yield LineTooLong(f"a line longer than the {describe_size(limit)} reply limit")
    elif line:
        yield bytes(line)
