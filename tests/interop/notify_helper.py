# notify_helper.py: a service manager's end of the notify protocol, for
# server_notify.sh. It binds a datagram socket at ADDR (a path, or an
# abstract name written with a leading '@'), asks the kernel for each
# sender's credentials as systemd does, and appends one line per
# datagram to OUT:
#
#   pid=PID now=USEC MSG
#
# PID is the sender's process id (SCM_CREDENTIALS), USEC this process's
# CLOCK_MONOTONIC in microseconds on receipt, MSG the datagram with its
# newlines shown as '|'. It writes OUT.bound once it listens, and runs
# until it is killed.
#
# usage: python3 notify_helper.py ADDR OUT
import os
import socket
import struct
import sys
import time

addr, out = sys.argv[1], sys.argv[2]
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
s.bind("\0" + addr[1:] if addr.startswith("@") else addr)
open(out + ".bound", "w").close()
creds_len = struct.calcsize("3i")
while True:
    data, anc, _, _ = s.recvmsg(4096, socket.CMSG_SPACE(creds_len))
    now = time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000
    pid = -1
    for level, kind, cdata in anc:
        if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
            pid = struct.unpack("3i", cdata[:creds_len])[0]
    msg = data.decode("utf-8", "replace").replace("\n", "|")
    with open(out, "a") as f:
        f.write("pid=%d now=%d %s\n" % (pid, now, msg))
