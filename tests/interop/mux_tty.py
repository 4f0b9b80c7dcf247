#!/usr/bin/python3
"""mux_tty.py: run an ssh mux client on a pseudo-terminal, wait for the
remote command to print "ready", run STOP_CMD (a shell command: it stops
the server), type "~." at a line start, and report how long the client
took to exit.

Usage: mux_tty.py OUTFILE -- SSH-ARGV...
Writes "status=N secs=S" (status -1: still running after 20 s) and the
terminal output after it to OUTFILE.
"""
import os
import select
import subprocess
import sys
import time


def main():
    out = sys.argv[1]
    argv = sys.argv[3:]
    pid, fd = os.forkpty()
    if pid == 0:
        os.execvp(argv[0], argv)
    buf = b""
    end = time.time() + 20
    while b"ready" not in buf and time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            try:
                buf += os.read(fd, 4096)
            except OSError:
                break
    status, secs = -1, -1.0
    if b"ready" in buf:
        subprocess.call(os.environ.get("STOP_CMD", "true"), shell=True)
        time.sleep(0.3)
        t0 = time.time()
        os.write(fd, b"\r~.")
        while time.time() - t0 < 20:
            p, st = os.waitpid(pid, os.WNOHANG)
            if p == pid:
                status = os.waitstatus_to_exitcode(st)
                secs = time.time() - t0
                # What it wrote just before exiting may still be in the
                # terminal: read it to the end.
                while True:
                    r, _, _ = select.select([fd], [], [], 0.5)
                    if not r:
                        break
                    try:
                        data = os.read(fd, 4096)
                    except OSError:
                        break
                    if not data:
                        break
                    buf += data
                break
            r, _, _ = select.select([fd], [], [], 0.05)
            if r:
                try:
                    buf += os.read(fd, 4096)
                except OSError:
                    pass
    if status == -1:
        try:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        except OSError:
            pass
    with open(out, "w") as f:
        f.write("status=%d secs=%.2f\n" % (status, secs))
        f.write(buf.decode("utf-8", "replace"))


main()
