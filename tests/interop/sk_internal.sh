#!/bin/sh
# The built-in security key provider ("internal", libfido2 in
# ssh-sk-helper) with no authenticator attached: ssh-keygen -t
# ed25519-sk / ecdsa-sk and -K print what Debian's ssh-keygen (built
# with libfido2) prints and exit as it does; ssh -G names the provider
# as Debian's ssh -G does. Real devices are not exercised here.
. "$(dirname "$0")/lib.sh"
need /usr/bin/ssh-keygen
for d in /dev/hidraw*; do
	[ -e "$d" ] && skip "a HID device is attached ($d)"
done
unset SSH_SK_PROVIDER

run() { # run NAME PROG ARGS...: output in $T/NAME.out/.err, status .rc
	_n=$1; shift
	(cd "$T" && "$@" </dev/null >"$T/$_n.out" 2>"$T/$_n.err.raw")
	echo $? >"$T/$_n.rc"
	tr -d '\r' <"$T/$_n.err.raw" >"$T/$_n.err"
}
same() { # same WHAT: our run and Debian's printed and ended alike
	check "$1: the same output as Debian's" cmp -s "$T/o.out" "$T/d.out"
	check "$1: the same messages as Debian's" cmp -s "$T/o.err" "$T/d.err"
	check "$1: the same exit status as Debian's ($(cat "$T/d.rc"))" \
	    [ "$(cat "$T/o.rc")" = "$(cat "$T/d.rc")" ]
}
for t in ed25519-sk ecdsa-sk; do
	run o "$BIN/ssh-keygen" -t $t -N '' -f "$T/k_$t"
	run d /usr/bin/ssh-keygen -t $t -N '' -f "$T/kd_$t"
	same "-t $t"
	check "... saying the device is missing" \
	    grep -q "Key enrollment failed: device not found" "$T/o.err"
	check "... and writing no key" [ ! -e "$T/k_$t" ]
done
run o "$BIN/ssh-keygen" -t ecdsa-sk -O resident -N '' -f "$T/r"
run d /usr/bin/ssh-keygen -t ecdsa-sk -O resident -N '' -f "$T/rd"
same "-t ecdsa-sk -O resident"
run o "$BIN/ssh-keygen" -K
run d /usr/bin/ssh-keygen -K
same "-K"
check "... saying the device is missing" \
    grep -q "Unable to load resident keys: device not found" "$T/o.err"
"$BIN/ssh" -G -F /dev/null host 2>/dev/null | grep '^securitykeyprovider ' >"$T/o.g"
/usr/bin/ssh -G -F /dev/null host 2>/dev/null | grep '^securitykeyprovider ' >"$T/d.g"
check "ssh -G: $(cat "$T/o.g")" cmp -s "$T/o.g" "$T/d.g"
finish
