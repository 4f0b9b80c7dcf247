"""A server that gets only as far as its key exchange reply, for keyscan.sh.

  keyscan_fake.py PORT ADDR

listens on ADDR:PORT, prints "ready", and answers every client with a
version line, a KEXINIT (curve25519-sha256 only) and, to the client's
KEX_ECDH_INIT, a KEX_ECDH_REPLY carrying a host key of whichever type
the client asked for: security keys (sk-ssh-ed25519@openssh.com,
sk-ecdsa-sha2-nistp256@openssh.com), which no OpenSSH sshd serves, and
an ssh-ed25519 key. The security keys sign the exchange hash properly
(as an authenticator would, PROTOCOL.u2f); the ssh-ed25519 signature is
never a valid one: a scanner that prints keys without checking them
(OpenSSH's) prints them all, ours only those whose signature verifies.
The keys are made once, at start, and printed as "TYPE BASE64" lines
after "ready".

Runs until killed.
"""
import base64
import hashlib
import os
import socket
import struct
import sys
import threading

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, x25519
from cryptography.hazmat.primitives.asymmetric.utils import \
    decode_dss_signature
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


def mpint(b):
    b = b.lstrip(b"\0")
    if b and b[0] & 0x80:
        b = b"\0" + b
    return string(b)


def sk_signature(alg, priv, h):
    """An authenticator's signature over h, flags 0x01 (user present)."""
    flags, counter = 1, 42
    signed = hashlib.sha256(b"ssh:").digest() + bytes([flags]) + \
        struct.pack(">I", counter) + hashlib.sha256(h).digest()
    if isinstance(priv, ed25519.Ed25519PrivateKey):
        raw = priv.sign(signed)
    else:
        r, s = decode_dss_signature(priv.sign(signed,
                                              ec.ECDSA(hashes.SHA256())))
        raw = mpint(r.to_bytes(33, "big")) + mpint(s.to_bytes(33, "big"))
    return string(alg) + string(raw) + bytes([flags]) + \
        struct.pack(">I", counter)


SIGNERS = {}


def make_keys():
    ed = ed25519.Ed25519PrivateKey.generate().public_key().public_bytes(
        Encoding.Raw, PublicFormat.Raw)
    ecpriv = ec.generate_private_key(ec.SECP256R1())
    q = ecpriv.public_key().public_bytes(
        Encoding.X962, PublicFormat.UncompressedPoint)
    edpriv = ed25519.Ed25519PrivateKey.generate()
    sked = edpriv.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    SIGNERS["sk-ssh-ed25519@openssh.com"] = edpriv
    SIGNERS["sk-ecdsa-sha2-nistp256@openssh.com"] = ecpriv
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
        vs = b"SSH-2.0-FakeKeys_1.0"
        c.sendall(vs + b"\r\n")
        i_s = bytes([20]) + os.urandom(16) + \
            name_list(["curve25519-sha256"]) + name_list(list(keys)) + \
            name_list(["aes128-ctr"]) * 2 + \
            name_list(["hmac-sha2-256"]) * 2 + \
            name_list(["none"]) * 2 + name_list([]) * 2 + b"\0" + \
            b"\0\0\0\0"
        c.sendall(packet(i_s))
        line = b""
        while not line.endswith(b"\n"):
            line += read_exact(c, 1)
        algs = []
        i_c = b""
        while True:
            p = read_packet(c)
            if p[0] == 20:
                i_c = p
                algs = client_hostkey_algs(p)
            elif p[0] == 30:
                break
        alg = next((a for a in algs if a in keys), None)
        if alg is None:
            return
        qc = p[5:5 + struct.unpack(">I", p[1:5])[0]]
        eph = x25519.X25519PrivateKey.generate()
        qs = eph.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        if alg in SIGNERS:
            k = eph.exchange(x25519.X25519PublicKey.from_public_bytes(qc))
            h = hashlib.sha256(string(line.rstrip(b"\r\n")) + string(vs) +
                               string(i_c) + string(i_s) +
                               string(keys[alg]) + string(qc) +
                               string(qs) + mpint(k)).digest()
            sig = sk_signature(alg, SIGNERS[alg], h)
        else:
            sig = string(alg) + string(os.urandom(64))
        c.sendall(packet(bytes([31]) + string(keys[alg]) + string(qs) +
                         string(sig)))
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
