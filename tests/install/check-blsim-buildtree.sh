#!/bin/sh
# blsim run from the build tree, nothing installed, finds the source tree's
# boards and workloads; BLSIM_DATADIR overrides them. Prints TAP.
set -u
build="${TOP_BUILDDIR:-.}"
src="${TOP_SRCDIR:-.}"
blsim="$build/src/sim/blsim"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0

result() {
        n=$((n + 1))
        if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

# The physical path of the directory a list header names.
header_dir() {
        d=$(sed -n "s/^$1 (\(.*\)):\$/\1/p" "$2")
        [ -n "$d" ] && (cd "$d" 2>/dev/null && pwd -P)
}

echo "1..6"
env -u BLSIM_DATADIR "$blsim" list >"$tmp/list" 2>&1

[ "$(header_dir boards "$tmp/list")" = "$(cd "$src/conf/boards" && pwd -P)" ]
result $? "boards from the source tree"
[ "$(header_dir workloads "$tmp/list")" = "$(cd "$src/tests/workloads" && pwd -P)" ]
result $? "workloads from the source tree"

nboards=$(ls "$src"/conf/boards/*.ini | wc -l)
listed=$(sed -n '/^boards (/,/^$/p' "$tmp/list" | grep -c '^  [a-z0-9].*(')
if [ "$listed" -eq "$nboards" ] && ! grep -q "does not load\|none installed" "$tmp/list"; then
        result 0 "lists the $nboards boards"
else
        sed 's/^/# /' "$tmp/list"
        result 1 "lists $listed boards of $nboards"
fi

missing=""
count=0
for f in "$src"/tests/workloads/*.csv "$src"/tests/workloads/holdout/*.csv "$src"/tests/workloads/rt-app/*.json; do
        rel=${f#"$src"/tests/workloads/}
        count=$((count + 1))
        grep -qxF "  $rel" "$tmp/list" || missing="$missing $rel"
done
[ -z "$missing" ] || echo "# not listed:$missing"
[ -z "$missing" ] && [ "$count" -gt 0 ]
result $? "lists the $count workloads"

env -u BLSIM_DATADIR "$blsim" run --board tc2 --workload idle-bursts >"$tmp/run" 2>&1 &&
        grep -q "^workload *idle-bursts" "$tmp/run"
result $? "runs a board and a workload given by name"

BLSIM_DATADIR="$tmp/empty" "$blsim" list >"$tmp/list-env" 2>&1
[ "$(grep -c "none installed" "$tmp/list-env")" -eq 2 ] && grep -qxF "boards ($tmp/empty/boards):" "$tmp/list-env"
result $? "BLSIM_DATADIR comes first"
exit 0
