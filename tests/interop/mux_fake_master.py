#!/usr/bin/python3
"""A ControlMaster that misbehaves in proxy mode, for ssh -O proxy.

usage: mux_fake_master.py SOCKET MODE

Listens on the Unix socket SOCKET and serves every client the same way:
hello (version 4), then the answer to its MUX_C_PROXY that MODE says:

  refuse   MUX_S_FAILURE "proxy refused by test"
  denied   MUX_S_PERMISSION_DENIED "Permission denied"
  rid      MUX_S_PROXY with another request id
  other    MUX_S_ALIVE instead of MUX_S_PROXY
  version  a hello of version 3, nothing more
  eof      MUX_S_PROXY, then the socket closed
  badlen   MUX_S_PROXY, then a packet length of 2^32 - 1
  short    MUX_S_PROXY, then a packet length of 1 (no type byte)
  padded   MUX_S_PROXY, then the open confirmation with 4 bytes of padding
  kexinit  MUX_S_PROXY, then a KEXINIT in plain framing
  confirm  MUX_S_PROXY, then a good open confirmation, then bytes cut
           off in the middle of a packet and the socket closed

It writes "ready" to stdout once listening and runs until killed.
"""
import os
import socket
import struct
import sys

MUX_MSG_HELLO = 0x00000001
MUX_C_PROXY = 0x1000000f
MUX_S_PROXY = 0x8000000f
MUX_S_FAILURE = 0x80000003
MUX_S_PERMISSION_DENIED = 0x80000002
MUX_S_ALIVE = 0x80000005


def mux(body):
    return struct.pack(">I", len(body)) + body


def sshstr(b):
    return struct.pack(">I", len(b)) + b


def plain(payload, pad=0):
    """One packet of proxy mode's framing."""
    body = bytes([pad]) + payload + b"\0" * pad
    return struct.pack(">I", len(body)) + body


def read_exact(c, n):
    d = b""
    while len(d) < n:
        x = c.recv(n - len(d))
        if not x:
            raise EOFError
        d += x
    return d


def read_mux(c):
    n = struct.unpack(">I", read_exact(c, 4))[0]
    return read_exact(c, n)


def read_plain(c):
    n = struct.unpack(">I", read_exact(c, 4))[0]
    return read_exact(c, n)


def confirmation(open_payload, pad=0):
    """CHANNEL_OPEN_CONFIRMATION for the client's CHANNEL_OPEN."""
    # byte 90, string type, uint32 sender channel, ...
    tlen = struct.unpack(">I", open_payload[1:5])[0]
    chan = struct.unpack(">I", open_payload[5 + tlen:9 + tlen])[0]
    return plain(bytes([91]) + struct.pack(">IIII", chan, 7, 1 << 21,
                                            32768), pad)


def serve(c, mode):
    if mode == "version":
        c.sendall(mux(struct.pack(">II", MUX_MSG_HELLO, 3)))
        read_mux(c)
        return
    c.sendall(mux(struct.pack(">II", MUX_MSG_HELLO, 4)))
    hello = read_mux(c)
    assert struct.unpack(">I", hello[:4])[0] == MUX_MSG_HELLO
    req = read_mux(c)
    typ, rid = struct.unpack(">II", req[:8])
    assert typ == MUX_C_PROXY
    if mode == "refuse":
        c.sendall(mux(struct.pack(">II", MUX_S_FAILURE, rid) +
                      sshstr(b"proxy refused by test")))
        return
    if mode == "denied":
        c.sendall(mux(struct.pack(">II", MUX_S_PERMISSION_DENIED, rid) +
                      sshstr(b"Permission denied")))
        return
    if mode == "other":
        c.sendall(mux(struct.pack(">III", MUX_S_ALIVE, rid, 1)))
        return
    c.sendall(mux(struct.pack(">II", MUX_S_PROXY,
                              rid + 5 if mode == "rid" else rid)))
    if mode in ("eof", "rid"):
        return
    if mode == "badlen":
        c.sendall(b"\xff\xff\xff\xff\0" + b"A" * 64)
        return
    if mode == "short":
        c.sendall(b"\0\0\0\x01\0")
        return
    if mode == "kexinit":
        c.sendall(plain(bytes([20]) + os.urandom(16) + sshstr(b"none") * 10
                        + b"\0\0\0\0\0"))
        return
    op = read_plain(c)
    if op[1] != 90:
        return
    if mode == "padded":
        c.sendall(confirmation(op[1:], pad=4))
        return
    c.sendall(confirmation(op[1:]))
    c.sendall(b"\0\0\0\x40\0\x5e\0\0")


def main():
    path, mode = sys.argv[1], sys.argv[2]
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(path)
    s.listen(8)
    print("ready", flush=True)
    while True:
        c, _ = s.accept()
        c.settimeout(10)
        try:
            serve(c, mode)
            # Let the client see it all before the close.
            c.shutdown(socket.SHUT_WR)
            while c.recv(4096):
                pass
        except (EOFError, OSError, AssertionError):
            pass
        c.close()


if __name__ == "__main__":
    main()
