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


def write_frame(fd, kind, header, blob=b""):
    text = json.dumps(header, sort_keys=True, separators=(",", ":"), allow_nan=False, ensure_ascii=False)
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as e:
        # A lone surrogate (what os.fsdecode makes of a file name's undecodable bytes) is no
        # Unicode text, and no JSON reader takes it.
        raise ValueError("a string holds %r, which is not valid Unicode (a lone surrogate, as os.fsdecode makes of undecodable "
                         "bytes in a file name): convert it first, e.g. os.fsencode(s).decode('utf-8', 'backslashreplace')"
                         % text[e.start:e.end]) from None
    length = 5 + len(data) + len(blob)
    if length > MAX_FRAME:
        raise ProtocolError("frame of %d bytes exceeds the limit of %d" % (length, MAX_FRAME))
    buf = _HEAD.pack(length, kind, len(data)) + data + bytes(blob)
    view = memoryview(buf)
    while view:
        n = os.write(fd, view)
        view = view[n:]
