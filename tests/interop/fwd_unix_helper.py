#!/usr/bin/python3
# fwd_unix_helper.py: Unix-domain socket endpoints for the streamlocal
# forwarding tests.
#
#   serve PATH MODE       listen on the socket PATH (chmod to octal MODE)
#                         and echo every connection back until EOF.
#   stale PATH            leave a socket file at PATH nobody listens on.
#   echo PATH BYTES       send BYTES random bytes over PATH (then
#                         half-close) while reading the echo; exit 0 when
#                         the SHA-256 of what came back equals what was sent.
#   wait PATH [SECS]      wait until a connect to PATH succeeds.
import os, socket, sys, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fwd_helper import echo_conn, echo_over


def serve(path, mode):
    try:
        os.unlink(path)
    except OSError:
        pass
    ls = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    ls.bind(path + ".tmp")
    os.chmod(path + ".tmp", int(mode, 8))
    ls.listen(64)
    os.rename(path + ".tmp", path)
    while True:
        c, _ = ls.accept()
        threading.Thread(target=echo_conn, args=(c,), daemon=True).start()


def echo_client(path, nbytes):
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(60)
        s.connect(path)
        return echo_over(s, nbytes, path)
    except OSError as e:
        sys.stderr.write("%s: %s\n" % (path, e))
    return False


def main():
    a = sys.argv[1:]
    if a[0] == "serve":
        serve(a[1], a[2])
    elif a[0] == "stale":
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(a[1])
        s.close()
    elif a[0] == "echo":
        sys.exit(0 if echo_client(a[1], int(a[2])) else 1)
    elif a[0] == "wait":
        end = time.time() + (float(a[2]) if len(a) > 2 else 10)
        while time.time() < end:
            try:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(a[1])
                s.close()
                sys.exit(0)
            except OSError:
                time.sleep(0.05)
        sys.exit(1)


main()
