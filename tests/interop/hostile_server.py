"""Hostile SSH servers for our client, on 127.0.0.1.

  hostile_server.py PORTFILE fake MODE
  hostile_server.py PORTFILE proxy MODE UPSTREAM-PORT

Binds a free port on 127.0.0.1, writes its number to PORTFILE, serves
one connection and exits. "fake" modes speak just enough SSH to reach
the fault; "proxy" modes relay to a real server on UPSTREAM-PORT (so
KEX is real) and damage one byte of the server-to-client stream, which
they parse in the clear up to and including the server's NEWKEYS. What
was done is printed on stdout ("flipped ...", "dropped ..."), so a test can
tell the fault was really injected.

fake modes:
  garbage-banner   binary garbage with a NUL instead of a version line
  ssh1-banner      "SSH-1.5-..." (protocol major version 1)
  endless-banner   pre-banner lines that never end in a version line
  bad-length       valid banner, then a packet length of 0xfffffff0
  bad-block        valid banner, then a length that is not a block multiple
  bad-padding      valid banner, then a packet whose padding length is
                   larger than the packet
  drop             close the connection at once, before any byte
proxy modes:
  mac              flip a byte 8 bytes into the first encrypted packet
  sig              flip the last byte of the signature in the KEX reply
  drop-kex         close both ends instead of passing on the server's
                   KEXINIT (after its banner)
  drop-auth        close both ends instead of passing on the first
                   encrypted server packet (the client is authenticating)
  drop-session     relay until SIGUSR1, then close both ends
A drop mode ending in "-rst" resets the client's connection (RST)
instead of closing it (FIN).
"""
import select
import signal
import socket
import struct
import sys
import time

BANNER = b"SSH-2.0-hostile_1.0\r\n"
MSG_KEXDH_REPLY = 31    # also KEX_ECDH_REPLY; KEX_DH_GEX_GROUP under GEX
MSG_KEX_DH_GEX_REPLY = 33
MSG_NEWKEYS = 21
MSG_KEXINIT = 20


class Drop(Exception):
    """Raised (by SIGUSR1 in drop-session) to close both ends now."""


def close_client(conn, rst):
    """Closes the client's connection: with a RST when rst is set, else
    with a FIN, reading what the client still sends until it closes (so
    bytes left unread cannot turn the close into a RST)."""
    if rst:
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                        struct.pack("ii", 1, 0))
    else:
        try:
            conn.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        drain(conn)
    conn.close()


def listen(portfile):
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", 0))
    ls.listen(1)
    with open(portfile + ".tmp", "w") as f:
        f.write("%d\n" % ls.getsockname()[1])
    # Renamed into place so a reader never sees a half-written number.
    import os
    os.rename(portfile + ".tmp", portfile)
    ls.settimeout(30)
    conn, _ = ls.accept()
    ls.close()
    return conn


def drain(conn, timeout=10):
    """Read and discard until the client closes, or the timeout."""
    conn.settimeout(timeout)
    end = time.time() + timeout
    try:
        while time.time() < end:
            if not conn.recv(65536):
                return
    except OSError:
        return


def packet(payload, padlen=None, length=None):
    """A cleartext binary packet, optionally with lying fields."""
    if padlen is None:
        padlen = 8 - (5 + len(payload)) % 8
        if padlen < 4:
            padlen += 8
    body = bytes([padlen & 0xff]) + payload + b"\0" * max(padlen, 0)
    if length is None:
        length = len(body)
    return struct.pack(">I", length) + body


def fake(conn, mode):
    if mode in ("drop", "drop-rst"):
        print("dropped the connection before any byte", flush=True)
        close_client(conn, mode == "drop-rst")
        return
    # Said first: the client may have given up before the last send.
    print("sent " + mode, flush=True)
    if mode == "garbage-banner":
        conn.sendall(b"\x00\x01\x02garbage\xff\r\n")
    elif mode == "ssh1-banner":
        conn.sendall(b"SSH-1.5-hostile_1.0\r\n")
    elif mode == "endless-banner":
        try:
            for i in range(100000):
                conn.sendall(b"hello %d, this is not a version line\r\n" % i)
        except OSError:
            pass
    elif mode == "bad-length":
        conn.sendall(BANNER + b"\xff\xff\xff\xf0" + b"\0" * 64)
    elif mode == "bad-block":
        conn.sendall(BANNER + struct.pack(">I", 13) + b"\x04" * 13)
    elif mode == "bad-padding":
        # 16 bytes in all (a block multiple), padding length 200.
        conn.sendall(BANNER + packet(b"\x14" + b"\0" * 6, padlen=200,
                                     length=12)[:16])
    else:
        sys.exit("unknown fake mode " + mode)
    drain(conn)


def get_string(buf, off):
    if off + 4 > len(buf):
        return None, off
    n = struct.unpack(">I", buf[off:off + 4])[0]
    if off + 4 + n > len(buf):
        return None, off
    return buf[off + 4:off + 4 + n], off + 4 + n


def is_kex_reply(payload):
    """byte, string K_S, string f/Q_S, string sig (string name, string
    blob), filling the payload exactly; GEX's GROUP (two mpints) is not."""
    off = 1
    parts = []
    for _ in range(3):
        s, off = get_string(payload, off)
        if s is None:
            return False
        parts.append(s)
    if off != len(payload):
        return False
    name, o = get_string(parts[2], 0)
    blob, o = get_string(parts[2], o) if name is not None else (None, o)
    return blob is not None and o == len(parts[2])


class ServerStream:
    """Parses the server-to-client bytes in the clear until NEWKEYS and
    corrupts one byte according to the mode."""

    def __init__(self, mode):
        self.mode = mode
        self.buf = b""          # unparsed cleartext bytes
        self.banner_done = False
        self.encrypted = None   # bytes seen after the server's NEWKEYS
        self.done = False
        self.drop = False       # close both ends after passing on the result

    def feed(self, data):
        """Returns the bytes to pass on (possibly changed)."""
        if self.done:
            return data
        if self.encrypted is not None:
            return self.feed_encrypted(data)
        self.buf += data
        out = b""
        while True:
            if not self.banner_done:
                nl = self.buf.find(b"\n")
                if nl < 0:
                    break
                line, self.buf = self.buf[:nl + 1], self.buf[nl + 1:]
                out += line
                if line.startswith(b"SSH-"):
                    self.banner_done = True
                continue
            if len(self.buf) < 5:
                break
            plen = struct.unpack(">I", self.buf[:4])[0]
            if len(self.buf) < 4 + plen:
                break
            pkt = bytearray(self.buf[:4 + plen])
            self.buf = self.buf[4 + plen:]
            padlen = pkt[4]
            payload_end = 4 + plen - padlen
            msg = pkt[5]
            if self.mode.startswith("drop-kex") and msg == MSG_KEXINIT:
                print("dropped the connection instead of the server's "
                      "KEXINIT", flush=True)
                self.done = self.drop = True
                return out
            if self.mode == "sig" and (msg == MSG_KEX_DH_GEX_REPLY or (
                    msg == MSG_KEXDH_REPLY and
                    is_kex_reply(bytes(pkt[5:payload_end])))):
                pkt[payload_end - 1] ^= 0x01
                print("flipped the last signature byte of KEX reply "
                      "(message %d)" % msg, flush=True)
                self.done = True
                return out + bytes(pkt) + self.buf
            out += bytes(pkt)
            if msg == MSG_NEWKEYS:
                rest, self.buf = self.buf, b""
                self.encrypted = b""
                return out + self.feed_encrypted(rest)
        return out

    def feed_encrypted(self, data):
        if self.mode.startswith("drop-auth") and data:
            print("dropped the connection instead of the first encrypted "
                  "server packet", flush=True)
            self.done = self.drop = True
            return b""
        if self.mode != "mac" or not data:
            return data
        at = 8 - len(self.encrypted)
        if at >= len(data):
            self.encrypted += data
            return data
        d = bytearray(data)
        d[at] ^= 0x01
        print("flipped byte 8 of the first encrypted server packet",
              flush=True)
        self.done = True
        return bytes(d)


def proxy(conn, mode, upport):
    up = socket.create_connection(("127.0.0.1", upport))
    stream = ServerStream(mode)
    rst = mode.endswith("-rst")
    if mode.startswith("drop-session"):
        def on_usr1(signum, frame):
            raise Drop()
        signal.signal(signal.SIGUSR1, on_usr1)
    try:
        relay(conn, up, stream)
    except Drop:
        print("dropped the connection on SIGUSR1", flush=True)
        stream.done = stream.drop = True
    signal.signal(signal.SIGUSR1, signal.SIG_IGN)
    if stream.drop:
        close_client(conn, rst)
    up.close()


def relay(conn, up, stream):
    socks = [conn, up]
    end = time.time() + 30
    while time.time() < end:
        r, _, _ = select.select(socks, [], [], 1)
        for s in r:
            try:
                data = s.recv(65536)
            except OSError:
                data = b""
            if not data:
                if not stream.done:
                    print("no fault injected before %s closed" %
                          ("the client" if s is conn else "the server"),
                          flush=True)
                return
            if s is up:
                data = stream.feed(data)
                try:
                    conn.sendall(data)
                except OSError:
                    return
                if stream.drop:
                    return
            else:
                try:
                    up.sendall(data)
                except OSError:
                    return


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    portfile, kind, mode = sys.argv[1:4]
    conn = listen(portfile)
    if kind == "fake":
        fake(conn, mode)
    elif kind == "proxy":
        proxy(conn, mode, int(sys.argv[4]))
    else:
        sys.exit("unknown kind " + kind)
    if conn.fileno() != -1:
        conn.close()


if __name__ == "__main__":
    main()
