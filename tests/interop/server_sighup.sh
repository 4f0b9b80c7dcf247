#!/bin/sh
# SIGHUP makes sshd read its configuration again by running itself anew
# with the same arguments (same PID with -D), as OpenSSH does; it keeps
# listening, and a session that was open before the restart goes on.
. "$(dirname "$0")/lib.sh"
need ssh
make_keys
write_config </dev/null
start_sshd
echo "moat banner after reload" > "$T/banner"

# A session that outlives the restart.
ossh "$ME@127.0.0.1" 'sleep 2; echo survived' > "$T/long.out" 2>/dev/null &
LONG=$!
sleep 0.5
out=$(ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
    -o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes \
    -i "$T/id_ed25519" -p "$PORT" "$ME@127.0.0.1" true 2>&1 | grep -v "^Warning: Permanently")
check "no banner before the reload" [ -z "$out" ]
echo "Banner $T/banner" >> "$T/sshd_config"
kill -HUP "$SSHD_PID"
i=0
while [ "$(grep -c "Server listening" "$T/sshd.log")" -lt 2 ] && [ $i -lt 100 ]; do
	sleep 0.05; i=$((i + 1))
done
grep -q "Received SIGHUP; restarting." "$T/sshd.log"
check "SIGHUP logged" [ $? -eq 0 ]
kill -0 "$SSHD_PID"
check "same PID still running after SIGHUP" [ $? -eq 0 ]
# (ossh sets LogLevel ERROR, which hides banners: call ssh directly.)
out=$(ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
    -o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes \
    -i "$T/id_ed25519" -p "$PORT" "$ME@127.0.0.1" true 2>&1 | grep -v "^Warning: Permanently")
check "new configuration in force (banner shown)" [ "$out" = "moat banner after reload" ]
wait "$LONG"
check "session open across the restart finished" [ "$(cat "$T/long.out")" = survived ]
finish
