#!/bin/bash
# test_readme.sh: every command line in the README's sh code blocks runs as
# written (from a scratch directory holding the repository's data/ and the
# basel under test as build/basel), so the examples cannot rot. Lines
# marked "# slow" (minutes of work) and the build/test commands are skipped.
source "$(dirname "$0")/lib.sh" "$1"
ROOT=$(pwd)
mkdir -p "$T/run/build"
ln -s "$ROOT/data" "$T/run/data"
ln -s "$(cd "$(dirname "$BASEL")" && pwd)/$(basename "$BASEL")" "$T/run/build/basel"
# the commands: lines of ```sh blocks starting with build/basel, joined with
# their backslash continuations
/usr/bin/python3 - "$ROOT/README.md" > "$T/commands" <<'PYEOF'
import re, sys
text = open(sys.argv[1]).read()
for block in re.findall(r"```sh\n(.*?)```", text, re.S):
    lines = block.split("\n"); i = 0
    while i < len(lines):
        line = lines[i]
        while line.endswith("\\") and i + 1 < len(lines):
            i += 1; line = line[:-1] + " " + lines[i].strip()
        i += 1
        cmd = line.strip()
        if cmd.startswith("build/basel ") and not re.search(r"#\s*slow", cmd):
            print(cmd)
PYEOF
n=$(wc -l < "$T/commands")
[ "$n" -ge 8 ] || bad "only $n README commands found"
while IFS= read -r cmd; do
    expect 0 "" -- bash -c "cd '$T/run' && $cmd"
done < "$T/commands"
echo "ran $n README commands"
finish
