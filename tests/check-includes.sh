#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The layers of the source tree: which folder may include which. A folder's
# files may include their own folder's headers and those of the folders
# listed after it, nothing else; an entry with a file name allows that one
# header only. HACKING explains the layers. Prints TAP, one test per folder.
set -u
top_srcdir=${TOP_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}

# folder   what it may include (folders are named as in #include "...")
allowed='
policy     policy
core       core policy/bl-policy.h
common     common
loaders    loaders common core policy
fakeboard  fakeboard core
sources    sources common core policy/bl-policy.h
backends   backends common core policy/bl-policy.h
ctl        ctl common
daemon     daemon sources backends loaders common core policy/bl-policy.h
sim        sim fakeboard loaders common core policy
'

# Includes that break the rule today, each "file included-header", with the
# item of the issue that removes them. An exception that no longer occurs is
# reported (as a TAP comment) so that it can be taken off the list.
exceptions='
'

folder_dir() {
        case $1 in
        policy) echo "$top_srcdir/policy" ;;
        *) echo "$top_srcdir/src/$1" ;;
        esac
}

is_exception() {
        printf '%s\n' "$exceptions" | grep -v '^#' | grep -qxF "$1 $2"
}

n=0
failed=0
used=
while read -r folder may; do
        [ -n "$folder" ] || continue
        n=$((n + 1))
        dir=$(folder_dir "$folder")
        bad=
        for file in "$dir"/*.c "$dir"/*.h; do
                [ -f "$file" ] || continue
                rel=${file#"$top_srcdir"/}
                for header in $(sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\/[^"]*\)".*/\1/p' "$file"); do
                        ok=
                        for a in $may; do
                                if [ "$a" = "${header%%/*}" ] || [ "$a" = "$header" ]; then
                                        ok=1
                                        break
                                fi
                        done
                        [ -n "$ok" ] && continue
                        if is_exception "$rel" "$header"; then
                                used="$used
$rel $header"
                                continue
                        fi
                        bad="$bad
#   $rel includes \"$header\""
                done
        done
        if [ -z "$bad" ]; then
                echo "ok $n - $folder includes only: $may"
        else
                failed=1
                echo "not ok $n - $folder includes only: $may"
                printf '%s\n' "$bad" | sed '/^$/d'
        fi
done <<ALLOWED
$allowed
ALLOWED
# A new folder must take its place in the list.
n=$((n + 1))
missing=
for dir in "$top_srcdir"/src/*/; do
        folder=$(basename "$dir")
        printf '%s\n' "$allowed" | grep -q "^$folder " || missing="$missing $folder"
done
if [ -z "$missing" ]; then
        echo "ok $n - every folder of src/ has its place in the list"
else
        failed=1
        echo "not ok $n - folders of src/ not in the list:$missing"
fi
printf '%s\n' "$exceptions" | grep -v '^#' | sed '/^$/d' | while read -r file header; do
        printf '%s\n' "$used" | grep -qxF "$file $header" ||
                echo "# the exception \"$file $header\" no longer occurs: take it off the list"
done
echo "1..$n"
exit "$failed"
