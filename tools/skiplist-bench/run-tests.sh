#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The skip list's user-space tests, as TAP. Called by "make test" here and
# by the top-level "make test". $1: the build directory with fuzz,
# fuzz-san, bench and the mutants.
B=${1:?build dir}
n=0
failed=0
log=$B/test-logs
mkdir -p "$log"

tap() {	# tap NAME CMD...: run CMD, one TAP line from its status
	name=$1
	shift
	n=$((n + 1))
	if "$@" > "$log/$n.out" 2>&1; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name"
		sed 's/^/# /' "$log/$n.out" | tail -20
		failed=1
	fi
}

# Differential fuzz, fixed seeds, 1M operations each (5M in all), pools
# from 8 nodes (every step fully checked) to 20000.
for sp in "1 8" "2 64" "3 512" "4 4096" "5 20000"; do
	set -- $sp
	tap "fuzz: seed $1, pool $2, 1000000 ops vs reference model" \
		"$B/fuzz" -o 1000000 $1 $2
done

tap "fuzz under ASan+UBSan: seeds 11/12, pools 100/3000, 300000 ops each" \
	"$B/fuzz-san" -o 300000 11 100 12 3000

VG="valgrind --tool=memcheck --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=all --show-leak-kinds=all -q"
if command -v valgrind > /dev/null; then
	tap "valgrind memcheck: fuzz seed 21, pool 300, 200000 ops, no errors or leaks" \
		$VG "$B/fuzz" -o 200000 21 300
	tap "valgrind memcheck: benchmark smoke run (all structures, n=16,64)" \
		$VG "$B/bench" -r 2 -n 16,64
else
	n=$((n + 1)); echo "ok $n - valgrind memcheck # SKIP valgrind not installed"
	n=$((n + 1)); echo "ok $n - valgrind memcheck (bench) # SKIP valgrind not installed"
fi

tap "benchmark smoke run: 5 structures x 2 sizes" \
	sh -c "'$B/bench' -r 3 -n 16,256 | grep -c '\"struct\"' | grep -qx 10"

# Negative controls: broken copies of the skip list (generated in $B by
# mutate.py) must fail, and fail by the oracle's verdict: exit 1 with a
# "not ok" run, not a timeout (124), a missing binary (127) or a crash.
# The unmutated copy built the same way (mutant-none) must pass the same
# runs, or the mutants' failures prove nothing.
MUTANT_RUNS="-o 200000 1 8 3 512 4 4096"
tap "fuzz passes the unmutated control copy of the skip list (mutant-none)" \
	timeout 60 "$B/mutant-none/fuzz" $MUTANT_RUNS

killed() {	# killed NAME: the oracle rejects mutant NAME (exit 1, not ok)
	timeout 60 "$B/mutant-$1/fuzz" $MUTANT_RUNS >"$log/mutant-$1.out" 2>&1
	rc=$?
	cat "$log/mutant-$1.out"
	echo "# exit status $rc"
	[ $rc = 1 ] && grep -q '^not ok' "$log/mutant-$1.out"
}
for m in fifo shrink prev nextkey findorder findstop; do
	tap "fuzz's oracle rejects the '$m' mutant of the skip list (exit 1)" killed $m
done

exit $failed
