# moat: the two doors are `make run` and `make test`; see README.md.
PREFIX ?= /usr/local
DESTDIR ?=
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all build asan deps peers run test fuzz install clean

all: build

deps:
	@sh scripts/deps.sh

build:
	@cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build build -j $(JOBS)

asan:
	@cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DMOAT_SANITIZE=ON >/dev/null
	@cmake --build build-asan -j $(JOBS)

# A current OpenSSH to test against, built once from the tarball beside
# the project and cached (scripts/peer_openssh.sh); tests that need it
# skip when there is no tarball.
peers:
	@sh scripts/peer_openssh.sh >/dev/null; rc=$$?; \
	[ $$rc -eq 0 ] || [ $$rc -eq 77 ]

# Only the programs it runs: sshd, sftp-server, ssh-keygen (scripts/run.sh).
run: deps
	@cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build build -j $(JOBS) --target sshd sftp-server ssh-keygen
	@sh scripts/run.sh

# Every test, first on the release build, then on the sanitizer build.
# Both suites always run: a failure in the first must not hide the
# second's results. The exit status fails if either failed.
test: deps build asan peers
	@rc=0; \
	(cd build && ctest --output-on-failure -j $(JOBS)) || rc=1; \
	(cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		ctest --output-on-failure -j $(JOBS)) || rc=$$((rc + 2)); \
	case $$rc in \
	0) echo "moat: both suites passed (release, ASan+UBSan)" ;; \
	1) echo "moat: FAILED: the release suite (the sanitizer suite passed)" ;; \
	2) echo "moat: FAILED: the sanitizer suite (the release suite passed)" ;; \
	*) echo "moat: FAILED: both the release and the sanitizer suites" ;; \
	esac; \
	[ $$rc -eq 0 ]

# Every libFuzzer target (tests/fuzz/fuzz_*.c) for FUZZ_SECONDS each, one
# after the other, with clang (see tests/fuzz/run.sh); FUZZ_TARGETS picks
# some ("fuzz_packet fuzz_userauth"). Corpora grow in build-fuzz/corpus/,
# crashes land in build-fuzz/artifacts/.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
fuzz:
	@sh tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# Debian's layout of OpenSSH under PREFIX (dist/install.cmake), with
# the paths the programs look in compiled for PREFIX: a build of its own,
# so build/ (what the tests run) keeps reading /etc/ssh. DESTDIR puts
# the tree somewhere else for packaging: make install PREFIX=/usr
# DESTDIR=/tmp/pkg. Existing configuration files are never replaced.
install:
	@cmake -S . -B build-install -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null
	@cmake --build build-install -j $(JOBS) --target programs
	@DESTDIR="$(DESTDIR)" cmake --install build-install

clean:
	rm -rf build build-asan build-fuzz build-install
