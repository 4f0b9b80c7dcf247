#!/bin/sh
# keygen_prompts.sh: how our ssh-keygen asks for passphrases, file names
# and comments, against OpenSSH's (standard output, standard error and
# exit status alike): from standard input when there is no terminal,
# through $SSH_ASKPASS as $DISPLAY and SSH_ASKPASS_REQUIRE (force,
# prefer, never) decide, on the terminal (a pty) even when standard
# input is redirected; the -p and -c dialogues and their refusals; the
# warning about a private key others can read; "Enter file in which the
# key is" when -f is missing; ^C at a terminal prompt (echo restored);
# and, in a mount namespace where ~ is a
# scratch tmpfs, key generation into a ~/.ssh it creates.
. "$(dirname "$0")/keygen_lib.inc"
unset DISPLAY SSH_ASKPASS SSH_ASKPASS_REQUIRE

"$O" -q -t ed25519 -N 'secret' -f enc -C "enc key"
"$O" -q -t ed25519 -N '' -f plain -C "plain key"
"$O" -q -t rsa -b 2048 -m PEM -N '' -f pem
cp enc open; chmod 644 open
cat > ap <<'EOT'
#!/bin/sh
echo "askpass asked: [$1]" >&2
echo secret
EOT
printf '#!/bin/sh\necho secret; exit 1\n' > ap_fail
printf '#!/bin/sh\nprintf "secret\\r\\nmore\\n"\n' > ap_crlf
chmod +x ap ap_fail ap_crlf
A="SSH_ASKPASS=$T/ap"

# Passphrases for a key that is read.
alike "stdin" "echo secret | \$KG -y -f enc"
alike "stdin, wrong" "echo wrong | \$KG -y -f enc"
alike "stdin, end of input" "\$KG -y -f enc < /dev/null"
alike "-P first" "echo wrong | \$KG -y -P secret -f enc"
alike "askpass with a display" "$A DISPLAY=:0 \$KG -y -f enc < /dev/null"
alike "askpass: no display" "$A \$KG -y -f enc < /dev/null"
alike "askpass: empty display" "$A DISPLAY= \$KG -y -f enc < /dev/null"
alike "askpass: force" "$A SSH_ASKPASS_REQUIRE=force \$KG -y -f enc \
    < /dev/null"
alike "askpass: Prefer" "$A SSH_ASKPASS_REQUIRE=Prefer DISPLAY=:0 \
    \$KG -y -f enc < /dev/null"
alike "askpass: prefer, no display" "$A SSH_ASKPASS_REQUIRE=prefer \
    \$KG -y -f enc < /dev/null"
alike "askpass: never" "echo secret | $A SSH_ASKPASS_REQUIRE=never \
    DISPLAY=:0 \$KG -y -f enc"
alike "askpass fails" "SSH_ASKPASS=$T/ap_fail SSH_ASKPASS_REQUIRE=force \
    \$KG -y -f enc < /dev/null"
alike "askpass missing" "SSH_ASKPASS=$T/nonexistent \
    SSH_ASKPASS_REQUIRE=force \$KG -y -f enc < /dev/null"
alike "askpass CRLF" "SSH_ASKPASS=$T/ap_crlf SSH_ASKPASS_REQUIRE=force \
    \$KG -y -f enc < /dev/null"
alike "-Y sign asks the same way" "echo msg > m; $A \
    SSH_ASKPASS_REQUIRE=force \$KG -Y sign -f enc -n file m < /dev/null;
    rm -f m.sig"
alike "-e asks too" "echo secret | \$KG -e -f enc"
alike "unprotected key" "\$KG -y -f open; \$KG -p -f open -N x;
    \$KG -c -f open -C x; \$KG -e -f open"

# New keys: asked twice, again until both agree.
alike "new key from stdin" "rm -f n1*; printf 'abcdef\nabcdef\n' |
    \$KG -q -t ed25519 -f n1; \$KG -y -P abcdef -f n1 | cut -d' ' -f1"
alike "new key, answers differ" "rm -f n1*; printf 'a\nb\nc\nc\n' |
    \$KG -q -t ed25519 -f n1; \$KG -y -P c -f n1 | cut -d' ' -f1"
alike "new key through askpass" "rm -f n1*; $A SSH_ASKPASS_REQUIRE=force \
    \$KG -q -t ed25519 -f n1 < /dev/null; \$KG -y -P secret -f n1 |
    cut -d' ' -f1"
alike "new key, -P" "rm -f n1*; \$KG -q -t ed25519 -P abcdef -f n1 \
    < /dev/null; \$KG -y -P abcdef -f n1 | cut -d' ' -f1"

# -p: old passphrase, new one twice.
alike "-p from stdin" "cp enc p1; printf 'secret\nnew\nnew\n' |
    \$KG -p -f p1; \$KG -y -P new -f p1"
alike "-p, new ones differ" "cp enc p1; printf 'secret\nx\ny\n' |
    \$KG -p -f p1"
alike "-p, wrong old one" "cp enc p1; echo wrong | \$KG -p -f p1 -N x"
alike "-p, wrong -P" "cp enc p1; \$KG -p -f p1 -P wrong -N x"
alike "-p, unencrypted key, -P ignored" "cp plain p1; \
    \$KG -p -f p1 -P wrong -N abc; \$KG -y -P abc -f p1"
alike "-p of a PEM key" "cp pem p1; \$KG -p -f p1 -N ''; head -1 p1"
alike "-p -m PEM" "cp plain p1; \$KG -p -m PEM -f p1 -N ''; head -1 p1"
alike "-p -m PKCS8, short passphrase" "cp pem p1; \
    \$KG -p -m PKCS8 -f p1 -N abc; head -1 p1"
alike "-p -m PKCS8" "cp pem p1; \$KG -p -m PKCS8 -f p1 -N abcdef;
    head -1 p1; \$KG -y -P abcdef -f p1"
alike "-p, missing file" "\$KG -p -f missing -N x"

# -c: passphrase, then the comment.
alike "-c from stdin" "cp enc c1; cp enc.pub c1.pub;
    printf 'secret\nnew comment\n' | \$KG -c -f c1; cat c1.pub"
alike "-c, wrong passphrase" "cp enc c1; printf 'x\nnew\n' | \$KG -c -f c1"
alike "-c takes -N as the passphrase" "cp enc c1; \
    \$KG -c -f c1 -N secret -C hi"
alike "-c, empty comment" "cp plain c1; \$KG -c -f c1 -C ''; cat c1.pub"
alike "-c, same comment" "cp plain c1; \$KG -c -f c1 -C 'plain key'"
alike "-c, end of input" "cp plain c1; \$KG -c -f c1 < /dev/null"
alike "-c of a PEM key" "cp pem c1; \$KG -c -f c1 -C x; head -1 c1;
    cut -d' ' -f3 c1.pub"
alike "-c -m PEM of an RSA key" "cp pem c1; \$KG -c -m PEM -f c1 -C x"
alike "-c -m PEM of an Ed25519 key" "cp plain c1; \
    \$KG -c -m PEM -f c1 -C x; head -1 c1"

# No -f: the file is asked for (the default is in the user's home).
"$O" -e -f plain.pub > plain.rfc
"$O" -q -s plain -I id -n a enc.pub
for m in -y -l -B -p -c -e -i -L; do
	case $m in
	-i) f=plain.rfc ;;
	-L) f=enc-cert.pub ;;
	*) f=q ;;
	esac
	alike "no -f: $m" "cp plain q; cp plain.pub q.pub;
	    echo $T/$f | \$KG $m -N x -C y"
	alike "no -f, end of input: $m" "\$KG $m < /dev/null"
done

# The terminal: the prompt there, echo off, even with stdin redirected.
if command -v python3 > /dev/null; then
	cat > pty.py <<'EOT'
import os, pty, select, sys
pid, fd = pty.fork()
if pid == 0:
    os.execvp("sh", ["sh", "-c", sys.argv[2]])
out, sent = b"", False
while True:
    if not select.select([fd], [], [], 1.0)[0]:
        if sent:
            break
        os.write(fd, sys.argv[1].encode() + b"\n")
        sent = True
        continue
    try:
        data = os.read(fd, 4096)
    except OSError:
        break
    if not data:
        break
    out += data
os.waitpid(pid, 0)
sys.stdout.write(repr(out) + "\n")
EOT
	alike "terminal" "python3 pty.py secret '\$KG -y -f enc'"
	alike "terminal, stdin redirected" \
	    "python3 pty.py secret '\$KG -y -f enc < /dev/null'"
	alike "terminal, askpass prefer" "$A SSH_ASKPASS_REQUIRE=prefer \
	    DISPLAY=:0 python3 pty.py wrong '\$KG -y -f enc'"
	# ^C at the prompt: echo back on, then the signal's death.
	cat > ptyint.py <<'EOT'
import os, pty, select, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execvp("sh", ["sh", "-c", sys.argv[1]])
out = b""
while b": " not in out and select.select([fd], [], [], 5.0)[0]:
    out += os.read(fd, 4096)
os.write(fd, b"\x03")
while select.select([fd], [], [], 2.0)[0]:
    try:
        data = os.read(fd, 4096)
    except OSError:
        break
    if not data:
        break
    out += data
os.waitpid(pid, 0)
sys.stdout.write(repr(out) + "\n")
EOT
	alike "terminal, interrupted" "python3 ptyint.py \"trap 'echo trapped' \
	    INT; \$KG -y -f enc; echo rc=\\\$?; stty -a | grep -o ' -*echo '\""
fi

# Without -f a new key goes to ~/.ssh, made if missing: only where a
# mount namespace can put a scratch tmpfs on the home directory.
home=$(getent passwd "$(id -u)" | cut -d: -f6)
if [ -n "$home" ] && unshare -m sh -c "mount -t tmpfs none '$home'" \
    2>/dev/null; then
	inhome() {
		alike "$1" "unshare -m sh -c \"mount -t tmpfs none '$home' &&
		    cd $T && $2\""
	}
	inhome "new key into a new ~/.ssh" "echo | \$KG -t ed25519 -N '' |
	    head -3; ls -la $home/.ssh | cut -c1-10 | sort"
	inhome "new key, -q" "echo | \$KG -q -t ecdsa -N ''; ls $home/.ssh"
	inhome "new key, end of input" "\$KG -q -N '' < /dev/null; ls $home"
	inhome "new key, a path of one's own" "echo $home/k |
	    \$KG -q -t rsa -b 2048 -N ''; ls $home"
	inhome "new key, no overwrite" "mkdir $home/.ssh;
	    \$KG -q -t ed25519 -N '' -f $home/.ssh/id_ed25519;
	    printf '\nn\n' | \$KG -t ed25519 -N ''"
fi
finish
