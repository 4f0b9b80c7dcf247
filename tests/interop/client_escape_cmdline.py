#!/usr/bin/python3
"""client_escape_cmdline.py: the ~C command line of an ssh client driven
through a pseudo-terminal (the Term harness of client_tty.py).

Usage: client_escape_cmdline.py SCENARIO OUTDIR LPORT RPORT DPORT -- SSH-ARGV...

A small echo server runs in this process; the scenario adds forwardings
to it at the "ssh> " prompt, uses them, cancels them and sees them gone.
Facts go to OUTDIR/SCENARIO.res as key=value, the terminal output to
OUTDIR/SCENARIO.out.
"""
import os
import signal
import socket
import struct
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from client_tty import Term  # noqa: E402


def echo_server():
    ls = socket.socket()
    ls.bind(("127.0.0.1", 0))
    ls.listen(16)

    def serve(c):
        with c:
            while True:
                d = c.recv(65536)
                if not d:
                    return
                c.sendall(d)

    def loop():
        while True:
            c, _ = ls.accept()
            threading.Thread(target=serve, args=(c,), daemon=True).start()
    threading.Thread(target=loop, daemon=True).start()
    return ls.getsockname()[1]


def roundtrip(port, socks_to=None, tries=1):
    """Echo a message through port (via SOCKS5 to socks_to); True when
    it came back."""
    for i in range(tries):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            if socks_to is not None:
                s.sendall(b"\x05\x01\x00")
                if s.recv(2) != b"\x05\x00":
                    raise OSError("socks greeting")
                s.sendall(b"\x05\x01\x00\x01" + socket.inet_aton("127.0.0.1")
                          + struct.pack(">H", socks_to))
                rep = b""
                while len(rep) < 10:
                    d = s.recv(10 - len(rep))
                    if not d:
                        raise OSError("socks reply")
                    rep += d
                if rep[1] != 0:
                    raise OSError("socks refused")
            msg = b"ping %d through %d" % (os.getpid(), port)
            s.sendall(msg)
            got = b""
            while len(got) < len(msg):
                d = s.recv(4096)
                if not d:
                    break
                got += d
            s.close()
            if got == msg:
                return True
        except OSError:
            pass
        time.sleep(0.3)
    return False


def gone(port, tries=10):
    """True once nothing accepts a connection on port."""
    for i in range(tries):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=2)
            s.close()
        except OSError:
            return True
        time.sleep(0.3)
    return False


def cmd(t, line, pattern, timeout=10):
    t.send("~C", 0.2)
    if t.expect(r"ssh> ", timeout) is None:
        return False
    t.send(line + "\r", 0.2)
    return t.expect(pattern, timeout) is not None


def sc_enabled(t, res, ep, lp, rp, dp):
    res["ready"] = t.expect(r"ready", 15) is not None
    t.send("\r~?", 0.5)
    m = t.expect(r"(?s)Supported escape sequences:.*?after newline\.\)", 5)
    res["help_offers_C"] = bool(m and b"~C   - open a command line"
                                in m.group(0))
    t.send("\r", 0.3)
    res["L_added"] = cmd(t, "-L %d:127.0.0.1:%d" % (lp, ep),
                         r"Forwarding port\.")
    res["L_works"] = roundtrip(lp, tries=5)
    res["KL"] = cmd(t, "-KL %d" % lp, r"Canceled forwarding\.")
    res["L_gone"] = gone(lp)
    res["KL_again"] = cmd(t, "-KL %d" % lp, r"Unknown port forwarding\.")
    res["R_added"] = cmd(t, "-R %d:127.0.0.1:%d" % (rp, ep),
                         r"Forwarding port\.")
    res["R_works"] = roundtrip(rp, tries=10)
    res["KR"] = cmd(t, "-KR %d" % rp, r"Canceled forwarding\.")
    res["R_gone"] = gone(rp)
    res["D_added"] = cmd(t, "-D %d" % dp, r"Forwarding port\.")
    res["D_works"] = roundtrip(dp, socks_to=ep, tries=5)
    res["KD"] = cmd(t, "-KD %d" % dp, r"Canceled forwarding\.")
    res["D_gone"] = gone(dp)
    res["help"] = cmd(t, "-h", r"(?s)Commands:.*Cancel dynamic forward")
    res["qhelp"] = cmd(t, "?", r"(?s)Commands:.*Request local forward")
    res["invalid"] = cmd(t, "-X foo", r"Invalid command\.")
    res["bad_L"] = cmd(t, "-L bad", r"Bad local forwarding specification\.")
    res["bad_K"] = cmd(t, "-KL bad",
                       r"Bad forwarding close specification\.")
    # The session still carries typed text afterwards.
    t.send("\rstill here\r", 0.3)
    res["session_ok"] = t.expect(r"still here", 5) is not None
    t.send("\r~.")
    res["status"] = t.wait()


def sc_disabled(t, res, ep, lp, rp, dp):
    res["ready"] = t.expect(r"ready", 15) is not None
    t.send("\r~?", 0.5)
    m = t.expect(r"(?s)Supported escape sequences:.*?after newline\.\)", 5)
    res["help_offers_C"] = bool(m and b"~C" in m.group(0))
    t.send("\r~C", 0.3)
    res["disabled"] = t.expect(r"commandline disabled", 5) is not None
    res["no_prompt"] = b"ssh> " not in t.buf
    t.send("\r~.")
    res["status"] = t.wait()


SCENARIOS = {"enabled": sc_enabled, "disabled": sc_disabled}


def main():
    name, outdir = sys.argv[1], sys.argv[2]
    lp, rp, dp = (int(x) for x in sys.argv[3:6])
    argv = sys.argv[sys.argv.index("--") + 1:]
    ep = echo_server()
    res = {}
    t = Term(argv, 30, 100)
    try:
        SCENARIOS[name](t, res, ep, lp, rp, dp)
    finally:
        if not t.done():
            try:
                os.kill(t.pid, signal.SIGKILL)
            except OSError:
                pass
            t.wait(2)
        t.close()
        with open("%s/%s.out" % (outdir, name), "wb") as f:
            f.write(t.buf)
        with open("%s/%s.res" % (outdir, name), "w") as f:
            for k, v in res.items():
                f.write("%s=%s\n" % (k, v))


if __name__ == "__main__":
    main()
