"""Peers for the host key rotation tests (update_hostkeys.sh), on paramiko.

  hostkeys_peer.py server PORTFILE MODE KEX-KEY OTHER-KEY...
      A server that lists its host keys after login (hostkeys-00) and
      answers the client's hostkeys-prove-00, honestly or not (MODE).
      KEX-KEY (an ed25519 private key file) is the key of the key
      exchange; it and the OTHER-KEYs are listed in that order. Serves
      one connection: a session whose exec request is answered with
      exit status 0 once the client's prove request has been answered
      (or after 10 seconds without one). Prints what it did on stdout.
  hostkeys_peer.py client PORT USER IDENTITY PUB... [-- UNKNOWN-PUB]
      Logs in to a server, prints the keys its hostkeys-00 listed
      ("listed TYPE BASE64"), asks proofs for the PUB files and checks
      each signature itself ("proof TYPE SIGALG ok|BAD"); with an
      UNKNOWN-PUB, also asks for that key alone and prints
      "unknown refused" when the server fails the request.

  hostkeys_peer.py tty ANSWER OUTFILE -- SSH-ARGV...
      Runs an interactive ssh in a pseudo-terminal; when it asks
      "Accept updated hostkeys? (yes/no): " types ANSWER, then "exit"
      to the remote shell. Everything the terminal showed goes to
      OUTFILE; prints "prompted" or "not prompted", and "status N".

Server MODEs (what the proofs are):
  good      correct signatures, RSA with rsa-sha2-512
  badsig    the last proof's last byte flipped
  session   signed over another session identifier
  wrongkey  the first proof made by the KEX key instead
  swap      the first two proofs in the wrong order
  sha1      the RSA proof with ssh-rsa (SHA-1)
  fail      REQUEST_FAILURE
  trailing  a stray uint32 after the proofs
  twice     hostkeys-00 sent twice (no proofs asked for, the client ends)
"""
import os
import pty
import select
import socket
import struct
import sys
import threading
import time

import paramiko
from paramiko.common import MSG_GLOBAL_REQUEST
from paramiko.message import Message

PROVE = "hostkeys-prove-00@openssh.com"
_said = threading.Lock()
HOSTKEYS = "hostkeys-00@openssh.com"


def say(line):
    """One whole line on stdout. The server's main thread and its
    transport thread both report; print() writes text and newline
    separately, so two threads could splice their lines together."""
    with _said:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def sshstr(b):
    return struct.pack(">I", len(b)) + b


def strings(raw):
    """The SSH strings that make up raw, in order."""
    out = []
    while raw:
        n = struct.unpack(">I", raw[:4])[0]
        out.append(raw[4:4 + n])
        raw = raw[4 + n:]
    return out


def load_private(path):
    for cls in (paramiko.Ed25519Key, paramiko.ECDSAKey, paramiko.RSAKey):
        try:
            return cls.from_private_key_file(path)
        except (paramiko.SSHException, ValueError):
            continue
    raise SystemExit("cannot load " + path)


def public_of(path):
    kind, b64 = open(path).read().split()[:2]
    blob = paramiko.py3compat.decodebytes(b64.encode())
    cls = {"ssh-ed25519": paramiko.Ed25519Key,
           "ssh-rsa": paramiko.RSAKey}.get(kind, paramiko.ECDSAKey)
    return cls(data=blob), blob


def proof_data(session_id, blob):
    return sshstr(PROVE.encode()) + sshstr(session_id) + sshstr(blob)


def sign(key, data, rsa_alg):
    if isinstance(key, paramiko.RSAKey):
        return key.sign_ssh_data(data, algorithm=rsa_alg).asbytes()
    return key.sign_ssh_data(data).asbytes()


class Server(paramiko.ServerInterface):
    def __init__(self, mode, keys):
        self.mode = mode
        self.keys = keys          # [(private key, blob)], KEX key first
        self.transport = None
        self.proven = threading.Event()
        self.exec_seen = threading.Event()

    def get_allowed_auths(self, username):
        return "publickey"

    def check_auth_publickey(self, username, key):
        return paramiko.AUTH_SUCCESSFUL

    def check_channel_request(self, kind, chanid):
        if kind == "session":
            return paramiko.OPEN_SUCCEEDED
        return paramiko.OPEN_FAILED_ADMINISTRATIVELY_PROHIBITED

    def check_channel_exec_request(self, channel, command):
        self.exec_seen.set()
        return True

    def check_channel_pty_request(self, *args):
        return True

    def check_channel_shell_request(self, channel):
        self.exec_seen.set()
        return True

    def check_global_request(self, kind, m):
        if kind != PROVE:
            return False
        try:
            return self.prove(m)
        finally:
            self.proven.set()

    def prove(self, m):
        asked = strings(m.get_remainder())
        say("asked %d" % len(asked))
        if self.mode == "fail":
            return False
        sid = self.transport.session_id
        if self.mode == "session":
            sid = bytes([sid[0] ^ 1]) + sid[1:]
        by_blob = {blob: key for key, blob in self.keys}
        sigs = []
        for i, blob in enumerate(asked):
            if blob not in by_blob:
                say("asked for a key we do not have")
                return False
            key = by_blob[blob]
            if self.mode == "wrongkey" and i == 0:
                key = self.keys[0][0]
            rsa_alg = "ssh-rsa" if self.mode == "sha1" else "rsa-sha2-512"
            sigs.append(sign(key, proof_data(sid, blob), rsa_alg))
        if self.mode == "badsig":
            last = bytearray(sigs[-1])
            last[-1] ^= 0x40
            sigs[-1] = bytes(last)
        if self.mode == "swap" and len(sigs) > 1:
            sigs[0], sigs[1] = sigs[1], sigs[0]
        if self.mode == "trailing":
            sigs.append(7)
        say("answered %s" % self.mode)
        return tuple(sigs)


def serve(portfile, mode, keyfiles):
    keys = []
    for path in keyfiles:
        key = load_private(path)
        keys.append((key, key.asbytes()))
    lsock = socket.socket()
    lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lsock.bind(("127.0.0.1", 0))
    lsock.listen(1)
    with open(portfile + ".tmp", "w") as f:
        f.write("%d\n" % lsock.getsockname()[1])
    os.rename(portfile + ".tmp", portfile)
    lsock.settimeout(60)
    conn, _ = lsock.accept()
    t = paramiko.Transport(conn)
    t.add_server_key(keys[0][0])
    srv = Server(mode, keys)
    srv.transport = t
    t.start_server(server=srv)
    chan = t.accept(30)
    if chan is None:
        raise SystemExit("no session")
    blobs = tuple(blob for _, blob in keys)
    t.global_request(HOSTKEYS, data=blobs, wait=False)
    if mode == "twice":
        t.global_request(HOSTKEYS, data=blobs, wait=False)
    say("listed %d" % len(blobs))
    srv.exec_seen.wait(10)
    if mode != "twice":
        srv.proven.wait(10)
    try:
        chan.send_exit_status(0)
        chan.close()
    except (EOFError, OSError, paramiko.SSHException):
        pass
    t.join(5)
    t.close()


def client(port, user, identity, pubs, unknown):
    listed = []

    def on_global(self, m):
        kind = m.get_text()
        want = m.get_boolean()
        if kind == HOSTKEYS:
            listed.extend(strings(m.get_remainder()))
        if want:
            reply = Message()
            reply.add_byte(paramiko.common.cMSG_REQUEST_FAILURE)
            self._send_message(reply)

    paramiko.Transport._handler_table[MSG_GLOBAL_REQUEST] = on_global
    sock = socket.create_connection(("127.0.0.1", int(port)))
    t = paramiko.Transport(sock)
    t.start_client(timeout=20)
    t.auth_publickey(user, load_private(identity))
    keys = [public_of(p) for p in pubs]
    reply = t.global_request(PROVE, data=tuple(b for _, b in keys),
                             wait=True)
    for blob in listed:
        kind = strings(blob)[0] if blob else b"?"
        say("listed %s %s" % (kind.decode(),
                              paramiko.py3compat.encodebytes(blob)
                              .decode().replace("\n", "")))
    if reply is None:
        say("proofs refused")
    else:
        sigs = strings(reply.get_remainder())
        for (key, blob), sig in zip(keys, sigs):
            ok = key.verify_ssh_sig(proof_data(t.session_id, blob),
                                    Message(sig))
            say("proof %s %s %s" % (key.get_name(),
                                    strings(sig)[0].decode(),
                                    "ok" if ok else "BAD"))
        say("proofs %d" % len(sigs))
    if unknown:
        key, blob = public_of(unknown)
        reply = t.global_request(PROVE, data=(blob,), wait=True)
        say("unknown %s" % ("refused" if reply is None else "ANSWERED"))
    t.close()


def read_until(fd, buf, want, seconds):
    """Reads the pty into buf until want appears, EOF or the time is up."""
    end = time.time() + seconds
    while (want is None or want not in buf) and time.time() < end:
        r, _, _ = select.select([fd], [], [], max(0, end - time.time()))
        if not r:
            continue
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            chunk = b""
        if not chunk:
            break
        buf += chunk
    return buf


def tty(answer, outfile, argv):
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(argv[0], argv)
    prompt = b"Accept updated hostkeys? (yes/no): "
    buf = read_until(fd, b"", prompt, 20)
    prompted = prompt in buf
    if prompted:
        os.write(fd, answer.encode() + b"\r")
    buf = read_until(fd, buf, b"\0", 2)     # the shell starts meanwhile
    os.write(fd, b"exit\r")
    buf = read_until(fd, buf, None, 20)
    _, status = os.waitpid(pid, 0)
    with open(outfile, "wb") as f:
        f.write(buf)
    print("prompted" if prompted else "not prompted")
    print("status %d" % os.waitstatus_to_exitcode(status))


def main():
    if len(sys.argv) >= 5 and sys.argv[1] == "server":
        serve(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif len(sys.argv) >= 6 and sys.argv[1] == "tty" and \
            sys.argv[4] == "--":
        tty(sys.argv[2], sys.argv[3], sys.argv[5:])
    elif len(sys.argv) >= 6 and sys.argv[1] == "client":
        args = sys.argv[5:]
        unknown = None
        if "--" in args:
            i = args.index("--")
            unknown = args[i + 1]
            args = args[:i]
        client(sys.argv[2], sys.argv[3], sys.argv[4], args, unknown)
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
