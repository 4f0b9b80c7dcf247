#!/usr/bin/python3
# syslog_sink.py SOCKET OUT: a tiny syslog daemon for one test. Binds a
# unix datagram socket at SOCKET (what /dev/log points to in the test's
# mount namespace) and appends each message to OUT as
# "FACILITY|SEVERITY|Mon DD HH:MM:SS host ident[pid]: text": the
# numeric syslog facility and severity, then the line as rsyslog would
# write it.
import os
import socket
import sys

path, out = sys.argv[1], sys.argv[2]
try:
    os.unlink(path)
except FileNotFoundError:
    pass
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(path)
os.chmod(path, 0o666)
host = socket.gethostname()
with open(out, "a", buffering=1) as f:
    print("ready", flush=True)
    while True:
        d = s.recv(65536).decode("utf-8", "replace").rstrip("\n\0")
        pri = 8 + 6	# user.info, syslog(3)'s default
        if d.startswith("<") and ">" in d[:5]:
            pri = int(d[1:d.index(">")])
            d = d[d.index(">") + 1:]
        # glibc: "Mmm dd hh:mm:ss ident[pid]: msg"
        f.write("%d|%d|%s %s %s\n" % (pri >> 3, pri & 7, d[:15], host,
                                       d[16:]))
