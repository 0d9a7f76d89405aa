#!/bin/bash
# cpu_limit.sh SECONDS COMMAND...: run a test with a limit in CPU seconds
# (ulimit -t: the kernel sends SIGXCPU when the process has used them), so a
# loaded machine, which stretches wall time, fails no correct test. CTest's
# own TIMEOUT stays as a guard against hangs (CMakeLists.txt).
limit=${1:?usage: cpu_limit.sh SECONDS COMMAND...}
shift
ulimit -S -t "$limit"
"$@"
rc=$?
if [ "$rc" -eq $((128 + 24)) ]; then
    echo "cpu_limit.sh: $1 used its $limit CPU seconds (SIGXCPU)" >&2
fi
exit "$rc"
