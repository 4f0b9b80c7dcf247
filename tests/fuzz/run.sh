#!/bin/sh
# run.sh: build the libFuzzer targets (tests/fuzz/fuzz_*.c) with clang,
# ASan and UBSan, and run each for a while on a copy of its seed corpus.
#
# usage: sh tests/fuzz/run.sh [SECONDS [TARGET...]]
#   SECONDS   per target (default 10); 0 only builds and replays the seeds
#   TARGET    e.g. fuzz_packet (default: every tests/fuzz/fuzz_*.c)
# Environment: FUZZ_CC (default clang), FUZZ_BUILD (default build-fuzz
# at the top of the tree), FUZZ_JOBS (parallel compiles).
#
# Every source under src/ except the programs is compiled once into
# FUZZ_BUILD/obj (again only when a source or header is newer than the
# last build) and put in one archive, FUZZ_BUILD/libmoat.a; each target
# links that archive, and cleanse.c (a wipe the sanitizer can see). From
# an archive only the objects a target needs are pulled in, so a target
# may define some of the library's functions itself: the upper-layer
# targets bring their own transport (fuzz_fake_tr.h). A line
# " * fuzz-ldflags: FLAGS" in a target's source adds linker flags for it.
# The corpus a run grows is kept in FUZZ_BUILD/corpus/TARGET; the seeds in
# tests/fuzz/corpus are read, never written. Exit status: 0 when every
# target ran clean, 1 on any crash, leak, timeout or sanitizer report
# (the reproducer is FUZZ_BUILD/artifacts/TARGET-*), 77 when clang or
# libFuzzer is missing. The seeds of fuzz_userauth, fuzz_session,
# fuzz_fwd and fuzz_ttymodes are recorded from real sessions or written
# by mkseeds.sh, which says how and makes them again. To see what one
# input does to those four: FUZZ_LOG=1 FUZZ_BUILD/TARGET FILE shows the
# server's log.
set -u

secs=${1:-10}
[ $# -gt 0 ] && shift
top=$(cd "$(dirname "$0")/../.." && pwd)
fz=$top/tests/fuzz
out=${FUZZ_BUILD:-$top/build-fuzz}
cc=${FUZZ_CC:-clang}
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}

if ! command -v "$cc" >/dev/null 2>&1; then
	echo "fuzz: SKIP: $cc not found"
	exit 77
fi
mkdir -p "$out/obj" "$out/corpus" "$out/artifacts" || exit 1
out=$(cd "$out" && pwd)		# the runs cd there
probe=$out/probe
printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
    'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
    'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return 0; }' \
    > "$probe.c"
if ! "$cc" -fsanitize=fuzzer,address,undefined "$probe.c" -o "$probe" \
    >/dev/null 2>&1; then
	echo "fuzz: SKIP: $cc cannot build libFuzzer targets (libclang-rt?)"
	exit 77
fi

incs=""
for d in core crypto keys transport conn server client sftp; do
	[ -d "$top/src/$d" ] && incs="$incs -I$top/src/$d"
done
# The main build's warnings.
warn="-Wall -Wextra -Werror -Wno-unused-parameter -Wformat=2 -Wshadow
    -Wpointer-arith -Wmissing-prototypes
    -Wno-unknown-warning-option"
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined
    -fno-omit-frame-pointer"
# The transport's read buffer is 64 KiB here instead of 256: a buffer
# that size comes from the sanitizer's size-class allocator, where a
# 256 KiB one was mapped, poisoned and unmapped again for every input,
# half of what fuzz_packet spent. Reads work the same way, only in
# smaller steps (and the bulk-read low-water mark is never raised).
defs="-DTR_READ_CHUNK=65536"
# PAM as in the main build when its header and library are there
# (fuzz_userauth brings its own PAM; other targets never call it).
pamlib=""
printf '%s\n' '#include <security/pam_appl.h>' \
    'int main(void) { return pam_start("x", "y", 0, 0); }' > "$probe-pam.c"
if "$cc" "$probe-pam.c" -lpam -o "$probe-pam" >/dev/null 2>&1; then
	defs="$defs -DHAVE_PAM=1"
	pamlib="-lpam"
fi
cflags="-std=gnu11 -g -O1 -fno-strict-aliasing -D_GNU_SOURCE $defs $warn
    $san $incs"
export cc cflags out
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export UBSAN_OPTIONS

srcs=$(cd "$top" && ls src/core/*.c src/crypto/*.c src/keys/*.c \
    src/transport/*.c src/conn/*.c src/server/*.c src/client/*.c \
    src/sftp/*.c 2>/dev/null)

# Rebuild the objects when any source or header changed since last time.
stamp=$out/obj/.stamp
# (The targets' own sources and headers only relink their targets.)
if [ ! -f "$stamp" ] || [ "$fz/run.sh" -nt "$stamp" ] ||
    [ -n "$(find "$top/src" -newer "$stamp" \
    \( -name '*.c' -o -name '*.h' \) 2>/dev/null | head -n 1)" ]; then
	rm -f "$out"/obj/*.o
	touch "$stamp.new"
	if ! (cd "$top" && printf '%s\n' $srcs | xargs -P "$jobs" -n 1 sh -c \
	    'o="$out/obj/$(echo "$1" | tr / _ | sed "s/\.c$/.o/")";
	     $cc $cflags -fsanitize=fuzzer-no-link -c "$1" -o "$o"' sh); then
		echo "fuzz: FAIL: compiling the library with $cc"
		rm -f "$stamp.new"
		exit 1
	fi
	rm -f "$out/libmoat.a"
	if ! ar rcs "$out/libmoat.a" "$out"/obj/*.o; then
		echo "fuzz: FAIL: archiving the library"
		rm -f "$stamp.new"
		exit 1
	fi
	mv "$stamp.new" "$stamp"
	rm -f "$out"/fuzz_*	# relink every target
fi

if [ $# -gt 0 ]; then
	targets="$*"
else
	targets=$(cd "$fz" && ls fuzz_*.c | sed 's/\.c$//')
fi

for t in $targets; do
	if [ ! -x "$out/$t" ] || [ "$fz/$t.c" -nt "$out/$t" ] ||
	    [ -n "$(find "$fz" -name '*.h' -newer "$out/$t")" ]; then
		ldflags=$(sed -n 's/^ \* fuzz-ldflags: //p' "$fz/$t.c")
		if ! $cc $cflags -fsanitize=fuzzer "$fz/$t.c" "$fz/cleanse.c" \
		    "$out/libmoat.a" $ldflags -lcrypto -lz -lcrypt -lseccomp $pamlib \
		    -o "$out/$t"; then
			echo "fuzz: FAIL: building $t"
			exit 1
		fi
	fi
done

status=0
for t in $targets; do
	work=$out/corpus/$t
	mkdir -p "$work"
	seeds=$fz/corpus/$t
	[ -d "$seeds" ] || seeds=""
	log=$out/$t.log
	if [ "$secs" -gt 0 ]; then
		(cd "$out" && ./$t -max_total_time="$secs" -rss_limit_mb=2048 \
		    -timeout=60 -print_final_stats=1 \
		    -artifact_prefix="$out/artifacts/$t-" \
		    "$work" $seeds) >"$log" 2>&1
	else
		(cd "$out" && ./$t -runs=0 -rss_limit_mb=2048 -timeout=60 \
		    -print_final_stats=1 -artifact_prefix="$out/artifacts/$t-" \
		    "$work" $seeds) >"$log" 2>&1
	fi
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | sed 's/cov: //')
	ft=$(grep -o 'ft: [0-9]*' "$log" | tail -n 1 | sed 's/ft: //')
	if [ "$rc" -eq 0 ] && ! grep -q -e 'ERROR: AddressSanitizer' \
	    -e 'ERROR: LeakSanitizer' -e 'runtime error:' "$log"; then
		res=ok
	else
		res=FAIL
		status=1
		# The harness's own complaints ("fuzz: ...") come first,
		# then the sanitizer's report.
		grep -E '^fuzz: ' "$log" | head -n 5
		grep -E -A 30 'ERROR: |runtime error:|==ERROR|deadly signal' \
		    "$log" | head -n 60
		ls "$out/artifacts/$t-"* 2>/dev/null
	fi
	echo "fuzz: $t: $res ${secs}s runs=${runs:-?} exec/s=${eps:-?}" \
	    "cov=${cov:-?} ft=${ft:-?} corpus=$(ls "$work" | wc -l)"
done
exit $status
