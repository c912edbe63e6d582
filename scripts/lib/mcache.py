#!/usr/bin/python3 -IS
# SPDX-License-Identifier: GPL-2.0
"""mcache: a compile cache that survives moved headers.

Used as the compiler launcher of every kernel build:

    mcache.py [ccache] GCC ARGS...

ccache keys a compile on its preprocessed text, line markers included, so
every object that includes a header the series moves misses although the
compiler sees the same tokens.  mcache keys a compile on

  - the compiler (its resolved path, size, modification time and version),
  - its options, less those that act only on the preprocessor (include
    paths, macro definitions, dependency-file options), whose whole effect
    is in the preprocessed text,
  - the base name of the source (gcc's .file directive names it),
  - the preprocessed text without line markers and blank lines; where the
    system-header state changes (it silences warnings), a marker of the
    state stays.  __FILE__ and __LINE__ expand in the text, so a moved
    header that uses them still misses.

A compile is cached only when nothing can name a path or a line in its
output and the text is all it reads: no debug information (-g, -Wa,-g,
-Wa,--gdwarf), no __builtin_FILE or __builtin_LINE in the text, no
assembler .incbin or .include (ccache refuses .incbin too), nothing on
standard error
(a diagnostic names a path and a line: a compile with one runs every
time).  Every other command (linking, -E, -S, cc-option probes with -x,
options that write further files) runs unchanged.

The dependency file comes from this step's own preprocessing, which runs
on every compile with the compiler's -Wp,-MMD option: after a hit it
names this step's paths, never those of the compile that made the entry.
On a miss the compiler runs without the launcher (ccache would only
preprocess the source a second time to look for what it cannot have);
a command that is not cached runs as given, through ccache.

It runs for every compile, so it starts lean: Debian's python3 with -S (no
site packages: 30 ms a start, not the 230 ms of a pyenv shim) and -I (the
directory of this script, whose warnings.py would shadow the standard
module, is not on the path).

MCACHE_DIR is the cache (unset: every command runs unchanged).
MCACHE_LOG, if set, gets one line per compile of a .c or .S file to an
object: "hit KEY OBJ", "miss KEY OBJ", "nostore KEY OBJ" (compiled, not
kept: a diagnostic), "uncached KEY OBJ" (a text that may depend on paths,
lines or other files: compiled every time; its KEY names the text all the
same), or "nokey - OBJ" (the preprocessor failed or spoke).  The step
builds keep these keys per object (keymap.py), which is how the
pure-move check sees that a move kept every object's text.

Beside each key, the cache keeps its normalised text, compressed
(KEY.i.z), once: the pure-move check shows the first line where two
keys' texts differ.
"""

import hashlib
import os
import subprocess
import sys
import tempfile
import zlib

VERSION = b'mcache-v1\n'

# Options that only the preprocessor reads, taking their value in the next
# argument or joined.  Their effect is all in the preprocessed text.
PP_ARG = ('-I', '-D', '-U', '-isystem', '-iquote', '-idirafter', '-include',
          '-imacros')
PP_FLAG = ('-nostdinc', '-P')

# Options after which a command is not cached: it writes further files,
# reads its input from elsewhere, or emits paths and lines into the object.
NO_CACHE_PREFIX = ('-save-temps', '-fdump-', '-fstack-usage', '-fcallgraph-info',
                   '--coverage', '-fprofile', '-ftest-coverage', '-fplugin',
                   '-flto', '-specs', '-fsyntax-only', '-wrapper', '-Xassembler',
                   '-Xpreprocessor', '-Xlinker', '-aux-info', '-M', '-x')
# Exact options that do the same (mips has -EB and -EL, which stay cached).
NO_CACHE = ('-E', '-S', '-v', '-###')
SOURCE_SUFFIX = ('.c', '.S')


def is_debug(arg):
    if arg.startswith('-g'):
        return arg != '-g0'
    if arg.startswith('-Wa,'):
        return any(a.startswith(('-g', '--g', '-a')) for a in arg[4:].split(','))
    return False


def parse(args):
    """Return (source, output, key_args, cacheable) for a compile of a .c or
    .S file to an object that can have a key, else None.  A debug compile
    has one (its text), but is never cached: its object names paths and
    lines."""
    source = output = None
    compile_only = False
    cacheable = True
    key = []
    i = 0
    while i < len(args):
        a = args[i]
        if a == '-c':
            compile_only = True
        elif a == '-o':
            if i + 1 >= len(args) or output is not None:
                return None
            output = args[i + 1]
            i += 1
        elif a.startswith('-o'):
            if output is not None:
                return None
            output = a[2:]
        elif a.startswith('@'):
            return None
        elif is_debug(a):
            cacheable = False
            key.append(a)
        elif a.startswith('-Wp,'):
            parts = a[4:].split(',')
            # Only the dependency-file form: the file is written again by
            # every run, hit or miss.
            if len(parts) != 2 or parts[0] not in ('-MD', '-MMD'):
                return None
        elif a in PP_ARG:
            if i + 1 >= len(args):
                return None
            i += 1
        elif a.startswith(PP_ARG) or a in PP_FLAG or a.startswith('-fmacro-prefix-map='):
            pass
        elif a in NO_CACHE or a.startswith(NO_CACHE_PREFIX):
            return None
        elif a.startswith('-') and a != '-':
            key.append(a)
        else:
            if source is not None or not a.endswith(SOURCE_SUFFIX):
                return None
            source = a
        i += 1
    if not compile_only or source is None or output is None or output == '-':
        return None
    return source, output, key, cacheable


def compiler_identity(compiler):
    path = compiler
    if os.sep not in path:
        for d in os.environ.get('PATH', '').split(os.pathsep):
            p = os.path.join(d or '.', compiler)
            if os.access(p, os.X_OK) and os.path.isfile(p):
                path = p
                break
        else:
            return None
    path = os.path.realpath(path)
    st = os.stat(path)
    ident = '%s %d %d' % (path, st.st_size, st.st_mtime_ns)
    # The version is asked once per compiler binary, not once per compile.
    memo = os.path.join(os.environ['MCACHE_DIR'], 'compilers',
                        hashlib.sha256(ident.encode()).hexdigest())
    try:
        with open(memo, 'rb') as f:
            return f.read()
    except FileNotFoundError:
        pass
    version = subprocess.run([path, '--version'], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, check=True).stdout
    data = ident.encode() + b'\n' + version
    store_atomic(memo, data)
    return data


# Text that makes the object depend on more than the text: gcc's builtins
# for the file and line, and assembler directives that read a file when
# the object is assembled (.incbin: the vDSO image, the initramfs, the
# kernel configuration; .include), whose content the text does not show.
UNCACHEABLE = (b'__builtin_FILE', b'__builtin_LINE', b'.incbin', b'.include')


def normalize(text):
    """(the preprocessed text without what a move changes, whether it may
    be cached): not where the text itself may make the object depend on
    paths, lines or other files."""
    cacheable = not any(u in text for u in UNCACHEABLE)
    out = []
    system = False
    for line in text.split(b'\n'):
        s = line.strip()
        if not s:
            continue
        if s.startswith(b'# ') and len(s) > 2 and s[2:3].isdigit():
            # "# LINE "FILE" FLAGS": flag 3 = a system header follows.
            rest = s.rsplit(b'"', 1)
            flags = rest[1].split() if len(rest) == 2 else []
            now = b'3' in flags
            if now != system:
                system = now
                out.append(b'#system' if now else b'#user')
            continue
        out.append(line)
    return b'\n'.join(out), cacheable


def store_atomic(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix='.tmp.')
    try:
        with os.fdopen(fd, 'wb') as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def keep_text(path, text):
    """The normalised text of a key, kept once (a few ms at level 1)."""
    if not os.path.exists(path):
        store_atomic(path, zlib.compress(text, 1))


def log(event, key, output):
    path = os.environ.get('MCACHE_LOG')
    if path:
        with open(path, 'a') as f:
            f.write('%s %s %s\n' % (event, key, output))


def passthrough(cmd):
    os.execvp(cmd[0], cmd)


def main(argv):
    if not argv:
        sys.stderr.write('usage: mcache.py [ccache] COMPILER ARGS...\n')
        return 2
    launcher = []
    while len(argv) > 1 and os.path.basename(argv[0]) == 'ccache':
        launcher.append(argv.pop(0))
    cmd = launcher + argv
    compiler, args = argv[0], argv[1:]
    plan = parse(args) if os.environ.get('MCACHE_DIR') else None
    if plan is None:
        passthrough(cmd)
    source, output, key_args, cacheable_args = plan
    ident = compiler_identity(compiler)
    if ident is None:
        passthrough(cmd)

    # The preprocessor, with every option but -c and -o: the dependency
    # file (-Wp,-MMD) is this step's whether the compile hits or not.
    pp = [compiler, '-E']
    skip = False
    for a in args:
        if skip:
            skip = False
        elif a == '-o':
            skip = True
        elif a != '-c' and not a.startswith('-o'):
            pp.append(a)
    r = subprocess.run(pp, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0 or r.stderr:
        log('nokey', '-', output)
        passthrough(cmd)
    text, cacheable = normalize(r.stdout)
    cacheable = cacheable and cacheable_args

    h = hashlib.sha256(VERSION)
    h.update(ident + b'\0')
    for a in key_args:
        h.update(a.encode() + b'\0')
    h.update(os.path.basename(source).encode() + b'\0')
    for var in ('SOURCE_DATE_EPOCH', 'GCC_EXEC_PREFIX', 'COMPILER_PATH'):
        h.update(('%s=%s\0' % (var, os.environ.get(var, ''))).encode())
    h.update(text)
    key = h.hexdigest()
    entry = os.path.join(os.environ['MCACHE_DIR'], key[:2], key[2:] + '.o')
    keep_text(entry[:-2] + '.i.z', text)
    if not cacheable:
        log('uncached', key, output)
        passthrough(cmd)

    try:
        with open(entry, 'rb') as f:
            obj = f.read()
    except FileNotFoundError:
        obj = None
    if obj is not None:
        store_atomic_out(output, obj)
        log('hit', key, output)
        return 0

    r = subprocess.run(argv, stderr=subprocess.PIPE)
    sys.stderr.buffer.write(r.stderr)
    sys.stderr.flush()
    if r.returncode == 0 and not r.stderr:
        with open(output, 'rb') as f:
            store_atomic(entry, f.read())
        log('miss', key, output)
    else:
        log('nostore', key, output)
    return r.returncode


def store_atomic_out(path, data):
    d = os.path.dirname(path) or '.'
    fd, tmp = tempfile.mkstemp(dir=d, prefix='.mcache.')
    try:
        with os.fdopen(fd, 'wb') as f:
            f.write(data)
        os.chmod(tmp, 0o644 & ~current_umask())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def current_umask():
    m = os.umask(0)
    os.umask(m)
    return m


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
