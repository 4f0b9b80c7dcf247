#!/bin/sh
# Names with control characters, invalid and unprintable UTF-8, wide
# characters, backslashes and glob characters, listed and named in
# errors by our sftp and by Debian's sftp in the same directory: the
# bytes on stdout and on stderr are the same (OpenSSH's escapes: \ooo
# for what cannot be shown, tab/newline/CR as they are, printable UTF-8
# only under a UTF-8 locale), under LANG=C.UTF-8 and LANG=C, against
# Debian's sftp-server and ours. Also the words of a command line that
# do not close: an open quote and a trailing backslash (which once made
# our sftp loop without end).
. "$(dirname "$0")/lib.sh"
[ -x "$BIN/sftp" ] || skip "sftp not built"
[ -x /usr/bin/sftp ] || skip "Debian's sftp not installed"
DEB_SERVER=/usr/lib/openssh/sftp-server
[ -x "$DEB_SERVER" ] || skip "Debian's sftp-server not installed"

W=$T/names
mkdir -p "$W" "$T/dl"
cd "$W" || exit 1
for n in 'nl\nx' 'tab\tx' 'ctl\001x' 'utf\303\251x' 'bad\377x' 'bs\\x' \
    'sp ace' 'del\177x' 'c1\302\205x' 'cr\rx' 'esc\033x' 'bel\007x' \
    'bsp\010x' 'ff\014x' 'wide\344\270\255x' 'br[1]x'; do
	: > "$(printf "$n")"
done
mkdir "$(printf 'dir\033]0;title\007')"
: > "$(printf 'dir\033]0;title\007')/inner\001"

printf '%s\n' ls 'ls -1' 'ls -l' 'ls -n' 'ls -la' 'ls *x' 'ls -l b*' \
    'ls dir*' > "$T/batch"
printf -- '-get "utf\303\251none"\n-get "cr\rnone"\n-get "bel\anone"\n' \
    >> "$T/batch"
printf -- '-get "ff\fnone"\n-get "esc\033none"\n-get bs\\\\none\n' \
    >> "$T/batch"
printf -- '-get x\\*\n-rm "bad\377none"\n-cd "esc\033none"\n' >> "$T/batch"
printf -- '-ls "tab\tnone"\n' >> "$T/batch"
printf -- '-rename "esc\033none" "nl\001none"\n' >> "$T/batch"
printf 'get "esc\033x" %s\nget "utf\303\251x" %s\n' "$T/dl" "$T/dl" \
    >> "$T/batch"
printf -- '-get "wide\344\270\255x" /nonexistent/x\n' >> "$T/batch"
printf -- '-put "/nonexistent/\001x"\n-chmod 644 "ctl\001none"\n' \
    >> "$T/batch"
printf -- "-ls 'open\n-ls \"open\n-ls a'b\n-ls tail\\\\\n" >> "$T/batch"
printf 'get -r dir* %s\n' "$T/dl" >> "$T/batch"

for loc in C.UTF-8 C; do
	for srv in "$DEB_SERVER" "$BIN/sftp-server"; do
		s=$(basename "$(dirname "$srv")")
		for who in deb ours; do
			prog=/usr/bin/sftp
			[ $who = ours ] && prog=$BIN/sftp
			rm -rf "$T/dl"/*
			LANG=$loc LC_ALL= timeout 30 "$prog" -N -b "$T/batch" \
			    -D "$srv" > "$T/$who.out" 2> "$T/$who.err"
			echo "status $?" >> "$T/$who.err"
			sed -i '/^Attached to /d' "$T/$who.err"
		done
		check "$loc, $s's server: stdout as Debian's sftp" \
		    cmp "$T/deb.out" "$T/ours.out"
		check "$loc, $s's server: stderr as Debian's sftp" \
		    cmp "$T/deb.err" "$T/ours.err"
	done
done
# The transcript really holds escapes (not a pass of two empty files).
check "an escape shows in the listing" grep -q -F 'esc\033x' "$T/ours.out"
check "no raw ESC reaches stdout" sh -c "! grep -q \"$(printf '\033')\" \
    '$T/ours.out'"
check "nor stderr" sh -c "! grep -q \"$(printf '\033')\" '$T/ours.err'"
finish
