#!/bin/sh
# AuthorizedKeysCommand against Debian's OpenSSH ssh: keys looked up in
# an SQLite database by user name, in addition to AuthorizedKeysFile; a
# command that hangs is killed after AuthorizedKeysCommandTimeout and the
# file still serves; garbage output and a non-zero exit let nothing in;
# a command that is not root-owned or is writable by others is refused.
# Needs root: a temporary user, and commands in a root-owned directory.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/auth_command.inc"

command_setup moatt$$ akc
cp "$T/id_ed25519.pub" "$T/authorized_keys"	# the file: ed25519 only
chmod 644 "$T/authorized_keys"

sqlite3 "$D/keys.db" "CREATE TABLE keys (user TEXT, line TEXT);
INSERT INTO keys VALUES ('$U', '$(cat "$T/id_ecdsa.pub")');
INSERT INTO keys VALUES ('someoneelse', '$(cat "$T/id_rsa.pub")');"
chmod 644 "$D/keys.db"

cat > "$D/lookup" <<EOF
#!/bin/sh
# lookup USER: print USER's authorized_keys lines from the database.
case "\$1" in *[!a-z0-9_-]*|"") exit 1;; esac
exec /usr/bin/sqlite3 -readonly $D/keys.db \
    "SELECT line FROM keys WHERE user = '\$1';"
EOF
printf '#!/bin/sh\necho "%s"\nexec sleep %s\n' "$(cat "$T/id_ecdsa.pub")" \
    "$SLEEP" > "$D/hang"
printf '#!/bin/sh\nhead -c 3000 /dev/urandom | base64\necho "ssh-ed25519 AAAAnotakey"\necho "restrict,bogus-option %s"\n' \
    "$(cat "$T/id_ecdsa.pub")" > "$D/garbage"
printf '#!/bin/sh\necho "%s"\nexit 3\n' "$(cat "$T/id_ecdsa.pub")" > "$D/fail"
cp "$D/lookup" "$D/writable"
cp "$D/lookup" "$D/notroot"
cp "$D/lookup" "$T/undertmp"
chmod 755 "$D/lookup" "$D/hang" "$D/garbage" "$D/fail" "$D/notroot" \
    "$T/undertmp"
chmod 777 "$D/writable"
chown nobody "$D/notroot"

run_with() { # run_with "AuthorizedKeysCommand line" [more config]
	restart_sshd "AuthorizedKeysCommand $1" \
	    "AuthorizedKeysCommandUser nobody" \
	    "AuthorizedKeysCommandTimeout 2" ${2+"$2"}
}
login() { # login KEYNAME [more ssh args]: prints the user on success
	k=$1; shift
	ID="$T/id_$k" ossh "$@" "$U@127.0.0.1" 'id -un' 2>>"$T/ssh.err"
}

run_with "$D/lookup %u"
check "key from the database lets the user in" [ "$(login ecdsa)" = "$U" ]
check "key from the file still lets the user in" [ "$(login ed25519)" = "$U" ]
check "another user's key is not taken" [ -z "$(login rsa)" ]
grep -q "Accepted publickey for $U from 127.0.0.1 port [0-9]* ssh2: ECDSA" \
    "$T/sshd.log"
check "accept log line" [ $? -eq 0 ]
stop_sshd

# No arguments: the user name is passed.
run_with "$D/lookup"
check "user name passed when no arguments" [ "$(login ecdsa)" = "$U" ]
stop_sshd

run_with "$D/hang"
start=$(date +%s)
out=$(login ecdsa -i "$T/id_ed25519")
end=$(date +%s)
check "hanging command: login through the file" [ "$out" = "$U" ]
check "hanging command: killed within the timeout" [ $((end - start)) -lt 15 ]
grep -q "AuthorizedKeysCommand $D/hang timed out after 2 seconds; killed" \
    "$T/sshd.log"
check "hanging command: timeout logged" [ $? -eq 0 ]
sleep 0.5
check "hanging command: no process left behind" \
    [ -z "$(pgrep -x -f "sleep $SLEEP")" ]
stop_sshd

run_with "$D/garbage %u"
check "garbage output lets nothing in" [ -z "$(login ecdsa)" ]
check "garbage output: the file still serves" [ "$(login ed25519)" = "$U" ]
stop_sshd

run_with "$D/fail %u"
check "non-zero exit lets nothing in" [ -z "$(login ecdsa)" ]
grep -q "AuthorizedKeysCommand $D/fail failed, status 3" "$T/sshd.log"
check "non-zero exit logged" [ $? -eq 0 ]
stop_sshd

for c in "$D/writable" "$D/notroot" "$T/undertmp" "lookup"; do
	run_with "$c %u"
	check "unsafe command $c refused" [ -z "$(login ecdsa)" ]
	grep -q "Unsafe AuthorizedKeysCommand" "$T/sshd.log"
	check "unsafe command $c logged" [ $? -eq 0 ]
	check "unsafe command $c: the file still serves" \
	    [ "$(login ed25519)" = "$U" ]
	stop_sshd
done

# AuthorizedKeysCommandUser is required.
restart_sshd "AuthorizedKeysCommand $D/lookup %u"
check "no AuthorizedKeysCommandUser: command not run" [ -z "$(login ecdsa)" ]
grep -q "No user for AuthorizedKeysCommand specified" "$T/sshd.log"
check "no AuthorizedKeysCommandUser logged" [ $? -eq 0 ]
stop_sshd

# Inside Match.
restart_sshd "Match User $U" "  AuthorizedKeysCommand $D/lookup %u" \
    "  AuthorizedKeysCommandUser nobody"
check "AuthorizedKeysCommand inside Match" [ "$(login ecdsa)" = "$U" ]
stop_sshd
finish
