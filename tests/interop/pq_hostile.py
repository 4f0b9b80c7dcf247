"""Hostile peers for the post-quantum hybrid key exchanges.

  pq_hostile.py client HOST PORT KEX CASE
      A client that sends our sshd a KEXINIT offering only KEX, then a
      KEX_ECDH_INIT (30) whose C_INIT (KEM public key || ECDH public) is
      damaged as CASE says. Prints "closed" when the server ends the
      connection, "reply N" when it answers with a KEX reply whose
      S_REPLY has N bytes, "open" when neither happened in 10 s.
  pq_hostile.py proxy PORTFILE UPSTREAM-PORT CASE
      Serves one connection of our ssh on a free port (written to
      PORTFILE), relays it to a real server, and damages S_REPLY (KEM
      ciphertext || ECDH public) in the server's KEX reply as CASE says,
      re-framing the clear-text packet. Prints what it did.

client cases: short (one byte less), long (one byte more), empty,
  bad-ek (an ML-KEM key of 0xff bytes: every coefficient >= q),
  zero-ecdh (a valid KEM key, an all-zero X25519 share),
  zero-ek (an all-zero ML-KEM key: well formed, so answered).
proxy cases: short, long (a ciphertext of the wrong length), zero-ct
  (an all-zero ciphertext: decapsulates to another key), zero-ecdh.
"""
import os
import select
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hostile_server import get_string, listen  # noqa: E402

# KEM public key, KEM ciphertext, ECDH public value sizes per method.
SIZES = {
    "mlkem768x25519-sha256": (1184, 1088, 32),
    "mlkem768nistp256-sha256": (1184, 1088, 65),
    "sntrup761x25519-sha512": (1158, 1039, 32),
    "sntrup761x25519-sha512@openssh.com": (1158, 1039, 32),
}
X25519_BASE = bytes([9]) + bytes(31)     # a valid X25519 public value


def packet(payload):
    """A clear-text binary packet: padding to a multiple of 8, >= 4."""
    pad = 8 - (5 + len(payload)) % 8
    if pad < 4:
        pad += 8
    return struct.pack(">IB", 1 + len(payload) + pad, pad) + payload + \
        os.urandom(pad)


def sstr(b):
    return struct.pack(">I", len(b)) + b


def kexinit(kex):
    lists = [kex, "ssh-ed25519,ecdsa-sha2-nistp256,rsa-sha2-256",
             "aes128-ctr", "aes128-ctr", "hmac-sha2-256", "hmac-sha2-256",
             "none", "none", "", ""]
    p = bytes([20]) + os.urandom(16)
    for name in lists:
        p += sstr(name.encode())
    return p + b"\x00" + b"\x00\x00\x00\x00"


class Reader:
    def __init__(self, sock):
        self.s = sock
        self.buf = b""

    def more(self, deadline):
        self.s.settimeout(max(0.1, deadline - time.time()))
        d = self.s.recv(65536)
        if not d:
            raise EOFError
        self.buf += d

    def line(self, deadline):
        while b"\n" not in self.buf:
            self.more(deadline)
        i = self.buf.index(b"\n")
        ln, self.buf = self.buf[:i + 1], self.buf[i + 1:]
        return ln

    def packet(self, deadline):
        while len(self.buf) < 4:
            self.more(deadline)
        n = struct.unpack(">I", self.buf[:4])[0]
        while len(self.buf) < 4 + n:
            self.more(deadline)
        pkt, self.buf = self.buf[:4 + n], self.buf[4 + n:]
        return pkt[5:4 + n - pkt[4]]


def c_init(kex, case):
    pk, _, ec = SIZES[kex]
    kem = os.urandom(pk) if kex.startswith("sntrup") else bytes(pk)
    ecdh = X25519_BASE if ec == 32 else None
    if ecdh is None:    # the P-256 generator, uncompressed
        ecdh = bytes.fromhex(
            "04" "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945"
            "d898c296" "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececb"
            "b6406837bf51f5")
    if case == "short":
        return (kem + ecdh)[:-1]
    if case == "long":
        return kem + ecdh + b"\x00"
    if case == "empty":
        return b""
    if case == "bad-ek":
        return b"\xff" * pk + ecdh
    if case == "zero-ecdh":
        return kem + bytes(ec)
    if case == "zero-ek":
        return kem + ecdh
    sys.exit("unknown client case " + case)


def client(host, port, kex, case):
    s = socket.create_connection((host, port))
    r = Reader(s)
    deadline = time.time() + 10
    try:
        s.sendall(b"SSH-2.0-pqhostile_1.0\r\n")
        while not r.line(deadline).startswith(b"SSH-"):
            pass
        s.sendall(packet(kexinit(kex)))
        while r.packet(deadline)[0] != 20:
            pass
        s.sendall(packet(bytes([30]) + sstr(c_init(kex, case))))
        while True:
            p = r.packet(deadline)
            if p[0] == 31:
                _, off = get_string(p, 1)
                q, off = get_string(p, off)
                print("reply %d" % len(q), flush=True)
                return
            if p[0] == 1:       # DISCONNECT: wait for the close
                continue
    except (EOFError, ConnectionResetError):
        print("closed", flush=True)
    except socket.timeout:
        print("open", flush=True)
    finally:
        s.close()


def damage(payload, case):
    """The KEX reply with its S_REPLY damaged; None if not a KEX reply."""
    ks, off = get_string(payload, 1)
    q, off2 = get_string(payload, off) if ks is not None else (None, 0)
    if q is None:
        return None
    sig = payload[off2:]
    ec = 65 if len(q) == 1088 + 65 else 32
    if case == "short":
        q = q[:-1]
    elif case == "long":
        q = q + b"\x00"
    elif case == "zero-ct":
        q = bytes(len(q) - ec) + q[-ec:]
    elif case == "zero-ecdh":
        q = q[:-ec] + bytes(ec)
    else:
        sys.exit("unknown proxy case " + case)
    return payload[:1] + sstr(ks) + sstr(q) + sig


def proxy(portfile, upport, case):
    conn = listen(portfile)
    up = socket.create_connection(("127.0.0.1", upport))
    buf, banner, done = b"", False, False
    end = time.time() + 30
    while time.time() < end:
        rd, _, _ = select.select([conn, up], [], [], 1)
        for s in rd:
            try:
                data = s.recv(65536)
            except OSError:
                data = b""
            if not data:
                if not done:
                    print("no KEX reply seen", flush=True)
                return
            if s is conn or done:
                (up if s is conn else conn).sendall(data)
                continue
            buf += data
            out = b""
            while not done:
                if not banner:
                    if b"\n" not in buf:
                        break
                    i = buf.index(b"\n") + 1
                    line, buf = buf[:i], buf[i:]
                    out += line
                    banner = line.startswith(b"SSH-")
                    continue
                if len(buf) < 4 or len(buf) < 4 + struct.unpack(
                        ">I", buf[:4])[0]:
                    break
                n = struct.unpack(">I", buf[:4])[0]
                pkt, buf = buf[:4 + n], buf[4 + n:]
                payload = pkt[5:4 + n - pkt[4]]
                bad = damage(payload, case) if payload[0] == 31 else None
                if bad is None:
                    out += pkt
                    continue
                out += packet(bad)
                print("damaged S_REPLY (%s)" % case, flush=True)
                done = True
            if done:
                out, buf = out + buf, b""
            conn.sendall(out)


def main():
    if len(sys.argv) == 6 and sys.argv[1] == "client":
        client(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5])
    elif len(sys.argv) == 5 and sys.argv[1] == "proxy":
        proxy(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
