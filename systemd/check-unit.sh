#!/bin/sh
# Checks the generated unit: systemd-analyze verify, and the exposure score of
# systemd-analyze security. Prints TAP.
set -u
unit_in="${TOP_SRCDIR:-.}/systemd/bigLittle.service.in"
daemon="${TOP_BUILDDIR:-.}/src/daemon/bigLittled"
# 1.4 with systemd 252 since ProtectKernelTunables=yes; issue 18 asks for at
# most 1.6.
max_exposure=1.6
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "1..2"
if ! command -v systemd-analyze >/dev/null 2>&1; then
        echo "ok 1 # SKIP systemd-analyze not installed"
        echo "ok 2 # SKIP systemd-analyze not installed"
        exit 0
fi
# The unit as installed, but pointing at the binary just built.
sed -e "s|@sbindir@/bigLittled|$daemon|" "$unit_in" >"$tmp/bigLittle.service"

if systemd-analyze verify --man=no "$tmp/bigLittle.service" >"$tmp/verify.log" 2>&1; then
        echo "ok 1 - systemd-analyze verify"
else
        sed 's/^/# /' "$tmp/verify.log"
        echo "not ok 1 - systemd-analyze verify"
fi

systemd-analyze security --offline=yes "$tmp/bigLittle.service" >"$tmp/security.log" 2>&1
score=$(sed -n 's/.*Overall exposure level for bigLittle.service: \([0-9.]*\).*/\1/p' "$tmp/security.log")
if [ -n "$score" ] && awk -v s="$score" -v m="$max_exposure" 'BEGIN { exit !(s <= m) }'; then
        echo "ok 2 - exposure $score <= $max_exposure"
else
        sed 's/^/# /' "$tmp/security.log"
        echo "not ok 2 - exposure '${score:-?}' above $max_exposure"
fi
