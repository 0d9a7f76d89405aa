#!/usr/bin/python3
"""deps_check.py: fail when a test uses something tools/deps/packages.txt does not install.

Scans the tests (tests/, python/tests/, r/tests/) and the scripts that run
them (tools/test*.sh, .ci/run) for
  - Python imports (import X / from X import ...),
  - R packages (library(X), require(X), requireNamespace("X") that is not a skip),
  - programs run from the shell scripts (the first word of a command),
resolves each to the Debian package that provides it on this machine
(importlib + dpkg -S, command -v + dpkg -S) and checks that the package is
in the list's purposes that the tests install (build, test, python, r, mpi),
or is a dependency of one of them, or is part of Debian's base system
(Priority: required or important). A module or program that is not installed
here at all is reported too: a test that needs it would fail on a fresh machine.

Run by tools/test.sh before the first test, and as a test of its own
(ctest -R deps). Exit 0 when every use is covered, 1 otherwise, listing
each uncovered use with its file and line.
"""
import ast
import importlib.util
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEST_PURPOSES = ("build", "test", "python", "r", "mpi")
# R packages a test may use only behind a skip (requireNamespace(...) guards):
# the peers of bench/, not needed for the suite to pass
R_OPTIONAL_OK = re.compile(r"requireNamespace\(")
# words that are shell syntax, builtins or the suite's own functions, not programs
SHELL_WORDS = set("""if then else elif fi for while until do done case esac in function return local export
set shift source . exit echo printf read cd pwd test [ [[ true false wait kill trap eval exec unset declare
readonly let break continue command type builtin mapfile getopts umask ulimit""".split())


def listed_packages():
    pkgs = set()
    with open(os.path.join(ROOT, "tools", "deps", "packages.txt")) as f:
        for line in f:
            m = re.match(r"^([a-z]+):(.*)$", line)
            if m and m.group(1) in TEST_PURPOSES:
                pkgs.update(m.group(2).split())
    return pkgs


def dependency_closure(pkgs):
    """The listed packages and everything they depend on (as installed here)."""
    out = subprocess.run(["apt-cache", "depends", "--recurse", "--no-recommends", "--no-suggests",
                          "--no-conflicts", "--no-breaks", "--no-replaces", "--no-enhances"] + sorted(pkgs),
                         capture_output=True, text=True).stdout
    closure = set(pkgs)
    for line in out.splitlines():
        line = line.strip()
        m = re.match(r"^(?:\|?(?:Pre)?Depends: )?<?([a-z0-9][a-z0-9.+-]*)(?::[a-z0-9]+)?>?$", line)
        if m:
            closure.add(m.group(1))
    return closure


def base_system(pkg):
    out = subprocess.run(["dpkg-query", "-W", "-f=${Priority} ${Essential}", pkg], capture_output=True, text=True)
    return out.returncode == 0 and (out.stdout.startswith(("required", "important")) or "yes" in out.stdout)


_OWNERS = {}


def owner(path):
    """The Debian package that installed a file, or None. Debian 12 has merged
    /usr: dpkg may know /usr/bin/cat as /bin/cat, so both spellings are asked."""
    cands = []
    for p in (path, os.path.realpath(path)):
        cands.append(p)
        for a, b in (("/usr/bin/", "/bin/"), ("/usr/sbin/", "/sbin/"), ("/usr/lib/", "/lib/")):
            if p.startswith(a):
                cands.append(b + p[len(a):])
    for p in cands:
        if p not in _OWNERS:
            out = subprocess.run(["dpkg", "-S", p], capture_output=True, text=True)
            _OWNERS[p] = out.stdout.split(":")[0].split(",")[0].strip() if out.returncode == 0 else None
        if _OWNERS[p]:
            return _OWNERS[p]
    return None


def files(*globs_under):
    for sub, exts in globs_under:
        base = os.path.join(ROOT, sub)
        if os.path.isfile(base):
            yield base
            continue
        for d, _, names in os.walk(base):
            if "__pycache__" in d or "/corpus" in d:
                continue
            for n in sorted(names):
                if n.endswith(exts):
                    yield os.path.join(d, n)


def python_imports(path):
    """(module, line) of every absolute import in a Python file."""
    try:
        tree = ast.parse(open(path).read(), path)
    except SyntaxError:
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name.split(".")[0], node.lineno
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0], node.lineno


def shell_python_imports(path):
    """Imports inside python3 -c "..." and heredocs of a shell script: line by line."""
    for i, line in enumerate(open(path), 1):
        # "import a, b" or "from a import b", at a line's start, after -c " or after ;
        pat = (r"(?:^\s*|-c\s+[\"']\s*|;\s*)(?:import\s+([a-zA-Z_]\w*(?:\s*,\s*[a-zA-Z_]\w*)*)"
               r"|from\s+([a-zA-Z_]\w*)(?:\.\w+)*\s+import\b)")
        for m in re.finditer(pat, line):
            for mod in re.split(r"\s*,\s*", m.group(1) or m.group(2)):
                yield mod, i


def shell_programs(path):
    """(program, line) of the first word of each command in a shell script,
    skipping heredoc bodies and multi-line quoted strings."""
    heredoc = None
    in_quote = False
    for i, line in enumerate(open(path), 1):
        s = line.rstrip("\n")
        if heredoc:
            if s.strip() == heredoc:
                heredoc = None
            continue
        if in_quote:
            if s.count('"') % 2 == 1:
                in_quote = False
            continue
        m = re.search(r"<<-?\s*['\"]?([A-Za-z_]+)['\"]?", s)
        code = re.sub(r"#.*$", "", s) if not s.lstrip().startswith("#!") else ""
        if m:
            heredoc = m.group(1)
        if code.count('"') % 2 == 1:
            in_quote = True
        for seg in re.split(r"\|\||&&|[|;(]|\$\(|`|\bthen\b|\bdo\b|\belse\b", code):
            words = seg.strip().split()
            while words and (re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]) or words[0] in ("!", "{", "}", "time",
                                                                                             "nice", "env", "exec")):
                words = words[1:]
            if words and re.match(r"^/?[a-zA-Z][a-zA-Z0-9_./+-]*$", words[0]):
                yield words[0], i


def main():
    listed = listed_packages()
    closure = dependency_closure(listed)
    problems = []
    stdlib = set(sys.stdlib_module_names)
    local_mods = {"basel", "conftest", "peers", "subset", "mcse", "designs"}
    for d, _, names in os.walk(ROOT):
        if "/." in d or "/build" in d:
            continue
        local_mods.update(n[:-3] for n in names if n.endswith(".py"))

    def check_pkg(pkg, what, where):
        if pkg is None:
            problems.append("%s: %s is installed by no Debian package here (add its package to "
                            "tools/deps/packages.txt)" % (where, what))
        elif pkg not in closure and not base_system(pkg):
            problems.append("%s: %s comes from Debian's %s, which tools/deps/packages.txt does not list"
                            % (where, what, pkg))

    py_sources = list(files(("tests", (".py",)), ("python/tests", (".py",))))
    sh_sources = list(files(("tests", (".sh",)), ("tools/test.sh", ()), ("tools/test_r.sh", ()),
                            ("tools/python.sh", ()), ("tools/build.sh", ()), ("tools/deps.sh", ()),
                            ("tools/mpi.sh", ()), (".ci/run", ())))
    seen = set()
    uses = [(m, p, ln) for p in py_sources for m, ln in python_imports(p)]
    uses += [(m, p, ln) for p in sh_sources for m, ln in shell_python_imports(p)]
    for mod, path, ln in uses:
        if mod in stdlib or mod in local_mods or mod in seen:
            continue
        seen.add(mod)
        where = "%s:%d" % (os.path.relpath(path, ROOT), ln)
        spec = importlib.util.find_spec(mod)
        if spec is None or not spec.origin:
            problems.append("%s: Python module %s is not installed for /usr/bin/python3" % (where, mod))
            continue
        check_pkg(owner(spec.origin), "Python module %s" % mod, where)

    for path in files(("r/tests", (".R",))):
        for i, line in enumerate(open(path), 1):
            for m in re.finditer(r"\b(library|require|requireNamespace)\(\s*[\"']?([A-Za-z][A-Za-z0-9.]*)", line):
                name = m.group(2)
                if name == "basel" or (m.group(1) == "requireNamespace" and R_OPTIONAL_OK.search(line)
                                       and "skip" in "".join(open(path).readlines()[i - 1:i + 2])):
                    continue
                pkg = "r-cran-" + name.lower()
                where = "%s:%d" % (os.path.relpath(path, ROOT), i)
                if pkg not in closure and not base_system(pkg) and name not in ("stats", "utils", "methods",
                                                                               "graphics", "grDevices", "tools"):
                    problems.append("%s: R package %s (Debian %s) is not in tools/deps/packages.txt"
                                    % (where, name, pkg))

    seen = set()
    for path in sh_sources:
        for prog, ln in shell_programs(path):
            if prog in SHELL_WORDS or prog in seen or prog.startswith(("./", "build", "tools/", "tests/", "bench/")):
                continue
            where = "%s:%d" % (os.path.relpath(path, ROOT), ln)
            # Debian's programs, not a pyenv or /usr/local one first on PATH
            exe = prog if prog.startswith("/") else shutil.which(prog, path="/usr/sbin:/usr/bin:/sbin:/bin")
            if exe is None:
                continue  # a shell function, a variable's program ($BASEL) or a word the split mistook
            if not os.path.exists(exe):
                problems.append("%s: program %s is not installed" % (where, prog))
                continue
            seen.add(prog)
            check_pkg(owner(exe), "program %s" % prog, where)

    if problems:
        print("deps_check: %d use(s) not covered by tools/deps/packages.txt:" % len(problems))
        for p in problems:
            print("  " + p)
        return 1
    print("deps_check: every module, R package and program the tests use is in tools/deps/packages.txt "
          "(%d Python files, %d shell scripts)" % (len(py_sources), len(sh_sources)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
