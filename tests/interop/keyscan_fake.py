"""A server that gets only as far as its key exchange reply, for keyscan.sh.

  keyscan_fake.py PORT ADDR

listens on ADDR:PORT, prints "ready", and answers every client with a
version line, a KEXINIT (curve25519-sha256 only) and, to the client's
KEX_ECDH_INIT, a KEX_ECDH_REPLY carrying a host key of whichever type
the client asked for: security keys (sk-ssh-ed25519@openssh.com,
sk-ecdsa-sha2-nistp256@openssh.com), which no OpenSSH sshd serves, and
an ssh-ed25519 key. The signature is never a valid one: a scanner that
prints keys without checking it (OpenSSH's) prints them all, ours only
those it cannot check. The keys are made once, at start, and printed
as "TYPE BASE64" lines after "ready".

Runs until killed.
"""
import base64
import os
import socket
import struct
import sys
import threading

from cryptography.hazmat.primitives.asymmetric import ec, ed25519
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def string(b):
    if isinstance(b, str):
        b = b.encode()
    return struct.pack(">I", len(b)) + b


def name_list(names):
    return string(",".join(names))


def packet(payload):
    pad = 8 - (len(payload) + 5) % 8
    if pad < 4:
        pad += 8
    return struct.pack(">IB", len(payload) + pad + 1, pad) + payload + \
        os.urandom(pad)


def read_exact(c, n):
    b = b""
    while len(b) < n:
        x = c.recv(n - len(b))
        if not x:
            raise EOFError
        b += x
    return b


def read_packet(c):
    length, pad = struct.unpack(">IB", read_exact(c, 5))
    body = read_exact(c, length - 1)
    return body[:len(body) - pad]


def make_keys():
    ed = ed25519.Ed25519PrivateKey.generate().public_key().public_bytes(
        Encoding.Raw, PublicFormat.Raw)
    q = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        Encoding.X962, PublicFormat.UncompressedPoint)
    sked = ed25519.Ed25519PrivateKey.generate().public_key().public_bytes(
        Encoding.Raw, PublicFormat.Raw)
    return {
        "sk-ssh-ed25519@openssh.com":
            string("sk-ssh-ed25519@openssh.com") + string(sked) +
            string("ssh:"),
        "sk-ecdsa-sha2-nistp256@openssh.com":
            string("sk-ecdsa-sha2-nistp256@openssh.com") +
            string("nistp256") + string(q) + string("ssh:"),
        "ssh-ed25519": string("ssh-ed25519") + string(ed),
    }


def client_hostkey_algs(kexinit):
    off = 17
    lists = []
    for _ in range(2):
        n, = struct.unpack(">I", kexinit[off:off + 4])
        lists.append(kexinit[off + 4:off + 4 + n].decode())
        off += 4 + n
    return lists[1].split(",")


def serve(c, keys):
    try:
        c.sendall(b"SSH-2.0-FakeKeys_1.0\r\n")
        c.sendall(packet(bytes([20]) + os.urandom(16) +
                         name_list(["curve25519-sha256"]) +
                         name_list(list(keys)) +
                         name_list(["aes128-ctr"]) * 2 +
                         name_list(["hmac-sha2-256"]) * 2 +
                         name_list(["none"]) * 2 + name_list([]) * 2 +
                         b"\0" + b"\0\0\0\0"))
        line = b""
        while not line.endswith(b"\n"):
            line += read_exact(c, 1)
        algs = []
        while True:
            p = read_packet(c)
            if p[0] == 20:
                algs = client_hostkey_algs(p)
            elif p[0] == 30:
                break
        alg = next((a for a in algs if a in keys), None)
        if alg is None:
            return
        sig = string(alg) + string(os.urandom(64))
        c.sendall(packet(bytes([31]) + string(keys[alg]) +
                         string(os.urandom(32)) + string(sig)))
        c.settimeout(2)
        while c.recv(4096):
            pass
    except (EOFError, OSError):
        pass
    finally:
        c.close()


def main():
    port, addr = int(sys.argv[1]), sys.argv[2]
    keys = make_keys()
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((addr, port))
    s.listen(64)
    print("ready")
    for blob in keys.values():
        name = blob[4:4 + struct.unpack(">I", blob[:4])[0]].decode()
        print(name, base64.b64encode(blob).decode())
    sys.stdout.flush()
    while True:
        c, _ = s.accept()
        threading.Thread(target=serve, args=(c, keys), daemon=True).start()


main()
