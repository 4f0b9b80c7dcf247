#!/bin/sh
# Failed logins in btmp, as Debian's sshd records them, driven by Debian's
# OpenSSH client (passwords through SSH_ASKPASS, no terminal) and read
# back with utmpdump: a wrong password adds one LOGIN_PROCESS record
# (ut_id empty, the user, line "ssh:notty", host and address 127.0.0.1,
# the connection's pid, the time in whole seconds); a user that does not
# exist adds one more when the name is first seen, so a "none" request
# for it adds one; keyboard-interactive through PAM adds one per failed
# answer, and so does a password refused by PAM's account check.
# Nothing is added for a failed publickey or "none" of an existing user,
# a right password, a connection closed before authentication, or
# keyboard-interactive without PAM (no device, nothing checked). After
# MaxAuthTries wrong passwords there is one record for each. A missing
# btmp is not created, and one others may read is left alone.
#
# Needs root: btmp is root's, and the test makes a user and a PAM service
# file. The system's /var/log/btmp is copied aside first and put back on
# exit (a missing one is removed again). Other tests may fail logins at
# the same time, so each check reads only the records added since its
# case began, for this test's own user names. Debian's sshd passes it
# too (MOAT_BIN set to a directory holding a link to it).
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root"
need ssh
need ssh-keyscan
need setsid
need utmpdump
need useradd
need chpasswd

BTMP=/var/log/btmp
if [ -e "$BTMP" ]; then
	cp -p "$BTMP" "$T/btmp.saved" || skip "cannot copy $BTMP aside"
	at_exit "cp -p '$T/btmp.saved' '$BTMP'"
else
	at_exit "rm -f '$BTMP'"
fi
# The file as Debian keeps it, and as our records need it.
fresh_btmp() {
	: > "$BTMP" && chown root:utmp "$BTMP" 2>/dev/null
	chmod 660 "$BTMP"
}
# Start from the mode Debian gives it, whatever an earlier run left
# (the saved copy, mode included, goes back at exit).
fresh_btmp

U=moatb$$
NOUSER=moatnb$$
PW="Moat-pass-$$-b"
SVC=moat-btmp-test-$$
make_user "$U" "$PW"
pam_service "$SVC" <<EOC
auth required pam_unix.so nodelay
account required pam_unix.so
session required pam_permit.so
password required pam_unix.so
EOC

make_keys
ssh-keygen -q -t ed25519 -N '' -f "$T/stranger" -C stranger >/dev/null
cat > "$T/askpass" <<EOC
#!/bin/sh
cat "$T/answer"
EOC
chmod 755 "$T/askpass"

# pw USER METHOD ANSWER [ssh args]: log in with METHOD (password or
# keyboard-interactive) answering every prompt with ANSWER; prints the
# remote user name on success. The ssh args come first: ssh keeps the
# first value of an option.
pw() {
	u=$1 meth=$2
	printf '%s\n' "$3" > "$T/answer"
	shift 3
	SSH_ASKPASS="$T/askpass" SSH_ASKPASS_REQUIRE=force DISPLAY=none \
	setsid -w ssh "$@" -F /dev/null -o BatchMode=no \
	    -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
	    -o LogLevel=ERROR -o PubkeyAuthentication=no \
	    -o PreferredAuthentications="$meth" -o NumberOfPasswordPrompts=1 \
	    -p "$PORT" "$u@127.0.0.1" 'id -un' </dev/null 2>>"$T/ssh.err"
}
# stranger USER: publickey with a key not authorized (after "none").
stranger() {
	ID="$T/stranger" ossh -o PreferredAuthentications=publickey \
	    "$1@127.0.0.1" true </dev/null >/dev/null 2>&1
}

# mark: a case begins; recs USER: the records added since, for USER, as
# utmpdump prints them; nrecs USER: how many.
mark() { MARK=$(stat -c %s "$BTMP" 2>/dev/null || echo 0); }
recs() {
	tail -c +$((MARK + 1)) "$BTMP" > "$T/slice" 2>/dev/null
	TZ=UTC utmpdump "$T/slice" 2>/dev/null | grep "^\[[0-9]*\] \[[0-9]*\] \[[^]]*\] \[$1 *\]"
}
nrecs() { recs "$1" | wc -l | tr -d ' '; }
# A record as Debian's sshd writes it, for user $1 (any pid and time).
REC_RE='^\[6\] \[[0-9]*\] \[    \] \[USER *\] \[ssh:notty *\] \[127\.0\.0\.1 *\] \[127\.0\.0\.1 *\] \[[-0-9T:]*,000000+00:00\]$'
shaped() { # shaped USER N: N records, each of that form
	[ "$(nrecs "$1")" = "$2" ] &&
	    [ "$(recs "$1" | grep -c "$(echo "$REC_RE" | sed "s/USER/$1/")")" = "$2" ]
}
rec_pid() { recs "$1" | head -1 | sed -n 's/^\[6\] \[0*\([0-9]*\)\].*/\1/p'; }
rec_time() {
	recs "$1" | head -1 |
	    sed -n 's/.*\] \[\([-0-9]*\)T\([0-9:]*\),000000+00:00\]$/\1 \2 UTC/p' |
	    { read -r d && date -d "$d" +%s; }
}
between() { [ -n "$3" ] && [ "$3" -ge "$1" ] && [ "$3" -le "$2" ]; }

restart_sshd "PasswordAuthentication yes" "UsePAM no" \
    "KbdInteractiveAuthentication yes" "MaxAuthTries 3"

# A wrong password for an existing user: one record, every field.
mark
t0=$(date +%s)
check "wrong password refused" [ -z "$(pw "$U" password wrong)" ]
t1=$(date +%s)
check "wrong password: one record, LOGIN_PROCESS on ssh:notty" shaped "$U" 1
P=$(rec_pid "$U")
check "wrong password: ut_pid ($P) is a connection's, not the listener's" \
    sh -c "[ -n '$P' ] && [ '$P' -gt 1 ] && [ '$P' != '$SSHD_PID' ]"
check "wrong password: ut_tv in $t0..$t1" between "$t0" "$t1" "$(rec_time "$U")"

# A user that does not exist: one record for the name, one for the try.
mark
check "invalid user refused" [ -z "$(pw "$NOUSER" password wrong)" ]
check "invalid user, wrong password: two records" shaped "$NOUSER" 2

# Not recorded: publickey and none of an existing user, the right
# password, a connection closed before authentication.
mark
stranger "$U"
check "unknown key: refused" grep -q "Failed publickey for $U " "$T/sshd.log"
check "unknown key and none: no record" [ "$(nrecs "$U")" = 0 ]
check "right password: let in" [ "$(pw "$U" password "$PW")" = "$U" ]
check "right password: no record" [ "$(nrecs "$U")" = 0 ]
mark
ssh-keyscan -p "$PORT" 127.0.0.1 >/dev/null 2>&1
check "closed before authentication: nothing added" \
    [ "$(stat -c %s "$BTMP")" = "$MARK" ]

# "none" (then an unknown key) for a user that does not exist: the name.
mark
stranger "$NOUSER"
check "invalid user, none and publickey: one record" shaped "$NOUSER" 1

# Keyboard-interactive without PAM checks nothing: no record.
mark
check "kbd-int without PAM refused" \
    [ -z "$(pw "$U" keyboard-interactive wrong)" ]
check "kbd-int without PAM: no record" [ "$(nrecs "$U")" = 0 ]

# MaxAuthTries 3 wrong passwords: three records, then the disconnect.
mark
check "MaxAuthTries: refused" [ -z "$(pw "$U" password wrong \
    -o NumberOfPasswordPrompts=5)" ]
check "MaxAuthTries: disconnected" \
    grep -q "maximum authentication attempts exceeded for $U " "$T/sshd.log"
check "MaxAuthTries 3: three records" shaped "$U" 3

# A missing btmp is not created; one others may read is left alone.
rm -f "$BTMP"
pw "$U" password wrong >/dev/null
check "missing btmp: not created" [ ! -e "$BTMP" ]
fresh_btmp
chmod 664 "$BTMP"
mark
pw "$U" password wrong >/dev/null
check "btmp readable by others: no record" [ "$(nrecs "$U")" = 0 ]
chmod 660 "$BTMP"

# Through PAM: a wrong password, wrong kbd-int answers, and a right
# password refused by the account check (expired) each add one.
# OpenSSH 9.2 has no PAMServiceName: it then uses Debian's "sshd" stack.
SVCLINE="PAMServiceName $SVC"
printf 'HostKey %s\n%s\n' "$T/host_ed25519" "$SVCLINE" > "$T/probe"
"$BIN/sshd" -t -f "$T/probe" 2>/dev/null || SVCLINE="UsePAM yes"
restart_sshd "PasswordAuthentication yes" "UsePAM yes" "$SVCLINE" \
    "KbdInteractiveAuthentication yes"
mark
check "PAM: wrong password refused" [ -z "$(pw "$U" password wrong)" ]
check "PAM: wrong password: one record" shaped "$U" 1
mark
check "PAM: wrong kbd-int answer refused" \
    [ -z "$(pw "$U" keyboard-interactive wrong)" ]
check "PAM: wrong kbd-int answer: one record" shaped "$U" 1
mark
check "PAM: invalid user's kbd-int refused" \
    [ -z "$(pw "$NOUSER" keyboard-interactive wrong)" ]
check "PAM: invalid user, kbd-int: two records" shaped "$NOUSER" 2
mark
check "PAM: right kbd-int answer let in" \
    [ "$(pw "$U" keyboard-interactive "$PW")" = "$U" ]
check "PAM: right kbd-int answer: no record" [ "$(nrecs "$U")" = 0 ]
usermod -e 1 "$U"
mark
check "PAM: expired account refused" [ -z "$(pw "$U" password "$PW")" ]
check "PAM: refused by the account check: one record" shaped "$U" 1

finish
