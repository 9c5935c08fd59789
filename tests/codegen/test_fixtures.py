#!/usr/bin/env python3
"""Generator tests on small fixture specs (tests/codegen/fixtures/), not on the product's spec/:
a change to spec/ cannot break them, and they pin what the generator makes of each spec key.

    python3 tests/codegen/test_fixtures.py [-v]

- the fixtures generate, deterministically, one header, source and case table per spec;
- cuda.add / cuda.get become the typed calls (struct prefix with `at` and a trailing context,
  or one member), registered with their entry names;
- a field's `since` becomes a driver gate in the node and executable updates, before anything
  else they check;
- the test models are named per node type in the generated table, and a type with
  `test_model: false` gets the generated no-change model;
- the fake driver's rows (tests/cgn_fake_nodes.h): the typed adder and getter of every
  `params:` call without `at`, `context` or output, and the arrays of copied_arrays fields, so
  a type like the `ping` fixture costs no fake-driver or model code;
- a node type with `updatable: false` gets a desc, add, get and exec_get but no update struct,
  setters or update functions, and is registered as not updatable; its output field is reset
  on input, copied back from the adder's struct and compared by desc_same only;
- the generated node sources compile with the project's warnings, and the registry refuses to
  compile for a spec set that misses cgn_node_type enumerators (when gcc and cuda.h exist).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GENERATE = os.path.join(ROOT, "codegen", "generate.py")
FIXTURES = os.path.join(ROOT, "tests", "codegen", "fixtures")
CUDA_INC = next((os.path.join(b, "include") for b in
                 (os.environ.get("CUDA_PATH"), os.environ.get("CUDA_HOME"), "/usr/local/cuda")
                 if b and os.path.isfile(os.path.join(b, "include", "cuda.h"))), None)


def generate(out):
    return subprocess.run([sys.executable, GENERATE, "--spec-dir", FIXTURES, "--out", out],
                          cwd=ROOT, capture_output=True, text=True)


class Fixtures(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.out = os.path.join(cls.tmp, "gen")
        r = generate(cls.out)
        if r.returncode != 0:
            raise AssertionError(f"fixtures do not generate:\n{r.stderr}")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def read(self, *parts):
        with open(os.path.join(self.out, *parts)) as f:
            return f.read()

    def test_outputs_per_spec_and_deterministic(self):
        for node in ("fill", "tick", "launch", "copy", "grab", "ping"):
            for parts in (("include", "cgn", f"cgn_{node}.h"), ("src", f"cgn_{node}.c"),
                          ("tests", f"cgn_cases_{node}.c")):
                self.assertTrue(os.path.isfile(os.path.join(self.out, *parts)), parts)
        again = os.path.join(self.tmp, "again")
        self.assertEqual(generate(again).returncode, 0)
        for dirpath, _, files in os.walk(self.out):
            for name in files:
                a = os.path.join(dirpath, name)
                with open(a, "rb") as f1, open(os.path.join(again, os.path.relpath(a, self.out)),
                                                "rb") as f2:
                    self.assertEqual(f1.read(), f2.read(), name)

    def test_struct_prefix_adder_with_context(self):
        r = self.read("src", "cgn_registry.c")
        add = r[r.index("static CUresult cgn__fill_add_raw("):]
        add = add[:add.index("\n}\n")]
        self.assertIn("CUDA_MEMSET_NODE_PARAMS_v1 a;", add)
        self.assertIn("_Static_assert(sizeof a <= sizeof ((CUgraphNodeParams *)0)->memset,", add)
        self.assertIn("memcpy(&a, &p->memset, sizeof a);", add)
        self.assertIn("return drv->cuGraphAddMemsetNode(out, g, deps, num_deps, &a, "
                      "p->memset.ctx);", add)
        get = r[r.index("static CUresult cgn__fill_get_raw("):]
        get = get[:get.index("\n}\n")]
        # Read in place, zeroed first: nothing uninitialised reaches p.
        self.assertIn("CUDA_MEMSET_NODE_PARAMS_v1 *a = (void *)&p->memset;", get)
        self.assertIn("_Static_assert(sizeof *a <= sizeof p->memset,", get)
        self.assertLess(get.index("memset(a, 0, sizeof *a);"),
                        get.index("return drv->cuGraphMemsetNodeGetParams(raw, a);"))

    def test_nested_struct_adder_and_getter(self):
        r = self.read("src", "cgn_registry.c")
        self.assertIn("memcpy(&a, &p->memcpy.copyParams, sizeof a);", r)
        self.assertIn("return drv->cuGraphAddMemcpyNode(out, g, deps, num_deps, &a, "
                      "p->memcpy.copyCtx);", r)
        self.assertIn("CUDA_MEMCPY3D_v2 *a = (void *)&p->memcpy.copyParams;", r)
        self.assertIn("sizeof ((CUgraphNodeParams *)0)->memcpy.copyParams,", r)

    def test_member_adder_and_getter(self):
        r = self.read("src", "cgn_registry.c")
        self.assertIn("return drv->cuGraphAddEventRecordNode(out, g, deps, num_deps, "
                      "p->eventRecord.event);", r)
        self.assertIn("return drv->cuGraphEventRecordNodeGetEvent(raw, &p->eventRecord.event);",
                      r)

    def test_registry_rows_name_the_calls(self):
        r = " ".join(self.read("src", "cgn_registry.c").split())
        self.assertRegex(r, r"\[CGN_NODE_MEMSET\] = \{\"fill\", 0, cgn__fill_exec_check, "
                            r"CU_GRAPH_NODE_TYPE_MEMSET, sizeof\(cgn_fill_desc\), cgn__fill_read, "
                            r"offsetof\(CUgraphNodeParams, memset.ctx\), cgn__fill_add_raw, "
                            r"\"cuGraphAddMemsetNode\", cgn__fill_get_raw, "
                            r"\"cuGraphMemsetNodeGetParams\", 1, NULL, sizeof\(cgn_fill_desc\), "
                            r"\"CU_GRAPH_NODE_TYPE_MEMSET\"\}")
        # updatable, no form check, adoption room: its own desc (no other MEMSET type)
        self.assertIn("_Static_assert(CGN_NODE_TYPE_COUNT_ == 2 + 6,", r)
        self.assertRegex(r, r"\[CGN_NODE_MEM_ALLOC\] = \{\"grab\", 0, cgn__grab_exec_check, "
                            r".*\"cuGraphMemAllocNodeGetParams\", 0, NULL, "
                            r"sizeof\(cgn_grab_desc\), \"CU_GRAPH_NODE_TYPE_MEM_ALLOC\"\}")
        # (not updatable)

    def test_field_gate_comes_first(self):
        c = self.read("src", "cgn_launch.c")
        gate = ("if ((set & CGN_LAUNCH_SET_ARG) && cgn__driver->version < 12050)\n"
                "        return cgn__require_driver(12050, 1, \"launch updates that set arg\");")
        # The update functions' bodies (shared with the one-call forms, since the fixture's
        # argument edits have them).
        for fn in ("launch_node_update_body(", "launch_exec_update_body("):
            body = c[c.index(fn):]
            body = body[:body.index("\n}\n")]
            self.assertIn(gate, body, fn)
            # after the empty-update return, before the requires checks and any merging
            self.assertLess(body.index("if (set == 0)"), body.index(gate))
            self.assertLess(body.index(gate), body.index("kernel requires args"))
        # The one-call forms: one edit filled in, then the shared body with its bit fixed.
        for level, call in (
                ("node", "launch_node_update_body(node, &direct, CGN_LAUNCH_SET_ARG,"),
                ("exec", "launch_exec_update_body(exec, node, &direct, CGN_LAUNCH_SET_ARG,")):
            fn = c[c.index(f"cgn_status cgn_launch_{level}_set_arg("):]
            fn = " ".join(fn[:fn.index("\n}\n")].split())
            self.assertIn("cgn_launch_update_reset(&direct); "
                          "cgn_launch_update_set_arg(&direct,", fn)
            self.assertIn(call, fn)
            self.assertIn(f'"cgn_launch_{level}_set_arg"', fn)
        add = c[c.index("cgn_status cgn_graph_add_launch("):]
        add = add[:add.index("\n}\n")]
        self.assertNotIn("12050", add)  # an add cannot set the gated field
        self.assertNotIn("12050", self.read("src", "cgn_fill.c"))
        self.assertIn("an update setting `arg`: 12.5", self.read("docs", "nodes.md"))

    def test_models_are_named_per_type(self):
        t = self.read("tests", "cgn_cases_all.c")
        for enum, node in (("CGN_NODE_MEMSET", "fill"), ("CGN_NODE_EVENT_RECORD", "tick"),
                           ("CGN_NODE_KERNEL", "launch"), ("CGN_NODE_MEMCPY", "copy")):
            self.assertIn(f"[{enum}] = cgn_test_model_{node},", t)
            self.assertRegex(t, rf"void cgn_test_model_{node}\(cgn_test_env \*env, const void "
                                rf"\*desc,\s+cgn_test_observation \*expected\);")

    def test_arrays_type_needs_no_model_or_fake_code(self):
        t = self.read("tests", "cgn_cases_all.c")
        self.assertIn("[CGN_NODE_EXT_SEM_SIGNAL] = cgn_test_model_none,", t)
        self.assertNotIn("cgn_test_model_ping", t)
        self.assertIn("static void cgn_test_model_none(", t)
        f = self.read("tests", "cgn_fake_nodes.h")
        self.assertIn("X(cuGraphAddExternalSemaphoresSignalNode, "
                      "cuGraphExternalSemaphoresSignalNodeGetParams, "
                      "CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL, extSemSignal, "
                      "CUDA_EXT_SEM_SIGNAL_NODE_PARAMS_v1, CUDA_EXT_SEM_SIGNAL_NODE_PARAMS_v1)", f)
        self.assertIn("X(cuGraphAddKernelNode, cuGraphKernelNodeGetParams, "
                      "CU_GRAPH_NODE_TYPE_KERNEL, kernel,", f)
        for absent in ("cuGraphAddMemsetNode", "cuGraphAddMemcpyNode",  # context, at
                       "cuGraphAddMemAllocNode", "cuGraphAddEventRecordNode"):  # output, value
            self.assertNotIn(absent, f)
        self.assertIn("{CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL, "
                      "offsetof(CUgraphNodeParams, extSemSignal.numExtSems), 2,\n"
                      "     {offsetof(CUgraphNodeParams, extSemSignal.extSemArray), "
                      "offsetof(CUgraphNodeParams, extSemSignal.paramsArray)},\n"
                      "     {sizeof(CUexternalSemaphore), "
                      "sizeof(CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS)}},", f)
        self.assertIn("    X(CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL) \\\n", f)  # accepted as given
        c = self.read("tests", "cgn_cases_ping.c")
        self.assertIn("CUexternalSemaphore *part0 = cgn_test_zeroed(env, 2 * sizeof *part0);", c)
        self.assertIn("part0[0] = cgn_test_sem(env, 1);", c)
        self.assertIn("part1[0].params.fence.value = UINT64_C(2);", c)

    def test_not_updatable_with_output(self):
        h = self.read("include", "cgn", "cgn_grab.h")
        for absent in ("cgn_grab_update", "CGN_GRAB_SET_", "cgn_grab_node_update",
                       "cgn_grab_exec_update", "CGN_GRAB_UPDATE_INIT"):
            self.assertNotIn(absent, h)
        for present in ("cgn_grab_desc", "CGN_GRAB_DESC_INIT", "cgn_graph_add_grab(",
                        "cgn_grab_node_get(", "cgn_grab_exec_get(", "Not updatable"):
            self.assertIn(present, h)
        self.assertIn("Output: chosen by the driver at add, ignored on input.", h)
        c = self.read("src", "cgn_grab.c")
        self.assertNotIn("cgn_grab_node_update", c)
        self.assertIn("#define CGN_GRAB_SET_ALL", c)  # private: staging still takes bits
        add = c[c.index("cgn_status cgn_graph_add_grab("):]
        add = add[:add.index("\n}\n")]
        self.assertLess(add.index("d.addr = 0;"), add.index("grab_check_rules(&d"))
        self.assertLess(add.index("cgn__txn_apply(&txn, &p, where);"),
                        add.index("d.addr = p.alloc.dptr;"))
        self.assertLess(add.index("d.addr = p.alloc.dptr;"), add.index("cgn__txn_commit("))
        r = self.read("src", "cgn_registry.c")
        raw = r[r.index("static CUresult cgn__grab_add_raw("):]
        raw = raw[:raw.index("\n}\n")]
        self.assertIn("CUgraphNodeParams *p) {", raw)
        self.assertIn("CUresult r = drv->cuGraphAddMemAllocNode(out, g, deps, num_deps, &a);",
                      raw)
        self.assertIn("if (r == CUDA_SUCCESS)\n        memcpy(&p->alloc, &a, sizeof a);", raw)
        self.assertIn("p->alloc.poolProps.allocType = 1;", c)
        t = self.read("tests", "cgn_cases_grab.c")
        self.assertIn('{"grab", case_grab_original, NULL, NULL, NULL, 0, NULL, 0, NULL},', t)
        self.assertNotIn("type_grab_update", t)
        self.assertIn("return type_grab_desc_equal(a_, b_) && a->addr == b->addr;", t)
        eq = t[t.index("static int type_grab_desc_equal("):]
        self.assertNotIn("addr", eq[:eq.index("\n}\n")])
        d = self.read("docs", "nodes.md")
        self.assertIn("Not updatable", d)

    @unittest.skipUnless(CUDA_INC and shutil.which("gcc"), "needs gcc and cuda.h")
    def test_sources_compile_and_the_registry_needs_every_enumerator(self):
        inc = [os.path.join(self.out, "include"), os.path.join(ROOT, "include"),
               os.path.join(ROOT, "runtime"), CUDA_INC]
        cmd = ["gcc", "-std=c11", "-fsyntax-only", "-Wall", "-Wextra", "-Werror",
               *("-I" + i for i in inc)]
        for node in ("fill", "tick", "launch", "copy", "grab", "ping"):
            r = subprocess.run(cmd + [os.path.join(self.out, "src", f"cgn_{node}.c")],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
        r = subprocess.run(cmd + [os.path.join(self.out, "src", "cgn_registry.c")],
                           capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("cgn_node_type and spec/ disagree", r.stderr)


if __name__ == "__main__":
    unittest.main()
