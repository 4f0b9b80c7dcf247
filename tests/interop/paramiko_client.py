"""paramiko against our sshd: a subset of algorithms, exec, data, exit status,
and a second attempt on the same connection after a refused one."""
import hashlib
import os
import sys

import paramiko

host, port, user, tmp = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
failed = 0


def run(desc, keyfile, keycls, kex=None, cipher=None, mac=None):
    global failed
    key = keycls.from_private_key_file(os.path.join(tmp, keyfile))
    t = paramiko.Transport((host, port))
    sec = t.get_security_options()
    if kex:
        sec.kex = (kex,)
    if cipher:
        sec.ciphers = (cipher,)
    if mac:
        sec.digests = (mac,)
    try:
        t.connect(username=user, pkey=key)
        ch = t.open_session()
        data = os.urandom(1 << 20)
        ch.exec_command("sha256sum; exit 7")
        ch.sendall(data)
        ch.shutdown_write()
        out = b""
        while True:
            b = ch.recv(65536)
            if not b:
                break
            out += b
        status = ch.recv_exit_status()
        ok = out.split()[0].decode() == hashlib.sha256(data).hexdigest() and status == 7
    except Exception as e:  # report and count, never hide
        print("error:", desc, repr(e))
        ok = False
    finally:
        t.close()
    print(("ok: " if ok else "FAIL: ") + desc)
    if not ok:
        failed += 1


run("paramiko ed25519 default", "id_ed25519", paramiko.Ed25519Key)
run("paramiko ecdsa curve25519 aes128-ctr", "pem_ecdsa", paramiko.ECDSAKey,
    kex="curve25519-sha256@libssh.org", cipher="aes128-ctr", mac="hmac-sha2-256")
run("paramiko rsa ecdh-p256 aes256-ctr", "pem_rsa", paramiko.RSAKey,
    kex="ecdh-sha2-nistp256", cipher="aes256-ctr", mac="hmac-sha2-512")
run("paramiko group14 aes192-ctr hmac-sha1", "id_ed25519", paramiko.Ed25519Key,
    kex="diffie-hellman-group14-sha256", cipher="aes192-ctr", mac="hmac-sha1")
run("paramiko gex etm", "id_ed25519", paramiko.Ed25519Key,
    kex="diffie-hellman-group-exchange-sha256", cipher="aes128-ctr",
    mac="hmac-sha2-256-etm@openssh.com")
run("paramiko group16", "id_ed25519", paramiko.Ed25519Key,
    kex="diffie-hellman-group16-sha512")


def retry():
    """A refused key, then the right one on the same connection: paramiko
    sends a new SERVICE_REQUEST before each attempt, which the server must
    accept again (OpenSSH does)."""
    global failed
    t = paramiko.Transport((host, port))
    ok = False
    try:
        t.start_client(timeout=10)
        other = paramiko.Ed25519Key.from_private_key_file(
            os.path.join(tmp, "id_other"))
        try:
            t.auth_publickey(user, other)
            print("error: a key not in authorized_keys was accepted")
        except paramiko.AuthenticationException:
            key = paramiko.Ed25519Key.from_private_key_file(
                os.path.join(tmp, "id_ed25519"))
            t.auth_timeout = 10
            t.auth_publickey(user, key)
            ok = t.is_authenticated()
    except Exception as e:  # report and count, never hide
        print("error: retry", repr(e))
    finally:
        t.close()
    print(("ok: " if ok else "FAIL: ") + "paramiko retries after a refused key")
    if not ok:
        failed += 1


retry()
sys.exit(1 if failed else 0)
