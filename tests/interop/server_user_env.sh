#!/bin/sh
# PermitUserEnvironment as in OpenSSH 9.2: "no" ignores ~/.ssh/environment
# and the key's environment= options; "yes" applies both; a pattern list
# applies only the names it matches. The file is read as the user (a
# link to a file only root may read gives nothing), a line without '='
# is reported to the client, SetEnv still wins over the file and the
# file over what the client sent. sshd -T prints the setting as
# Debian's sshd does. Debian's ssh is the client; a temporary user.
. "$(dirname "$0")/lib.sh"
need ssh
[ "$(id -u)" = 0 ] || skip "needs root to create a temporary user"
U=moate$$
make_user "$U"
H=$(getent passwd "$U" | cut -d: -f6)
make_keys
mkdir -p "$H/.ssh"
printf 'environment="FROMKEY=k",environment="LC_KEY=lk" %s\n' \
    "$(cat "$T/id_ed25519.pub")" > "$H/.ssh/authorized_keys"
printf '# set by the user\n  FROMFILE=f\nLC_FILE=lf\nnoequals\nMOAT_SENT=file\nMOAT_ADMIN=file\n' \
    > "$H/.ssh/environment"
chown -R "$U:" "$H/.ssh"
chmod 700 "$H/.ssh"
chmod 600 "$H/.ssh/authorized_keys" "$H/.ssh/environment"
chmod 711 "$T"

# envs VALUE: restart with PermitUserEnvironment VALUE (not in a command
# substitution: sshd would hold its output open), log in, and leave the
# variables of interest (sorted, on one line) in $out and the client's
# stderr in $T/client.err.
envs() {
	AKF=.ssh/authorized_keys STRICT_MODES=yes restart_sshd \
	    "PermitUserEnvironment $1" "AcceptEnv MOAT_SENT" \
	    "SetEnv MOAT_ADMIN=admin"
	out=$(MOAT_SENT=client ossh -o SendEnv=MOAT_SENT "$U@127.0.0.1" \
	    'env | grep "^FROMFILE=\|^FROMKEY=\|^LC_FILE=\|^LC_KEY=\|^MOAT_\|^SECRET=" | sort' \
	    2>"$T/client.err" | tr '\n' ' ')
	echo "PermitUserEnvironment $1: $out"
}

envs no
check "no: neither the file nor the key options" \
    [ "$out" = "MOAT_ADMIN=admin MOAT_SENT=client " ]
check "no: the file is not even read" [ ! -s "$T/client.err" ]

envs yes
check "yes: the file and the key options, SetEnv over the file over the client" \
    [ "$out" = "FROMFILE=f FROMKEY=k LC_FILE=lf LC_KEY=lk MOAT_ADMIN=admin MOAT_SENT=file " ]
check "yes: the line without '=' reported to the client" \
    grep -qx "Bad line 4 in $H/.ssh/environment" "$T/client.err"

envs 'LC_*,FROMKEY,MOAT_SENT'
check "pattern list: only matching names, from the file and the key" \
    [ "$out" = "FROMKEY=k LC_FILE=lf LC_KEY=lk MOAT_ADMIN=admin MOAT_SENT=file " ]

# sshd -T prints the pattern list as Debian's sshd does.
ours=$("$BIN/sshd" -T -f "$T/sshd_config" | grep '^permituserenvironment ')
theirs=$(/usr/sbin/sshd -T -f "$T/sshd_config" 2>/dev/null | grep '^permituserenvironment ')
echo "sshd -T: ours [$ours], Debian's [$theirs]"
check "sshd -T prints the pattern list" [ "$ours" = "permituserenvironment LC_*,FROMKEY,MOAT_SENT" ]
if [ -x /usr/sbin/sshd ] && [ -n "$theirs" ]; then
	check "sshd -T as Debian's sshd" [ "$ours" = "$theirs" ]
fi

# Read as the user: a link to a file only root may read sets nothing.
printf 'SECRET=leaked\n' > "$T/root_only"
chmod 600 "$T/root_only"
ln -sf "$T/root_only" "$H/.ssh/environment"
chown -h "$U:" "$H/.ssh/environment"
envs yes
check "the file is read as the user, not as root" \
    [ "$out" = "FROMKEY=k LC_KEY=lk MOAT_ADMIN=admin MOAT_SENT=client " ]
finish
