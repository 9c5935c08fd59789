#!/usr/bin/env python3
"""Spec fuzzer for the code generator: mutated spec/*.yaml must give valid output or
`spec/FILE.yaml:LINE:COL: error: MESSAGE` lines, never a traceback.

    python3 tests/fuzz/fuzz_spec.py [--seconds N | --iterations N] [--seed S] [--compile]
                                    [--keep-going] [--replay FILE ...]

Each iteration takes one real spec (or a corpus file), applies one to four random mutations
(byte, line and token edits, bad and odd Unicode, YAML anchors, aliases, tags and merge keys,
duplicate and deleted keys, type swaps, deep nesting, huge numbers, long strings, subtrees
spliced from other specs, ...) and runs the generator's load -> validate -> emit in-process
(cgn_codegen.cli.main) on a spec dir holding the mutant in place of the original plus the
other real specs. Acceptable outcomes:
  - exit 0, nothing on stderr (with --compile: and the generated C that differs from the
    committed generated/ compiles with the project's warning flags);
  - exit 1, stdout empty, stderr only `spec/F.yaml:LINE:COL: error: MESSAGE` lines, LINE and
    COL inside file F, and the closing `codegen: N error(s); nothing written`.
Anything else (an exception, another exit code, a stray or malformed line, an iteration over
--timeout seconds) is a finding: the mutant is saved to tests/fuzz/findings/ as
HASH--SPEC.yaml (SPEC: the file it replaces) with a .txt of what happened, and the run fails.
Every tests/fuzz/corpus/*--SPEC.yaml is replayed first (past findings, kept as regressions)
and mutated like the real specs. --replay runs only the given files. Fixed seed by default.
"""
from __future__ import annotations

import argparse
import contextlib
import glob
import hashlib
import io
import itertools
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "codegen"))
sys.dont_write_bytecode = True

import yaml  # noqa: E402

from cgn_codegen import cli  # noqa: E402

SPEC_DIR = os.path.join(ROOT, "spec")
FINDINGS = os.path.join(HERE, "findings")
CORPUS = os.path.join(HERE, "corpus")
ERROR_LINE = re.compile(r"^spec/(?P<file>[^/:]+\.yaml):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>\S.*)$")
SUMMARY_LINE = re.compile(r"^codegen: (\d+) error\(s\); nothing written$")

# ---- interesting values ---------------------------------------------------------------------

HUGE = ["18446744073709551616", "-1", "-0", "0x", "0xFFFFFFFFFFFFFFFF", "99999999999999999999",
        "9" * 5000, "1e309", "-1e309", ".inf", "-.inf", ".nan", "0b101", "0o17", "017", "1_000",
        "1:30", "+12", "4294967296", "2147483648", "12020.5", "1e5", "0x1p3"]
STRINGS = ["", " ", "~", "null", "Null", "NULL", "true", "false", "yes", "no", "on", "off",
           "'", '"', "''", '""', "*/", "/*", "\\", "%", "%n", "%s%s%s%s", "%*d", "%.*s", "%zu%",
           "%lld", "a\\nb", "??/", "\t", "#", "# x", "- x", ": x", "? x", "|", ">", "|-", ">+",
           "[]", "{}", "[", "]", "{", "}", "[[[]]]", "{a: 1}", "&a", "*a", "&a x", "*nope",
           "!!str", "!!int", "!!float x", "!!binary aGk=", "!!timestamp 2001-12-14",
           "!!set {a}", "!!omap [a: 1]", "!!python/object:os.system", "!custom x", "<<",
           "<<: *a", "---", "...", "%YAML 1.1", "@", "`", "int", "void", "struct", "set",
           "update", "sizeof", "NULL", "d", "p", "txn", "changed", "where", "_x", "X",
           "a" * 300, "x" * 100000, "CGN_OK", "CGN_ERROR_INVALID_VALUE", "CGN_NODE_KERNEL",
           "CU_GRAPH_NODE_TYPE_KERNEL", "kernel", "memset", "uint32_t", "size_t", "owner",
           "args", "bytes", "CUdeviceptr", "buf:0", "buf:99999999999", "owner:-1", "host:0",
           "kernel:0", "event:0", "callback:x", "bytes:", "a == b", "(", ")", "1 +", "x->y",
           "a = 1", "a++", "1 ? 2 : 3", "sizeof(int)", "UINT64_C(1)", "0 || 1", "!dst",
           "dst == 0 && dst == 1", "é", "\u202e", "\ufeff", "\u2028", "\u0085", "\x00",
           "\x1b[31m", "\U0001F600", "a\u0301", "\ufffd", "\ud7ff"]
UNICODE = ["\ufeff", "\u2028", "\u2029", "\u0085", "\u202e", "\u200b", "\x00", "\x07", "\x1b",
           "\x7f", "\U0001F600", "é", "\u0301", "\ufffe", "\uffff", "\r", "\r\n", "\t", "\x0b",
           "\x0c"]
BAD_UTF8 = [b"\xff", b"\xfe", b"\xc3\x28", b"\xa0\xa1", b"\xe2\x28\xa1", b"\xed\xa0\x80",
            b"\xf4\x90\x80\x80", b"\xc0\xaf", b"\xf0\x28\x8c\x28", b"\x80"]
YAML_PUNCT = list(":-[]{},&*!|>'\"%@`#?\t\n ")


def _spec_texts() -> dict:
    out = {}
    for path in sorted(glob.glob(os.path.join(SPEC_DIR, "*.yaml"))):
        with open(path, encoding="utf-8") as f:
            out[os.path.basename(path)] = f.read()
    return out


SPECS = _spec_texts()
TOKENS = sorted({t for text in SPECS.values()
                 for t in re.findall(r"[A-Za-z_][A-Za-z0-9_]*|0x[0-9a-fA-F]+|[0-9]+|\"[^\"\n]*\"",
                                     text)})
TREES = [yaml.safe_load(t) for t in SPECS.values()]


# ---- mutations ------------------------------------------------------------------------------

def _lines(text):
    return text.split("\n")


def m_byte(rng, data: bytes) -> bytes:
    if not data:
        return bytes([rng.randrange(256)])
    i = rng.randrange(len(data))
    op = rng.randrange(3)
    if op == 0:
        return data[:i] + bytes([rng.randrange(256)]) + data[i + 1:]
    if op == 1:
        return data[:i] + bytes([rng.randrange(256)]) + data[i:]
    return data[:i] + data[i + 1 + rng.randrange(8):]


def m_bad_utf8(rng, data: bytes) -> bytes:
    i = rng.randrange(len(data) + 1)
    return data[:i] + rng.choice(BAD_UTF8) + data[i:]


def m_unicode(rng, text: str) -> str:
    i = rng.randrange(len(text) + 1)
    return text[:i] + rng.choice(UNICODE) * rng.choice((1, 1, 2, 50)) + text[i:]


def m_line(rng, text: str) -> str:
    lines = _lines(text)
    i = rng.randrange(len(lines))
    op = rng.randrange(7)
    if op == 0:
        del lines[i]
    elif op == 1:  # duplicate: duplicate keys, duplicate list items
        lines.insert(i, lines[i])
    elif op == 2:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif op == 3:
        lines.insert(rng.randrange(len(lines) + 1), lines.pop(i))
    elif op == 4:
        lines[i] = rng.choice((" ", "  ", "   ", "\t", "- ", "    ")) + lines[i]
    elif op == 5:
        lines[i] = lines[i][rng.randrange(1, 5):]
    else:
        src = _lines(rng.choice(list(SPECS.values())))
        j = rng.randrange(len(src))
        lines[i:i] = src[j:j + rng.randrange(1, 8)]
    return "\n".join(lines)


_TOKEN_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|0[xX][0-9a-fA-F]+|[0-9]+|\"[^\"\n]*\"|'[^'\n]*'|"
                       r"[^\sA-Za-z0-9_]")


def m_token(rng, text: str) -> str:
    toks = list(_TOKEN_RE.finditer(text))
    if not toks:
        return text
    t = rng.choice(toks)
    pick = rng.randrange(4)
    if pick == 0:
        new = rng.choice(HUGE)
    elif pick == 1:
        new = rng.choice(STRINGS)
    elif pick == 2:
        new = rng.choice(TOKENS)
    else:
        new = rng.choice(YAML_PUNCT) if rng.random() < 0.5 else ""
    return text[:t.start()] + new + text[t.end():]


def m_chars(rng, text: str) -> str:
    i = rng.randrange(len(text) + 1)
    if rng.random() < 0.5:
        return text[:i] + "".join(rng.choice(YAML_PUNCT) for _ in range(rng.randrange(1, 4))) \
            + text[i:]
    return text[:i] + text[i + rng.randrange(1, 40):]


def m_nesting(rng, text: str) -> str:
    """A value replaced by deeply nested flow or block collections."""
    lines = _lines(text)
    cand = [i for i, ln in enumerate(lines) if re.match(r"^\s*[-\w]+:\s*\S", ln)]
    if not cand:
        return text
    i = rng.choice(cand)
    depth = rng.choice((10, 100, 400, 1000, 5000, 20000))
    kind = rng.randrange(3)
    key = lines[i].split(":", 1)[0]
    if kind == 0:
        val = "[" * depth + "]" * depth
    elif kind == 1:
        val = "{a: " * depth + "1" + "}" * depth
    else:
        block = []
        ind = len(key) - len(key.lstrip()) + 2
        for d in range(min(depth, 2000)):
            block.append(" " * (ind + 2 * d) + "- ")
        lines[i] = key + ":"
        lines[i + 1:i + 1] = [b.rstrip() + ("x" if j == len(block) - 1 else "")
                              for j, b in enumerate(block)]
        return "\n".join(lines)
    lines[i] = key + ": " + val
    return "\n".join(lines)


def m_anchor(rng, text: str) -> str:
    """Anchors, aliases and merge keys, including an alias bomb."""
    lines = _lines(text)
    op = rng.randrange(4)
    if op == 0:  # billion laughs
        bomb = ["x0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
        for k in range(1, rng.choice((3, 6, 9))):
            bomb.append(f"x{k}: &a{k} [" + ", ".join([f"*a{k - 1}"] * 9) + "]")
        return "\n".join(bomb) + "\n" + text
    cand = [i for i, ln in enumerate(lines) if re.match(r"^\s*[-\w]+:\s*\S", ln)]
    if not cand:
        return text
    i, j = rng.choice(cand), rng.choice(cand)
    ki, vi = lines[i].split(":", 1)
    kj = lines[j].split(":", 1)[0]
    if op == 1:
        lines[i] = f"{ki}: &anc{vi}"
        lines[j] = f"{kj}: *anc"
    elif op == 2:
        lines[i] = f"{ki}: &anc{vi}"
        ind = kj[:len(kj) - len(kj.lstrip())]
        lines.insert(j + 1, ind + "<<: *anc")
    else:
        lines[j] = f"{kj}: *{rng.choice(('anc', 'x', ''))}"
    return "\n".join(lines)


def _paths(obj, path=()):
    yield path
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, path + (i,))


def _get(obj, path):
    for p in path:
        obj = obj[p]
    return obj


def _random_value(rng, depth=0):
    r = rng.randrange(12)
    if r == 0:
        return None
    if r == 1:
        return rng.choice((True, False))
    if r == 2:
        return rng.choice((0, 1, -1, 2 ** 31, 2 ** 32, 2 ** 63, 2 ** 64, 10 ** 30, -(2 ** 70)))
    if r == 3:
        return rng.choice((0.5, float("inf"), float("-inf"), float("nan"), 1e300))
    if r == 4 and depth < 3:
        return [_random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if r == 5 and depth < 3:
        return {rng.choice(TOKENS): _random_value(rng, depth + 1) for _ in range(rng.randrange(4))}
    if r == 6:  # a subtree of a real spec
        tree = rng.choice(TREES)
        return _get(tree, rng.choice(list(_paths(tree))))
    if r == 7:
        return rng.choice(TOKENS)
    return rng.choice(STRINGS)


def m_tree(rng, text: str) -> str:
    """Structural edits on the parsed spec, dumped back as YAML."""
    try:
        tree = yaml.safe_load(text)
    except Exception:  # noqa: BLE001 - PyYAML raises more than YAMLError on odd input
        return text
    if not isinstance(tree, (dict, list)):
        return text
    for _ in range(rng.randrange(1, 4)):
        paths = [p for p in itertools.islice(_paths(tree), 5000) if p]  # aliases: no bombs
        if not paths:
            break
        path = rng.choice(paths)
        parent = _get(tree, path[:-1])
        key = path[-1]
        op = rng.randrange(8)
        if op == 0:  # delete a key or item
            del parent[key]
        elif op == 1:  # swap the type of a value
            parent[key] = _random_value(rng)
        elif op == 2 and isinstance(parent, list):
            parent.insert(key, parent[key])
        elif op == 3 and isinstance(parent, dict):  # rename a key (maybe onto another)
            v = parent.pop(key)
            parent[rng.choice(TOKENS + list(parent.keys()) + [""])] = v
        elif op == 4:  # wrap in nesting
            v = parent[key]
            for _ in range(rng.choice((1, 2, 50))):
                v = [v] if rng.random() < 0.5 else {"k": v}
            parent[key] = v
        elif op == 5 and isinstance(parent, list) and parent:
            parent.reverse()
        elif op == 6:  # long list
            parent[key] = [parent[key]] * rng.choice((2, 65, 300))
        else:
            parent[key] = rng.choice(HUGE + STRINGS)
    try:
        return yaml.safe_dump(tree, sort_keys=False, allow_unicode=rng.random() < 0.5,
                              default_flow_style=rng.choice((None, False, True)), width=100)
    except Exception:  # noqa: BLE001
        return text


_PROSE = re.compile(r"^(\s*(?:- )?(?:doc|summary|message|reference):\s*)(.*)$")


def m_prose(rng, text: str) -> str:
    """A doc, summary, message or reference string with characters that C comments, C
    strings and Markdown treat specially: such mutants are mostly accepted, so they reach the
    emitter."""
    lines = _lines(text)
    cand = [i for i, ln in enumerate(lines) if _PROSE.match(ln)]
    if not cand:
        return text
    i = rng.choice(cand)
    m = _PROSE.match(lines[i])
    body = m.group(2).strip().strip('"')
    pieces = ["??/", "??=", "??'", "\\", "\\n", "%%", "*/", "/*", "//", "|", "`", "<", ">",
              "&", "<!--", "-->", "${x}", "{{ x }}", "{% x %}", "#", "é", "\u00e9", "\t",
              "\x01", "\u2028", "\\\"", "'", "\\0", "a" * 200]
    piece = rng.choice(pieces)
    k = rng.randrange(len(body) + 1)
    new = body[:k] + piece + body[k:]
    lines[i] = m.group(1) + '"' + new.replace('"', '\\"') + '"' if rng.random() < 0.7 else \
        m.group(1) + "'" + new.replace("'", "''") + "'"
    return "\n".join(lines)


TEXT_OPS = [m_prose, m_prose, m_prose, m_unicode, m_line, m_line, m_token, m_token, m_token, m_chars, m_nesting,
            m_anchor, m_tree, m_tree]
BYTE_OPS = [m_byte, m_bad_utf8]


def mutate(rng, text: str) -> bytes:
    data = text.encode("utf-8")
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3, 4))):
        if rng.random() < 0.12:
            data = rng.choice(BYTE_OPS)(rng, data)
        else:
            try:
                s = data.decode("utf-8")
            except UnicodeDecodeError:
                data = rng.choice(BYTE_OPS)(rng, data)
                continue
            data = rng.choice(TEXT_OPS)(rng, s).encode("utf-8", "surrogatepass")
    return data


# ---- running the generator ------------------------------------------------------------------

class Hang(Exception):
    pass


def _on_alarm(signum, frame):
    raise Hang()


class Harness:
    def __init__(self, compile_c: bool, timeout: int) -> None:
        self.tmp = tempfile.mkdtemp(prefix="cgn-fuzz-")
        for d in ("codegen", "include", "runtime"):  # runtime/: driver_entries.h
            os.symlink(os.path.join(ROOT, d), os.path.join(self.tmp, d))
        self.spec = os.path.join(self.tmp, "spec")
        self.out = os.path.join(self.tmp, "out")
        os.mkdir(self.spec)
        self.compile_c = compile_c
        self.timeout = timeout
        self.committed = {}
        for dirpath, _, names in os.walk(os.path.join(ROOT, "generated")):
            for name in names:
                p = os.path.join(dirpath, name)
                with open(p, "rb") as f:
                    self.committed[os.path.relpath(p, os.path.join(ROOT, "generated"))] = f.read()
        self.compiled = set()
        self.last_rc = None
        self.cuda_inc = next((os.path.join(b, "include") for b in
                              (os.environ.get("CUDA_PATH"), os.environ.get("CUDA_HOME"),
                               "/usr/local/cuda")
                              if b and os.path.isfile(os.path.join(b, "include", "cuda.h"))), None)

    def close(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)

    def run(self, name: str, data: bytes, others: bool = True):
        """None when the outcome is acceptable, else a text describing the finding. others:
        the other real specs sit beside the mutant (cross-spec checks; parsing them costs)."""
        for f in os.listdir(self.spec):
            os.remove(os.path.join(self.spec, f))
        for other, text in SPECS.items():
            if others and other != name:
                with open(os.path.join(self.spec, other), "w", encoding="utf-8") as f:
                    f.write(text)
        with open(os.path.join(self.spec, name), "wb") as f:
            f.write(data)
        shutil.rmtree(self.out, ignore_errors=True)
        out, err = io.StringIO(), io.StringIO()
        old = signal.signal(signal.SIGALRM, _on_alarm)
        signal.alarm(self.timeout)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                rc = cli.main(["--spec-dir", self.spec, "--out", self.out], root=self.tmp)
        except Hang:
            return f"no result after {self.timeout} s"
        except KeyboardInterrupt:
            raise
        except BaseException as e:  # noqa: B036 - SystemExit, RecursionError, MemoryError too
            frames = traceback.extract_tb(e.__traceback__)
            ours = [f for f in frames if "cgn_codegen" in f.filename] or frames
            where = f"{os.path.basename(ours[-1].filename)}:{ours[-1].lineno}" if ours else "?"
            return (f"exception {type(e).__name__} at {where}\n"
                    + "".join(traceback.format_exception(e, limit=-12))[-5000:])
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)
        self.last_rc = rc
        return self.judge(rc, out.getvalue(), err.getvalue(), others)

    def judge(self, rc, out: str, err: str, others: bool = True):
        if rc == 0:
            if err:
                return f"exit 0 with stderr:\n{err}"
            return self.compile_outputs(whole=others) if self.compile_c else None
        if rc != 1:
            return f"exit {rc!r}\nstdout:\n{out}\nstderr:\n{err}"
        if out:
            return f"exit 1 with stdout:\n{out}"
        lines = err.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        if not lines or not SUMMARY_LINE.match(lines[-1]):
            return f"exit 1 without the closing summary line:\n{err}"
        errors = lines[:-1]
        if not errors or int(SUMMARY_LINE.match(lines[-1]).group(1)) != len(errors):
            return f"the summary does not count the error lines:\n{err}"
        for line in errors:
            m = ERROR_LINE.match(line)
            if not m:
                return f"not a `spec/FILE.yaml:LINE:COL: error: MESSAGE` line: {line!r}\n{err}"
            path = os.path.join(self.spec, m.group("file"))
            if not os.path.isfile(path):
                return f"error in a file that does not exist: {line!r}"
            with open(path, "rb") as f:
                data = f.read()
            file_lines = data.split(b"\n")
            ln, col = int(m.group("line")), int(m.group("col"))
            if not 1 <= ln <= len(file_lines):
                return f"line {ln} outside the file's {len(file_lines)} lines: {line!r}\n{err}"
            width = len(file_lines[ln - 1])  # bytes; a character count is never larger
            if not 1 <= col <= width + 1:
                return f"column {col} outside line {ln} ({width} bytes): {line!r}\n{err}"
            if "Traceback" in line:
                return f"a traceback in a message: {line!r}"
        return None

    def compile_outputs(self, whole: bool = True):
        """The generated C that differs from the committed files must compile. Without the
        other specs (not whole) the registry is left out: it compiles only for a spec per
        cgn_node_type enumerator (its static assertion), which a lone spec is not."""
        if not self.cuda_inc or not shutil.which("gcc"):
            return None
        todo = []
        for dirpath, _, names in os.walk(self.out):
            for name in names:
                p = os.path.join(dirpath, name)
                rel = os.path.relpath(p, self.out)
                if not rel.endswith(".c") or (not whole and rel == os.path.join("src",
                                                                                 "cgn_registry.c")):
                    continue
                with open(p, "rb") as f:
                    data = f.read()
                key = hashlib.sha256(data).digest()
                if self.committed.get(rel) == data or key in self.compiled:
                    continue
                todo.append((p, key))
        if not todo:
            return None
        inc = [os.path.join(self.out, "include"), os.path.join(ROOT, "include"),
               os.path.join(ROOT, "runtime"), os.path.join(ROOT, "tests", "support"),
               self.cuda_inc]
        r = subprocess.run(["gcc", "-std=c11", "-fsyntax-only", "-Wall", "-Wextra", "-Wpedantic",
                            "-Werror", "-Wshadow", "-Wstrict-prototypes",
                            "-D_POSIX_C_SOURCE=200809L", *("-I" + i for i in inc),
                            *(p for p, _ in todo)], capture_output=True, text=True)
        if r.returncode != 0:
            return "the generator accepted the spec but its C does not compile:\n" + r.stderr[:6000]
        self.compiled.update(k for _, k in todo)
        return None


def spec_name_of(path: str) -> str:
    """corpus/findings files are NAME--SPEC.yaml: the real spec they replace."""
    base = os.path.basename(path)
    spec = base.split("--")[-1]
    if spec not in SPECS:
        sys.exit(f"{path}: name must end in --SPEC.yaml with SPEC one of {', '.join(SPECS)}")
    return spec


def signature(problem: str) -> str:
    """Findings with the same cause share a signature: the first line of the problem (the
    exception and its innermost codegen frame) with numbers in quoted text dropped."""
    first = problem.split("\n")[0]
    if first.startswith("exception "):
        return first
    if first.startswith("the generator accepted"):  # by gcc's first error, names dropped
        err = next((ln for ln in problem.split("\n") if " error: " in ln), "")
        return "C: " + re.sub(r"‘[^’]*’|'[^']*'", "X", err.split(" error: ", 1)[-1])[:100]
    return re.sub(r"\d+", "N", first)[:100]


def save(data: bytes, spec: str, problem: str, seed_info: str) -> str:
    os.makedirs(FINDINGS, exist_ok=True)
    digest = hashlib.sha256(data).hexdigest()[:12]
    base = os.path.join(FINDINGS, f"{digest}--{spec}")
    with open(base, "wb") as f:
        f.write(data)
    with open(base[:-len(".yaml")] + ".txt", "w", encoding="utf-8") as f:
        f.write(f"{seed_info}\nreplaces spec/{spec}\n\n{problem}\n")
    return base


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=30.0, help="run time (default 30)")
    ap.add_argument("--iterations", type=int, default=0, help="stop after N mutants instead")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--compile", action="store_true",
                    help="compile the generated C of every accepted mutant that changes it")
    ap.add_argument("--keep-going", action="store_true",
                    help="collect distinct findings until time is up instead of stopping")
    ap.add_argument("--timeout", type=int, default=20, help="seconds per mutant (default 20)")
    ap.add_argument("--replay", nargs="+", metavar="FILE",
                    help="run these NAME--SPEC.yaml files only")
    args = ap.parse_args()

    # A runaway mutant (alias bomb) must fail as a finding, not take the machine down.
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = 4 << 30
    if hard == resource.RLIM_INFINITY or hard > limit:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))

    h = Harness(args.compile, args.timeout)
    findings = {}
    try:
        corpus = sorted(glob.glob(os.path.join(CORPUS, "*.yaml")))
        replay = args.replay if args.replay else corpus
        for path in replay:
            spec = spec_name_of(path)
            with open(path, "rb") as f:
                data = f.read()
            problem = h.run(spec, data)
            if problem:
                print(f"FINDING (replay {os.path.relpath(path)}): {problem}")
                findings[signature(problem)] = path
        if args.replay:
            print(f"fuzz_spec: replayed {len(replay)} file(s), {len(findings)} finding(s)")
            return 1 if findings else 0

        rng = random.Random(args.seed)
        seeds = [(name, text) for name, text in SPECS.items()]
        for path in corpus:
            with open(path, "rb") as f:
                try:
                    seeds.append((spec_name_of(path), f.read().decode("utf-8")))
                except UnicodeDecodeError:
                    pass
        start = time.monotonic()
        n = ok = accepted = 0
        while True:
            if args.iterations and n >= args.iterations:
                break
            if not args.iterations and time.monotonic() - start >= args.seconds:
                break
            if findings and not args.keep_going:
                break
            n += 1
            spec, text = rng.choice(seeds)
            data = mutate(rng, text)
            others = rng.random() < 0.25
            problem = h.run(spec, data, others)
            if problem is None:
                ok += 1
                accepted += h.last_rc == 0
                continue
            sig = signature(problem)
            if sig in findings:
                continue
            path = save(data, spec, problem, f"seed {args.seed}, iteration {n}, "
                        f"{'with' if others else 'without'} the other specs")
            findings[sig] = path
            print(f"FINDING {len(findings)} at iteration {n} ({sig}), saved to "
                  f"{os.path.relpath(path)}:\n{problem[-3000:]}", flush=True)
        print(f"fuzz_spec: {n} mutants in {time.monotonic() - start:.0f} s (seed {args.seed}), "
              f"{ok} clean ({accepted} generated, {ok - accepted} refused with positioned "
              f"errors), {len(findings)} distinct finding(s)")
    finally:
        h.close()
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
