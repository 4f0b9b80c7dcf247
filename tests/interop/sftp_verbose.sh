#!/bin/sh
# sftp -v and -vv: our sftp's own debug lines ("Remote version", the
# server's extensions, "Sending SSH2_FXP_..." with the paths, do_upload
# and do_download, "stat remote" at debug1) as Debian's sftp prints
# them for the same batch against Debian's sftp-server, "\r\n"-ended
# and escaped as its log escapes. Left out of the comparison: the
# home-directory extension (Debian's 9.2 does not know it; we use it),
# and the STAT and OPEN requests, which we send at other moments.
. "$(dirname "$0")/lib.sh"
[ -x "$BIN/sftp" ] || skip "sftp not built"
[ -x /usr/bin/sftp ] || skip "Debian's sftp not installed"
DEB_SERVER=/usr/lib/openssh/sftp-server
[ -x "$DEB_SERVER" ] || skip "Debian's sftp-server not installed"

echo hello > "$T/src"
cat > "$T/batch" <<EOB
cd $T/w
mkdir d
put $T/src h
get h h2
ls -l
rename h h3
chmod 600 h3
ln -s h3 sl
ln h3 hl
symlink h3 sl2
rm sl2
rmdir d
df
-cd nonexist
-get nonexist
-rm nonexist
-get "esc$(printf '\033')x\\\\y"
EOB
for v in -v -vv; do
	for who in deb ours; do
		prog=/usr/bin/sftp
		[ $who = ours ] && prog=$BIN/sftp
		rm -rf "$T/w"
		mkdir "$T/w"
		(cd "$T/w" && "$prog" $v -b "$T/batch" -D "$DEB_SERVER" \
		    > "$T/$who.out" 2> "$T/$who.err")
		echo "status $?" >> "$T/$who.err"
		grep -v -e 'extension "home-directory"' \
		    -e 'Sending SSH2_FXP_STAT ' -e 'Sending SSH2_FXP_OPEN ' \
		    "$T/$who.err" > "$T/$who$v"
	done
	check "sftp $v: the debug lines are Debian's" \
	    cmp "$T/deb$v" "$T/ours$v"
done
check "-vv shows requests" grep -q 'Sending SSH2_FXP_MKDIR' "$T/ours-vv"
check "-vv lines end with CR LF" grep -q "Remote version: 3$(printf '\r')\$" \
    "$T/ours-vv"
check "-v shows no debug2 line" sh -c "! grep -q debug2 '$T/ours-v'"
check "a name in a message is escaped" grep -q -F 'esc\033x\\' \
    "$T/ours-vv"
finish
