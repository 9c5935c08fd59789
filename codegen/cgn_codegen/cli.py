"""The generator's command line (codegen/generate.py calls main)."""
from __future__ import annotations

import argparse
import glob
import os
import sys
import tempfile

from .diag import Diagnostics, Mark
from .emit import Emitter
from .fieldtypes import FIELD_TYPES, NODE_CHECKS
from .load import load_file
from .schema import driver_entry_names, enum_sets
from .specdoc import EXAMPLE_SPEC, SpecDoc, SpecDocError
from .validate import validate_all

# Files under --out the generator owns: anything matching these that it does not produce is
# reported stale by --check.
OWNED_PATTERNS = ("include/cgn/cgn_*.h", "src/cgn_*.c", "tests/cgn_cases_*.c", "tests/cgn_fake_*.h",
                  "docs/*.md")


class Paths:
    def __init__(self, root: str, spec_dir: str, out_dir: str) -> None:
        self.root = root
        self.codegen = os.path.join(root, "codegen")
        self.templates = os.path.join(self.codegen, "templates")
        self.header = os.path.join(root, "include", "cgn", "cgn.h")
        self.entries = os.path.join(root, "runtime", "driver_entries.h")
        self.spec_dir = os.path.abspath(spec_dir)
        self.out_dir = os.path.abspath(out_dir)

    def rel(self, path: str) -> str:
        """Relative to the repo root when inside it, absolute otherwise; '/' separators."""
        path = os.path.abspath(path)
        rel = os.path.relpath(path, self.root)
        if rel == os.pardir or rel.startswith(os.pardir + os.sep):
            return path.replace(os.sep, "/")
        return rel.replace(os.sep, "/")

    def specs(self) -> list:
        return sorted(glob.glob(os.path.join(glob.escape(self.spec_dir), "*.yaml")))

    def deps(self) -> list:
        files = self.specs()
        files += sorted(glob.glob(os.path.join(glob.escape(self.templates), "*.j2")))
        files.append(os.path.join(self.codegen, "generate.py"))
        files += sorted(glob.glob(os.path.join(glob.escape(self.codegen), "cgn_codegen", "*.py")))
        files.append(self.header)
        files.append(self.entries)
        return [self.rel(f) for f in files]


def _enums(paths: Paths, diags: Diagnostics):
    try:
        with open(paths.entries, encoding="utf-8") as f:
            entries = driver_entry_names(f.read())
    except OSError as e:
        diags.error(Mark(paths.rel(paths.entries), 1, 1), f"cannot read the driver entries: {e}")
        return None
    try:
        with open(paths.header, encoding="utf-8") as f:
            return enum_sets(f.read(), FIELD_TYPES, NODE_CHECKS, entries)
    except (OSError, RuntimeError) as e:
        diags.error(Mark(paths.rel(paths.header), 1, 1), f"cannot read the cgn enums: {e}")
        return None


def _generate(paths: Paths, diags: Diagnostics):
    """{output path relative to out dir: content}, or None after diagnostics."""
    enums = _enums(paths, diags)
    if enums is None:
        return None
    specs = []
    files = paths.specs()
    if not files:
        diags.error(Mark(paths.rel(paths.spec_dir), 1, 1), "no *.yaml spec files here")
        return None
    for path in files:
        root = load_file(path, paths.rel(path), diags)
        if root is not None:
            specs.append((os.path.basename(path), root))
    nodes = validate_all(specs, enums, diags)
    if len(diags):
        return None
    return Emitter(paths.templates).outputs(nodes)


def _spec_doc(paths: Paths, diags: Diagnostics):
    """The spec language reference (docs/spec.md), or None after diagnostics. The specs are
    validated first, so the worked example quoted from --spec-dir is a valid spec."""
    if _generate(paths, diags) is None:
        return None
    enums = _enums(paths, diags)
    example = os.path.join(paths.spec_dir, EXAMPLE_SPEC)
    try:
        with open(example, encoding="utf-8") as f:
            text = f.read()
        return SpecDoc(paths.templates).render(enums, EXAMPLE_SPEC, text)
    except OSError as e:
        diags.error(Mark(paths.rel(example), 1, 1), f"cannot read the worked example: {e}")
    except SpecDocError as e:
        diags.error(Mark(paths.rel(example), 1, 1), str(e))
    return None


def _write(path: str, content: str) -> bool:
    data = content.encode("utf-8")
    try:
        with open(path, "rb") as f:
            if f.read() == data:
                return False
    except FileNotFoundError:
        pass
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    return True


def _owned_files(out_dir: str) -> set:
    found = set()
    for pattern in OWNED_PATTERNS:
        for path in glob.glob(os.path.join(glob.escape(out_dir), pattern)):
            if os.path.isfile(path):
                found.add(os.path.relpath(path, out_dir).replace(os.sep, "/"))
    return found


def main(argv=None, root=None) -> int:
    # The repo root is the parent of codegen/ (this file is codegen/cgn_codegen/cli.py).
    root = root or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap = argparse.ArgumentParser(
        prog="codegen/generate.py",
        description="Validate spec/*.yaml and generate cgn's node-type C code.")
    ap.add_argument("--spec-dir", default=os.path.join(root, "spec"),
                    help="directory of *.yaml node specs (default: spec/)")
    ap.add_argument("--out", default=os.path.join(root, "generated"),
                    help="output directory (default: generated/)")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true",
                      help="compare with --out instead of writing; exit 1 when stale")
    mode.add_argument("--print-deps", action="store_true",
                      help="print every input file, relative to the repo root")
    mode.add_argument("--print-outputs", action="store_true",
                      help="print every output file, relative to the repo root")
    ap.add_argument("--spec-doc", metavar="PATH",
                    help="write (with --check: compare) the spec language reference, "
                         "docs/spec.md, at PATH instead of the --out files")
    args = ap.parse_args(argv)
    paths = Paths(root, args.spec_dir, args.out)

    if args.print_deps:
        for dep in paths.deps():
            print(dep)
        return 0

    diags = Diagnostics()
    if args.spec_doc is not None:
        if args.print_outputs:
            ap.error("--spec-doc writes one file; --print-outputs lists the --out files")
        return _spec_doc_main(paths, diags, os.path.abspath(args.spec_doc), args.check)
    outputs = _generate(paths, diags)
    if outputs is None:
        for d in diags.sorted():
            print(d, file=sys.stderr)
        print(f"codegen: {len(diags.sorted())} error(s); nothing written", file=sys.stderr)
        return 1

    if args.print_outputs:
        for rel in outputs:
            print(paths.rel(os.path.join(paths.out_dir, rel)))
        return 0

    if args.check:
        stale = []
        for rel, content in outputs.items():
            path = os.path.join(paths.out_dir, rel)
            try:
                with open(path, "rb") as f:
                    same = f.read() == content.encode("utf-8")
            except FileNotFoundError:
                same = False
            if not same:
                stale.append(rel)
        stale += sorted(_owned_files(paths.out_dir) - set(outputs))
        for rel in sorted(stale):
            print(f"generated/ is stale: {paths.rel(os.path.join(paths.out_dir, rel))}",
                  file=sys.stderr)
        if stale:
            print("codegen: run python3 codegen/generate.py to refresh", file=sys.stderr)
        return 1 if stale else 0

    for rel, content in outputs.items():
        path = os.path.join(paths.out_dir, rel)
        if _write(path, content):
            print(f"codegen: wrote {paths.rel(path)}")
    for rel in sorted(_owned_files(paths.out_dir) - set(outputs)):
        print(f"codegen: warning: {paths.rel(os.path.join(paths.out_dir, rel))} is not produced "
              f"by any spec; delete it if its spec is gone", file=sys.stderr)
    return 0


def _spec_doc_main(paths: Paths, diags: Diagnostics, path: str, check: bool) -> int:
    content = _spec_doc(paths, diags)
    if content is None:
        for d in diags.sorted():
            print(d, file=sys.stderr)
        print(f"codegen: {len(diags.sorted())} error(s); nothing written", file=sys.stderr)
        return 1
    if check:
        try:
            with open(path, "rb") as f:
                same = f.read() == content.encode("utf-8")
        except FileNotFoundError:
            same = False
        if not same:
            print(f"{paths.rel(path)} is stale: run python3 codegen/generate.py --spec-doc "
                  f"{paths.rel(path)}", file=sys.stderr)
        return 0 if same else 1
    if _write(path, content):
        print(f"codegen: wrote {paths.rel(path)}")
    return 0
