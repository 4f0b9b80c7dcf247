# moat: the two doors are `make run` and `make test`; see README.md.
PREFIX ?= /usr/local
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all build asan deps run test install clean

all: build

deps:
	@sh scripts/deps.sh

build:
	@cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build build -j $(JOBS)

asan:
	@cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DMOAT_SANITIZE=ON >/dev/null
	@cmake --build build-asan -j $(JOBS)

run: deps build
	@sh scripts/run.sh

# Every test, first on the release build, then on the sanitizer build.
test: deps build asan
	@cd build && ctest --output-on-failure -j $(JOBS)
	@cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		ctest --output-on-failure -j $(JOBS)

install: build
	@cmake -S . -B build -DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null
	@cmake --install build

clean:
	rm -rf build build-asan
