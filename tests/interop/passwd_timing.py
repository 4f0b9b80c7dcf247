#!/usr/bin/python3
"""passwd_timing.py: how long a wrong password takes, for a user that
exists and for one that does not (server_passwd_timing.sh and
bench/passwd_timing.sh).

  passwd_timing.py hash PREFIX COUNT PASSWORD
      print a crypt hash of PASSWORD made with libcrypt's own
      crypt_gensalt(PREFIX, COUNT) setting ("$y$", "$6$", "$2b$", ...)
  passwd_timing.py time PORT N PASSWORD USER OTHER...
      on connections to 127.0.0.1:PORT (paramiko), one per user and a
      fresh one every 5 attempts, try N wrong passwords for each user,
      taking turns (and turning who goes first), after an untimed one
      per connection; print the median milliseconds of one attempt
      (request to answer) for USER and each OTHER, then their 10th
      percentiles in the same order. Unless PASSWORD is "-", USER then
      logs in with it, to show that USER's attempts were checked
      against a real hash.
"""
import ctypes
import ctypes.util
import statistics
import sys
import time

import paramiko

BATCH = 5


def make_hash(prefix, count, password):
    lib = ctypes.CDLL(ctypes.util.find_library("crypt") or "libcrypt.so.1")
    lib.crypt_gensalt.restype = ctypes.c_char_p
    lib.crypt_gensalt.argtypes = [ctypes.c_char_p, ctypes.c_ulong,
                                  ctypes.c_char_p, ctypes.c_int]
    lib.crypt.restype = ctypes.c_char_p
    lib.crypt.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    setting = lib.crypt_gensalt(prefix.encode(), count, None, 0)
    if not setting or setting.startswith(b"*"):
        sys.exit("crypt_gensalt refused %r %d" % (prefix, count))
    h = lib.crypt(password.encode(), setting)
    if not h or h.startswith(b"*"):
        sys.exit("crypt refused %r" % setting)
    return h.decode()


def connect(port):
    t = paramiko.Transport(("127.0.0.1", port))
    t.start_client(timeout=30)
    return t


def attempt(t, user, password):
    """Seconds from the request to the server's refusal."""
    start = time.perf_counter()
    try:
        t.auth_password(user, password, fallback=False)
    except paramiko.BadAuthenticationType:
        sys.exit("the server does not offer password authentication")
    except paramiko.AuthenticationException:
        return time.perf_counter() - start
    sys.exit("a wrong password for %s was accepted" % user)


def time_users(port, users, n, password):
    """Per user, the times (s) of n wrong passwords, in batches of BATCH
    attempts each on a fresh connection per user: a server process that
    the scheduler keeps on a busier CPU than another's does not skew
    the whole run. Users take turns; who goes first turns too."""
    times = {u: [] for u in users}
    done = 0
    while done < n:
        ends = []
        try:
            for u in users:
                ends.append((u, connect(port)))
            for name, t in ends:  # first use: untimed
                attempt(t, name, "wrong-password")
            for i in range(min(BATCH, n - done)):
                k = (done + i) % len(ends)
                for name, t in ends[k:] + ends[:k]:
                    dt = attempt(t, name, "wrong-%d-password" % i)
                    times[name].append(dt)
            done += min(BATCH, n - done)
            if done >= n and password != "-":
                try:
                    ends[0][1].auth_password(users[0], password,
                                             fallback=False)
                except paramiko.AuthenticationException:
                    sys.exit("%s could not log in with the password" %
                             users[0])
        finally:
            for _, t in ends:
                t.close()
    return times


def low(xs):
    """The 10th percentile: on a busy machine, where waits for a CPU
    spread the times out, the steadier measure of the work itself."""
    xs = sorted(xs)
    return xs[(len(xs) - 1) // 10]


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "hash":
        print(make_hash(sys.argv[2], int(sys.argv[3]), sys.argv[4]))
    elif len(sys.argv) >= 7 and sys.argv[1] == "time":
        users = sys.argv[5:]
        times = time_users(int(sys.argv[2]), users, int(sys.argv[3]),
                           sys.argv[4])
        print(" ".join("%.1f" % (statistics.median(times[u]) * 1000)
                       for u in users),
              " ".join("%.1f" % (low(times[u]) * 1000) for u in users))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
