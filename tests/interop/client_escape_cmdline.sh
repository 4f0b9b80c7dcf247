#!/bin/sh
# The ~C command line (EnableEscapeCommandline) of our ssh, driven through
# a pseudo-terminal (client_escape_cmdline.py): -L, -R and -D added at
# the "ssh> " prompt, used, canceled with -KL/-KR/-KD and seen gone; the
# help, the error messages; off by default ("commandline disabled", ~?
# does not offer ~C). As a check of the test itself, OpenSSH's ssh runs
# the same scenario when present.
. "$(dirname "$0")/lib.sh"
[ -x /usr/bin/python3 ] || skip "needs /usr/bin/python3 for the pty driver"
DRV="$SRC/tests/interop/client_escape_cmdline.py"
make_keys
write_config </dev/null
start_sshd
D=$T/tty
mkdir "$D"
CAT='echo ready; exec cat'
fact() { grep -qx "$2=$3" "$D/$1.res" 2>/dev/null; }
# run SCENARIO SSH ARGS...
run() {
	sc=$1; ssh=$2; shift 2
	rm -f "$D/$sc.res"
	"$PY" "$DRV" "$sc" "$D" "$(free_port)" "$(free_port)" "$(free_port)" -- \
	    "$ssh" -F /dev/null -o UserKnownHostsFile="$T/kh" \
	    -o StrictHostKeyChecking=accept-new -o IdentitiesOnly=yes \
	    -o LogLevel=INFO -i "$T/id_ed25519" -p "$PORT" -tt "$@" \
	    "$ME@127.0.0.1" "$CAT" 2>"$D/$sc.drv" || cat "$D/$sc.drv" >&2
}
enabled_checks() {
	who=$1
	check "$who: session ready" fact enabled ready True
	check "$who: ~? offers ~C when enabled" fact enabled help_offers_C True
	check "$who: ~C -L: Forwarding port." fact enabled L_added True
	check "$who: the -L added by ~C carries data" fact enabled L_works True
	check "$who: ~C -KL: Canceled forwarding." fact enabled KL True
	check "$who: the canceled -L no longer listens" fact enabled L_gone True
	check "$who: -KL again: Unknown port forwarding." fact enabled KL_again True
	check "$who: ~C -R: Forwarding port." fact enabled R_added True
	check "$who: the -R added by ~C carries data" fact enabled R_works True
	check "$who: ~C -KR: Canceled forwarding." fact enabled KR True
	check "$who: the canceled -R no longer listens" fact enabled R_gone True
	check "$who: ~C -D: Forwarding port." fact enabled D_added True
	check "$who: the -D added by ~C serves SOCKS5" fact enabled D_works True
	check "$who: ~C -KD: Canceled forwarding." fact enabled KD True
	check "$who: the canceled -D no longer listens" fact enabled D_gone True
	check "$who: ~C -h lists the commands" fact enabled help True
	check "$who: ~C ? lists the commands" fact enabled qhelp True
	check "$who: ~C -X: Invalid command." fact enabled invalid True
	check "$who: ~C -L bad: Bad local forwarding specification." fact enabled bad_L True
	check "$who: ~C -KL bad: Bad forwarding close specification." fact enabled bad_K True
	check "$who: the session goes on after the command lines" fact enabled session_ok True
	check "$who: ~. ends with 255" fact enabled status 255
}
disabled_checks() {
	who=$1
	check "$who: off by default: commandline disabled" fact disabled disabled True
	check "$who: off: no ssh> prompt" fact disabled no_prompt True
	check "$who: off: ~? does not offer ~C" fact disabled help_offers_C False
	check "$who: off: ~. ends with 255" fact disabled status 255
}

run enabled "$BIN/ssh" -o EnableEscapeCommandline=yes
enabled_checks "our ssh"
run disabled "$BIN/ssh"
disabled_checks "our ssh"
"$BIN/ssh" -G -F /dev/null -o EnableEscapeCommandline=yes x 2>/dev/null |
    grep -qx "enableescapecommandline yes"
check "ssh -G shows enableescapecommandline yes" [ $? -eq 0 ]
"$BIN/ssh" -G -F /dev/null x 2>/dev/null | grep -qx "enableescapecommandline no"
check "ssh -G: enableescapecommandline no by default" [ $? -eq 0 ]

if [ -x /usr/bin/ssh ] && /usr/bin/ssh -G -o EnableEscapeCommandline=yes x >/dev/null 2>&1; then
	run enabled /usr/bin/ssh -o EnableEscapeCommandline=yes
	enabled_checks "OpenSSH's ssh (the test itself)"
	run disabled /usr/bin/ssh
	disabled_checks "OpenSSH's ssh (the test itself)"
fi
finish
