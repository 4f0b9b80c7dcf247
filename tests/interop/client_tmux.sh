#!/bin/sh
# Our ssh in a pty session under tmux, as a person would use it: type a
# command and read the screen, then the escapes ~? (help), ~v (log level)
# and ~. (disconnect). tmux runs on a private socket of the test's own.
. "$(dirname "$0")/lib.sh"
need tmux
make_keys
write_config </dev/null
start_sshd
SOCK="$T/tmux.sock"
tm() { tmux -S "$SOCK" "$@"; }
stop_tmux() { tm kill-server 2>/dev/null; cleanup; }
trap stop_tmux EXIT
cat > "$T/ssh_config" <<CFG
Host target
	HostName 127.0.0.1
	Port $PORT
	User $ME
	IdentityFile $T/id_ed25519
	IdentitiesOnly yes
	UserKnownHostsFile $T/kh
	StrictHostKeyChecking accept-new
CFG
# The pane stays after ssh exits so its last words can be read.
tm -f /dev/null new-session -d -s moat -x 100 -y 30 \
    "$BIN/ssh -F $T/ssh_config -tt target; echo ssh-exit=\$?; sleep 30"
screen() { tm capture-pane -p -t moat; }
wait_screen() { # wait_screen PATTERN: up to 10 s
	i=0
	while ! screen | grep -q -- "$1"; do
		i=$((i + 1)); [ $i -gt 100 ] && return 1; sleep 0.1
	done
}
wait_screen '[$#] *$'	# a shell prompt
tm send-keys -t moat 'echo tmux-ok-$((6*7))' Enter
check "typed command ran; output on the screen" wait_screen '^tmux-ok-42'
tm send-keys -t moat Enter '~?'
check "~? shows the escape help" wait_screen 'Supported escape sequences'
check "~? lists ~." wait_screen '~\.  *- terminate connection'
tm send-keys -t moat Enter '~v'
check "~v raises the log level" wait_screen 'LogLevel VERBOSE'
tm send-keys -t moat Enter '~.'
check "~. disconnects: Connection closed" wait_screen 'Connection to 127.0.0.1 closed'
check "~. ends ssh with status 255" wait_screen 'ssh-exit=255'
finish
