#!/bin/sh
# Symbolic links made through our sshd and sftp-server by each client,
# whatever order of SSH_FXP_SYMLINK's two paths it sends: asyncssh's
# SFTP client (which picks the order from the server's version string),
# paramiko's SFTPClient.symlink() and Debian's sftp `ln -s` (both always
# target first, as OpenSSH's sftp-server takes them). Each link must be
# a link at the path asked for, holding the target asked for, and
# nothing may appear under another name.
. "$(dirname "$0")/lib.sh"
need sftp
"$PY" -c 'import asyncssh' 2>/dev/null || skip "python3-asyncssh not installed"
"$PY" -c 'import paramiko' 2>/dev/null || skip "python3-paramiko not installed"
make_keys
write_config <<EOC
Subsystem sftp $BIN/sftp-server -l INFO
EOC
start_sshd

# link_is PATH TARGET: PATH is a symbolic link holding TARGET.
link_is() { [ -L "$1" ] && [ "$(readlink "$1")" = "$2" ]; }

# asyncssh.
mkdir "$T/a"
"$PY" -W ignore "$(dirname "$0")/sftp_server_asyncssh.py" 127.0.0.1 "$PORT" "$ME" \
    "$T/id_ed25519" "$T/a" > "$T/out_a" 2>&1
st=$?
sed 's/^/  asyncssh: /' "$T/out_a"
check "asyncssh: symlink, lstat, readlink and a read through the link" \
    [ $st -eq 0 ]
check "asyncssh: the link to an existing file, on disk" \
    link_is "$T/a/link_abs" "$T/a/target"
check "asyncssh: the dangling link, on disk" \
    link_is "$T/a/link_dangling" no-such-file
check "asyncssh: the relative link in a subdirectory, on disk" \
    link_is "$T/a/sub/link_rel" ../target
check "asyncssh: the file it points to is untouched" \
    [ "$(cat "$T/a/target" 2>/dev/null)" = hello ]

# paramiko.
mkdir "$T/p"
echo hello > "$T/p/target"
"$PY" - 127.0.0.1 "$PORT" "$ME" "$T/id_ed25519" "$T/p" > "$T/out_p" 2>&1 <<'EOPY'
import sys
import paramiko
host, port, user, key, d = sys.argv[1:6]
c = paramiko.SSHClient()
c.set_missing_host_key_policy(paramiko.AutoAddPolicy())
c.connect(host, int(port), username=user, key_filename=key,
          look_for_keys=False, allow_agent=False)
s = c.open_sftp()
s.symlink("target", d + "/link")
s.symlink("no-such-file", d + "/link_dangling")
assert s.readlink(d + "/link") == "target", s.readlink(d + "/link")
s.close()
c.close()
EOPY
st=$?
sed 's/^/  paramiko: /' "$T/out_p"
check "paramiko: symlink and readlink" [ $st -eq 0 ]
check "paramiko: the link, on disk" link_is "$T/p/link" target
check "paramiko: the dangling link, on disk" \
    link_is "$T/p/link_dangling" no-such-file

# Debian's sftp.
mkdir "$T/o"
echo hello > "$T/o/target"
printf 'ln -s target link\nln -s no-such-file link_dangling\n' > "$T/batch"
(cd "$T/o" && sftp -F /dev/null -o BatchMode=yes \
    -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
    -o LogLevel=ERROR -o IdentitiesOnly=yes -i "$T/id_ed25519" \
    -P "$PORT" -b - "$ME@127.0.0.1:$T/o" < "$T/batch") > "$T/out_o" 2>&1
st=$?
sed 's/^/  sftp: /' "$T/out_o"
check "Debian's sftp: ln -s" [ $st -eq 0 ]
check "Debian's sftp: the link, on disk" link_is "$T/o/link" target
check "Debian's sftp: the dangling link, on disk" \
    link_is "$T/o/link_dangling" no-such-file
check "nothing else was made" \
    [ "$(ls "$T/a" "$T/p" "$T/o" | tr '\n' ' ')" = \
    "$T/a: link_abs link_dangling sub target  $T/o: link link_dangling target  $T/p: link link_dangling target " ]
finish
