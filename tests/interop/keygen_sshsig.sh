#!/bin/sh
# keygen_sshsig.sh: ssh-keygen -Y against OpenSSH's. Signatures made by
# either program are good under both, for ed25519, ECDSA and RSA keys
# and for a certificate under a cert-authority line; a changed message, a
# wrong namespace, a signer whose valid-before has passed and a wrong
# identity are refused by both, with the same output (standard output,
# standard error and exit status alike). Then git: commits signed through
# one program (gpg.format=ssh) are verified by git through the other. An
# agent holding the key signs when only the public key is given.
. "$(dirname "$0")/keygen_lib.inc"
unset SSH_AUTH_SOCK

printf 'a message\nin two lines\n' > msg
printf 'a massage\nin two lines\n' > bad
: > allowed
types="ed25519 ecdsa256 ecdsa384 rsa"
for n in $types; do
	case $n in
	ed25519) t="-t ed25519" ;;
	ecdsa*) t="-t ecdsa -b ${n#ecdsa}" ;;
	rsa) t="-t rsa -b 2048" ;;
	esac
	"$O" -q $t -N '' -f k_$n -C "key $n"
	echo "p_$n@example.com $(cat k_$n.pub)" >> allowed
done
echo "old@example.com valid-before=\"20200101\" $(cat k_ed25519.pub)" >> allowed
echo "mail@example.com namespaces=\"mail\" $(cat k_ecdsa256.pub)" >> allowed

for n in $types; do
	for who in K O; do
		eval prog=\$$who
		cp msg m_${who}_$n
		check "$who signs with $n" "$prog" -q -Y sign -f k_$n -n file \
		    m_${who}_$n
		s=m_${who}_$n.sig
		for v in K O; do
			eval ver=\$$v
			check "$v verifies $who's $n signature" sh -c \
			    "'$ver' -Y verify -f allowed -I p_$n@example.com \
			    -n file -s $s < msg"
			refuse "$v: $who's $n, changed message" sh -c \
			    "'$ver' -Y verify -f allowed -I p_$n@example.com \
			    -n file -s $s < bad"
			refuse "$v: $who's $n, wrong namespace" sh -c \
			    "'$ver' -Y verify -f allowed -I p_$n@example.com \
			    -n git -s $s < msg"
			refuse "$v: $who's $n, wrong identity" sh -c \
			    "'$ver' -Y verify -f allowed -I p_rsa@example.co \
			    -n file -s $s < msg"
		done
		alike "verify $who's $n" "\$KG -Y verify -f allowed \
		    -I p_$n@example.com -n file -s $s < msg"
		alike "verify $who's $n, changed message" "\$KG -Y verify \
		    -f allowed -I p_$n@example.com -n file -s $s < bad"
		alike "verify $who's $n, wrong namespace" "\$KG -Y verify \
		    -f allowed -I p_$n@example.com -n mail -s $s < msg"
		alike "verify $who's $n, wrong identity" "\$KG -Y verify \
		    -f allowed -I nobody -n file -s $s < msg"
		alike "check-novalidate $who's $n" "\$KG -Y check-novalidate \
		    -n file -s $s -O print-pubkey < msg"
		alike "find-principals $who's $n" "\$KG -Y find-principals \
		    -f allowed -s $s"
	done
	# Ed25519 signatures are deterministic: the very same bytes.
	[ $n = ed25519 ] && check "ed25519 signatures equal" \
	    cmp m_K_$n.sig m_O_$n.sig
done
for hash in sha256 sha512 md5; do
	alike "sign -O hashalg=$hash, stdin" "\$KG -Y sign -f k_ed25519 \
	    -n file -O hashalg=$hash < msg"
done

# valid-before has passed; namespaces= does not include "file".
"$O" -q -Y sign -f k_ed25519 -n file < msg > ed.sig
"$O" -q -Y sign -f k_ecdsa256 -n file < msg > ec.sig
refuse "K: expired signer" sh -c "'$K' -Y verify -f allowed \
    -I old@example.com -n file -s ed.sig < msg"
refuse "O: expired signer" sh -c "'$O' -Y verify -f allowed \
    -I old@example.com -n file -s ed.sig < msg"
# (The message shows the time: pin it, or a slow run may see the next
# second.)
alike "expired signer" "\$KG -Y verify -f allowed -I old@example.com \
    -n file -s ed.sig -O verify-time=20250101 < msg"
alike "namespace not allowed" "\$KG -Y verify -f allowed \
    -I mail@example.com -n file -s ec.sig < msg"
alike "verify-time before valid-before" "\$KG -Y verify -f allowed \
    -I old@example.com -n file -s ed.sig -O verify-time=20190101 < msg"
alike "match-principals" "\$KG -Y match-principals -f allowed -I '*'"
alike "match-principals, none" "\$KG -Y match-principals -f allowed \
    -I nobody"

# A certificate, trusted through its CA's cert-authority line.
"$O" -q -t ed25519 -N '' -f ca
"$O" -q -t ecdsa -N '' -f ck
"$O" -q -s ca -I cert-id -n alice,bob -V -1d:+1d ck.pub
echo "alice,carol,b* cert-authority $(cat ca.pub)" > allowed_ca
for who in K O; do
	eval prog=\$$who
	cp msg c_$who
	check "$who signs with a certificate" "$prog" -q -Y sign \
	    -f ck-cert.pub -n file c_$who
	s=c_$who.sig
	for v in K O; do
		eval ver=\$$v
		check "$v verifies $who's certificate signature" sh -c \
		    "'$ver' -Y verify -f allowed_ca -I alice -n file \
		    -s $s < msg"
		refuse "$v: $who's certificate, principal not in it" sh -c \
		    "'$ver' -Y verify -f allowed_ca -I carol -n file \
		    -s $s < msg"
		refuse "$v: $who's certificate, changed message" sh -c \
		    "'$ver' -Y verify -f allowed_ca -I alice -n file \
		    -s $s < bad"
		refuse "$v: $who's certificate, plain key line" sh -c \
		    "'$ver' -Y verify -f allowed -I alice -n file -s $s < msg"
	done
	for i in alice bob carol dave; do
		alike "verify $who's certificate as $i" "\$KG -Y verify \
		    -f allowed_ca -I $i -n file -s $s < msg"
	done
	alike "verify $who's certificate, expired at verify-time" \
	    "\$KG -Y verify -f allowed_ca -I alice -n file -s $s \
	    -O verify-time=20300101 < msg"
	alike "find-principals $who's certificate" "\$KG -Y find-principals \
	    -f allowed_ca -s $s"
	alike "check-novalidate $who's certificate" "\$KG -Y check-novalidate \
	    -n file -s $s -O print-pubkey < msg"
done

# Malformed signature files and allowed signers lines.
sed '2s/^./!/' m_O_ed25519.sig > garbled.sig
tail -n +2 m_O_ed25519.sig > headless.sig
for s in garbled.sig headless.sig msg missing.sig; do
	alike "verify $s" "\$KG -Y verify -f allowed -I p_ed25519@example.com \
	    -n file -s $s < msg"
	alike "find-principals $s" "\$KG -Y find-principals -f allowed -s $s"
done
k=$(cat k_ed25519.pub)
printf '%s\n' "bad line" "" "x foo $k" "x namespaces=\"a $k" \
    "x valid-after=2030 $k" "\"q w\",x $k" "x cert-authority, $k" \
    "x@y,p_ed25519@example.com $k" > allowed_odd
alike "odd lines, verify" "\$KG -Y verify -f allowed_odd \
    -I p_ed25519@example.com -n file -s m_K_ed25519.sig < msg"
alike "odd lines, find-principals" "\$KG -Y find-principals \
    -f allowed_odd -s m_K_ed25519.sig"
alike "odd lines, match-principals" "\$KG -Y match-principals \
    -f allowed_odd -I x"

# git: commits signed through one program, verified through the other.
if command -v git >/dev/null 2>&1; then
	export GIT_CONFIG_NOSYSTEM=1 HOME="$T"
	git init -q repo
	git -C repo config user.name Signer
	git -C repo config user.email p_ed25519@example.com
	git -C repo config gpg.format ssh
	git -C repo config user.signingkey "$T/k_ed25519"
	git -C repo config gpg.ssh.allowedSignersFile "$T/allowed"
	good='Good "git" signature for p_ed25519@example.com with ED25519 key'
	for who in K O; do
		eval prog=\$$who
		check "git commit -S through $who" git -C repo \
		    -c gpg.ssh.program="$prog" commit -q -S --allow-empty \
		    -m "signed through $who"
		for v in K O; do
			eval ver=\$$v
			check "git verify-commit ($who signed) through $v" \
			    git -C repo -c gpg.ssh.program="$ver" \
			    verify-commit HEAD
			out=$(git -C repo -c gpg.ssh.program="$ver" \
			    verify-commit HEAD 2>&1)
			case $out in
			*"$good"*)
				kg_pass=$((kg_pass + 1)) ;;
			*)	kg_fail=$((kg_fail + 1))
				echo "FAIL: git verify-commit via $v: $out" ;;
			esac
			refuse "git verify-commit ($who), not allowed, via $v" \
			    git -C repo -c gpg.ssh.program="$ver" \
			    -c gpg.ssh.allowedSignersFile="$T/allowed_ca" \
			    verify-commit HEAD
		done
	done
else
	echo "git not installed: git commit -S cases skipped"
fi

# An agent holding the key signs for its public key file.
if command -v ssh-agent >/dev/null 2>&1 &&
    command -v ssh-add >/dev/null 2>&1; then
	eval "$(ssh-agent -s)" >/dev/null
	trap 'kill "$SSH_AGENT_PID" 2>/dev/null; rm -rf "$T" "$kg_out"' EXIT
	ssh-add -q k_ed25519 ck 2>/dev/null
	cp k_ed25519.pub agent_only.pub
	cp ck-cert.pub agent_cert-cert.pub
	check "K signs through the agent" sh -c "'$K' -q -U -Y sign \
	    -f agent_only.pub -n file < msg > agent.sig"
	check "O verifies the agent's signature" sh -c "'$O' -Y verify \
	    -f allowed -I p_ed25519@example.com -n file -s agent.sig < msg"
	check "K signs through the agent with a certificate" sh -c "'$K' -q \
	    -Y sign -f agent_cert-cert.pub -n file < msg > agent_c.sig"
	check "O verifies it" sh -c "'$O' -Y verify -f allowed_ca -I bob \
	    -n file -s agent_c.sig < msg"
	alike "-U, key not in the agent" "\$KG -U -Y sign -f k_rsa.pub \
	    -n file < msg"
	kill "$SSH_AGENT_PID"
	unset SSH_AUTH_SOCK
	alike "-U, no agent" "\$KG -U -Y sign -f k_rsa -n file < msg"
else
	echo "ssh-agent not installed: agent cases skipped"
fi
finish
