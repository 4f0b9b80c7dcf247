#!/usr/bin/env python3
"""A proxy-mode client of a mux master (PROTOCOL.mux section 9), for
mux_proxy.sh: MUX_C_PROXY, then connection-protocol messages in the
plain framing (uint32 length, byte 0, type, fields).

usage: mux_proxy_client.py SOCKET SCENARIO [ARG]

  exec CMD      open a session, exec CMD, print what comes back on
                stdout, exit with the command's exit status; checks
                that the master's answers name our own channel id
  global        a global request wanting a reply: prints "failure" or
                "success" for the answer
  badlen        a length over any limit         } each of these must
  short         a length too short for a type   } be dropped by the
  kex           a KEXINIT                       } master: exit 0 when
  malformed     CHANNEL_DATA cut short          } the socket is closed
  foreign ID    CHANNEL_DATA for channel ID     } on us, 1 if not
  unopened      an EOF for a channel never opened }
"""
import socket
import struct
import sys
import time

MUX_HELLO, MUX_C_PROXY, MUX_S_PROXY = 1, 0x1000000F, 0x8000000F


def s(b):
    return struct.pack(">I", len(b)) + b


class Proxy:
    def __init__(self, path):
        self.c = socket.socket(socket.AF_UNIX)
        self.c.settimeout(20)
        self.c.connect(path)
        self.buf = b""
        body = self.msg()
        if struct.unpack(">I", body[:4])[0] != MUX_HELLO:
            sys.exit("no hello from the master")
        self.c.sendall(s(struct.pack(">II", MUX_HELLO, 4)))
        self.c.sendall(s(struct.pack(">II", MUX_C_PROXY, 77)))
        t, rid = struct.unpack(">II", self.msg()[:8])
        if t != MUX_S_PROXY or rid != 77:
            sys.exit("no MUX_S_PROXY: %#x %u" % (t, rid))

    def rd(self, n):
        while len(self.buf) < n:
            x = self.c.recv(65536)
            if not x:
                raise EOFError
            self.buf += x
        b, self.buf = self.buf[:n], self.buf[n:]
        return b

    def msg(self):
        return self.rd(struct.unpack(">I", self.rd(4))[0])

    def send(self, payload):
        self.c.sendall(struct.pack(">IB", len(payload) + 1, 0) + payload)

    def recv(self):
        body = self.msg()
        return body[1], body[2:]

    def dropped(self, secs=10):
        """True once the master closes the socket on us."""
        self.c.settimeout(secs)
        try:
            while True:
                self.recv()
        except EOFError:
            return True
        except (socket.timeout, ConnectionResetError):
            return False


def do_exec(p, cmd):
    mine = 5
    p.send(bytes([90]) + s(b"session") + struct.pack(">III", mine,
                                                      1 << 20, 32768))
    t, f = p.recv()
    if t != 91:
        sys.exit("open refused: %u" % t)
    to, theirs = struct.unpack(">II", f[:8])
    if to != mine:
        sys.exit("confirmation for channel %u, not ours (%u)" % (to, mine))
    p.send(bytes([98]) + struct.pack(">I", theirs) + s(b"exec") + b"\1" +
           s(cmd.encode()))
    status = None
    while True:
        t, f = p.recv()
        if len(f) < 4 or struct.unpack(">I", f[:4])[0] != mine:
            sys.exit("message %u not for our channel" % t)
        if t == 94:
            n = struct.unpack(">I", f[4:8])[0]
            sys.stdout.buffer.write(f[8:8 + n])
        elif t == 98:
            n = struct.unpack(">I", f[4:8])[0]
            if f[8:8 + n] == b"exit-status":
                status = struct.unpack(">I", f[9 + n:13 + n])[0]
        elif t == 100:
            sys.exit("exec refused")
        elif t == 97:
            p.send(bytes([97]) + struct.pack(">I", theirs))
            break
    sys.stdout.flush()
    sys.exit(status if status is not None else 255)


def main():
    path, scen = sys.argv[1], sys.argv[2]
    arg = sys.argv[3] if len(sys.argv) > 3 else ""
    p = Proxy(path)
    if scen == "exec":
        do_exec(p, arg)
    if scen == "global":
        p.send(bytes([80]) + s(b"keepalive@openssh.com") + b"\1")
        t, _ = p.recv()
        print({81: "success", 82: "failure"}.get(t, "type %u" % t))
        return 0
    if scen == "badlen":
        p.c.sendall(struct.pack(">I", 0x7FFFFFFF) + b"\0" * 64)
    elif scen == "short":
        p.c.sendall(struct.pack(">IB", 1, 0))
    elif scen == "kex":
        p.send(bytes([20]) + b"\0" * 16 + s(b"curve25519-sha256"))
    elif scen == "malformed":
        p.send(bytes([94]) + struct.pack(">II", 0, 100) + b"short")
    elif scen == "foreign":
        p.send(bytes([94]) + struct.pack(">I", int(arg)) + s(b"junk\n"))
    elif scen == "unopened":
        p.send(bytes([96]) + struct.pack(">I", 200))
    else:
        sys.exit("unknown scenario " + scen)
    return 0 if p.dropped() else 1


if __name__ == "__main__":
    sys.exit(main())
