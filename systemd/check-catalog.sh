#!/bin/sh
# The journal catalog and the MESSAGE_IDs of the code: every id the daemon
# logs with (src/daemon/message-ids.h, each name used in src/) has an entry
# in systemd/bigLittle.catalog and every entry an id of the code; and
# journalctl reads the catalog and lists each entry with its subject.
# Prints TAP.
set -u
src="${TOP_SRCDIR:-.}"
header="$src/src/daemon/message-ids.h"
catalog="$src/systemd/bigLittle.catalog"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "1..4"
sed -n 's/^#define \(BL_MESSAGE_[A-Z_]*\) "\([0-9a-f]*\)".*/\1 \2/p' "$header" >"$tmp/defines"
# Ids that are not 128 bits of lower-case hex would not match in journalctl.
bad=$(awk 'length($2) != 32 { print $1 }' "$tmp/defines")
unused=""
while read -r name id; do
        grep -rqw --include='*.c' "$name" "$src/src" || unused="$unused $name"
done <"$tmp/defines"
[ -n "$bad" ] && echo "# not 32 hex digits: $bad"
[ -n "$unused" ] && echo "# defined but logged nowhere in src/:$unused"
[ -s "$tmp/defines" ] && [ -z "$bad" ] && [ -z "$unused" ]
if [ $? -eq 0 ]; then
        echo "ok 1 - $(wc -l <"$tmp/defines") ids in message-ids.h, each logged in src/"
else
        echo "not ok 1 - the ids of message-ids.h"
fi

cut -d' ' -f2 "$tmp/defines" | sort >"$tmp/code-ids"
sed -n 's/^-- \([0-9a-fA-F]*\)$/\1/p' "$catalog" | sort >"$tmp/catalog-ids"
dups=$(uniq -d "$tmp/catalog-ids")
missing=$(comm -23 "$tmp/code-ids" "$tmp/catalog-ids")
extra=$(comm -13 "$tmp/code-ids" "$tmp/catalog-ids" | sort -u)
[ -n "$dups" ] && echo "# twice in the catalog: $dups"
[ -n "$missing" ] && echo "# no catalog entry for:" $missing
[ -n "$extra" ] && echo "# catalog entries the code does not log:" $extra
if [ -z "$dups$missing$extra" ]; then
        echo "ok 2 - the catalog has an entry for each id and no other"
else
        echo "not ok 2 - the catalog and message-ids.h differ"
fi

if ! command -v journalctl >/dev/null 2>&1; then
        echo "ok 3 # SKIP journalctl not installed"
        echo "ok 4 # SKIP journalctl not installed"
        exit 0
fi
# A root of its own: the catalog alone, the database written beside it.
mkdir -p "$tmp/root/usr/lib/systemd/catalog"
cp "$catalog" "$tmp/root/usr/lib/systemd/catalog/"
if journalctl --root="$tmp/root" --update-catalog >"$tmp/update.log" 2>&1; then
        echo "ok 3 - journalctl --update-catalog reads it"
else
        sed 's/^/# /' "$tmp/update.log"
        echo "not ok 3 - journalctl --update-catalog refuses it"
fi
journalctl --root="$tmp/root" --list-catalog >"$tmp/list" 2>&1
missing=""
for id in $(cat "$tmp/code-ids"); do
        grep -q "^$id bigLittle: [^ ]" "$tmp/list" || missing="$missing $id"
done
if [ -z "$missing" ]; then
        echo "ok 4 - journalctl lists every id with its subject"
else
        sed 's/^/# /' "$tmp/list"
        echo "not ok 4 - journalctl does not list:$missing"
fi
