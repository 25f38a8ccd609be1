# SPDX-License-Identifier: GPL-2.0
# LEAP workbench: shell helpers shared by the workbench scripts.

TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
BUILD=${BUILD:-$TOP/build}
OUT=${OUT:-$TOP/out}
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
