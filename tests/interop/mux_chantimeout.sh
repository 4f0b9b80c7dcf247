#!/bin/sh
# ChannelTimeout (ssh_config) on a master applies to its mux clients'
# session channels too, named by what they run as the master's own
# ("session:command", "session:shell"), as OpenSSH's master does: our
# master (-N) into our sshd, our ssh and Debian's as its mux clients.
# Where the OpenSSH 10.5 peer is built, its master and mux client run
# the same cases and give the same status.
. "$(dirname "$0")/lib.sh"
need ssh
make_keys
write_config </dev/null
start_sshd
S=$T/cm

# start_master PROGRAM TIMEOUTS: a -N master with ChannelTimeout TIMEOUTS.
start_master() { start_mux_master "$1" "$PORT" -o "ChannelTimeout=$2"; }

stop_master() {
	"$1" -F /dev/null -o ControlPath="$S" -O exit 127.0.0.1 2>/dev/null
	# Reaped by wait (kill -0 would see the zombie); 10 s at most.
	(sleep 10; kill "$MP" 2>/dev/null) >/dev/null 2>&1 &
	wd=$!
	wait "$MP"
	kill "$wd" 2>/dev/null
}

# run CLIENT TAG ARGS...: a mux client's output, status and seconds in
# $T/TAG.out, $T/TAG.st, $T/TAG.secs.
run() {
	prog=$1; rtag=$2; shift 2
	start=$(date +%s)
	"$prog" -F /dev/null -o ControlPath="$S" -o ControlMaster=no "$@" \
	    >"$T/$rtag.out" 2>"$T/$rtag.err" </dev/null
	echo $? >"$T/$rtag.st"
	echo $(($(date +%s) - start)) >"$T/$rtag.secs"
}
st() { cat "$T/$1.st"; }
secs() { cat "$T/$1.secs"; }

# cases MASTER CLIENT PREFIX: the two cases, results under PREFIX.
cases() {
	start_master "$1" "session:command=2"
	run "$2" "$3.cmd" 127.0.0.1 'sleep 12; echo done'
	stop_master "$1"
	start_master "$1" "session=1 global=0"
	run "$2" "$3.bare" 127.0.0.1 'sleep 2; echo done'
	stop_master "$1"
}

for pair in "ours:$BIN/ssh:$BIN/ssh" "deb:$BIN/ssh:ssh"; do
	tag=${pair%%:*}
	rest=${pair#*:}
	cases "${rest%%:*}" "${rest#*:}" "$tag"
	check "$tag: session:command=2 ends an idle command's channel" \
	    [ "$(st "$tag.cmd")" = 255 ] && [ "$(secs "$tag.cmd")" -lt 10 ] &&
	    ! grep -q done "$T/$tag.cmd.out"
	check "$tag: session=1 is not session:command" \
	    [ "$(st "$tag.bare")" = 0 ] && grep -q done "$T/$tag.bare.out"
done

if sh "$SRC/scripts/peer_openssh.sh" -q >/dev/null 2>&1; then
	need_peer_openssh
	cases "$O105/bin/ssh" "$O105/bin/ssh" ref
	for c in cmd bare; do
		check "$c: the status OpenSSH 10.5's master gives ($(st "ref.$c"))" \
		    [ "$(st "ref.$c")" = "$(st "ours.$c")" ]
	done
else
	echo "note: no OpenSSH 10.5 peer; its comparison not run" >&2
fi
finish
