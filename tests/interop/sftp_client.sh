#!/bin/sh
# Our sftp client against our sftp-server, Debian's sftp-server, our sshd
# and Debian's sshd, in batch mode.
#
# 1. With -D (no ssh): put/get of a 5 MiB file and a resumed reget/reput
#    keep the bytes (sha256); -r copies a small tree both ways (diff -r);
#    rename, rm, mkdir, rmdir, chmod, ln -s do what they say; the first
#    error ends a batch with status 1, a '-' line goes on past one.
# 2. The same batch (ls in its forms, errors, transfers, directories) in
#    two directories of the same name length: Debian's sftp and ours
#    print the same transcript on stdout and stderr, against Debian's
#    sftp-server (also one that cannot name owners: its longnames are
#    shown) and against ours (dates and df figures left out); the
#    same with commands on standard input (not batch mode: "Fetching..."
#    lines shown, errors do not stop), and the same usage errors.
# 3. Through ssh: our sftp runs our ssh (-S) to our sshd and to
#    Debian's sshd (Subsystem sftp), put/get with checksums; and the
#    argv it gives ssh is the one Debian's sftp gives (a fake -S).
. "$(dirname "$0")/lib.sh"
need sftp
need sha256sum
DEB=/usr/lib/openssh/sftp-server
[ -x "$DEB" ] || skip "Debian's sftp-server not installed"
[ -x "$BIN/sftp" ] || skip "sftp not built"
export SSH_CONNECTION="127.0.0.1 40000 127.0.0.1 22"

head -c 5242880 /dev/urandom > "$T/big"
head -c 1234567 "$T/big" > "$T/big_head"
SUM=$(sha256sum < "$T/big")
mkdir -p "$T/tree/sub/deeper" "$T/tree/empty"
echo one > "$T/tree/a"
echo two > "$T/tree/sub/b"
head -c 70000 /dev/urandom > "$T/tree/sub/deeper/c"
chmod 640 "$T/tree/sub/b"

# 1. Transfers and file operations against our sftp-server.
mkdir "$T/w" "$T/l"
cp "$T/big_head" "$T/l/part"
cat > "$T/b1" <<EOB
put $T/big big
get big $T/l/big
put $T/big_head part
reput $T/big part
reget big $T/l/part
put -r $T/tree tree
get -r tree $T/l/tree
mkdir newdir
rmdir newdir
rename big big2
ln -s big2 link
chmod 600 big2
rm part
EOB
(cd "$T/w" && "$BIN/sftp" -b "$T/b1" -D "$BIN/sftp-server" \
    > "$T/o1" 2>&1)
check "batch of transfers succeeds" [ $? -eq 0 ]
check "5 MiB put/get keep the bytes" \
    [ "$(sha256sum < "$T/l/big")" = "$SUM" ]
check "reget resumes to the same bytes" \
    [ "$(sha256sum < "$T/l/part")" = "$SUM" ]
check "put -r copies the tree" diff -r "$T/tree" "$T/w/tree"
check "get -r copies the tree back" diff -r "$T/tree" "$T/l/tree"
check "rename" test -f "$T/w/big2" -a ! -e "$T/w/big"
check "ln -s" [ "$(readlink "$T/w/link")" = big2 ]
check "chmod" [ "$(stat -c %a "$T/w/big2")" = 600 ]
check "rm" [ ! -e "$T/w/part" ]
check "mkdir then rmdir" [ ! -e "$T/w/newdir" ]

# reput on its own: the remote copy ends with the same bytes.
cp "$T/big_head" "$T/w/part2"
printf 'reput %s part2\n' "$T/big" > "$T/b1r"
(cd "$T/w" && "$BIN/sftp" -b "$T/b1r" -D "$BIN/sftp-server" >/dev/null 2>&1)
check "reput resumes to the same bytes" \
    [ "$(sha256sum < "$T/w/part2")" = "$SUM" ]

# Small buffers and few requests still move the bytes (-B, -R).
printf 'get big2 %s/small_bufs\n' "$T/l" > "$T/b1s"
(cd "$T/w" && "$BIN/sftp" -B 1000 -R 3 -b "$T/b1s" -D "$BIN/sftp-server" \
    >/dev/null 2>&1)
check "-B 1000 -R 3 get keeps the bytes" \
    [ "$(sha256sum < "$T/l/small_bufs")" = "$SUM" ]

# Errors: the first ends the batch with 1; '-' goes on.
printf 'rm nonexistent\nmkdir after_error\n' > "$T/b2"
(cd "$T/w" && "$BIN/sftp" -b "$T/b2" -D "$BIN/sftp-server" > "$T/o2" 2>&1)
check "an error ends the batch with status 1" [ $? -eq 1 ]
check "nothing runs after the error" [ ! -e "$T/w/after_error" ]
printf -- '-rm nonexistent\nmkdir after_error\n' > "$T/b3"
(cd "$T/w" && "$BIN/sftp" -b "$T/b3" -D "$BIN/sftp-server" > "$T/o3" 2>&1)
check "'-' goes on past an error" [ $? -eq 0 ]
check "the line after it ran" [ -d "$T/w/after_error" ]
check "the error is reported" \
    grep -q "remote delete $T/w/nonexistent: No such file or directory" \
    "$T/o3"

# 2. The same transcript as Debian's sftp.
cat > "$T/b4" <<'EOB'
pwd
ls
ls -l
ls -la
ls -1
ls -lh d
ls -lS
ls -lr
ls -h
ls -1 -a
ls -1t
ls -f
ls d
ls d/
ls *
ls d*
ls -l d*
ls sl
-ls nothing*
-rm nonexist
-get nonexist
-cd nonexist
-mkdir d
-rmdir nonexist
-chmod 600 nonexist
-chown abc f
-ls -z
-get
-bogus
-rename nonexist foo
-put nonexist
-cd f
get f f2
put f2 f3
get -r d d2
put -r d2 d3
ls -l d3
rename f3 f4
ln -s f4 sym4
ln f4 hard4
symlink f4 sym5
chmod 600 f4
mkdir e
rmdir e
cd d
ls ..
ls -l ../f
cd ..
version
help
cp f fcp
-cp d x
-cp nonexist x
@pwd
# a comment

   ls    d
rm sym*
-rm "a b" 'c d' e\ f
lmkdir zz
!echo shell
df
rm hard4
EOB
# run_twin CLIENT SERVER TAG [BATCH]: the batch (-b, or on standard
# input when BATCH is given) in $T/tw/TAG (the same name length).
run_twin() {
	rm -rf "$T/tw"
	mkdir -p "$T/tw/$3/d"
	cd "$T/tw/$3" || exit 1
	echo hello > f
	echo abc > d/g
	head -c 20000 /dev/zero > z
	ln -s f sl
	touch -h -d '2025-01-02 03:04' f d/g sl d z
	if [ $# -gt 3 ]; then
		$1 -D "$2" < "$4" > "$T/tout_$3" 2> "$T/terr_$3"
	else
		$1 -b "$T/b4" -D "$2" > "$T/tout_$3" 2> "$T/terr_$3"
	fi
	echo "rc $?" >> "$T/tout_$3"
	cd "$T" || exit 1
	# One tag's path is the other's; dates and df figures vary.
	sed -i -e "s#/tw/$3#/tw/X#g" \
	    -e 's/ [A-Z][a-z][a-z] [ 0-9][0-9] [ 0-9][0-9]:*[0-9][0-9] / DATE /' \
	    -e '/^ *[0-9][0-9]* *[0-9][0-9]* /d' "$T/tout_$3" "$T/terr_$3"
}
for srv in "$BIN/sftp-server" "$DEB" "$DEB -P users-groups-by-id"; do
	run_twin sftp "$srv" deb
	run_twin "$BIN/sftp" "$srv" our
	check "transcript as Debian's sftp's ($srv)" \
	    cmp -s "$T/tout_deb" "$T/tout_our"
	check "errors as Debian's sftp's ($srv)" \
	    cmp -s "$T/terr_deb" "$T/terr_our"
	cmp -s "$T/tout_deb" "$T/tout_our" ||
	    diff "$T/tout_deb" "$T/tout_our" >&2
	cmp -s "$T/terr_deb" "$T/terr_our" ||
	    diff "$T/terr_deb" "$T/terr_our" >&2
done
check "the transcript has ls -l lines" grep -q '^-rw-r--r-- .* f$' "$T/tout_our"

# Not in batch mode: "Fetching", "Uploading", "Removing"... are shown.
cat > "$T/b4p" <<'EOB'
get f f2
put f2 f5
get -r d d2
put -r d2 d3
rm f5
-rm nonexist
get *
reget z z
reput z z
put -a f fa
chmod 600 f2
get d
put d
EOB
run_twin sftp "$BIN/sftp-server" deb "$T/b4p"
run_twin "$BIN/sftp" "$BIN/sftp-server" our "$T/b4p"
check "interactive transcript (stdin not a terminal) as Debian's" \
    cmp -s "$T/tout_deb" "$T/tout_our"
check "its errors as Debian's" cmp -s "$T/terr_deb" "$T/terr_our"
cmp -s "$T/tout_deb" "$T/tout_our" || diff "$T/tout_deb" "$T/tout_our" >&2
cmp -s "$T/terr_deb" "$T/terr_our" || diff "$T/terr_deb" "$T/terr_our" >&2
check "it says what it fetches" grep -q '^Fetching /.*/f to f2$' "$T/tout_our"

# Usage errors as Debian's.
for a in "-z" "-b" "" "-B 0 -D x" "-l 0 -D x"; do
	sftp $a > "$T/ud" 2>&1; echo "rc $?" >> "$T/ud"
	"$BIN/sftp" $a > "$T/uo" 2>&1; echo "rc $?" >> "$T/uo"
	check "usage error as Debian's: sftp $a" cmp -s "$T/ud" "$T/uo"
done


# 3. The argv ssh gets, as Debian's sftp builds it.
cat > "$T/fakessh" <<EOF
#!/bin/sh
for a in "\$@"; do printf '[%s]\n' "\$a"; done > "\$ARGV_OUT"
exit 1
EOF
chmod +x "$T/fakessh"
for c in deb our; do
	[ $c = deb ] && prog=sftp || prog="$BIN/sftp"
	ARGV_OUT="$T/argv_$c" "$prog" -S "$T/fakessh" -P 2222 -i idf -v -C \
	    -o Foo=bar -b /dev/null sftp://u@h:33/x >/dev/null 2>&1
	ARGV_OUT="$T/argv2_$c" "$prog" -S "$T/fakessh" -q -s /usr/lib/x \
	    -b /dev/null h:x >/dev/null 2>&1
done
check "ssh argv as Debian's sftp's (sftp:// with port, options)" \
    cmp -s "$T/argv_deb" "$T/argv_our"
check "ssh argv as Debian's sftp's (-s server path)" \
    cmp -s "$T/argv2_deb" "$T/argv2_our"

make_keys
write_config <<EOC
Subsystem sftp $BIN/sftp-server
EOC
start_sshd
# our_sftp PORT ARGS...: our sftp through our ssh, key login.
our_sftp() {
	_p=$1; shift
	"$BIN/sftp" -S "$BIN/ssh" -F /dev/null -o BatchMode=yes \
	    -o StrictHostKeyChecking=no -o UserKnownHostsFile="$T/known_hosts" \
	    -o LogLevel=ERROR -o IdentitiesOnly=yes -i "$T/id_ed25519" \
	    -P "$_p" "$@"
}
rm -rf "$T/s" && mkdir "$T/s"
printf 'put %s %s/viassh\nget %s/viassh %s/viassh_got\nls %s\n' \
    "$T/big" "$T/s" "$T/s" "$T" "$T/s" > "$T/b5"
our_sftp "$PORT" -b "$T/b5" "$ME@127.0.0.1" > "$T/o5" 2>&1
check "our sftp through our ssh to our sshd" [ $? -eq 0 ]
check "the bytes arrive (our sshd)" \
    [ "$(sha256sum < "$T/viassh_got" 2>/dev/null)" = "$SUM" ]
our_sftp "$PORT" "$ME@127.0.0.1:$T/s/viassh" "$T/direct_got" \
    > "$T/o6" 2>&1
check "host:file fetches the file at once" \
    [ "$(sha256sum < "$T/direct_got" 2>/dev/null)" = "$SUM" ]
[ $FAILS -eq 0 ] || cat "$T/o5" "$T/o6" >&2

if [ "$(id -u)" = 0 ] && [ -x /usr/sbin/sshd ]; then
	DPORT=$(free_port)
	sed -e "s/^Port .*/Port $DPORT/" \
	    -e "s#^Subsystem .*#Subsystem sftp $DEB#" \
	    "$T/sshd_config" > "$T/debian_config"
	start_peer_sshd /usr/sbin/sshd "$T/debian_config" "$T/debian.log"
	rm -f "$T/viassh_got"
	our_sftp "$DPORT" -b "$T/b5" "$ME@127.0.0.1" > "$T/o7" 2>&1
	check "our sftp through our ssh to Debian's sshd" [ $? -eq 0 ]
	check "the bytes arrive (Debian's sshd)" \
	    [ "$(sha256sum < "$T/viassh_got" 2>/dev/null)" = "$SUM" ]
	[ $FAILS -eq 0 ] || cat "$T/o7" >&2
else
	echo "not root or no /usr/sbin/sshd: Debian's sshd part skipped" >&2
fi
finish
