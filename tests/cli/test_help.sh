#!/bin/bash
# test_help.sh: help for every command (from the command table), --version,
# summary from stdin, the generated man page and bash completion.
source "$(dirname "$0")/lib.sh" "$1"
D=data/linear/lin_p15_n200.csv

expect 0 "^usage: basel COMMAND" -- "$BASEL" --help
for cmd in fit predict summary demo; do
    expect 0 "^usage: basel $cmd" -- "$BASEL" help "$cmd"
    expect 0 "^usage: basel $cmd" -- "$BASEL" "$cmd" --help
done
expect 0 "--method rbf reads:" -- "$BASEL" help fit --method rbf
expect 0 "--method rbf reads:" -- "$BASEL" fit --method rbf --help
# when to choose the mixture, from the engine table (basel_method_advice)
expect 0 "When to choose --method mixture:" -- "$BASEL" help fit --method mixture
expect 0 "Pima: +mixture 75.6 %, binomial rj 77.1 %" -- "$BASEL" help fit --method mixture
expect 2 "no command 'nope'" -- "$BASEL" help nope
expect 0 "FIT.json format 3" -- "$BASEL" --version

# summary reads FIT.json from stdin
expect 0 "" -- "$BASEL" fit "$D" --method enumerate --quiet -o "$T/f.json"
expect 0 "basel enumerate fit" -- bash -c "'$BASEL' summary - < '$T/f.json'"

# the man page: roff that man renders, with every method in it
expect 0 "^\.TH BASEL 1" -- "$BASEL" man
if command -v man > /dev/null; then
    expect 0 "mixture" -- bash -c "'$BASEL' man > '$T/basel.1' && MANWIDTH=100 man -l '$T/basel.1' 2>/dev/null"
fi

# help for a method that does not exist is an error, not the general help
expect 2 "basel help fit: no method 'enumerat' \(did you mean 'enumerate'\?\)" -- "$BASEL" help fit --method enumerat
expect 2 "basel help fit: no method 'foo' \(methods: enumerate, bd, rj" -- "$BASEL" fit --method foo --help
# --max-time is listed only for the methods whose chains stop on a budget
expect 0 "--max-time" -- "$BASEL" help fit --method rj
expect 1 "" -- sh -c "'$BASEL' help fit --method enumerate | grep -q -- --max-time"

# bash completion: methods after --method, fit options after --
"$BASEL" completion bash > "$T/completion.bash"
complete_words() { # the words offered for the command line "$@" (last word is being completed)
    bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _basel; printf "%s\n" "${COMPREPLY[@]}"' \
        _ "$T/completion.bash" "$@"
}
expect 0 "^bd$" -- complete_words basel fit --method ""
expect 0 "^--particles$" -- complete_words basel fit --part
expect 0 "^predict$" -- complete_words basel pre
expect 0 "^--digits$" -- complete_words basel predict --dig
expect 0 "^--id$" -- complete_words basel predict --i
finish
