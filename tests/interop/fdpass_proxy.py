"""ProxyUseFdpass test dialer: connect to HOST PORT and pass the socket
back to ssh over stdout (SCM_RIGHTS), then exit. With "none" as HOST,
exit without passing anything."""
import socket
import sys

if sys.argv[1] == "none":
    sys.exit(0)
conn = socket.create_connection((sys.argv[1], int(sys.argv[2])))
back = socket.socket(fileno=1)
socket.send_fds(back, [b"\0"], [conn.fileno()])
back.detach()
