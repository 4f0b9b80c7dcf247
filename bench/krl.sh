#!/bin/sh
# krl.sh: KRL size and lookup speed, ours against OpenSSH's ssh-keygen.
# Usage: sh bench/krl.sh [N] (default 1000000 revoked serials).
# For N serials in dense runs, in clusters, sparse and spread thinly,
# both ssh-keygens build a KRL from the same
# spec; prints both sizes and their ratio, checks each KRL is read the
# same by the other tool, and measures our lookups per second with a
# small program linked against the library. Exits non-zero when our KRL
# is larger than OpenSSH's or a check fails.
N=${1:-1000000}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${MOAT_BUILD:-$ROOT/build}
[ -z "$MOAT_BUILD" ] && [ -n "$MOAT_BIN" ] && B=$(cd "$MOAT_BIN/.." && pwd)
K=$B/bin/ssh-keygen
O=${OPENSSH_KEYGEN:-/usr/bin/ssh-keygen}
[ -x "$K" ] || { echo "no $K (build first)"; exit 1; }
[ -x "$O" ] || { echo "no OpenSSH ssh-keygen"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# A sanitizer build's library needs the sanitizer runtime.
for flags in "" "-fsanitize=address,undefined"; do
	cc -O2 $flags -o "$T/krl_lookup" "$ROOT/bench/krl_lookup.c" \
	    -I"$ROOT/src/core" -I"$ROOT/src/keys" -I"$ROOT/src/crypto" \
	    "$B/libmoat_keys.a" "$B/libmoat_crypto.a" "$B/libmoat_core.a" \
	    -lcrypto 2>/dev/null && break
done
[ -x "$T/krl_lookup" ] || { echo "cannot build krl_lookup"; exit 1; }
$K -q -t ed25519 -N '' -f "$T/ca" -C ca || exit 1
$K -q -t ed25519 -N '' -f "$T/user" -C user || exit 1
$K -q -s "$T/ca" -I bench -z 1 "$T/user.pub" || exit 1
fail=0
bench() {
	name=$1 spec=$2 max=$3 theirs=1
	$K -q -k -f "$T/ours" -s "$T/ca.pub" "$spec" || {
		echo "$name: our -k failed"; fail=1; return; }
	ms=$(wc -c < "$T/ours")
	if ! $O -q -k -f "$T/theirs" -s "$T/ca.pub" "$spec" 2>/dev/null; then
		echo "$name: ours $ms bytes; OpenSSH's ssh-keygen -k failed"
		theirs=0
	else
		os=$(wc -c < "$T/theirs")
		ratio=$(awk -v a="$ms" -v b="$os" \
		    'BEGIN { printf "%.3f", a / b }')
		echo "$name: ours $ms bytes, OpenSSH $os bytes, ratio $ratio"
		if $O -Q -l -f "$T/theirs" > "$T/l0" 2>&1; then
			[ "$ms" -le "$os" ] || {
				echo "$name: ours is larger"; fail=1; }
		else
			echo "$name: OpenSSH cannot read its own KRL (bitmap" \
			    "over its 2048-byte bignum limit); sizes not compared"
		fi
	fi
	$O -Q -l -f "$T/ours" | grep -v '^# Generated' > "$T/l1" || {
		echo "$name: OpenSSH cannot read our KRL"; fail=1; }
	if [ $theirs = 1 ]; then
		$K -Q -l -f "$T/theirs" | grep -v '^# Generated' > "$T/l2" || {
			echo "$name: we cannot read OpenSSH's KRL"; fail=1; }
		cmp -s "$T/l1" "$T/l2" || {
			echo "$name: -Q -l differs"; fail=1; }
	fi
	printf '%s: ' "$name"
	"$T/krl_lookup" "$T/ours" "$T/user-cert.pub" "$max" 1 || fail=1
}
# runs(N, run, gap): N serials in runs of "run" separated by "gap".
runs() {
	awk -v n="$1" -v run="$2" -v gap="$3" 'BEGIN { s = 1; while (n > 0) {
	    k = n < run ? n : run; printf "serial: %d-%d\n", s, s + k - 1;
	    s += k + gap; n -= k } }'
}
every() {
	awk -v n="$1" -v d="$2" 'BEGIN { for (i = 1; i <= n; i++)
	    printf "serial: %d\n", i * d }'
}
runs "$N" 1000 500 > "$T/dense"
runs "$N" 100 20 > "$T/clustered"
every "$N" 1000 > "$T/sparse"
every "$N" 37 > "$T/spread"
bench "dense (runs of 1000, gaps 500) $N" "$T/dense" $((N * 3 / 2))
bench "clustered (runs of 100, gaps 20) $N" "$T/clustered" $((N * 12 / 10))
bench "sparse (every 1000th) $N" "$T/sparse" $((N * 1000))
bench "spread (every 37th) $N" "$T/spread" $((N * 37))
exit $fail
