#!/bin/sh
# keygen_moduli.sh: ssh-keygen -M generate and -M screen against Debian's
# OpenSSH 9.2 ssh-keygen, and the groups they make in use by our sshd.
#
# - Errors: the same messages and exit status as OpenSSH's for bad -O
#   options, missing files and the rest.
# - Our 512-bit candidates pass an independent check (moduli_check.py:
#   Python integers only), and screening them with ours and with
#   OpenSSH's finds the same groups; OpenSSH's screen takes our screened
#   file back whole. Candidates OpenSSH generated (a stored file: its
#   generator takes minutes) and groups from Debian's /etc/ssh/moduli are
#   screened by ours to the same groups as by OpenSSH's.
# - Every screened line passes moduli_check.py (p and (p-1)/2 probable
#   primes, OpenSSH's generator, and that generator of order p - 1).
# - Screening appends; a screen stopped part way resumes from its
#   checkpoint (ours and OpenSSH's read each other's) to the same groups
#   as a single run; lines= and start-line= cut the same ranges as
#   OpenSSH's.
# - Malformed and hostile candidate lines are skipped, the good ones
#   among them screened.
# - Our sshd and Debian's (as root), each given a 2048-bit group we
#   generated and screened (ModuliFile), serve it for
#   diffie-hellman-group-exchange-sha256 to Debian's ssh, and to
#   paramiko, which shows the prime it was sent.
. "$(dirname "$0")/lib.sh"
need ssh
K=$BIN/ssh-keygen
O=${OPENSSH_KEYGEN:-/usr/bin/ssh-keygen}
[ -x "$O" ] || skip "no OpenSSH ssh-keygen"
CHECKER=$SRC/tests/interop/moduli_check.py
DEBCAND=$SRC/tests/interop/data/openssh92-512.candidates
cd "$T" || exit 1

# The groups of a moduli file, one "type tests tries size gen p" a line,
# sorted: what two screens of the same input must agree on.
groups() { cut -d' ' -f2- "$1" | sort; }
same_groups() { # same_groups "what" file1 file2
	groups "$2" > "$2.g"
	groups "$3" > "$3.g"
	check "$1" cmp -s "$2.g" "$3.g"
}
# Progress lines start with ctime(3)'s stamp, which no two runs share,
# and end in "\r\n" as OpenSSH's log writes them.
unstamp() {
	tr -d '\r' |
	    sed 's/^[A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 0-9][0-9] [0-9:]* [0-9]* //'
}
# alike "what" args...: ours and OpenSSH's print the same (stamps aside)
# and exit alike, each in a fresh directory.
alike() {
	what=$1; shift
	rm -rf a b; mkdir a b
	(cd a && "$O" "$@" > out 2>&1; echo "rc=$?" >> out)
	(cd b && "$K" "$@" > out 2>&1; echo "rc=$?" >> out)
	unstamp < a/out > a/out2; unstamp < b/out > b/out2
	if cmp -s a/out2 b/out2; then
		pass "$what"
	else
		fail "$what"; echo "--- OpenSSH:"; cat a/out2; echo "--- ours:"
		cat b/out2
	fi
}
checker() { "$PY" "$CHECKER" "$@" > checker.out 2>&1 || { cat checker.out; false; }; }

# --- Errors and options, message for message. ---
alike "no output file" -M generate -O bits=1024
alike "two output files" -M generate -O bits=1024 a b
alike "unknown -M operation" -M bogus out
alike "too few bits" -M generate -O bits=511 out
alike "too many bits" -M generate -O bits=70000 out
alike "memory not a number" -M generate -O memory=12x -O bits=1024 out
alike "memory zero" -M generate -O memory=0 -O bits=1024 out
alike "memory too large" -M generate -O memory=4294967296 out
alike "memory out of range" -M generate -O memory=128 -O bits=1024 out
alike "memory checked before bits" -M generate -O memory=5 -O bits=9 out
alike "bad start point" -M generate -O start=zz -O bits=1024 out
alike "option of screening in generation" -M generate -O lines=5 out
alike "option of generation in screening" -M screen -O bits=5 -f /dev/null o
alike "option without a value" -M screen -O lines -f /dev/null o
alike "generator zero" -M screen -O generator=0 -f /dev/null o
alike "generator junk" -M screen -O generator=2x -f /dev/null o
alike "prime-tests too large" -M screen -O prime-tests=2147483648 \
    -f /dev/null o
alike "prime-tests empty" -M screen -O prime-tests= -f /dev/null o
alike "unreadable candidates file" -M screen -f /nonexistent/c o
alike "unwritable output (generate)" -M generate -O bits=512 /nonexistent/o
alike "unwritable output (screen)" -M screen -f /dev/null /nonexistent/o
alike "empty candidates file" -M screen -f /dev/null o
# OpenSSH 9.2 has dropped the old -G and -T (and -W, -S, -J, -j): an
# unknown option, the usage and exit 1, from both.
for old in "-G o -b 1024" "-T o -f /dev/null" "-W 2" "-J 5" "-j 5"; do
	"$O" $old > a.out 2>&1; a=$?
	"$K" $old > b.out 2>&1; b=$?
	ok=n
	[ $a = 1 ] && [ $b = 1 ] && grep -q '^usage:' a.out &&
	    grep -q '^usage:' b.out && ok=y
	check "$old: usage and exit 1, as OpenSSH 9.2" [ $ok = y ]
done

# --- Generation. ---
# The 2048-bit group for the sshd at the end takes longest to find (a
# safe prime turns up about once in 1,500 candidates, seconds of one
# core): its screen runs beside everything else from here on.
"$K" -M generate -O bits=2048 cand2048 2>/dev/null
check "generate 2048 bits" [ -s cand2048 ]
: > moduli
"$K" -M screen -f cand2048 moduli > s2048.err 2>&1 &
spid=$!
at_exit "kill $spid 2>/dev/null"

"$K" -M generate -O bits=512 cand > gen.err 2>&1
check "generate 512 bits" [ $? -eq 0 ]
n=$(grep -c . cand)
unstamp < gen.err | sed 's/[0-9][0-9]*/N/g' > gen.shape
printf '%s\n' "Sieve next N plus N-bit" \
    "Sieved with N small primes in N seconds" "Found N candidates" > want
check "generate prints OpenSSH's three progress lines" cmp -s gen.shape want
check "generate's count is the lines written ($n)" \
    grep -q "Found $n candidates" gen.err
check "every candidate passes the independent check" \
    checker --min 500 candidates cand
# A start point: the same candidates twice, the first at or above it.
S=$("$PY" -c 'print("%X" % (2**510 + 1234567))')
"$K" -M generate -O bits=512 -O start=$S st1 2>/dev/null &&
    "$K" -M generate -O bits=512 -O start=$S st2 2>/dev/null
same_groups "generate from -O start is repeatable" st1 st2
first=$(head -n 1 st1 | cut -d' ' -f7)
check "the first candidate is at or above the start" "$PY" -c "
import sys; sys.exit(int('$first', 16) < 2**510 + 1234567)"
check "no 1024-bit candidates from a 512-bit start" [ "$("$K" -M \
    generate -O bits=1024 -O start=$S st3 2>&1 | grep -c 'Found 0 cand')" = 1 ]
printf 'old\n' > trunc
"$K" -M generate -O bits=512 trunc 2>/dev/null
check "generate overwrites its output file" [ "$(grep -c old trunc)" = 0 ]

# --- Screening: ours and OpenSSH's agree. ---
"$K" -M screen -f cand ours > scr.err 2>&1
check "screen our candidates" [ $? -eq 0 ]
"$O" -M screen -f cand theirs 2>/dev/null
check "OpenSSH's screen takes our candidates" [ -s theirs ]
same_groups "the same groups from our candidates, screened by either" \
    ours theirs
m=$(grep -c . ours)
check "screen's count is the groups written ($m)" grep -q "Found $m safe" \
    scr.err
check "every group we screened passes the independent check" \
    checker screened ours
"$O" -M screen -f ours again 2>/dev/null
"$K" -M screen -f ours again_ours 2>/dev/null
check "OpenSSH's screen keeps every group of ours" \
    [ "$(grep -c . again)" = "$m" ]
same_groups "... as ours does, the rounds added up alike" again again_ours
# OpenSSH's candidates from a start point (the file's first line says) are
# all among ours from the same start: our sieve strikes out less.
S=$("$PY" -c 'print("%X" % (2**510 + 123456789))')
"$K" -M generate -O bits=512 -O start=$S st_ours 2>/dev/null
grep -v '^#' "$DEBCAND" | cut -d' ' -f7 | sort > st_theirs.q
cut -d' ' -f7 st_ours | sort > st_ours.q
missing=$(comm -23 st_theirs.q st_ours.q | wc -l)
check "OpenSSH's candidates from a start ($(grep -c . st_theirs.q))" \
    [ -s st_theirs.q ]
check "... all among ours from the same start" [ "$missing" = 0 ]
"$K" -M screen -f "$DEBCAND" ours_deb 2>/dev/null
"$O" -M screen -f "$DEBCAND" theirs_deb 2>/dev/null
check "groups found in OpenSSH's candidates" [ -s ours_deb ]
same_groups "OpenSSH's candidates: the same groups from both screens" \
    ours_deb theirs_deb
check "those pass the independent check" checker screened ours_deb
if [ -f /etc/ssh/moduli ]; then
	awk '$5 == 2047' /etc/ssh/moduli | head -n 2 > debmod
	"$K" -M screen -f debmod ours_mod 2>/dev/null
	"$O" -M screen -f debmod theirs_mod 2>/dev/null
	check "groups of Debian's /etc/ssh/moduli pass our screen" \
	    [ "$(grep -c . ours_mod)" = 2 ]
	same_groups "... as OpenSSH's" ours_mod theirs_mod
fi
# -O generator and -O prime-tests, as OpenSSH's (on fewer lines).
head -n 800 cand > cand_s
for opt in generator=2 generator=5 generator=3 prime-tests=7; do
	"$K" -M screen -O $opt -f cand_s g_ours 2>/dev/null
	"$O" -M screen -O $opt -f cand_s g_theirs 2>/dev/null
	same_groups "-O $opt: the same groups" g_ours g_theirs
	rm -f g_ours g_theirs
done

# --- Appending. ---
printf '# kept\n' > app
cat ours >> app
cp app app.before
"$K" -M screen -f cand app 2>/dev/null
check "screen appends: what was there is kept" \
    [ "$(head -n $((m + 1)) app | cmp - app.before && echo y)" = y ]
check "... and the new groups follow" \
    [ "$(tail -n +$((m + 2)) app | cut -d' ' -f2- | sort | cmp - ours.g &&
    echo y)" = y ]

# --- Ranges and checkpoints. ---
for r in "lines=400" "start-line=400" "start-line=100 -O lines=300"; do
	"$K" -M screen -O $r -f cand_s r_ours 2>/dev/null
	"$O" -M screen -O $r -f cand_s r_theirs 2>/dev/null
	same_groups "-O $r: the same groups as OpenSSH's" r_ours r_theirs
	rm -f r_ours r_theirs
done
half=$((n / 2))
# A screen reading a pipe is stopped while it waits for more, after half
# the lines: its checkpoint holds exactly that line.
mkfifo fifo
"$K" -M screen -f fifo -O checkpoint=ck part > part1.err 2>&1 &
pid=$!
exec 3<> fifo	# read-write: opening never blocks
head -n $half cand >&3
i=0
while [ "$(cat ck 2>/dev/null)" != "$half" ] && [ $i -lt 600 ]; do
	i=$((i + 1)); sleep 0.05
done
check "the checkpoint follows the screen to line $half" \
    [ "$(cat ck 2>/dev/null)" = "$half" ]
kill "$pid"; wait "$pid" 2>/dev/null
exec 3>&-
check "checkpoint written as OpenSSH's: the line number alone" \
    [ "$(wc -c < ck)" -eq $((${#half} + 1)) ]
cp ck ck_theirs
cp part part_theirs
"$K" -M screen -f cand -O checkpoint=ck part > part2.err 2>&1
check "the resumed screen loads the checkpoint" \
    grep -q "Loaded checkpoint from 'ck' line $half" part2.err
check "a finished screen removes its checkpoint" [ ! -e ck ]
same_groups "stopped and resumed: the same groups as one run" part ours
"$O" -M screen -f cand -O checkpoint=ck_theirs part_theirs 2>part3.err
check "OpenSSH's screen resumes from our checkpoint" \
    grep -q "Loaded checkpoint from 'ck_theirs' line $half" part3.err
same_groups "... to the same groups" part_theirs ours

# --- Hostile candidate lines. ---
good=$(grep -v '^#' ours | head -n 2)
g1=$(echo "$good" | head -n 1); g2=$(echo "$good" | tail -n 1)
set -- $g1
{
	echo "# a comment"
	echo ""
	echo "$g1"
	echo "$1 $2 $3 $4 $(($5 + 1)) $6 $7"		# size one too large
	echo "$1 $2 1 $4 $5 $6 $7"			# known composite
	echo "$1 3 $3 $4 $5 $6 $7"			# unknown type
	echo "$1 $2 $3 $4 $5 $6 $7 extra"		# eight fields
	echo "$1 $2 $3 $4 $5 $6"			# six fields
	echo "$1 $2 $3 $4 $5 $6 ${7}G"			# not hex
	echo "$1 $2 $3 $4 $5 $6 -$7"			# a sign
	echo "$1 $2 $3 99999999999 $5 $6 $7"		# over 32 bits
	echo "$1 $2 $3 $4 $5 $6 $(printf '%020000d' 0)$7"	# too long
	printf '%s\r\n' "$g2"				# CRLF: fine
	printf '%s\0 %s\n' "$1" "$g2"			# a NUL
	head -c 3000 /dev/urandom
	echo
	printf '%s' "$g2"				# no newline at the end
} > hostile
"$K" -M screen -f hostile h_ours > h.err 2>&1
check "hostile lines: screening ends well" [ $? -eq 0 ]
# (tries aside: a group screened again adds its rounds to them)
printf '%s\n%s\n%s\n' "$g1" "$g2" "$g2" | cut -d' ' -f2,3,5- | sort > h.want
check "... keeping just the good lines" \
    [ "$(cut -d' ' -f2,3,5- h_ours | sort | cmp - h.want && echo y)" = y ]
check "... all checked" checker screened h_ours

# --- Our sshd serves a group we made to Debian's ssh and to paramiko. ---
# Its screen started with the generation checks and may have found more
# than one group by now; wait for a whole line (the file ends in a
# newline).
i=0
while [ "$(tail -c 1 moduli | od -An -tx1 | tr -d ' ')" != 0a ] &&
    kill -0 "$spid" 2>/dev/null && [ $i -lt 3000 ]; do
	i=$((i + 1)); sleep 0.05
done
kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null
check "a 2048-bit group screened" [ -s moduli ]
check "it passes the independent check" checker screened moduli
make_keys
write_config <<EOF
KexAlgorithms diffie-hellman-group-exchange-sha256
ModuliFile $T/moduli
EOF
start_sshd
out=$(ossh -o KexAlgorithms=diffie-hellman-group-exchange-sha256 \
    "$ME@127.0.0.1" echo logged-in 2>&1)
check "Debian's ssh logs in by group exchange" [ "$out" = logged-in ]
check "... sent a 2048-bit group" \
    grep -q "GEX_REQUEST received: .*sending a 2048-bit group" sshd.log
check "... from our moduli file" [ "$(grep -c 'WARNING: .*moduli' sshd.log)" = 0 ]
# sent_prime PORT: the prime, in hex, a group exchange at PORT sends
# paramiko; empty without paramiko.
sent_prime() {
	"$PY" -c "import paramiko" 2>/dev/null || return 0
	"$PY" - "$1" <<'EOF'
import socket, sys
import paramiko
from paramiko import kex_gex

seen = []
parse = kex_gex.KexGex._parse_kexdh_gex_group
def record(self, m):
    parse(self, m)
    seen.append(self.p)
kex_gex.KexGex._parse_kexdh_gex_group = record
t = paramiko.Transport(socket.create_connection(("127.0.0.1", int(sys.argv[1]))))
t.get_security_options().kex = ["diffie-hellman-group-exchange-sha256"]
t.start_client(timeout=20)
t.close()
print("%X" % seen[0])
EOF
}
if "$PY" -c "import paramiko" 2>/dev/null; then
	sent=$(sent_prime "$PORT")
	check "paramiko was sent a prime we screened" \
	    grep -q " ${sent:-none}\$" moduli
fi

# Debian's sshd, the same configuration on a port of its own.
if [ "$(id -u)" = 0 ] && [ -x /usr/sbin/sshd ]; then
	DPORT=$(free_port)
	sed "s/^Port .*/Port $DPORT/" "$T/sshd_config" > "$T/debian_config"
	start_peer_sshd /usr/sbin/sshd "$T/debian_config" "$T/debian.log"
	OURPORT=$PORT
	PORT=$DPORT
	out=$(ossh -o KexAlgorithms=diffie-hellman-group-exchange-sha256 \
	    "$ME@127.0.0.1" echo logged-in 2>&1)
	PORT=$OURPORT
	# (at LogLevel DEBUG1 Debian's sshd passes its session's debug
	# lines on to the client: the command's output is the last line)
	check "Debian's sshd: Debian's ssh logs in by group exchange" \
	    [ "$(echo "$out" | tail -n 1)" = logged-in ]
	check "... a group exchange request, in its log" grep -q \
	    "SSH2_MSG_KEX_DH_GEX_REQUEST received" "$T/debian.log"
	check "... with our moduli file (no warning about it)" \
	    [ "$(grep -c 'WARNING' "$T/debian.log")" = 0 ]
	if "$PY" -c "import paramiko" 2>/dev/null; then
		sent=$(sent_prime "$DPORT")
		check "... paramiko was sent a prime we screened" \
		    grep -q " ${sent:-none}\$" moduli
	fi
else
	echo "SKIP (not counted): Debian's sshd with our moduli: needs root" >&2
fi
finish
