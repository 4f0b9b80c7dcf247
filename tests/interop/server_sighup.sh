#!/bin/sh
# SIGHUP makes sshd read its configuration again by running itself anew
# with the same arguments (same PID with -D), as OpenSSH does; it keeps
# listening, and a session that was open before the restart goes on.
# Until then every connection runs with the configuration the listener
# started with, Included files and all: an edit on disk, even a broken
# one, changes nothing before the reload. A reload into a broken
# configuration ends the server, as OpenSSH's does.
. "$(dirname "$0")/lib.sh"
need ssh
make_keys
banner() { # the banner our sshd shows, if any
	ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes \
	    -i "$T/id_ed25519" -p "$PORT" "$ME@127.0.0.1" true 2>&1 |
	    grep -v "^Warning: Permanently"
}
mkdir "$T/conf.d"
echo "Banner $T/banner0" > "$T/conf.d/banner.conf"
echo "moat banner at start" > "$T/banner0"
write_config <<CONF
Include $T/conf.d/*.conf
CONF
start_sshd
check "the Included banner at start" [ "$(banner)" = "moat banner at start" ]
# The Included file removed and a bad line added: neither read before
# the reload.
cp "$T/sshd_config" "$T/sshd_config.good"
rm "$T/conf.d/banner.conf"
echo "NoSuchKeyword yes" >> "$T/sshd_config"
check "an edit on disk, even a broken one, waits for the reload" \
    [ "$(banner)" = "moat banner at start" ]
cp "$T/sshd_config.good" "$T/sshd_config"
echo "moat banner after reload" > "$T/banner"

# A session that outlives the restart.
ossh "$ME@127.0.0.1" 'sleep 2; echo survived' > "$T/long.out" 2>/dev/null &
LONG=$!
sleep 0.5
echo "Banner $T/banner" >> "$T/sshd_config"
check "the banner added on disk not shown before the reload" \
    [ "$(banner)" = "moat banner at start" ]
kill -HUP "$SSHD_PID"
i=0
while [ "$(grep -c "Server listening" "$T/sshd.log")" -lt 2 ] && [ $i -lt 100 ]; do
	sleep 0.05; i=$((i + 1))
done
grep -q "Received SIGHUP; restarting." "$T/sshd.log"
check "SIGHUP logged" [ $? -eq 0 ]
kill -0 "$SSHD_PID"
check "same PID still running after SIGHUP" [ $? -eq 0 ]
check "new configuration in force (banner shown)" \
    [ "$(banner)" = "moat banner after reload" ]
wait "$LONG"
check "session open across the restart finished" [ "$(cat "$T/long.out")" = survived ]

# A reload into a broken configuration: the server reports it and ends.
echo "NoSuchKeyword yes" >> "$T/sshd_config"
kill -HUP "$SSHD_PID"
i=0
while kill -0 "$SSHD_PID" 2>/dev/null && [ $i -lt 100 ]; do
	sleep 0.1; i=$((i + 1))
done
check "a reload into a broken configuration ends sshd" \
    [ $i -lt 100 ]
check "... naming the bad line" \
    grep -q "line [0-9]*: Bad configuration option: NoSuchKeyword" "$T/sshd.log"
finish
