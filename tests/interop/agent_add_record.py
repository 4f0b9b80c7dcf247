"""agent_add_record.py: a stand-in ssh-agent that writes down what it is
sent, to compare the requests of two ssh-add programs byte for byte.

    agent_add_record.py SOCKET LOG

Listens on the Unix socket SOCKET; each request frame is appended to LOG
as one line of hex. Every request is answered SUCCESS, but for a list of
identities, answered with an empty list. Runs until killed.
"""
import os
import socket
import struct
import sys


def read_n(conn, n):
    buf = b""
    while len(buf) < n:
        chunk = conn.recv(n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return buf


def serve(conn, log):
    while True:
        head = read_n(conn, 4)
        if head is None:
            return
        (length,) = struct.unpack(">I", head)
        if length > 256 * 1024:
            return
        body = read_n(conn, length)
        if body is None:
            return
        with open(log, "a") as f:
            f.write(body.hex() + "\n")
        if body[:1] == b"\x0b":     # REQUEST_IDENTITIES: none
            answer = b"\x0c" + struct.pack(">I", 0)
        else:
            answer = b"\x06"        # SUCCESS
        conn.sendall(struct.pack(">I", len(answer)) + answer)


def main():
    path, log = sys.argv[1], sys.argv[2]
    if os.path.exists(path):
        os.unlink(path)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(path)
    s.listen(4)
    while True:
        conn, _ = s.accept()
        try:
            serve(conn, log)
        finally:
            conn.close()


if __name__ == "__main__":
    main()
