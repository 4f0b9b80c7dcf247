#!/usr/bin/python3
"""mkseeds_split.py: turns recorded sessions into fuzz seeds (run by
mkseeds.sh).

usage: mkseeds_split.py RECDIR CORPUSDIR USER

Each file in RECDIR is what one connection's client sent, as msgdump.c
records it: records "uint16 length, type, payload". For a file NAME this
writes, in CORPUSDIR:
  fuzz_userauth/rec_NAME   the authentication part (SERVICE_REQUEST and
                           messages 50..79), user USER renamed fuzzuser
                           (the user of the fuzz_userauth harness)
  fuzz_session/rec_NAME or fuzz_fwd/rec_NAME
                           the connection part (80 and up): fuzz_fwd if
                           it forwards, fuzz_session otherwise
  fuzz_ttymodes/rec_NAME   the modes string of its first pty-req
Each seed starts with the configuration byte 0 of its target. Channel
data is cut to 64 bytes a message and a seed to 4096 bytes (whole
records), so seeds stay small; what is left is still what the client
sent, in its order.
"""
import os
import struct
import sys

MAX_SEED = 4096
MAX_DATA = 64


def records(blob):
    off = 0
    while off + 2 <= len(blob):
        (n,) = struct.unpack(">H", blob[off:off + 2])
        off += 2
        msg = blob[off:off + n]
        off += n
        if msg:
            yield msg


def get_string(buf, off):
    (n,) = struct.unpack(">I", buf[off:off + 4])
    return buf[off + 4:off + 4 + n], off + 4 + n


def put_string(b):
    return struct.pack(">I", len(b)) + b


def rename_user(msg, user):
    """USERAUTH_REQUEST with its user field replaced by fuzzuser."""
    name, off = get_string(msg, 1)
    if name != user.encode():
        return msg
    return msg[:1] + put_string(b"fuzzuser") + msg[off:]


def cut_data(msg):
    """CHANNEL_DATA / EXTENDED_DATA with at most MAX_DATA bytes."""
    head = 5 if msg[0] == 94 else 9
    data, _ = get_string(msg, head)
    return msg[:head] + put_string(data[:MAX_DATA])


def pty_modes(msg):
    """The modes string of a pty-req CHANNEL_REQUEST, or None."""
    name, off = get_string(msg, 5)
    if name != b"pty-req":
        return None
    off += 1                            # want reply
    _, off = get_string(msg, off)       # TERM
    off += 16                           # width, height, pixels
    modes, _ = get_string(msg, off)
    return modes


def forwards(msg):
    if msg[0] == 80:
        name, _ = get_string(msg, 1)
        return name in (b"tcpip-forward", b"streamlocal-forward@openssh.com")
    if msg[0] == 90:
        name, _ = get_string(msg, 1)
        return name.startswith(b"direct-")
    return False


def seed(msgs):
    out = b"\x00"
    for m in msgs:
        rec = struct.pack(">H", len(m)) + m
        if len(out) + len(rec) > MAX_SEED:
            break
        out += rec
    return out


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def main():
    recdir, corpus, user = sys.argv[1:4]
    for name in sorted(os.listdir(recdir)):
        with open(os.path.join(recdir, name), "rb") as f:
            msgs = list(records(f.read()))
        auth, conn, modes = [], [], None
        for m in msgs:
            if m[0] == 5 or 50 <= m[0] < 80:
                auth.append(rename_user(m, user) if m[0] == 50 else m)
            elif m[0] >= 80:
                if m[0] in (94, 95):
                    m = cut_data(m)
                if m[0] == 98 and modes is None:
                    modes = pty_modes(m)
                conn.append(m)
        if auth:
            write(os.path.join(corpus, "fuzz_userauth", "rec_" + name),
                  seed(auth))
        if conn:
            target = "fuzz_fwd" if any(forwards(m) for m in conn) \
                else "fuzz_session"
            write(os.path.join(corpus, target, "rec_" + name), seed(conn))
        if modes:
            write(os.path.join(corpus, "fuzz_ttymodes", "rec_" + name),
                  modes)


main()
