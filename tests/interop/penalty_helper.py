#!/usr/bin/env python3
"""penalty_helper.py: raw TCP clients bound to chosen 127.x source
addresses, for server_penalties.sh.

  probe SRC PORT          one connection; prints what the server did:
                          "served" (its SSH banner), "refused" (OpenSSH's
                          "Not allowed at this time"), "dropped" (closed
                          at once) or "other: ..."
  hold SRC PORT N SECS    N connections from SRC held open for SECS;
                          prints "served K" (how many got a banner)
  grace SRC PORT LIMIT    one connection that never authenticates; exits
                          0 once the server closes it within LIMIT s
  flood SRC PORT SECS     connections from SRC that leave at once, one
                          after another for SECS; prints a tally
"""
import socket
import sys
import time

REFUSAL = b"Not allowed at this time\r\n"


def connect(src, port, timeout=5):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind((src, 0))
    s.settimeout(timeout)
    s.connect(("127.0.0.1", port))
    return s


def first_bytes(s):
    try:
        data = s.recv(64)
    except ConnectionResetError:
        return b""
    except socket.timeout:
        return None
    return data


def classify(data):
    if data is None:
        return "silent"
    if data.startswith(b"SSH-"):
        return "served"
    if data == REFUSAL:
        return "refused"
    if data == b"":
        return "dropped"
    return "other: %r" % data


def main():
    mode, src, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if mode == "probe":
        s = connect(src, port)
        print(classify(first_bytes(s)))
        s.close()
    elif mode == "hold":
        n, secs = int(sys.argv[4]), float(sys.argv[5])
        held = []
        for _ in range(n):
            held.append(connect(src, port))
            time.sleep(0.05)
        served = sum(classify(first_bytes(s)) == "served" for s in held)
        print("served %d" % served, flush=True)
        time.sleep(secs)
        for s in held:
            s.close()
    elif mode == "grace":
        limit = float(sys.argv[4])
        s = connect(src, port, timeout=limit)
        start = time.monotonic()
        if classify(first_bytes(s)) != "served":
            sys.exit("not served")
        try:
            while s.recv(4096):
                pass
        except socket.timeout:
            sys.exit("not cut within %s s" % limit)
        print("cut after %.1f s" % (time.monotonic() - start))
    elif mode == "flood":
        secs = float(sys.argv[4])
        tally = {}
        end = time.monotonic() + secs
        while time.monotonic() < end:
            s = connect(src, port)
            kind = classify(first_bytes(s)).split(":")[0]
            tally[kind] = tally.get(kind, 0) + 1
            s.close()
            time.sleep(0.002)
        print(" ".join("%s %d" % kv for kv in sorted(tally.items())))
    else:
        sys.exit("unknown mode " + mode)


if __name__ == "__main__":
    main()
