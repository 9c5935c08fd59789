#!/usr/bin/env python3
"""Tests of the code generator (codegen/generate.py). Plain unittest, no pytest:

    python3 tests/codegen/test_codegen.py [-v]

- every tests/codegen/bad_specs/*.yaml, alone in a spec dir, fails with exit 1, prints each
  `# expect: LINE:COL: TEXT` of its header as `FILE:LINE:COL: error: ...TEXT...` (and no other
  error), writes nothing and never a traceback;
- spec/ regenerates exactly the committed generated/ (--check), deterministically;
- --check reports changed, missing and extra files; a plain run rewrites only what changed;
- --print-deps / --print-outputs list what CMake needs;
- the generated C compiles (when gcc and cuda.h are available).
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GENERATE = os.path.join(ROOT, "codegen", "generate.py")
BAD_SPECS = os.path.join(ROOT, "tests", "codegen", "bad_specs")
SPEC_DIR = os.path.join(ROOT, "spec")
GENERATED = os.path.join(ROOT, "generated")
EXPECT = re.compile(r"^# expect: (\d+):(\d+): (.+?)\s*$")
ERROR = re.compile(r"^(?P<file>.+):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$")


def generate(*args, cwd=ROOT):
    return subprocess.run([sys.executable, GENERATE, *args], cwd=cwd, capture_output=True,
                          text=True)


def tree(path):
    """{relative path: bytes} of every file under path."""
    out = {}
    for dirpath, _, files in os.walk(path):
        for name in files:
            full = os.path.join(dirpath, name)
            with open(full, "rb") as f:
                out[os.path.relpath(full, path)] = f.read()
    return out


def expectations(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = EXPECT.match(line)
            if not m:
                break
            out.append((int(m.group(1)), int(m.group(2)), m.group(3)))
    return out


class BadSpecs(unittest.TestCase):
    def test_there_are_enough_bad_specs(self):
        files = sorted(glob.glob(os.path.join(BAD_SPECS, "*.yaml")))
        self.assertGreaterEqual(len(files), 10)
        for path in files:
            self.assertTrue(expectations(path), f"{path}: first line must be '# expect: ...'")

    def test_each_bad_spec_reports_its_errors(self):
        for path in sorted(glob.glob(os.path.join(BAD_SPECS, "*.yaml"))):
            name = os.path.basename(path)
            with self.subTest(spec=name), tempfile.TemporaryDirectory() as tmp:
                spec_dir = os.path.join(tmp, "spec")
                out_dir = os.path.join(tmp, "out")
                os.mkdir(spec_dir)
                shutil.copy(path, spec_dir)
                r = generate("--spec-dir", spec_dir, "--out", out_dir)
                self.assertEqual(r.returncode, 1, r.stderr)
                self.assertNotIn("Traceback", r.stderr)
                self.assertFalse(os.path.exists(out_dir), "nothing may be written")
                errors = []
                for line in r.stderr.splitlines():
                    m = ERROR.match(line)
                    if m:
                        errors.append(m)
                    else:  # one line per error, then the count: nothing else
                        self.assertRegex(line, r"^codegen: \d+ error\(s\); nothing written$")
                for m in errors:
                    self.assertTrue(m.group("file").endswith("/" + name), m.group(0))
                expected = expectations(path)
                for line, col, text in expected:
                    hits = [m for m in errors if int(m.group("line")) == line
                            and int(m.group("col")) == col and text in m.group("msg")]
                    self.assertTrue(hits, f"{name}: no error '{line}:{col}: {text}' in:\n"
                                          f"{r.stderr}")
                self.assertEqual(len(errors), len(expected),
                                 f"{name}: unexpected extra errors:\n{r.stderr}")

    def test_yaml_errors_are_positioned_not_tracebacks(self):
        with tempfile.TemporaryDirectory() as tmp:
            spec_dir = os.path.join(tmp, "spec")
            os.mkdir(spec_dir)
            with open(os.path.join(spec_dir, "broken.yaml"), "w") as f:
                f.write("node: x\nfields: [\n")
            with open(os.path.join(spec_dir, "latin1.yaml"), "wb") as f:
                f.write(b"node: \xe9\n")
            with open(os.path.join(spec_dir, "empty.yaml"), "w") as f:
                f.write("# nothing\n")
            r = generate("--spec-dir", spec_dir, "--out", os.path.join(tmp, "out"))
            self.assertEqual(r.returncode, 1)
            self.assertNotIn("Traceback", r.stderr)
            self.assertRegex(r.stderr, r"broken\.yaml:\d+:\d+: error: YAML syntax")
            self.assertRegex(r.stderr, r"latin1\.yaml:1:7: error: the spec is not valid UTF-8")
            self.assertRegex(r.stderr, r"empty\.yaml:1:1: error: the spec is empty")

    def test_errors_of_every_spec_are_collected(self):
        with tempfile.TemporaryDirectory() as tmp:
            spec_dir = os.path.join(tmp, "spec")
            os.mkdir(spec_dir)
            for name in ("unknown_key.yaml", "duplicate_field.yaml"):
                shutil.copy(os.path.join(BAD_SPECS, name), spec_dir)
            r = generate("--spec-dir", spec_dir, "--out", os.path.join(tmp, "out"))
            self.assertEqual(r.returncode, 1)
            self.assertIn("unknown_key.yaml:", r.stderr)
            self.assertIn("duplicate_field.yaml:", r.stderr)

    def test_duplicate_node_across_specs(self):
        with tempfile.TemporaryDirectory() as tmp:
            spec_dir = os.path.join(tmp, "spec")
            os.mkdir(spec_dir)
            shutil.copy(os.path.join(SPEC_DIR, "memset.yaml"), os.path.join(spec_dir, "a.yaml"))
            shutil.copy(os.path.join(SPEC_DIR, "memset.yaml"), os.path.join(spec_dir, "b.yaml"))
            r = generate("--spec-dir", spec_dir, "--out", os.path.join(tmp, "out"))
            self.assertEqual(r.returncode, 1)
            self.assertRegex(r.stderr, r"b\.yaml:\d+:\d+: error: node 'memset' is also used by")
            self.assertRegex(r.stderr, r"b\.yaml:\d+:\d+: error: type_enum 'CGN_NODE_MEMSET'")

    def test_shared_cuda_node_type_needs_form_checks(self):
        """memcpy and memcpy_3d both record CU_GRAPH_NODE_TYPE_MEMCPY: without memcpy's form
        check adoption could never reach memcpy_3d; with another getter it could not read."""
        with open(os.path.join(SPEC_DIR, "memcpy.yaml")) as f:
            flat = f.read()
        with open(os.path.join(SPEC_DIR, "memcpy_3d.yaml")) as f:
            three = f.read()
        no_check = re.sub(r"(?m)^  update_check: .*\n", "", flat)
        self.assertNotEqual(no_check, flat)
        other_get = three.replace("get: {entry: cuGraphMemcpyNodeGetParams",
                                  "get: {entry: cuGraphMemsetNodeGetParams")
        self.assertNotEqual(other_get, three)
        for first, second, want in (
                (no_check, three, r"memcpy\.yaml:\d+:\d+: error: cuda\.node_type: "
                                  r"CU_GRAPH_NODE_TYPE_MEMCPY is also recorded by 'memcpy_3d'"),
                (flat, other_get, r"memcpy_3d\.yaml:\d+:\d+: error: cuda\.get: differs from "
                                  r"that of 'memcpy'")):
            with self.subTest(want=want), tempfile.TemporaryDirectory() as tmp:
                spec_dir = os.path.join(tmp, "spec")
                os.mkdir(spec_dir)
                for name, text in (("memcpy.yaml", first), ("memcpy_3d.yaml", second)):
                    with open(os.path.join(spec_dir, name), "w") as f:
                        f.write(text)
                r = generate("--spec-dir", spec_dir, "--out", os.path.join(tmp, "out"))
                self.assertEqual(r.returncode, 1, r.stderr)
                self.assertRegex(r.stderr, want)
                self.assertEqual(len([l for l in r.stderr.splitlines() if ERROR.match(l)]), 1,
                                 r.stderr)


class GoodSpecs(unittest.TestCase):
    def test_committed_generated_is_fresh(self):
        r = generate("--spec-dir", "spec", "--out", "generated", "--check")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_generation_is_deterministic_and_matches_committed(self):
        with tempfile.TemporaryDirectory() as tmp:
            a, b = os.path.join(tmp, "a"), os.path.join(tmp, "b")
            for out in (a, b):
                r = generate("--spec-dir", SPEC_DIR, "--out", out)
                self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(tree(a), tree(b))
            committed = {k: v for k, v in tree(GENERATED).items() if k in tree(a)}
            self.assertEqual(tree(a), committed)

    def test_check_reports_changed_missing_and_extra_files(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "gen")
            self.assertEqual(generate("--spec-dir", SPEC_DIR, "--out", out).returncode, 0)
            with open(os.path.join(out, "src", "cgn_memset.c"), "a") as f:
                f.write("/* edited */\n")
            os.remove(os.path.join(out, "include", "cgn", "cgn_kernel.h"))
            with open(os.path.join(out, "src", "cgn_gone.c"), "w") as f:
                f.write("/* from a deleted spec */\n")
            r = generate("--spec-dir", SPEC_DIR, "--out", out, "--check")
            self.assertEqual(r.returncode, 1)
            for name in ("src/cgn_memset.c", "include/cgn/cgn_kernel.h", "src/cgn_gone.c"):
                self.assertRegex(r.stderr, r"generated/ is stale: \S*" + re.escape(name))
            self.assertNotIn("cgn_nodes.h", r.stderr)

    def test_only_changed_files_are_rewritten(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "gen")
            self.assertEqual(generate("--spec-dir", SPEC_DIR, "--out", out).returncode, 0)
            keep = os.path.join(out, "README")
            with open(keep, "w") as f:
                f.write("not generated\n")
            old = 1_000_000_000
            for path in tree(out):
                os.utime(os.path.join(out, path), (old, old))
            changed = os.path.join(out, "src", "cgn_kernel.c")
            with open(changed, "a") as f:
                f.write("/* edited */\n")
            os.utime(changed, (old, old))
            r = generate("--spec-dir", SPEC_DIR, "--out", out)
            self.assertEqual(r.returncode, 0, r.stderr)
            rewritten = sorted(p for p in tree(out)
                               if os.stat(os.path.join(out, p)).st_mtime != old)
            self.assertEqual(rewritten, [os.path.join("src", "cgn_kernel.c")])
            self.assertTrue(os.path.exists(keep))

    def test_print_deps(self):
        r = generate("--print-deps")
        self.assertEqual(r.returncode, 0, r.stderr)
        deps = r.stdout.split()
        for path in deps:
            self.assertFalse(os.path.isabs(path), path)
            self.assertTrue(os.path.isfile(os.path.join(ROOT, path)), path)
        for spec in glob.glob(os.path.join(SPEC_DIR, "*.yaml")):
            self.assertIn("spec/" + os.path.basename(spec), deps)
        templates = glob.glob(os.path.join(ROOT, "codegen", "templates", "*.j2"))
        self.assertTrue(templates)
        for t in templates:
            self.assertIn("codegen/templates/" + os.path.basename(t), deps)
        self.assertIn("codegen/generate.py", deps)
        self.assertIn("codegen/cgn_codegen/emit.py", deps)

    def test_print_outputs(self):
        r = generate("--print-outputs")
        self.assertEqual(r.returncode, 0, r.stderr)
        outputs = r.stdout.split()
        self.assertIn("generated/include/cgn/cgn_nodes.h", outputs)
        self.assertIn("generated/tests/cgn_cases_all.c", outputs)
        self.assertIn("generated/docs/nodes.md", outputs)
        for node in ("kernel", "memset", "memcpy", "host_callback", "event_record", "event_wait"):
            for path in (f"generated/include/cgn/cgn_{node}.h", f"generated/src/cgn_{node}.c",
                         f"generated/tests/cgn_cases_{node}.c"):
                self.assertIn(path, outputs)
        for path in outputs:
            self.assertTrue(os.path.isfile(os.path.join(ROOT, path)), path)

    def test_first_lines_and_no_machine_paths(self):
        r = generate("--print-outputs")
        for path in r.stdout.split():
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                text = f.read()
            first = text.split("\n", 1)[0]
            if path.endswith(".md"):
                self.assertEqual(first, "<!-- Generated from spec/ by codegen; do not edit. -->",
                                 path)
            else:
                self.assertRegex(first, r"^/\* Generated from spec/(\w+\.yaml)? by codegen; "
                                        r"do not edit\. \*/$", path)
            self.assertNotIn(ROOT, text)
            self.assertNotIn(tempfile.gettempdir() + "/", text)

    def test_memset_shape(self):
        with open(os.path.join(GENERATED, "include", "cgn", "cgn_memset.h")) as f:
            h = f.read()
        # value and element_size require each other: one setter, named after the first.
        self.assertIn("cgn_memset_update_set_value(", h)
        self.assertNotIn("cgn_memset_update_set_element_size(", h)
        self.assertNotIn("cgn_memset_update_set_dst_owner(", h)
        self.assertIn("#define CGN_MEMSET_SET_ALL UINT64_C(0x7f)", h)
        self.assertIn("#define CGN_MEMSET_DESC_INIT {.element_size = 1, .height = 1, .pitch = 0}", h)
        with open(os.path.join(GENERATED, "src", "cgn_memset.c")) as f:
            c = f.read()
        # Validation before the first driver call (cgn__txn_enter), the mutation last.
        order = ["cgn__update_begin(", "update == NULL", "set & ~CGN_MEMSET_SET_ALL",
                 "if (set == 0)\n            return CGN_OK;",
                 "dst_owner requires dst", "d.dst = update->dst",
                 "memset_check_rules(&d", "memset_check_kinds(&d", "cgn__txn_enter(",
                 "memset_stage(&txn", "memset_stage_owners(&txn", "memset_build(&d",
                 "cgn__txn_apply(", "cgn__txn_commit_update("]
        # (the body the update function and any one-call form share)
        body = c[c.index("static inline cgn_status memset_node_update_body("):]
        positions = [body.index(s) for s in order]
        self.assertEqual(positions, sorted(positions))
        self.assertIn("d.dst_owner = (set & CGN_MEMSET_SET_DST_OWNER) ? update->dst_owner : NULL;",
                      c)

    def test_kernel_shape(self):
        with open(os.path.join(GENERATED, "include", "cgn", "cgn_kernel.h")) as f:
            h = f.read()
        self.assertRegex(h, r"cgn_kernel_update_set_kernel\(cgn_kernel_update \*update, "
                            r"cgn_kernel kernel,\s+cgn_owner \*kernel_owner, "
                            r"const cgn_arg \*args,\s+uint32_t num_args\)")
        with open(os.path.join(GENERATED, "src", "cgn_kernel.c")) as f:
            c = f.read()
        self.assertIn("p->kernel.gridDimX = d->grid.x;", c)
        self.assertIn("cgn__set_kernel_handle(&p->kernel, d->kernel);", c)
        self.assertIn("p->kernel.ctx = ctx;", c)  # the node's context, from context_field
        self.assertRegex(c, r"cgn__txn_stage_owners\(txn, owners, sizeof owners / sizeof "
                            r"owners\[0\], d->args,\s+d->num_args\)")

    def test_arg_edits_shape(self):
        h = self._read("include", "cgn", "cgn_kernel.h")
        # Argument edits are update-only: in the update struct, never in the desc.
        desc = h[h.index("typedef struct cgn_kernel_desc"):h.index("} cgn_kernel_desc;")]
        update = h[h.index("typedef struct cgn_kernel_update"):h.index("} cgn_kernel_update;")]
        self.assertNotIn("arg_edits", desc)
        self.assertIn("cgn_arg_edits arg_edits;", update)
        self.assertRegex(h, r"static inline void cgn_kernel_update_set_arg\(cgn_kernel_update "
                            r"\*update, uint32_t index,\s+const void \*value, size_t size, "
                            r"cgn_owner \*owner\)")
        from_desc = h[h.index("cgn_kernel_update_from_desc("):]
        from_desc = from_desc[:from_desc.index("}")]
        self.assertIn("update->set = (CGN_KERNEL_SET_ALL & ~CGN_KERNEL_SET_ARG);", from_desc)
        self.assertNotIn("arg_edits", from_desc)
        c = self._read("src", "cgn_kernel.c")
        # Edits stage after the args field, on its block; an add stages no edits.
        stage = c[c.index("static inline cgn_status kernel_stage("):]
        self.assertLess(stage.index("cgn__stage_kernel_args("),
                        stage.index("cgn__stage_arg_edits("))
        self.assertIn("} else if (!(changed & CGN_KERNEL_SET_ARG)) {", stage)
        self.assertIn("kernel_stage(&txn, &d, NULL, (CGN_KERNEL_SET_ALL & ~CGN_KERNEL_SET_ARG)",
                      c)
        self.assertRegex(c, r"set & \(CGN_KERNEL_SET_ARG \| CGN_KERNEL_SET_ARGS \|\s+"
                            r"CGN_KERNEL_SET_KERNEL\)\)\)\s+st = kernel_stage_owners")

    def test_read_shape(self):
        # Adoption and refresh read through one generated function per node type: the inverse
        # of build, owners last (they compare what they guard with the record before).
        c = self._read("src", "cgn_memcpy.c")
        read = c[c.index("cgn_status cgn__memcpy_read("):]
        self.assertIn("rd->unsupported = cgn__memcpy_1d_form(p);", read)
        self.assertLess(read.index("d->size = p->memcpy.copyParams.WidthInBytes;"),
                        read.index("d->dst_owner = prev->dst_owner;"))
        self.assertIn("if (prev != NULL && d->dst == prev->dst)", read)
        k = self._read("src", "cgn_kernel.c")
        self.assertIn("d->kernel = cgn__read_kernel_handle(&p->kernel, prev ? &prev->kernel : NULL);",
                      k)
        self.assertIn("cgn__read_kernel_args(rd, d->kernel, &p->kernel", k)
        r = self._read("src", "cgn_registry.c")
        self.assertIn("offsetof(CUgraphNodeParams, memcpy.copyCtx)", r)
        self.assertIn("[CGN_NODE_OTHER] =", r)
        # memcpy and memcpy_3d share a CUDA type: an adopted copy gets room for either desc.
        rows = " ".join(r.split())
        shared = ("CGN__MAX_SIZE(sizeof(cgn_memcpy_desc), sizeof(cgn_memcpy_3d_desc)), "
                  "\"CU_GRAPH_NODE_TYPE_MEMCPY\"}")
        self.assertEqual(rows.count(shared), 2, rows)
        self.assertRegex(rows, r"\[CGN_NODE_CONDITIONAL\] = \{.*?, 0, NULL, 1, "
                               r"\"CU_GRAPH_NODE_TYPE_CONDITIONAL\"\}")
        md = self._read("docs", "nodes.md")
        self.assertIn("### Adopted nodes", md)

    def _read(self, *parts):
        with open(os.path.join(GENERATED, *parts)) as f:
            return f.read()

    def test_memcpy_shape(self):
        h = self._read("include", "cgn", "cgn_memcpy.h")
        # The detected memory types are desc members set by cgn: never in the update struct.
        desc = h[h.index("typedef struct cgn_memcpy_desc"):h.index("} cgn_memcpy_desc;")]
        update = h[h.index("typedef struct cgn_memcpy_update"):h.index("} cgn_memcpy_update;")]
        self.assertRegex(desc, r"CUmemorytype dst_memory_type; +/\* Set by cgn, ignored on input")
        self.assertNotIn("memory_type", update)
        self.assertIn("#define CGN_MEMCPY_SET_ALL UINT64_C(0x1f)", h)
        c = self._read("src", "cgn_memcpy.c")
        self.assertIn("p->memcpy.copyParams.Height = 1;", c)
        self.assertIn("p->memcpy.copyParams.Depth = 1;", c)
        self.assertIn("p->memcpy.copyParams.WidthInBytes = d->size;", c)
        self.assertIn("if (d->src_memory_type == CU_MEMORYTYPE_HOST)", c)
        # The operand's memory type is asked only when it is replaced by an address (0 is
        # none: an array operand may stand in its place).
        self.assertRegex(c, r"if \(\(changed & CGN_MEMCPY_SET_SRC\) && d->src != 0\) \{\s+"
                            r"cgn_status st = "
                            r"cgn__detect_memory_type\(txn, d->src, &d->src_memory_type")
        # Input values of members set by cgn are dropped on add, and reset when replaced.
        add = c[c.index("cgn_status cgn_graph_add_memcpy("):]
        self.assertLess(add.index("d.dst_memory_type = (CUmemorytype)0;"),
                        add.index("memcpy_check_rules(&d"))
        self.assertIn("d.src_memory_type = (CUmemorytype)0; /* set by cgn */", c)
        # The form check runs right after the gate, before anything is merged or staged.
        body = c[c.index("static inline cgn_status memcpy_node_update_body("):]
        order = ["cgn__update_begin(", "d.dst = update->dst", "cgn__txn_enter(",
                 "cgn__check_memcpy_1d(&txn, where)", "memcpy_stage(&txn", "cgn__txn_apply("]
        positions = [body.index(x) for x in order]
        self.assertEqual(positions, sorted(positions))

    def test_host_callback_shape(self):
        h = self._read("include", "cgn", "cgn_host_callback.h")
        # Everything follows fn: one setter, replacing the function and its argument together.
        self.assertRegex(h, r"cgn_host_callback_update_set_fn\(cgn_host_callback_update \*update, "
                            r"CUhostFn fn,\s+void \*user_data, cgn_owner \*user_data_owner,"
                            r"\s+const void \*payload, size_t payload_size\)")
        self.assertNotIn("cgn_host_callback_update_set_payload(", h)
        update = h[h.index("typedef struct cgn_host_callback_update"):]
        self.assertNotIn("payload_owner", update[:update.index("}")])
        c = self._read("src", "cgn_host_callback.c")
        self.assertIn("cgn_owner *const owners[] = {d->user_data_owner, d->payload_owner};", c)
        self.assertIn("d.payload = (set & CGN_HOST_CALLBACK_SET_PAYLOAD) ? update->payload : NULL;",
                      c)
        self.assertIn("d.payload_owner = NULL; /* set by cgn */", c)
        # Both paths: stage, stage the owners, then drop the copy's creation reference whether
        # or not staging succeeded, and only then roll back on failure.
        for fn in ("cgn_status cgn_graph_add_host_callback(",
                   "cgn_status cgn_host_callback_node_update("):
            body = c[c.index(fn):]
            order = ["host_callback_stage(&txn", "host_callback_stage_owners(&txn",
                     "host_callback_settle(&d", "cgn__txn_fail(&txn",
                     "host_callback_build(&d", "cgn__txn_appl"]
            positions = [body.index(x) for x in order]
            self.assertEqual(positions, sorted(positions), fn)
        self.assertRegex(c, r"static void host_callback_settle\(const cgn_host_callback_desc \*d, "
                            r"uint64_t changed\) \{\s+if \(changed & CGN_HOST_CALLBACK_SET_FN\)"
                            r"\s+cgn__release_staged_copy\(d->payload_owner\);")
        # userData comes from whichever of user_data and payload is set (a rule keeps one).
        self.assertIn("if (d->payload != NULL)\n        p->host.userData = (void *)(uintptr_t)"
                      "d->payload;", c)
        # Types without copies have no settle step.
        self.assertNotIn("_settle(", self._read("src", "cgn_memcpy.c"))
        # A rule runs when the update sets a field it reads, or the leader of one (user_data and
        # payload follow fn); the add checks every rule.
        self.assertRegex(c, r"if \(\(changed & \(CGN_HOST_CALLBACK_SET_FN \| "
                            r"CGN_HOST_CALLBACK_SET_PAYLOAD \|\s+"
                            r"CGN_HOST_CALLBACK_SET_USER_DATA\)\) &&\s+"
                            r"\(d->user_data != NULL && d->payload != NULL\)\)")
        self.assertIn("host_callback_check_rules(&d, set, where);", c)
        k = self._read("src", "cgn_kernel.c")
        self.assertIn("if ((changed & (CGN_KERNEL_SET_GRID)) && (d->grid.x == 0 ||", k)
        self.assertIn("kernel_check_rules(&d, (CGN_KERNEL_SET_ALL & ~CGN_KERNEL_SET_ARG), where)",
                      k)

    def test_event_shape(self):
        for node, member in (("event_record", "eventRecord"), ("event_wait", "eventWait")):
            c = self._read("src", f"cgn_{node}.c")
            self.assertIn(f"p->{member}.event = d->event;", c)
            self.assertIn('"%s: event must not be NULL"', c)
            self.assertIn(f"d.event_owner = (set & CGN_{node.upper()}_SET_EVENT_OWNER) ? "
                          f"update->event_owner : NULL;", c)

    def test_test_tokens(self):
        t = self._read("tests", "cgn_cases_memcpy.c")
        self.assertIn("d->dst = cgn_test_host(env, 0);", t)
        self.assertIn("d->src = cgn_test_buf(env, 0);", t)
        t = self._read("tests", "cgn_cases_host_callback.c")
        self.assertIn('d->fn = cgn_test_callback(env, "record_a");', t)
        self.assertIn("d->user_data = cgn_test_host_ptr(env, 0);", t)
        self.assertIn("static const unsigned char bytes[] = {0xb2, 0x01};", t)
        self.assertIn("u->payload = cgn_test_bytes(env, NULL, 0);", t)
        self.assertIn("bytes_equal(a->payload, a->payload_size, b->payload, b->payload_size)", t)
        t = self._read("tests", "cgn_cases_event_wait.c")
        self.assertIn("d->event = cgn_test_event(env, 0);", t)
        self.assertIn("u->event = NULL;", t)

    def test_docs_page(self):
        md = self._read("docs", "nodes.md")
        for node in ("kernel", "memset", "memcpy", "host_callback", "event_record",
                     "event_wait"):
            self.assertIn(f'<a id="{node}"></a>', md)
            section = md[md.index(f'<a id="{node}"></a>'):]
            nxt = section.find('<a id="', 1)
            section = section[:nxt if nxt > 0 else None]
            for heading in ("### Fields", "### Updates", "### Retained", "### Errors",
                            "### Differences from cuda.core"):
                self.assertIn(heading, section, node)
            self.assertIn(f"`cgn_{node}_node_update`", section)
            self.assertIn("update: 12.2 (`cuGraphNodeSetParams`)", section)
            self.assertIn("| `CGN_ERROR_DRIVER_TOO_OLD` |", section)
        memcpy = md[md.index('<a id="memcpy"></a>'):md.index('<a id="memset"></a>')]
        self.assertIn("| `CGN_ERROR_NOT_SUPPORTED` | the node's descriptor, read back with "
                      "cuGraphMemcpyNodeGetParams", memcpy)
        self.assertIn("| `CGN_ERROR_INVALID_VALUE` | `size == 0`: size must be at least 1 |",
                      memcpy)
        self.assertIn("`copyParams.Height` always 1", memcpy)
        kernel = md[md.index('<a id="kernel"></a>'):md.index('<a id="memcpy"></a>')]
        # A `|` inside a table cell is escaped, or it would split the cell.
        self.assertIn("`grid.x == 0 \\|\\| grid.y == 0", kernel)
        host = md[md.index('<a id="host_callback"></a>'):md.index('<a id="kernel"></a>')]
        self.assertIn("`payload` set without `fn`", host)
        self.assertIn("- `payload`: cgn's copy of the bytes", host)

    def test_docs_page_is_checked(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "gen")
            self.assertEqual(generate("--spec-dir", SPEC_DIR, "--out", out).returncode, 0)
            with open(os.path.join(out, "docs", "nodes.md"), "a") as f:
                f.write("hand edit\n")
            r = generate("--spec-dir", SPEC_DIR, "--out", out, "--check")
            self.assertEqual(r.returncode, 1)
            self.assertRegex(r.stderr, r"generated/ is stale: \S*docs/nodes\.md")


def _cuda_include():
    for base in (os.environ.get("CUDA_PATH"), os.environ.get("CUDA_HOME"), "/usr/local/cuda"):
        if base and os.path.isfile(os.path.join(base, "include", "cuda.h")):
            return os.path.join(base, "include")
    return None


@unittest.skipUnless(shutil.which("gcc") and _cuda_include(), "needs gcc and cuda.h")
class GeneratedCompiles(unittest.TestCase):
    FLAGS = ["-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-Wshadow",
             "-Wstrict-prototypes", "-fsyntax-only"]

    def _compile(self, files, extra=()):
        inc = ["-I" + os.path.join(ROOT, d) for d in ("include", "generated/include", "runtime")]
        r = subprocess.run(["gcc", *self.FLAGS, *inc, *extra, "-I" + _cuda_include(), *files],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_sources(self):
        self._compile(sorted(glob.glob(os.path.join(GENERATED, "src", "*.c"))))

    def test_trigraphs_in_messages(self):
        # C11 has trigraphs: "??/" in a message must not become a backslash (spec fuzzer).
        with tempfile.TemporaryDirectory() as tmp:
            spec_dir, out = os.path.join(tmp, "spec"), os.path.join(tmp, "out")
            shutil.copytree(SPEC_DIR, spec_dir)
            path = os.path.join(spec_dir, "memset.yaml")
            with open(path, encoding="utf-8") as f:
                text = f.read()
            self.assertIn('message: "dst must not be 0"', text)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text.replace('message: "dst must not be 0"',
                                     'message: "dst must not be 0??/??\' ???="'))
            r = generate("--spec-dir", spec_dir, "--out", out)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("0?\\?/?\\?' ?\\?\\?=", self._read_out(out, "src", "cgn_memset.c"))
            self._compile([os.path.join(out, "src", "cgn_memset.c")],
                          ["-I" + os.path.join(out, "include")])

    def _read_out(self, out, *parts):
        with open(os.path.join(out, *parts), encoding="utf-8") as f:
            return f.read()

    @unittest.skipUnless(os.path.isfile(os.path.join(ROOT, "tests", "support",
                                                     "cgn_test_cases.h")),
                         "needs tests/support/cgn_test_cases.h")
    def test_case_tables(self):
        self._compile(sorted(glob.glob(os.path.join(GENERATED, "tests", "*.c"))),
                      ["-I" + os.path.join(ROOT, "tests", "support")])


if __name__ == "__main__":
    unittest.main(verbosity=2)
