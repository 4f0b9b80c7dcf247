"""Clients that trickle bytes at sshd to outlast LoginGraceTime.

Each kind keeps the connection busy without ever finishing a step that
would lead to a login: one banner byte a second ("banner"), a complete
banner then one byte of a KEXINIT packet a second ("kexinit"), or a
finished key exchange (paramiko) then an SSH_MSG_IGNORE a second
("ignore"). The server must close each one once LoginGraceTime has passed
since it accepted, whatever arrives meanwhile.

  grace_helper.py cut PORT GRACE KIND...
      one connection of each KIND at once; each must be closed by the
      server within GRACE+3 s. Prints "KIND port LOCALPORT closed after
      N.N s" (or "still open") per connection.
  grace_helper.py open PORT SECS KIND
      one connection of KIND that must still be open after SECS seconds
      (LoginGraceTime 0, sshd -d).
  grace_helper.py inetd GRACE KIND -- SSHD-ARGV...
      runs SSHD-ARGV (sshd -i) on one end of a socketpair and trickles
      KIND at the other; it must be closed within GRACE+3 s.
  grace_helper.py flood PORT GRACE N
      N banner tricklers at once. Connections refused by MaxStartups are
      counted; every one the server took must be closed within GRACE+3 s
      of its connect; the rest are held for up to GRACE+13 s. Prints
      the counts.

Exit status 0 when every connection behaved as asked, 1 otherwise.
"""
import os
import select
import socket
import struct
import subprocess
import sys
import threading
import time

BANNER = b"SSH-2.0-trickle_" + b"x" * 60 + b"\r\n"
# The start of a plausible KEXINIT packet: length, padding, type, cookie.
KEXINIT = struct.pack(">IBB", 1020, 6, 20) + bytes(range(16)) + b"\x00" * 200
# How late a cut may come. GRACE_SLACK raises it for a flood on a
# sanitizer build, where starting forty connection processes at once
# (each executed anew, each starting its pre-auth child) takes seconds
# of CPU before their deadlines even begin.
SLACK = float(os.environ.get("GRACE_SLACK", "3"))


def wait_closed(s, secs):
    """Read until EOF/reset or secs pass; True if the server closed."""
    end = time.monotonic() + secs
    while True:
        left = end - time.monotonic()
        if left <= 0:
            return False
        r, _, _ = select.select([s], [], [], left)
        if not r:
            return False
        try:
            if not s.recv(65536):
                return True
        except (ConnectionResetError, BrokenPipeError):
            return True


def trickle_raw(s, kind, limit, t0):
    """Trickle on s until t0 + limit; seconds from t0 until closed, or None."""
    if kind == "kexinit":
        s.sendall(BANNER)
        data = KEXINIT
    else:
        data = BANNER
    for i in range(len(data)):
        try:
            s.sendall(data[i:i + 1])
        except (BrokenPipeError, ConnectionResetError):
            return time.monotonic() - t0
        left = limit - (time.monotonic() - t0)
        if left <= 0:
            return None
        if wait_closed(s, min(1.0, left)):
            return time.monotonic() - t0
    # Out of bytes to trickle: wait out the limit.
    left = limit - (time.monotonic() - t0)
    if left > 0 and wait_closed(s, left):
        return time.monotonic() - t0
    return None


def trickle_ignore(s, limit, t0):
    """Key exchange with paramiko, then IGNORE each second; -1 if the
    key exchange itself failed."""
    import paramiko

    tr = paramiko.Transport(s)
    try:
        try:
            tr.start_client(timeout=limit)
        except (paramiko.SSHException, EOFError, OSError):
            return -1.0
        while time.monotonic() - t0 < limit:
            if not tr.is_active():
                return time.monotonic() - t0
            tr.send_ignore(16)
            deadline = time.monotonic() + 1.0
            while tr.is_active() and time.monotonic() < deadline:
                time.sleep(0.05)
        return None
    except (paramiko.SSHException, EOFError, OSError):
        return time.monotonic() - t0
    finally:
        tr.close()


def trickle(s, kind, limit, t0):
    if kind == "ignore":
        return trickle_ignore(s, limit, t0)
    return trickle_raw(s, kind, limit, t0)


def connect(port):
    """A connection and the time it was made."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    return s, time.monotonic()


_said = threading.Lock()


def report(kind, lport, took):
    """One whole line per connection. The tricklers' threads report at
    about the same moment, and print() writes text and newline apart:
    unlocked, two reports could splice into one line."""
    if took is not None and took < 0:
        line = "%s port %d: key exchange failed" % (kind, lport)
    elif took is None:
        line = "%s port %d still open" % (kind, lport)
    else:
        line = "%s port %d closed after %.1f s" % (kind, lport, took)
    with _said:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def cmd_cut(port, grace, kinds):
    results = {}

    def one(kind):
        s, t0 = connect(port)
        lport = s.getsockname()[1]
        took = trickle(s, kind, grace + SLACK + 1, t0)
        s.close()
        report(kind, lport, took)
        results[kind] = took is not None and 0 <= took <= grace + SLACK

    threads = [threading.Thread(target=one, args=(k,)) for k in kinds]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return all(results.get(k) for k in kinds)


def cmd_open(port, secs, kind):
    s, t0 = connect(port)
    lport = s.getsockname()[1]
    took = trickle(s, kind, secs, t0)
    s.close()
    report(kind, lport, took)
    return took is None


def cmd_inetd(grace, kind, argv):
    a, b = socket.socketpair()
    p = subprocess.Popen(argv, stdin=b, stdout=b)
    b.close()
    took = trickle(a, kind, grace + SLACK + 1, time.monotonic())
    a.close()
    try:
        p.wait(timeout=5)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    report(kind + " (inetd)", 0, took)
    return took is not None and 0 <= took <= grace + SLACK


def cmd_flood(port, grace, n):
    """N banner tricklers, all driven from one select loop."""
    conns = []  # [socket, connect time, next byte, closed after, read]
    for _ in range(n):
        s, t0 = connect(port)
        s.setblocking(False)
        conns.append([s, t0, 0, None, b""])
    # Long enough for the logins the test makes meanwhile to meet the
    # tricklers when the server fails to cut them.
    limit = grace + SLACK + 10
    start = time.monotonic()
    next_tick = start
    while time.monotonic() - start < limit:
        live = [c for c in conns if c[3] is None]
        if not live:
            break
        now = time.monotonic()
        if now >= next_tick:
            for c in live:
                try:
                    c[0].send(BANNER[c[2]:c[2] + 1])
                    c[2] = min(c[2] + 1, len(BANNER) - 1)
                except OSError:
                    pass
            next_tick = now + 1.0
        r, _, _ = select.select([c[0] for c in live], [], [],
                                max(0, min(next_tick, start + limit) -
                                    time.monotonic()))
        for c in live:
            if c[0] not in r:
                continue
            try:
                data = c[0].recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if data:
                c[4] += data
            else:
                c[3] = time.monotonic() - c[1]
    held = [c for c in conns if c[4].startswith(b"SSH-")]
    dropped = len(conns) - len(held)
    late = [c for c in held if c[3] is None or c[3] > grace + SLACK]
    worst = max([c[3] for c in held if c[3] is not None] or [0])
    print("flood: %d connections, %d dropped by MaxStartups, %d held; "
          "%d held not closed within %.0f s (latest close %.1f s)" %
          (len(conns), dropped, len(held), len(late), grace + SLACK, worst),
          flush=True)
    for c in conns:
        c[0].close()
    return len(held) > 0 and not late


def main():
    mode = sys.argv[1]
    if mode == "cut":
        ok = cmd_cut(int(sys.argv[2]), float(sys.argv[3]), sys.argv[4:])
    elif mode == "open":
        ok = cmd_open(int(sys.argv[2]), float(sys.argv[3]), sys.argv[4])
    elif mode == "inetd":
        sep = sys.argv.index("--")
        ok = cmd_inetd(float(sys.argv[2]), sys.argv[3], sys.argv[sep + 1:])
    elif mode == "flood":
        ok = cmd_flood(int(sys.argv[2]), float(sys.argv[3]),
                       int(sys.argv[4]))
    else:
        sys.exit("unknown mode " + mode)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
