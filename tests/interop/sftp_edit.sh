#!/bin/sh
# sftp's interactive prompt on a terminal (sftp_edit.py types through a
# pty), with the server run by -D: tab completion of a command's name,
# of a remote name with a space (unquoted and inside a quote), of a
# remote directory then a file in it, of two names that share a start
# (both listed, the common part added), of a name with glob characters
# (escaped so only that file is fetched), of put's and lcd's local
# names; history (up-arrow runs pwd again) and ^A/^E editing; ^D ends
# with status 0; the progress meter shows the file's last name.
# Debian's sftp typed at the same way does the same.
. "$(dirname "$0")/lib.sh"
[ -x "$BIN/sftp" ] || skip "sftp not built"
DEB_SERVER=/usr/lib/openssh/sftp-server
[ -x "$DEB_SERVER" ] || skip "Debian's sftp-server not installed"
DRV="$SRC/tests/interop/sftp_edit.py"

# drive NAME SFTP: a fresh remote and local tree, the keys typed.
drive() {
	name=$1 prog=$2
	R=$T/$name/remote L=$T/$name/local
	mkdir -p "$R/sub" "$L/ldir"
	echo space > "$R/Remote file.txt"
	echo quoted > "$R/Quoted name.txt"
	echo deep > "$R/sub/deep.txt"
	echo one > "$R/abc1"
	echo two > "$R/abc2"
	echo bracket > "$R/brack[1]"
	echo local > "$L/localfile.txt"
	(cd "$L" && "$PY" "$DRV" "$T/$name.out" "$R" -- "$prog" \
	    -D "$BIN/sftp-server") 2>"$T/$name.drv" || cat "$T/$name.drv" >&2
}
# count NAME TEXT: how many lines of the terminal output hold TEXT.
count() { tr '\r' '\n' < "$T/$1.out" | grep -c -F -- "$2"; }

drive ours "$BIN/sftp"
check "the prompt is sftp> and ^D ends with status 0" \
    [ "$(cat "$T/ours.out.status")" = 0 ]
check "ver<TAB> completes to version" \
    [ "$(count ours "SFTP protocol version 3")" -ge 1 ]
check "get Rem<TAB>: a remote name with a space, fetched" \
    cmp "$T/ours/remote/Remote file.txt" "$T/ours/local/Remote file.txt"
check "get \"Quo<TAB>: completed inside the quote and closed" \
    cmp "$T/ours/remote/Quoted name.txt" "$T/ours/local/Quoted name.txt"
check "get su<TAB>dee<TAB>: a directory, then a file in it" \
    cmp "$T/ours/remote/sub/deep.txt" "$T/ours/local/deep.txt"
check "get abc<TAB>: both matches listed" \
    [ "$(count ours "abc1  abc2")" -ge 1 ]
check "... the common start added (abc + 2 typed fetches abc2 only)" \
    test -f "$T/ours/local/abc2" -a ! -e "$T/ours/local/abc1"
check "get bra<TAB>: glob characters escaped, brack[1] fetched" \
    [ -f "$T/ours/local/brack[1]" ]
check "put loc<TAB>: a local name completed and sent" \
    cmp "$T/ours/local/localfile.txt" "$T/ours/remote/localfile.txt"
check "lcd ldi<TAB>: a local directory" \
    [ "$(count ours "Local working directory: $T/ours/local/ldir")" -eq 1 ]
check "up-arrow and ^A/^E: pwd runs three times" \
    [ "$(count ours "Remote working directory: $T/ours/remote")" -eq 3 ]
check "the progress meter names the file by its last part, as OpenSSH's" \
    sh -c "tr '\\r' '\\n' < '$T/ours.out' | grep -q '^deep.txt  *100%'"
check "lls -d ../loc<TAB>: completed relative to the local directory" \
    [ "$(count ours "../localfile.txt")" -ge 1 ]

# Debian's sftp, the same keys: the same files move.
if [ -x /usr/bin/sftp ]; then
	drive deb /usr/bin/sftp
	for side in remote local; do
		(cd "$T/deb/$side" && find . | sort) > "$T/deb.$side"
		(cd "$T/ours/$side" && find . | sort) > "$T/ours.$side"
		check "the $side tree ends as Debian's sftp leaves it" \
		    diff "$T/deb.$side" "$T/ours.$side"
	done
	check "pwd runs as often as under Debian's sftp" \
	    [ "$(count deb "Remote working directory:")" = \
	    "$(count ours "Remote working directory:")" ]
fi
finish
