"""Servers that never get as far as a host key, for keyscan.sh.

  keyscan_listen.py PORT KIND ADDR...

listens on each ADDR at PORT, prints "ready" once all are bound, and
serves every connection as KIND says:

  silent   accept and never say anything
  banner   send an SSH version line, then nothing more
  closer   read what the client sends for a moment, then hang up (all
           read, so the close is a clean FIN and not a reset)

Runs until killed.
"""
import select
import socket
import sys
import threading
import time


def hang_up(c):
    c.settimeout(0.3)
    end = time.monotonic() + 0.3
    try:
        while time.monotonic() < end and c.recv(4096):
            pass
    except OSError:
        pass
    c.close()


def main():
    port, kind, addrs = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    listeners = []
    for a in addrs:
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((a, port))
        s.listen(128)
        listeners.append(s)
    print("ready", flush=True)
    held = []
    while True:
        ready, _, _ = select.select(listeners, [], [])
        for s in ready:
            c, _ = s.accept()
            if kind == "banner":
                c.sendall(b"SSH-2.0-Tarpit_1.0\r\n")
            if kind == "closer":
                threading.Thread(target=hang_up, args=(c,)).start()
            else:
                held.append(c)


main()
