#!/usr/bin/env python3
# mkseeds_fidoconv.py: the seeds of fuzz_fidoconv, results as libfido2
# hands them over, made with fresh keys by python3-cryptography: Ed25519
# and P-256 public keys (libfido2's x || y and the whole point), an
# Ed25519 signature and a DER ECDSA one over authenticator-style data,
# enrollments with an attestation certificate and authenticator data,
# a resident key list, and the options ssh-keygen passes.
#
# usage: python3 mkseeds_fidoconv.py CORPUS_DIR   (.../corpus/fuzz_fidoconv)
import datetime
import hashlib
import os
import struct
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519
from cryptography.x509.oid import NameOID

PUBKEY, SIGN, ENROLL, RESIDENT, OPTIONS = range(5)
ECDSA, ED25519, UNKNOWN = range(3)      # fuzz_fidoconv's algs[]
UP, UV, RESIDENT_KEY = 0x01, 0x04, 0x20
APP = b"ssh:"


def field(b):
    return struct.pack(">H", len(b)) + b


raw = serialization.Encoding.Raw, serialization.PublicFormat.Raw
ed = ed25519.Ed25519PrivateKey.generate()
ed_pub = ed.public_key().public_bytes(*raw)
p256 = ec.generate_private_key(ec.SECP256R1())
point = p256.public_key().public_bytes(
    serialization.Encoding.X962,
    serialization.PublicFormat.UncompressedPoint)
xy = point[1:]

# What an authenticator signs: H(app), flags, counter, H(client data).
signed = (hashlib.sha256(APP).digest() + bytes([UP]) +
          struct.pack(">I", 7) + hashlib.sha256(b"challenge").digest())
ed_sig = ed.sign(signed)
der_sig = p256.sign(signed, ec.ECDSA(hashes.SHA256()))

name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "attestation")])
now = datetime.datetime(2026, 1, 1)
cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
        .public_key(p256.public_key()).serial_number(1)
        .not_valid_before(now)
        .not_valid_after(now + datetime.timedelta(days=3650))
        .sign(p256, hashes.SHA256())).public_bytes(
            serialization.Encoding.DER)
handle = os.urandom(64)
# authenticator data as CBOR byte string: rpIdHash, flags, counter, and
# attested credential data (AAGUID, ID length, ID; the key left out)
ad = (hashlib.sha256(APP).digest() + bytes([UP | 0x40]) +
      struct.pack(">I", 0) + bytes(16) + struct.pack(">H", len(handle)) +
      handle)
authdata = bytes([0x58, len(ad)]) + ad if len(ad) < 256 else \
    bytes([0x59]) + struct.pack(">H", len(ad)) + ad


def enroll(alg, flags, pk):
    return bytes([ENROLL, alg, flags]) + field(pk) + field(handle) + \
        field(der_sig) + field(cert) + field(authdata)


def resident(alg, flags, pk, uid, app):
    return bytes([alg, flags]) + field(pk) + field(handle) + field(uid) + \
        field(app)


def option(required, name, value):
    return bytes([required]) + field(name) + field(value)


seeds = {
    "pubkey_ed25519": bytes([PUBKEY, ED25519]) + ed_pub,
    "pubkey_p256_xy": bytes([PUBKEY, ECDSA]) + xy,
    "pubkey_p256_point": bytes([PUBKEY, ECDSA]) + point,
    "sign_ed25519": bytes([SIGN, ED25519, UP]) + struct.pack(">I", 7) +
    ed_sig,
    "sign_p256": bytes([SIGN, ECDSA, UP | UV]) + struct.pack(">I", 7) +
    der_sig,
    "enroll_ed25519": enroll(ED25519, UP | RESIDENT_KEY, ed_pub),
    "enroll_p256": enroll(ECDSA, UP, xy),
    "resident_list": bytes([RESIDENT, 0]) +
    resident(ED25519, UP | RESIDENT_KEY, ed_pub, b"alice".ljust(32, b"\0"),
             b"ssh:") +
    resident(ECDSA, UP | UV | RESIDENT_KEY, xy, b"", b"ssh:work") +
    resident(ECDSA, UP | RESIDENT_KEY, point, b"openssh", b"ssh:"),
    "options": bytes([OPTIONS, 0]) + option(0, b"device", b"/dev/hidraw0") +
    option(1, b"user", b"alice") + option(0, b"colour", b"blue"),
}

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for n, data in seeds.items():
    with open(os.path.join(out, n), "wb") as f:
        f.write(data)
