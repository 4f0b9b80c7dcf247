#!/bin/sh
# Password timing does not tell which users exist: for account hashes
# made with yescrypt, SHA-512 and bcrypt (each at a cost other than
# libxcrypt's default one, so the cost must be copied too), a wrong
# password for a nonexistent user, for a locked account and for a user
# refused by DenyUsers takes as long as one for a real user (median of
# 20 attempts each, paramiko, UsePAM no). The margin is wide (0.5x to
# 2x): a fake hash of another method or cost is off by 3x or more on
# such hashes, jitter by far less.
#
# The server imitates the form most accounts in /etc/shadow share, so
# for each method the test makes more accounts of that form than there
# are other usable hashes (the ctest entry runs serially: no other test
# of the suite adds users meanwhile). Root only; the users are removed.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root to create users and read /etc/shadow"
need useradd
"$PY" -c 'import paramiko' 2>/dev/null || skip "python3-paramiko not installed"
HELPER="$SRC/tests/interop/passwd_timing.py"
N=20
PW="moat-Tm-$$-pw"
P=mpt$$u		# the users: ${P}0, ${P}1, ...
NOUSER=mpt$$none	# never created
LOCKED=${P}l		# "!" + a hash of the form
DENIED=${P}d		# in DenyUsers

# The names of the accounts with a usable hash (as the server counts).
usable_names() {
	awk -F: '$2 != "x" && $2 !~ /^[!*]/ &&
	    ($2 ~ /^\$/ || length($2) == 13) { print $1 }' /etc/shadow
}

make_keys
restart_sshd "PasswordAuthentication yes" "KbdInteractiveAuthentication no" \
    "PubkeyAuthentication no" "UsePAM no" "MaxAuthTries 100" \
    "DenyUsers $DENIED"

# new_user NAME HASH
new_user() {
	useradd -M -s /bin/sh -p "$2" "$1" || skip "useradd failed"
	at_exit "userdel '$1' >/dev/null 2>&1"
}

# add_users PREFIX COUNT: more users ${P}0, ${P}1... with hashes of that
# form, until they outnumber the other usable hashes by 3 (tests run by
# hand alongside may be adding users with other hashes).
add_users() {
	while :; do
		others=$(usable_names | grep -vc "^$P")
		[ "$MINE" -gt $((others + 2)) ] && return 0
		[ "$MINE" -lt 60 ] || skip "$others password accounts: too many to outvote"
		h=$("$PY" "$HELPER" hash "$1" "$2" "$PW") || return 1
		new_user "$P$MINE" "$h"
		MINE=$((MINE + 1))
	done
}

# within REAL OTHER: OTHER ms within 0.5x..2x of REAL ms.
within() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(b >= a / 2 && b <= a * 2) }'
}

# try LABEL PREFIX COUNT: users whose hashes have that form, timed.
try() {
	label=$1 prefix=$2 cost=$3
	MINE=0
	h=$("$PY" "$HELPER" hash "$prefix" "$cost" "$PW") &&
	    add_users "$prefix" "$cost" || { fail "$label: no hash made"; return; }
	new_user "$LOCKED" "!$h"
	new_user "$DENIED" "$h"
	form=$(getent shadow "${P}0" | cut -d: -f2 | cut -c1-16)
	# A second run only when the first is out of bounds: a busy
	# machine can upset one run; a wrong method or cost upsets both.
	for run in 1 2; do
		add_users "$prefix" "$cost" ||
		    { fail "$label: no hash made"; break; }
		out=$("$PY" "$HELPER" time "$PORT" "$N" "$PW" "${P}0" \
		    "$NOUSER" "$LOCKED" "$DENIED") ||
		    { fail "$label: timing run failed"; break; }
		set -- $out
		echo "$label ($form...) run $run, medians of $N:" \
		    "existing user $1 ms, nonexistent $2 ms, locked $3 ms," \
		    "DenyUsers $4 ms"
		if within "$1" "$2" && within "$1" "$3" && within "$1" "$4"; then
			pass "$label: the fake users within 0.5x..2x of a real one"
			break
		elif [ $run = 2 ]; then
			fail "$label: the fake users within 0.5x..2x of a real one"
		fi
	done
	i=0
	while [ $i -lt "$MINE" ]; do userdel "$P$i" >/dev/null 2>&1; i=$((i + 1)); done
	userdel "$LOCKED" >/dev/null 2>&1
	userdel "$DENIED" >/dev/null 2>&1
}

# Costs that take some 10-30 ms here: more than the jitter of a round
# trip, while libxcrypt's default yescrypt (the old fake) takes 100+.
try yescrypt '$y$' 3
try SHA-512 '$6$' 40000
try bcrypt '$2b$' 8

# Each user took the path the test meant it to.
grep -q "Failed password for ${P}0 from" "$T/sshd.log"
check "the real user's attempts were checked as a real user's" [ $? -eq 0 ]
grep -q "Failed password for invalid user $NOUSER from" "$T/sshd.log"
check "the nonexistent user is an invalid user" [ $? -eq 0 ]
grep -q "User $LOCKED not allowed because account is locked" "$T/sshd.log"
check "the locked user is refused as locked" [ $? -eq 0 ]
grep -q "User $DENIED from 127.0.0.1 not allowed because listed in DenyUsers" \
    "$T/sshd.log"
check "the DenyUsers user is refused as listed" [ $? -eq 0 ]
finish
