#!/usr/bin/python3
"""chaff_relay.py: what an observer of the wire sees while someone types.

Usage: chaff_relay.py OUTFILE SERVER_PORT -- SSH-ARGV...

A TCP relay on a free port of 127.0.0.1 passes one connection on to
SERVER_PORT and notes the time and size of every segment it reads from
either side. "@PORT@" in SSH-ARGV is replaced by the relay's port. The
client runs on a pseudo-terminal; once its remote command has printed
"ready" three keys are typed at uneven times (0, 0.35 and 0.95 s), then
nothing for 3.8 s, then "~." ends the session.

OUTFILE gets KEY=VALUE lines about the client-to-server segments:
  keys      keys typed (3)
  during    segments from the first key to 3.6 s after the last
  tail      of those, the ones more than 0.25 s after the last key
  tail_secs how long after the last key the last one came
  gap_ms    the median gap between consecutive ones (0 with fewer than 2)
  gap_ok    the share of gaps (percent) within 40% of that median
  size      the most common size; size_ok: the share (percent) of that size
  answers   server-to-client segments in the tail window
"""
import os
import select
import socket
import sys
import threading
import time

LOG = []
LOCK = threading.Lock()


def note(side, n):
    with LOCK:
        LOG.append((time.monotonic(), side, n))


def relay(lsock, port, done):
    lsock.settimeout(30)
    try:
        c, _ = lsock.accept()
    except OSError:
        done.set()
        return
    s = socket.create_connection(("127.0.0.1", port))
    for x in (c, s):
        x.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    peer = {c: (s, "c"), s: (c, "s")}
    live = [c, s]
    while live:
        r, _, _ = select.select(live, [], [], 0.5)
        for x in r:
            try:
                data = x.recv(65536)
            except OSError:
                data = b""
            other, side = peer[x]
            if not data:
                live = []
                break
            note(side, len(data))
            other.sendall(data)
    for x in (c, s):
        x.close()
    done.set()


def read_until(fd, want, secs, buf):
    end = time.time() + secs
    while want not in buf and time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            try:
                data = os.read(fd, 4096)
            except OSError:
                break
            if not data:
                break
            buf += data
    return buf


def drain(fd, secs):
    end = time.time() + secs
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                if not os.read(fd, 4096):
                    return
            except OSError:
                return


def median(v):
    v = sorted(v)
    return v[len(v) // 2] if v else 0


def main():
    out, port = sys.argv[1], int(sys.argv[2])
    argv = sys.argv[4:]
    lsock = socket.socket()
    lsock.bind(("127.0.0.1", 0))
    lsock.listen(1)
    rport = str(lsock.getsockname()[1])
    argv = [a.replace("@PORT@", rport) for a in argv]
    done = threading.Event()
    th = threading.Thread(target=relay, args=(lsock, port, done), daemon=True)
    th.start()
    pid, fd = os.forkpty()
    if pid == 0:
        os.execvp(argv[0], argv)
    buf = read_until(fd, b"ready", 20, b"")
    facts = {}
    keys = []
    if b"ready" in buf:
        drain(fd, 0.5)
        for delay, key in ((0, b"a"), (0.35, b"b"), (0.6, b"c")):
            drain(fd, delay)
            keys.append(time.monotonic())
            os.write(fd, key)
        drain(fd, 3.8)
        os.write(fd, b"\r~.")
    end = time.time() + 10
    while time.time() < end:
        p, _ = os.waitpid(pid, os.WNOHANG)
        if p == pid:
            break
        drain(fd, 0.1)
    else:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    done.wait(5)
    facts["keys"] = len(keys)
    if keys:
        lo, hi = keys[0] - 0.001, keys[-1] + 3.6
        with LOCK:
            cs = [(t, n) for t, side, n in LOG if side == "c" and lo <= t <= hi]
            ss = [t for t, side, _ in LOG
                  if side == "s" and keys[-1] + 0.25 < t <= hi]
        times = [t for t, _ in cs]
        gaps = [(b - a) * 1000 for a, b in zip(times, times[1:])]
        med = median(gaps)
        sizes = [n for _, n in cs]
        mode = max(set(sizes), key=sizes.count) if sizes else 0
        facts["during"] = len(cs)
        facts["tail"] = len([t for t in times if t > keys[-1] + 0.25])
        facts["tail_secs"] = "%.2f" % (max(times) - keys[-1] if times else 0)
        facts["gap_ms"] = int(med)
        facts["gap_ok"] = (100 * len([g for g in gaps
                                      if abs(g - med) <= 0.4 * med]) //
                           len(gaps)) if gaps else 0
        facts["size"] = mode
        facts["size_ok"] = (100 * sizes.count(mode) // len(sizes)) \
            if sizes else 0
        facts["answers"] = len(ss)
    with open(out, "w") as f:
        for k, v in facts.items():
            f.write("%s=%s\n" % (k, v))


main()
