#!/usr/bin/env python3
# mkseeds_sftp_client.py: seeds for fuzz_sftp_client, a server's replies
# to the target's series of operations (see its header for the order).
# usage: python3 tests/fuzz/mkseeds_sftp_client.py OUTDIR
import os
import struct
import sys


def s(b):
    if isinstance(b, str):
        b = b.encode()
    return struct.pack(">I", len(b)) + b


def pkt(t, body):
    return struct.pack(">IB", len(body) + 1, t) + body


def u32(v):
    return struct.pack(">I", v)


def status(i, st):
    return pkt(101, u32(i) + u32(st) + s("") + s(""))


ATTRS = u32(0x5) + struct.pack(">Q", 40) + u32(0o100644)


def name1(i, n):
    return pkt(104, u32(i) + u32(1) + s(n) + s("") + u32(0))


def stream(limits, short):
    exts = [("posix-rename@openssh.com", "1"), ("statvfs@openssh.com", "2"),
            ("users-groups-by-id@openssh.com", "1"),
            ("expand-path@openssh.com", "1")]
    if limits:
        exts.append(("limits@openssh.com", "1"))
    out = pkt(2, u32(3) + b"".join(s(a) + s(b) for a, b in exts))
    i = 0
    if limits:
        out += pkt(201, u32(i) + struct.pack(">QQQQ", 262144, 261120,
                                              261120, 100))
        i += 1
    out += name1(i, "/home/u")                     # realpath
    out += pkt(105, u32(i + 1) + ATTRS)            # stat
    out += pkt(102, u32(i + 2) + s("h1"))          # open
    r = i + 3                                      # reads r, r+1, r+2
    out += pkt(103, u32(r) + s(b"A" * 16))
    out += pkt(103, u32(r + 1) + s(b"B" * (5 if short else 16)))
    if short:                                      # re-read 11 at 21
        out += status(r + 2, 1)
        out += status(r + 4, 1)                    # the re-read
        out += status(r + 3, 1)
        n = r + 5
    else:
        out += status(r + 2, 1)
        out += status(r + 3, 1)
        out += status(r + 4, 1)
        n = r + 5
    out += status(n, 0)                            # close
    out += pkt(102, u32(n + 1) + s("d1"))          # opendir
    out += pkt(104, u32(n + 2) + u32(2) + s("a") + s("-rw a") + ATTRS +
               s("b") + s("-rw b") + ATTRS)
    out += status(n + 3, 1)
    out += status(n + 4, 0)
    out += name1(n + 5, "target")                  # readlink
    out += pkt(201, u32(n + 6) + struct.pack(">11Q", 4096, 4096, 1000,
                                             500, 400, 100, 50, 40, 1, 0,
                                             255))
    out += pkt(201, u32(n + 7) + s(s("root") + s("")) +
               s(s("root") + s("daemon")))
    out += pkt(102, u32(n + 8) + s("h2"))          # open for upload
    out += status(n + 9, 0) + status(n + 10, 0) + status(n + 11, 0)
    out += status(n + 12, 0)                       # close
    out += name1(n + 13, "/home/u/x")              # expand-path
    return out


os.makedirs(sys.argv[1], exist_ok=True)
for name, data in (("series", stream(False, False)),
                   ("series_limits", stream(True, False)),
                   ("series_short_read", stream(False, True)),
                   ("version_only", pkt(2, u32(3)))):
    with open(os.path.join(sys.argv[1], name), "wb") as f:
        f.write(data)
