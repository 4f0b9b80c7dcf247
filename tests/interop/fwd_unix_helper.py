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
import hashlib, os, socket, sys, threading, time


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

    def echo(c):
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

    while True:
        c, _ = ls.accept()
        threading.Thread(target=echo, args=(c,), daemon=True).start()


def echo_client(path, nbytes):
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(60)
        s.connect(path)
        sent, got, count = hashlib.sha256(), hashlib.sha256(), [0]

        def reader():
            while True:
                d = s.recv(262144)
                if not d:
                    break
                got.update(d)
                count[0] += len(d)

        t = threading.Thread(target=reader)
        t.start()
        left, i = nbytes, 0
        block = os.urandom(1 << 20)
        while left > 0:
            n = min(left, len(block))
            chunk = bytes([i & 0xff]) + block[1:n]
            s.sendall(chunk)
            sent.update(chunk)
            left -= n
            i += 1
        s.shutdown(socket.SHUT_WR)
        t.join()
        s.close()
        if count[0] == nbytes and sent.digest() == got.digest():
            return True
        sys.stderr.write("sent %d got %d bytes\n" % (nbytes, count[0]))
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
