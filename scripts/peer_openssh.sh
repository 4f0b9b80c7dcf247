#!/bin/sh
# peer_openssh.sh: build a current OpenSSH to test against, once.
#
# The source is the release tarball kept beside the project
# (../shared/peers/openssh-*.tar.gz from the top of the tree, or
# $MOAT_PEER_TARBALL). It is configured with a prefix of its own, built,
# and installed into that prefix only (never system-wide), together with
# OpenSSH's software FIDO authenticator (sk-dummy.so) for tests of
# security keys. It is a peer for interop tests, nothing more.
#
# The result is cached by the tarball's SHA-256: a later run (or another
# clone on the same machine) with the same tarball reuses it. The cache
# is $MOAT_PEER_CACHE, else /var/cache/moat-peers when that can be
# written, else build-peers/ at the top of the tree. A lock keeps two
# runs from building at once; the prefix appears whole or not at all.
#
# usage: sh scripts/peer_openssh.sh        build if needed; print the prefix
#        sh scripts/peer_openssh.sh -q     the same, printing only the prefix
# Exit status: 0 with the prefix on stdout; 77 when no tarball is there
# (tests that need the peer then skip); 1 when the build failed.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
quiet=0
[ "${1:-}" = -q ] && quiet=1
say() { [ "$quiet" = 1 ] || echo "peer_openssh: $*" >&2; }

tarball=${MOAT_PEER_TARBALL:-}
if [ -z "$tarball" ]; then
	for f in "$top"/../shared/peers/openssh-*.tar.gz; do
		[ -f "$f" ] && tarball=$f
	done
fi
if [ -z "$tarball" ] || [ ! -f "$tarball" ]; then
	echo "peer_openssh: no OpenSSH source tarball beside the project" >&2
	exit 77
fi

sum=$(sha256sum "$tarball" | cut -c1-16)
name=$(basename "$tarball" .tar.gz)
if [ -n "${MOAT_PEER_CACHE:-}" ]; then
	cache=$MOAT_PEER_CACHE
elif mkdir -p /var/cache/moat-peers 2>/dev/null &&
    [ -w /var/cache/moat-peers ]; then
	cache=/var/cache/moat-peers
else
	cache=$top/build-peers
fi
mkdir -p "$cache" || exit 1
prefix=$cache/$name-$sum

done_mark() { [ -x "$prefix/bin/ssh" ] && [ -x "$prefix/sbin/sshd" ] &&
    [ -f "$prefix/lib/sk-dummy.so" ] && [ -f "$prefix/.complete" ]; }

if done_mark; then
	echo "$prefix"
	exit 0
fi

exec 9>"$cache/.lock-$name-$sum"
flock 9
if done_mark; then
	echo "$prefix"
	exit 0
fi

for tool in autoreconf make cc; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "peer_openssh: $tool is missing (scripts/deps.sh installs it)" >&2
		exit 1
	fi
done

say "building $name (a few minutes, once; cached in $prefix)"
work=$(mktemp -d "$cache/.build-$name.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
log=$work/build.log
jobs=$(nproc 2>/dev/null || echo 2)
stage=$work/prefix
# The prefix is compiled into the binaries (paths of sshd-session,
# sshd-auth, ssh_config): configure with the final one, install into the
# staging copy with DESTDIR, and move it into place once it is whole.
if ! (cd "$work" && tar xzf "$tarball" && cd "$name" &&
    autoreconf -i && ./configure --prefix="$prefix" \
	--sysconfdir="$prefix/etc" --with-privsep-path="$prefix/empty" &&
    make -j "$jobs" && make install-nokeys DESTDIR="$stage" &&
    make regress/misc/sk-dummy/sk-dummy.so) >"$log" 2>&1; then
	tail -n 40 "$log" >&2
	echo "peer_openssh: FAIL: building $name" >&2
	exit 1
fi
mkdir -p "$stage$prefix/lib" &&
    cp "$work/$name/regress/misc/sk-dummy/sk-dummy.so" "$stage$prefix/lib/" ||
    exit 1
# sshd refuses a privsep directory that others can write to.
mkdir -p "$stage$prefix/empty" && chmod 755 "$stage$prefix/empty"
touch "$stage$prefix/.complete"
rm -rf "$prefix"
mv "$stage$prefix" "$prefix" || exit 1
say "built $name into $prefix"
echo "$prefix"
