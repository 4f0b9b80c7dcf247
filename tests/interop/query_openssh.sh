#!/bin/sh
# ssh -Q: every query OpenSSH 10.5's client answers, answered by ours
# with the same names in the same order for the algorithms we share, and
# nothing OpenSSH would not list; keyword forms in any case, as there.
. "$(dirname "$0")/lib.sh"
need_peer_openssh
for q in cipher cipher-auth compression kex key key-cert key-plain key-sig \
    mac protocol-version sig help Ciphers MACs KexAlgorithms \
    HostKeyAlgorithms PubkeyAcceptedAlgorithms PubkeyAcceptedKeyTypes \
    HostbasedAcceptedAlgorithms CASignatureAlgorithms hostkeyalgorithms; do
	"$BIN/ssh" -Q "$q" > "$T/ours" 2>"$T/err"
	rc=$?
	check "ssh -Q $q answers" [ $rc -eq 0 ] && [ -s "$T/ours" ]
	"$O105/bin/ssh" -Q "$q" > "$T/theirs"
	# Theirs, less what we do not implement, must be ours exactly.
	grep -Fx -f "$T/ours" "$T/theirs" > "$T/shared"
	if cmp -s "$T/shared" "$T/ours"; then
		pass "ssh -Q $q: OpenSSH 10.5's order ($(wc -l < "$T/ours") names)"
	else
		fail "ssh -Q $q differs from OpenSSH 10.5's"
		diff "$T/shared" "$T/ours" >&2
	fi
done
# What OpenSSH does not answer, neither do we, in the same words.
for q in bogus cipher-AUTH Compression; do
	"$BIN/ssh" -Q "$q" > /dev/null 2>"$T/ours"
	rc=$?
	# (OpenSSH ends the line with CR LF; ours with LF.)
	"$O105/bin/ssh" -Q "$q" 2>&1 >/dev/null | tr -d '\r' > "$T/theirs"
	check "ssh -Q $q refused (255)" [ $rc -eq 255 ]
	check "... in OpenSSH's words" cmp -s "$T/ours" "$T/theirs"
done
finish
