#!/bin/bash
# test_checkpoint.sh: --checkpoint / --restart. A run killed (kill -9) at
# random moments and restarted from its last checkpoint each time writes a
# FIT.json (and draws) byte-identical to the uninterrupted run's, for every
# MCMC method (bd, rj, ssvs, mixture, anneal, rbf; bd, rj and ssvs also with
# --family binomial and poisson, rj with --family multinomial); SIGINT
# stops with exit status 3 and the state saved; checkpoints of another run,
# damaged files and methods that cannot checkpoint are refused.
# Usage: test_checkpoint.sh path/to/basel [seed]
source tests/cli/lib.sh "$1"
RANDOM=${2:-$$}
echo "test_checkpoint: random seed ${2:-$$} (pass it as the second argument to repeat)"
L=data/linear/lin_p15_n200.csv

# kill_resume NAME ARGS...: the uninterrupted run, then runs killed after
# 0.10-0.29 s (at most 4), each restarting from the checkpoint if there is
# one, alternating 1 and 2 threads, then one to the end; compares outputs.
kill_resume() {
    local name=$1
    shift
    "$BASEL" fit "$@" --quiet -o "$T/$name.ref.json" || { bad "$name: reference run failed"; return; }
    local ck="$T/$name.ckpt" i
    rm -f "$ck"
    for i in 1 2 3 4; do
        local restart=()
        [ -f "$ck" ] && restart=(--restart "$ck")
        "$BASEL" fit "$@" --quiet -o "$T/$name.json" --checkpoint "$ck" --checkpoint-every 0.05 \
            --threads $((1 + i % 2)) "${restart[@]}" &
        local pid=$!
        sleep "0.$((10 + RANDOM % 20))" 2> /dev/null || sleep 0.2
        kill -9 "$pid" 2> /dev/null
        wait "$pid" 2> /dev/null
        [ -f "$T/$name.json" ] && break # it finished before the kill
    done
    local kills=$i
    [ -f "$T/$name.json" ] && kills=$((i - 1))
    echo "$name: killed $kills times"
    if [ ! -f "$T/$name.json" ]; then
        local restart=()
        [ -f "$ck" ] && restart=(--restart "$ck")
        "$BASEL" fit "$@" --quiet -o "$T/$name.json" --checkpoint "$ck" "${restart[@]}" ||
            { bad "$name: the restarted run failed"; return; }
    fi
    if cmp -s "$T/$name.ref.json" "$T/$name.json"; then ok; else bad "$name: FIT.json differs after kill -9 and restart"; fi
}

kill_resume bd $L --method bd --iter 40000 --seed 11
kill_resume bd_ridge data/regression/sinc_vermaak_train.csv --target y --inputs x --basis gauss:r=1.6 --prior ridge \
    --method bd --iter 300 --seed 12
# a streamed design (1250 atoms, Gram matrix over --gram-memory): a loaded
# model recomputes its active columns
kill_resume bd_stream data/regression/sinc_vermaak_train.csv --target y --inputs x --basis gauss:r=1.6 \
    --gram-memory 1 --method bd --iter 800 --seed 23
kill_resume rj $L --method rj --iter 100000 --seed 13
# informed moves with a candidate set after burn-in (rj_informed.c): the
# burn-in's weights are in the state, and a restarted chain rebuilds its set
kill_resume rj_candidates $L --method rj --proposal informed --rj-candidates 5 --iter 60000 --burn 6000 --seed 27
kill_resume ssvs $L --method ssvs --prior ssvs:collapsed=0 --iter 20000 --seed 17
kill_resume ssvs_collapsed $L --method ssvs --prior ssvs:collapsed=1 --iter 2000 --seed 18
kill_resume mixture data/classification/pima_tr.csv --method mixture --iter 1500 --burn 300 --seed 19
# logistic regression (--family binomial): the state holds the Polya-Gamma latent variables and theta
kill_resume rj_binomial data/classification/pima_tr.csv --target class --family binomial --method rj --iter 60000 \
    --seed 25
kill_resume bd_binomial data/classification/pima_tr.csv --target class --family binomial --method bd --iter 8000 \
    --seed 26
kill_resume ssvs_binomial data/classification/pima_tr.csv --target class --family binomial --method ssvs --iter 8000 \
    --seed 27
# multinomial (one Polya-Gamma block per class): the state holds every class's model, eta, the offsets of the
# block under way (a restart without them differs), the predictive draws
kill_resume rj_multinomial data/classification/wine.csv --target class --family multinomial --iter 40000 --seed 28
# Poisson (each subset's marginal by importance sampling, glm_exact.c): the state holds the scores of the
# current subset, the trial under way and the largest standard error so far
Q=data/count/quine.csv
kill_resume rj_poisson $Q --family poisson --method rj --iter 3000 --seed 30
kill_resume bd_poisson $Q --family poisson --method bd --iter 3000 --seed 31
kill_resume ssvs_poisson $Q --family poisson --method ssvs --iter 2000 --seed 32
S=data/regression/sinc_vermaak_train.csv
kill_resume anneal $S --target y --inputs x --method anneal --iter 30000 --seed 21
kill_resume rbf $S --target y --inputs x --method rbf --iter 10000 --seed 22
# the Gaussian width sampled (its own move, kept per network)
kill_resume rbf_width $S --target y --inputs x --method rbf --basis gauss --iter 10000 --seed 24
kill_resume mixture_tempered data/classification/pima_tr.csv --method mixture --temperatures 3 --iter 600 --burn 100 \
    --seed 20

# draws_resume NAME WHAT ARGS...: draws kept in the checkpoint. A run with
# --draws killed after 0.3 s and restarted from its checkpoint (when it
# saved one) writes the uninterrupted run's FIT.json and draws file.
draws_resume() {
    local name=$1 what=$2
    shift 2
    "$BASEL" fit "$@" --quiet -o "$T/$name.ref.json" --draws "$T/$name.ref.csv"
    "$BASEL" fit "$@" --quiet -o "$T/$name.json" --draws "$T/$name.csv" --checkpoint "$T/$name.ckpt" \
        --checkpoint-every 0.05 &
    local pid=$!
    sleep 0.3
    kill -9 $pid 2> /dev/null
    wait $pid 2> /dev/null
    local r=()
    [ -f "$T/$name.ckpt" ] && r=(--restart "$T/$name.ckpt")
    expect 0 "" -- "$BASEL" fit "$@" --quiet -o "$T/$name.json" --draws "$T/$name.csv" "${r[@]}"
    if cmp -s "$T/$name.ref.csv" "$T/$name.csv" && cmp -s "$T/$name.ref.json" "$T/$name.json"; then
        ok
    else
        bad "$what differ after restart"
    fi
}
draws_resume d "draws" $L --method bd --iter 20000 --seed 14
# the same with --family multinomial: its draws (the joint models) are kept in the checkpoint too
draws_resume dm "multinomial draws" data/classification/wine.csv --target class --family multinomial --iter 20000 \
    --seed 29

# SIGINT: stop at a block, save, exit 3; the restart finishes the same fit
"$BASEL" fit $L --method rj --iter 2000000 --seed 15 --quiet -o "$T/i.json" --checkpoint "$T/i.ckpt" \
    --checkpoint-every 0 2> "$T/i.err" &
pid=$!
sleep 0.5
kill -INT $pid
wait $pid
st=$?
if [ $st -eq 3 ] && grep -q "interrupted by signal 2; the run's state is saved in" "$T/i.err" && [ -f "$T/i.ckpt" ] &&
    [ ! -f "$T/i.json" ]; then ok; else bad "SIGINT: exit $st, $(cat "$T/i.err")"; fi
# the same with --family poisson (it used to fail at the first checkpoint, exit 2)
"$BASEL" fit $Q --family poisson --method bd --iter 2000000 --seed 15 --quiet -o "$T/ip.json" --checkpoint "$T/ip.ckpt" \
    --checkpoint-every 0.1 2> "$T/ip.err" &
pid=$!
while [ ! -s "$T/ip.ckpt" ] && kill -0 $pid 2> /dev/null; do sleep 0.05; done # the chains run
kill -INT $pid
wait $pid
st=$?
if [ $st -eq 3 ] && grep -q "interrupted by signal 2; the run's state is saved in" "$T/ip.err" && [ -f "$T/ip.ckpt" ]; then ok
else bad "SIGINT, --family poisson: exit $st, $(cat "$T/ip.err")"; fi
# a signal that lands while the chains pause to save a checkpoint ends the
# run after the save (it was once lost with the pause: the run went on to
# the end, exit 0); checkpoints every 0.01 s make most signals land so
lost=0
for i in 1 2 3 4 5 6; do
    rm -f "$T/sp.ckpt"
    "$BASEL" fit $Q --family poisson --method bd --iter 2000000 --seed 15 --quiet -o "$T/sp.json" \
        --checkpoint "$T/sp.ckpt" --checkpoint-every 0.01 2> "$T/sp.err" &
    pid=$!
    while [ ! -s "$T/sp.ckpt" ] && kill -0 $pid 2> /dev/null; do sleep 0.02; done
    sleep 0.0$((RANDOM % 9 + 1))
    kill -INT $pid
    wait $pid
    [ $? -eq 3 ] || lost=$((lost + 1))
done
if [ $lost -eq 0 ]; then ok; else bad "SIGINT during checkpoint pauses: $lost of 6 runs did not stop with exit 3"; fi
# another seed is another run; a damaged file is refused
expect 2 "the checkpoint is of another run" -- "$BASEL" fit $L --method rj --iter 2000000 --seed 16 --restart "$T/i.ckpt" -o "$T/x.json"
expect 2 "the checkpoint is of another run" -- "$BASEL" fit $L --method rj --iter 2000001 --seed 15 --restart "$T/i.ckpt" -o "$T/x.json"
head -c 1000 "$T/i.ckpt" > "$T/trunc.ckpt"
expect 2 "a damaged checkpoint: its CRC-32 does not match" -- "$BASEL" fit $L --method rj --iter 2000000 --seed 15 --restart "$T/trunc.ckpt" -o "$T/x.json"
expect 2 "not a basel checkpoint" -- "$BASEL" fit $L --method rj --iter 2000000 --seed 15 --restart $L -o "$T/x.json"
expect 2 "cannot read" -- "$BASEL" fit $L --method rj --seed 15 --restart "$T/missing.ckpt" -o "$T/x.json"
# SIGINT / SIGTERM without --checkpoint: exit 3, and a valid fit of the
# iterations done, marked interrupted (FIT.json diagnostics.interrupted, a
# warning in the summary), for every MCMC method
interrupt() { # interrupt NAME SIGNAL ARGS... (waits longer while nothing was kept yet: slow builds)
    local name=$1 sig=$2 pause st
    shift 2
    for pause in 0.8 2 5; do
        "$BASEL" fit "$@" --quiet -o "$T/$name.int.json" 2> "$T/$name.int.err" &
        local pid=$!
        sleep $pause
        kill -"$sig" $pid
        wait $pid
        st=$?
        grep -q "before any .* was kept" "$T/$name.int.err" || break
    done
    if [ $st -eq 3 ] && grep -q "after [0-9]* of [0-9]* iterations; the fit written is of that part" "$T/$name.int.err" &&
        "$BASEL" summary "$T/$name.int.json" | grep -q "WARNING: the run was interrupted after" &&
        grep -q '"interrupted": {' "$T/$name.int.json"; then ok
    else bad "$name: $sig without --checkpoint: exit $st, $(cat "$T/$name.int.err")"; fi
}
interrupt bd TERM $L --method bd --iter 2000000 --burn 100 --seed 15
interrupt rj INT $L --method rj --iter 20000000 --burn 100 --seed 15
interrupt ssvs INT $L --method ssvs --iter 2000000 --burn 10 --seed 15
interrupt mixture INT data/classification/pima_tr.csv --method mixture --iter 2000000 --burn 10 --seed 15
interrupt anneal INT $S --target y --inputs x --method anneal --iter 20000000 --seed 15
interrupt rbf INT $S --target y --inputs x --method rbf --iter 300000 --burn 10 --seed 15
# the first signal is answered at once on stderr, before the summaries and
# the fit, saying what happens and that a second one quits (issue 31 item 7);
# --quiet keeps it silent
said() { # said NAME PATTERN ARGS...: run, SIGINT while the chains run, check the line comes first
    local name=$1 pattern=$2
    shift 2
    "$BASEL" fit "$@" -o "$T/$name.json" 2> "$T/$name.err" &
    local pid=$!
    sleep 0.8
    kill -INT $pid
    wait $pid
    local st=$? first
    first=$(grep -n "basel: stopping: " "$T/$name.err" | head -1 | cut -d: -f1)
    last=$(grep -n "interrupted by signal 2" "$T/$name.err" | head -1 | cut -d: -f1)
    if [ $st -eq 3 ] && grep -q "$pattern" "$T/$name.err" && [ -n "$first" ] && [ -n "$last" ] && [ "$first" -lt "$last" ]; then ok
    else bad "$name: SIGINT did not say at once what happens: exit $st, $(tr '\r' '\n' < "$T/$name.err" | tail -5)"; fi
}
said say_fit "stopping: writing the fit of the iterations done" $L --method rj --iter 20000000 --burn 100 --seed 15
said say_ckpt "stopping: saving the run's state in $T/say.ckpt" $L --method rj --iter 20000000 --burn 100 --seed 15 \
    --checkpoint "$T/say.ckpt"
"$BASEL" fit $L --method rj --iter 20000000 --burn 100 --seed 15 --quiet -o "$T/sq.json" 2> "$T/sq.err" &
pid=$!
sleep 0.8
kill -INT $pid
wait $pid
if [ $? -eq 3 ] && ! grep -q "stopping:" "$T/sq.err"; then ok; else bad "--quiet: a SIGINT printed the stopping line"; fi
# a signal after the sampling (the Boston kernel fit's coefficient table
# takes a CPU-second or more) has nothing to save: the whole fit is
# written, the line says so at once, exit 3 (once, the line said "saving
# the run's state" and the run ended with 0, no checkpoint written)
after=0
for i in 1 2 3; do
    rm -f "$T/as.json" "$T/as.ckpt"
    BASEL_PROGRESS_INTERVAL=0.01 "$BASEL" fit data/regression/boston.csv --target medv --basis gauss --iter 40000 \
        --seed 1 -o "$T/as.json" --checkpoint "$T/as.ckpt" 2> "$T/as.err" &
    pid=$!
    while kill -0 $pid 2> /dev/null && ! grep -qE "basel: (posterior|projection|coefficients)" "$T/as.err"; do sleep 0.02; done
    kill -INT $pid 2> /dev/null || continue # it ended first: again
    wait $pid
    st=$?
    after=1
    break
done
if [ $after -eq 0 ]; then ok # three runs ended before the signal: nothing to check
elif [ $st -eq 3 ] && grep -q "stopping: the chains have done all their iterations; writing the whole fit" "$T/as.err" &&
    grep -q "interrupted by signal 2 after the chains had done all their iterations; the fit written is complete" "$T/as.err" &&
    [ -f "$T/as.json" ] && [ ! -f "$T/as.ckpt" ] && "$BASEL" summary "$T/as.json" > /dev/null &&
    ! grep -q '"interrupted": {' "$T/as.json"; then ok
else bad "SIGINT after the sampling: exit $st, $(tr '\r' '\n' < "$T/as.err" | tail -4)"; fi
# nothing kept yet (still in the burn-in, a third of the draws): exit 3,
# no fit. The signal goes once the sampling has reported (a fixed sleep
# could land in the set-up on a loaded machine, whose message differs)
BASEL_PROGRESS_INTERVAL=0.01 "$BASEL" fit $L --method bd --iter 2000000 --burn 1000000 --seed 15 \
    -o "$T/t.json" 2> "$T/t.err" &
pid=$!
while kill -0 $pid 2> /dev/null && ! grep -q "basel: sampling" "$T/t.err"; do sleep 0.02; done
kill -TERM $pid
wait $pid
st=$?
if [ $st -eq 3 ] && grep -q "interrupted by signal 15; interrupted before any iteration was kept; no FIT.json written" "$T/t.err" &&
    [ ! -f "$T/t.json" ]; then ok
else bad "SIGTERM in the burn-in: exit $st, $(cat "$T/t.err")"; fi

# methods that cannot checkpoint refuse before any work
expect 2 "cannot checkpoint" -- "$BASEL" fit $L --method enumerate --checkpoint "$T/e.ckpt" -o "$T/e.json"
expect 2 "cannot checkpoint" -- "$BASEL" fit data/regression/sinc_vermaak_train.csv --target y --inputs x --method smc \
    --restart "$T/e.ckpt" -o "$T/e.json"
expect 2 "same file" -- "$BASEL" fit $L --checkpoint $L -o "$T/e.json"
expect 2 "checkpoint-every" -- "$BASEL" fit $L --checkpoint "$T/e.ckpt" --checkpoint-every -1 -o "$T/e.json"
finish
