#!/usr/bin/python3
# fwd_helper.py: endpoints for the forwarding tests.
#
#   serve MODE PORTFILE   listen on 127.0.0.1 (free port, written to
#                         PORTFILE); MODE echo: echo every connection
#                         back until EOF; close: read a little, then
#                         close; noread: accept and never read.
#   echo HOST PORT BYTES  send BYTES random bytes (then half-close) while
#                         reading the echo; exit 0 when the SHA-256 of
#                         what came back equals what was sent.
#   parallel HOST PORT N BYTES   N echo clients at once; all must pass.
#   wait HOST PORT [SECS] wait until a TCP connect succeeds.
import hashlib, os, socket, sys, threading, time


def echo_conn(c):
    """Echo a connection back until EOF, then half-close and close it."""
    try:
        while True:
            d = c.recv(65536)
            if not d:
                break
            c.sendall(d)
        c.shutdown(socket.SHUT_WR)
    except OSError:
        pass
    c.close()


def echo_over(s, nbytes, label):
    """Send nbytes over the connected socket s (then half-close) while
    reading the echo; True when the echo is the same bytes. Closes s."""
    sent = hashlib.sha256()
    got = hashlib.sha256()
    count = [0]

    def reader():
        while True:
            d = s.recv(262144)
            if not d:
                break
            got.update(d)
            count[0] += len(d)

    t = threading.Thread(target=reader)
    t.start()
    left = nbytes
    block = os.urandom(1 << 20)
    i = 0
    while left > 0:
        n = min(left, len(block))
        # Vary the data so a misplaced block shows.
        chunk = bytes([i & 0xff]) + block[1:n]
        s.sendall(chunk)
        sent.update(chunk)
        left -= n
        i += 1
    s.shutdown(socket.SHUT_WR)
    t.join()
    s.close()
    ok = count[0] == nbytes and sent.digest() == got.digest()
    if not ok:
        sys.stderr.write("%s: sent %d got %d bytes%s\n" % (
            label, nbytes, count[0],
            "" if count[0] != nbytes else ", digest differs"))
    return ok


def serve(mode, portfile):
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", 0))
    ls.listen(256)
    with open(portfile + ".tmp", "w") as f:
        f.write("%d\n" % ls.getsockname()[1])
    os.rename(portfile + ".tmp", portfile)
    keep = []
    while True:
        c, _ = ls.accept()
        if mode == "echo":
            threading.Thread(target=echo_conn, args=(c,),
                             daemon=True).start()
        elif mode == "close":
            try:
                c.recv(10)
            except OSError:
                pass
            c.close()
        else:
            keep.append(c)


def echo_client(host, port, nbytes, results=None, idx=0):
    ok = False
    try:
        s = socket.create_connection((host, port), timeout=120)
        ok = echo_over(s, nbytes, "client %d" % idx)
    except OSError as e:
        sys.stderr.write("client %d: %s\n" % (idx, e))
    if results is not None:
        results[idx] = ok
    return ok


def main():
    a = sys.argv[1:]
    if a[0] == "serve":
        serve(a[1], a[2])
    elif a[0] == "echo":
        sys.exit(0 if echo_client(a[1], int(a[2]), int(a[3])) else 1)
    elif a[0] == "parallel":
        n = int(a[3])
        res = [False] * n
        ts = [threading.Thread(target=echo_client,
              args=(a[1], int(a[2]), int(a[4]), res, i)) for i in range(n)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        bad = res.count(False)
        if bad:
            sys.stderr.write("%d of %d failed\n" % (bad, n))
        sys.exit(1 if bad else 0)
    elif a[0] == "wait":
        end = time.time() + (float(a[3]) if len(a) > 3 else 10)
        while time.time() < end:
            try:
                socket.create_connection((a[1], int(a[2])), timeout=1).close()
                sys.exit(0)
            except OSError:
                time.sleep(0.1)
        sys.exit(1)


if __name__ == "__main__":
    main()
