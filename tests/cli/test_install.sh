#!/bin/bash
# test_install.sh: `cmake --install` lays out what a user of the C library
# needs, and a program outside the tree builds against it with pkg-config:
# the library with its soname, the header, basel.pc, the command line, the
# manual page and the bash completion.
source tests/cli/lib.sh "$1"
B=$(cd "$(dirname "$BASEL")" && pwd)
P=$T/prefix

expect 0 "" -- cmake --install "$B" --prefix "$P"
for f in include/basel.h lib/libbasel.so lib/pkgconfig/basel.pc bin/basel share/man/man1/basel.1 \
         share/bash-completion/completions/basel; do
    [ -e "$P/$f" ] && ok || bad "cmake --install did not install $f"
done
# the soname, and the link to it
expect 0 "SONAME.*libbasel\.so\.0" -- readelf -d "$P/lib/libbasel.so"
[ -e "$P/lib/libbasel.so.0" ] && ok || bad "libbasel.so.0 is not installed"

# a program outside the tree: pkg-config's flags only (--define-prefix: the
# .pc file names the prefix it was configured for; this one was moved)
mkdir "$T/user"
cat > "$T/user/main.c" <<'C'
#include <basel.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
    const char *name = NULL, *what = NULL;
    if (basel_method_count() == 0 || basel_method_describe(0, &name, &what) != BASEL_OK) return 1;
    printf("basel %s; %zu methods, the first %s; %s\n", basel_version(), basel_method_count(), name,
           basel_status_str(BASEL_EPARSE));
    return strcmp(basel_version(), BASEL_VERSION_STRING) != 0;
}
C
flags=$(PKG_CONFIG_PATH="$P/lib/pkgconfig" pkg-config --define-prefix --cflags --libs basel)
# an AddressSanitizer build's library runs only in a program built with it
if ldd "$BASEL" | grep -q libasan; then flags="$flags -fsanitize=address,undefined"; fi
expect 0 "" -- cc -std=c11 -Wall -Werror -o "$T/user/main" "$T/user/main.c" $flags
expect 0 "^basel [0-9.]+; [0-9]+ methods, the first [a-z]+; BASEL_EPARSE$" -- \
    env LD_LIBRARY_PATH="$P/lib" "$T/user/main"
# the installed command runs, and its manual page is a manual page
expect 0 "^basel [0-9]" -- env LD_LIBRARY_PATH="$P/lib" "$P/bin/basel" --version
expect 0 "^\.TH BASEL 1" -- head -1 "$P/share/man/man1/basel.1"
finish
