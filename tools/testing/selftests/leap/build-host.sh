#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build the LEAP selftests and the mainline kselftests the suite runs
# (rseq, membarrier, futex, cpu-hotplug), on the host, into OUTDIR.
#
# usage: build-host.sh <kernel tree with this directory in it> <OUTDIR>
set -e
tree=$(cd "$1" && pwd)
out=$2
mkdir -p "$out/mainline" "$out/hdr"
out=$(cd "$out" && pwd)
st=$tree/tools/testing/selftests
echo ">>> selftests: LEAP suite"
make -s -C "$st/leap" OUTPUT="$out"
echo ">>> selftests: UAPI headers for the mainline tests"
make -s -C "$tree" O="$out/hdr" headers >/dev/null
k="-isystem $out/hdr/usr/include"
for t in rseq membarrier futex/functional; do
	echo ">>> selftests: mainline $t"
	mkdir -p "$out/mainline/$t"
	make -s -C "$st/$t" OUTPUT="$out/mainline/$t" KHDR_INCLUDES="$k" >/dev/null
done
mkdir -p "$out/mainline/cpu-hotplug"
cp "$st/cpu-hotplug/cpu-on-off-test.sh" "$out/mainline/cpu-hotplug/"
echo ">>> selftests: built into $out"
