"""paramiko against our sshd, the way its users drive it: SSHClient.connect
with a list of key files, passwords, keyboard-interactive, auth_none;
shells with a pty, exec with an environment, stderr combined or apart,
a signal-killed command, resize_pty, several channels at once; keepalives,
rekeying mid-transfer, direct-tcpip, remote forwarding and its cancel,
and compression offered by the client.

Arguments: host port user tmpdir password methods [cases]
  password  the user's password, or "-" when the password and
            keyboard-interactive parts are to be skipped (not root)
  methods   the comma-separated list auth_none must be refused with
  cases     the comma-separated names of the cases to run (default: the
            ones for the test's main server configuration)

Each case prints "ok: ..." or "FAIL: ..."; the exit status counts them."""
import hashlib
import os
import socket
import sys
import threading
import time

import paramiko

host, port, user, tmp = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
password = None if sys.argv[5] == "-" else sys.argv[5]
methods = sys.argv[6].split(",")
failed = 0
WAIT = 20
# The test's sshd_config runs our sftp-server for the sftp subsystem.
SFTP_SERVER = os.path.join(os.environ.get("MOAT_BIN", ""), "sftp-server")


def key(name):
    return os.path.join(tmp, name)


def report(desc, ok):
    global failed
    print(("ok: " if ok else "FAIL: ") + desc, flush=True)
    if not ok:
        failed += 1


def case(fn):
    """Run one case; an exception is a failure, reported with its cause."""
    desc = fn.__doc__.strip().splitlines()[0]
    try:
        ok = fn()
    except Exception as e:  # report and count, never hide
        print("error:", desc, repr(e), flush=True)
        ok = False
    report(desc, bool(ok))


def client(**kw):
    c = paramiko.SSHClient()
    c.set_missing_host_key_policy(paramiko.AutoAddPolicy())
    args = dict(hostname=host, port=port, username=user, timeout=WAIT,
                banner_timeout=WAIT, auth_timeout=WAIT, look_for_keys=False,
                allow_agent=False)
    args.update(kw)
    c.connect(**args)
    return c


def logged_in():
    return client(key_filename=key("id_ed25519"))


def read_all(ch, stderr=False):
    """Everything on stdout (or stderr) until EOF."""
    ch.settimeout(WAIT)
    out = b""
    while True:
        b = ch.recv_stderr(65536) if stderr else ch.recv(65536)
        if not b:
            return out
        out += b


def status(ch):
    """The exit status, waiting at most WAIT seconds (-1: none came)."""
    if not ch.status_event.wait(WAIT):
        raise RuntimeError("no exit status and no close")
    return ch.exit_status


def run(c, cmd, **kw):
    """exec_command; returns (stdout, stderr, status)."""
    stdin, stdout, stderr = c.exec_command(cmd, timeout=WAIT, **kw)
    stdin.close()
    out = stdout.read()
    err = stderr.read()
    return out, err, status(stdout.channel)


# --- Authentication ------------------------------------------------------

def keyfile_list():
    """connect: key_filename list with a refused key first"""
    c = client(key_filename=[key("id_other"), key("id_ed25519")])
    try:
        out, _, st = run(c, "echo in")
        return out == b"in\n" and st == 0
    finally:
        c.close()


def no_keys_no_agent():
    """connect: look_for_keys=False, allow_agent=False, no key: refused"""
    try:
        c = client()
    except paramiko.AuthenticationException:
        return True
    except paramiko.SSHException as e:
        # paramiko says "No authentication methods available" when it
        # has nothing to try at all; that is its own refusal.
        return "No authentication methods" in str(e)
    c.close()
    return False


def by_password():
    """connect: password"""
    c = client(password=password)
    try:
        out, _, st = run(c, "id -un")
        ok = out == (user + "\n").encode() and st == 0
    finally:
        c.close()
    try:
        client(password=password + "x").close()
        return False
    except paramiko.AuthenticationException:
        return ok


def by_kbdint():
    """auth_interactive with a handler (PAM keyboard-interactive)"""
    seen = []

    def handler(title, instructions, prompts):
        seen.extend(p for p, _ in prompts)
        return [password for _ in prompts]

    t = paramiko.Transport((host, port))
    try:
        t.start_client(timeout=WAIT)
        left = t.auth_interactive(user, handler)
        if left or not t.is_authenticated():
            return False
        ch = t.open_session(timeout=WAIT)
        ch.exec_command("id -un")
        out = read_all(ch)
        return (out == (user + "\n").encode() and status(ch) == 0 and
                any("assword" in p for p in seen))
    finally:
        t.close()


def by_none():
    """auth_none is refused with the methods the server offers"""
    t = paramiko.Transport((host, port))
    try:
        t.start_client(timeout=WAIT)
        try:
            t.auth_none(user)
            return False
        except paramiko.BadAuthenticationType as e:
            print("  allowed_types:", e.allowed_types)
            return list(e.allowed_types) == methods
    finally:
        t.close()


def password_as_kbdint():
    """connect(password=) with PasswordAuthentication no: kbd-int fallback"""
    # paramiko's auth_password falls back to keyboard-interactive, answering
    # the prompt with the password, when the server refuses "password".
    c = client(password=password)
    try:
        out, _, st = run(c, "id -un")
        return out == (user + "\n").encode() and st == 0
    finally:
        c.close()


def two_steps():
    """connect(key_filename=, password=) with publickey,password required"""
    try:
        client(key_filename=key("id_ed25519")).close()
        print("  a key alone was let in")
        return False
    except paramiko.AuthenticationException:
        pass
    c = client(key_filename=key("id_ed25519"), password=password)
    try:
        out, _, st = run(c, "id -un")
        return out == (user + "\n").encode() and st == 0
    finally:
        c.close()


def banner():
    """the Banner text reaches get_banner()"""
    t = paramiko.Transport((host, port))
    try:
        t.start_client(timeout=WAIT)
        try:
            t.auth_none(user)
        except paramiko.BadAuthenticationType:
            pass
        with open(key("banner"), "rb") as f:
            want = f.read()
        return t.get_banner() == want
    finally:
        t.close()


# --- Sessions ------------------------------------------------------------

def pty_shell():
    """get_pty + invoke_shell: echo hi; exit 4"""
    c = logged_in()
    try:
        ch = c.get_transport().open_session(timeout=WAIT)
        ch.get_pty()
        ch.invoke_shell()
        ch.sendall(b"echo hi; exit 4\n")
        out = read_all(ch)
        return b"hi\r\n" in out and status(ch) == 4
    finally:
        c.close()


def environment():
    """exec_command(environment=): AcceptEnv lets one in, not the other"""
    c = logged_in()
    try:
        out, _, st = run(c, 'echo "$MOAT_OK/${MOAT_NO-unset}"',
                         environment={"MOAT_OK": "yes", "MOAT_NO": "no"})
        return out == b"yes/unset\n" and st == 0
    finally:
        c.close()


def combined():
    """set_combine_stderr: stderr arrives in stdout"""
    c = logged_in()
    try:
        ch = c.get_transport().open_session(timeout=WAIT)
        ch.set_combine_stderr(True)
        ch.exec_command("echo out; sleep 0.2; echo err >&2")
        out = read_all(ch)
        return out == b"out\nerr\n" and status(ch) == 0
    finally:
        c.close()


def apart():
    """stderr kept apart from stdout"""
    c = logged_in()
    try:
        out, err, st = run(c, "echo out; echo err >&2; exit 3")
        return out == b"out\n" and err == b"err\n" and st == 3
    finally:
        c.close()


def killed():
    """a signal-killed command: exit-signal, no exit-status, channel closes"""
    seen = []
    table = paramiko.Transport._channel_handler_table
    req = paramiko.common.MSG_CHANNEL_REQUEST
    orig = table[req]

    def spy(chan, m):
        pos = m.packet.tell()
        seen.append(m.get_text())
        m.packet.seek(pos)
        return orig(chan, m)

    table[req] = spy
    c = logged_in()
    try:
        ch = c.get_transport().open_session(timeout=WAIT)
        ch.exec_command("kill -TERM $$")
        read_all(ch)
        # paramiko ignores exit-signal: recv_exit_status gives -1 once the
        # channel closes, as with OpenSSH's sshd.
        st = status(ch)
        print("  requests seen:", seen, "status:", st)
        return st == -1 and "exit-signal" in seen and "exit-status" not in seen
    finally:
        table[req] = orig
        c.close()


def resize():
    """resize_pty: stty size shows the new size"""
    c = logged_in()
    try:
        ch = c.get_transport().open_session(timeout=WAIT)
        ch.get_pty(width=80, height=24)
        ch.invoke_shell()
        ch.settimeout(WAIT)
        ch.sendall(b"stty size; echo DONE1\n")
        buf = b""
        while b"24 80" not in buf or b"\nDONE1" not in buf:
            b = ch.recv(4096)
            if not b:
                return False
            buf += b
        ch.resize_pty(width=132, height=43)
        ch.sendall(b"stty size; exit\n")
        out = read_all(ch)
        return b"43 132" in out and status(ch) == 0
    finally:
        c.close()


def many_channels():
    """several channels at once on one Transport"""
    c = logged_in()
    try:
        t = c.get_transport()
        chans, datas = [], []
        for i in range(5):
            ch = t.open_session(timeout=WAIT)
            ch.exec_command("sha256sum; exit %d" % i)
            chans.append(ch)
            datas.append(os.urandom(200000 + i * 1000))
        # Interleave the writes so every channel is busy at once.
        for off in range(0, 210000, 16384):
            for ch, d in zip(chans, datas):
                if off < len(d):
                    ch.sendall(d[off:off + 16384])
        for ch in chans:
            ch.shutdown_write()
        ok = True
        for i, (ch, d) in enumerate(zip(chans, datas)):
            out = read_all(ch)
            ok = ok and out.split()[0].decode() == hashlib.sha256(d).hexdigest()
            ok = ok and status(ch) == i
        return ok
    finally:
        c.close()


def pty_exec():
    """exec_command(get_pty=True): output through the tty, exit status"""
    c = logged_in()
    try:
        out, _, st = run(c, "echo a; tty; exit 5", get_pty=True)
        return out.startswith(b"a\r\n/dev/") and st == 5
    finally:
        c.close()


def sftp():
    """open_sftp: write, read back, stat, rename, listdir, remove"""
    c = logged_in()
    try:
        s = c.open_sftp()
        data = os.urandom(3 << 20)
        name = "moat-sftp-%d" % os.getpid()
        with s.open(name, "wb") as f:
            f.write(data)
        with s.open(name, "rb") as f:
            back = f.read()
        size = s.stat(name).st_size
        s.rename(name, name + ".x")
        listed = name + ".x" in s.listdir(".")
        s.remove(name + ".x")
        gone = name + ".x" not in s.listdir(".")
        s.close()
        return back == data and size == len(data) and listed and gone
    finally:
        c.close()


def cat_through(t, data, send):
    """Run `cat` on a new channel of transport t, send data with
    send(ch, data) while a thread reads the echo; True when it all came
    back and cat exited 0."""
    ch = t.open_session(timeout=WAIT)
    ch.exec_command("cat")
    ch.settimeout(WAIT)
    got = []

    def reader():
        while True:
            b = ch.recv(65536)
            if not b:
                return
            got.append(b)

    rt = threading.Thread(target=reader, daemon=True)
    rt.start()
    send(ch, data)
    ch.shutdown_write()
    rt.join(WAIT * 3)
    return b"".join(got) == data and status(ch) == 0


def server_rekey():
    """the server rekeys (RekeyLimit) mid-transfer: data intact"""
    c = logged_in()
    try:
        t = c.get_transport()
        k0 = t.H
        intact = cat_through(t, os.urandom(8 << 20),
                             lambda ch, d: ch.sendall(d))
        return intact and t.H != k0
    finally:
        c.close()


def small_window():
    """a channel with a 1 KiB window and 512-byte packets"""
    c = logged_in()
    try:
        ch = c.get_transport().open_session(window_size=1024,
                                            max_packet_size=512,
                                            timeout=WAIT)
        ch.exec_command("head -c 500000 /dev/zero; echo end")
        out = read_all(ch)
        return out == bytes(500000) + b"end\n" and status(ch) == 0
    finally:
        c.close()


# --- Transport features --------------------------------------------------

def keepalive():
    """set_keepalive, and keepalive@openssh.com answered"""
    c = logged_in()
    try:
        t = c.get_transport()
        t.set_keepalive(1)
        time.sleep(3.5)	# paramiko sends keepalive@lag.net, no reply wanted
        res = {}

        def ask():
            res["r"] = t.global_request("keepalive@openssh.com", wait=True)
            res["active"] = t.is_active()

        th = threading.Thread(target=ask, daemon=True)
        th.start()
        th.join(WAIT)
        # OpenSSH answers with REQUEST_FAILURE: paramiko returns None and
        # the transport stays up.
        answered = not th.is_alive() and res.get("active")
        out, _, st = run(c, "echo still")
        return answered and out == b"still\n" and st == 0
    finally:
        c.close()


def rekey():
    """renegotiate_keys() mid-transfer: data intact both ways"""
    c = logged_in()
    try:
        t = c.get_transport()
        k0, sid = t.H, t.session_id

        def send(ch, data):
            step = len(data) // 3
            ch.sendall(data[:step])
            t.renegotiate_keys()
            ch.sendall(data[step:2 * step])
            t.renegotiate_keys()
            ch.sendall(data[2 * step:])

        intact = cat_through(t, os.urandom(6 << 20), send)
        # A new exchange hash means new keys; the session id stays.
        return intact and t.H != k0 and t.session_id == sid
    finally:
        c.close()


def echo_server():
    """A local TCP echo server; returns (socket, port)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(4)

    def serve():
        while True:
            try:
                conn, _ = s.accept()
            except OSError:
                return
            def echo(cn=conn):
                with cn:
                    while True:
                        b = cn.recv(65536)
                        if not b:
                            return
                        cn.sendall(b)
            threading.Thread(target=echo, daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    return s, s.getsockname()[1]


def recv_n(ch, n):
    out = b""
    while len(out) < n:
        b = ch.recv(n - len(out))
        if not b:
            break
        out += b
    return out


def direct_tcpip():
    """open_channel("direct-tcpip") to a local echo server"""
    s, eport = echo_server()
    c = logged_in()
    try:
        ch = c.get_transport().open_channel(
            "direct-tcpip", ("127.0.0.1", eport), ("127.0.0.1", 0),
            timeout=WAIT)
        ch.settimeout(WAIT)
        data = os.urandom(300000)
        threading.Thread(target=ch.sendall, args=(data,), daemon=True).start()
        back = recv_n(ch, len(data))
        ch.close()
        return back == data
    finally:
        c.close()
        s.close()


def remote_forward():
    """request_port_forward: a connection arrives as forwarded-tcpip; cancel"""
    c = logged_in()
    try:
        t = c.get_transport()
        rport = t.request_port_forward("127.0.0.1", 0)
        conn = socket.create_connection(("127.0.0.1", rport), timeout=WAIT)
        ch = t.accept(WAIT)
        if ch is None:
            print("  no forwarded channel arrived")
            return False
        ch.settimeout(WAIT)
        conn.sendall(b"ping")
        ok = recv_n(ch, 4) == b"ping"
        ch.sendall(b"pong")
        back = b""
        while len(back) < 4:
            b = conn.recv(4)
            if not b:
                break
            back += b
        ok = ok and back == b"pong"
        conn.close()
        ch.close()
        t.cancel_port_forward("127.0.0.1", rport)
        # The listener goes away once the cancel is handled; the session
        # going on proves the cancel was taken in order.
        out, _, _ = run(c, "echo after")
        try:
            socket.create_connection(("127.0.0.1", rport), timeout=5).close()
            print("  port still listening after cancel")
            return False
        except OSError:
            pass
        return ok and out == b"after\n"
    finally:
        c.close()


def direct_refused():
    """direct-tcpip to a closed port: refused with CONNECT_FAILED (2)"""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    dead = s.getsockname()[1]
    s.close()
    c = logged_in()
    try:
        try:
            c.get_transport().open_channel(
                "direct-tcpip", ("127.0.0.1", dead), ("127.0.0.1", 0),
                timeout=WAIT)
            return False
        except paramiko.ChannelException as e:
            ok = e.code == paramiko.OPEN_FAILED_CONNECT_FAILED
        out, _, st = run(c, "echo alive")
        return ok and out == b"alive\n" and st == 0
    finally:
        c.close()


def forward_busy():
    """request_port_forward on a port in use: denied, session goes on"""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    c = logged_in()
    try:
        try:
            c.get_transport().request_port_forward("127.0.0.1",
                                                   s.getsockname()[1])
            return False
        except paramiko.SSHException:
            pass
        out, _, st = run(c, "echo alive")
        return out == b"alive\n" and st == 0
    finally:
        c.close()
        s.close()


class OfferSpy(paramiko.Transport):
    """A Transport that keeps the server's compression offer (c2s, s2c)
    from its KEXINIT, which paramiko forgets once keys are taken."""
    offer = None

    def _parse_kex_init(self, m):
        pos = m.packet.tell()
        m.get_bytes(16)
        lists = [m.get_list() for _ in range(8)]
        self.offer = (lists[6], lists[7])
        m.packet.seek(pos)
        return super()._parse_kex_init(m)


def compression():
    """use_compression(True): the choice follows what the server offers"""
    t = OfferSpy((host, port))
    try:
        t.use_compression(True)
        t.start_client(timeout=WAIT)
        k = paramiko.Ed25519Key.from_private_key_file(key("id_ed25519"))
        t.auth_publickey(user, k)
        ch = t.open_session(timeout=WAIT)
        data = b"compressible " * 100000
        ch.exec_command("sha256sum")
        ch.sendall(data)
        ch.shutdown_write()
        out = read_all(ch)
        print("  server offers:", t.offer, "chosen:", t.local_compression,
              t.remote_compression)
        # The client's preference is zlib@openssh.com, zlib, none: the first
        # of those the server lists must be the one taken, each way; with
        # "none" alone on offer that is a clean fall-back.
        want = [next(a for a in ("zlib@openssh.com", "zlib", "none")
                     if a in offer) for offer in t.offer]
        return (out.split()[0].decode() == hashlib.sha256(data).hexdigest()
                and status(ch) == 0 and
                [t.local_compression, t.remote_compression] == want)
    finally:
        t.close()


MAIN = ["keyfile_list", "no_keys_no_agent", "by_none", "by_password",
        "by_kbdint", "banner", "pty_shell", "pty_exec", "environment",
        "combined", "apart", "killed", "resize", "many_channels",
        "small_window", "sftp", "keepalive", "rekey", "direct_tcpip",
        "direct_refused", "remote_forward", "forward_busy", "compression"]
NEED_PASSWORD = ("by_password", "by_kbdint", "password_as_kbdint", "two_steps")
for name in (sys.argv[7].split(",") if len(sys.argv) > 7 and sys.argv[7]
             else MAIN):
    if name in NEED_PASSWORD and password is None:
        print("note: not root: %s skipped" % name)
        continue
    if name == "sftp" and not os.path.exists(SFTP_SERVER):
        print("note: %s missing: sftp skipped" % SFTP_SERVER)
        continue
    case(globals()[name])
sys.exit(1 if failed else 0)
