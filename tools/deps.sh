#!/bin/bash
# deps.sh: install the Debian packages of the named purposes from the one
# list, tools/deps/packages.txt (build, test, python, r, mpi, peers, fuzz).
#   tools/deps.sh build test       install what is missing (as root)
#   tools/deps.sh --list r         print the packages of a purpose
#   tools/deps.sh --missing all    print what is missing, install nothing
# As root it runs apt-get install -y --no-install-recommends (what the list
# names and what that depends on, no more: a test that needs a package must
# list it); otherwise it names the packages to
# install and exits 1.
set -euo pipefail
list="$(dirname "$0")/deps/packages.txt"

mode=install
case "${1:-}" in
    --list) mode=list; shift ;;
    --missing) mode=missing; shift ;;
    ""|-h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
[ $# -gt 0 ] || { echo "deps.sh: name at least one purpose" >&2; exit 2; }

purposes=$(sed -n 's/^\([a-z]*\):.*/\1/p' "$list")
pkgs=()
for want in "$@"; do
    if [ "$want" = all ]; then
        set -- $purposes
        for p in $purposes; do pkgs+=($(sed -n "s/^$p: *//p" "$list")); done
        continue
    fi
    echo "$purposes" | grep -qx "$want" || { echo "deps.sh: unknown purpose '$want' (one of: $(echo $purposes))" >&2; exit 2; }
    pkgs+=($(sed -n "s/^$want: *//p" "$list"))
done
# unique, in order
mapfile -t pkgs < <(printf '%s\n' "${pkgs[@]}" | awk '!seen[$0]++')

if [ "$mode" = list ]; then
    printf '%s\n' "${pkgs[@]}"
    exit 0
fi

need=()
for p in "${pkgs[@]}"; do
    # "install ok installed" only: a removed package leaves "deinstall ... config-files"
    [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = "install ok installed" ] || need+=("$p")
done
if [ "$mode" = missing ]; then
    [ ${#need[@]} -eq 0 ] || printf '%s\n' "${need[@]}"
    exit 0
fi
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
    echo "deps.sh: missing Debian packages: ${need[*]} (sudo apt-get install -y ${need[*]})" >&2
    exit 1
fi
echo "deps.sh: installing ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# the package lists may be stale or absent on a fresh machine: update once, then install
apt-get install -y -qq --no-install-recommends "${need[@]}" > /dev/null 2>&1 || {
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${need[@]}" > /dev/null
}
