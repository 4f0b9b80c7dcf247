#!/bin/sh
# Install what building and testing moat needs on Debian 12, through apt-get.
# Run as root it installs; otherwise it prints the exact command to run.
# openssh-server is installed without starting its service (a policy-rc.d
# that refuses service starts is in place for the duration of the install).
set -e

PKGS="build-essential cmake pkg-config libssl-dev libpam0g-dev libseccomp-dev
openssh-server openssh-client dropbear-bin python3 python3-paramiko
libpam-oath oathtool sqlite3 softhsm2 opensc curl procps iproute2 util-linux
clang libclang-rt-14-dev tinysshd ucspi-tcp tmux putty-tools valgrind
autoconf automake zlib1g-dev python3-asyncssh fail2ban libfido2-dev
slapd ldap-utils libedit-dev xvfb xauth x11-utils iputils-ping"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done

# sshd's pre-authentication child runs as the account "sshd" (the build's
# MOAT_PRIVSEP_USER default). Debian's openssh-server makes it; make it
# here when it is missing all the same.
add_account="useradd --system --no-create-home --home-dir /run/sshd
--shell /usr/sbin/nologin sshd"
ensure_account() {
	getent passwd sshd >/dev/null 2>&1 && return 0
	if [ "$(id -u)" != 0 ]; then
		echo "moat: missing the privilege separation account sshd" >&2
		echo "moat: run as root: " $add_account >&2
		return 1
	fi
	echo "moat: adding the privilege separation account sshd" >&2
	# shellcheck disable=SC2086
	$add_account
}

if [ -z "$missing" ]; then
	ensure_account
	exit 0
fi

if [ "$(id -u)" != 0 ]; then
	echo "moat: missing packages:$missing" >&2
	echo "moat: run as root:  apt-get install -y$missing" >&2
	ensure_account || true
	exit 1
fi

echo "moat: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
rcd=/usr/sbin/policy-rc.d
made_rcd=0
if [ ! -e "$rcd" ]; then
	printf '#!/bin/sh\nexit 101\n' > "$rcd"
	chmod 755 "$rcd"
	made_rcd=1
fi
cleanup() { if [ "$made_rcd" = 1 ]; then rm -f "$rcd"; fi; }
trap cleanup EXIT
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing
# Never leave a stock sshd running on port 22 on behalf of the tests.
if command -v systemctl >/dev/null 2>&1; then
	systemctl disable --now ssh.service ssh.socket >/dev/null 2>&1 || true
fi
ensure_account
