#!/usr/bin/env python3
"""tools/check-generated fails on a tree whose committed generated/ is stale.

    python3 tests/codegen/test_check_generated.py [-v]

Each test copies the repo's spec/, codegen/, generated/, include/cgn/cgn.h and
runtime/driver_entries.h into a temporary
tree and runs the script on it: pristine it passes; after a spec doc string changes (and
generated/ does not) it fails and names the stale files. .ci/run must call it before building,
because a build regenerates generated/ in the source tree and would hide the staleness.
"""
import os
import re
import shutil
import subprocess
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "tools", "check-generated")


def copy_tree(dst):
    for d in ("spec", "codegen", "generated"):
        shutil.copytree(os.path.join(ROOT, d), os.path.join(dst, d),
                        ignore=shutil.ignore_patterns("__pycache__"))
    os.makedirs(os.path.join(dst, "include", "cgn"))
    shutil.copy(os.path.join(ROOT, "include", "cgn", "cgn.h"),
                os.path.join(dst, "include", "cgn", "cgn.h"))
    os.makedirs(os.path.join(dst, "runtime"))
    shutil.copy(os.path.join(ROOT, "runtime", "driver_entries.h"),
                os.path.join(dst, "runtime", "driver_entries.h"))


def check(root):
    return subprocess.run(["bash", SCRIPT, root], capture_output=True, text=True)


class CheckGenerated(unittest.TestCase):
    def test_pristine_copy_passes(self):
        with tempfile.TemporaryDirectory() as tmp:
            copy_tree(tmp)
            r = check(tmp)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_spec_doc_change_fails_and_lists_the_stale_files(self):
        with tempfile.TemporaryDirectory() as tmp:
            copy_tree(tmp)
            spec = os.path.join(tmp, "spec", "memset.yaml")
            with open(spec, encoding="utf-8") as f:
                text = f.read()
            old = "doc: Destination device pointer."
            self.assertIn(old, text)
            with open(spec, "w", encoding="utf-8") as f:
                f.write(text.replace(old, "doc: Destination device pointer, edited."))
            r = check(tmp)
            self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
            self.assertIn("FAILED", r.stderr)
            self.assertRegex(r.stderr, r"(?m)^  generated/include/cgn/cgn_memset\.h$")
            self.assertRegex(r.stderr, r"(?m)^  generated/docs/nodes\.md$")
            self.assertNotIn("cgn_kernel", r.stderr)
            self.assertNotIn("Traceback", r.stderr)

    def test_removed_and_extra_files_are_stale(self):
        with tempfile.TemporaryDirectory() as tmp:
            copy_tree(tmp)
            os.remove(os.path.join(tmp, "generated", "src", "cgn_kernel.c"))
            with open(os.path.join(tmp, "generated", "src", "cgn_gone.c"), "w") as f:
                f.write("/* from a deleted spec */\n")
            r = check(tmp)
            self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
            self.assertRegex(r.stderr, r"(?m)^  generated/src/cgn_kernel\.c$")
            self.assertRegex(r.stderr, r"(?m)^  generated/src/cgn_gone\.c$")

    def test_spec_error_is_reported_not_hidden(self):
        with tempfile.TemporaryDirectory() as tmp:
            copy_tree(tmp)
            with open(os.path.join(tmp, "spec", "memset.yaml"), "a", encoding="utf-8") as f:
                f.write("bogus_key: 1\n")
            r = check(tmp)
            self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
            self.assertRegex(r.stderr, r"spec/memset\.yaml:\d+:\d+: error: .*bogus_key")

    def test_ci_checks_before_it_builds(self):
        with open(os.path.join(ROOT, ".ci", "run"), encoding="utf-8") as f:
            lines = [ln.strip() for ln in f if ln.strip() and not ln.lstrip().startswith("#")]
        check_at = [i for i, ln in enumerate(lines) if re.match(r"^tools/check-generated\b", ln)]
        self.assertTrue(check_at, ".ci/run does not call tools/check-generated")
        builds = [i for i, ln in enumerate(lines)
                  if re.search(r"\b(cmake|tools/test|ninja|make)\b", ln)]
        self.assertTrue(builds)
        self.assertLess(check_at[0], builds[0], "tools/check-generated must run before any build")


if __name__ == "__main__":
    unittest.main(verbosity=2)
