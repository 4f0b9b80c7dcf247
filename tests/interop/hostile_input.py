"""Hostile clients against our sshd; each must see the connection closed."""
import socket
import struct
import sys
import time

host, port = sys.argv[1], int(sys.argv[2])
failed = 0


def closed_by_server(s, timeout=10):
    """Read until EOF; True if the server closed within the timeout."""
    s.settimeout(timeout)
    try:
        while True:
            b = s.recv(65536)
            if not b:
                return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def case(desc, payload, timeout=10):
    global failed
    s = socket.create_connection((host, port))
    if payload:
        s.sendall(payload)
    ok = closed_by_server(s, timeout)
    s.close()
    print(("ok: " if ok else "FAIL: ") + desc)
    if not ok:
        failed += 1


banner = b"SSH-2.0-hostile_1.0\r\n"
case("garbage instead of a banner", b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
case("oversized packet length", banner + b"\xff\xff\xff\xf0" + b"\x00" * 64)
case("length not a block multiple", banner + struct.pack(">I", 13) + b"\x04" * 13)
# padding length larger than the packet
case("padding length out of range", banner + struct.pack(">I", 12) + b"\x0b" + b"\x14" * 11)
case("message before key exchange", banner + struct.pack(">IB", 12, 4) + b"\x32" + b"abcdefghij")
case("binary junk", bytes(range(256)) * 4)
case("stops mid-KEX (LoginGraceTime)", banner, timeout=20)

# A bad MAC after key exchange, through paramiko with a corrupting socket.
try:
    import paramiko

    class Corrupt:
        def __init__(self, sock):
            self.sock = sock
            self.armed = False

        def send(self, data):
            if self.armed:
                data = bytearray(data)
                data[-1] ^= 1
                self.armed = False
                data = bytes(data)
            return self.sock.send(data)

        def __getattr__(self, name):
            return getattr(self.sock, name)

    s = socket.create_connection((host, port))
    t = paramiko.Transport(s)
    t.get_security_options().ciphers = ("aes128-ctr",)
    t.get_security_options().digests = ("hmac-sha2-256",)
    t.start_client(timeout=10)
    pk = t.packetizer
    c = Corrupt(pk._Packetizer__socket)
    pk._Packetizer__socket = c
    c.armed = True
    t.send_ignore(16)
    deadline = time.time() + 10
    while t.is_active() and time.time() < deadline:
        time.sleep(0.05)
    ok = not t.is_active()
    t.close()
    print(("ok: " if ok else "FAIL: ") + "bad MAC after key exchange")
    if not ok:
        failed += 1
except ImportError:
    print("FAIL: paramiko missing; bad MAC case not run")
    failed += 1

sys.exit(1 if failed else 0)
