#!/usr/bin/python3
# putty_socks.py: a SOCKS5 client for the plink -D case.
#
#   putty_socks.py SOCKSPORT TARGETPORT BYTES
#
# Connects to the SOCKS5 proxy on 127.0.0.1:SOCKSPORT, asks it (no
# authentication, CONNECT by IPv4 address) for 127.0.0.1:TARGETPORT, an
# echo server, then sends BYTES random bytes and reads the echo with
# fwd_helper.py's echo_over. Exits 0 when the echo came back intact.
import os, socket, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fwd_helper  # noqa: E402


def recv_exact(s, n):
    d = b""
    while len(d) < n:
        c = s.recv(n - len(d))
        if not c:
            raise OSError("proxy closed during the handshake")
        d += c
    return d


def main():
    sport, tport, nbytes = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    s = socket.create_connection(("127.0.0.1", sport), timeout=120)
    s.sendall(b"\x05\x01\x00")
    if recv_exact(s, 2) != b"\x05\x00":
        sys.stderr.write("socks: no-auth method refused\n")
        return 1
    s.sendall(b"\x05\x01\x00\x01" + socket.inet_aton("127.0.0.1") +
              tport.to_bytes(2, "big"))
    r = recv_exact(s, 4)
    if r[1] != 0:
        sys.stderr.write("socks: CONNECT refused (%d)\n" % r[1])
        return 1
    # The bound address: IPv4 (4), domain (length byte), IPv6 (16).
    if r[3] == 1:
        recv_exact(s, 4 + 2)
    elif r[3] == 4:
        recv_exact(s, 16 + 2)
    else:
        recv_exact(s, recv_exact(s, 1)[0] + 2)
    return 0 if fwd_helper.echo_over(s, nbytes, "socks") else 1


if __name__ == "__main__":
    sys.exit(main())
