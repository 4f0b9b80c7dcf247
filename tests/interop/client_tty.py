#!/usr/bin/python3
"""client_tty.py: drive an ssh client through a real pseudo-terminal.

Usage: client_tty.py SCENARIO OUTDIR -- SSH-ARGV...

The client runs in its own session with the pty as controlling terminal,
in a foreground process group of its own under a small parent, so job
control (~^Z) works as under a shell. Each scenario types into the pty,
waits for text, and writes what it saw to OUTDIR/SCENARIO.out (all the
terminal output) and OUTDIR/SCENARIO.res (key=value facts for the shell
script to check). Exit status 0 means the scenario ran to its end.
"""
import fcntl
import os
import re
import select
import signal
import struct
import sys
import termios
import time


class Term:
    def __init__(self, argv, rows=24, cols=80, env=None):
        self.master, self.slave = os.openpty()
        self.setsize(rows, cols)
        self.buf = b""
        pr, pw = os.pipe()
        self.top = os.fork()
        if self.top == 0:
            os.close(pr)
            os.close(self.master)
            os.setsid()
            fcntl.ioctl(self.slave, termios.TIOCSCTTY, 0)
            pid = os.fork()
            if pid == 0:
                os.setpgid(0, 0)
                for fd in (0, 1, 2):
                    os.dup2(self.slave, fd)
                if self.slave > 2:
                    os.close(self.slave)
                os.close(pw)
                try:
                    os.execve(argv[0], argv, env or os.environ)
                finally:
                    os._exit(127)
            # Both sides set the group, so whichever runs first wins;
            # once the child has exec'd the kernel refuses (EACCES) and
            # the child's own call has already done it.
            try:
                os.setpgid(pid, pid)
            except PermissionError:
                pass
            signal.signal(signal.SIGTTOU, signal.SIG_IGN)
            os.tcsetpgrp(self.slave, pid)
            os.write(pw, b"%d\n" % pid)
            while True:
                try:
                    _, st = os.waitpid(pid, 0)
                    break
                except InterruptedError:
                    continue
            # Report, then stay: as long as the session leader lives the
            # terminal sends no SIGHUP (a backgrounded ssh serves on).
            os.write(pw, b"%d\n" % os.waitstatus_to_exitcode(st))
            while True:
                signal.pause()
        os.close(pw)
        self.rpipe = pr
        self.pid = int(self.readline())
        self.status = None

    def readline(self):
        line = b""
        while not line.endswith(b"\n"):
            c = os.read(self.rpipe, 1)
            if not c:
                break
            line += c
        return line.decode().strip()

    def setsize(self, rows, cols):
        fcntl.ioctl(self.master, termios.TIOCSWINSZ,
                    struct.pack("HHHH", rows, cols, 0, 0))

    def attrs(self):
        return termios.tcgetattr(self.slave)

    def pump(self, timeout):
        r, _, _ = select.select([self.master], [], [], timeout)
        if r:
            try:
                d = os.read(self.master, 65536)
            except OSError:
                d = b""
            self.buf += d
            return len(d) > 0
        return False

    def expect(self, pattern, timeout=10):
        """Wait for a regex in the output after the last match."""
        rx = re.compile(pattern.encode() if isinstance(pattern, str)
                        else pattern)
        end = time.time() + timeout
        start = getattr(self, "mark", 0)
        while True:
            m = rx.search(self.buf, start)
            if m:
                self.mark = m.end()
                return m
            left = end - time.time()
            if left <= 0:
                return None
            if not self.pump(min(left, 0.2)) and self.done():
                self.pump(0.1)
                m = rx.search(self.buf, start)
                if m:
                    self.mark = m.end()
                return m

    def send(self, data, pause=0.15):
        os.write(self.master, data.encode() if isinstance(data, str)
                 else data)
        time.sleep(pause)

    def settle(self, t=0.5):
        end = time.time() + t
        while time.time() < end:
            self.pump(0.05)

    def done(self):
        if self.status is None:
            r, _, _ = select.select([self.rpipe], [], [], 0)
            if r:
                st = self.readline()
                self.status = int(st) if st else -1
        return self.status is not None

    def close(self):
        try:
            os.kill(self.top, signal.SIGKILL)
        except OSError:
            pass
        os.waitpid(self.top, 0)

    def wait(self, timeout=10):
        end = time.time() + timeout
        while not self.done():
            if time.time() > end:
                os.kill(self.pid, signal.SIGKILL)
                time.sleep(0.2)
                self.done()
                return -1
            self.pump(0.1)
        self.settle(0.2)
        return self.status

    def state(self):
        try:
            with open("/proc/%d/stat" % self.pid) as f:
                return f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            return "?"


def facts(res, **kw):
    for k, v in kw.items():
        res[k] = v


def sc_shell(t, res):
    before = t.attrs()
    facts(res, prompt=bool(t.expect(r"[$#] $", 15)))
    t.send("echo typed-$((40+2))\r")
    facts(res, typed=bool(t.expect(r"typed-42", 5)))
    t.send("stty size\r")
    facts(res, size1=bool(t.expect(r"[\r\n]30 100\r\n", 5)))
    t.setsize(40, 120)
    time.sleep(0.3)
    t.send("stty size\r")
    facts(res, size2=bool(t.expect(r"[\r\n]40 120\r\n", 5)))
    t.send("exit 3\r")
    facts(res, closed=bool(t.expect(r"Connection to 127\.0\.0\.1 closed\.",
                                    10)))
    facts(res, status=t.wait())
    facts(res, restored=(t.attrs() == before))


def sc_disconnect(t, res):
    before = t.attrs()
    t.expect(r"ready", 15)
    t.send("\r~.")
    facts(res, closed=bool(t.expect(r"Connection to 127\.0\.0\.1 closed\.",
                                    10)))
    facts(res, status=t.wait())
    facts(res, restored=(t.attrs() == before))


def sc_help(t, res):
    t.expect(r"ready", 15)
    t.send("\r~?", 0.5)
    m = t.expect(r"(?s)Supported escape sequences:.*?after newline\.\)\r\n",
                 5)
    if m:
        with open(res["_dir"] + "/help.txt", "wb") as f:
            f.write(m.group(0))
    facts(res, help=bool(m))
    t.send("\r~.")
    facts(res, status=t.wait())


def sc_tilde(t, res):
    """Remote cat echoes what arrives: ~~ sends one ~, a ~ inside a line
    passes through, an unknown ~x passes both bytes."""
    t.expect(r"ready", 15)
    t.send("\r~~one\r")
    facts(res, double=bool(t.expect(r"\n~one\r", 5)))
    t.send("two~three\r")
    facts(res, inner=bool(t.expect(r"\ntwo~three\r", 5)))
    t.send("~x\r")
    facts(res, unknown=bool(t.expect(r"\n~x\r", 5)))
    t.send("\r~.")
    facts(res, status=t.wait())


def sc_verbose(t, res):
    t.expect(r"ready", 15)
    t.send("\r~v")
    facts(res, up=bool(t.expect(r"\[LogLevel VERBOSE\]", 5)))
    t.send("\r~V")
    facts(res, down=bool(t.expect(r"\[LogLevel INFO\]", 5)))
    t.send("\r~R")
    facts(res, rekey=bool(t.expect(r"~R", 5)))
    t.settle(1)
    t.send("after-rekey\r")
    facts(res, after=bool(t.expect(r"\nafter-rekey\r", 5)))
    t.send("\r~#")
    facts(res, listing=bool(t.expect(
        r"The following connections are open:\r\n  #\d+ client-session", 5)))
    t.send("\r~.")
    facts(res, status=t.wait())


def sc_suspend(t, res):
    t.expect(r"ready", 15)
    t.send("\r~\x1a", 0.5)
    facts(res, said=bool(t.expect(r"\^Z \[suspend ssh\]", 5)))
    st = "?"
    for _ in range(20):
        st = t.state()
        if st == "T":
            break
        time.sleep(0.1)
    facts(res, stopped=(st == "T"))
    os.kill(t.pid, signal.SIGCONT)
    time.sleep(0.5)
    facts(res, running=(t.state() in ("S", "R")))
    t.send("back-again\r")
    facts(res, resumed=bool(t.expect(r"\nback-again\r", 5)))
    t.send("\r~.")
    facts(res, status=t.wait())


def pgrp_members(pgid):
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            out.append(int(d))
    return out


def sc_background(t, res):
    """~& : the parent exits 0, a child serves the session to its end."""
    t.expect(r"ready", 15)
    t.send("\r~&", 0.5)
    facts(res, said=bool(t.expect(r"~& \[backgrounded\]", 5)))
    facts(res, status=t.wait(5))
    facts(res, child=len(pgrp_members(t.pid)) > 0)
    for _ in range(100):
        if not pgrp_members(t.pid):
            break
        time.sleep(0.1)
    facts(res, child_gone=not pgrp_members(t.pid))


def sc_noescape(t, res):
    """EscapeChar none: ~. is data. The escape char given: ^. quits."""
    t.expect(r"ready", 15)
    t.send("\r~.\r")
    facts(res, passed=bool(t.expect(r"\n~\.\r", 5)))
    t.send("\x04")
    facts(res, status=t.wait())


def sc_caret(t, res):
    t.expect(r"ready", 15)
    t.send("\r~.\r")
    facts(res, tilde_data=bool(t.expect(r"\n~\.\r", 5)))
    t.send("\r^.")
    facts(res, closed=bool(t.expect(r"Connection to 127\.0\.0\.1 closed\.",
                                    10)))
    facts(res, status=t.wait())


def sc_passphrase(t, res):
    m = t.expect(r"Enter passphrase for key '[^']*': ", 15)
    facts(res, prompt=bool(m))
    t.send("wrong\r", 0.5)
    m = t.expect(r"Enter passphrase for key '[^']*': ", 10)
    facts(res, reprompt=bool(m))
    t.send(res["_secret"] + "\r", 0.5)
    facts(res, ran=bool(t.expect(r"passphrase-ok", 10)))
    facts(res, status=t.wait())


def sc_password(t, res):
    m = t.expect(r"[\w.-]+@127\.0\.0\.1's password: ", 15)
    facts(res, prompt=bool(m))
    t.send("wrong\r", 0.5)
    facts(res, reprompt=bool(t.expect(r"Permission denied, please try "
                                      r"again\.\r?\n.*password: ", 10)))
    t.send(res["_secret"] + "\r", 0.5)
    facts(res, ran=bool(t.expect(r"password-ok", 10)))
    facts(res, status=t.wait())


def sc_batch(t, res):
    facts(res, status=t.wait(15))
    facts(res, noprompt=b"Enter passphrase" not in t.buf and
          b"password:" not in t.buf)


def sc_run(t, res):
    """Just run to the end (used with a command)."""
    facts(res, status=t.wait(20))


SCENARIOS = {k[3:]: v for k, v in globals().items() if k.startswith("sc_")}


def main():
    name, outdir = sys.argv[1], sys.argv[2]
    argv = sys.argv[sys.argv.index("--") + 1:]
    res = {"_dir": outdir, "_secret": os.environ.get("TTY_SECRET", "")}
    rows, cols = (30, 100)
    t = Term(argv, rows, cols)
    try:
        SCENARIOS[name](t, res)
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
                if not k.startswith("_"):
                    f.write("%s=%s\n" % (k, v))


if __name__ == "__main__":
    main()
