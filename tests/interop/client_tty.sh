#!/bin/sh
# Our ssh's interactive side driven through a real pseudo-terminal
# (client_tty.py): a -tt shell (prompt, command, exit status, the
# "Connection to HOST closed." line, window size at start and after
# SIGWINCH, the local tty restored), the escapes (~. ~? ~~ ~v ~V ~R ~#
# ~^Z ~&, EscapeChar none, -e), passphrase and password prompts on the
# tty, SSH_ASKPASS with no tty, and BatchMode not prompting.
. "$(dirname "$0")/lib.sh"
[ -x /usr/bin/python3 ] || skip "needs /usr/bin/python3 for the pty driver"
DRV="$SRC/tests/interop/client_tty.py"
make_keys
ssh-keygen -q -t ed25519 -N sesame -f "$T/id_locked" -C locked
cat "$T/id_locked.pub" >> "$T/authorized_keys"
write_config </dev/null
start_sshd
D=$T/tty
mkdir "$D"

ours="$BIN/ssh -F /dev/null -o UserKnownHostsFile=$T/kh
    -o StrictHostKeyChecking=accept-new -o IdentitiesOnly=yes -p $PORT"
CAT='echo ready; exec cat'
# run SCENARIO SSH-ARGV...: drive it; facts land in $D/SCENARIO.res.
run() {
	sc=$1; shift
	rm -f "$D/$sc.res"
	"$PY" "$DRV" "$sc" "$D" -- "$@" 2>"$D/$sc.drv" ||
	    cat "$D/$sc.drv" >&2
}
# fact SCENARIO KEY VALUE: the scenario saw KEY=VALUE.
fact() { grep -qx "$2=$3" "$D/$1.res" 2>/dev/null; }
kexinits() { grep -c "SSH2_MSG_KEXINIT received" "$T/sshd.log"; }

# shellcheck disable=SC2086
run shell $ours -i "$T/id_ed25519" -tt "$ME@127.0.0.1"
check "-tt shell: prompt appears" fact shell prompt True
check "-tt shell: a typed command runs" fact shell typed True
check "pty-req carries the terminal size (stty size: 30 100)" fact shell size1 True
check "a resized terminal sends window-change (stty size: 40 120)" fact shell size2 True
check "'Connection to 127.0.0.1 closed.' on the terminal" fact shell closed True
check "exit 3 gives status 3" fact shell status 3
check "terminal settings restored after exit" fact shell restored True
grep -q "Connection to 127.0.0.1 closed." "$D/shell.out" &&
	! grep -q "Connection to 127.0.0.1 closed.*Connection to" "$D/shell.out"
check "... printed once" [ $? -eq 0 ]

# shellcheck disable=SC2086
run disconnect $ours -i "$T/id_ed25519" -tt "$ME@127.0.0.1" "$CAT"
check "~. disconnects with status 255" fact disconnect status 255
check "~. prints Connection to ... closed." fact disconnect closed True
check "~. leaves the terminal restored" fact disconnect restored True

# shellcheck disable=SC2086
run help $ours -i "$T/id_ed25519" -tt "$ME@127.0.0.1" "$CAT"
check "~? prints the help" fact help help True
check "~? does not offer ~C (EnableEscapeCommandline is off)" \
    sh -c "! grep -q '~C' '$D/help.txt'"
if [ -x /usr/bin/ssh ]; then
	mv "$D/help.txt" "$D/help.ours"
	run help /usr/bin/ssh -F /dev/null -o UserKnownHostsFile="$T/kh" \
	    -o StrictHostKeyChecking=accept-new -o IdentitiesOnly=yes \
	    -p "$PORT" -i "$T/id_ed25519" -tt "$ME@127.0.0.1" "$CAT"
	check "~? help text matches OpenSSH's word for word" \
	    cmp -s "$D/help.ours" "$D/help.txt"
	cmp -s "$D/help.ours" "$D/help.txt" || diff "$D/help.ours" "$D/help.txt" >&2
fi

# shellcheck disable=SC2086
run tilde $ours -i "$T/id_ed25519" -tt "$ME@127.0.0.1" "$CAT"
check "~~ sends one ~" fact tilde double True
check "a ~ inside a line passes through" fact tilde inner True
check "~x (not a command) passes both bytes" fact tilde unknown True

k0=$(kexinits)
# shellcheck disable=SC2086
run verbose $ours -i "$T/id_ed25519" -tt "$ME@127.0.0.1" "$CAT"
k1=$(kexinits)
check "~v raises LogLevel (message shown)" fact verbose up True
check "~V lowers LogLevel (message shown)" fact verbose down True
check "~R: the server receives a second KEXINIT" [ "$((k1 - k0))" -eq 2 ]
check "... and the session goes on after the rekey" fact verbose after True
check "~# lists the session channel" fact verbose listing True
check "~R is silent at LogLevel INFO, as in OpenSSH" \
    sh -c "! grep -q '~R' '$D/verbose.out'"

# shellcheck disable=SC2086
run suspend $ours -i "$T/id_ed25519" -tt "$ME@127.0.0.1" "$CAT"
check "~^Z announces the suspend" fact suspend said True
check "~^Z stops ssh (state T)" fact suspend stopped True
check "SIGCONT resumes it" fact suspend running True
check "... and the session continues" fact suspend resumed True

# shellcheck disable=SC2086
run background $ours -i "$T/id_ed25519" -tt "$ME@127.0.0.1" 'echo ready; sleep 2'
check "~& prints [backgrounded]" fact background said True
check "~& : the foreground ssh exits 0" fact background status 0
check "~& : a background ssh serves on" fact background child True
check "~& : ... until the session ends" fact background child_gone True

# shellcheck disable=SC2086
run noescape $ours -i "$T/id_ed25519" -o EscapeChar=none -tt "$ME@127.0.0.1" "$CAT"
check "EscapeChar none: ~. is plain data" fact noescape passed True
# shellcheck disable=SC2086
run caret $ours -i "$T/id_ed25519" -e '^' -tt "$ME@127.0.0.1" "$CAT"
check "-e ^: ~. is plain data" fact caret tilde_data True
check "-e ^: ^. disconnects (255)" fact caret status 255

# Passphrase on the tty: a wrong one asks again, the right one logs in.
# shellcheck disable=SC2086
TTY_SECRET=sesame run passphrase $ours -i "$T/id_locked" -tt "$ME@127.0.0.1" 'echo passphrase-ok'
check "Enter passphrase for key '...': on the tty" fact passphrase prompt True
check "a wrong passphrase asks again" fact passphrase reprompt True
check "the right passphrase logs in" fact passphrase ran True
check "... and the command's status comes back" fact passphrase status 0

# shellcheck disable=SC2086
run batch $ours -i "$T/id_locked" -o BatchMode=yes -tt "$ME@127.0.0.1" 'echo nope'
check "BatchMode: no prompt at all" fact batch noprompt True
check "BatchMode: the locked key is skipped (255)" fact batch status 255

# SSH_ASKPASS with no terminal at all.
printf '#!/bin/sh\necho "$1" >> "%s/askpass.log"\necho sesame\n' "$T" > "$T/askpass"
chmod 755 "$T/askpass"
# shellcheck disable=SC2086
out=$(SSH_ASKPASS="$T/askpass" SSH_ASKPASS_REQUIRE=force DISPLAY= \
    setsid -w $ours -i "$T/id_locked" "$ME@127.0.0.1" 'echo askpass-ok' \
    </dev/null 2>"$T/err")
check "SSH_ASKPASS_REQUIRE=force with no tty logs in" [ "$out" = "askpass-ok" ]
check "... asking the askpass program with the prompt" \
    grep -q "Enter passphrase for key '$T/id_locked':" "$T/askpass.log"

# Password on the tty, for a temporary user with a known password.
if [ "$(id -u)" = 0 ] && command -v useradd >/dev/null; then
	U=moatpw$$
	cleanup_user() { userdel -r "$U" >/dev/null 2>&1; cleanup; }
	trap cleanup_user EXIT
	if useradd -m -s /bin/sh "$U" && echo "$U:Pw-$$-ok" | chpasswd; then
		# shellcheck disable=SC2086
		TTY_SECRET="Pw-$$-ok" run password $ours \
		    -o PreferredAuthentications=password \
		    -o NumberOfPasswordPrompts=2 -tt "$U@127.0.0.1" 'echo password-ok'
		check "USER@HOST's password: on the tty" fact password prompt True
		check "a wrong password asks again" fact password reprompt True
		check "the right password logs in" fact password ran True
	else
		echo "could not create a user; password prompt not tested" >&2
	fi
fi
finish
