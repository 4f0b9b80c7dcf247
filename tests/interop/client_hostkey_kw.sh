#!/bin/sh
# ssh_config keywords of the host key check at run time against our sshd:
# KnownHostsCommand (tokens, its output as known_hosts lines, a failing
# command), RevokedHostKeys (a key list, a KRL, a missing or broken file:
# refused in the words Debian's ssh uses against the same server),
# FingerprintHash and NoHostAuthenticationForLocalhost.
. "$(dirname "$0")/lib.sh"
make_keys
write_config </dev/null
start_sshd

# The host key: no known_hosts file knows it (KH names one that does),
# strict checking.
hk() {
	"$BIN/ssh" -F /dev/null -o BatchMode=yes \
	    -o UserKnownHostsFile="${KH:-/dev/null}" \
	    -o GlobalKnownHostsFile=/dev/null -o StrictHostKeyChecking=yes \
	    -o IdentitiesOnly=yes -i "$T/id_ed25519" -p "$PORT" "$@"
}
ohk() {
	ssh -F /dev/null -o BatchMode=yes -o UserKnownHostsFile="${KH:-/dev/null}" \
	    -o GlobalKnownHostsFile=/dev/null -o StrictHostKeyChecking=yes \
	    -o IdentitiesOnly=yes -i "$T/id_ed25519" -p "$PORT" "$@"
}
# Our sshd offers its ed25519 key first to both clients.
echo "[127.0.0.1]:$PORT $(cat "$T/host_ed25519.pub")" > "$T/kh_good"
hk "$ME@127.0.0.1" true </dev/null 2>"$T/err"
check "no known key, strict: refused" [ $? -eq 255 ]
printf '#!/bin/sh\necho "$*" > "%s"\ncat "%s"\n' "$T/khc.args" \
    "$T/kh_good" > "$T/khc"
chmod 755 "$T/khc"
out=$(hk -o "KnownHostsCommand=$T/khc %H %t %I %f %K %%" "$ME@127.0.0.1" \
    'echo in' </dev/null 2>"$T/err")
check "KnownHostsCommand supplies the host key" [ "$out" = "in" ]
fp=$(ssh-keygen -lf "$T/host_ed25519.pub" | cut -d' ' -f2)
b64=$(cut -d' ' -f2 "$T/host_ed25519.pub")
check "... tokens %H %t %I %f %K %% expanded" [ "$(cat "$T/khc.args")" = \
    "[127.0.0.1]:$PORT ssh-ed25519 HOSTNAME $fp $b64 %" ]
hk -o "KnownHostsCommand=/bin/echo" "$ME@127.0.0.1" true </dev/null \
    2>"$T/err"
check "KnownHostsCommand printing nothing: refused" [ $? -eq 255 ]
hk -o "KnownHostsCommand=/bin/false" "$ME@127.0.0.1" true </dev/null \
    2>"$T/err"
check "KnownHostsCommand failing: 255" [ $? -eq 255 ]
check "... KnownHostsCommand failed" grep -q "^KnownHostsCommand failed" \
    "$T/err"
check "... and why" grep -q \
    "^KnownHostsCommand-HOSTNAME /bin/false failed, status 1" "$T/err"

# KnownHostsCommand runs as Debian's ssh runs it, with the same words:
# once for the host name (HOSTNAME) whatever the files hold. Debian's
# also runs it first to order HostKeyAlgorithms by the keys known
# (ORDER, no key: %f %K %t are NONE); our ssh does not order them, so
# that run is counted but left out of the comparison. (Its run for the
# address, with CheckHostIP, is never made for a loopback address.)
printf '#!/bin/sh\necho "$*" >> "%s"\ncat "%s"\n' "$T/khlog" \
    "$T/kh_good" > "$T/khlog.sh"
chmod 755 "$T/khlog.sh"
khc_same() {
	rm -f "$T/khlog"
	hk -o "KnownHostsCommand=$T/khlog.sh %I %H %f %K %t %h %p %n %r %k %%" \
	    "$@" "$ME@127.0.0.1" true </dev/null >/dev/null 2>&1
	r1=$?
	mv "$T/khlog" "$T/khlog.ours" 2>/dev/null || : > "$T/khlog.ours"
	ohk -o "KnownHostsCommand=$T/khlog.sh %I %H %f %K %t %h %p %n %r %k %%" \
	    "$@" "$ME@127.0.0.1" true </dev/null >/dev/null 2>&1
	r2=$?
	mv "$T/khlog" "$T/khlog.deb" 2>/dev/null || : > "$T/khlog.deb"
	check "KnownHostsCommand [${KH:+known key }$*]: status $r1 as Debian's" \
	    [ $r1 -eq $r2 ]
	check "... Debian's ran it once to order host key algorithms" \
	    [ "$(grep -c '^ORDER ' "$T/khlog.deb")" -eq 1 ]
	check "... ours for the host name as Debian's ($(head -1 \
	    "$T/khlog.ours" | cut -c1-40))" [ -s "$T/khlog.ours" ] && \
	    [ "$(cat "$T/khlog.ours")" = "$(grep -v '^ORDER ' "$T/khlog.deb")" ]
}
khc_same
KH=$T/kh_good khc_same
khc_same -o CheckHostIP=yes
khc_same -o HostKeyAlias=127.0.0.1 -l nobody

# RevokedHostKeys: a key list or a KRL naming the host key, a missing or
# broken file: refused, in Debian's words.
cp "$T/host_ed25519.pub" "$T/revoked_list"
ssh-keygen -q -k -f "$T/revoked_krl" "$T/host_ed25519.pub"
echo garbage > "$T/revoked_bad"
for f in revoked_list revoked_krl revoked_bad revoked_none; do
	KH=$T/kh_good hk -o "RevokedHostKeys=$T/$f" "$ME@127.0.0.1" true \
	    </dev/null >/dev/null 2>"$T/e1"
	r1=$?
	KH=$T/kh_good ohk -o "RevokedHostKeys=$T/$f" "$ME@127.0.0.1" true \
	    </dev/null >/dev/null 2>"$T/e2"
	check "RevokedHostKeys $f: refused (255)" [ $r1 -eq 255 ]
	check "... as Debian's words it ($(head -1 "$T/e1"))" \
	    [ "$(tr -d '\r' <"$T/e1")" = "$(tr -d '\r' <"$T/e2")" ]
done
ssh-keygen -q -t ed25519 -N '' -f "$T/other" -C other
ssh-keygen -q -k -f "$T/revoked_other" "$T/other.pub"
out=$(KH=$T/kh_good hk -o "RevokedHostKeys=$T/revoked_other" \
    "$ME@127.0.0.1" 'echo in' </dev/null 2>"$T/err")
check "RevokedHostKeys naming another key: connects" [ "$out" = "in" ]

# FingerprintHash: the host key's fingerprint in that hash, here in the
# refusal as Debian's ssh prints it.
KH=$T/kh_good hk -o FingerprintHash=md5 -o "RevokedHostKeys=$T/revoked_krl" \
    "$ME@127.0.0.1" true </dev/null 2>"$T/e1"
KH=$T/kh_good ohk -o FingerprintHash=md5 -o "RevokedHostKeys=$T/revoked_krl" \
    "$ME@127.0.0.1" true </dev/null 2>"$T/e2"
check "FingerprintHash md5: MD5 in the message" grep -q "ED25519 MD5:" "$T/e1"
check "... as Debian's words it" \
    [ "$(tr -d '\r' <"$T/e1")" = "$(tr -d '\r' <"$T/e2")" ]

# NoHostAuthenticationForLocalhost: any key from a loopback address,
# unless HostKeyAlias is set.
out=$(hk -o NoHostAuthenticationForLocalhost=yes "$ME@127.0.0.1" 'echo in' \
    </dev/null 2>"$T/err")
check "NoHostAuthenticationForLocalhost: no check on 127.0.0.1" \
    [ "$out" = "in" ]
hk -o NoHostAuthenticationForLocalhost=yes -o HostKeyAlias=elsewhere \
    "$ME@127.0.0.1" true </dev/null 2>"$T/err"
check "... but with HostKeyAlias it checks" [ $? -eq 255 ]
KH=$T/kh_good hk -o NoHostAuthenticationForLocalhost=yes \
    -o "RevokedHostKeys=$T/revoked_krl" "$ME@127.0.0.1" true </dev/null \
    2>"$T/err"
check "... and a revoked key is still refused" [ $? -eq 255 ]
finish
