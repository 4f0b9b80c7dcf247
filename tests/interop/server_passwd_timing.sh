#!/bin/sh
# Password timing does not tell which users exist: for account hashes
# made with yescrypt, SHA-512 and bcrypt (each at a cost other than
# libxcrypt's default one, so the cost must be copied too), a wrong
# password for a nonexistent user takes as long as one for a real user
# (median of 20 attempts each, paramiko, UsePAM no). The margin is wide
# (0.5x to 2x): a fake hash of another method or cost is off by 3x or
# more on such hashes, jitter by far less.
#
# The server imitates the form most accounts in /etc/shadow share, so
# for each method the test makes more accounts of that form than there
# are usable hashes already (the ctest entry runs serially: no other
# test adds users meanwhile). Root only; the users are removed.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root to create users and read /etc/shadow"
need useradd
"$PY" -c 'import paramiko' 2>/dev/null || skip "python3-paramiko not installed"
HELPER="$SRC/tests/interop/passwd_timing.py"
N=20
PW="moat-Tm-$$-pw"
P=mpt$$u		# the users: ${P}0, ${P}1, ...
NOUSER=mpt$$none	# never created

# Usable hashes already there (as the server counts them).
usable=$(awk -F: '$2 != "x" && $2 !~ /^[!*]/ &&
    ($2 ~ /^\$/ || length($2) == 13)' /etc/shadow | wc -l)
K=$((usable + 1))
[ "$K" -le 40 ] || skip "$usable password accounts here: too many to outvote"

make_keys
restart_sshd "PasswordAuthentication yes" "KbdInteractiveAuthentication no" \
    "PubkeyAuthentication no" "UsePAM no" "MaxAuthTries 100"

# try LABEL PREFIX COUNT: K users whose hashes have that form, timed.
try() {
	label=$1
	users=""
	i=0
	while [ $i -lt "$K" ]; do
		u=$P$i
		h=$("$PY" "$HELPER" hash "$2" "$3" "$PW") || {
			fail "$label: no hash made"; return; }
		useradd -M -s /bin/sh -p "$h" "$u" || skip "useradd failed"
		at_exit "userdel '$u' >/dev/null 2>&1"
		users="$users $u"
		i=$((i + 1))
	done
	form=$(getent shadow "${P}0" | cut -d: -f2 | cut -c1-16)
	# A second run only when the first is out of bounds: a busy
	# machine can upset one run; a wrong method or cost upsets both.
	for run in 1 2; do
		out=$("$PY" "$HELPER" time "$PORT" "${P}0" "$NOUSER" "$N" \
		    "$PW") || { fail "$label: timing run failed"; break; }
		set -- $out
		echo "$label ($form...) run $run: existing user $1 ms," \
		    "nonexistent user $2 ms (medians of $N)"
		if awk -v a="$1" -v b="$2" \
		    'BEGIN { exit !(b >= a / 2 && b <= a * 2) }'; then
			pass "$label: nonexistent user within 0.5x..2x of a real one"
			break
		elif [ $run = 2 ]; then
			fail "$label: nonexistent user within 0.5x..2x of a real one"
		fi
	done
	for u in $users; do userdel "$u" >/dev/null 2>&1; done
}

# Costs that take some 10-30 ms here: more than the jitter of a round
# trip, while libxcrypt's default yescrypt (the old fake) takes 100+.
try yescrypt '$y$' 3
try SHA-512 '$6$' 40000
try bcrypt '$2b$' 8

grep -q "Failed password for ${P}0 from" "$T/sshd.log"
check "the real user's attempts were checked as a real user's" [ $? -eq 0 ]
grep -q "Failed password for invalid user $NOUSER from" "$T/sshd.log"
check "the nonexistent user's attempts were refused as an invalid user's" \
    [ $? -eq 0 ]
finish
