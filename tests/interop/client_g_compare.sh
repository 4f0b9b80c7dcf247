#!/bin/sh
# ssh -G compared with Debian's OpenSSH 9.2 line for line (sorted) over
# a broad ssh_config: most keywords 9.2 knows, with typical values, in
# several Host blocks, %-tokens in the paths and commands that take them,
# and -o/-p/-l on the command line. Lines that differ on purpose are
# left out by keyword (IGNORE below, each with its reason).
. "$(dirname "$0")/lib.sh"
[ -x /usr/bin/ssh ] || skip "Debian's ssh not installed"
# -G prints paths under the home directory expanded; both must see one.
export HOME="$T/home"
mkdir -p "$HOME/.ssh"
: > "$T/id_k"

# Left out of the comparison, on purpose:
# - the algorithm lists: our defaults are current OpenSSH's (ML-KEM
#   first, no SHA-1 MACs ...), not 9.2's (README, the features table);
# - gssapi*: Debian's ssh has GSSAPI, ours has not (it prints no line);
# - channeltimeout, obscurekeystroketiming, warnweakcrypto: keywords
#   newer than 9.2, printed as current OpenSSH prints them.
IGNORE='^(ciphers|macs|kexalgorithms|hostkeyalgorithms|pubkeyacceptedalgorithms|hostbasedacceptedalgorithms|casignaturealgorithms|gssapi[a-z]*|channeltimeout|obscurekeystroketiming|warnweakcrypto) '

# SyslogFacility and StreamLocalBindMask stay outside Host blocks: 9.2
# (and 10.5) take them from blocks that do not match too, which ours
# does not copy.
cat > "$T/c.conf" <<'CFG'
SyslogFacility LOCAL3
StreamLocalBindMask 022
Host alpha
	HostName alpha.example.org
	User alice
	Port 2201
	IdentityFile ~/.ssh/id_%h_%r
	IdentityFile /etc/ssh/k_%u_%l
	CertificateFile ~/.ssh/%h-cert.pub
	CertificateFile /etc/ssh/%r-cert.pub
	ControlMaster auto
	ControlPath ~/.ssh/cm-%C
	ControlPersist 10m
	LocalCommand echo %h %p %r %u %C %d %k %L %l %n %i
	PermitLocalCommand yes
	RemoteCommand echo %h %p %r %u %C %d %k %L %l %n %i %%
	UserKnownHostsFile ~/.ssh/kh_%h /tmp/kh_%k_%u
	KnownHostsCommand /bin/echo %h %p %r %u %H %K %f %t
	SetEnv A=1 B=2
	SetEnv C=3
	SendEnv LANG LC_*
	SendEnv XMODIFIERS
	LocalForward 8080 127.0.0.1:80
	LocalForward 127.0.0.1:8081 h:81
	LocalForward *:8082 [::1]:82
	RemoteForward 9090 localhost:22
	RemoteForward 9091
	RemoteForward 0.0.0.0:9092 h:22
	DynamicForward 1080
	DynamicForward 127.0.0.1:1081
	ServerAliveInterval 30
	ServerAliveCountMax 5
	StrictHostKeyChecking accept-new
	Compression yes
	ForwardAgent yes
	ForwardX11 yes
	ForwardX11Trusted no
	ForwardX11Timeout 20m
	AddKeysToAgent confirm 1h
	ConnectTimeout 15
	ConnectionAttempts 3
	RekeyLimit 512M 30m
	EscapeChar ~
	LogLevel DEBUG1
	BatchMode yes
	HashKnownHosts yes
	IdentitiesOnly yes
	PreferredAuthentications publickey,password
	RequestTTY yes
	StreamLocalBindUnlink yes
	TCPKeepAlive no
	VisualHostKey yes
	UpdateHostKeys no
	VerifyHostKeyDNS ask
	CheckHostIP yes
	AddressFamily inet
	BindAddress 127.0.0.1
	CanonicalizeHostname no
	CanonicalDomains example.org example.net
	CanonicalizeMaxDots 2
	CanonicalizeFallbackLocal no
	ClearAllForwardings no
	EnableSSHKeysign no
	ExitOnForwardFailure yes
	FingerprintHash md5
	ForkAfterAuthentication no
	GatewayPorts yes
	GlobalKnownHostsFile /etc/ssh/kh1 /etc/ssh/kh2
	HostbasedAuthentication no
	HostKeyAlias alias1
	IPQoS af21 cs1
	KbdInteractiveAuthentication yes
	NoHostAuthenticationForLocalhost yes
	NumberOfPasswordPrompts 2
	PasswordAuthentication yes
	PermitRemoteOpen localhost:80 *:443
	ProxyJump none
	PubkeyAuthentication yes
	RevokedHostKeys /etc/ssh/revoked
	SessionType default
	StdinNull no
	Tunnel point-to-point
	TunnelDevice 3:4
	XAuthLocation /usr/bin/xauth
	IdentityAgent ~/.ssh/agent.sock
	IgnoreUnknown Foo*
	RequiredRSASize 2048
	SecurityKeyProvider internal
	ProxyUseFdpass no
	Ciphers aes128-ctr,aes256-gcm@openssh.com
	MACs hmac-sha2-256
	KexAlgorithms curve25519-sha256
	HostKeyAlgorithms ssh-ed25519
	PubkeyAcceptedAlgorithms ssh-ed25519,rsa-sha2-512
	CompressionLevel 6
	UseRoaming no
	Protocol 2
Host beta
	ProxyCommand ssh -W %h:%p jump
	User bob
	LogLevel VERBOSE
	ControlPath /tmp/c-%r@%h:%p
	ForwardAgent /tmp/agent
	AddKeysToAgent yes
	EscapeChar none
	ConnectTimeout none
	ControlPersist yes
	Tunnel yes
	PubkeyAuthentication no
	ServerAliveInterval 0
Host gamma
	ProxyJump u@j1:2222,j2
	LogLevel DEBUG3
	AddKeysToAgent 5m
	ControlPersist no
	RemoteCommand uptime
Host *
	GSSAPIAuthentication yes
	GSSAPIDelegateCredentials no
	HashKnownHosts no
CFG

for h in alpha beta gamma delta; do
	for args in "" "-v" "-vvv" "-o User=zed -o Port=99 -p 98 -l lu" \
	    "-o LogLevel=DEBUG2 -i $T/id_k -o SetEnv=X=9"; do
		# shellcheck disable=SC2086
		"$BIN/ssh" -G $args -F "$T/c.conf" $h 2>"$T/e.ours" |
		    grep -Ev "$IGNORE" | sort > "$T/ours"
		# shellcheck disable=SC2086
		/usr/bin/ssh -G $args -F "$T/c.conf" $h 2>"$T/e.deb" \
		    </dev/null | grep -Ev "$IGNORE" | sort > "$T/deb"
		if [ -s "$T/deb" ] && cmp -s "$T/ours" "$T/deb"; then
			pass "ssh -G $args $h as OpenSSH 9.2"
		else
			fail "ssh -G $args $h as OpenSSH 9.2"
			diff "$T/ours" "$T/deb" >&2
			cat "$T/e.ours" >&2
		fi
	done
done
finish
