"""The field-type table: one entry per spec `type:`, saying everything the generator emits for
a field of that type. Adding a type (memcpy extents, host callbacks, events, child graphs) is
adding one entry here, never an `if` in the emitter.

Snippet placeholders, filled per field by emit.py:
  {name}  the field name          {bit}   its CGN_<NODE>_SET_<FIELD> macro
  {replaced} the bit whose presence in `changed` means the field was replaced: its own bit, or
          the bit of the field it follows (a follower always comes with its leader)
  {member} the CUgraphNodeParams union member (spec cuda.member)
  {cuda}  the field's `cuda:` name
  {args} / {args_bit}, {kernel} / {kernel_bit}  the node's args / kernel field and its bit
  {args_cuda} the args field's `cuda:` name
  {keep_if}  "" or " if (!(changed & <bit>))" with the bit of a field that edits this one (an
          argument-level update stages the argument block itself)
  {same}  (read) C condition: every field this one requires or follows is unchanged since `prev`
Variables in scope: build: d (const desc *), p (CUgraphNodeParams *), ctx (CUcontext);
stage: txn, d (desc *), u (const update *: NULL when adding), changed (uint64_t), p, where;
check: d (const desc *), changed, where; settle: d (const desc *), changed; exec_check: cur and
d (const desc *), ctx (the node's context, current), where; read: rd (cgn__reader *), p (const
CUgraphNodeParams *, from the typed getter), d (desc *, zeroed), prev (const desc *: the record
before a refresh; NULL when adopting), where.
Test values (spec `cases:`) are parsed by each type's `case` codec into C statements over `$t`
(the desc or update pointer) and a normalised value used to check replacements.

Members set by cgn (`internal`: a detected memory type, the owner of a cgn-owned copy) are in
the desc only: ignored on input (reset to zero whenever their field is replaced, before
staging), never in the update struct or a setter, reported by the node's get function.
Members of an `update_only` type (argument edits) are the opposite: in the update struct only,
never in the desc; the field's stage snippet applies them (through `u`), its setter appends
one (FieldType.setter), and test cases give them in `update:` alone.
`read` is the inverse of `build`, for adoption and refresh: what the driver's params say, never
an owner (what an adopted node points at is the caller's) unless a refresh finds the value it
guards unchanged.
A type whose stage creates references (a cgn-owned copy held by an internal owner) drops them
in `settle`, which runs after the owners are staged, whether staging succeeded or not: the
staged attachment then holds the only reference, and a rollback releases it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Optional

from .cfmt import Call, c_int
from .diag import Diagnostics
from .load import YMap, YNode, YScalar, YSeq


@dataclass(frozen=True)
class Member:
    """One C member a field contributes to the desc and update structs (and setter params)."""

    ctype: str   # "uint32_t", "cgn_owner *", "const cgn_arg *"
    name: str    # "{name}" or "num_{name}"
    zero: str    # the C value a follower is reset to
    doc: str = "{doc}"
    internal: bool = False  # set by cgn: desc only, ignored on input (see the module doc)
    update_only: bool = False  # in the update struct only (see the module doc)

    def decl(self, fname: str) -> str:
        n = self.name.format(name=fname)
        return self.ctype + ("" if self.ctype.endswith("*") else " ") + n


@dataclass(frozen=True)
class CaseValue:
    norm: object         # comparable normal form (replacement check)
    lines: tuple         # C statements over `$t` (the desc/update pointer)


@dataclass(frozen=True)
class FieldType:
    name: str
    cuda: str                                  # "required" or "forbidden"
    members: tuple
    role: str = "value"                        # "value", "owner", "kernel" or "args"
    build: tuple = ()                          # lines/Calls
    stage: tuple = ()
    check: tuple = ()
    equal: str = "a->{name} == b->{name}"
    rule_names: tuple = ("{name}",)            # identifiers a rule may use for the field
    default: Optional[Callable] = None         # (node, diags, what) -> (C initializer, norm)
    case: Optional[Callable] = None            # (node, name, diags, what) -> CaseValue
    zero_norm: object = 0
    test_helper: str = ""                      # C emitted once into a test file that needs it
    needs: tuple = ()                          # roles this type needs in the same node
    cuda_suffixes: tuple = ("",)               # CUDA members written: `cuda:` + each suffix
    cuda_siblings: tuple = ()                  # and these members of the struct holding
                                               # `cuda:` (a count beside its array)
    copied: bool = False                       # the desc points into a copy cgn made (besides
                                               # `storage` kinds): gets document its lifetime
    storage: bool = False                      # stages into the txn's storage block (one a
                                               # node type)
    settle: tuple = ()                         # after staging owners: drop what stage created
    changes_owners: bool = False               # setting it restages the owners (arg edits)
    add_only: bool = False                     # staged when a node is added only (it makes
                                               # driver objects): node types with
                                               # `updatable: false` only
    exec_check: tuple = ()                     # executable-update rule of the kind: cur (the
                                               # executable's desc), d (new), ctx, where
    owner_members: tuple = ()                  # members holding owners, staged when the field
                                               # is listed in `owners:`
    read: tuple = ()                           # params -> desc (adoption, refresh)
    setter: Optional[tuple] = None             # (params, body lines, doc): a setter of its own
    direct: str = ""                           # with a setter, what it does in a sentence:
                                               # also cgn_<node>_node_set_<name> and
                                               # cgn_<node>_exec_set_<name>, the update with that
                                               # one setter applied, without a struct to build
                                               # (an update loop's one-call form)
    edits: str = ""                            # role of the field whose value it edits
    reset: tuple = ()                          # what cgn_<node>_update_reset clears besides
                                               # `set` (over update->{name}...)
    case_apply: Optional[Callable] = None      # (edited field's norm, norm) -> norm or an error
    # Copied arrays (copied_arrays kinds): the CUDA members holding the arrays, each with its
    # element type (({cuda} / {cuda_dir} placeholders), and the count member beside them. The
    # fake driver's generated layouts (generated/tests/cgn_fake_nodes.h) copy them.
    arrays: tuple = ()
    array_count: str = ""
    # A struct of members narrower than 8 bytes (a dim3's three 32-bit sizes, at offsets 4 and 12
    # of a 16-byte word): an update copies its node type's descriptor in 8-byte words before
    # merging, since reads of such members from a copy made with 16-byte stores were not forwarded
    # on the H200's Intel host (+13 ns per new grid, design.md).
    narrow_members: bool = False
    # What an update that leaves the field alone does for it on a lean path (generated code,
    # design.md "lean paths"; an update of fields kept as given alone, with no transaction): None
    # when the type's stage may do work then (its node type gets no such path), () nothing, else
    # lines over `lean` (runtime.h cgn__lean) and `p` (the params) that may set `lean_ok = 0` to
    # leave the update to the transaction's path.
    lean_keep: Optional[tuple] = None
    # Whether the type's stage only checks the value (no copy, no owner, no transaction, no
    # driver call that changes anything): the lean path of an update of a field and its
    # followers (design.md "lean paths") runs it as it is.
    lean_stage: bool = False
    # For a field that follows another: when it holds no owner and stages nothing (a C condition
    # over the merged desc `d`, a value), and what its stage does then (lines over `d`). That
    # lean path takes an update only when such fields are empty; None: never.
    lean_empty: Optional[str] = None
    lean_empty_stage: tuple = ()
    # For the generated docs (generated/docs/nodes.md):
    doc_type: str = ""                         # how the C type reads; "" means `name`
    doc_errors: tuple = ()                     # (status, cause) the type's codecs can return
    doc_retains: str = ""                      # what cgn keeps for the field, if anything
    doc_read: str = "read from `{cuda}`"       # what adoption and refresh read into it
    # For the spec language reference (docs/spec.md, specdoc.py):
    doc: str = ""                              # what a field of this kind is, one sentence
    case_doc: str = ""                         # test-value syntax in `cases:`
    default_doc: str = ""                      # `default:` syntax ("" when default is None)

    @property
    def update_only(self) -> bool:
        return any(m.update_only for m in self.members)

    def cuda_written(self, cuda: str) -> list:
        """The CUDA members a field of this kind with `cuda:` = cuda writes."""
        parent = cuda.rpartition(".")[0]
        return [cuda + sfx for sfx in self.cuda_suffixes] + \
            [(parent + "." if parent else "") + sib for sib in self.cuda_siblings]


# ---- value codecs --------------------------------------------------------------------------

def _is_int(node: YNode) -> bool:
    return isinstance(node, YScalar) and isinstance(node.value, int) \
        and not isinstance(node.value, bool)


def _describe(node: YNode) -> str:
    return node.kind()


def _int_in(node, lo, hi, diags, what, ctype) -> Optional[int]:
    if not _is_int(node):
        diags.error(node.mark, f"{what}: expected an integer for {ctype}, got {_describe(node)}")
        return None
    if not lo <= node.value <= hi:
        diags.error(node.mark, f"{what}: {node.text} does not fit {ctype}")
        return None
    return node.value


def _int_default(ctype, lo, hi):
    def parse(node, diags, what):
        v = _int_in(node, lo, hi, diags, what, ctype)
        return None if v is None else (c_int(v, node.text), v)
    return parse


def _tags_text(tags) -> str:
    return " or ".join(f"\"{t}:N\"" for t, _ in tags)


def _tagged_index(node, tags, name, diags, what) -> Optional[CaseValue]:
    """"tag:N" for one of `tags` ((prefix, C function returning the value), ...)."""
    prefix = node.value.split(":", 1)[0]
    fn = dict(tags).get(prefix)
    if fn is None:
        diags.error(node.mark, f"{what}: expected {_tags_text(tags)}, got \"{node.value}\"")
        return None
    n = _tag_index(node, prefix, diags, what)
    if n is None:
        return None
    return CaseValue((prefix, n), (f"$t->{name} = {fn}(env, {n});",))


def _int_case(ctype, lo, hi, tags=()):
    """Integers; `tags` ((prefix, C function), ...): also "prefix:N" (e.g. buf:0 for pointers)."""
    def parse(node, name, diags, what):
        if tags and isinstance(node, YScalar) and isinstance(node.value, str):
            return _tagged_index(node, tags, name, diags, what)
        if tags and not _is_int(node):
            diags.error(node.mark, f"{what}: expected an integer or {_tags_text(tags)}, "
                                   f"got {_describe(node)}")
            return None
        v = _int_in(node, lo, hi, diags, what, ctype)
        if v is None:
            return None
        return CaseValue(v, (f"$t->{name} = {c_int(v, node.text)};",))
    return parse


def _tag_index(node: YScalar, tag: str, diags: Diagnostics, what: str) -> Optional[int]:
    m = re.fullmatch(re.escape(tag) + r":(0|[1-9][0-9]{0,5})", node.value)
    if not m:
        diags.error(node.mark, f"{what}: expected \"{tag}:N\" with N a small integer, "
                               f"got \"{node.value}\"")
        return None
    return int(m.group(1))


def _null_default(node, diags, what):
    if not (isinstance(node, YScalar) and node.value is None):
        diags.error(node.mark, f"{what}: only null can be the default of a handle")
        return None
    return ("NULL", None)


def _null_case(node, name, diags, what):
    if not (isinstance(node, YScalar) and node.value is None):
        diags.error(node.mark, f"{what}: test values of this type can only be null so far")
        return None
    return CaseValue(None, (f"$t->{name} = NULL;",))


def _handle_case(tags=(), named=None):
    """null, "tag:N" for `tags` ((prefix, C function), ...) or, with named = (prefix, C
    function), "prefix:NAME" (a test callback by name)."""
    def parse(node, name, diags, what):
        if isinstance(node, YScalar) and node.value is None:
            return CaseValue(None, (f"$t->{name} = NULL;",))
        forms = ([_tags_text(tags)] if tags else []) \
            + ([f"\"{named[0]}:NAME\""] if named else []) + ["null"]
        expected = " or ".join(forms)
        if not (isinstance(node, YScalar) and isinstance(node.value, str)):
            diags.error(node.mark, f"{what}: expected {expected}, got {_describe(node)}")
            return None
        if named and node.value.startswith(named[0] + ":"):
            if not re.fullmatch(re.escape(named[0]) + r":[A-Za-z_][A-Za-z0-9_]*", node.value):
                diags.error(node.mark, f"{what}: expected \"{named[0]}:NAME\" with NAME a C "
                                       f"identifier, got \"{node.value}\"")
                return None
            label = node.value.split(":", 1)[1]
            return CaseValue((named[0], label),
                             (f"$t->{name} = {named[1]}(env, \"{label}\");",))
        if tags and node.value.split(":", 1)[0] in dict(tags):
            return _tagged_index(node, tags, name, diags, what)
        diags.error(node.mark, f"{what}: expected {expected}, got \"{node.value}\"")
        return None
    return parse


def _bytes_case(node, name, diags, what):
    """[0xA1, ...] (bytes given by value; [] is a zero-length payload) or null."""
    if isinstance(node, YScalar) and node.value is None:
        return CaseValue((), (f"$t->{name} = NULL;", f"$t->{name}_size = 0;"))
    if not isinstance(node, YSeq):
        diags.error(node.mark, f"{what}: expected a list of byte values or null, "
                               f"got {_describe(node)}")
        return None
    vals = [_int_in(n, 0, 0xFF, diags, what, "a byte") for n in node.items]
    if any(v is None for v in vals):
        return None
    if not vals:  # a non-NULL pointer to zero bytes
        return CaseValue((), (f"$t->{name} = cgn_test_bytes(env, NULL, 0);",
                              f"$t->{name}_size = 0;"))
    init = ", ".join("0x%02x" % v for v in vals)
    lines = ("{", f"    static const unsigned char bytes[] = {{{init}}};",
             f"    $t->{name} = cgn_test_bytes(env, bytes, sizeof bytes);",
             f"    $t->{name}_size = sizeof bytes;", "}")
    return CaseValue(tuple(vals), lines)


def _owner_case(node, name, diags, what):
    if isinstance(node, YScalar) and node.value is None:
        return CaseValue(None, (f"$t->{name} = NULL;",))
    if not (isinstance(node, YScalar) and isinstance(node.value, str)):
        diags.error(node.mark, f"{what}: expected \"owner:N\" or null, got {_describe(node)}")
        return None
    n = _tag_index(node, "owner", diags, what)
    if n is None:
        return None
    return CaseValue(("owner", n), (f"$t->{name} = cgn_test_owner(env, {n});",))


def _kernel_case(node, name, diags, what):
    if not (isinstance(node, YScalar) and isinstance(node.value, str)
            and re.fullmatch(r"kernel:[A-Za-z_][A-Za-z0-9_]*", node.value)):
        shown = f"\"{node.value}\"" if isinstance(node, YScalar) else _describe(node)
        diags.error(node.mark, f"{what}: expected \"kernel:NAME\", got {shown}")
        return None
    kname = node.value.split(":", 1)[1]
    return CaseValue(("kernel", kname), (f"$t->{name} = cgn_test_kernel(env, \"{kname}\");",))


def _dim3_values(node, diags, what) -> Optional[tuple]:
    if not (isinstance(node, YSeq) and len(node.items) == 3):
        diags.error(node.mark, f"{what}: expected [x, y, z], got {_describe(node)}"
                    + (f" of {len(node.items)}" if isinstance(node, YSeq) else ""))
        return None
    vals = [_int_in(n, 0, 0xFFFFFFFF, diags, what, "uint32_t") for n in node.items]
    if any(v is None for v in vals):
        return None
    return tuple(vals)


def _dim3_default(node, diags, what):
    v = _dim3_values(node, diags, what)
    return None if v is None else ("{%d, %d, %d}" % v, v)


def _dim3_case(node, name, diags, what):
    v = _dim3_values(node, diags, what)
    if v is None:
        return None
    return CaseValue(v, ("$t->%s = CGN_DIM3(%d, %d, %d);" % ((name,) + v),))


def _arg_item(item, diags, what):
    """One argument: (norm, C call making its cgn_arg), or None after reporting."""
    if isinstance(item, YScalar) and isinstance(item.value, str) \
            and re.fullmatch(r"(owned-)?buf:.*", item.value):
        owned = item.value.startswith("owned-")
        n = _tag_index(item, "owned-buf" if owned else "buf", diags, what)
        if n is None:
            return None
        return ("buf", n, owned), f"cgn_test_arg_buf(env, {n}, {int(owned)})"
    if isinstance(item, YMap) and item.keys() == ["u32"]:
        v = _int_in(item.get("u32"), 0, 0xFFFFFFFF, diags, what, "uint32_t")
        if v is None:
            return None
        return ("u32", v), f"cgn_test_arg_u32(env, {c_int(v, item.get('u32').text)})"
    diags.error(item.mark, f"{what}: an argument is \"buf:N\", \"owned-buf:N\" or "
                           f"{{u32: V}}")
    return None


def _case_items(node, item_fn, diags, what):
    """Each item of a case's list through item_fn (-> (normal form, C call) or None after a
    diagnostic): (normal forms, calls), or None when any item failed (all are reported)."""
    norm, calls, ok = [], [], True
    for item in node.items:
        got = item_fn(item, diags, what)
        if got is None:
            ok = False
            continue
        norm.append(got[0])
        calls.append(got[1])
    return (norm, calls) if ok else None


def _args_case(node, name, diags, what):
    """["buf:N", "owned-buf:N", {u32: V}, ...] -> cgn_test_args slots."""
    if not isinstance(node, YSeq):
        diags.error(node.mark, f"{what}: expected a list of arguments, got {_describe(node)}")
        return None
    items = _case_items(node, _arg_item, diags, what)
    if items is None:
        return None
    norm, calls = items
    if not calls:
        return CaseValue((), (f"$t->{name} = NULL;", f"$t->num_{name} = 0;"))
    lines = ["{", f"    cgn_arg *slots = cgn_test_args(env, {len(calls)});"]
    lines += [f"    slots[{i}] = {c};" for i, c in enumerate(calls)]
    lines += [f"    $t->{name} = slots;", f"    $t->num_{name} = {len(calls)};", "}"]
    return CaseValue(tuple(norm), tuple(lines))


def _arg_edits_case(node, name, diags, what):
    """[[INDEX, ARG], ...] with ARG as in an args list ("buf:N", "owned-buf:N", {u32: V})."""
    if not isinstance(node, YSeq) or not node.items:
        diags.error(node.mark, f"{what}: expected a list of [index, argument] pairs, got "
                               f"{_describe(node)}")
        return None
    norm, lines, ok = [], ["{"], True
    for i, item in enumerate(node.items):
        if not (isinstance(item, YSeq) and len(item.items) == 2):
            diags.error(item.mark, f"{what}: an edit is [index, argument]")
            ok = False
            continue
        index = _int_in(item.items[0], 0, 0xFFFFFFFF, diags, what, "an argument index")
        arg = _arg_item(item.items[1], diags, what)
        if index is None or arg is None:
            ok = False
            continue
        norm.append((index, arg[0]))
        lines += [f"    cgn_arg a{i} = {arg[1]};",
                  f"    $t->{name}_edits.edit[{i}] = (cgn_arg_edit){{a{i}.value, a{i}.owner, "
                  f"{index}, (uint32_t)a{i}.size}};"]
    if not ok:
        return None
    if len(norm) > 8:
        diags.error(node.mark, f"{what}: at most 8 edits (CGN_MAX_ARG_EDITS)")
        return None
    lines += [f"    $t->{name}_edits.count = {len(norm)};", "}"]
    return CaseValue(tuple(norm), tuple(lines))


# Batch memory operations in test cases: the op names, their CUDA types, and whether they
# take an address and value (and of how many bits).
_MEM_OPS = {"write32": ("CU_STREAM_MEM_OP_WRITE_VALUE_32", 32),
            "write64": ("CU_STREAM_MEM_OP_WRITE_VALUE_64", 64),
            "wait32": ("CU_STREAM_MEM_OP_WAIT_VALUE_32", 32),
            "wait64": ("CU_STREAM_MEM_OP_WAIT_VALUE_64", 64),
            "flush": ("CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES", 0),
            "barrier": ("CU_STREAM_MEM_OP_BARRIER", 0)}


def _mem_op_item(item, diags, what):
    """{op: NAME, at: "buf:N", offset: K, value: V, flags: F} -> (norm, C call) or None."""
    keys = ("op", "at", "offset", "value", "flags")
    if not isinstance(item, YMap) or item.get("op") is None \
            or any(k not in keys for k in item.keys()):
        diags.error(item.mark, f"{what}: an operation is {{op: NAME, at: \"buf:N\", offset: K, "
                               f"value: V, flags: F}} (op one of {', '.join(_MEM_OPS)})")
        return None
    op = item.get("op")
    if not (isinstance(op, YScalar) and op.value in _MEM_OPS):
        diags.error(op.mark, f"{what}: op must be one of {', '.join(_MEM_OPS)}")
        return None
    ctype, bits = _MEM_OPS[op.value]
    at, buf = item.get("at"), -1
    if bits and not (isinstance(at, YScalar) and isinstance(at.value, str)):
        diags.error(item.mark, f"{what}: a {op.value} needs at: \"buf:N\"")
        return None
    if not bits and (at is not None or item.get("value") is not None
                     or item.get("offset") is not None):
        diags.error(item.mark, f"{what}: a {op.value} takes only flags")
        return None
    if bits:
        buf = _tag_index(at, "buf", diags, what)
        if buf is None:
            return None
    nums = {}
    for key, hi in (("offset", 0xFFFF), ("value", (1 << (bits or 32)) - 1),
                    ("flags", 0xFFFFFFFF)):
        node = item.get(key)
        nums[key] = 0 if node is None else _int_in(node, 0, hi, diags, what, f"the {key}")
        if nums[key] is None:
            return None
    norm = (op.value, buf, nums["offset"], nums["value"], nums["flags"])
    call = (f"cgn_test_mem_op(env, {ctype}, {buf}, {nums['offset']}, "
            f"UINT64_C({nums['value']}), {nums['flags']}u)")
    return norm, call


def _mem_ops_case(node, name, diags, what):
    """[{op: write32, at: "buf:N", value: V}, ...], {many: N} (N copies of a 32-bit write to
    buf:0), [] (a non-NULL pointer to none) or null."""
    if isinstance(node, YScalar) and node.value is None:
        return CaseValue(None, (f"$t->{name} = NULL;", f"$t->num_{name} = 0;"))
    if isinstance(node, YMap) and node.keys() == ["many"]:
        n = _int_in(node.get("many"), 0, 4096, diags, what, "an operation count")
        if n is None:
            return None
        one = ("write32", 0, 0, 0, 0)
        return CaseValue((one,) * n, (f"$t->{name} = cgn_test_mem_ops(env, {n});",
                                      f"$t->num_{name} = {n};"))
    if not isinstance(node, YSeq):
        diags.error(node.mark, f"{what}: expected a list of operations, {{many: N}} or null, "
                               f"got {_describe(node)}")
        return None
    items = _case_items(node, _mem_op_item, diags, what)
    if items is None:
        return None
    norm, calls = items
    lines = ["{", f"    CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, {len(calls)});"]
    lines += [f"    ops[{i}] = {c};" for i, c in enumerate(calls)]
    lines += [f"    $t->{name} = ops;", f"    $t->num_{name} = {len(calls)};", "}"]
    return CaseValue(tuple(norm), tuple(lines))


@dataclass(frozen=True)
class ArrayPart:
    """One of the parallel arrays of a copied_arrays kind: the desc member `{name}<suffix>`, an
    array of `ctype`, written to the CUDA member `cuda` (None: the field's `cuda:`; otherwise a
    sibling of it)."""

    suffix: str
    ctype: str
    cuda: Optional[str] = None


@dataclass(frozen=True)
class ItemKey:
    """A key of one element in test values: `{key: V}` sets `assign` (C, with {part0},
    {part1}... the parts' test arrays, {i} the index, {v} the value). `tag` ("sem"): V is
    "sem:N", its value `fn(env, N)`; otherwise an integer in [0, hi]."""

    key: str
    assign: str
    tag: str = ""
    fn: str = ""
    hi: int = 0xFFFFFFFFFFFFFFFF


def _array_item(item, keys, diags, what):
    """{key: V, ...} -> (norm, C statements with {i} and {partK}) or None."""
    names = ", ".join(k.key for k in keys)
    if not isinstance(item, YMap) or any(k not in [x.key for x in keys] for k in item.keys()):
        diags.error(item.mark, f"{what}: an element is a mapping of {names}")
        return None
    norm, stmts = [], []
    for k in keys:
        node = item.get(k.key)
        if node is None:
            norm.append(None)
            continue
        if k.tag:
            if not (isinstance(node, YScalar) and isinstance(node.value, str)):
                diags.error(node.mark, f"{what}: {k.key} is \"{k.tag}:N\"")
                return None
            v = _tag_index(node, k.tag, diags, what)
            if v is None:
                return None
            stmts.append(k.assign.replace("{v}", f"{k.fn}(env, {v})"))
        else:
            v = _int_in(node, 0, k.hi, diags, what, f"the {k.key}")
            if v is None:
                return None
            stmts.append(k.assign.replace("{v}", f"UINT64_C({v})"))
        norm.append(v)
    return tuple(norm), stmts


def _arrays_case(parts, keys, many):
    """Test values of a copied_arrays kind: a list of elements, {many: N} (N copies of `many`,
    an element's (norm, statements)), [] (non-NULL arrays of none) or null."""
    def parse(node, name, diags, what):
        members = [f"$t->{name}{p.suffix}" for p in parts]
        if isinstance(node, YScalar) and node.value is None:
            return CaseValue(None, tuple(f"{m} = NULL;" for m in members)
                             + (f"$t->num_{name} = 0;",))
        if isinstance(node, YMap) and node.keys() == ["many"]:
            n = _int_in(node.get("many"), 0, 4096, diags, what, "an element count")
            if n is None:
                return None
            got = [many] * n
        elif isinstance(node, YSeq):
            got = [_array_item(item, keys, diags, what) for item in node.items]
            if any(g is None for g in got):
                return None
        else:
            diags.error(node.mark, f"{what}: expected a list of elements, {{many: N}} or null, "
                                   f"got {_describe(node)}")
            return None
        norm = [g[0] for g in got]
        body = ["    " + st.replace("{i}", str(i)) for i, g in enumerate(got) for st in g[1]]
        n = len(got)
        lines = ["{"]
        for k, p in enumerate(parts):
            lines.append(f"    {p.ctype} *part{k} = cgn_test_zeroed(env, {n} * sizeof *part{k});")
        lines += [b.format(**{f"part{k}": f"part{k}" for k in range(len(parts))})
                  for b in body]
        lines += [f"    {m} = part{k};" for k, m in enumerate(members)]
        lines += [f"    $t->num_{name} = {n};", "}"]
        return CaseValue(tuple(norm), tuple(lines))
    return parse


def copied_arrays(name, parts, count, max_macro, noun, keys, many, handles=False, doc="",
                  doc_type="", case_doc="", elem_errors=()):
    """A field kind of parallel arrays sharing one count (CUDA's `count` sibling of the field's
    `cuda:`), checked (1 to `max_macro` elements, `noun` naming one in messages, no array
    NULL; `handles`: part 0 holds handles, none NULL) and copied into cgn's storage block, so the caller's arrays may be
    freed at once. No C of its own: runtime/codecs.c's cgn__*_arrays do the work."""
    n = len(parts)
    src = ", ".join(f"d->{{name}}{p.suffix}" for p in parts)
    sizes = ", ".join(f"sizeof *d->{{name}}{p.suffix}" for p in parts)
    cuda_of = [("{cuda}" if p.cuda is None else "{cuda_dir}" + p.cuda) for p in parts]
    check = ["if (changed & {replaced}) {{",
             f"    const void *const parts_[] = {{{{{src}}}}};",
             Call("    cgn_status st = cgn__check_arrays(",
                  ("parts_", str(n), "d->num_{name}", max_macro, f'"{max_macro}"', '"{name}"',
                   f'"{noun}"', "where"), ");")]
    if handles:
        check += ["    if (st == CGN_OK)",
                  Call("        st = cgn__check_handles(",
                       ("d->{name}", "sizeof *d->{name}", "d->num_{name}", '"{name}"', "where"),
                       ");")]
    check += ["    if (st != CGN_OK)", "        return st;", "}}"]
    assign = [f"    d->{{name}}{p.suffix} = out_[{k}];" for k, p in enumerate(parts)]
    stage = ["if (changed & {replaced}) {{",
             f"    const void *const src_[] = {{{{{src}}}}};",
             f"    const size_t size_[] = {{{{{sizes}}}}};",
             f"    void *out_[{n}] = {{{{NULL}}}}; /* gcc 13 -O3 cannot see that a success sets it */",
             Call("    cgn_status st = cgn__stage_arrays(",
                  ("txn", "d->num_{name}", str(n), "src_", "size_", "out_", '"{name}"', "where"),
                  ");"),
             "    if (st != CGN_OK)",
             "        return st;"] + assign + ["}}"]
    build = tuple(f"p->{{member}}.{c} = ({p.ctype} *)(uintptr_t)d->{{name}}{p.suffix};"
                  for c, p in zip(cuda_of, parts)) + \
        (f"p->{{member}}.{{cuda_dir}}{count} = d->num_{{name}};",)
    read = ["{{",
            "    const void *const src_[] = {{"
            + ", ".join(f"p->{{member}}.{c}" for c in cuda_of) + "}};",
            f"    const size_t size_[] = {{{{{sizes}}}}};",
            f"    void *out_[{n}] = {{{{NULL}}}};",
            Call("    cgn_status st = cgn__read_arrays(",
                 ("rd", f"p->{{member}}.{{cuda_dir}}{count}", str(n), "src_", "size_", "out_"),
                 ");"),
            "    if (st != CGN_OK)",
            "        return st;"] + assign + [
            f"    d->num_{{name}} = out_[0] ? (uint32_t)p->{{member}}.{{cuda_dir}}{count} : 0;",
            "}}"]
    equal = "a->num_{name} == b->num_{name} && (a->num_{name} == 0 || (" + " && ".join(
        f"memcmp(a->{{name}}{p.suffix}, b->{{name}}{p.suffix}, "
        f"a->num_{{name}} * sizeof *a->{{name}}{p.suffix}) == 0" for p in parts) + "))"
    members = tuple(Member(f"const {p.ctype} *", "{name}" + p.suffix, "NULL",
                           "{doc}" if k == 0 else f"Per element of {{name}}: {p.ctype}.")
                    for k, p in enumerate(parts)) + \
        (Member("uint32_t", "num_{name}", "0", f"Number of elements of each, 1 to {max_macro}."),)
    return FieldType(
        name=name, cuda="required", storage=True, members=members,
        arrays=tuple((c, p.ctype) for c, p in zip(cuda_of, parts)),
        array_count="{cuda_dir}" + count,
        check=tuple(check), stage=tuple(stage), build=build, read=tuple(read),
        cuda_siblings=tuple(p.cuda for p in parts if p.cuda) + (count,),
        equal=equal, rule_names=tuple("{name}" + p.suffix for p in parts) + ("num_{name}",),
        case=_arrays_case(parts, keys, many), zero_norm=None,
        doc_type=doc_type or " + ".join(f"const {p.ctype} *" for p in parts)
        + " + uint32_t (copied by cgn)",
        doc_read="copied into cgn storage from `{cuda}` and its siblings (the driver's arrays)",
        doc_errors=(("CGN_ERROR_INVALID_ARGUMENT", "an array is NULL"),
                    ("CGN_ERROR_INVALID_VALUE", "no element" + (", or a NULL handle"
                                                                if handles else "")),
                    ("CGN_ERROR_OUT_OF_RANGE", f"more than {max_macro} elements"),
                    ("CGN_ERROR_OUT_OF_MEMORY", "no host memory for the copy")) + elem_errors,
        doc_retains="cgn's copy of the arrays (one per version, reused by the next update once "
                    "no graph or executable holds it)",
        doc=doc, case_doc=case_doc,
    )


# Element keys of the external semaphore kinds' test values (signal and wait params share them).
_SEM_KEYS = (ItemKey("sem", "{part0}[{i}] = {v};", tag="sem", fn="cgn_test_sem"),
             ItemKey("value", "{part1}[{i}].params.fence.value = {v};"),
             ItemKey("flags", "{part1}[{i}].flags = (unsigned){v};", hi=0xFFFFFFFF))


def _sem_kind(name, params, noun):
    return copied_arrays(
        name, (ArrayPart("", "CUexternalSemaphore"), ArrayPart("_params", params, "paramsArray")),
        "numExtSems", "CGN_MAX_EXT_SEMS", "semaphore", _SEM_KEYS,
        ((0, None, None), ("{part0}[{i}] = cgn_test_sem(env, 0);",)), handles=True,
        doc=f"External semaphores to {noun} (`const CUexternalSemaphore *<name>`, "
            f"`const {params} *<name>_params` and `num_<name>`, 1 to CGN_MAX_EXT_SEMS), "
            f"checked (no NULL semaphore) and copied into cgn storage, so the caller's arrays "
            f"may be freed at once; written to `<cuda>` and the `paramsArray` and `numExtSems` "
            f"beside it. A `copied_arrays` kind (fieldtypes.py): at most one storage field a "
            f"node type.",
        case_doc="a list of `{sem: \"sem:N\", value: V, flags: F}` (test semaphore N, its "
                 "fence value, the params' flags; omitted numbers are 0), `{many: N}` (N "
                 "times sem:0), `[]` (none) or null")


def _apply_arg_edits(args_norm, edits_norm):
    """The argument list the edits make of args_norm, or an error text."""
    out = list(args_norm)
    for index, arg in edits_norm:
        if index >= len(out):
            return f"edits argument {index} of {len(out)}"
        out[index] = arg
    return tuple(out)


# ---- the table -----------------------------------------------------------------------------

def _scalar(ctype: str, lo: int, hi: int, tags=(), doc="", case_doc="") -> FieldType:
    return FieldType(
        name=ctype, cuda="required",
        members=(Member(ctype, "{name}", "0"),),
        build=("p->{member}.{cuda} = d->{name};",),
        read=("d->{name} = p->{member}.{cuda};",),
        default=_int_default(ctype, lo, hi),
        case=_int_case(ctype, lo, hi, tags),
        doc=doc, case_doc=case_doc or f"an integer in [{lo}, {hi}]",
        default_doc=f"an integer in [{lo}, {hi}]",
    )


# The stage of a handle the driver dereferences (or a host function a CUDA thread calls): a
# value whose address is not mapped memory is refused before the driver sees it.
_PROBED_HANDLE_STAGE = (
    "if ((changed & {bit}) && d->{name} != NULL) {{",
    "    cgn_status st =",
    "        cgn__check_raw_handle((const void *)(uintptr_t)d->{name}, \"{name}\", where);",
    "    if (st != CGN_OK)",
    "        return st;",
    "}}",
)
_PROBED_DOC = (" A value that is not even mapped memory (a garbage value, a cgn handle) is "
               "refused with CGN_ERROR_INVALID_VALUE before the driver sees it; a destroyed "
               "one whose memory is still mapped is not seen.")


def _handle(spec_name: str, ctype: str, case=_null_case, build=None, doc_type="", doc="",
            case_doc="null (no other test value yet)", probed: bool = False) -> FieldType:
    return FieldType(
        name=spec_name, cuda="required",
        members=(Member(ctype, "{name}", "NULL"),),
        build=build or ("p->{member}.{cuda} = d->{name};",),
        read=("d->{name} = p->{member}.{cuda};",),
        stage=_PROBED_HANDLE_STAGE if probed else (), lean_stage=probed,
        default=_null_default, case=case, zero_norm=None, doc_type=doc_type,
        doc=doc + (_PROBED_DOC if probed else ""), case_doc=case_doc, default_doc="null",
    )


_U32 = (0, 0xFFFFFFFF)
_U64 = (0, 0xFFFFFFFFFFFFFFFF)

_ARGS_EQUAL = """\
/* Same count and, per argument, same size, same bytes and same owner. */
static int args_equal(const cgn_arg *a, uint32_t na, const cgn_arg *b, uint32_t nb) {
    if (na != nb)
        return 0;
    for (uint32_t i = 0; i < na; i++) {
        if (a[i].size != b[i].size || a[i].owner != b[i].owner)
            return 0;
        if (a[i].size != 0 && memcmp(a[i].value, b[i].value, a[i].size) != 0)
            return 0;
    }
    return 1;
}
"""

def _cond_handle_case(node, name, diags, what):
    """{default: V, assign: 0 or 1}: the handle's default value and whether each launch
    assigns it."""
    if not isinstance(node, YMap):
        diags.error(node.mark, f"{what}: expected {{default: V, assign: 0 or 1}}, got "
                               f"{_describe(node)}")
        return None
    vals = {}
    for key, lo, hi in (("default", 0, 0xFFFFFFFF), ("assign", 0, 1)):
        item = node.get(key)
        if item is None:
            diags.error(node.mark, f"{what}: missing '{key}'")
            return None
        v = _int_in(item, lo, hi, diags, what + "." + key, "uint32_t")
        if v is None:
            return None
        vals[key] = v
    return CaseValue((vals["default"], vals["assign"]),
                     (f"$t->{name}_default = {vals['default']}u;",
                      f"$t->{name}_assign = {vals['assign']}u;"))


_BYTES_EQUAL = """\
/* Same size and same bytes (a node's get returns cgn's copy, not the caller's pointer). */
static int bytes_equal(const void *a, size_t na, const void *b, size_t nb) {
    return na == nb && (na == 0 || memcmp(a, b, na) == 0);
}
"""

FIELD_TYPES = {t.name: t for t in (
    _scalar("uint32_t", *_U32, doc="An unsigned 32-bit integer, written to its CUDA member as "
                                   "is."),
    _scalar("int32_t", -0x80000000, 0x7FFFFFFF, doc="A signed 32-bit integer, written to its "
                                                    "CUDA member as is."),
    _scalar("uint64_t", *_U64, doc="An unsigned 64-bit integer, written to its CUDA member as "
                                   "is."),
    _scalar("size_t", *_U64, doc="A size or count, written to its CUDA member as is."),
    _scalar("CUdeviceptr", *_U64, tags=(("buf", "cgn_test_buf"),
                                        ("galloc", "cgn_test_graph_alloc")),
            doc="A device pointer, written to its CUDA member as is (no memory-type detection: "
                "see `address`).",
            case_doc="an integer, \"buf:N\" (the device address of test buffer N) or "
                     "\"galloc:N\" (test graph allocation N: memory a graph allocation node "
                     "allocated, for free nodes)"),
    _handle("CUevent", "CUevent", case=_handle_case(tags=(("event", "cgn_test_event"),)),
            doc="A CUDA event handle.",
            case_doc="null, or \"event:N\" (test event N)", probed=True),
    _handle("CUgraph", "CUgraph", doc="A raw CUDA graph handle (a cgn child graph uses the "
                                      "`graph` kind).", probed=True),
    _handle("CUhostFn", "CUhostFn", case=_handle_case(named=("callback", "cgn_test_callback")),
            doc="A host function pointer.",
            case_doc="null, or \"callback:NAME\" (the test callback NAME, a C identifier)",
            probed=True),
    # p is zeroed, so writing only a non-NULL pointer changes nothing, and lets two pointer
    # fields share one CUDA member (a host node's userData: user_data or payload) when a rule
    # keeps at most one of them non-NULL.
    _handle("void_ptr", "void *", case=_handle_case(tags=(("host", "cgn_test_host_ptr"),)),
            build=("if (d->{name} != NULL)", "    p->{member}.{cuda} = d->{name};"),
            doc_type="void *",
            doc="A host pointer the caller keeps alive. Only a non-NULL value is written, so "
                "two `void_ptr` fields may share one CUDA member when a rule keeps at most one "
                "of them non-NULL.",
            case_doc="null, or \"host:N\" (test host region N)"),
    # A CUDA array operand of a copy: writes the operand's memory type (CU_MEMORYTYPE_ARRAY) and
    # its <cuda>Array member only when set, so it can share an operand with an `address` field.
    FieldType(
        name="CUarray", cuda="required",
        members=(Member("CUarray", "{name}", "NULL"),),
        build=("if (d->{name} != NULL) {{",
               "    p->{member}.{cuda}MemoryType = CU_MEMORYTYPE_ARRAY;",
               "    p->{member}.{cuda}Array = d->{name};",
               "}}"),
        read=("if (p->{member}.{cuda}MemoryType == CU_MEMORYTYPE_ARRAY)",
              "    d->{name} = p->{member}.{cuda}Array;"),
        cuda_suffixes=("MemoryType", "Array"),
        stage=_PROBED_HANDLE_STAGE, lean_stage=True,
        default=_null_default, case=_handle_case(tags=(("array", "cgn_test_array"),)),
        zero_norm=None, doc_type="CUarray",
        doc_read="read from `{cuda}Array` when `{cuda}MemoryType` is CU_MEMORYTYPE_ARRAY, else "
                 "NULL",
        doc="A CUDA array operand (`CUarray`). Only a non-NULL value is written: "
            "`<cuda>MemoryType` = CU_MEMORYTYPE_ARRAY and `<cuda>Array`; so an `address` field "
            "may share the operand when a rule keeps exactly one of them set." + _PROBED_DOC,
        case_doc="null, or \"array:N\" (test array N)",
        default_doc="null",
    ),
    FieldType(
        name="owner", cuda="forbidden", role="owner",
        members=(Member("cgn_owner *", "{name}", "NULL"),),
        case=_owner_case, zero_norm=None, owner_members=("{name}",), doc_type="cgn_owner *",
        lean_empty="d.{name} == NULL",
        doc_retains="retained while any graph, clone or executable may use that version",
        read=(Call("if (", ("prev != NULL", "{same}"), ")", " && "),
              "    d->{name} = prev->{name};"),
        doc_read="NULL: what an adopted node points at stays the caller's (a refresh keeps the "
                 "owner while the value it guards is unchanged)",
        doc="A `cgn_owner` each version of the node retains while a graph, clone or executable "
            "may use it; not a driver parameter. Usually `follows` the pointer it guards; "
            "must be listed in `owners:`.",
        case_doc="null, or \"owner:N\" (the owner of test buffer N)",
    ),
    # A CUdeviceptr-typed address of device or host memory. Its memory type is asked of the
    # driver when the field is set (add, or an update that replaces it) and kept in the desc, so
    # an update of anything else makes no query.
    FieldType(
        name="address", cuda="required",
        members=(Member("CUdeviceptr", "{name}", "0"),
                 Member("CUmemorytype", "{name}_memory_type", "(CUmemorytype)0",
                        "Memory type of {name} as cgn detected it: CU_MEMORYTYPE_DEVICE "
                        "(device or managed) or CU_MEMORYTYPE_HOST; 0 while {name} is 0.",
                        internal=True)),
        stage=("if ((changed & {replaced}) && d->{name} != 0) {{",
               Call("    cgn_status st = cgn__detect_memory_type(",
                    ("txn", "d->{name}", "&d->{name}_memory_type", '"{name}"', "where"), ");"),
               "    if (st != CGN_OK)",
               "        return st;",
               "}}"),
        # 0 is no address (memory type 0, nothing written), so an `address` and a `CUarray`
        # field may share one operand's members when a rule keeps exactly one of them set.
        build=("if (d->{name} != 0) {{",
               "    p->{member}.{cuda}MemoryType = d->{name}_memory_type;",
               "    if (d->{name}_memory_type == CU_MEMORYTYPE_HOST)",
               "        p->{member}.{cuda}Host = (void *)(uintptr_t)d->{name};",
               "    else",
               "        p->{member}.{cuda}Device = d->{name};",
               "}}"),
        default=_int_default("CUdeviceptr", *_U64),
        case=_int_case("CUdeviceptr", *_U64,
                       (("buf", "cgn_test_buf"), ("host", "cgn_test_host"))),
        cuda_suffixes=("MemoryType", "Host", "Device"),
        rule_names=("{name}", "{name}_memory_type"),
        read=("d->{name}_memory_type = p->{member}.{cuda}MemoryType;",
              "if (d->{name}_memory_type == CU_MEMORYTYPE_HOST)",
              "    d->{name} = (CUdeviceptr)(uintptr_t)p->{member}.{cuda}Host;",
              "else if (d->{name}_memory_type == CU_MEMORYTYPE_DEVICE)",
              "    d->{name} = p->{member}.{cuda}Device;",
              "else",
              "    d->{name}_memory_type = (CUmemorytype)0; /* an array: not this field's */"),
        doc_read="read from `{cuda}{{MemoryType,Host,Device}}` (host or device memory; 0 for "
                 "another memory type)",
        doc_type="CUdeviceptr (device or host memory)",
        doc_errors=(("CGN_ERROR_DRIVER", "cuPointerGetAttribute failed with anything but "
                     "CUDA_ERROR_INVALID_VALUE (which means pageable host memory)"),
                    ("CGN_ERROR_NOT_SUPPORTED", "the address is in memory of another type "
                     "(an array)")),
        doc="An address of device or host memory. Its memory type is asked of the driver when "
            "the field is set and kept in the internal member `<name>_memory_type`; the build "
            "writes `<cuda>MemoryType` and `<cuda>Host` or `<cuda>Device` (memcpy operands). "
            "0 is no address: no memory type is asked and nothing is written, so a `CUarray` "
            "field may share the operand when a rule keeps exactly one of them set.",
        case_doc="an integer, \"buf:N\" (test device buffer N) or \"host:N\" (test host "
                 "region N)",
        default_doc="an integer in [0, 18446744073709551615]",
    ),
    # Bytes cgn copies: the copy is a cgn owner (release = free) that the version's attachment
    # retains, so it lives exactly as long as a graph, clone, executable or launch may use it.
    FieldType(
        name="bytes", cuda="required", copied=True,
        lean_empty="d.{name}_size == 0",  # no copy, no owner, NULL (cgn__stage_bytes)
        lean_empty_stage=("d.{name} = NULL;",),
        members=(Member("const void *", "{name}", "NULL"),
                 Member("size_t", "{name}_size", "0",
                        "Bytes in {name}; with 0 the driver gets NULL."),
                 Member("cgn_owner *", "{name}_owner", "NULL",
                        "Owner of cgn's copy of {name}, held by the node's attachment.",
                        internal=True)),
        stage=("if (changed & {replaced}) {{",
               Call("    cgn_status st = cgn__stage_bytes(",
                    ("d->{name}", "d->{name}_size", "&d->{name}", "&d->{name}_owner",
                     '"{name}"', "where"), ");"),
               "    if (st != CGN_OK)",
               "        return st;",
               "}}"),
        settle=("if (changed & {replaced})",
                "    cgn__release_staged_copy(d->{name}_owner);"),
        build=("if (d->{name} != NULL)",
               "    p->{member}.{cuda} = (void *)(uintptr_t)d->{name};"),
        equal="bytes_equal(a->{name}, a->{name}_size, b->{name}, b->{name}_size)",
        test_helper=_BYTES_EQUAL,
        rule_names=("{name}", "{name}_size"),
        owner_members=("{name}_owner",),
        case=_bytes_case, zero_norm=(),
        doc_read="NULL: the driver's pointer is read into the field sharing `{cuda}`",
        doc_type="const void * + size_t (copied by cgn)",
        doc_errors=(("CGN_ERROR_OUT_OF_MEMORY", "no host memory for the copy"),),
        doc_retains="cgn's copy of the bytes (freed once no graph, clone, executable or "
                    "launch can use that version)",
        doc="Bytes cgn copies when the field is set (pointer plus `<name>_size`); the copy "
            "lives as long as a graph, clone, executable or launch may use that version, so "
            "the caller's buffer may be freed at once. Must be listed in `owners:`.",
        case_doc="a list of byte values (`[0xA1, 0xB2]`; `[]` is a non-NULL pointer to zero "
                 "bytes), or null",
    ),
    # A cgn graph the node embeds a copy of. The child-graph codec checks it (alive, another
    # hierarchy) and prepares cgn's records of the copy before the mutation (runtime/child.c).
    FieldType(
        name="graph", cuda="required",
        members=(Member("cgn_graph *", "{name}", "NULL"),),
        stage=("if (changed & {replaced}) {{",
               Call("    cgn_status st = cgn__stage_child_graph(",
                    ("txn", "d->{name}", "&p->{member}.{cuda}", "where"), ");"),
               "    if (st != CGN_OK)",
               "        return st;",
               "}}"),
        default=_null_default,
        case=_handle_case(tags=(("graph", "cgn_test_graph"),)), zero_norm=None,
        doc_read="NULL (there is no source graph): the embedded graph is adopted with the node "
                 "(cgn_child_graph_node_embedded)",
        doc_type="cgn_graph *",
        doc_errors=(("CGN_ERROR_INVALID_VALUE", "the graph is NULL"),
                    ("CGN_ERROR_SAME_HIERARCHY", "the graph belongs to the destination's "
                     "hierarchy (the node's own graph, its root, or a graph embedded in it)"),
                    ("CGN_ERROR_DESTROYED", "the graph is an embedding that was replaced or "
                     "whose child node was destroyed"),
                    ("CGN_ERROR_OUT_OF_MEMORY", "no host memory for cgn's records of the copy")),
        doc_retains="nothing itself: CUDA copies the source's owner references into the "
                    "embedded copy, which keeps them while it or an executable of it lives",
        doc="A cgn graph the node embeds CUDA's copy of (child-graph nodes); checked and "
            "recorded by runtime/child.c.",
        case_doc="null, or \"graph:N\" (test graph N)",
        default_doc="null",
    ),
    # A conditional node's handle: created by cgn (cuGraphConditionalHandleCreate) when the
    # node is added, from the default value and the assign flag; the node owns it.
    FieldType(
        name="cond_handle", cuda="required", add_only=True,
        members=(Member("CUgraphConditionalHandle", "{name}", "0",
                        "The handle cgn created for the node; a kernel sets the condition "
                        "through it (cudaGraphSetConditional).", internal=True),
                 Member("uint32_t", "{name}_default", "0",
                        "Value of the condition at the start of each launch when "
                        "{name}_assign is 1."),
                 Member("uint32_t", "{name}_assign", "0",
                        "1: each launch starts with {name}_default "
                        "(CU_GRAPH_COND_ASSIGN_DEFAULT); 0: nothing is assigned at launch "
                        "(a kernel must set the condition before the node reads it).")),
        stage=("if (u == NULL) {{",
               Call("    cgn_status st = cgn__stage_cond_handle(",
                    ("txn", "d->{name}_default", "d->{name}_assign", "&d->{name}", "where"),
                    ");"),
               "    if (st != CGN_OK)",
               "        return st;",
               "}}"),
        build=("p->{member}.{cuda} = d->{name};",),
        read=("d->{name} = p->{member}.{cuda};",),
        equal="a->{name}_default == b->{name}_default && a->{name}_assign == b->{name}_assign",
        rule_names=("{name}_default", "{name}_assign"),
        case=_cond_handle_case, zero_norm=(0, 0),
        doc_type="uint32_t default + uint32_t assign (+ the handle cgn creates)",
        doc_errors=(("CGN_ERROR_DRIVER_TOO_OLD", "the driver is older than 12.3 (no "
                     "cuGraphConditionalHandleCreate, no cuGraphAddNode)"),
                    ("CGN_ERROR_DRIVER", "cuGraphConditionalHandleCreate failed")),
        doc_retains="nothing: CUDA keeps the handle with the graph",
        doc_read="the handle from `{cuda}` (default and assign flag cannot be read back)",
        doc="A conditional node's handle: the desc gives `<name>_default` and "
            "`<name>_assign` (0 or 1: CU_GRAPH_COND_ASSIGN_DEFAULT), cgn creates the handle "
            "with cuGraphConditionalHandleCreate in the node's graph and context when the node "
            "is added (12.3+), keeps it in the internal member `<name>` and writes it to "
            "`<cuda>`. Adding only (node types with `updatable: false`).",
        case_doc="`{default: V, assign: 0 or 1}`",
    ),
    # The bodies of a conditional node: the driver creates them at add (phGraph_out, beside
    # the count); cgn records each as an embedded cgn graph (runtime/conditional.c).
    FieldType(
        name="cond_bodies", cuda="required", add_only=True,
        members=(Member("uint32_t", "{name}", "0"),),
        cuda_siblings=("phGraph_out",),
        stage=("if (u == NULL) {{",
               Call("    cgn_status st = cgn__stage_cond_bodies(",
                    ("txn", "d->{name}", "&p->{member}.phGraph_out", "where"), ");"),
               "    if (st != CGN_OK)",
               "        return st;",
               "}}"),
        build=("p->{member}.{cuda} = d->{name};",),
        read=("d->{name} = p->{member}.{cuda};",),
        default=_int_default("uint32_t", *_U32),
        case=_int_case("uint32_t", *_U32),
        doc_type="uint32_t",
        doc_errors=(("CGN_ERROR_OUT_OF_MEMORY", "no host memory for the bodies' records"),),
        doc_retains="nothing: the bodies belong to the node (CUDA destroys them with it)",
        doc="The number of body graphs of a conditional node, written to `<cuda>`; the driver "
            "creates the bodies when the node is added and returns them in the sibling "
            "`phGraph_out`, which cgn records as embedded cgn graphs "
            "(`cgn_conditional_node_body`). Adding only (node types with `updatable: false`).",
        case_doc="an integer in [0, 4294967295]",
        default_doc="an integer in [0, 4294967295]",
    ),
    FieldType(
        name="dim3", cuda="required",
        members=(Member("cgn_dim3", "{name}", "CGN_DIM3(0, 0, 0)"),),
        build=("p->{member}.{cuda}X = d->{name}.x;",
               "p->{member}.{cuda}Y = d->{name}.y;",
               "p->{member}.{cuda}Z = d->{name}.z;"),
        equal="a->{name}.x == b->{name}.x && a->{name}.y == b->{name}.y && "
              "a->{name}.z == b->{name}.z",
        default=_dim3_default, case=_dim3_case, zero_norm=(0, 0, 0),
        cuda_suffixes=("X", "Y", "Z"), narrow_members=True,
        read=("d->{name}.x = p->{member}.{cuda}X;",
              "d->{name}.y = p->{member}.{cuda}Y;",
              "d->{name}.z = p->{member}.{cuda}Z;"),
        doc_read="read from `{cuda}{{X,Y,Z}}`",
        doc="Three unsigned 32-bit sizes (`cgn_dim3`), written to `<cuda>X`, `<cuda>Y` and "
            "`<cuda>Z` (grid and block dimensions).",
        case_doc="`[x, y, z]`, three integers in [0, 4294967295]",
        default_doc="`[x, y, z]`, three integers in [0, 4294967295]",
    ),
    FieldType(
        name="kernel", cuda="forbidden", role="kernel", needs=("args",),
        members=(Member("cgn_kernel", "{name}", "CGN_FUNCTION(NULL)"),),
        build=("cgn__set_kernel_handle(&p->{member}, d->{name});",),
        read=("d->{name} = cgn__read_kernel_handle(&p->{member}, prev ? &prev->{name} : NULL);",),
        doc_read="read from `func`, else `kern` (the driver uses kern only when func is NULL); a "
                 "refresh keeps a CUkernel the driver reports as its CUfunction",
        equal="a->{name}.function == b->{name}.function && a->{name}.kernel == b->{name}.kernel",
        case=_kernel_case, zero_norm=None, doc_type="cgn_kernel",
        doc_errors=(("CGN_ERROR_INVALID_VALUE", "the kernel names neither or both of a "
                     "CUfunction and a CUkernel"),),
        doc="The kernel to launch (`cgn_kernel`: a CUfunction or a CUkernel), written to "
            "`func` or `kern`; takes no `cuda:`. Needs an `args` field in the same node type; "
            "at most one a node type.",
        case_doc="\"kernel:NAME\" (the test kernel NAME)",
    ),
    FieldType(
        name="args", cuda="required", role="args", needs=("kernel",), storage=True,
        # Kept: the current block's kernelParams (none for adopted arguments cgn could not copy,
        # which the transaction's path refuses with its message).
        lean_keep=("if (!cgn__keep_kernel_args_lean(lean.storage, &p.{member}.{cuda}))",
                   "    lean_ok = 0;"),
        members=(Member("const cgn_arg *", "{name}", "NULL"),
                 Member("uint32_t", "num_{name}", "0", "Number of entries in {name}.")),
        # Checks the kernel handle and the arguments (against the kernel where the driver can
        # tell) and copies them into the txn's storage block: d->{name} then points into it.
        stage=("if (changed & ({kernel_bit} | {bit})) {{",
               Call("    cgn_status st = cgn__stage_kernel_args(",
                    ("txn", "d->{kernel}", "d->{name}", "d->num_{name}", "&d->{name}",
                     "&p->{member}.{cuda}", "where"), ");"),
               "    if (st != CGN_OK)",
               "        return st;",
               "}} else{keep_if} {{",
               "    cgn_status st = cgn__keep_kernel_args(txn, &p->{member}.{cuda}, where);",
               "    if (st != CGN_OK)",
               "        return st;",
               "}}"),
        # Copied out of the driver's block (kernelParams, or a buffer packed through `extra`)
        # with the kernel's parameter sizes and offsets, 12.4+.
        read=("{{",
              Call("    cgn_status st = cgn__read_kernel_args(",
                   ("rd", "d->{kernel}", "&p->{member}", "prev ? prev->{name} : NULL",
                    "prev ? prev->num_{name} : 0", "&d->{name}", "&d->num_{name}", "where"),
                   ");"),
              "    if (st != CGN_OK)",
              "        return st;",
              "}}"),
        doc_read="copied into cgn storage from `kernelParams`, or from the buffer packed through "
                 "`extra`, with the kernel's parameter sizes and offsets (cuFuncGetParamInfo, "
                 "12.4+); without them the arguments stay unknown and only an update setting "
                 "every argument is accepted",
        equal="args_equal(a->{name}, a->num_{name}, b->{name}, b->num_{name})",
        rule_names=("{name}", "num_{name}"),
        case=_args_case, zero_norm=(), test_helper=_ARGS_EQUAL,
        doc_type="const cgn_arg * + uint32_t",
        doc_errors=(("CGN_ERROR_INVALID_VALUE", "on 12.4+, the argument count or a size does "
                     "not match the kernel"),
                    ("CGN_ERROR_INVALID_ARGUMENT", "args is NULL with num_args > 0, or an "
                     "argument has no value"),
                    ("CGN_ERROR_OUT_OF_MEMORY", "no host memory for the argument copies")),
        doc_retains="each argument's owner (the values themselves are copied)",
        doc="Kernel arguments (`const cgn_arg *` plus `num_<name>`), checked against the kernel "
            "and copied into cgn storage, each argument's owner retained. Needs a `kernel` "
            "field; at most one a node type; listed last in `owners:`.",
        case_doc="a list of arguments, each \"buf:N\" (test buffer N's address), "
                 "\"owned-buf:N\" (the same with its owner) or `{u32: V}`; `[]` is none",
    ),
    # Batch memory operations: CUDA's own CUstreamBatchMemOpParams, checked and copied
    # (normalised: unused bytes zeroed) into the txn's storage block, versioned like a kernel's
    # argument block; adoption copies the driver's array into a block of its own.
    FieldType(
        name="mem_ops", cuda="required", storage=True,
        members=(Member("const CUstreamBatchMemOpParams *", "{name}", "NULL"),
                 Member("uint32_t", "num_{name}", "0",
                        "Number of operations in {name}, 1 to CGN_MAX_MEM_OPS.")),
        check=("if (changed & {replaced}) {{",
               Call("    cgn_status st = cgn__check_mem_ops(",
                    ("d->{name}", "d->num_{name}", '"{name}"', "where"), ");"),
               "    if (st != CGN_OK)",
               "        return st;",
               "}}"),
        stage=("if (changed & {replaced}) {{",
               Call("    cgn_status st = cgn__stage_mem_ops(",
                    ("txn", "d->{name}", "d->num_{name}", "&d->{name}", '"{name}"', "where"),
                    ");"),
               "    if (st != CGN_OK)",
               "        return st;",
               "}}"),
        build=("p->{member}.{cuda} = (CUstreamBatchMemOpParams *)(uintptr_t)d->{name};",
               "p->{member}.{cuda_dir}count = d->num_{name};"),
        read=("{{",
              Call("    cgn_status st = cgn__read_mem_ops(",
                   ("rd", "p->{member}.{cuda}", "p->{member}.{cuda_dir}count", "&d->{name}",
                    "&d->num_{name}", "where"), ");"),
              "    if (st != CGN_OK)",
              "        return st;",
              "}}"),
        cuda_siblings=("count",),
        equal="a->num_{name} == b->num_{name} && (a->num_{name} == 0 || "
              "memcmp(a->{name}, b->{name}, a->num_{name} * sizeof *a->{name}) == 0)",
        rule_names=("{name}", "num_{name}"),
        case=_mem_ops_case, zero_norm=None,
        doc_type="const CUstreamBatchMemOpParams * + uint32_t (copied by cgn)",
        doc_read="copied into cgn storage from `{cuda}` and `count` (the driver's array)",
        doc_errors=(("CGN_ERROR_INVALID_ARGUMENT", "the operations are NULL"),
                    ("CGN_ERROR_INVALID_VALUE", "no operation, an unknown operation type, a "
                     "write or wait at address 0 or not aligned to its size, or flags the "
                     "operation does not take"),
                    ("CGN_ERROR_OUT_OF_RANGE", "more than CGN_MAX_MEM_OPS operations"),
                    ("CGN_ERROR_OUT_OF_MEMORY", "no host memory for the copy")),
        doc_retains="cgn's copy of the operations (one per version, reused by the next update "
                    "once no graph or executable holds it)",
        doc="Batch memory operations (`const CUstreamBatchMemOpParams *` plus `num_<name>`, "
            "1 to CGN_MAX_MEM_OPS), checked and copied into cgn storage, so the caller's array "
            "may be freed at once; written to `<cuda>` and the `count` beside it. At most one "
            "storage field (`args`, `mem_ops`) a node type.",
        case_doc="a list of operations `{op: NAME, at: \"buf:N\", offset: K, value: V, "
                 "flags: F}` (NAME write32, write64, wait32, wait64, flush or barrier; flush "
                 "and barrier take only flags; omitted numbers are 0), `{many: N}` (N 32-bit "
                 "writes to buf:0), `[]` (none) or null",
    ),
    _sem_kind("ext_sem_signals", "CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS", "signal"),
    _sem_kind("ext_sem_waits", "CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS", "wait on"),
    # Argument-level updates: up to CGN_MAX_ARG_EDITS arguments replaced by index, the others
    # kept (never in the desc). Staged after the args field: on the block that field built, or
    # on a copy of the current one (runtime/codecs.c).
    FieldType(
        name="arg_edits", cuda="forbidden", role="arg_edits", needs=("args",), edits="args",
        lean_keep=(),  # staged only when set
        members=(Member("cgn_arg_edits", "{name}_edits", "{0}", update_only=True),),
        stage=("if (changed & {bit}) {{",
               Call("    cgn_status st = cgn__stage_arg_edits(",
                    ("txn", "&u->{name}_edits", "&d->{args}", "&p->{member}.{args_cuda}",
                     "where"), ");"),
               "    if (st != CGN_OK)",
               "        return st;",
               "}}"),
        setter=(("uint32_t index", "const void *value", "size_t size", "cgn_owner *owner"),
                ("if (update->{name}_edits.count < CGN_MAX_ARG_EDITS) {{",
                 "    cgn_arg_edit *e = &update->{name}_edits.edit[update->{name}_edits.count];",
                 "    e->value = value;",
                 "    e->owner = owner;",
                 "    e->index = index;",
                 "    e->size = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size;",
                 "}}",
                 "update->{name}_edits.count++;"),
                "Edits argument `index` of {args} (at most CGN_MAX_ARG_EDITS edits an update; a "
                "later edit of the same index wins): its `size` bytes at `value`, copied when "
                "the update is applied, with `owner` in place of the owner of its previous "
                "value. The other arguments keep what the node (or that executable) has."),
        direct="Replaces argument `index` of {args} with the `size` bytes at `value` (copied "
               "now), with `owner` in place of the owner of its previous value; every other field "
               "and argument keeps what the {level} has.",
        equal="1", changes_owners=True, reset=("update->{name}_edits.count = 0;",),
        case=_arg_edits_case, case_apply=_apply_arg_edits, zero_norm=(),
        doc_type="cgn_arg_edits (cgn_kernel_update_set_arg)",
        doc_read="nothing: an update-only field",
        doc_errors=(("CGN_ERROR_INVALID_VALUE", "an edited argument's index is past the "
                     "kernel's arguments, or its size is not the kernel's"),
                    ("CGN_ERROR_INVALID_ARGUMENT", "more than CGN_MAX_ARG_EDITS edits, or an "
                     "edit without a value"),
                    ("CGN_ERROR_DRIVER_TOO_OLD", "the kernel's parameter sizes are unknown "
                     "(driver before 12.4)"),
                    ("CGN_ERROR_NOT_SUPPORTED", "an adopted node whose arguments cgn could not "
                     "copy")),
        doc_retains="each edit's owner, in place of the owner of the argument it replaces",
        doc="Argument-level edits of the `args` field: update-only (no desc member, no "
            "`requires`/`follows`, no `cuda:`), with a setter of its own that replaces up to "
            "CGN_MAX_ARG_EDITS arguments by index, and one-call forms "
            "(`cgn_<node>_node_set_<name>`, `cgn_<node>_exec_set_<name>`) that apply one edit "
            "without an update struct.",
        case_doc="in `update:` only: `[[INDEX, ARG], ...]`, at most 8 edits, ARG as in `args`",
    ),
)}

# Field types that are the argument block staged by cgn__txn_stage_owners (at most one a node).
ROLE_ARGS = "args"
ROLE_ARG_EDITS = "arg_edits"
ROLE_OWNER = "owner"
ROLE_KERNEL = "kernel"


@dataclass(frozen=True)
class NodeCheck:
    """A check of the node's current driver-side form, run on every update before anything
    else reads or stages: `call(const cgn__txn *txn, const char *where)` returns a status.
    `read(const CUgraphNodeParams *p)` is the same check on params read for adoption or
    refresh: NULL, or why cgn does not update the node (it is then recorded as not
    updatable)."""

    name: str
    call: str
    status: str
    doc: str
    read: str = ""
    read_doc: str = ""  # for the docs: what adoption records, and when


# spec `cuda.update_check:` names one of these.
NODE_CHECKS = {c.name: c for c in (
    NodeCheck("memcpy_1d", "cgn__check_memcpy_1d", "CGN_ERROR_NOT_SUPPORTED",
              "the node's descriptor, read back with cuGraphMemcpyNodeGetParams, is "
              "multidimensional, pitched, offset, array-backed or of a memory type other than "
              "host or device (changed outside cgn); the node is left unchanged",
              read="cgn__memcpy_1d_form",
              read_doc="only a plain 1-D copy between host and device memory is updatable "
                       "(a pitch equal to the width, as the CUDA runtime describes 1-D "
                       "copies, is accepted): a node read in another form (multidimensional, "
                       "offset, array-backed, or another memory type, e.g. the "
                       "CU_MEMORYTYPE_UNIFIED of a captured cudaMemcpyDefault copy) is "
                       "recorded, and updating it is CGN_ERROR_NOT_SUPPORTED"),
    NodeCheck("memcpy_3d", "cgn__check_memcpy_3d", "CGN_ERROR_NOT_SUPPORTED",
              "the node's descriptor, read back with cuGraphMemcpyNodeGetParams, uses a "
              "mipmap level (LOD), reserved fields, or a memory type other than host, device "
              "or array (changed outside cgn); the node is left unchanged",
              read="cgn__memcpy_3d_form",
              read_doc="a copy whose operands are host, device or array memory, without mipmap "
                       "levels, is updatable; another form (e.g. the CU_MEMORYTYPE_UNIFIED of a "
                       "captured cudaMemcpyDefault copy) is recorded, and updating it is "
                       "CGN_ERROR_NOT_SUPPORTED. Adoption records a copy as the first node type "
                       "of its CUDA type (enum order) whose check accepts it: a plain 1-D copy "
                       "stays `memcpy`"),
)}
