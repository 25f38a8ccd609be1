# SPDX-License-Identifier: GPL-2.0
# LEAP workbench: shell helpers shared by the workbench scripts.

TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}

# LINUX: the kernel version to build LEAP for (make ... LINUX=7.3); the
# versions are the directories of patches/. 6.12, the default, keeps
# build/ and out/; another version has its own build/linux-V and
# out/linux-V, so both can be built side by side. The Makefile computes
# the same paths.
LINUX=${LINUX:-6.12}
LINUXES=$(cd "$TOP/patches" && ls -d -- */ | tr -d / | tr '\n' ' ')
if [ ! -f "$TOP/patches/$LINUX/series" ]; then
	printf 'error: LINUX=%s is not a kernel version LEAP has patches for\n' "$LINUX" >&2
	printf '  fix: use one of: %s(patches/<version>/series)\n' "$LINUXES" >&2
	exit 1
fi
if [ "$LINUX" = 6.12 ]; then
	BUILD=${BUILD:-$TOP/build}
	OUT=${OUT:-$TOP/out}
else
	BUILD=${BUILD:-$TOP/build/linux-$LINUX}
	OUT=${OUT:-$TOP/out/linux-$LINUX}
fi
PATCHES=$TOP/patches/$LINUX
KSRC=${KSRC:-$BUILD/src/linux-source-$LINUX}
export LINUX
STAMPS=$BUILD/stamps

# say MSG: one progress line, prefixed so it stands out in make's output.
say() { printf '>>> %s\n' "$*"; }

# die MSG [HINT]: stop with what is wrong and how to fix it.
die() {
	printf 'error: %s\n' "$1" >&2
	[ -n "${2:-}" ] && printf '  fix: %s\n' "$2" >&2
	exit 1
}

# need CMD PACKAGE: stop unless CMD is on PATH.
need() {
	command -v "$1" >/dev/null 2>&1 ||
		die "'$1' is missing" "run 'make deps' (installs Debian package $2)"
}
