#!/usr/bin/env python3
# mkseeds_login.py: the after-login seeds (login_*) of fuzz_packet and
# fuzz_kexinit_client (fuzz_tr.h's mode 1). Each is: byte 1 (the mode),
# the byte that picks the peer's cipher, MAC, compression and the tested
# end's RekeyLimit, then records "u16 length, type, body" that the peer
# sends once the login is over. One more, preauth_ping, is the same
# pings in scripted mode (byte 0): before the login they go unanswered.
#
# usage: python3 mkseeds_login.py CORPUS_DIR   (tests/fuzz/corpus)
import os
import struct
import sys

PING, PONG, IGNORE, DEBUG, GLOBAL_REQUEST = 192, 193, 2, 4, 80
# fuzz_tr.h's lists, by index.
CHACHA, AES128_CTR, AES128_GCM = 0, 1, 3
SHA256_ETM, HMAC_SHA256 = 0, 3
NONE, ZLIB, ZLIB_OPENSSH = 0, 1, 2
NO_LIMIT, LIMIT_1K, LIMIT_32K = 0, 1, 2


def select(cipher, mac, comp, limit):
    return cipher + 6 * (mac + 6 * (comp + 3 * limit))


def string(b):
    return struct.pack(">I", len(b)) + b


def record(mtype, body=b""):
    return struct.pack(">HB", 1 + len(body), mtype) + body


def seed(sel, records, mode=1):
    assert 0 <= sel <= 255
    return bytes([mode, sel]) + b"".join(records)


def pings(n, size):
    return [record(PING, string(bytes([0x61 + i % 26]) * size))
            for i in range(n)]


server = {
    # Answered in order; the last, without its string, ends it.
    "login_ping": seed(select(CHACHA, SHA256_ETM, NONE, NO_LIMIT), [
        record(PING, string(b"hello")), record(PING, string(b"")),
        record(IGNORE, string(b"x")), record(PING, string(b"p" * 2000)),
        record(DEBUG, b"\x00" + string(b"dbg") + string(b"")),
        record(PING, string(b"after")), record(PING)]),
    "preauth_ping": seed(select(CHACHA, SHA256_ETM, NONE, NO_LIMIT), [
        record(PING, string(b"hello")), record(PING)], mode=0),
    # A RekeyLimit of 1 KiB: pings arrive during the server's own key
    # exchanges, their PONGs are held for its end.
    "login_ping_rekey": seed(
        select(AES128_CTR, HMAC_SHA256, NONE, LIMIT_1K), pings(40, 100)),
    # zlib@openssh.com: compressed from the first record on.
    "login_ping_zlib": seed(select(CHACHA, SHA256_ETM, ZLIB_OPENSSH,
        NO_LIMIT), pings(8, 600)),
    "login_ping_gcm_32k": seed(select(AES128_GCM, SHA256_ETM, ZLIB,
        LIMIT_32K), pings(12, 4000)),
}
client = {
    # A client passes PING and PONG up; its own rekeys at 1 KiB.
    "login_pong": seed(select(CHACHA, SHA256_ETM, NONE, NO_LIMIT), [
        record(PONG, string(b"hello")), record(PING, string(b"x")),
        record(GLOBAL_REQUEST, string(b"keepalive@openssh.com") +
               b"\x01")]),
    "login_rekey": seed(select(AES128_CTR, HMAC_SHA256, NONE, LIMIT_1K),
        [record(IGNORE, string(b"i" * 100)) for _ in range(30)]),
}

top = sys.argv[1]
for target, seeds in (("fuzz_packet", server),
                      ("fuzz_kexinit_client", client)):
    os.makedirs(os.path.join(top, target), exist_ok=True)
    for name, data in seeds.items():
        with open(os.path.join(top, target, name), "wb") as f:
            f.write(data)
