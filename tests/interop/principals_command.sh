#!/bin/sh
# AuthorizedPrincipalsCommand against Debian's OpenSSH ssh: a user
# certificate made by Debian's ssh-keygen -s logs in through
# TrustedUserCAKeys when the command (reading an SQLite database) prints
# one of its principals, and not when it prints another, hangs (killed
# after AuthorizedKeysCommandTimeout), or exits non-zero; the %-tokens
# reach the command; AuthorizedPrincipalsFile still serves when the
# command fails; a cert-authority line printed by AuthorizedKeysCommand
# lets the certificate in. Needs root: a temporary user, and commands in
# a root-owned directory.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/auth_command.inc"

command_setup moatp$$ apc
UID_U=$(id -u "$U")
HOME_U=$(getent passwd "$U" | cut -d: -f6)

: > "$T/empty_ak"
chmod 644 "$T/empty_ak"
ssh-keygen -q -t ed25519 -N '' -f "$T/ca" -C ca >/dev/null
cp "$T/id_ed25519.pub" "$T/user.pub"
ssh-keygen -q -s "$T/ca" -I "id-apc" -n "ops-$U,dev" -z 77 "$T/user.pub" \
    >/dev/null 2>&1
CERT="$T/user-cert.pub"
[ -f "$CERT" ] || { fail "ssh-keygen -s made no certificate"; finish; }

# The principals each user may log in as, in a database.
sqlite3 "$D/principals.db" "CREATE TABLE p (user TEXT, principal TEXT);
INSERT INTO p VALUES ('$U', 'ops-$U');
INSERT INTO p VALUES ('someoneelse', 'dev');"
chmod 644 "$D/principals.db"
# Where the commands (run as nobody) write their argv.
mkdir "$D/out"
chown nobody "$D/out"

cat > "$D/lookup" <<EOF
#!/bin/sh
# lookup USER [tokens...]: USER's principals from the database.
printf '%s\n' "\$@" > $D/out/argv
case "\$1" in *[!a-z0-9_-]*|"") exit 1;; esac
exec /usr/bin/sqlite3 -readonly $D/principals.db \
    "SELECT principal FROM p WHERE user = '\$1';"
EOF
printf '#!/bin/sh\necho dev-ops\necho admin\n' > "$D/wrong"
printf '#!/bin/sh\necho "ops-%s"\nexec sleep %s\n' "$U" "$SLEEP" > "$D/hang"
printf '#!/bin/sh\necho "ops-%s"\nexit 4\n' "$U" > "$D/fail"
cat > "$D/akc" <<EOF
#!/bin/sh
# akc USER TYPE KEY: a CA for certificates naming ops-USER.
printf '%s\n' "\$@" > $D/out/akc-argv
echo 'cert-authority,principals="ops-'"\$1"'" $(cat "$T/ca.pub")'
EOF
chmod 755 "$D/lookup" "$D/wrong" "$D/hang" "$D/fail" "$D/akc"

# run_with "config lines": our sshd with an empty AuthorizedKeysFile.
run_with() {
	AKF="$T/empty_ak" restart_sshd "$1"
}
login() { # login [ssh args]: prints the user on success
	ossh -o CertificateFile="$CERT" "$@" "$U@127.0.0.1" 'id -un' \
	    2>>"$T/ssh.err"
}
logged() { grep -q "$1" "$T/sshd.log"; }

APC="TrustedUserCAKeys $T/ca.pub
AuthorizedPrincipalsCommandUser nobody
AuthorizedKeysCommandTimeout 2"

run_with "$APC
AuthorizedPrincipalsCommand $D/lookup %u %U %h %t %T %f %F %i %s %k %K %% x%%y"
check "principal from the database lets the certificate in" \
    [ "$(login)" = "$U" ]
check "accept log line names the certificate" logged \
    "Accepted publickey for $U from 127.0.0.1 port [0-9]* ssh2: ED25519-CERT SHA256:[^ ]* ID id-apc (serial 77) CA ED25519"
check "plain key is not let in" [ -z "$(ossh -o CertificateFile=/dev/null \
    "$U@127.0.0.1" 'id -un' 2>/dev/null)" ]
{
	echo "$U"; echo "$UID_U"; echo "$HOME_U"
	echo ssh-ed25519-cert-v01@openssh.com; echo ssh-ed25519
	ssh-keygen -lf "$T/id_ed25519.pub" | cut -d' ' -f2
	ssh-keygen -lf "$T/ca.pub" | cut -d' ' -f2
	echo id-apc; echo 77
	cut -d' ' -f2 "$CERT"; cut -d' ' -f2 "$T/ca.pub"
	echo %; echo x%y
} > "$T/argv.want"
check "tokens reach the command" cmp -s "$T/argv.want" "$D/out/argv"
cmp "$T/argv.want" "$D/out/argv" >&2 || diff "$T/argv.want" "$D/out/argv" >&2
stop_sshd

run_with "$APC
AuthorizedPrincipalsCommand $D/lookup"
check "no arguments: the user name is passed" [ "$(login)" = "$U" ]
check "no arguments: argv is the user name" [ "$(cat "$D/out/argv")" = "$U" ]
stop_sshd

run_with "$APC
AuthorizedPrincipalsCommand $D/wrong %u"
check "another principal: refused" [ -z "$(login)" ]
check "another principal: logged" \
    logged "Certificate does not contain an authorized principal"
stop_sshd

run_with "$APC
AuthorizedPrincipalsCommand $D/hang"
start=$(date +%s)
out=$(login)
end=$(date +%s)
check "hanging command: refused" [ -z "$out" ]
check "hanging command: killed within the timeout" [ $((end - start)) -lt 15 ]
check "hanging command: timeout logged" logged \
    "AuthorizedPrincipalsCommand $D/hang timed out after 2 seconds; killed"
sleep 0.5
check "hanging command: no process left behind" \
    [ -z "$(pgrep -x -f "sleep $SLEEP")" ]
stop_sshd

run_with "$APC
AuthorizedPrincipalsCommand $D/fail"
check "non-zero exit: refused" [ -z "$(login)" ]
check "non-zero exit: logged" \
    logged "AuthorizedPrincipalsCommand $D/fail failed, status 4"
stop_sshd

# The file still serves when the command fails.
echo "ops-$U" > "$T/principals"
chmod 644 "$T/principals"
run_with "$APC
AuthorizedPrincipalsFile $T/principals
AuthorizedPrincipalsCommand $D/fail"
check "AuthorizedPrincipalsFile with a failing command" [ "$(login)" = "$U" ]
stop_sshd
: > "$T/principals"
run_with "$APC
AuthorizedPrincipalsFile $T/principals
AuthorizedPrincipalsCommand $D/lookup %u"
check "command in addition to an empty principals file" [ "$(login)" = "$U" ]
stop_sshd

# A command in /tmp is refused (world-writable directory).
cp "$D/lookup" "$T/undertmp"
chmod 755 "$T/undertmp"
run_with "$APC
AuthorizedPrincipalsCommand $T/undertmp %u"
check "command under /tmp: refused" [ -z "$(login)" ]
check "command under /tmp: logged" logged "Unsafe AuthorizedPrincipalsCommand"
stop_sshd

# No AuthorizedPrincipalsCommandUser: not run.
run_with "TrustedUserCAKeys $T/ca.pub
AuthorizedPrincipalsCommand $D/lookup %u"
check "no command user: refused" [ -z "$(login)" ]
check "no command user: logged" \
    logged "No user for AuthorizedPrincipalsCommand specified"
stop_sshd

# Inside Match; shown by sshd -T.
run_with "TrustedUserCAKeys $T/ca.pub
Match User $U
  AuthorizedPrincipalsCommand $D/lookup %u
  AuthorizedPrincipalsCommandUser nobody"
check "AuthorizedPrincipalsCommand inside Match" [ "$(login)" = "$U" ]
stop_sshd
printf '%s\n' "$APC" "AuthorizedPrincipalsCommand $D/lookup %u" > "$T/extra"
write_config < "$T/extra"
"$BIN/sshd" -T -f "$T/sshd_config" > "$T/dump" 2>&1
check "sshd -T shows authorizedprincipalscommand" \
    grep -qx "authorizedprincipalscommand $D/lookup %u" "$T/dump"
check "sshd -T shows authorizedprincipalscommanduser" \
    grep -qx "authorizedprincipalscommanduser nobody" "$T/dump"

# 2. A cert-authority line printed by AuthorizedKeysCommand.
run_with "AuthorizedKeysCommand $D/akc %u %t %k
AuthorizedKeysCommandUser nobody"
check "cert-authority from AuthorizedKeysCommand lets the cert in" \
    [ "$(login)" = "$U" ]
{
	echo "$U"; echo ssh-ed25519-cert-v01@openssh.com
	cut -d' ' -f2 "$CERT"
} > "$T/akc.want"
check "AuthorizedKeysCommand %t %k describe the certificate" \
    cmp -s "$T/akc.want" "$D/out/akc-argv"
check "AuthorizedKeysCommand: the plain key is not let in by a CA line" \
    [ -z "$(ossh -o CertificateFile=/dev/null "$U@127.0.0.1" 'id -un' 2>/dev/null)" ]
stop_sshd
sed -i 's/principals="ops-/principals="root-/' "$D/akc"
run_with "AuthorizedKeysCommand $D/akc %u %t %k
AuthorizedKeysCommandUser nobody"
check "AuthorizedKeysCommand cert-authority, principal not listed: refused" \
    [ -z "$(login)" ]
stop_sshd
finish
