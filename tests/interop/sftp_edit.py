#!/usr/bin/python3
"""sftp_edit.py: type at an sftp client's prompt through a pseudo-terminal.

Usage: sftp_edit.py OUTFILE REMOTEDIR -- SFTP-ARGV...

The client runs with the pty as its controlling terminal and standard
streams, in the current directory (the local side). The keys below go
in one line at a time; after each Enter the driver waits for the next
"sftp> " prompt. All terminal output lands in OUTFILE; the exit status
of the client in OUTFILE.status. What the keys did (files fetched or
sent, lines printed) is for the calling script to check.
"""
import fcntl
import os
import select
import struct
import sys
import termios
import time

TAB = "\t"
UP = "\x1b[A"
CTRL_A = "\x01"
CTRL_E = "\x05"
CTRL_D = "\x04"

# Each: keys to type; True when they end a command (wait for a prompt).
def steps(remote):
    return [
        ("cd " + remote + "\r", True),
        ("ver" + TAB, False),          # a command's name completed
        ("\r", True),
        ("get Rem" + TAB, False),      # a remote name with a space
        ("\r", True),
        ('get "Quo' + TAB, False),     # inside a quote
        ("\r", True),
        ("get su" + TAB, False),       # a directory: "sub/", open
        ("dee" + TAB, False),          # then the file in it
        ("\r", True),
        ("get abc" + TAB, False),      # two matches: listed, "abc" added
        ("2\r", True),
        ("get bra" + TAB, False),      # glob characters escaped
        ("\r", True),
        ("put loc" + TAB, False),      # put's first word is local
        ("\r", True),
        ("lcd ldi" + TAB, False),      # lcd: a local directory
        ("\r", True),
        ("lpwd\r", True),
        ("pwd\r", True),
        (UP, False),                   # history: pwd again
        ("\r", True),
        ("wd" + CTRL_A + "p" + CTRL_E + "\r", True),   # pwd a third time
        ("lls -d ../loc" + TAB, False),  # lls: local, from a subdirectory
        ("\r", True),
        (CTRL_D, None),
    ]


def main():
    out, remote = sys.argv[1], sys.argv[2]
    argv = sys.argv[sys.argv.index("--") + 1:]
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = dict(os.environ, TERM="xterm", HOME=os.getcwd())
    pid = os.fork()
    if pid == 0:
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
        for fd in (0, 1, 2):
            os.dup2(slave, fd)
        os.close(master)
        os.close(slave)
        try:
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    os.close(slave)
    buf = b""

    def read_until(pred, timeout):
        nonlocal buf
        end = time.time() + timeout
        while time.time() < end:
            if pred():
                return True
            r, _, _ = select.select([master], [], [], 0.1)
            if r:
                try:
                    data = os.read(master, 65536)
                except OSError:
                    return pred()
                if not data:
                    return pred()
                buf += data
        return pred()

    def settle():
        # Output has stopped for a while (a completion has been drawn).
        nonlocal buf
        while True:
            r, _, _ = select.select([master], [], [], 0.4)
            if not r:
                return
            try:
                data = os.read(master, 65536)
            except OSError:
                return
            if not data:
                return
            buf += data

    ok = read_until(lambda: buf.count(b"sftp> ") >= 1, 15)
    for keys, command in steps(remote):
        if not ok:
            break
        n = buf.count(b"sftp> ")
        os.write(master, keys.encode())
        if command:
            ok = read_until(lambda: buf.count(b"sftp> ") > n, 15)
        # Keys typed before the editor has the terminal in raw mode
        # again (a ^D above all) can be lost: wait until it is quiet.
        settle()
    read_until(lambda: False, 1)
    status = None
    for _ in range(50):
        wpid, st = os.waitpid(pid, os.WNOHANG)
        if wpid == pid:
            status = os.waitstatus_to_exitcode(st)
            break
        time.sleep(0.1)
    if status is None:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        status = "hung"
    with open(out, "wb") as f:
        f.write(buf)
    with open(out + ".status", "w") as f:
        f.write("%s\n" % status)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
