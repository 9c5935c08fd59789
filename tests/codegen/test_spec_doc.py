#!/usr/bin/env python3
"""Tests of the spec language reference (codegen/cgn_codegen/specdoc.py, docs/spec.md):

    python3 tests/codegen/test_spec_doc.py [-v]

- every schema key and every field kind carries its doc text, and the rendered page lists every
  key path, every field kind, every enum value and every operator cexpr accepts or refuses;
- the worked example is quoted verbatim from the spec it names, cut at top-level keys (a small
  fixture checks the cutting);
- --spec-doc --check fails on a stale or missing file and passes on a fresh one, a plain
  --spec-doc run writes only when the content changed, and neither touches generated/.
(The committed docs/spec.md itself is checked by codegen_spec_doc_is_fresh.)
"""
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "codegen"))
sys.dont_write_bytecode = True

from cgn_codegen import cexpr, specdoc  # noqa: E402
from cgn_codegen.fieldtypes import FIELD_TYPES, NODE_CHECKS  # noqa: E402
from cgn_codegen.schema import driver_entry_names, enum_sets  # noqa: E402

GENERATE = os.path.join(ROOT, "codegen", "generate.py")
TEMPLATES = os.path.join(ROOT, "codegen", "templates")

FIXTURE = """\
# A header comment.
node: tiny
type_enum: CGN_NODE_MEMSET
summary: s.
cuda:
  node_type: CU_GRAPH_NODE_TYPE_MEMSET
gates:
  update: 12020
reference: r

# Fields comment.
fields:
  - name: a
rules:
  - when: a == 0
exec:
  enable: true
owners: []
differences: []

cases:
  - id: one
    original: {a: 1}

  - id: two
    original: {a: 2}
"""


def generate(*args):
    return subprocess.run([sys.executable, GENERATE, *args], cwd=ROOT, capture_output=True,
                          text=True)


def tree(path):
    out = {}
    for dirpath, _, files in os.walk(path):
        for name in files:
            with open(os.path.join(dirpath, name), "rb") as f:
                out[os.path.relpath(os.path.join(dirpath, name), path)] = f.read()
    return out


def render(example=FIXTURE):
    with open(os.path.join(ROOT, "runtime", "driver_entries.h"), encoding="utf-8") as f:
        entries = driver_entry_names(f.read())
    with open(os.path.join(ROOT, "include", "cgn", "cgn.h"), encoding="utf-8") as f:
        enums = enum_sets(f.read(), FIELD_TYPES, NODE_CHECKS, entries)
    return specdoc.SpecDoc(TEMPLATES).render(enums, "tiny.yaml", example), enums


class Sources(unittest.TestCase):
    def test_every_key_has_doc(self):
        missing = [path for path, key in specdoc.all_keys() if not key.doc.strip()]
        self.assertEqual(missing, [], "schema keys without doc=")

    def test_every_field_kind_has_docs(self):
        for t in FIELD_TYPES.values():
            self.assertTrue(t.doc and t.case_doc, t.name)
            self.assertEqual(bool(t.default_doc), t.default is not None, t.name)


class Rendering(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.doc, cls.enums = render()

    def test_every_key_path_is_listed(self):
        for path, _ in specdoc.all_keys():
            self.assertIn(f"| `{path}` |", self.doc)

    def test_every_kind_and_enum_value_is_listed(self):
        for name in FIELD_TYPES:
            self.assertIn(f"### {name}\n", self.doc)
        for values in self.enums.values():
            for v in values:
                self.assertIn(f"`{v}`", self.doc)

    def test_expression_syntax_is_listed(self):
        for op in cexpr.BINARY_OPERATORS + cexpr.UNARY_OPERATORS + cexpr.FORBIDDEN_OPERATORS:
            self.assertIn(f"`{op}`", self.doc)
        for name in cexpr.ALLOWED_NAMES - {"sizeof"}:
            self.assertIn(f"`{name}", self.doc)

    def test_example_is_cut_at_top_level_keys(self):
        parts = specdoc.example_parts(FIXTURE, "tiny.yaml")
        self.assertTrue(parts["node"].startswith("# A header comment.\nnode: tiny"))
        self.assertTrue(parts["node"].endswith("reference: r"))
        self.assertEqual(parts["fields"], "# Fields comment.\nfields:\n  - name: a")
        self.assertEqual(parts["owners"], "owners: []\ndifferences: []")
        self.assertEqual(parts["cases"], "cases:\n  - id: one\n    original: {a: 1}")
        for text in parts.values():
            self.assertIn(text, FIXTURE)
            self.assertIn("```yaml\n" + text + "\n```", self.doc)

    def test_missing_example_key_is_an_error(self):
        with self.assertRaises(specdoc.SpecDocError):
            specdoc.example_parts(FIXTURE.replace("owners: []\n", ""), "tiny.yaml")

    def test_anchors_and_no_cell_breaks(self):
        for line in self.doc.splitlines():
            if line.startswith("| `"):
                # No `|` in a cell splits it: rows have the separators of their table's
                # 3 to 5 columns.
                cells = line.replace("\\|", "").count("|")
                self.assertIn(cells, (4, 5, 6), line)


class Cli(unittest.TestCase):
    def test_check_write_and_generated_untouched(self):
        before = tree(os.path.join(ROOT, "generated"))
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "spec.md")
            r = generate("--spec-doc", path, "--check")
            self.assertEqual(r.returncode, 1)
            self.assertIn("is stale", r.stderr)
            r = generate("--spec-doc", path)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("wrote", r.stdout)
            with open(path, encoding="utf-8") as f:
                self.assertIn("## Adding a node type", f.read())
            self.assertEqual(generate("--spec-doc", path, "--check").returncode, 0)
            r = generate("--spec-doc", path)
            self.assertEqual(r.stdout, "")  # unchanged: not rewritten
            with open(path, "a", encoding="utf-8") as f:
                f.write("edited\n")
            self.assertEqual(generate("--spec-doc", path, "--check").returncode, 1)
        self.assertEqual(tree(os.path.join(ROOT, "generated")), before)

    def test_bad_spec_dir_writes_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "spec.md")
            r = generate("--spec-dir", tmp, "--spec-doc", path)
            self.assertEqual(r.returncode, 1)
            self.assertIn("no *.yaml spec files", r.stderr)
            self.assertFalse(os.path.exists(path))


if __name__ == "__main__":
    unittest.main()
