#!/bin/sh
# make install's tree: `cmake --install` of the build under test with
# DESTDIR in $T. Each program lands where Debian's openssh-server,
# openssh-client and openssh-sftp-server put OpenSSH's (dpkg -L), below
# the prefix; the paths compiled into the programs are the installed
# ones; ssh-keysign is setuid root when root installs it; the stock
# sshd_config, installed ssh-keygen -A's host keys and sshd -t agree;
# an existing configuration file is never replaced; installing to a
# prefix other than the compiled-in one is refused; ssh.service is
# what a Type=notify sshd needs and passes systemd-analyze verify.
# Last, the paths a configuration for /usr and for /opt/moat derives.
. "$(dirname "$0")/lib.sh"
need cmake
B=$(cd "$BIN/.." && pwd)
[ -f "$B/cmake_install.cmake" ] && [ -f "$B/dist/paths.sh" ] ||
    skip "no CMake build tree with dist/paths.sh above $BIN"
. "$B/dist/paths.sh"
D=$T/root

DESTDIR=$D cmake --install "$B" --prefix "$PREFIX" > "$T/install.log" 2>&1
check "cmake --install with DESTDIR" [ $? -eq 0 ]
[ "$FAILS" -eq 0 ] || { cat "$T/install.log" >&2; finish; }

# --- where each program goes: Debian's place, relative to /usr ---
debian_path() { # NAME: Debian's path of OpenSSH's program NAME
	if command -v dpkg >/dev/null 2>&1 &&
	    dpkg -L openssh-server openssh-client openssh-sftp-server \
	    > "$T/dpkg.list" 2>/dev/null; then
		grep -E "^/usr/(s?bin|lib/openssh)/$1\$" "$T/dpkg.list" | head -1
	else
		case $1 in
		sshd) echo /usr/sbin/sshd ;;
		ssh-keysign|sftp-server|ssh-pkcs11-helper) echo "/usr/lib/openssh/$1" ;;
		*) echo "/usr/bin/$1" ;;
		esac
	fi
}
for p in sshd ssh ssh-keygen ssh-keyscan sftp scp ssh-agent ssh-add \
    ssh-keysign sftp-server ssh-pkcs11-helper; do
	[ -x "$BIN/$p" ] || continue
	deb=$(debian_path "$p")
	[ -n "$deb" ] || { fail "$p: no Debian path found"; continue; }
	ours=$D$PREFIX${deb#/usr}
	check "$p installed as Debian's ${deb#/usr} under the prefix" \
	    [ -f "$ours" -a -x "$ours" ]
	check "$p: the same file as the build's" cmp -s "$BIN/$p" "$ours"
done
check "sshd in SBINDIR" [ "$SBINDIR" = "$PREFIX/sbin" ]
check "helpers in LIBEXECDIR" [ "$LIBEXECDIR" = "$PREFIX/lib/openssh" ]

# --- the paths compiled in are the installed ones ---
has() { grep -a -q -F "$2" "$1"; }
check "sshd reads $SSHDIR/sshd_config" has "$D$SBINDIR/sshd" "$SSHDIR/sshd_config"
check "ssh reads $SSHDIR/ssh_config" has "$D$BINDIR/ssh" "$SSHDIR/ssh_config"
check "ssh runs $LIBEXECDIR/ssh-keysign" \
    has "$D$BINDIR/ssh" "$LIBEXECDIR/ssh-keysign"
check "ssh-keygen -A writes $SSHDIR" \
    has "$D$BINDIR/ssh-keygen" "$SSHDIR/ssh_host_ed25519_key"

# --- modes ---
mode() { stat -c '%a %U' "$1"; }
check "sshd 0755" [ "$(mode "$D$SBINDIR/sshd")" = "755 $ME" ]
check "ssh 0755" [ "$(mode "$D$BINDIR/ssh")" = "755 $ME" ]
check "sftp-server 0755" [ "$(mode "$D$LIBEXECDIR/sftp-server")" = "755 $ME" ]
if [ "$(id -u)" = 0 ]; then
	check "ssh-keysign setuid root ($KEYSIGN_MODE, as Debian's)" \
	    [ "$(mode "$D$LIBEXECDIR/ssh-keysign")" = "$KEYSIGN_MODE root" ]
	if [ -u /usr/lib/openssh/ssh-keysign ]; then
		check "Debian's ssh-keysign has that mode too" \
		    [ "$(mode /usr/lib/openssh/ssh-keysign)" = "$KEYSIGN_MODE root" ]
	fi
else
	echo "not root: the setuid bit of ssh-keysign is not checked" >&2
	check "ssh-keysign not setuid when not root" \
	    [ ! -u "$D$LIBEXECDIR/ssh-keysign" ]
fi
for f in "$SSHDIR/sshd_config" "$SSHDIR/ssh_config" "$PAMDIR/sshd" \
    "$UNITDIR/ssh.service"; do
	check "$f 0644" [ "$(stat -c %a "$D$f")" = 644 ]
done
check "sshd_config.d and ssh_config.d" \
    [ -d "$D$SSHDIR/sshd_config.d" -a -d "$D$SSHDIR/ssh_config.d" ]
check "manual pages" \
    [ -f "$D$MANDIR/man8/sshd.8" -a -f "$D$MANDIR/man5/sshd_config.5" ]

# --- the stock configuration: Debian's settings, and sshd takes it ---
C=$D$SSHDIR/sshd_config
line() { grep -q -x -F "$2" "$1"; }
for l in "Include $SSHDIR/sshd_config.d/*.conf" \
    "KbdInteractiveAuthentication no" "UsePAM yes" "X11Forwarding no" \
    "PrintMotd no" "AcceptEnv LANG LC_*" \
    "Subsystem sftp $LIBEXECDIR/sftp-server"; do
	check "sshd_config: $l" line "$C" "$l"
done
check "ssh_config: Include" \
    line "$D$SSHDIR/ssh_config" "Include $SSHDIR/ssh_config.d/*.conf"
check "ssh_config: SendEnv" line "$D$SSHDIR/ssh_config" "    SendEnv LANG LC_*"
check "PAM service: Debian's stacks" \
    grep -q "^@include common-auth" "$D$PAMDIR/sshd"

"$D$BINDIR/ssh-keygen" -A -f "$D" > "$T/keygen.out" 2>&1
check "installed ssh-keygen -A -f DESTDIR" [ $? -eq 0 ]
for t in rsa ecdsa ed25519; do
	check "host key $t in DESTDIR$SSHDIR, 0600" \
	    [ "$(stat -c %a "$D$SSHDIR/ssh_host_${t}_key" 2>&1)" = 600 ]
done
K="-h $D$SSHDIR/ssh_host_rsa_key -h $D$SSHDIR/ssh_host_ecdsa_key
   -h $D$SSHDIR/ssh_host_ed25519_key"
# shellcheck disable=SC2086
"$D$SBINDIR/sshd" -t -f "$C" $K > "$T/sshd_t.out" 2>&1
check "installed sshd -t accepts the installed sshd_config" [ $? -eq 0 ]
[ -s "$T/sshd_t.out" ] && cat "$T/sshd_t.out" >&2
# shellcheck disable=SC2086
"$D$SBINDIR/sshd" -T -f "$C" $K > "$T/sshd_T.out" 2>&1
check "sshd -T: the sftp subsystem" \
    line "$T/sshd_T.out" "subsystem sftp $LIBEXECDIR/sftp-server"
check "sshd -T: usepam yes" line "$T/sshd_T.out" "usepam yes"
"$D$BINDIR/ssh" -G -F "$D$SSHDIR/ssh_config" example.org > "$T/ssh_G.out" 2>&1
check "installed ssh -G takes the installed ssh_config" [ $? -eq 0 ]
check "ssh -G: hashknownhosts yes" line "$T/ssh_G.out" "hashknownhosts yes"

# --- an administrator's files are kept; ours are brought up to date ---
echo "# local edit" >> "$C"
echo "# local edit" >> "$D$PAMDIR/sshd"
echo "# local edit" >> "$D$UNITDIR/ssh.service"
cp "$C" "$T/sshd_config.edited"
DESTDIR=$D cmake --install "$B" --prefix "$PREFIX" > "$T/install2.log" 2>&1
check "installed again" [ $? -eq 0 ]
check "an edited sshd_config kept" cmp -s "$C" "$T/sshd_config.edited"
check "an edited PAM service kept" \
    grep -q "^# local edit" "$D$PAMDIR/sshd"
check "the unit replaced" [ "$(grep -c "local edit" "$D$UNITDIR/ssh.service")" = 0 ]
check "host keys kept" [ -s "$D$SSHDIR/ssh_host_ed25519_key" ]

# --- another prefix than the one compiled in: refused, nothing written ---
DESTDIR=$T/other cmake --install "$B" --prefix "$T/elsewhere" \
    > "$T/install3.log" 2>&1
check "install to another prefix refused" [ $? -ne 0 ]
check "and says why" grep -q "configured for the prefix" "$T/install3.log"
check "nothing written" [ ! -e "$T/other" ]

# --- the systemd unit ---
U=$D$UNITDIR/ssh.service
for l in "Type=notify" "ExecStartPre=$BINDIR/ssh-keygen -A" \
    "ExecStartPre=$SBINDIR/sshd -t" "ExecStart=$SBINDIR/sshd -D \$SSHD_OPTS" \
    "ExecReload=/bin/kill -HUP \$MAINPID" "RuntimeDirectory=sshd" \
    "KillMode=process"; do
	check "ssh.service: $l" line "$U" "$l"
done
check "ssh-keygen -A before sshd -t" [ "$(grep '^ExecStartPre=' "$U" |
    head -1)" = "ExecStartPre=$BINDIR/ssh-keygen -A" ]
if command -v systemd-analyze >/dev/null 2>&1; then
	# The unit's programs are in DESTDIR here: point it at them.
	mkdir "$T/units"
	sed "s|=$SBINDIR/|=$D$SBINDIR/|; s|=$BINDIR/|=$D$BINDIR/|" "$U" \
	    > "$T/units/ssh.service"
	systemd-analyze verify "$T/units/ssh.service" > "$T/verify.out" 2>&1
	rc=$?
	check "systemd-analyze verify: no complaint" \
	    [ $rc -eq 0 -a ! -s "$T/verify.out" ]
	[ -s "$T/verify.out" ] && cat "$T/verify.out" >&2
	# It can complain: a misspelt key is reported.
	sed 's/^Type=notify/Typ=notify/' "$T/units/ssh.service" \
	    > "$T/units/bad.service"
	systemd-analyze verify "$T/units/bad.service" > "$T/verify2.out" 2>&1
	check "systemd-analyze verify reports a bad key" [ -s "$T/verify2.out" ]
else
	echo "systemd-analyze not installed: the unit is not verified" >&2
fi

# --- the paths a configuration derives from its prefix ---
derived() { # PREFIX: configure only, in $T; prints the chosen paths
	rm -rf "$T/cfg"
	cmake -S "$SRC" -B "$T/cfg" -DCMAKE_INSTALL_PREFIX="$1" \
	    > "$T/cfg.log" 2>&1 || { cat "$T/cfg.log" >&2; return 1; }
	(. "$T/cfg/dist/paths.sh"; echo "$SBINDIR $LIBEXECDIR $SSHDIR $UNITDIR")
}
check "prefix /usr: Debian's paths" [ "$(derived /usr)" = \
    "/usr/sbin /usr/lib/openssh /etc/ssh /usr/lib/systemd/system" ]
check "... in the generated sshd_config" \
    line "$T/cfg/dist/sshd_config" "Subsystem sftp /usr/lib/openssh/sftp-server"
check "prefix /opt/moat: /etc/opt/moat/ssh" [ "$(derived /opt/moat)" = \
    "/opt/moat/sbin /opt/moat/lib/openssh /etc/opt/moat/ssh /opt/moat/lib/systemd/system" ]
check "prefix /usr/local chosen: /usr/local/etc/ssh" \
    [ "$(derived /usr/local | cut -d' ' -f3)" = /usr/local/etc/ssh ]
finish
