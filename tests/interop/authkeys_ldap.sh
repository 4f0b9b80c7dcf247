#!/bin/sh
# Keys from a directory server: Debian's slapd, started here on a
# loopback port with a private configuration and the openssh-lpk schema
# (the sshPublicKey attribute, the ldapPublicKey object class), holds a
# user's key; an AuthorizedKeysCommand that asks it with ldapsearch lets
# Debian's ssh in with that key, which is in no file. With slapd
# stopped, the command fails (and sshd logs it) while AuthorizedKeysFile
# still serves. This is the recipe README.md gives.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/auth_command.inc"
[ -x /usr/sbin/slapd ] || skip "slapd not installed"
need slapadd
need ldapsearch

command_setup moatl$$ ldap
cp "$T/id_ed25519.pub" "$T/authorized_keys"	# the file: ed25519 only
chmod 644 "$T/authorized_keys"
LP=$(free_port)
BASE="ou=people,dc=example,dc=org"

# openssh-lpk, from its published OIDs.
cat > "$D/openssh-lpk.schema" <<'EOF'
attributetype ( 1.3.6.1.4.1.24552.500.1.1.1.13 NAME 'sshPublicKey'
	DESC 'an OpenSSH public key line'
	EQUALITY octetStringMatch
	SYNTAX 1.3.6.1.4.1.1466.115.121.1.40 )
objectclass ( 1.3.6.1.4.1.24552.500.1.1.2.0 NAME 'ldapPublicKey'
	DESC 'an entry that may hold OpenSSH public keys'
	SUP top AUXILIARY
	MAY ( sshPublicKey $ uid ) )
EOF
mkdir "$D/db"
cat > "$D/slapd.conf" <<EOF
include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include $D/openssh-lpk.schema
modulepath /usr/lib/ldap
moduleload back_mdb
pidfile $D/slapd.pid
database mdb
suffix "dc=example,dc=org"
rootdn "cn=admin,dc=example,dc=org"
directory $D/db
maxsize 10485760
access to * by * read
EOF
cat > "$D/base.ldif" <<EOF
dn: dc=example,dc=org
objectClass: dcObject
objectClass: organization
o: example
dc: example

dn: $BASE
objectClass: organizationalUnit
ou: people

dn: uid=$U,$BASE
objectClass: account
objectClass: ldapPublicKey
uid: $U
sshPublicKey: $(cat "$T/id_ecdsa.pub")

dn: uid=someoneelse,$BASE
objectClass: account
objectClass: ldapPublicKey
uid: someoneelse
sshPublicKey: $(cat "$T/id_rsa.pub")
EOF
slapadd -q -f "$D/slapd.conf" -l "$D/base.ldif" 2>"$T/slapadd.err" || {
	cat "$T/slapadd.err" >&2
	fail "slapadd"
	finish
}
/usr/sbin/slapd -d 0 -h "ldap://127.0.0.1:$LP/" -f "$D/slapd.conf" \
    2>"$T/slapd.log" &
SLAPD=$!
at_exit "kill $SLAPD 2>/dev/null"
i=0
until ldapsearch -x -LLL -H "ldap://127.0.0.1:$LP/" -b "$BASE" -s base \
    dn >/dev/null 2>&1; do
	i=$((i + 1))
	if [ $i -gt 100 ] || ! kill -0 "$SLAPD" 2>/dev/null; then
		cat "$T/slapd.log" >&2
		fail "slapd did not start"
		finish
	fi
	sleep 0.1
done

# The command: the user's sshPublicKey values, one a line; ldapsearch's
# failure is the command's (sshd then logs it and uses none of it).
cat > "$D/ldap-keys" <<EOF
#!/bin/sh
# ldap-keys USER: USER's keys from the directory.
case "\$1" in *[!a-z0-9_-]*|"") exit 1;; esac
out=\$(ldapsearch -x -LLL -o ldif-wrap=no -o nettimeout=5 \\
    -H ldap://127.0.0.1:$LP/ -b "$BASE" \\
    "(&(objectClass=ldapPublicKey)(uid=\$1))" sshPublicKey) || exit \$?
printf '%s\n' "\$out" | sed -n 's/^sshPublicKey: //p'
EOF
chmod 755 "$D/ldap-keys"

restart_sshd "AuthorizedKeysCommand $D/ldap-keys %u" \
    "AuthorizedKeysCommandUser nobody"
login() { # login KEYNAME: prints the user on success
	ID="$T/id_$1" ossh "$U@127.0.0.1" 'id -un' 2>>"$T/ssh.err"
}
check "key only in LDAP lets the user in" [ "$(login ecdsa)" = "$U" ]
check "key from the file still lets the user in" [ "$(login ed25519)" = "$U" ]
check "another entry's key is not taken" [ -z "$(login rsa)" ]

kill "$SLAPD"; wait "$SLAPD" 2>/dev/null
check "slapd stopped: the LDAP key no longer lets in" [ -z "$(login ecdsa)" ]
check "slapd stopped: the file still serves" [ "$(login ed25519)" = "$U" ]
wait_log "$T/sshd.log" "^AuthorizedKeysCommand $D/ldap-keys.* failed, status"
check "slapd stopped: the command's failure logged" [ $? -eq 0 ]
finish
