#!/bin/sh
# Our ssh as the client in every forwarding case of forward_server.sh
# (against our sshd): -L, -R, -R 0, refusals, 100 at once, stalled peers.
BIN=${MOAT_BIN:-$(cd "$(dirname "$0")/../../build/bin" && pwd)}
[ -x "$BIN/ssh" ] || { echo "SKIP: no ssh built" >&2; exit 77; }
FWD_SSH="$BIN/ssh" exec sh "$(dirname "$0")/forward_server.sh"
