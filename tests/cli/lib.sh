# lib.sh: helpers for the command-line tests (zstd-style: a command, the
# expected exit status, a pattern its output must match).
# Usage in a test: source tests/cli/lib.sh "$1" ; ... ; finish
BASEL=${1:?usage: test.sh path/to/basel}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
passed=0
failed=0

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAILED: $*" >&2; }

# expect STATUS PATTERN -- command...: run, check the exit status and that
# stderr+stdout match the extended regex PATTERN.
expect() {
    local want=$1 pattern=$2
    shift 3
    "$@" > "$T/out" 2> "$T/err"
    local got=$?
    if [ "$got" -ne "$want" ]; then
        bad "$* : exit $got, expected $want; stderr: $(head -c 400 "$T/err")"
    elif [ -n "$pattern" ] && ! cat "$T/out" "$T/err" | grep -Eq -- "$pattern"; then
        bad "$* : output does not match /$pattern/; stderr: $(head -c 400 "$T/err")"
    else
        ok
    fi
}

finish() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
