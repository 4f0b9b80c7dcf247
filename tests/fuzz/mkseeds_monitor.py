#!/usr/bin/env python3
"""mkseeds_monitor.py: write the seeds of fuzz_monitor into
tests/fuzz/corpus/fuzz_monitor/: a hostile child's frames (monitor.h)
that walk the monitor through each request, a few whole logins against
the target's stand-in authority (see fuzz_monitor.c for its canned
answers), and some malformed frames."""
import os
import struct

HOSTKEY_SIGN, USER_LOOKUP, BANNER, PUBKEY, HOSTBASED, PASSWD, KBDINT, \
    ACCOUNT, FAILED, AUTHENTICATED, SESSION_OPEN, SESSION_CLOSE, MODULI, \
    STATE, LOGIN_RECORD, LOGOUT_RECORD = range(1, 17)
ANSWERS, LOG = 66, 67


def s(b):
    if isinstance(b, str):
        b = b.encode()
    return struct.pack(">I", len(b)) + b


def u32(n):
    return struct.pack(">I", n)


def frame(t, body=b""):
    return struct.pack(">IB", len(body) + 1, t) + body


def sign(data, idx=0, alg="ssh-ed25519"):
    return frame(HOSTKEY_SIGN, u32(idx) + s(alg) + s(data))


def pubkey(user, blob, sig=True, hostkey=b""):
    """hostkey: the host key blob of a publickey-hostbound request."""
    return frame(PUBKEY, s(user) + s("ssh-connection") + s("ssh-ed25519") +
                 s(blob) + bytes([1 if sig else 0]) +
                 s(b"sig" if sig else b"") + s(hostkey))


def hostbased(user, blob):
    return frame(HOSTBASED, s(user) + s("ssh-connection") + s("ssh-ed25519") +
                 s(blob) + s("client.example.") + s(user) + s(b"sig"))


def answers(*a, err=0):
    return frame(ANSWERS, u32(err) + u32(len(a)) + b"".join(s(x) for x in a))


seeds = {
    "login_pubkey_password":
        sign(b"H" * 32) + frame(USER_LOOKUP, s("user")) + frame(BANNER) +
        pubkey("user", b"\x01k", sig=False) + pubkey("user", b"\x01k") +
        frame(PASSWD, s("user") + s("wrong")) +
        frame(PASSWD, s("user") + s("right")) +
        frame(ACCOUNT, s("user")) + frame(AUTHENTICATED, s("user")) +
        frame(SESSION_OPEN, b"\x01" + s("/dev/pts/3")) +
        frame(SESSION_CLOSE) + sign(b"K" * 64),
    "login_pubkey_hostbound":
        sign(b"H" * 32) + frame(USER_LOOKUP, s("user")) +
        pubkey("user", b"\x01k", hostkey=b"hostkey") +
        pubkey("user", b"\x01k", hostkey=b"\x01k") +
        frame(AUTHENTICATED, s("user")),
    "login_kbdint":
        frame(USER_LOOKUP, s("user")) + frame(KBDINT, s("user")) +
        answers("wrong", "1") + answers() + frame(FAILED, s("user")) +
        frame(KBDINT, s("user")) + answers("right", "123") +
        frame(AUTHENTICATED, s("user")),
    "login_kbdint_abandoned":
        frame(USER_LOOKUP, s("user")) + frame(KBDINT, s("user")) +
        answers(err=32) + frame(KBDINT, s("user")) + answers("right", "1", "2"),
    "login_root_hostbased":
        frame(USER_LOOKUP, s("root")) + hostbased("root", b"h") +
        pubkey("root", b"\x01c") + frame(AUTHENTICATED, s("root")) +
        frame(AUTHENTICATED, s("root")),
    "prove":
        sign(b"S" * 32) + sign(s("hostkeys-prove-00@openssh.com") +
                               s(b"S" * 32) + s(b"blob")) + sign(b"x" * 33),
    "hostile_order":
        frame(SESSION_OPEN, b"\x00" + s("")) + frame(BANNER),
    "hostile_other_user":
        frame(USER_LOOKUP, s("user")) + pubkey("other", b"\x01"),
    "hostile_frames":
        frame(USER_LOOKUP, u32(100) + b"root") + frame(200) +
        struct.pack(">IB", 0x40001, USER_LOOKUP),
    "postauth":
        frame(LOG, b"\x03" + s("Connection from 127.0.0.1")) +
        frame(MODULI, u32(2048) + u32(3072) + u32(8192)) +
        sign(b"H" * 32) + frame(USER_LOOKUP, s("user")) +
        frame(PASSWD, s("user") + s("right")) + frame(ACCOUNT, s("user")) +
        frame(LOG, b"\x03" + s("Accepted password for user")) +
        frame(AUTHENTICATED, s("user")) + frame(STATE, s(b"state")) +
        frame(MODULI, u32(2048) + u32(2048) + u32(2048)) +
        frame(LOGIN_RECORD, s("/dev/pts/0") + u32(1)) +
        frame(LOGOUT_RECORD, s("/dev/pts/0")) + frame(STATE, s(b"again")),
    "kbdint_log":
        frame(USER_LOOKUP, s("user")) + frame(KBDINT, s("user")) +
        frame(LOG, b"\x05" + s("debug line mid-conversation")) +
        answers("right", "123") + frame(LOG, b"\x09" + s("bad level")),
    "invalid_user":
        frame(USER_LOOKUP, s("invalid")) + frame(PASSWD, s("invalid") +
                                                 s("right")) +
        frame(AUTHENTICATED, s("invalid")),
}

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus",
                   "fuzz_monitor")
os.makedirs(out, exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
