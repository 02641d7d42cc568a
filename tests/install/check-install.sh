#!/bin/sh
# make install DESTDIR=... puts each file in the directory configure chose
# (tests/install/installdirs.sh, written by make), the installed programs
# look there, and make uninstall takes everything away again. Prints TAP.
set -u
build="${TOP_BUILDDIR:-.}"
src="${TOP_SRCDIR:-.}"
. "$build/tests/install/installdirs.sh"
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
dest="$tmp/root"
n=0
fails=0

result() {
        n=$((n + 1))
        if [ "$1" -eq 0 ]; then
                echo "ok $n - $2"
        else
                echo "not ok $n - $2"
                fails=$((fails + 1))
        fi
}

# The file exists below DESTDIR at the configured place.
installed() {
        if [ -f "$dest$1" ]; then
                result 0 "$2 at $1"
        else
                echo "# not there: $dest$1"
                result 1 "$2 at $1"
        fi
}

echo "1..23"
# Not make -C: the sub-make must not inherit a parallel check's goals.
if (cd "$build" && ${MAKE:-make} install DESTDIR="$dest") >"$tmp/install.log" 2>&1; then
        result 0 "make install DESTDIR"
else
        sed 's/^/# /' "$tmp/install.log"
        result 1 "make install DESTDIR"
fi

installed "$dbuspolicydir/org.bigLittle.Switch1.conf" "D-Bus policy"
installed "$polkitactiondir/org.bigLittle.Switch1.policy" "polkit action"
installed "$systemdsystemunitdir/bigLittle.service" "systemd unit"
installed "$sysconfdir/bigLittle.conf" "configuration"
for program in switchctl bigLittled blsim; do
        installed "$bashcompletiondir/$program" "bash completion of $program"
        installed "$zshcompletiondir/_$program" "zsh completion of $program"
done
installed "$catalogdir/bigLittle.catalog" "journal catalog"
installed "$dbusinterfacesdir/org.bigLittle.Switch1.xml" "D-Bus interface description"

grep -qx "ExecStart=$sbindir/bigLittled" "$dest$systemdsystemunitdir/bigLittle.service" 2>/dev/null
result $? "the unit starts $sbindir/bigLittled"

# The daemon's default configuration is the file just installed.
"$dest$sbindir/bigLittled" --help 2>&1 | grep -qF "$sysconfdir/bigLittle.conf"
result $? "bigLittled reads $sysconfdir/bigLittle.conf by default"

# Every board and every workload of the source tree, installed; the
# workloads beside the boards.
missing=""
for f in "$src"/conf/boards/*.ini; do
        [ -f "$dest$boardsdir/${f##*/}" ] || missing="$missing ${f##*/}"
done
[ -z "$missing" ] || echo "# boards missing:$missing"
[ -z "$missing" ]
result $? "every board in $boardsdir"

missing=""
for f in "$src"/tests/workloads/*.csv "$src"/tests/workloads/holdout/*.csv "$src"/tests/workloads/rt-app/*.json; do
        rel=${f#"$src"/tests/workloads/}
        [ -f "$dest$workloadsdir/$rel" ] || missing="$missing $rel"
done
[ -z "$missing" ] || echo "# workloads missing:$missing"
[ -z "$missing" ]
result $? "every workload in $workloadsdir"

[ "${boardsdir%/*}" = "${workloadsdir%/*}" ]
result $? "workloads beside the boards"

# The installed blsim looks where make install put them (its data under
# DESTDIR is only reachable through BLSIM_DATADIR).
blsim="$dest$bindir/blsim"
env -u BLSIM_DATADIR "$blsim" list >"$tmp/list-default" 2>&1
grep -qxF "boards ($boardsdir):" "$tmp/list-default" && grep -qxF "workloads ($workloadsdir):" "$tmp/list-default"
result $? "installed blsim looks in $boardsdir and $workloadsdir"

BLSIM_DATADIR="$dest${boardsdir%/*}" "$blsim" list >"$tmp/list" 2>&1
nboards=$(ls "$src"/conf/boards/*.ini | wc -l)
listed=$(sed -n '/^boards (/,/^$/p' "$tmp/list" | grep -c '^  [a-z0-9].*(')
if [ "$listed" -eq "$nboards" ] && ! grep -q "does not load\|none installed" "$tmp/list"; then
        result 0 "installed blsim lists $nboards boards"
else
        sed 's/^/# /' "$tmp/list"
        result 1 "installed blsim lists $listed boards of $nboards"
fi

# The installed workloads by the names --workload takes.
(cd "$dest$workloadsdir" 2>/dev/null && find . -name '*.csv' -o -name '*.json') | sed 's|^\./||' >"$tmp/workloads"
missing=""
while read -r f; do
        grep -qxF "  $f" "$tmp/list" || missing="$missing $f"
done <"$tmp/workloads"
nworkloads=$(wc -l <"$tmp/workloads")
[ -z "$missing" ] || echo "# not listed:$missing"
[ -z "$missing" ] && [ "$nworkloads" -gt 0 ]
result $? "installed blsim lists the $nworkloads installed workloads"

BLSIM_DATADIR="$dest${boardsdir%/*}" "$blsim" run --board exynos5422-like --workload holdout/typing \
        >"$tmp/run" 2>&1 && grep -q "^workload *holdout/typing" "$tmp/run"
result $? "installed blsim runs an installed board and workload by name"

if (cd "$build" && ${MAKE:-make} uninstall DESTDIR="$dest") >"$tmp/uninstall.log" 2>&1; then
        left=$(find "$dest" -type f -o -type l)
        [ -z "$left" ] || echo "$left" | sed 's/^/# left behind: /'
        [ -z "$left" ]
        result $? "make uninstall removes every file"
else
        sed 's/^/# /' "$tmp/uninstall.log"
        result 1 "make uninstall removes every file"
fi
exit 0
