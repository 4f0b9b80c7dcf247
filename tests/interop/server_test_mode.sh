#!/bin/sh
# sshd -T -C: the Match blocks evaluated against a connection given on
# the command line, compared with Debian's sshd on the same file for a
# range of connections (user, group, host, address, local address and
# port, routing domain, negation, "Match all", several -C options), and
# the refusals of a bad specification: same message, same exit status;
# and -G, which prints the same without needing the host keys.
# (OpenSSH ends the lines it logs with \r\n, ours drop the \r off a tty:
# messages are compared without it.)
. "$(dirname "$0")/lib.sh"
[ -x /usr/sbin/sshd ] || skip "Debian's sshd not installed"
ssh-keygen -q -t ed25519 -N '' -f "$T/hk"
# A group of the user's own, for "Match Group".
GRP=$(id -gn)
cat > "$T/s.conf" <<CFG
HostKey $T/hk
Port 2222
PasswordAuthentication no
Match User alice,bob
	X11Forwarding yes
	MaxAuthTries 3
Match User !alice,b*
	PermitTTY no
Match Group $GRP
	MaxSessions 4
Match Host *.example.com,!bad.example.com
	Banner /etc/issue
	AllowTcpForwarding local
Match Address 10.0.0.0/8,192.0.2.1
	ClientAliveInterval 45
	AcceptEnv LANG LC_*
Match Address !10.1.0.0/16,10.0.0.0/8 User carol
	PermitRootLogin no
Match LocalAddress 127.0.0.2
	GatewayPorts clientspecified
Match LocalPort 2200
	ClientAliveCountMax 9
	IgnoreRhosts no
Match RDomain blue
	PermitTunnel point-to-point
Match LocalPort 2200 User dave
	ForceCommand /bin/true
Match all
	PasswordAuthentication yes
	PermitTTY yes
	AuthorizedKeysFile .ssh/k1 .ssh/k2
CFG
KW='x11forwarding maxauthtries permittty maxsessions banner
    allowtcpforwarding clientaliveinterval acceptenv permitrootlogin
    gatewayports clientalivecountmax ignorerhosts permittunnel forcecommand
    passwordauthentication authorizedkeysfile port'

# The lines of the keywords the blocks set, as each sshd prints them.
pick() {
	for k in $KW; do grep "^$k " "$1"; done
}

# Both refusals' stderr ($T/oe ours, $T/te theirs), but for \r.
same_msg() {
	tr -d '\r' < "$T/oe" > "$T/oe2"
	tr -d '\r' < "$T/te" > "$T/te2"
	[ -s "$T/te2" ] && cmp -s "$T/oe2" "$T/te2"
}

cmp_spec() { # cmp_spec description -C-arguments...
	d=$1; shift
	"$BIN/sshd" -T -f "$T/s.conf" "$@" > "$T/o" 2> "$T/oe"; ro=$?
	/usr/sbin/sshd -T -f "$T/s.conf" "$@" > "$T/t" 2> "$T/te"; rt=$?
	pick "$T/o" > "$T/op"
	pick "$T/t" > "$T/tp"
	if [ $ro -eq 0 ] && [ $rt -eq 0 ] && [ -s "$T/tp" ] &&
	    cmp -s "$T/op" "$T/tp"; then
		pass "sshd -T $d as OpenSSH"
	else
		fail "sshd -T $d: status $ro/$rt"
		diff "$T/op" "$T/tp" >&2
		cat "$T/oe" >&2
	fi
}

L=lport=2222
cmp_spec "user alice" -C user=alice,$L
cmp_spec "user bob (two blocks, negation)" -C user=bob,host=h,addr=1.1.1.1,$L
cmp_spec "user bert" -C user=bert,$L
cmp_spec "group of the user" -C "user=$ME,$L"
cmp_spec "host pattern" -C host=www.example.com,$L
cmp_spec "host negated" -C host=bad.example.com,$L
cmp_spec "address in a network" -C addr=10.2.3.4,$L
cmp_spec "address in a list" -C addr=192.0.2.1,$L
cmp_spec "address and user" -C user=carol,addr=10.2.3.4,$L
cmp_spec "negated network" -C user=carol,addr=10.1.3.4,$L
cmp_spec "local address" -C laddr=127.0.0.2,$L
cmp_spec "local port" -C lport=2200
cmp_spec "local port and user" -C user=dave,lport=2200
cmp_spec "routing domain" -C rdomain=blue,$L
cmp_spec "several -C options" -C user=alice -C addr=10.9.9.9 -C lport=2200
cmp_spec "a trailing comma" -C user=alice,lport=2200,
cmp_spec "every field" \
    -C user=bob,host=a.example.com,addr=10.0.0.1,laddr=127.0.0.2,lport=2200,rdomain=blue

# A block tests the local port and -C gives none: both refuse.
"$BIN/sshd" -T -f "$T/s.conf" -C user=alice > /dev/null 2> "$T/oe"; ro=$?
/usr/sbin/sshd -T -f "$T/s.conf" -C user=alice > /dev/null 2> "$T/te"; rt=$?
check "sshd -T -C without lport: status $ro as OpenSSH's $rt" \
    [ $ro -eq $rt -a $ro -ne 0 ]
check "sshd -T -C without lport: message as OpenSSH's" same_msg

# Bad specifications, and -C without -T.
for spec in bogus=1 user USER=x lport=x lport=65536 host=h,nope; do
	"$BIN/sshd" -T -f "$T/s.conf" -C "$spec" > /dev/null 2> "$T/oe"; ro=$?
	/usr/sbin/sshd -T -f "$T/s.conf" -C "$spec" > /dev/null 2> "$T/te"
	rt=$?
	check "sshd -T -C $spec: status $ro as OpenSSH's $rt" \
	    [ $ro -eq $rt -a $ro -ne 0 ]
	check "sshd -T -C $spec: message as OpenSSH's ($(cat "$T/oe"))" \
	    same_msg
done
"$BIN/sshd" -t -f "$T/s.conf" -C user=alice > /dev/null 2> "$T/oe"; ro=$?
/usr/sbin/sshd -t -f "$T/s.conf" -C user=alice > /dev/null 2> "$T/te"; rt=$?
check "sshd -t -C: status $ro as OpenSSH's $rt" [ $ro -eq $rt -a $ro -ne 0 ]
check "sshd -t -C: message as OpenSSH's" same_msg

# No -C and no LocalPort block: only "Match all" applies.
sed 's/^Match LocalPort 2200$/Match User nobody-at-all/
    s/^Match LocalPort 2200 User dave$/Match User dave/' "$T/s.conf" \
    > "$T/n.conf"
"$BIN/sshd" -T -f "$T/n.conf" > "$T/o"; ro=$?
/usr/sbin/sshd -T -f "$T/n.conf" > "$T/t"; rt=$?
pick "$T/o" > "$T/op"
pick "$T/t" > "$T/tp"
check "sshd -T without -C: Match all applied as OpenSSH ($ro/$rt)" \
    [ $ro -eq 0 -a $rt -eq 0 -a -s "$T/tp" ]
check "sshd -T without -C: the same lines" cmp -s "$T/op" "$T/tp"
check "sshd -T without -C: Match all's PasswordAuthentication" \
    grep -q '^passwordauthentication yes' "$T/op"

# -G (OpenSSH 10): the same settings, with no host key needed; -C wants
# -T beside it, as in OpenSSH 10.5.
sed "s|^HostKey .*|HostKey $T/no-such-key|" "$T/n.conf" > "$T/g.conf"
"$BIN/sshd" -G -f "$T/g.conf" > "$T/g"; rg=$?
pick "$T/g" > "$T/gp"
check "sshd -G: prints without the host key ($rg)" [ $rg -eq 0 ]
check "sshd -G: the settings -T prints" cmp -s "$T/gp" "$T/op"
"$BIN/sshd" -G -f "$T/g.conf" -C user=alice > /dev/null 2>&1; rg=$?
check "sshd -G -C without -T: refused ($rg)" [ $rg -eq 255 ]
"$BIN/sshd" -G -T -f "$T/g.conf" -C user=alice > "$T/g"; rg=$?
check "sshd -G -T -C: Match applied ($rg)" \
    grep -q '^x11forwarding yes' "$T/g"
finish
