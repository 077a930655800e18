"""The worker protocol, version 1: length-prefixed frames over one socket (fd 3 of the worker).

A frame is::

    u32 LE  length L of what follows (1 + 4 + J + B), at most MAX_FRAME bytes
    u8      kind (HELLO, DESCRIBE, ...)
    u32 LE  length J of the JSON header, at most L - 5
    J bytes UTF-8 JSON header
    B bytes binary blob (depth maps an analyzer emits; empty otherwise)

Images travel through a shared-memory file named in OPEN, not through the socket: PROCESS
names their offset, shape and dtype. The Swift side (Sources/ParallaxPython/WorkerProtocol.swift)
is the other half; both refuse a version they do not speak.
"""
import json
import re
import os
import struct

PROTOCOL_VERSION = 1
#: The largest frame either side accepts (bytes).
MAX_FRAME = 256 * 1024 * 1024

HELLO, DESCRIBE, DESCRIPTION, OPEN, PROCESS, RESULT, CLOSE, ERROR = 1, 2, 3, 4, 5, 6, 7, 8

_HEAD = struct.Struct("<IBI")


class ProtocolError(Exception):
    """The peer sent something this side cannot read."""


def _read_exact(fd, n):
    chunks = []
    while n > 0:
        b = os.read(fd, min(n, 1 << 20))
        if not b:
            return None
        chunks.append(b)
        n -= len(b)
    return b"".join(chunks)


def read_frame(fd):
    """(kind, header dict, blob bytes), or None at end of stream."""
    head = _read_exact(fd, 9)
    if head is None:
        return None
    length, kind, jlen = _HEAD.unpack(head)
    if length < 5 or length > MAX_FRAME or jlen > length - 5:
        raise ProtocolError("frame of %d bytes with a %d-byte header" % (length, jlen))
    body = _read_exact(fd, length - 5)
    if body is None:
        return None
    header = json.loads(body[:jlen].decode("utf-8")) if jlen else {}
    return kind, header, body[jlen:]


_LONG_DIGITS = re.compile(r"[0-9]{19}")


def write_frame(fd, kind, header, blob=b"", integers_checked=False):
    """Writes one frame. With `integers_checked`, a header holding an integer Parallax cannot keep
    exactly (beyond ±2^63) is refused with a ValueError naming it (looked for only where the text
    has a run of 19 digits, so the common case costs one scan)."""
    text = json.dumps(header, sort_keys=True, separators=(",", ":"), allow_nan=False, ensure_ascii=False)
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as e:
        # A lone surrogate (what os.fsdecode makes of a file name's undecodable bytes) is no
        # Unicode text, and no JSON reader takes it.
        raise ValueError("a string holds %r, which is not valid Unicode (a lone surrogate, as os.fsdecode makes of undecodable "
                         "bytes in a file name): convert it first, e.g. os.fsencode(s).decode('utf-8', 'backslashreplace')"
                         % text[e.start:e.end]) from None
    if integers_checked and _LONG_DIGITS.search(text):
        _refuse_long_integers(header)
    length = 5 + len(data) + len(blob)
    if length > MAX_FRAME:
        raise ProtocolError("frame of %d bytes exceeds the limit of %d" % (length, MAX_FRAME))
    buf = _HEAD.pack(length, kind, len(data)) + data + bytes(blob)
    view = memoryview(buf)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _refuse_long_integers(value, where="the value"):
    """Raises ValueError at the first int beyond ±2^63 in `value` (dicts, lists, tuples)."""
    stack = [(value, where)]
    while stack:
        v, at = stack.pop()
        if isinstance(v, bool):
            continue
        if isinstance(v, int):
            if not -(1 << 63) <= v < (1 << 63):
                raise ValueError("%s holds the integer %d, beyond ±2^63: Parallax keeps integers to 64 bits exactly; "
                                 "send a larger one as a string (or a float, if rounding it is right)" % (at, v))
        elif isinstance(v, dict):
            stack.extend((x, "%s[%r]" % (at, k)) for k, x in v.items())
        elif isinstance(v, (list, tuple)):
            stack.extend((x, "%s[%d]" % (at, i)) for i, x in enumerate(v))
