#!/bin/sh
# An idle connection gives back its clean library pages (the per-connection
# process drops them after two quiet seconds, see src/core/memtrim.h), and
# the session works exactly as before afterwards: lines typed after each
# quiet spell arrive, and bulk data sent after one is intact.
. "$(dirname "$0")/lib.sh"
need ssh
make_keys
write_config </dev/null
start_sshd -o LogLevel=DEBUG3

# kB of file-backed resident memory of a process.
rss_file() { awk '/^RssFile:/ { print $2 }' "/proc/$1/status" 2>/dev/null; }

mkfifo "$T/in"
ossh "$ME@127.0.0.1" cat < "$T/in" > "$T/out" &
CLIENT=$!
exec 3>"$T/in"
echo one >&3
i=0
while [ "$(cat "$T/out")" != one ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
check "first line echoed" [ "$(cat "$T/out")" = one ]

# Quiet for longer than the trim delay.
sleep 3.5
check "trim logged after a quiet spell" \
    grep -q "idle: dropped [0-9]* KiB of clean mappings" "$T/sshd.log"
conn=$(ps -o pid= --ppid "$SSHD_PID" | head -n 1 | tr -d ' ')
lis=$(rss_file "$SSHD_PID")
idle=$(rss_file "$conn")
echo "file-backed RSS: listener $lis kB, idle connection $idle kB"
# The listener still maps the libraries it used; the idle connection,
# forked from it and having used more, has let go of them.
check "idle connection holds under half the listener's file pages" \
    [ -n "$idle" ] && [ -n "$lis" ] && [ $((idle * 2)) -lt "$lis" ]

echo two >&3
sleep 3.5
echo three >&3
exec 3>&-
wait "$CLIENT"
check "session intact across trims" \
    [ "$(cat "$T/out")" = "$(printf 'one\ntwo\nthree')" ]
n=$(grep -c "idle: dropped" "$T/sshd.log")
check "trimmed again after the second quiet spell ($n times)" [ "$n" -ge 2 ]

# Bulk data after a quiet spell: the cipher and MAC code fault back in.
head -c 8000000 /dev/urandom > "$T/data"
want=$(sha256sum < "$T/data" | cut -d' ' -f1)
got=$({ sleep 3; cat "$T/data"; } |
    ossh -c aes128-gcm@openssh.com "$ME@127.0.0.1" sha256sum | cut -d' ' -f1)
check "8 MB after an idle spell arrive intact" [ "$got" = "$want" ]
got=$({ sleep 3; cat "$T/data"; } |
    ossh -c chacha20-poly1305@openssh.com "$ME@127.0.0.1" 'sleep 3; cat' |
    sha256sum | cut -d' ' -f1)
check "8 MB back to the client after idle spells intact" [ "$got" = "$want" ]
finish
