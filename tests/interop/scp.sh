#!/bin/sh
# Our scp against our sshd and Debian's, over SFTP and the old protocol.
#
# 1. The argv scp gives ssh is the one Debian's scp gives (a fake -S),
#    scp:// addresses (port, user, %XX, "//" path) among them.
# 2. Upload and download of a tree with odd names (spaces, quotes, shell
#    characters), -r -p: diff -r equal, modes and times kept; several
#    files into a directory; a remote glob; a 16 MiB file up and down,
#    checksums equal; against our sshd ("a") and Debian's ("b"), SFTP
#    and -O. In -O mode the far end is our scp (an ssh wrapper runs it),
#    and once Debian's.
# 3. Remote to remote: through this host (-3, the default) and directly
#    (-R, scp run on the source host), SFTP and -O.
# 4. Errors (missing files, a directory without -r, a file where a
#    directory must be, an ssh that fails): the messages and exit status
#    of Debian's scp on the same case, SFTP and -O.
# 5. Debian's scp -O against our sshd with our scp as the far end.
# 6. A hostile server (-S program) that sends a name that was not asked
#    for, "../x" or "a/b": refused with OpenSSH's messages, nothing
#    written; a remote path with shell characters stays one name.
# 7. -D runs sftp-server directly (it ignores ssh's "-- host sftp");
#    scp:// addresses; -l limits the rate.
# 8. The progress meter as Debian's scp's on a terminal, none otherwise.
. "$(dirname "$0")/lib.sh"
need scp
need sha256sum
[ -x "$BIN/scp" ] || skip "scp not built"
[ -x "$BIN/ssh" ] && [ -x "$BIN/sshd" ] || skip "ssh or sshd not built"
[ -x /usr/sbin/sshd ] || skip "Debian's sshd not installed"
DEB_SFTP=/usr/lib/openssh/sftp-server
[ -x "$DEB_SFTP" ] || skip "Debian's sftp-server not installed"
[ "$(id -u)" = 0 ] || skip "not root: Debian's sshd needs root"

# 1. The argv of ssh.
cat > "$T/fakessh" <<FAKE
#!/bin/sh
for a in "\$@"; do printf '[%s]\n' "\$a"; done >> "\$ARGV_OUT"
exit 1
FAKE
chmod +x "$T/fakessh"
for c in deb our; do
	[ $c = deb ] && prog=scp || prog="$BIN/scp"
	for args in "-P 2222 -v -q -C -4 -i idf -o Foo=bar u@h:/x $T/" \
	    "-O -r -p $T/fakessh h:/tgt" "-O -p h:/a $T" \
	    "-B -A -J j -c aes128-ctr -l 100 $T/fakessh u@[::1]:y" \
	    "-R -r h:/x u@h2:/y" "$T/fakessh scp://u@h:2222/x" \
	    "-O $T/fakessh scp://u%40x@h//abs/p%20q" "scp://h $T/" \
	    "-O -P 23 scp://h:2200/ $T/"; do
		echo "== $args" >> "$T/argv_$c"
		# shellcheck disable=SC2086
		ARGV_OUT="$T/argv_$c" "$prog" -S "$T/fakessh" $args \
		    >/dev/null 2>&1
	done
done
# Ours quotes the remote paths and ends the options with "--" (see 6).
for c in deb our; do
	sed -e "s/'//g" -e 's/ -- / /' -e '/^\[--\]$/d' "$T/argv_$c" \
	    > "$T/argv_${c}_n"
done
if cmp -s "$T/argv_deb_n" "$T/argv_our_n"; then
	pass "ssh argv as Debian's scp's"
else
	fail "ssh argv as Debian's scp's"
	diff "$T/argv_deb_n" "$T/argv_our_n" >&2
fi

# Two servers: ours ("a") and Debian's ("b").
make_keys
write_config <<EOC
Subsystem sftp $BIN/sftp-server
EOC
start_sshd
DPORT=$(free_port)
# (Its debug lines would reach the client's stderr.)
sed -e "s/^Port .*/Port $DPORT/" -e "s/^LogLevel .*/LogLevel INFO/" \
    -e "s#^Subsystem .*#Subsystem sftp $DEB_SFTP#" \
    "$T/sshd_config" > "$T/debian_config"
start_peer_sshd /usr/sbin/sshd "$T/debian_config" "$T/debian.log"
cat > "$T/ssh_config" <<EOC
Host a
	Port $PORT
Host b
	Port $DPORT
Host *
	HostName 127.0.0.1
	User $ME
	IdentityFile $T/id_ed25519
	IdentitiesOnly yes
	BatchMode yes
	StrictHostKeyChecking no
	UserKnownHostsFile $T/known_hosts
	LogLevel ERROR
EOC
# ssh with that config; a remote "scp ..." runs $RSCP (default ours),
# itself given this wrapper, so that -R copies find the other host.
cat > "$T/sshw" <<WRAP
#!/bin/sh
n=\$#
state=opt
cmd=
for a in "\$@"; do
	case \$state in
	opt) set -- "\$@" "\$a"; [ "\$a" = "--" ] && state=host ;;
	host) set -- "\$@" "\$a"; state=cmd ;;
	cmd) cmd="\${cmd:+\$cmd }\$a" ;;
	esac
done
shift \$n
case \$cmd in
"scp "*) cmd="\${RSCP:-$BIN/scp} -S $T/sshw \${cmd#scp }" ;;
esac
[ -n "\$cmd" ] && set -- "\$@" "\$cmd"
exec "\${SSH:-$BIN/ssh}" -F "$T/ssh_config" "\$@"
WRAP
chmod +x "$T/sshw"
oscp() { "$BIN/scp" -q -S "$T/sshw" "$@"; }
dscp() { scp -q -S "$T/sshw" "$@"; }

# The tree: odd names, modes, old times, an empty directory.
mk_tree() {
	mkdir -p "$1/sp ace/deep er" "$1/empty" "$1/q'uote" "$1/semi;colon"
	echo one > "$1/a"
	echo two > "$1/sp ace/b c"
	head -c 70000 /dev/urandom > "$1/sp ace/deep er/bin"
	echo 3 > "$1/q'uote/it's"
	echo 4 > "$1/semi;colon/\$(id)"
	echo 5 > "$1/dq\"uote"
	chmod 600 "$1/a"
	chmod 751 "$1/sp ace/deep er/bin"
	chmod 700 "$1/empty"
	find "$1" -exec touch -h -d '2021-03-04 05:06:07' {} +
	touch -d '2019-01-02 03:04:05' "$1/sp ace/b c"
}
# What -p keeps: names, modes and modification times (below the top).
listing() {
	(cd "$1" && find . -mindepth 1 -printf '%P %m %T@\n' | sort)
}
same_tree() {
	diff -r "$1" "$2" >/dev/null &&
	    [ "$(listing "$1")" = "$(listing "$2")" ]
}
not_ours() {
	! grep -q -e '^scp:' -e 'lost connection' -e 'protocol error' \
	    -e 'Connection closed' -e 'not a regular file' "$1"
}
mk_tree "$T/tree"
head -c 16777216 /dev/urandom > "$T/big"
BIGSUM=$(sha256sum < "$T/big")
mkdir "$T/f"
for i in 1 2 3 4 5; do echo "$i" > "$T/f/file $i"; done

# 2. Up and down, per server and protocol.
for h in a b; do
	for m in sftp legacy; do
		[ $m = legacy ] && M=-O || M=-s
		d="$T/d_${h}_$m"
		mkdir -p "$d/up" "$d/down" "$d/many"
		oscp $M -rp "$T/tree" "$h:$d/up/" 2>"$d.err"
		check "$h $m: upload -rp exits 0" [ $? -eq 0 ]
		check "$h $m: upload -rp tree equal, modes and times kept" \
		    same_tree "$T/tree" "$d/up/tree"
		oscp $M -rp "$h:$d/up/tree" "$d/down" 2>>"$d.err"
		check "$h $m: download -rp exits 0" [ $? -eq 0 ]
		check "$h $m: download -rp tree equal, modes and times kept" \
		    same_tree "$T/tree" "$d/down/tree"
		oscp $M "$T/f/file 1" "$T/f/file 2" "$T/f/file 3" \
		    "$h:$d/many" 2>>"$d.err"
		check "$h $m: several files into a directory" \
		    diff -r -x "file [45]" "$T/f" "$d/many"
		oscp $M "$h:$d/many/file*" "$d/down/" 2>>"$d.err"
		check "$h $m: a remote glob" diff -r -x tree -x "file [45]" \
		    "$T/f" "$d/down"
		if [ $h = a ]; then
			oscp $M "$T/big" "$h:$d/big" 2>>"$d.err" &&
			    oscp $M "$h:$d/big" "$d/big_back" 2>>"$d.err"
			check "$h $m: 16 MiB up and down, checksum equal" \
			    [ "$(sha256sum < "$d/big_back" 2>/dev/null)" = \
			    "$BIGSUM" ]
		fi
		# (Only ours: a login shell's own noise may be there.)
		check "$h $m: no error on stderr" not_ours "$d.err"
		[ -s "$d.err" ] && cat "$d.err" >&2
		rm -f "$d/big" "$d/big_back"
	done
done
# The old protocol with Debian's scp as the far end.
d="$T/d_debremote"
mkdir -p "$d/up" "$d/down"
RSCP=/usr/bin/scp oscp -O -rp "$T/tree" "a:$d/up/" &&
    RSCP=/usr/bin/scp oscp -O -rp "a:$d/up/tree" "$d/down"
check "-O with Debian's scp as the far end: trees equal both ways" \
    same_tree "$T/tree" "$d/down/tree"

# 3. Remote to remote.
for m in sftp legacy; do
	[ $m = legacy ] && M=-O || M=-s
	for how in 3 R; do
		d="$T/r_${m}_$how"
		mkdir -p "$d"
		oscp $M -$how -rp "a:$T/tree" "b:$d/" 2>"$d.err"
		check "remote to remote -$how $m: exits 0" [ $? -eq 0 ]
		check "remote to remote -$how $m: tree equal, -p kept" \
		    same_tree "$T/tree" "$d/tree"
		[ -s "$d.err" ] && cat "$d.err" >&2
	done
done

# 4. Errors, as Debian's scp words them, with the same exit status.
mkdir -p "$T/e" "$T/e/dir"
echo x > "$T/e/file"
same_error() { # same_error DESCRIPTION ARGS...: both scp, same output
	_desc=$1
	shift
	(cd "$T/e" && dscp "$@") > "$T/e_deb" 2>&1
	_dr=$?
	(cd "$T/e" && oscp "$@") > "$T/e_our" 2>&1
	_or=$?
	if [ $_dr -eq $_or ] && cmp -s "$T/e_deb" "$T/e_our"; then
		pass "$_desc: as Debian's scp (status $_or)"
	else
		fail "$_desc: as Debian's scp"
		echo "Debian's ($_dr):" >&2
		cat "$T/e_deb" >&2
		echo "ours ($_or):" >&2
		cat "$T/e_our" >&2
	fi
}
same_error "a missing remote file" "a:$T/e/nofile" "$T/e/got"
same_error "a missing and an existing file" "a:$T/e/nofile" \
    "a:$T/e/file" "$T/e/dir"
same_error "a remote directory without -r" "a:$T/e/dir" "$T/e/got"
same_error "a remote glob that matches nothing" "a:$T/e/no*" "$T/e/got"
same_error "upload of a directory without -r" "$T/e/dir" "a:$T/e/dst"
same_error "-O a missing remote file" -O "a:$T/e/nofile" "$T/e/got"
same_error "-O a missing local target directory" -O "a:$T/e/file" \
    "a:$T/e/file" "$T/e/nodir"
same_error "-O a missing local file" -O "$T/e/nofile" "a:$T/e/dst"
same_error "-O a remote target in a missing directory" -O "$T/e/file" \
    "a:$T/e/nodir/x"
# Whether the sink's first write or read meets the dead ssh first is a
# race in both programs, so "lost connection" may or may not be printed
# by either; every other line must be the same (a difference is shown).
same_out() {
	[ "$1" -eq "$2" ] || return 1
	grep -v '^lost connection$' "$T/e_deb" > "$T/e_deb2"
	grep -v '^lost connection$' "$T/e_our" > "$T/e_our2"
	cmp -s "$T/e_deb2" "$T/e_our2" && return 0
	diff "$T/e_deb2" "$T/e_our2" >&2
	return 1
}
# ssh that fails at once: "Connection closed" (255) or "lost connection".
# Debian's scp itself ends one way or the other by the same race (255
# mostly, 1 on a loaded machine), so ours must match one of up to five
# of its runs.
for args in "x:/a $T/e/" "$T/e/file x:/a" "-O $T/e/file x:/a" \
    "-O x:/a $T/e/"; do
	# shellcheck disable=SC2086
	"$BIN/scp" -S /bin/false $args > "$T/e_our" 2>&1
	_or=$?
	_try=0
	while :; do
		# shellcheck disable=SC2086
		scp -S /bin/false $args > "$T/e_deb" 2>&1
		_dr=$?
		_try=$((_try + 1))
		same_out $_dr $_or 2>/dev/null || [ $_try -ge 5 ] || continue
		break
	done
	check "ssh fails, scp $args: as Debian's scp (status $_dr)" \
	    same_out $_dr $_or
done

# 5. Debian's scp -O against our sshd, our scp the far end (ssh too).
d="$T/d_debclient"
mkdir -p "$d/up" "$d/down"
SSH=/usr/bin/ssh dscp -O -rp "$T/tree" "a:$d/up/" 2>"$d.err"
check "Debian's scp -O to our sshd and scp: exits 0" [ $? -eq 0 ]
check "Debian's scp -O to our sshd and scp: tree equal" \
    same_tree "$T/tree" "$d/up/tree"
SSH=/usr/bin/ssh dscp -O -rp "a:$d/up/tree" "$d/down" 2>>"$d.err"
check "Debian's scp -O from our sshd and scp: tree equal" \
    same_tree "$T/tree" "$d/down/tree"
SSH=/usr/bin/ssh dscp -O "$T/big" "a:$d/big" 2>>"$d.err"
check "Debian's scp -O to our scp: 16 MiB, checksum equal" \
    [ "$(sha256sum < "$d/big" 2>/dev/null)" = "$BIGSUM" ]
[ -s "$d.err" ] && cat "$d.err" >&2

# 6. A hostile far end: what it sends (-S program, any host).
mkdir -p "$T/h"
hostile() { # hostile RECORD...: sends each, after an answer from us
	{
		echo '#!/bin/sh'
		echo 'for a in "$@"; do last=$a; done'
		echo "printf '%s' \"\$last\" > '$T/hostile_cmd'"
		echo 'head -c 1 >/dev/null'
		for r in "$@"; do
			echo "printf '$r'"
			echo 'head -c 1 >/dev/null'
		done
	} > "$T/hostile"
	chmod +x "$T/hostile"
}
try_hostile() { # try_hostile DESCRIPTION MESSAGE REQUEST RECORD...
	_desc=$1
	_msg=$2
	_req=$3
	shift 3
	hostile "$@"
	rm -rf "$T/h" && mkdir -p "$T/h/in"
	timeout 60 "$BIN/scp" -O -S "$T/hostile" "$_req" "$T/h/in" \
	    > "$T/h_out" 2>&1
	_r=$?
	check "hostile server, $_desc: refused, status 1" [ $_r -eq 1 ]
	check "hostile server, $_desc: nothing written" \
	    [ -z "$(find "$T/h" -mindepth 1 ! -path "$T/h/in")" ]
	if grep -qxF "$_msg" "$T/h_out"; then
		pass "hostile server, $_desc: \"$_msg\""
	else
		fail "hostile server, $_desc: no \"$_msg\""
		cat "$T/h_out" >&2
	fi
}
try_hostile "a name not asked for" \
    "protocol error: filename does not match request" \
    "x:/srv/wanted" 'C0644 3 evil\n' 'abc\0'
try_hostile "a name outside the pattern" \
    "protocol error: filename does not match request" \
    "x:/srv/*.txt" 'C0644 3 .bashrc\n' 'abc\0'
try_hostile "../x" "error: unexpected filename: ../x" \
    "x:/srv/.." 'C0644 3 ../x\n' 'abc\0'
try_hostile "a/b" "error: unexpected filename: a/b" \
    "x:/srv/a" 'C0644 3 a/b\n' 'abc\0'
try_hostile "a directory called .." "error: unexpected filename: .." \
    "x:/srv/.." 'D0755 0 ..\n' 'C0644 3 x\n' 'abc\0'
try_hostile "a directory without -r" \
    "protocol error: received directory without -r" \
    "x:/srv/d" 'D0755 0 d\n'
# -T: the name is no longer checked against the request.
hostile 'C0644 3 other\n' 'abc\0'
rm -rf "$T/h" && mkdir -p "$T/h/in"
timeout 60 "$BIN/scp" -T -O -S "$T/hostile" "x:/srv/wanted" "$T/h/in" \
    >/dev/null 2>&1
check "-T takes a name not asked for" [ "$(cat "$T/h/in/other")" = abc ]
# The request reaches the far end's shell as one word.
timeout 60 "$BIN/scp" -O -S "$T/hostile" 'x:/a b;touch pwned$(id)`id`' \
    "$T/h/in" >/dev/null 2>&1
check "a remote path quoted for the far end's shell" \
    [ "$(cat "$T/hostile_cmd")" = "scp -f -- '/a b;touch pwned\$(id)\`id\`'" ]
d="$T/d_quote"
mkdir -p "$d"
# (The far end's shell starts in the home directory.)
rm -f "$HOME/moat-scp-pwned"
echo q > "$d/x;touch moat-scp-pwned"
oscp -O "a:$d/x;touch moat-scp-pwned" "$d/got" 2>/dev/null
check "a remote name with ';' is fetched, nothing run" \
    [ -f "$d/got" -a ! -e "$HOME/moat-scp-pwned" ]
rm -f "$HOME/moat-scp-pwned"

# 7. -D: sftp-server run directly, with ssh's trailing arguments.
d="$T/d_direct"
mkdir -p "$d"
"$BIN/scp" -D "$BIN/sftp-server" "$T/f/file 1" "x:$d/one" 2>"$d.err"
check "-D sftp-server: upload" diff "$T/f/file 1" "$d/one"
"$BIN/scp" -D "$DEB_SFTP" -p "x:$d/one" "$d/two" 2>>"$d.err"
check "-D Debian's sftp-server: download" diff "$T/f/file 1" "$d/two"
check "-D: no error on stderr" not_ours "$d.err"
# scp:// addresses: "//" starts an absolute path, %XX is decoded.
"$BIN/scp" -D "$BIN/sftp-server" "$T/f/file 1" "scp://u@x:2222/$d/uri%201"
check "scp://: upload to the decoded path" diff "$T/f/file 1" "$d/uri 1"
"$BIN/scp" -D "$BIN/sftp-server" "scp://x/$d/uri%201" "$d/uri2"
check "scp://: download" diff "$T/f/file 1" "$d/uri2"
"$BIN/scp" -D "$BIN/sftp-server" "$T/f/file 1" "scp://x:0/$d/bad" \
    2>"$d.err2"
check "scp:// with port 0: invalid uri, nothing written" \
    sh -c "grep -q 'invalid uri' '$d.err2' && [ ! -e '$d/bad' ]"
# -l 200: 50 KiB take two seconds (400 Kbit at 200 Kbit/s), not less.
head -c 51200 /dev/urandom > "$d/l50k"
_t0=$(date +%s%N)
"$BIN/scp" -l 200 -D "$BIN/sftp-server" "$d/l50k" "x:$d/l50k_2" 2>/dev/null
_ms=$((($(date +%s%N) - _t0) / 1000000))
check "-l 200: 50 KiB in 1.9 s or more (${_ms} ms)" [ "$_ms" -ge 1900 ]
check "-l 200: the bytes arrive" cmp -s "$d/l50k" "$d/l50k_2"

# 8. The progress meter on a terminal, laid out as Debian's scp's
#    (numbers and spaces squeezed: the rates differ); none with -q or
#    when standard output is not a terminal.
if command -v script >/dev/null 2>&1; then
	head -c 5000 /dev/urandom > "$d/m5000"
	meter() { # meter SCP: the last line of its meter, as a shape
		script -qc "$1 -D $BIN/sftp-server $d/m5000 x:$d/m2" /dev/null |
		    tr '\r' '\n' | grep -a . | tail -1 |
		    sed -e 's/[0-9][0-9]*/9/g' -e 's/[KMG]B/XB/g' | tr -s ' '
	}
	meter scp > "$T/meter_deb"
	meter "$BIN/scp" > "$T/meter_our"
	check "progress meter: a line ending in 100%, size, rate, time" \
	    grep -q '^m9 9% 9 9.9XB/s 9:9 $' "$T/meter_our"
	check "progress meter laid out as Debian's" \
	    cmp -s "$T/meter_deb" "$T/meter_our"
	script -qc "$BIN/scp -q -D $BIN/sftp-server $d/m5000 x:$d/m3" \
	    /dev/null > "$T/meter_q"
	check "progress meter: none with -q" [ ! -s "$T/meter_q" ]
	"$BIN/scp" -D "$BIN/sftp-server" "$d/m5000" "x:$d/m4" > "$T/meter_n"
	check "progress meter: none when not on a terminal" \
	    [ ! -s "$T/meter_n" ]
	check "the copy made all the same" cmp -s "$d/m5000" "$d/m4"
else
	echo "no script(1): the progress meter is not checked" >&2
fi
[ -s "$d.err" ] && cat "$d.err" >&2
finish
