#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# LEAP conformance and stress suite: runs inside the guest (or on any
# machine, as root) against whatever scheduler the kernel has.
#
# usage: OUTPUT=<dir with the built tests> run_leap_tests.sh [--quick|--long] [group...]
# (LEAP_SKIP_GROUPS=a,b: the default groups but those)
#
# Groups: policy behaviour hang accounting cgroup lifecycle stress hotplug
# mainline leap
# (and, with --long, fuzz).
# Build the binaries first, on the host: build-host.sh <kernel tree> <dir>.
# Prints one TAP stream (every check renumbered, "group: name"), scans
# dmesg after each group for WARNING, BUG, lockdep reports, RCU stalls,
# hung tasks and soft lockups, writes the TAP to
# $LEAP_OUT/selftests-<ncpus>.tap when LEAP_OUT is set, ends with
# "N passed, N failed, N skipped" and exits 1 if anything failed.

mode=quick
case $1 in
--quick) shift ;;
--long) mode=long; shift ;;
esac
groups=${*:-policy behaviour hang accounting cgroup lifecycle stress hotplug mainline leap}
# LEAP_SKIP_GROUPS (comma-separated) leaves groups out of the default list.
if [ $# = 0 ] && [ -n "${LEAP_SKIP_GROUPS:-}" ]; then
	for g in $(echo "$LEAP_SKIP_GROUPS" | tr , ' '); do
		groups=$(echo " $groups " | sed "s/ $g / /; s/^ //; s/ \$//")
	done
fi
[ $# = 0 ] && [ $mode = long ] && groups="$groups fuzz"
bin=$(cd "${OUTPUT:-$(dirname "$0")}" && pwd)
cd /tmp || exit 1	# stress-ng and some mainline tests write to the cwd
cpus=$(nproc)
# The last CPU, the nohz_full one in a boot that has one (vm-run's
# nohz_full variant): the checks of what a lone task there must keep.
last_cpu=$((cpus - 1))
tickless=$(cat /sys/devices/system/cpu/nohz_full 2>/dev/null)
tickless=${tickless:-none}
tap=/tmp/leap-selftests.tap
: >$tap
n=0 pass=0 fail=0 skip=0

emit() {	# emit ok|fail|skip "name" ["reason"]
	n=$((n + 1))
	case $1 in
	ok) pass=$((pass + 1)); line="ok $n - $2" ;;
	skip) skip=$((skip + 1)); line="ok $n - $2 # SKIP $3" ;;
	*) fail=$((fail + 1)); line="not ok $n - $2" ;;
	esac
	echo "$line"
	echo "$line" >>$tap
}

# Run a kselftest-harness binary; renumber its results into our stream.
harness() {	# harness group binary [args]
	g=$1 b=$2
	shift 2
	if [ ! -x "$bin/$b" ]; then
		emit fail "$g: $b is not built (run build-host.sh)"
		return
	fi
	"$bin/$b" "$@" >/tmp/h.out 2>&1
	rc=$?
	while IFS= read -r l; do
		case $l in
		"ok "*"# SKIP"*)
			name=${l#ok * }; emit skip "$g: ${name%% # SKIP*}" "${l##*# SKIP }" ;;
		"ok "*) emit ok "$g: ${l#ok * }" ;;
		"not ok "*) emit fail "$g: ${l#not ok * }" ;;
		"#"*) case $l in *Expected*|*timeout*|*signal*|*:*:*) echo "    $l" ;; esac ;;
		esac
	done </tmp/h.out
	if [ $rc -ne 0 ] && ! grep -q '^not ok' /tmp/h.out; then
		emit fail "$g: $b exited $rc"
		tail -5 /tmp/h.out | sed 's/^/    # /'
	fi
}

# Run a command as one check, with a time limit.
check() {	# check name seconds cmd...
	name=$1 secs=$2
	shift 2
	if timeout -k 5 "$secs" "$@" >/tmp/c.out 2>&1; then
		emit ok "$name"
	else
		emit fail "$name (exit $?)"
		tail -8 /tmp/c.out | sed 's/^/    # /'
	fi
}

dmesg_mark=0
dmesg_check() {	# after a group: any splat since the last check fails it
	if ! dmesg >/tmp/dmesg.now 2>/tmp/dmesg.err; then
		emit fail "$1: dmesg cannot be read ($(cat /tmp/dmesg.err))"
		return
	fi
	total=$(wc -l </tmp/dmesg.now)
	tail -n +$((dmesg_mark + 1)) /tmp/dmesg.now >/tmp/dmesg.new
	dmesg_mark=$total
	if grep -E 'WARNING:|BUG:|Oops|possible circular locking|inconsistent lock state|possible recursive locking|suspicious RCU usage|detected stall|blocked for more than|soft lockup|hard LOCKUP|sleeping function called from invalid context|scheduling while atomic|list_(add|del) corruption' \
		/tmp/dmesg.new >/tmp/dmesg.bad; then
		emit fail "$1: dmesg has a kernel splat"
		head -20 /tmp/dmesg.bad | sed 's/^/    # /'
	else
		emit ok "$1: dmesg clean"
	fi
}

secs() { [ $mode = long ] && echo "$2" || echo "$1"; }

group_policy() {
	harness policy sched_policy
	rttime_check
}

# RLIMIT_RTTIME (what rtkit sets for realtime audio threads): a SCHED_FIFO
# busy loop with a 100 ms soft limit is sent SIGXCPU (status 128 + 24)
# instead of running on until the 30 s timeout (status 124). It runs on
# the last CPU, the nohz_full one in a boot that has one: the limit is
# counted at the tick, which a lone FIFO task there must keep.
rttime_check() {
	what="policy: RLIMIT_RTTIME sends SIGXCPU to a FIFO busy loop on CPU $last_cpu"
	what="$what (nohz_full: $tickless)"
	timeout -k 2 30 taskset -c $last_cpu prlimit --rttime=100000:5000000 \
		chrt -f 10 sh -c 'while :; do :; done'
	rc=$?
	[ $rc = 152 ] && emit ok "$what" ||
		emit fail "$what: exit $rc, want 152"
}
group_behaviour() { harness behaviour sched_behaviour; }

# A LEAP kernel: decided from kernel.rr_interval, never from the feature
# under test.
is_leap() { [ -e /proc/sys/kernel/rr_interval ]; }

# Does this kernel have debugfs (built in and not turned off at boot)?
has_debugfs() {
	! grep -qw 'debugfs=off' /proc/cmdline &&
		! { [ -r /proc/config.gz ] && ! zcat /proc/config.gz | grep -q '^CONFIG_DEBUG_FS=y'; }
}

# What must never hang. The SCHED_IDLE kill and lock-holder checks are in
# sched_behaviour; here, the freezers: a task being frozen has to run to
# freeze.
group_hang() {
	cgroup_freeze_check
	suspend_freeze_check
}

# cgroup v2's freezer freezes a group of SCHED_IDLE busy loops within 5 s
# while nice-0 hogs outside it fill every CPU (on EEVDF at once).
cgroup_freeze_check() {
	name="hang: cgroup freezer freezes SCHED_IDLE hogs while nice-0 hogs fill every CPU"
	fz=/sys/fs/cgroup/leap-freeze
	rmdir $fz 2>/dev/null
	if ! mkdir $fz || [ ! -w $fz/cgroup.freeze ]; then
		emit fail "$name (no cgroup v2 freezer)"
		return
	fi
	start_hogs "$cpus"
	# shellcheck disable=SC2016
	more_hogs "$cpus" sh -c "echo \$\$ >$fz/cgroup.procs && exec \"\$@\"" sh chrt -i 0
	sleep 0.5
	echo 1 >$fz/cgroup.freeze
	i=0
	while [ $i -lt 50 ] && ! grep -q 'frozen 1' $fz/cgroup.events; do
		sleep 0.1
		i=$((i + 1))
	done
	grep -q 'frozen 1' $fz/cgroup.events && frozen=1 || frozen=0
	echo 0 >$fz/cgroup.freeze
	stop_hogs
	rmdir $fz 2>/dev/null
	[ $frozen = 1 ] && emit ok "$name ($((i * 100)) ms)" ||
		emit fail "$name (not frozen after 5 s)"
}

# Suspend's freezer: it must freeze every task within its 20 s timeout
# while SCHED_IDLE and nice-0 hogs fill every CPU. pm_test=freezer stops
# the suspend once everything is frozen and thaws 1 s later. (The nice-0
# hogs freeze first and free the CPUs, so this does not need the IDLE
# rule; the cgroup freezer check above does.)
suspend_freeze_check() {
	name="hang: suspend's freezer completes with SCHED_IDLE and nice-0 hogs on every CPU"
	if [ ! -w /sys/power/pm_test ] || ! grep -qw freeze /sys/power/state; then
		emit fail "$name (no /sys/power/pm_test or s2idle: CONFIG_SUSPEND, CONFIG_PM_DEBUG)"
		return
	fi
	start_hogs "$cpus"
	more_hogs "$cpus" chrt -i 0
	sleep 0.5
	# The test level waits in mdelay(): 1 s, not 5, so that a slow
	# (emulated) CPU stays clear of the soft-lockup watchdog.
	delay=/sys/module/suspend/parameters/pm_test_delay
	old_delay=$(cat $delay 2>/dev/null)
	[ -w $delay ] && echo 1 >$delay
	echo freezer >/sys/power/pm_test
	t0=$(date +%s)
	echo freeze >/sys/power/state 2>/tmp/freeze.err
	rc=$?
	t1=$(date +%s)
	echo none >/sys/power/pm_test
	[ -n "$old_delay" ] && echo "$old_delay" >$delay
	stop_hogs
	if [ $rc = 0 ]; then
		emit ok "$name ($((t1 - t0)) s)"
	else
		emit fail "$name ($(cat /tmp/freeze.err), $((t1 - t0)) s)"
		dmesg | grep -iE 'freez|refusing' | tail -5 | sed 's/^/    # /'
	fi
}
group_lifecycle() { harness lifecycle sched_lifecycle; }

group_stress() {
	t=$(secs 5 60)
	check "stress: hackbench processes, pipes" 300 hackbench -P -p -g $((cpus * 2)) -l 100
	check "stress: hackbench threads, sockets" 300 hackbench -T -s 64 -g $((cpus * 2)) -l 100
	check "stress: pi_stress ${t}s (PI futexes, SCHED_FIFO)" $((t + 120)) \
		pi_stress --duration "$t" --groups "$cpus" --quiet
	check "stress: stress-ng sched/yield/affinity/switch ${t}s" $((t + 120)) \
		stress-ng --schedpolicy "$cpus" --yield "$cpus" --affinity "$cpus" --switch "$cpus" \
		--timeout "${t}s" --metrics-brief
	if [ $mode = long ]; then
		# netlink-proc needs the proc connector and inotify needs
		# CONFIG_INOTIFY_USER: the VM kernel has neither (ENOSYS).
		# resched: bookworm's stress-ng 0.15.06 reaps each child with
		# one waitpid() that its own re-armed 1 s SIGALRM interrupts,
		# so a child still draining its policy-cycling yields after
		# the stop signal bumps the bogo counter after the checksum
		# ("corrupted bogo-ops counter, N+1 vs N"). Upstream retries
		# the wait since; the race is stress-ng's, not the kernel's.
		check "stress: stress-ng --class scheduler, 5s each" 1800 \
			stress-ng --class scheduler --exclude netlink-proc,inotify,resched \
			--seq "$cpus" --timeout 5s
	fi
}

group_hotplug() {
	last=/sys/devices/system/cpu/cpu$((cpus - 1))/online
	if [ "$cpus" -lt 2 ] || [ ! -w "$last" ]; then
		emit skip "hotplug: CPU offline/online" "needs 2 CPUs and CPU hotplug"
		return
	fi
	# A task pinned to a CPU that goes offline carries on elsewhere.
	taskset -c $((cpus - 1)) sh -c 'while :; do :; done' &
	hog=$!
	sleep 0.3
	before=$(awk '{print $14}' /proc/$hog/stat)
	echo 0 >"$last"
	sleep 1
	after=$(awk '{print $14}' /proc/$hog/stat 2>/dev/null)
	where=$(awk '{print $39}' /proc/$hog/stat 2>/dev/null)
	if kill -0 $hog 2>/dev/null && [ "${after:-0}" -gt "$before" ] && [ "$where" != $((cpus - 1)) ]; then
		emit ok "hotplug: task pinned to an offlined CPU runs on (CPU $where)"
	else
		emit fail "hotplug: task pinned to an offlined CPU runs on (utime $before -> $after, cpu $where)"
	fi
	echo 1 >"$last"
	kill $hog
	wait $hog 2>/dev/null

	# Offline and online every CPU but the boot CPU, under hackbench.
	# Two groups (80 tasks): with every CPU but one offline they all
	# share CPU 0 with this shell, and more only slows the loop down
	# (8 groups made each cycle take 3 minutes at 8 CPUs under TCG).
	hackbench -P -p -g 2 -l 100000 >/dev/null 2>&1 &
	hb=$!
	loops=$(secs 3 6) ok=1
	i=0
	while [ $i -lt "$loops" ]; do
		for c in $(seq 1 $((cpus - 1))); do
			echo 0 >/sys/devices/system/cpu/cpu$c/online || ok=0
		done
		[ "$(cat /sys/devices/system/cpu/online)" = 0 ] || ok=0
		for c in $(seq 1 $((cpus - 1))); do
			echo 1 >/sys/devices/system/cpu/cpu$c/online || ok=0
		done
		[ "$(cat /sys/devices/system/cpu/online)" = "0-$((cpus - 1))" ] || ok=0
		i=$((i + 1))
	done
	kill -0 $hb 2>/dev/null || ok=0
	kill $hb 2>/dev/null
	wait $hb 2>/dev/null
	[ $ok = 1 ] && emit ok "hotplug: $loops offline/online cycles of CPUs 1-$((cpus - 1)) under hackbench" ||
		emit fail "hotplug: $loops offline/online cycles of CPUs 1-$((cpus - 1)) under hackbench"
	m=$bin/mainline/cpu-hotplug/cpu-on-off-test.sh
	if [ -f "$m" ]; then
		check "hotplug: mainline cpu-on-off-test.sh" 600 sh "$m"
	else
		emit fail "hotplug: mainline cpu-on-off-test.sh is not built (run build-host.sh)"
	fi
}

group_mainline() {
	m=$bin/mainline
	export LD_LIBRARY_PATH=$m/rseq
	# rseq's percpu-ops and param tests run past 5 minutes under TCG.
	for t in rseq/basic_test \
		membarrier/membarrier_test_single_thread membarrier/membarrier_test_multi_thread \
		futex/functional/futex_wait_timeout futex/functional/futex_wait_wouldblock \
		futex/functional/futex_requeue_pi futex/functional/futex_wait; do
		if [ -x "$m/$t" ]; then
			check "mainline: $t" 300 "$m/$t"
		else
			emit fail "mainline: $t is not built (run build-host.sh)"
		fi
	done
	if [ -x "$m/rseq/param_test" ]; then
		# Much shorter than run_param_test.sh (hours under TCG): each
		# test type with 8 threads, plain and with delays injected at
		# the rseq critical-section points 7, 8 and 9 (-1: a yield,
		# signal or sleep every 10th time), where a preemption or a
		# migration must abort the critical section. As mainline's
		# run_param_test.sh: glibc must not register rseq itself, or
		# 7.3's param_test cannot register its own and exits 255.
		# shellcheck disable=SC2016
		check "mainline: rseq/param_test, 5 tests with preemption, migration, yield, signal and sleep injected" \
			600 env GLIBC_TUNABLES=glibc.pthread.rseq=0 sh -c 'for t in s l b m i; do
				for inj in "" "-7 -1 -m 10 -y" "-8 -1 -m 10 -k" "-9 -1 -m 10 -s 1"; do
					"$0" -T $t -r 500 -t 8 $inj || { echo "param_test -T $t $inj failed"; exit 1; }
				done
			done' "$m/rseq/param_test"
	else
		emit fail "mainline: rseq/param_test is not built (run build-host.sh)"
	fi
}

# trinity, Debian's syscall fuzzer, on the scheduling calls only, as an
# unprivileged user (at most 512 processes), for a bounded time; the
# dmesg scan after the group is the verdict, with trinity's own exit.
# No fd types: none of these calls takes one, and trinity 2023.01 (Debian
# 12) crashes while it generates its socket and file fds.
group_fuzz() {
	t=$(secs 60 240)
	name="fuzz: trinity on the sched_*, setpriority, sched_yield, clone and futex calls as nobody, ${t}s"
	if ! command -v trinity >/dev/null; then
		emit fail "$name (trinity is not installed: make deps)"
		return
	fi
	rm -rf /tmp/trinity && mkdir -p /tmp/trinity && chown 65534:65534 /tmp/trinity
	(cd /tmp/trinity && timeout -k 10 "$t" prlimit --nproc=512:512 \
		setpriv --reuid=65534 --regid=65534 --clear-groups \
		trinity -q -a 64 -C 4 -N 1000000 -l off \
		--disable-fds=sockets,pipes,perf,epoll,eventfd,pseudo,timerfd,testfile,memfd,drm \
		-c sched_setattr -c sched_getattr -c sched_setscheduler -c sched_getscheduler \
		-c sched_setparam -c sched_getparam -c sched_setaffinity -c sched_getaffinity \
		-c sched_yield -c sched_get_priority_max -c sched_get_priority_min \
		-c sched_rr_get_interval -c setpriority -c getpriority -c clone -c futex \
		>/tmp/trinity.out 2>&1)
	rc=$?
	pkill -9 -u 65534 2>/dev/null
	# 124: stopped at the time limit, as intended.
	if [ $rc = 0 ] || [ $rc = 124 ]; then
		emit ok "$name"
	else
		emit fail "$name (exit $rc)"
		tail -8 /tmp/trinity.out | sed 's/^/    # /'
	fi
}

# Busy loops in the background, their pids added to $hogs; each started
# through the command prefix given (chrt -i 0, ...), if any.
more_hogs() {	# more_hogs count [command prefix...]
	n_hogs=$1
	shift
	i=0
	while [ $i -lt "$n_hogs" ]; do
		"$@" sh -c 'while :; do :; done' &
		hogs="$hogs $!"
		i=$((i + 1))
	done
}

# hogs_ready [pid...]: wait (up to 60 s) until each busy loop (default:
# $hogs) runs its loop, so that a share is measured over running loops:
# under emulation an exec over 9p takes seconds, in D state. Ready: the
# final sh, runnable (R), not paging its binary in (D).
hogs_ready() {
	[ $# = 0 ] && set -- $hogs
	for _ in $(seq 120); do
		busy=0
		for p in "$@"; do
			st=$(cat "/proc/$p/stat" 2>/dev/null) || continue
			st=${st##*) }
			case $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null) in
			"sh -c while :; do :; done ") [ "${st%% *}" = R ] || busy=1 ;;
			*) busy=1 ;;
			esac
		done
		[ $busy = 0 ] && return 0
		sleep 0.5
	done
	echo "    # busy loops not all running after 60 s"
}

start_hogs() {	# start_hogs count [command prefix...]
	hogs=
	more_hogs "$@"
}

stop_hogs() {
	# shellcheck disable=SC2086
	kill $hogs 2>/dev/null
	wait 2>/dev/null
}

# What the scheduler accounts and others read: /proc/schedstat, the
# per-task /proc/<pid>/sched, the load average and PSI, under 2 x CPUs hogs.
group_accounting() {
	v=$(head -1 /proc/schedstat)
	ncpu=$(grep -c '^cpu[0-9]' /proc/schedstat)
	# 6.12 writes version 16; what matters is that the format is intact.
	case $v in "version "[0-9]*) vok=1 ;; *) vok=0 ;; esac
	[ $vok = 1 ] && [ "$ncpu" = "$cpus" ] &&
		emit ok "accounting: /proc/schedstat has a version and $cpus cpu lines" ||
		emit fail "accounting: /proc/schedstat has a version and $cpus cpu lines (got '$v', $ncpu)"

	run0=$(awk '/^cpu[0-9]/ { s += $8 } END { print s + 0 }' /proc/schedstat)
	psi0=$(sed -n 's/^some .*total=\([0-9]*\)/\1/p' /proc/pressure/cpu 2>/dev/null)
	start_hogs $((2 * cpus))
	sleep 1
	ok=1
	for p in $hogs; do
		r=$(awk '/^se.sum_exec_runtime/ { print ($3 > 0) }' /proc/$p/sched 2>/dev/null)
		[ "$r" = 1 ] || ok=0
	done
	[ $ok = 1 ] && emit ok "accounting: /proc/<pid>/sched shows each hog's runtime" ||
		emit fail "accounting: /proc/<pid>/sched shows each hog's runtime"
	# The load average is folded every 5 s: wait for two folds.
	sleep 11
	load=$(cut -d' ' -f1 /proc/loadavg)
	run1=$(awk '/^cpu[0-9]/ { s += $8 } END { print s + 0 }' /proc/schedstat)
	psi1=$(sed -n 's/^some .*total=\([0-9]*\)/\1/p' /proc/pressure/cpu 2>/dev/null)
	stop_hogs
	# 2N runnable for 10 s from about 0 gives 0.31 N; 0.1 N allows one fold.
	awk -v l="$load" -v c="$cpus" 'BEGIN { exit !(l >= 0.1 * c) }' &&
		emit ok "accounting: loadavg rises under $((2 * cpus)) hogs ($load)" ||
		emit fail "accounting: loadavg rises under $((2 * cpus)) hogs ($load)"
	awk -v a="$run0" -v b="$run1" -v c="$cpus" 'BEGIN { exit !(b - a >= c * 5e9) }' &&
		emit ok "accounting: schedstat run time grows by >= 5 s a CPU in 12 s" ||
		emit fail "accounting: schedstat run time grows by >= 5 s a CPU in 12 s ($run0 -> $run1)"
	if [ -z "$psi0" ]; then
		emit skip "accounting: PSI cpu 'some' grows under overload" "no /proc/pressure/cpu"
	else
		[ "$psi1" -gt "$psi0" ] &&
			emit ok "accounting: PSI cpu 'some' grows under overload" ||
			emit fail "accounting: PSI cpu 'some' grows under overload ($psi0 -> $psi1)"
	fi
	cgroup_cpu_check
}

# write_refused file value: writing value to file fails and the file keeps
# what it had.
write_refused() {
	[ -f "$1" ] || return 1
	old=$(cat "$1")
	if echo "$2" >"$1" 2>/dev/null; then
		return 1
	fi
	[ "$(cat "$1")" = "$old" ]
}

# The cgroup v2 cpu controller, as systemd and container runtimes use it:
# enable it for a child group, write cpu.weight, cpu.weight.nice and
# cpu.idle (every scheduler must take them and read them back; the cgroup
# group checks that they are enforced), refuse out-of-range values with
# the value kept, and account the CPU time of a task in the group.
cgroup_cpu_check() {
	cgroot=/sys/fs/cgroup
	cgd=$cgroot/leap-selftest
	if ! grep -qw cpu $cgroot/cgroup.controllers 2>/dev/null; then
		emit fail "accounting: cgroup v2 offers the cpu controller ($(cat $cgroot/cgroup.controllers 2>&1))"
		return
	fi
	rmdir $cgd 2>/dev/null
	if ! echo +cpu >$cgroot/cgroup.subtree_control || ! mkdir $cgd; then
		emit fail "accounting: cgroup v2 cpu controller enabled for a child group"
		return
	fi
	w0=$(cat $cgd/cpu.weight 2>&1)
	echo 200 >$cgd/cpu.weight && w1=$(cat $cgd/cpu.weight)
	echo 19 >$cgd/cpu.weight.nice && w2=$(cat $cgd/cpu.weight) && n2=$(cat $cgd/cpu.weight.nice)
	echo 100 >$cgd/cpu.weight
	[ "$w0" = 100 ] && [ "$w1" = 200 ] && [ "$w2" = 1 ] && [ "$n2" = 19 ] &&
		emit ok "accounting: cgroup cpu.weight 100 -> 200, weight.nice 19 -> weight 1" ||
		emit fail "accounting: cgroup cpu.weight 100 -> 200, weight.nice 19 -> weight 1 (got $w0, $w1, $w2, $n2)"
	ok=1
	for v in 0 10001 -5 abc; do
		write_refused $cgd/cpu.weight $v || { ok=0; echo "    # cpu.weight=$v: not refused, or no such file"; }
	done
	for v in -21 20; do
		write_refused $cgd/cpu.weight.nice $v || { ok=0; echo "    # cpu.weight.nice=$v: not refused, or no such file"; }
	done
	write_refused $cgd/cpu.idle 2 || { ok=0; echo "    # cpu.idle=2: not refused, or no such file"; }
	[ $ok = 1 ] && emit ok "accounting: cgroup cpu.weight, weight.nice and idle refuse bad values, keep theirs" ||
		emit fail "accounting: cgroup cpu.weight, weight.nice and idle refuse bad values, keep theirs"
	# An idle group has the lowest weight and refuses another; leaving
	# idle gives the default weight back.
	echo 300 >$cgd/cpu.weight
	echo 1 >$cgd/cpu.idle && i1=$(cat $cgd/cpu.idle) && wi=$(cat $cgd/cpu.weight)
	write_refused $cgd/cpu.weight 200 && ri=refused || ri=taken
	echo 0 >$cgd/cpu.idle && i0=$(cat $cgd/cpu.idle) && w3=$(cat $cgd/cpu.weight)
	[ "$i1" = 1 ] && [ "$wi" = 1 ] && [ $ri = refused ] && [ "$i0" = 0 ] && [ "$w3" = 100 ] &&
		emit ok "accounting: cgroup cpu.idle 1 (weight 1, weight writes refused), then 0 (weight 100)" ||
		emit fail "accounting: cgroup cpu.idle 1 (weight 1, weight writes refused), then 0 (weight 100) (got idle $i1, weight $wi, write $ri, idle $i0, weight $w3)"
	# A 1 s busy loop in the group on a quiet machine: at least 0.1 s of
	# CPU time is charged to the group.
	sh -c "echo \$\$ >$cgd/cgroup.procs && exec timeout 1 sh -c 'while :; do :; done'"
	use=$(awk '$1 == "usage_usec" { print $2 }' $cgd/cpu.stat)
	[ "${use:-0}" -ge 100000 ] &&
		emit ok "accounting: cgroup cpu.stat charges a task in the group (${use} us)" ||
		emit fail "accounting: cgroup cpu.stat charges a task in the group (${use:-none} us, want >= 100000)"
	rmdir $cgd || emit fail "accounting: cgroup removed after its task exited"
}

# Group shares, as mainline's group scheduling gives them: busy loops
# pinned to CPU 0 in sibling cgroups (or sessions: autogroup) share it by
# the groups' weights, whatever the number of tasks in each. Every
# scheduler must pass; the tolerances are coarse (emulated CPUs).
cg=/sys/fs/cgroup
cgt=$cg/leap-shares

# cg_mk path [weight]: a group under $cgt, its parent's cpu enabled.
cg_mk() {
	mkdir -p "$1" && echo +cpu >"$(dirname "$1")/cgroup.subtree_control" &&
		{ [ -z "$2" ] || echo "$2" >"$1/cpu.weight"; }
}

# A group's CPU time, us; read by the shell itself (an exec under
# emulation takes long enough to blur a window).
# bw_state GROUP [pid...]: what a cpu.max failure needs to be understood:
# the group's cpu.stat and cpu.max, each task's cgroup, state, policy,
# prio and CPU time, and LEAP's queue (debugfs).
bw_state() {
	g=$1
	shift
	echo "    # $g: cpu.max $(cat "$g/cpu.max"), $(tr '\n' ' ' <"$g/cpu.stat")"
	for p in "$@"; do
		echo "    # pid $p: cgroup $(cut -d: -f3 "/proc/$p/cgroup" 2>/dev/null)," \
			"$(awk '$1 == "State:" || $1 == "Cpus_allowed_list:" { printf "%s %s ", $1, $2 }' "/proc/$p/status" 2>/dev/null)" \
			"$(awk '$1 ~ /^(policy|prio|se.sum_exec_runtime|nr_switches|nr_voluntary_switches)$/ { printf "%s %s ", $1, $3 }' "/proc/$p/sched" 2>/dev/null)"
	done
	if has_debugfs && [ -r /sys/kernel/debug/sched/leap ]; then
		sed -n '1,40s/^/    # leap: /p' /sys/kernel/debug/sched/leap
	fi
}

cg_usage() {
	while read -r k v; do
		[ "$k" = usage_usec ] && echo "$v" && return
	done <"$1/cpu.stat"
}

# The uptime, in hundredths of a second: the length of a measured window.
uptime_cs() {
	read -r up _ </proc/uptime
	echo "${up%.*}${up#*.}"
}

# cg_share_check name tolerance group:hogs:want... : start the hogs, let
# them settle for 1 s, measure each group's CPU time over the run, and
# compare each group's part of the total with want (percent) +- tolerance.
# $cg_hook, if set, runs once the hogs are ready, before the settling.
cg_share_check() {
	name=$1 tol=$2
	shift 2
	hogs= ready=
	for spec in "$@"; do
		d=${spec%%:*} rest=${spec#*:} pre=$hogs
		more_hogs "${rest%%:*}" sh -c "echo \$\$ >$d/cgroup.procs && exec \"\$@\"" sh taskset -c 0
		# A group that should get nothing may never finish its exec.
		[ "${spec##*:}" = 0 ] || ready="$ready ${hogs#"$pre"}"
	done
	# shellcheck disable=SC2086
	hogs_ready $ready
	${cg_hook:-}
	sleep 1
	for spec in "$@"; do
		d=${spec%%:*}
		eval "u0_$(basename "$d")=$(cg_usage "$d")"
	done
	sleep "$(secs 4 8)"
	tot=0
	for spec in "$@"; do
		d=${spec%%:*}
		eval "u=\$((\$(cg_usage $d) - u0_$(basename "$d")))"
		eval "du_$(basename "$d")=$u"
		tot=$((tot + u))
	done
	stop_hogs
	ok=1 got=
	for spec in "$@"; do
		d=${spec%%:*} want=${spec##*:}
		eval "u=\$du_$(basename "$d")"
		pct=$((tot > 0 ? u * 100 / tot : 0))
		got="$got $(basename "$d")=$pct%"
		[ $pct -ge $((want - tol)) ] && [ $pct -le $((want + tol)) ] || ok=0
	done
	[ $ok = 1 ] && emit ok "cgroup: $name (${got# })" ||
		emit fail "cgroup: $name (${got# }; want each within $tol points)"
}

# crowd_run: 1000 busy loops pinned to CPU 0 (leap_crowd, as leap-bench's
# pinned-crowd) for a few seconds, then killed. Two CPUs at least: on one,
# the loops would take the shell's turns (and leap_crowd's, as it forks).
# Fails a check and returns 1 if the loops never started.
crowd_run() {
	crowd_out=/tmp/leap-crowd.out
	"$bin/leap_crowd" 1000 0 >$crowd_out &
	crowd=$!
	for _ in $(seq 120); do
		grep -q ready $crowd_out && break
		sleep 0.5
	done
	sleep "$(secs 4 6)"
	has_debugfs && [ -r /sys/kernel/debug/sched/leap ] &&
		echo "    # CPU 0's frontier under the crowd: $(awk '$1 == "cpu" { f = 1; next } f && $1 == 0 { print $NF " us"; exit }' /sys/kernel/debug/sched/leap)"
	kill -KILL $crowd
	wait $crowd 2>/dev/null
	grep -q ready $crowd_out && return 0
	emit fail "cgroup: 1000 busy loops pinned to CPU 0 start (leap_crowd: $(tr '\n' ' ' <$crowd_out))"
	return 1
}

# The same shares at once after a crowd: the loops leave CPU 0 picking
# busy tasks seconds late or early against their deadlines (its
# frontier, from which a group task's span is made: sched-leap.rst,
# "Group shares"); the groups that come next must get their shares at
# once, not once the average forgets the crowd. Before the frontier was
# bounded, the group of weight 100 here got 0 % in a 2-CPU boot.
cg_after_crowd_check() {
	if [ "$cpus" -lt 2 ]; then
		emit skip "cgroup: shares after 1000 loops on CPU 0" "needs 2 CPUs"
		return
	fi
	crowd_run || return
	cg_share_check "weights 100/300, 1 and 8 hogs on one CPU after 1000 loops there: 25/75" 10 \
		$cgt/a:1:25 $cgt/b:8:75
}

# And with the hogs running beside the crowd: their deadlines, set while
# the crowd made the frontier seconds, must not outlive it (leap.c,
# leap_rebase()). Before the rebase, the group of weight 100 got 99 %,
# 0 % and 70 % in the seconds after the crowd ended.
cg_beside_crowd_check() {
	if [ "$cpus" -lt 2 ]; then
		emit skip "cgroup: shares after 1000 loops beside them" "needs 2 CPUs"
		return
	fi
	cg_hook=crowd_run
	cg_share_check "weights 100/300, 1 and 8 hogs on one CPU, 1000 loops beside them ended: 25/75" 10 \
		$cgt/a:1:25 $cgt/b:8:75
	cg_hook=
	is_leap && has_debugfs && [ -r /sys/kernel/debug/sched/leap ] &&
		echo "    # $(grep -E '^group_rebases:' /sys/kernel/debug/sched/leap)"
}

# Linux 7.3's fair.c scales a group's weight on a CPU by its concurrency,
# min(its busy tasks, its CPUs), by default: debugfs sched/cgroup_mode
# "concur" (EEVDF gives 1 and 8 loops on one CPU of two 33/66, and 8 and
# 1 loops' autogroups 66/34). The share checks state the rule 6.12 has
# alone, "smp" there, which LEAP's group rates follow whatever the mode
# says: set it for the group, and put the old mode back after.
cg_mode() {	# cg_mode smp|restore
	cg_mode_f=/sys/kernel/debug/sched/cgroup_mode
	[ -w $cg_mode_f ] || return 0
	if [ "$1" = restore ]; then
		[ -n "${cg_mode_was:-}" ] && echo "$cg_mode_was" >$cg_mode_f
		return 0
	fi
	cg_mode_was=$(sed 's/.*(\([a-z]*\)).*/\1/' $cg_mode_f)
	echo "$1" >$cg_mode_f && echo "    # debugfs sched/cgroup_mode: $1 (was $cg_mode_was)"
}

group_cgroup() {
	cg_cpu_ok || return
	cg_mode smp
	rmdir $cgt/*/* $cgt/* $cgt 2>/dev/null
	cg_mk $cgt/a 100 && cg_mk $cgt/b 100 || {
		emit fail "cgroup: groups made with cpu.weight"
		return
	}
	cg_share_check "weights 100/100, 1 and 8 hogs on one CPU: 50/50" 10 \
		$cgt/a:1:50 $cgt/b:8:50
	echo 300 >$cgt/b/cpu.weight
	cg_share_check "weights 100/300, 1 and 8 hogs on one CPU: 25/75" 10 \
		$cgt/a:1:25 $cgt/b:8:75
	cg_after_crowd_check
	cg_beside_crowd_check
	echo 100 >$cgt/b/cpu.weight
	# Nested: b (100) holds c (100, 1 hog) and d (300, 4 hogs); a (100)
	# holds 2: a half, c an eighth, d three eighths.
	cg_mk $cgt/b/c 100 && cg_mk $cgt/b/d 300
	cg_share_check "nested: a 100 | b 100 = c 100 + d 300: 50, 12.5, 37.5" 8 \
		$cgt/a:2:50 $cgt/b/c:1:12 $cgt/b/d:4:38
	rmdir $cgt/b/c $cgt/b/d
	# cpu.weight.nice: nice 5 is weight 335 against 1024, a quarter.
	echo 5 >$cgt/b/cpu.weight.nice
	cg_share_check "cpu.weight.nice 0/5, 1 hog each: 75/25" 10 \
		$cgt/a:1:75 $cgt/b:1:25
	echo 100 >$cgt/b/cpu.weight
	# cpu.idle: the idle group's hogs get what the other leaves (little).
	echo 1 >$cgt/b/cpu.idle
	cg_share_check "cpu.idle 1 beside a normal group, 4 and 1 hogs: under 5%" 5 \
		$cgt/a:1:100 $cgt/b:4:0
	echo 0 >$cgt/b/cpu.idle
	rmdir $cgt/a $cgt/b $cgt
	autogroup_check
	cg_mode restore
	bandwidth_check
	bandwidth_lone_check
	bandwidth_idle_check
	container_check
}

# cpu.max, as container runtimes (docker run --cpus) and systemd's
# CPUQuota= write it: the mainline errors for bad values; a quota of half
# a CPU caps a group of 4 busy loops, cpu.stat counts the throttling, and
# "max" gives the CPUs back; a throttled group's tasks can be killed, and
# CPU hotplug works while it is throttled.
bandwidth_check() {
	bw=$cg/leap-bw
	rmdir $bw 2>/dev/null
	if ! mkdir $bw || [ ! -f $bw/cpu.max ]; then
		emit fail "cgroup: cpu.max exists"
		rmdir $bw 2>/dev/null
		return
	fi
	ok=1
	for v in "0 100000" "999 100000" "50000 999" "50000 1000001" abc; do
		write_refused $bw/cpu.max "$v" || { ok=0; echo "    # cpu.max='$v': not refused"; }
	done
	echo "20000 100000" >$bw/cpu.max
	write_refused $bw/cpu.max.burst 20001 || { ok=0; echo "    # cpu.max.burst over the quota: not refused"; }
	echo max >$bw/cpu.max && m1=$(cat $bw/cpu.max)
	echo "max 50000" >$bw/cpu.max && m2=$(cat $bw/cpu.max)
	echo "50000 100000" >$bw/cpu.max && m3=$(cat $bw/cpu.max)
	[ $ok = 1 ] && [ "$m1" = "max 100000" ] && [ "$m2" = "max 50000" ] &&
		[ "$m3" = "50000 100000" ] &&
		emit ok "cgroup: cpu.max refuses bad values, keeps its own, reads back what was set" ||
		emit fail "cgroup: cpu.max refuses bad values, keeps its own, reads back what was set (got '$m1', '$m2', '$m3')"
	# Half a CPU for 4 busy loops, over 5 s.
	start_hogs 4 sh -c "echo \$\$ >$bw/cgroup.procs && exec \"\$@\"" sh
	hogs_ready
	sleep 1
	w0=$(uptime_cs) u0=$(cg_usage $bw)
	t0=$(awk '$1 == "nr_throttled" { print $2 }' $bw/cpu.stat)
	sleep 5
	w1=$(uptime_cs) u1=$(cg_usage $bw)
	t1=$(awk '$1 == "nr_throttled" { print $2 }' $bw/cpu.stat)
	thr=$(awk '$1 == "throttled_usec" { print $2 }' $bw/cpu.stat)
	pct=$(((u1 - u0) / ((w1 - w0) * 100)))
	if [ $pct -ge 40 ] && [ $pct -le 60 ]; then
		emit ok "cgroup: cpu.max 50000 100000 caps 4 hogs to half a CPU ($pct%)"
	else
		emit fail "cgroup: cpu.max 50000 100000 caps 4 hogs to half a CPU ($pct% of a CPU, want 40-60)"
		# shellcheck disable=SC2086
		bw_state $bw $hogs
	fi
	[ "${t1:-0}" -gt "${t0:-0}" ] && [ "${thr:-0}" -gt 0 ] &&
		emit ok "cgroup: cpu.stat counts the throttling (nr_throttled $t0 -> $t1, throttled_usec $thr)" ||
		emit fail "cgroup: cpu.stat counts the throttling (nr_throttled ${t0:-none} -> ${t1:-none}, throttled_usec ${thr:-none})"
	echo max >$bw/cpu.max
	sleep 1
	w0=$(uptime_cs) u0=$(cg_usage $bw)
	sleep 2
	w1=$(uptime_cs) u1=$(cg_usage $bw)
	want=$((cpus < 4 ? cpus : 4))
	pct=$(((u1 - u0) / ((w1 - w0) * 100)))
	[ $pct -ge $((want * 70)) ] &&
		emit ok "cgroup: cpu.max max gives the CPUs back ($pct% of a CPU)" ||
		emit fail "cgroup: cpu.max max gives the CPUs back ($pct% of a CPU, want >= $((want * 70)))"
	# 1 ms a second: throttled nearly all the time. SIGKILL ends them.
	echo "1000 1000000" >$bw/cpu.max
	sleep 1.5
	if [ "$cpus" -ge 2 ] && [ -w /sys/devices/system/cpu/cpu1/online ]; then
		echo 0 >/sys/devices/system/cpu/cpu1/online && off=ok || off=failed
		echo 1 >/sys/devices/system/cpu/cpu1/online && on=ok || on=failed
		[ $off = ok ] && [ $on = ok ] &&
			emit ok "cgroup: CPU 1 goes offline and back while a group is throttled" ||
			emit fail "cgroup: CPU 1 goes offline and back while a group is throttled (offline $off, online $on)"
	else
		emit skip "cgroup: CPU 1 goes offline and back while a group is throttled" "one CPU"
	fi
	# The freezer freezes the throttled group (its tasks must reach the
	# freezer's trap: on LEAP at the end of a period, on EEVDF when the
	# quota lets them) and thaws it. Never frozen: the check's 30 s.
	t0=$(date +%s%N) ms=0
	echo 1 >$bw/cgroup.freeze
	while ! grep -q 'frozen 1' $bw/cgroup.events && [ $ms -lt 30000 ]; do
		sleep 0.1
		ms=$((($(date +%s%N) - t0) / 1000000))
	done
	grep -q 'frozen 1' $bw/cgroup.events && fz=frozen || fz="not frozen"
	ms=$((($(date +%s%N) - t0) / 1000000))
	echo 0 >$bw/cgroup.freeze
	sleep 0.5
	grep -q 'frozen 0' $bw/cgroup.events && th=thawed || th="not thawed"
	[ "$fz" = frozen ] && [ "$th" = thawed ] &&
		emit ok "cgroup: the freezer freezes a throttled group ($ms ms) and thaws it" ||
		emit fail "cgroup: the freezer freezes a throttled group and thaws it ($fz after $ms ms, $th)"
	t0=$(date +%s%N)
	# shellcheck disable=SC2086
	kill -9 $hogs 2>/dev/null
	wait 2>/dev/null
	ms=$((($(date +%s%N) - t0) / 1000000))
	left=$(cat $bw/cgroup.procs | wc -l)
	[ "$left" = 0 ] &&
		emit ok "cgroup: a throttled group's tasks are killed (${ms} ms)" ||
		emit fail "cgroup: a throttled group's tasks are killed ($left left after ${ms} ms)"
	echo max >$bw/cpu.max
	rmdir $bw || emit fail "cgroup: a group with cpu.max removed after its tasks exited"
}

# lone_hog name quota: one busy loop on the last CPU ($c), alone there,
# in group $cg/name ($bw) under cpu.max "quota 100000", settled for 1 s.
# lone_hog_end stops it and removes the group.
lone_hog() {
	bw=$cg/$1 c=$last_cpu
	rmdir $bw 2>/dev/null
	mkdir $bw && echo "$2 100000" >$bw/cpu.max || {
		emit fail "cgroup: a group with cpu.max made"
		return 1
	}
	start_hogs 1 taskset -c $c sh -c "echo \$\$ >$bw/cgroup.procs && exec \"\$@\"" sh
	hogs_ready
	sleep 1
}

lone_hog_end() {
	stop_hogs
	rmdir $bw || emit fail "cgroup: a group with cpu.max removed after its task exited"
}

# cpu.max on a lone task: with nohz_full its CPU stops its tick unless
# the scheduler keeps it for the quota, which is charged at the tick
# (EEVDF keeps it for CFS bandwidth). Half a CPU over 3 s, as for 4 hogs.
bandwidth_lone_check() {
	lone_hog leap-bw-lone 50000 || return
	w0=$(uptime_cs) u0=$(cg_usage $bw)
	sleep 3
	w1=$(uptime_cs) u1=$(cg_usage $bw)
	lone_hog_end
	pct=$(((u1 - u0) / ((w1 - w0) * 100)))
	what="cpu.max 50000 100000 caps a lone hog on CPU $c (nohz_full: $tickless)"
	[ $pct -ge 40 ] && [ $pct -le 60 ] &&
		emit ok "cgroup: $what ($pct%)" ||
		emit fail "cgroup: $what ($pct% of a CPU, want 40-60)"
}

# A CPU whose only task waits out its group's quota idles, and says so:
# under cpu.max 10000 100000, /proc/stat's idle time for that CPU (USER_HZ
# ticks) must be most of 3 s, as on EEVDF. (LEAP once counted parked
# tasks in nr_running, so idle_cpu() was false and the nohz idle
# accounting stopped at the first interrupt.)
bandwidth_idle_check() {
	lone_hog leap-bw-idle 10000 || return
	w0=$(uptime_cs) i0=$(awk -v c="cpu$c" '$1 == c { print $5 }' /proc/stat)
	sleep 3
	w1=$(uptime_cs) i1=$(awk -v c="cpu$c" '$1 == c { print $5 }' /proc/stat)
	lone_hog_end
	pct=$(((i1 - i0) * 100 / (w1 - w0)))
	what="a CPU idles while its only task waits for its group's quota (cpu.max 10000 100000)"
	[ $pct -ge 70 ] &&
		emit ok "cgroup: $what: CPU $c idle $pct% (/proc/stat)" ||
		emit fail "cgroup: $what: CPU $c idle $pct% (/proc/stat), want >= 70"
}

# cgroup v2 offers the cpu controller, enabled for the root's children.
cg_cpu_ok() {
	grep -qw cpu $cg/cgroup.controllers 2>/dev/null &&
		echo +cpu >$cg/cgroup.subtree_control && return 0
	emit fail "cgroup: cgroup v2 offers the cpu controller"
	return 1
}

# The lone-hog cap alone: a boot with a nohz_full CPU runs it (LEAP_GROUPS).
group_tickless() {
	cg_cpu_ok && bandwidth_lone_check
}

# A real container runtime, as `docker run --cpus=0.5` drives it: Debian's
# runc starts a container (the host root, read-only, as its root
# filesystem) whose two busy loops have a quota of half a CPU; the
# container's cgroup reads the quota back and uses about half a CPU.
container_check() {
	if ! command -v runc >/dev/null; then
		emit fail "cgroup: runc installed (make deps installs it)"
		return
	fi
	ctr=leap-selftest-ctr
	bnd=/tmp/$ctr
	runc delete -f $ctr 2>/dev/null
	umount $bnd/rootfs 2>/dev/null
	rm -rf $bnd
	# The root filesystem: the host root, bound (without the guest's
	# mounts below it) where pivot_root can take it.
	mkdir -p $bnd/rootfs && mount --bind / $bnd/rootfs && (cd $bnd && runc spec) || {
		emit fail "cgroup: runc spec writes a bundle"
		umount $bnd/rootfs 2>/dev/null
		return
	}
	python3 - "$bnd/config.json" "$ctr" <<'PY' || { emit fail "cgroup: container bundle written"; return; }
import json, sys
path, name = sys.argv[1], sys.argv[2]
c = json.load(open(path))
c["root"] = {"path": "rootfs", "readonly": True}
c["process"]["terminal"] = False
c["process"]["args"] = ["sh", "-c", "for i in 1 2; do (while :; do :; done) & done; wait"]
c["linux"]["cgroupsPath"] = "/" + name
c["linux"].setdefault("resources", {})["cpu"] = {"quota": 50000, "period": 100000}
json.dump(c, open(path, "w"))
PY
	runc run -d --bundle $bnd $ctr </dev/null >$bnd/out 2>&1
	d=$cg/$ctr
	if [ "$(runc state $ctr 2>/dev/null | grep -c '"status": "running"')" != 1 ] ||
		[ ! -f $d/cpu.max ]; then
		emit fail "cgroup: runc starts a container with a CPU limit ($(tail -c 300 $bnd/out | tr '\n' ' '))"
		runc delete -f $ctr 2>/dev/null
		umount $bnd/rootfs
		return
	fi
	emit ok "cgroup: runc starts a container with a CPU limit (cpu.max '$(cat $d/cpu.max)')"
	sleep 1
	w0=$(uptime_cs) u0=$(cg_usage $d)
	sleep "$(secs 5 10)"
	w1=$(uptime_cs) u1=$(cg_usage $d)
	pct=$(((u1 - u0) / ((w1 - w0) * 100)))
	if [ $pct -ge 40 ] && [ $pct -le 60 ]; then
		emit ok "cgroup: the container's 2 busy loops use half a CPU ($pct%)"
	else
		emit fail "cgroup: the container's 2 busy loops use half a CPU ($pct% of a CPU, want 40-60)"
		# shellcheck disable=SC2046
		bw_state $d $(cat $d/cgroup.procs)
	fi
	runc kill $ctr KILL 2>/dev/null
	for i in 1 2 3 4 5 6 7 8 9 10; do
		runc delete $ctr 2>/dev/null && break
		sleep 0.5
	done
	runc state $ctr >/dev/null 2>&1 &&
		emit fail "cgroup: the container killed and deleted" ||
		emit ok "cgroup: the container killed and deleted"
	umount $bnd/rootfs
	rm -rf $bnd
}

# Autogroup: each session its own group. One session with 8 hogs, one
# with 1, all on CPU 0, share it about evenly; with autogroup nice 5 on the
# second (/proc/<pid>/autogroup), it gets about a quarter.
autogroup_check() {
	if [ "$(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null)" != 1 ]; then
		emit fail "cgroup: autogroup enabled (kernel.sched_autogroup_enabled)"
		return
	fi
	for nice in 0 5; do
		n8=8 want=50
		[ $nice = 5 ] && n8=1 want=75
		# Each session is killed as one (pkill -s).
		setsid sh -c "for i in \$(seq $n8); do taskset -c 0 sh -c 'while :; do :; done' & done; wait" &
		s1=$!
		setsid taskset -c 0 sh -c 'while :; do :; done' &
		s2=$!
		for _ in $(seq 120); do
			[ "$(loops_of $s1 | wc -l)" = $n8 ] && [ "$(loops_of $s2 | wc -l)" = 1 ] && break
			sleep 0.5
		done
		[ $nice = 0 ] || echo $nice >/proc/$s2/autogroup
		# shellcheck disable=SC2046
		hogs_ready $(loops_of $s1) $(loops_of $s2)
		sleep 1
		b0=$(sid_ticks $s1) o0=$(sid_ticks $s2)
		sleep "$(secs 4 8)"
		b1=$(sid_ticks $s1) o1=$(sid_ticks $s2)
		pkill -9 -s "$s1,$s2"
		wait 2>/dev/null
		b=$((b1 - b0)) o=$((o1 - o0))
		pct=$(((b + o) > 0 ? b * 100 / (b + o) : 0))
		what="autogroup: sessions of $n8 and 1 hogs (autogroup nice 0/$nice) on one CPU: $want/$((100 - want))"
		[ $pct -ge $((want - 10)) ] && [ $pct -le $((want + 10)) ] &&
			emit ok "cgroup: $what ($pct/$((100 - pct)))" ||
			emit fail "cgroup: $what ($pct/$((100 - pct)), want within 10 points)"
	done
}

# The busy loops of session $1.
loops_of() { pgrep -s "$1" -f '^sh -c while :; do :; done$'; }

# The CPU ticks (utime + stime) of the processes of session $1.
sid_ticks() {
	cat /proc/[0-9]*/stat 2>/dev/null |
		awk -v s="$1" '{ sub(/.*\) /, ""); if ($4 == s) t += $12 + $13 } END { print t + 0 }'
}

group_leap() {
	if ! is_leap; then
		emit skip "leap: rr_interval/iso_cpu sysctls and debugfs view" "not a LEAP kernel"
		return
	fi
	for f in rr_interval:0 rr_interval:1001 rr_interval:-1 rr_interval:abc iso_cpu:101 iso_cpu:-1 iso_cpu:abc; do
		s=${f%%:*} v=${f#*:}
		if [ ! -e /proc/sys/kernel/$s ]; then
			emit fail "leap: kernel.$s=$v is refused (no kernel.$s on a LEAP kernel)"
			continue
		fi
		old=$(cat /proc/sys/kernel/$s)
		if echo "$v" >/proc/sys/kernel/$s 2>/dev/null; then
			emit fail "leap: kernel.$s=$v is refused"
		else
			[ "$(cat /proc/sys/kernel/$s)" = "$old" ] &&
				emit ok "leap: kernel.$s=$v is refused, value kept" ||
				emit fail "leap: kernel.$s=$v changed the value"
		fi
	done
	old=$(cat /proc/sys/kernel/rr_interval)
	echo 10 >/proc/sys/kernel/rr_interval && [ "$(cat /proc/sys/kernel/rr_interval)" = 10 ] &&
		emit ok "leap: kernel.rr_interval=10 accepted" || emit fail "leap: kernel.rr_interval=10 accepted"
	echo "$old" >/proc/sys/kernel/rr_interval
	dmesg | grep -q 'LEAP: global skip-list scheduler active' &&
		emit ok "leap: boot banner in dmesg" || emit fail "leap: boot banner in dmesg"
	if ! has_debugfs; then
		# debugfs=off or CONFIG_DEBUG_FS=n: LEAP booted and schedules
		# (every check above); its view must simply be absent.
		[ ! -e /sys/kernel/debug/sched/leap ] &&
			emit ok "leap: no debugfs view without debugfs, and no oops" ||
			emit fail "leap: no debugfs view without debugfs, and no oops"
	elif grep -q entries /sys/kernel/debug/sched/leap 2>/dev/null; then
		emit ok "leap: debugfs sched/leap shows the queue"
		leap_util_check
	else
		emit fail "leap: debugfs sched/leap shows the queue"
	fi
	# schedtool -I, unprivileged: the command runs as SCHED_ISO (policy 4,
	# field 41 of /proc/self/stat).
	pol=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
		schedtool -I -e awk '{ print $41 }' /proc/self/stat 2>&1)
	[ "$pol" = 4 ] && emit ok "leap: schedtool -I runs a command as SCHED_ISO, unprivileged" ||
		emit fail "leap: schedtool -I runs a command as SCHED_ISO, unprivileged (got '$pol')"
	# Its checks read the debugfs view (ISO use, refractory state).
	has_debugfs && harness leap sched_leap
}

# SMT topology (a guest booted with threads=2): the idle-core choice.
group_smt() { harness smt sched_leap -t smt_idle_core_first; }

# CPU $1's utilization signal (what schedutil reads), from the debugfs
# view on stdin.
cpu_util() {
	awk -v c="$1" '/^cpu nr_running/ { t = 1; next } t && $1 == c { print $7; exit }'
}
cpu0_util() { cpu_util 0; }

# cpufreq sees LEAP's load: CPU 0's util rises near 1024 under a hog
# pinned there, and decays once only a task that mostly sleeps runs there.
# That task reads the view itself after each of its last ten sleeps of
# 50 ms and reports the lowest value: a process started afterwards to
# read it would first run on CPU 0 (the only one, with one CPU) long
# enough under emulation to raise the signal again, and so can one of
# its own wakeups when the emulator stalls it (one run of about thirty
# read 625 where the others read 68-166). Without the decay every read
# stays near 1024.
leap_util_check() {
	taskset -c 0 sh -c 'while :; do :; done' &
	hog=$!
	sleep 2
	busy=$(cpu0_util </sys/kernel/debug/sched/leap)
	kill $hog
	wait $hog 2>/dev/null
	quiet=$(taskset -c 0 perl -e 'my $min;
		for my $i (1..20) {
			select(undef, undef, undef, 0.05);
			next if $i <= 10;
			open(my $f, "<", "/sys/kernel/debug/sched/leap") or die;
			my $t;
			while (<$f>) {
				my @c = split;
				$t = 1, next if /^cpu nr_running/;
				next unless $t && @c > 6 && $c[0] eq "0";
				$min = $c[6] if !defined $min || $c[6] < $min;
				last;
			}
		}
		print "$min\n" if defined $min')
	[ "${busy:-0}" -ge 700 ] &&
		emit ok "leap: CPU 0 util rises under a pinned hog ($busy of 1024)" ||
		emit fail "leap: CPU 0 util rises under a pinned hog (${busy:-none}, want >= 700)"
	[ -n "$quiet" ] && [ "$quiet" -le $((busy / 2)) ] &&
		emit ok "leap: CPU 0 util decays when it mostly sleeps ($busy -> $quiet)" ||
		emit fail "leap: CPU 0 util decays when it mostly sleeps ($busy -> ${quiet:-none}, want <= half)"
	idle_util_check
}

# An idle CPU's utilization decays although nothing runs there: with
# schedutil's shared policies the highest CPU sets the frequency, so a
# stale value would hold it up. A hog pinned to the last CPU for 2 s;
# then 0.3 s with nothing there while another hog keeps CPU 0 busy (as a
# loaded machine would).
idle_util_check() {
	last=$((cpus - 1))
	if [ "$cpus" -lt 2 ]; then
		emit skip "leap: an idle CPU's util decays" "needs a second CPU that can stay idle"
		return
	fi
	# This shell and what it starts stay on CPU 0, off the measured CPU,
	# and so do the unbound kernel threads and workqueues: LEAP wakes a
	# task on an idle CPU, and its enqueue there would decay the signal
	# too, hiding a missing decay. Per-CPU kernel threads stay.
	taskset -cp 0 $$ >/dev/null
	wqmask=/sys/devices/virtual/workqueue/cpumask
	wq=$(cat $wqmask 2>/dev/null)
	echo 1 >$wqmask 2>/dev/null
	moved=
	for t in $(ps -eo pid=,comm= | awk '$2 !~ /\/[0-9]/ { print $1 }'); do
		taskset -cp 0 "$t" >/dev/null 2>&1 && moved="$moved $t"
	done
	taskset -c $last sh -c 'while :; do :; done' &
	hog=$!
	sleep 2
	busy=$(cpu_util $last </sys/kernel/debug/sched/leap)
	sh -c 'while :; do :; done' &
	hog0=$!
	kill $hog
	wait $hog 2>/dev/null
	# 0.3 s: ten PELT half-lives, and short enough that usually no
	# kernel thread wakes there meanwhile (its enqueue would decay the
	# signal too, and hide a missing decay).
	sleep 0.3
	idle=$(cpu_util $last </sys/kernel/debug/sched/leap)
	kill $hog0
	wait $hog0 2>/dev/null
	for t in $moved; do
		taskset -cp 0-$last "$t" >/dev/null 2>&1
	done
	[ -n "$wq" ] && echo "$wq" >$wqmask
	[ "${busy:-0}" -ge 700 ] && [ -n "$idle" ] && [ "$idle" -le 100 ] &&
		emit ok "leap: CPU $last util decays while it idles ($busy -> $idle)" ||
		emit fail "leap: CPU $last util decays while it idles (${busy:-none} -> ${idle:-none}, want >= 700, then <= 100)"
}

echo "# LEAP selftests: $(uname -r), $cpus CPUs, $mode, scheduler:" \
	"$([ -e /proc/sys/kernel/rr_interval ] && echo LEAP || echo EEVDF)"
dmesg_check boot
for grp in $groups; do
	start=$(date +%s)
	echo "# group $grp"
	group_$grp
	dmesg_check "$grp"
	echo "# group $grp took $(($(date +%s) - start)) s"
done
# Lockdep turns itself off after its first report: it must still be on.
if [ -r /proc/lockdep_stats ]; then
	grep -qE 'debug_locks: +1' /proc/lockdep_stats &&
		emit ok "end: lockdep still on" ||
		emit fail "end: lockdep still on (it turned itself off: see the console log)"
fi
[ -n "$LEAP_OUT" ] && cp $tap "$LEAP_OUT/selftests-$cpus.tap"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail = 0 ]
