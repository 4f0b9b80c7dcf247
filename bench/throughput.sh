#!/bin/sh
# bench/throughput.sh: kept for CTest (bench/smoke runs `sh
# bench/throughput.sh 8`) and old habits; every figure (throughput with
# the stock client and client-to-server, memory per idle connection,
# login latency) is printed by bench/all.sh.
exec sh "$(dirname "$0")/all.sh" "$@"
