#!/bin/sh
# Our sftp-server against Debian's OpenSSH clients and paramiko.
#
# 1. Debian's `sftp -D` runs one batch (put/get of a 20 MiB file, ls -l,
#    mkdir/rmdir, rename, ln and ln -s, chmod, df, reput/reget) against
#    our sftp-server and then against Debian's, in the same directory:
#    the files must match (sha256), the transcripts must match with dates
#    and df figures left out, and the INFO log lines must be the same.
# 2. -R refuses a put as Debian's does.
# 3. Through our sshd (`Subsystem sftp` our sftp-server): Debian's sftp
#    and Debian's scp (which speaks SFTP) with a key login, and paramiko's
#    SFTPClient.
. "$(dirname "$0")/lib.sh"
need sftp
need scp
need sha256sum
DEB=/usr/lib/openssh/sftp-server
[ -x "$DEB" ] || skip "Debian's sftp-server not installed"
[ -x "$BIN/sftp-server" ] || skip "sftp-server not built"
export SSH_CONNECTION="127.0.0.1 40000 127.0.0.1 22"

head -c 20971520 /dev/urandom > "$T/big"
head -c 5242880 "$T/big" > "$T/big_head5"
head -c 3145728 "$T/big" > "$T/big_head3"
SUM=$(sha256sum < "$T/big")

cat > "$T/batch" <<EOB
put $T/big big
get big $T/got
ls
mkdir d
put $T/big_head3 d/small
ls -l d
-rmdir d
rm d/small
rmdir d
rename big big2
ln big2 hard
ln -s big2 soft
ls -l
chmod 640 hard
ls -l hard
df
rm hard
rm soft
put $T/big_head5 part
reput $T/big part
reget big2 $T/partial
get -p part $T/got_p
ls
EOB

# run_batch SERVER TAG: the batch in a fresh $T/w; transcript, log, sums.
run_batch() {
	rm -rf "$T/w" "$T/got" "$T/got_p"
	mkdir "$T/w"
	cp "$T/big_head3" "$T/partial"
	(cd "$T/w" && sftp -b "$T/batch" -D "$1 -e -l INFO" \
	    >"$T/out_$2" 2>"$T/log_$2")
	# OpenSSH ends its stderr log lines with CR LF.
	tr -d '\r' < "$T/log_$2" > "$T/log_$2.tmp" && mv "$T/log_$2.tmp" "$T/log_$2"
	echo $? > "$T/rc_$2"
	# Dates and df figures vary between runs; the rest must not.
	sed -e 's/ [A-Z][a-z][a-z] [ 0-9][0-9] [ 0-9][0-9]:*[0-9][0-9] / DATE /' \
	    -e '/^ *[0-9][0-9]* *[0-9][0-9]* /d' "$T/out_$2" > "$T/norm_$2"
	{
		sha256sum < "$T/got"
		sha256sum < "$T/w/part"
		sha256sum < "$T/partial"
		sha256sum < "$T/got_p"
		stat -c '%a %h' "$T/w/part"
	} > "$T/sums_$2" 2>&1
}

run_batch "$BIN/sftp-server" ours
run_batch "$DEB" deb
check "batch succeeds against ours" [ "$(cat "$T/rc_ours")" = 0 ]
check "batch succeeds against Debian's" [ "$(cat "$T/rc_deb")" = 0 ]
check "20 MiB put/get, reput and reget keep the bytes" \
    [ "$(sed -n 1,4p "$T/sums_ours" | sort -u)" = "$SUM" ]
check "the same files as Debian's server leaves" \
    cmp -s "$T/sums_ours" "$T/sums_deb"
check "the same transcript as with Debian's server" \
    cmp -s "$T/norm_ours" "$T/norm_deb"
check "ls -l shows the files" grep -q ' part$' "$T/out_ours"
check "df prints figures" grep -q 'Capacity' "$T/out_ours"
check "the same INFO log lines as Debian's server" \
    cmp -s "$T/log_ours" "$T/log_deb"
check "log: session opened" grep -q \
    '^session opened for local user '"$ME"' from \[127.0.0.1\]$' "$T/log_ours"
check "log: open" grep -q "^open \"$T/w/big\" flags WRITE,CREATE,TRUNCATE mode 0644$" \
    "$T/log_ours"
check "log: close" grep -q "^close \"$T/w/big\" bytes read 0 written 20971520$" \
    "$T/log_ours"
if [ "$FAILS" -ne 0 ]; then
	diff "$T/norm_deb" "$T/norm_ours" >&2
	diff "$T/log_deb" "$T/log_ours" >&2
	diff "$T/sums_deb" "$T/sums_ours" >&2
fi

# READDIR's longnames (`ls -l` lines) byte for byte, on files of each
# kind: a directory, a symlink, a FIFO, modes with set-id bits, an old
# date (the year shown), sizes wide and small.
mkdir "$T/lsd" "$T/lsd/sub"
: > "$T/lsd/empty"
cp "$T/big_head3" "$T/lsd/mid"
ln -s mid "$T/lsd/link"
mkfifo "$T/lsd/fifo"
chmod 4751 "$T/lsd/mid"
chmod 1777 "$T/lsd/sub"
touch -d '2001-02-03 04:05' "$T/lsd/empty"
"$PY" "$(dirname "$0")/sftp_server_ls.py" "$BIN/sftp-server" "$T/lsd" \
    > "$T/ls_ours"
"$PY" "$(dirname "$0")/sftp_server_ls.py" "$DEB" "$T/lsd" > "$T/ls_deb"
same_ls() { [ -s "$T/ls_ours" ] && cmp -s "$T/ls_ours" "$T/ls_deb"; }
check "READDIR longnames as Debian's" same_ls
cmp -s "$T/ls_ours" "$T/ls_deb" || diff "$T/ls_deb" "$T/ls_ours" >&2

# -R: a put is refused, as by Debian's -R.
printf 'put %s ro\n' "$T/big_head3" > "$T/batch_ro"
for s in ours deb; do
	[ $s = ours ] && srv="$BIN/sftp-server" || srv=$DEB
	rm -rf "$T/w" && mkdir "$T/w"
	(cd "$T/w" && sftp -b "$T/batch_ro" -D "$srv -R" >"$T/ro_$s" 2>&1)
	echo $? >> "$T/ro_$s"
	[ ! -e "$T/w/ro" ] || echo "file created" >> "$T/ro_$s"
done
check "-R refuses a put" grep -q 'Permission denied' "$T/ro_ours"
check "-R as Debian's" cmp -s "$T/ro_ours" "$T/ro_deb"

# -Q requests and -h as Debian's.
check "-Q requests lists what Debian's lists" \
    [ "$("$BIN/sftp-server" -Q requests)" = "$("$DEB" -Q requests)" ]
"$BIN/sftp-server" -h > "$T/h_ours" 2>&1
"$DEB" -h > "$T/h_deb" 2>&1
check "-h usage as Debian's" cmp -s "$T/h_ours" "$T/h_deb"

# 3. Through our sshd.
make_keys
write_config <<EOC
Subsystem sftp $BIN/sftp-server -l INFO
EOC
start_sshd
rm -rf "$T/w" && mkdir "$T/w"
osftp() {
	sftp -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile="$T/known_hosts" -o LogLevel=ERROR \
	    -o IdentitiesOnly=yes -i "$T/id_ed25519" -P "$PORT" "$@"
}
printf 'put %s %s/viassh\nget %s/viassh %s/viassh_got\nls -l %s\n' \
    "$T/big" "$T/w" "$T/w" "$T" "$T/w" > "$T/batch_ssh"
osftp -b "$T/batch_ssh" "$ME@127.0.0.1" > "$T/out_ssh" 2>&1
check "Debian's sftp through our sshd" [ $? -eq 0 ]
check "sftp via sshd keeps the bytes" \
    [ "$(sha256sum < "$T/viassh_got")" = "$SUM" ]
scp -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
    -o UserKnownHostsFile="$T/known_hosts" -o LogLevel=ERROR \
    -o IdentitiesOnly=yes -i "$T/id_ed25519" -P "$PORT" \
    "$T/big" "$ME@127.0.0.1:$T/w/viascp" &&
scp -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
    -o UserKnownHostsFile="$T/known_hosts" -o LogLevel=ERROR \
    -o IdentitiesOnly=yes -i "$T/id_ed25519" -P "$PORT" \
    "$ME@127.0.0.1:$T/w/viascp" "$T/viascp_got"
check "Debian's scp (SFTP mode) through our sshd" [ $? -eq 0 ]
check "scp keeps the bytes" [ "$(sha256sum < "$T/viascp_got" 2>/dev/null)" = "$SUM" ]

if "$PY" -c 'import paramiko' 2>/dev/null; then
	"$PY" "$(dirname "$0")/sftp_server_paramiko.py" 127.0.0.1 "$PORT" \
	    "$ME" "$T/id_ed25519" "$T/w"
	check "paramiko SFTPClient put/get/listdir/stat/rename/remove" \
	    [ $? -eq 0 ]
else
	echo "paramiko not installed: its part skipped" >&2
fi
finish
