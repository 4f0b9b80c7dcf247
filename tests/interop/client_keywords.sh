#!/bin/sh
# ssh_config keywords at run time against our sshd: LocalCommand (only
# with PermitLocalCommand, tokens expanded, run by $SHELL), ConnectionAttempts
# (a server that starts listening late is reached), StdinNull,
# ForkAfterAuthentication and SessionType. The host key's keywords are in
# client_hostkey_kw.sh.
. "$(dirname "$0")/lib.sh"
make_keys
write_config </dev/null
start_sshd
mssh() {
	"$BIN/ssh" -F /dev/null -o BatchMode=yes -o UserKnownHostsFile="$T/kh" \
	    -o StrictHostKeyChecking=accept-new -o IdentitiesOnly=yes \
	    -i "$T/id_ed25519" "$@"
}

# LocalCommand runs after authentication, through $SHELL, tokens expanded.
cat > "$T/shell" <<EOF
#!/bin/sh
echo "via-shell" > "$T/lc-shell"
exec /bin/sh "\$@"
EOF
chmod 755 "$T/shell"
SHELL="$T/shell" mssh -p "$PORT" -o PermitLocalCommand=yes \
    -o "LocalCommand=echo %h %p %r %n %T %k %%" "$ME@127.0.0.1" \
    'echo remote' </dev/null >"$T/out" 2>"$T/err"
check "LocalCommand: the session still runs" grep -q "^remote$" "$T/out"
check "... its output on ours: tokens expanded" \
    grep -q "^127.0.0.1 $PORT $ME 127.0.0.1 NONE 127.0.0.1 %$" "$T/out"
check "... run by the user's shell" grep -q via-shell "$T/lc-shell"
mssh -p "$PORT" -o "LocalCommand=touch $T/lc-no" "$ME@127.0.0.1" true \
    </dev/null 2>/dev/null
check "LocalCommand without PermitLocalCommand does not run" \
    [ ! -e "$T/lc-no" ]
mssh -p "$PORT" -o PermitLocalCommand=yes -o "LocalCommand=touch $T/lc-bad" \
    -o PubkeyAuthentication=no "$ME@127.0.0.1" true </dev/null 2>/dev/null
check "LocalCommand does not run when authentication fails" \
    [ ! -e "$T/lc-bad" ]

# ConnectionAttempts: a second sshd that starts listening 1.5 s late.
LPORT=$(free_port)
sed "s/^Port .*/Port $LPORT/" "$T/sshd_config" > "$T/late_config"
(sleep 1.5; exec "$BIN/sshd" -D -e -f "$T/late_config" \
    -o PerSourcePenalties=no 2>"$T/late.log") &
LATE=$!
at_exit "kill $LATE 2>/dev/null"
start=$(date +%s)
out=$(mssh -v -p "$LPORT" -o ConnectionAttempts=5 "$ME@127.0.0.1" \
    'echo late' </dev/null 2>"$T/err")
took=$(($(date +%s) - start))
check "ConnectionAttempts: a late server is reached ($took s)" \
    [ "$out" = "late" ]
check "... after trying again" grep -q "Trying again" "$T/err"
kill "$LATE" 2>/dev/null
wait "$LATE" 2>/dev/null
DPORT=$(free_port)
start=$(date +%s)
mssh -p "$DPORT" -o ConnectionAttempts=2 "$ME@127.0.0.1" true \
    </dev/null 2>"$T/err"
st=$?
took=$(($(date +%s) - start))
check "ConnectionAttempts=2 to nothing: 255" [ $st -eq 255 ]
check "... after a second's pause ($took s)" [ $took -ge 1 ]
check "... one message, as OpenSSH" [ "$(grep -c \
    "^ssh: connect to host 127.0.0.1 port $DPORT: Connection refused" \
    "$T/err")" = 1 ]

# StdinNull: the remote command reads nothing.
out=$(echo from-stdin | mssh -p "$PORT" -o StdinNull=yes "$ME@127.0.0.1" \
    'cat; echo end' 2>/dev/null)
check "StdinNull=yes: stdin is /dev/null" [ "$out" = "end" ]
out=$(echo from-stdin | mssh -p "$PORT" -o StdinNull=no "$ME@127.0.0.1" \
    'cat; echo end' 2>/dev/null | tr '\n' ' ')
check "StdinNull=no: stdin is read" [ "$out" = "from-stdin end " ]

# ForkAfterAuthentication: back at once, the command finishes later.
start=$(date +%s)
mssh -p "$PORT" -o ForkAfterAuthentication=yes "$ME@127.0.0.1" \
    "sleep 2; touch $T/f-done" </dev/null 2>/dev/null
st=$?
took=$(($(date +%s) - start))
check "ForkAfterAuthentication: status 0 at once" [ $st -eq 0 ] &&
    [ $took -lt 2 ]
i=0; while [ ! -e "$T/f-done" ] && [ $i -lt 60 ]; do sleep 0.1; i=$((i + 1)); done
check "... the command ran in the background" [ -e "$T/f-done" ]
mssh -p "$PORT" -o ForkAfterAuthentication=yes "$ME@127.0.0.1" \
    </dev/null 2>"$T/err"
check "ForkAfterAuthentication without a command: 255" [ $? -eq 255 ]
check "... Cannot fork into background without a command to execute." \
    grep -q "^Cannot fork into background without a command to execute." \
    "$T/err"

# SessionType: subsystem asks for the subsystem named by the command;
# none opens no session (ForkAfterAuthentication then leaves it alone).
n0=$(grep -c "subsystem request for sftp" "$T/sshd.log")
mssh -p "$PORT" -o SessionType=subsystem "$ME@127.0.0.1" sftp </dev/null \
    >/dev/null 2>&1
wait_log "$T/sshd.log" "subsystem request for sftp"
check "SessionType=subsystem: a subsystem request" \
    [ "$(grep -c "subsystem request for sftp" "$T/sshd.log")" -gt "$n0" ]
n0=$(grep -c "Starting session" "$T/sshd.log")
# (ssh itself, not a shell function: $! must be ssh's pid)
"$BIN/ssh" -F /dev/null -o BatchMode=yes -o UserKnownHostsFile="$T/kh" \
    -o IdentitiesOnly=yes -i "$T/id_ed25519" -p "$PORT" \
    -o SessionType=none "$ME@127.0.0.1" </dev/null 2>/dev/null &
NPID=$!
sleep 1.5
check "SessionType=none stays connected" kill -0 "$NPID"
kill "$NPID"; wait "$NPID" 2>/dev/null
check "... and ran no session" \
    [ "$(grep -c "Starting session" "$T/sshd.log")" = "$n0" ]
finish
