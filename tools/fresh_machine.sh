#!/bin/bash
# fresh_machine.sh: run the README's two commands on a fresh Debian 12
# machine: a chroot that debootstrap builds from Debian's archive with the
# base system only (minbase: no compiler, no Python packages, no R), into
# which the committed tree (git archive HEAD) is copied. Nothing installed
# by hand on this machine can help the commands there.
#   tools/fresh_machine.sh [DIR]     the chroot in DIR (default /var/tmp/basel-fresh)
#   STEPS="build"                    only the first command (tools/build.sh && build/basel demo)
# Needs root and the Debian archive (apt-get install debootstrap). Takes the
# suite's CPU time plus the packages' installation: about an hour on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
dir=${1:-/var/tmp/basel-fresh}
[ "$(id -u)" -eq 0 ] || { echo "fresh_machine.sh: needs root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap > /dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap > /dev/null

if [ ! -x "$dir/usr/bin/apt-get" ]; then
    mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
    debootstrap --variant=minbase bookworm "$dir" "${mirror:-http://deb.debian.org/debian}"
fi
cp /etc/apt/sources.list.d/debian.sources "$dir/etc/apt/sources.list.d/" 2>/dev/null || true
cp /etc/resolv.conf "$dir/etc/resolv.conf"
rm -rf "$dir/basel"
# a clone of the committed tree (what CI checks out), made from outside
git clone -q "$root" "$dir/basel"
# the chroot sees /work/shared only if it is there: the tests do not need it
for m in proc sys dev dev/pts; do mountpoint -q "$dir/$m" || mount --bind "/$m" "$dir/$m"; done
cleanup() { for m in dev/pts dev sys proc; do umount "$dir/$m" 2> /dev/null || true; done; }
trap cleanup EXIT

run() { chroot "$dir" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
            bash -c "cd /basel && $1"; }
echo "=== fresh_machine.sh: packages before: $(chroot "$dir" dpkg -l | grep -c '^ii')" >&2
run "tools/build.sh && build/basel demo"
if [ "${STEPS:-all}" != build ]; then
    run "tools/test.sh"
fi
echo "=== fresh_machine.sh: the README's commands passed in $dir (packages after: $(chroot "$dir" dpkg -l | grep -c '^ii'))" >&2
