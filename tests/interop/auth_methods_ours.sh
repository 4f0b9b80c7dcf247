#!/bin/sh
# Authentication policy, our ssh against our sshd: AuthenticationMethods
# chains (publickey,password; publickey,keyboard-interactive:pam; two
# lists as alternatives; publickey,publickey with two different keys; the
# wrong order; a failure midway), password and keyboard-interactive
# through PAM (pam_unix, with a temporary user's password set by
# chpasswd) and a TOTP second factor with pam_oath and oathtool.
# Passwords reach ssh through SSH_ASKPASS with no terminal.
# Needs root: temporary users and PAM service files in /etc/pam.d.
. "$(dirname "$0")/lib.sh"
[ -x "$BIN/ssh" ] || skip "no $BIN/ssh"
need setsid
[ "$(id -u)" = 0 ] || skip "needs root (temporary user, /etc/pam.d files)"
need useradd
need chpasswd

U=moato$$
PW="Moat-pass-$$-x"
SVC=moat-unix-ours-$$
OSVC=moat-oath-ours-$$
useradd -m -s /bin/sh "$U" || skip "useradd failed"
echo "$U:$PW" | chpasswd
# shellcheck disable=SC2064
trap "userdel -r $U >/dev/null 2>&1; rm -f /etc/pam.d/$SVC /etc/pam.d/$OSVC; cleanup" EXIT

cat > "/etc/pam.d/$SVC" <<EOF
auth required pam_unix.so
account required pam_unix.so
session required pam_permit.so
password required pam_unix.so
EOF

make_keys
chmod 711 "$T"
cat "$T/id_ed25519.pub" "$T/id_ecdsa.pub" > "$T/authorized_keys"
chmod 644 "$T/authorized_keys"

# The askpass helper answers OATH prompts with the code of the moment,
# other prompts with $T/answer; it records every prompt it saw.
SECRET=3132333435363738393031323334353637383930
cat > "$T/askpass" <<EOF
#!/bin/sh
echo "\$1" >> "$T/prompts"
case "\$1" in
*OATH*|*one-time*|*One-time*) oathtool --totp "\$(cat $T/secret)";;
*) cat "$T/answer";;
esac
EOF
chmod 755 "$T/askpass"
echo "$SECRET" > "$T/secret"

# pssh KEYS... -- ssh args: log in with a password answer and no tty.
pssh() {
	ids=""
	while [ "$1" != "--" ]; do ids="$ids -i $T/id_$1"; shift; done
	shift
	# shellcheck disable=SC2086
	SSH_ASKPASS="$T/askpass" SSH_ASKPASS_REQUIRE=force DISPLAY=none \
	setsid -w "$BIN/ssh" -F /dev/null -o BatchMode=no -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile="$T/known_hosts" -o LogLevel=ERROR \
	    -o IdentitiesOnly=yes -o NumberOfPasswordPrompts=1 $ids \
	    -p "$PORT" "$@" "$U@127.0.0.1" 'id -un' </dev/null 2>>"$T/ssh.err"
}
# denied "LIST": the last refusal named these methods, as OpenSSH does.
denied() {
	tail -n 1 "$T/ssh.err" |
	    grep -qx "$U@127.0.0.1: Permission denied ($1)."
}
serve() { # serve CONFIG-LINES...: restart sshd with these lines
	[ -n "$SSHD_PID" ] && { kill "$SSHD_PID"; wait "$SSHD_PID" 2>/dev/null; }
	SSHD_PID=""
	printf '%s\n' "$@" > "$T/extra"
	write_config < "$T/extra"
	: > "$T/sshd.log"	# no stale "Server listening" line
	start_sshd
}
logged() { grep -q "$1" "$T/sshd.log"; }

echo "$PW" > "$T/answer"

for pam in no yes; do
	serve "UsePAM $pam" "PAMServiceName $SVC" \
	    "AuthenticationMethods publickey,password"
	check "UsePAM $pam: publickey,password: key then password" \
	    [ "$(pssh ed25519 --)" = "$U" ]
	check "UsePAM $pam: partial success logged" \
	    logged "Partial publickey for $U from 127.0.0.1"
	check "UsePAM $pam: password accepted logged" \
	    logged "Accepted password for $U from 127.0.0.1"
	echo wrong > "$T/answer"
	check "UsePAM $pam: failure midway (wrong password) refused" \
	    [ -z "$(pssh ed25519 --)" ]
	check "UsePAM $pam: after the key only password is left" \
	    denied password
	echo "$PW" > "$T/answer"
	check "UsePAM $pam: password alone is not enough" \
	    [ -z "$(pssh --)" ]
	check "UsePAM $pam: key alone is not enough" \
	    [ -z "$(pssh ed25519 -- -o PreferredAuthentications=publickey)" ]
done
check "PAM refusal logged" logged "PAM: Authentication failure for $U"

# Wrong order: password first is not what the list says.
serve "AuthenticationMethods password,publickey"
check "password,publickey: in order works" [ "$(pssh ed25519 --)" = "$U" ]
check "password,publickey: key first is refused" \
    [ -z "$(pssh ed25519 -- -o PreferredAuthentications=publickey)" ]
check "only password is offered first" \
    sh -c "tail -n 1 '$T/ssh.err' | grep -q 'Permission denied (password)'"

# publickey,publickey: two different keys.
serve "AuthenticationMethods publickey,publickey"
check "publickey,publickey: two keys let in" \
    [ "$(pssh ed25519 ecdsa --)" = "$U" ]
check "publickey,publickey: one key is not enough" \
    [ -z "$(pssh ed25519 -- -o PreferredAuthentications=publickey)" ]
check "publickey,publickey: the same key twice is not two keys" \
    [ -z "$(pssh ed25519 ed25519 -- -o PreferredAuthentications=publickey)" ]
check "publickey,publickey: failure midway (second key unknown)" \
    [ -z "$(pssh ed25519 rsa -- -o PreferredAuthentications=publickey)" ]
check "publickey,publickey: an unknown key first, then two good ones" \
    [ "$(pssh rsa ed25519 ecdsa -- \
    -o PreferredAuthentications=publickey)" = "$U" ]
: > "$T/ssh.err"
pssh ed25519 ecdsa -- -v -o PreferredAuthentications=publickey >/dev/null
check "partial success reported at -v" grep -q \
    'Authenticated using "publickey" with partial success' "$T/ssh.err"

# Two lists as alternatives.
serve "AuthenticationMethods publickey,publickey password"
check "alternatives: password alone (second list)" [ "$(pssh --)" = "$U" ]
check "alternatives: two keys (first list)" \
    [ "$(pssh ed25519 ecdsa -- -o PreferredAuthentications=publickey)" = "$U" ]
check "alternatives: one key then password (second list)" \
    [ "$(pssh ed25519 --)" = "$U" ]
echo wrong > "$T/answer"
check "alternatives: wrong password and one key refused" \
    [ -z "$(pssh ed25519 --)" ]
check "alternatives: after one key both lists remain" \
    denied "publickey,password"
echo "$PW" > "$T/answer"

# Alternatives that share their first step: after the key the client
# goes on with whichever second step it prefers (kbd-int before password).
serve "UsePAM yes" "PAMServiceName $SVC" "KbdInteractiveAuthentication yes" \
    "AuthenticationMethods publickey,password publickey,keyboard-interactive:pam"
: > "$T/prompts"
check "publickey then password or kbd-int: logs in" \
    [ "$(pssh ed25519 --)" = "$U" ]
check "the second step was keyboard-interactive" \
    logged "Accepted keyboard-interactive/pam for $U from 127.0.0.1"
check "password still works there" [ "$(pssh ed25519 -- \
    -o PreferredAuthentications=publickey,password)" = "$U" ]
check "and was the method used" \
    logged "Accepted password for $U from 127.0.0.1"

# keyboard-interactive through pam_unix.
serve "UsePAM yes" "PAMServiceName $SVC" "KbdInteractiveAuthentication yes" \
    "AuthenticationMethods publickey,keyboard-interactive:pam"
: > "$T/prompts"
check "publickey,keyboard-interactive:pam (pam_unix)" \
    [ "$(pssh ed25519 --)" = "$U" ]
check "kbd-int prompt came from PAM" grep -q "Password" "$T/prompts"
check "kbd-int accept logged" \
    logged "Accepted keyboard-interactive/pam for $U from 127.0.0.1"
echo wrong > "$T/answer"
check "kbd-int wrong password refused" [ -z "$(pssh ed25519 --)" ]
echo "$PW" > "$T/answer"

# Without PAM keyboard-interactive has no device.
serve "UsePAM no" "KbdInteractiveAuthentication yes" \
    "PasswordAuthentication no" "PubkeyAuthentication no"
check "kbd-int without PAM: nothing to answer" [ -z "$(pssh --)" ]

# TOTP second factor with pam_oath.
if [ -e /lib/x86_64-linux-gnu/security/pam_oath.so ] ||
    [ -e /usr/lib/x86_64-linux-gnu/security/pam_oath.so ] ||
    find /lib /usr/lib -name pam_oath.so 2>/dev/null | grep -q .; then
	if command -v oathtool >/dev/null 2>&1; then
		echo "HOTP/T30 $U - $SECRET" > "$T/users.oath"
		chmod 600 "$T/users.oath"
		cat > "/etc/pam.d/$OSVC" <<EOF
auth required pam_oath.so usersfile=$T/users.oath window=4
account required pam_permit.so
session required pam_permit.so
EOF
		serve "UsePAM yes" "PAMServiceName $OSVC" \
		    "KbdInteractiveAuthentication yes" \
		    "AuthenticationMethods publickey,keyboard-interactive:pam"
		: > "$T/prompts"
		check "pam_oath: key then TOTP code" \
		    [ "$(pssh ed25519 --)" = "$U" ]
		check "pam_oath: the OATH prompt was shown" \
		    grep -q "OATH" "$T/prompts"
		echo 0000000000000000000000000000000000000001 > "$T/secret"
		check "pam_oath: a wrong code is refused" \
		    [ -z "$(pssh ed25519 --)" ]
		echo "$SECRET" > "$T/secret"
		check "pam_oath: TOTP without the key is refused" \
		    [ -z "$(pssh --)" ]
	else
		echo "note: oathtool missing; pam_oath part skipped" >&2
	fi
else
	echo "note: pam_oath.so missing; pam_oath part skipped" >&2
fi
finish
