#!/bin/sh
# bench/all.sh: moat against Debian's OpenSSH (and Dropbear where it is
# installed and has the algorithm) on this machine, in one run. Prints:
#
#   1. bulk MB/s per cipher/MAC through the same stock OpenSSH client into
#      `cat > /dev/null`: our sshd vs OpenSSH's sshd (vs Dropbear), and
#      (1b) the server side's CPU time per GiB in the same runs -- on a
#      shared machine the steadier of the two -- with the client's own
#      CPU time per GiB and the rate that caps (the client on a core of
#      its own could go no faster);
#   2. bulk MB/s of our ssh to our sshd vs OpenSSH's ssh to its sshd;
#   3. memory per idle authenticated connection (all server processes of
#      the connection: RSS, PSS and private bytes from smaps_rollup);
#   4. connect+login latency (`ssh -o BatchMode=yes HOST true`,
#      curve25519-sha256, ed25519 keys), mean of 10;
#   5. MB/s of each MAC alone (bench/mac_speed.c) against hmac-sha2-256.
#   6. sntrup761 key generation, encapsulation and decapsulation per
#      second (bench/sntrup_speed.c).
#   7. ML-KEM-768 operations per second (bench/mlkem_speed.c).
#
# Every figure is shown with the ratio ours/theirs (for memory and latency
# lower is better).
#
#   sh bench/all.sh [MiB]      (default 1024; CI runs it with 8)
#
# Throughput figures are medians of REPS runs (default 3), ours and
# theirs interleaved. The client reads its input from a file in memory
# (tmpfs where there is one): a process producing the data would take
# CPU from the two ends being measured.
#
# Needs root for OpenSSH's sshd (it insists on an absolute path and on
# /run/sshd); without root only our side is measured.
set -u
MIB=${1:-1024}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${MOAT_BIN:-$ROOT/build/bin}
T=$(mktemp -d /tmp/moat-bench.XXXXXX)
PIDS=""
IDLE=""
INPUT=""
cleanup() {
	for p in $IDLE $PIDS; do kill "$p" 2>/dev/null; done
	cg_remove
	[ -n "${B_USER:-}" ] && userdel -r "$B_USER" >/dev/null 2>&1
	[ -n "$INPUT" ] && rm -f "$INPUT"
	rm -rf "$T"
}
trap cleanup EXIT
# A signal (Ctrl-C, a closed pipe) still runs cleanup: no stray servers
# or temporary users are left behind.
trap 'exit 130' HUP INT TERM
trap 'exit 141' PIPE
ME=$(id -un)
NIDLE=4

free_port() {
	/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
ssh-keygen -q -t ed25519 -N '' -f "$T/host" >/dev/null
ssh-keygen -q -t ed25519 -N '' -f "$T/id" >/dev/null
cp "$T/id.pub" "$T/ak"
chmod 600 "$T/ak"

config() { # config port
	cat <<EOF2
ListenAddress 127.0.0.1
Port $1
HostKey $T/host
AuthorizedKeysFile $T/ak
PidFile none
UsePAM no
StrictModes no
EOF2
}

MOAT_PORT=$(free_port)
config "$MOAT_PORT" > "$T/moat_config"
"$BIN/sshd" -D -e -f "$T/moat_config" 2>"$T/moat.log" &
MOAT_PID=$!
PIDS="$PIDS $MOAT_PID"

OSSH_PORT=""
OSSH_PID=""
if [ "$(id -u)" = 0 ] && [ -x /usr/sbin/sshd ]; then
	mkdir -p /run/sshd
	OSSH_PORT=$(free_port)
	config "$OSSH_PORT" > "$T/openssh_config"
	/usr/sbin/sshd -D -e -f "$T/openssh_config" 2>"$T/openssh.log" &
	OSSH_PID=$!
	PIDS="$PIDS $OSSH_PID"
fi

# As root, every server's logins are a temporary user's, whose shell is
# /bin/sh with no start-up files: root's own (a .bashrc that sets up a
# language environment, say) would be timed with every login and
# command. Dropbear reads only ~/.ssh/authorized_keys, so the user has
# a home; ours and OpenSSH's read $T/ak, readable by that user.
B_USER=""
if [ "$(id -u)" = 0 ] && useradd -m -s /bin/sh "moatbench$$" 2>/dev/null; then
	B_USER=moatbench$$
	usermod -p '*' "$B_USER"
	H=$(getent passwd "$B_USER" | cut -d: -f6)
	mkdir -p "$H/.ssh"
	cp "$T/id.pub" "$H/.ssh/authorized_keys"
	chown -R "$B_USER" "$H/.ssh"
	chmod 700 "$H/.ssh"
	chmod 600 "$H/.ssh/authorized_keys"
	chmod 711 "$T"
	chmod 644 "$T/ak"
fi
DB_PORT=""
DB_PID=""
if [ -n "$B_USER" ] && command -v dropbear >/dev/null 2>&1 &&
    command -v dropbearconvert >/dev/null 2>&1 &&
    dropbearconvert openssh dropbear "$T/host" "$T/db_host" >/dev/null 2>&1; then
	DB_PORT=$(free_port)
	# -F foreground, -E log to stderr, -s no passwords.
	dropbear -F -E -s -r "$T/db_host" -p "127.0.0.1:$DB_PORT" \
	    2>"$T/dropbear.log" &
	DB_PID=$!
	PIDS="$PIDS $DB_PID"
fi
# Each server in a CPU accounting group of its own, which the processes
# of its connections inherit: their CPU time counts even where a process
# is not reaped by one whose time reaches the listener (OpenSSH 9.2's
# monitor exits without waiting for the user's process of a non-root
# login). cgroup v1's cpuacct, or v2; with neither, the listener's
# reaped children.
CGS=""
cg_make() { # cg_make PID: CG_<PID> names its group, if one was made
	for b in /sys/fs/cgroup/cpuacct /sys/fs/cgroup/unified /sys/fs/cgroup; do
		[ -w "$b/cgroup.procs" ] || continue
		d=$b/moat-bench.$$.$1
		mkdir "$d" 2>/dev/null || continue
		if echo "$1" > "$d/cgroup.procs" 2>/dev/null; then
			CGS="$CGS $d"
			eval "CG_$1=\$d"
			return
		fi
		rmdir "$d"
	done
}
cg_remove() { # the groups' processes (ours) stopped, the groups removed
	for d in $CGS; do
		for p in $(cat "$d/cgroup.procs" 2>/dev/null); do
			kill "$p" 2>/dev/null
		done
		i=0
		while ! rmdir "$d" 2>/dev/null && [ $i -lt 30 ]; do
			sleep 0.1
			i=$((i + 1))
		done
	done
	CGS=""
}
for p in $MOAT_PID $OSSH_PID $DB_PID; do
	cg_make "$p"
done
sleep 0.5

cli() { # cli ssh-binary port args...
	c=$1 p=$2
	shift 2
	"$c" -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -i "$T/id" \
	    -p "$p" "$@"
}

now() { date +%s.%N; }
ratio() { # ratio ours theirs
	case "$1$2" in *-*) echo - ;; *)
		echo "$1 $2" | awk '{ printf "%.2f", $1 / $2 }' ;; esac
}

user_of() { # user_of port
	echo "${B_USER:-$ME}"
}
listener_of() { # listener_of port
	case "$1" in
	"$MOAT_PORT") echo "$MOAT_PID" ;;
	"$OSSH_PORT") echo "$OSSH_PID" ;;
	*) echo "$DB_PID" ;;
	esac
}

# CPU ms of a server: its group's, or its reaped children's (cutime +
# cstime): every process of a finished connection, the command it ran
# included.
server_ms() { # server_ms listener-pid
	eval "d=\${CG_$1:-}"
	if [ -n "$d" ] && [ -r "$d/cpuacct.usage" ]; then
		awk '{ printf "%.0f\n", $1 / 1e6 }' "$d/cpuacct.usage"
	elif [ -n "$d" ]; then
		awk '/^usage_usec/ { printf "%.0f\n", $2 / 1e3 }' "$d/cpu.stat"
	else
		awk -v hz="$HZ" '{ printf "%.0f\n", ($16 + $17) * 1000 / hz }' \
		    "/proc/$1/stat"
	fi
}
# Wait (up to 2 s) until every process of a server's connections is gone:
# its group holds the listener alone, or the listener has no children.
settle() {
	eval "d=\${CG_$1:-}"
	i=0
	while [ $i -lt 40 ]; do
		if [ -n "$d" ]; then
			[ "$(wc -l < "$d/cgroup.procs")" -le 1 ] && break
		else
			[ -z "$(ps -o pid= --ppid "$1" 2>/dev/null)" ] && break
		fi
		sleep 0.05
		i=$((i + 1))
	done
}

INPUT=$(mktemp /dev/shm/moat-bench.XXXXXX 2>/dev/null) ||
    INPUT=$(mktemp "$T/input.XXXXXX")
head -c $((MIB * 1024 * 1024)) /dev/zero > "$INPUT"

# "MB/s server-CPU-ms-per-GiB client-CPU-ms-per-GiB" of MIB mebibytes
# through `cat > /dev/null` ("- - -" if the login or transfer failed).
# The client runs in a subshell whose `times` gives its CPU time.
rate() { # rate ssh-binary port cipher mac
	lp=$(listener_of "$2")
	settle "$lp"
	c0=$(server_ms "$lp")
	s=$(now)
	ct=$( (cli "$1" "$2" -c "$3" -m "$4" "$(user_of "$2")@127.0.0.1" \
	    'cat > /dev/null' <"$INPUT" >/dev/null 2>&1 && times) | tail -1)
	[ -n "$ct" ] || { echo - - -; return; }
	e=$(now)
	settle "$lp"
	c1=$(server_ms "$lp")
	echo "$s $e $MIB $c0 $c1 $ct" | awk '{
	    cpu = 0
	    for (i = 6; i <= 7; i++) { split($i, a, "m"); cpu += a[1] * 60 + a[2] }
	    printf "%.0f %.0f %.0f", ($3 * 1.048576) / ($2 - $1),
	    ($5 - $4) * 1024 / $3, cpu * 1000 * 1024 / $3 }'
}
HZ=$(getconf CLK_TCK)

# Median of the numbers on stdin ("-" if none).
median() {
	tr ' ' '\n' | grep '^[0-9]' | sort -n |
	    awk '{ a[NR] = $1 } END { print NR ? a[int((NR + 1) / 2)] : "-" }'
}

# Each figure is the median of REPS runs, ours and theirs interleaved so
# that a busy spell on the machine does not fall on one side only.
REPS=${REPS:-3}

ALGS="aes128-gcm@openssh.com:hmac-sha2-256-etm@openssh.com
chacha20-poly1305@openssh.com:hmac-sha2-256-etm@openssh.com
aes128-ctr:hmac-sha2-256-etm@openssh.com
aes256-ctr:hmac-sha2-512-etm@openssh.com
aes128-ctr:umac-64-etm@openssh.com
aes128-ctr:umac-128-etm@openssh.com"

name_of() { # name_of cipher mac
	case "$1" in *-ctr) echo "$1+$2" ;; *) echo "$1" ;; esac
}

echo "1. bulk, stock OpenSSH client ($MIB MiB into cat; MB/s, higher is"
echo "   better; median of $REPS)"
printf '%-44s %9s %9s %9s %7s\n' "cipher" "moat" "OpenSSH" "Dropbear" "ratio"
CPU=""
for cm in $ALGS; do
	c=${cm%%:*} m=${cm#*:}
	o="" oc="" cc="" t="" tc="" d="" dc=""
	rep=0
	while [ $rep -lt "$REPS" ]; do
		set -- $(rate ssh "$MOAT_PORT" "$c" "$m")
		[ "$1" = - ] && { echo "moat failed for $c $m" >&2; exit 1; }
		o="$o $1" oc="$oc $2" cc="$cc $3"
		if [ -n "$OSSH_PORT" ]; then
			set -- $(rate ssh "$OSSH_PORT" "$c" "$m")
			t="$t $1" tc="$tc $2"
		fi
		if [ -n "$DB_PORT" ]; then
			set -- $(rate ssh "$DB_PORT" "$c" "$m")
			d="$d $1" dc="$dc $2"
		fi
		rep=$((rep + 1))
	done
	ours=$(echo "$o" | median) theirs=$(echo "$t" | median)
	printf '%-44s %9s %9s %9s %7s\n' "$(name_of "$c" "$m")" "$ours" \
	    "$theirs" "$(echo "$d" | median)" "$(ratio "$ours" "$theirs")"
	ours=$(echo "$oc" | median) theirs=$(echo "$tc" | median)
	client=$(echo "$cc" | median)
	CPU="$CPU$(printf '%-44s %9s %9s %9s %7s %7s %6s' \
	    "$(name_of "$c" "$m")" "$ours" "$theirs" "$(echo "$dc" | median)" \
	    "$(ratio "$ours" "$theirs")" "$client" \
	    "$(echo "$client" | awk '$1 > 0 { printf "%.0f", 1073741.824 / $1 }')")
"
done

echo
echo "1b. server CPU per GiB in those runs (ms of every process of the"
echo "   connection, the cat included; lower is better), the stock client's"
echo "   CPU per GiB (ms, in the runs into ours) and the MB/s it caps at"
printf '%-44s %9s %9s %9s %7s %7s %6s\n' "cipher" "moat" "OpenSSH" \
    "Dropbear" "ratio" "client" "cap"
printf '%s' "$CPU"

echo
echo "2. bulk, each suite's own client to its own server (MB/s, median"
echo "   of $REPS)"
printf '%-44s %9s %9s %7s\n' "cipher" "moat" "OpenSSH" "ratio"
for cm in $ALGS; do
	c=${cm%%:*} m=${cm#*:}
	o="" t=""
	rep=0
	while [ $rep -lt "$REPS" ]; do
		set -- $(rate "$BIN/ssh" "$MOAT_PORT" "$c" "$m")
		[ "$1" = - ] && { echo "moat client failed for $c $m" >&2; exit 1; }
		o="$o $1"
		if [ -n "$OSSH_PORT" ]; then
			set -- $(rate /usr/bin/ssh "$OSSH_PORT" "$c" "$m")
			t="$t $1"
		fi
		rep=$((rep + 1))
	done
	ours=$(echo "$o" | median) theirs=$(echo "$t" | median)
	printf '%-44s %9s %9s %7s\n' "$(name_of "$c" "$m")" "$ours" \
	    "$theirs" "$(ratio "$ours" "$theirs")"
done

# Descendants of a PID (the per-connection server processes).
descendants() {
	for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do
		echo "$c"
		descendants "$c"
	done
}

# KiB per idle connection: "rss pss private", summed over all server
# processes of NIDLE connections (started with ssh -N) divided by NIDLE.
idle_mem() { # idle_mem server-pid port
	IDLE=""
	i=0
	while [ $i -lt $NIDLE ]; do
		# exec: $! is then ssh itself, so kill reaches it.
		(exec ssh -F /dev/null -o BatchMode=yes \
		    -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
		    -o LogLevel=ERROR -i "$T/id" -p "$2" -N \
		    "$(user_of "$2")@127.0.0.1" </dev/null 2>/dev/null) &
		IDLE="$IDLE $!"
		i=$((i + 1))
	done
	# Wait until every connection is logged in and has been quiet for a
	# few seconds: idle, as a login left open is (our server gives back
	# clean library pages after two quiet seconds; see memtrim.h).
	sleep 5
	tot="0 0 0"
	for p in $(descendants "$1"); do
		f=/proc/$p/smaps_rollup
		[ -r "$f" ] || continue
		tot=$(awk -v t="$tot" 'BEGIN { split(t, a, " ") }
		    /^Rss:/ { a[1] += $2 } /^Pss:/ { a[2] += $2 }
		    /^Private_(Clean|Dirty):/ { a[3] += $2 }
		    END { print a[1], a[2], a[3] }' "$f")
	done
	n=$(descendants "$1" | wc -l)
	for p in $IDLE; do kill "$p" 2>/dev/null; done
	wait $IDLE 2>/dev/null
	IDLE=""
	echo "$tot $n" | awk -v k=$NIDLE '{ printf "%.0f %.0f %.0f %.1f", $1/k, $2/k, $3/k, $4/k }'
}

echo
echo "3. memory per idle authenticated connection (KiB; lower is better)"
ours=$(idle_mem "$MOAT_PID" "$MOAT_PORT")
theirs="- - - -"
[ -n "$OSSH_PORT" ] && theirs=$(idle_mem "$OSSH_PID" "$OSSH_PORT")
db="- - - -"
[ -n "$DB_PORT" ] && db=$(idle_mem "$DB_PID" "$DB_PORT")
printf '%-44s %9s %9s %9s %7s\n' "" "moat" "OpenSSH" "Dropbear" "ratio"
set -- $ours
o1=$1 o2=$2 o3=$3 o4=$4
set -- $theirs
t1=$1 t2=$2 t3=$3 t4=$4
set -- $db
printf '%-44s %9s %9s %9s %7s\n' "processes" "$o4" "$t4" "$4" "$(ratio "$o4" "$t4")"
printf '%-44s %9s %9s %9s %7s\n' "RSS" "$o1" "$t1" "$1" "$(ratio "$o1" "$t1")"
printf '%-44s %9s %9s %9s %7s\n' "PSS" "$o2" "$t2" "$2" "$(ratio "$o2" "$t2")"
printf '%-44s %9s %9s %9s %7s\n' "private" "$o3" "$t3" "$3" "$(ratio "$o3" "$t3")"

latency() { # latency port: mean ms of 10 logins running `true`
	s=$(now)
	for i in 1 2 3 4 5 6 7 8 9 10; do
		cli ssh "$1" -o KexAlgorithms=curve25519-sha256 \
		    "$(user_of "$1")@127.0.0.1" true 2>/dev/null ||
		    { echo -; return; }
	done
	e=$(now)
	echo "$s $e" | awk '{ printf "%.1f", ($2 - $1) * 100 }'
}

echo
echo "4. connect+login, stock client (ms; lower is better)"
ours=$(latency "$MOAT_PORT")
[ "$ours" = - ] && { echo "moat login failed" >&2; exit 1; }
theirs=-
[ -n "$OSSH_PORT" ] && theirs=$(latency "$OSSH_PORT")
db=-
[ -n "$DB_PORT" ] && db=$(latency "$DB_PORT")
printf '%-44s %9s %9s %9s %7s\n' "" "moat" "OpenSSH" "Dropbear" "ratio"
printf '%-44s %9s %9s %9s %7s\n' "ssh -o BatchMode=yes HOST true" "$ours" \
    "$theirs" "$db" "$(ratio "$ours" "$theirs")"

# The MACs alone (bench/mac_speed.c, built beside the programs).
MACSPEED=$BIN/../bench/mac_speed
echo
echo "5. MACs alone, one call per packet as the transport makes them"
echo "   (MB/s, one core; x hmac-256: ratio to hmac-sha2-256 at 32 KiB)"
if [ -x "$MACSPEED" ]; then
	# A short run for the small sizes CI uses.
	secs=0.3
	[ "$MIB" -lt 64 ] && secs=0.02
	"$MACSPEED" "$secs" || { echo "mac_speed failed" >&2; exit 1; }
else
	echo "(no $MACSPEED: build first)"
fi

# sntrup761 alone (bench/sntrup_speed.c), the post-quantum half of
# sntrup761x25519-sha512.
SNTRUPSPEED=$BIN/../bench/sntrup_speed
echo
echo "6. sntrup761 alone (one core)"
if [ -x "$SNTRUPSPEED" ]; then
	secs=1
	[ "$MIB" -lt 64 ] && secs=0.05
	"$SNTRUPSPEED" "$secs" || { echo "sntrup_speed failed" >&2; exit 1; }
else
	echo "(no $SNTRUPSPEED: build first)"
fi

# ML-KEM-768 alone (bench/mlkem_speed.c, built beside the programs).
KEMSPEED=$BIN/../bench/mlkem_speed
echo
echo "7. ML-KEM-768 alone (one core; X25519 for scale)"
if [ -x "$KEMSPEED" ]; then
	secs=0.5
	[ "$MIB" -lt 64 ] && secs=0.05
	"$KEMSPEED" "$secs" || { echo "mlkem_speed failed" >&2; exit 1; }
else
	echo "(no $KEMSPEED: build first)"
fi
