"""Schema and semantic validation of loaded specs; builds the model when a spec is valid.

Every problem is reported at the YAML node it concerns; all problems of all specs are
collected before the generator gives up.
"""
from __future__ import annotations

from typing import Optional

from . import cexpr
from .cfmt import one_line
from .diag import Diagnostics
from .fieldtypes import FIELD_TYPES, NODE_CHECKS, ROLE_ARG_EDITS, ROLE_ARGS, ROLE_KERNEL
from .load import YMap, YNode, YScalar, YSeq
from .model import (Case, DriverCall, ExecInvalid, ExecRule, Field, Fill, HostExtent, Invalid, Node,
                    Rule)
from .schema import CU_NODE_TYPES, CU_PARAMS_MEMBERS, SPEC, Checker

C_KEYWORDS = frozenset("""
    auto break case char const continue default do double else enum extern float for goto if
    inline int long register restrict return short signed sizeof static struct switch typedef
    union unsigned void volatile while _Alignas _Alignof _Atomic _Bool _Complex _Generic
    _Imaginary _Noreturn _Static_assert _Thread_local
""".split())
# Names the generated code already uses next to field names (update->set, the setter's
# `update` parameter).
# Names rules may use for themselves (cexpr.ALLOWED_NAMES) cannot be fields either.
RESERVED_FIELD_NAMES = C_KEYWORDS | {"set", "update"} | cexpr.ALLOWED_NAMES
MAX_FIELDS = 64


def render_flow(node: YNode) -> str:
    """A node back as one-line YAML flow text, scalars as written (strings unquoted)."""
    if isinstance(node, YScalar):
        return node.text if node.value is not None or node.text else "null"
    if isinstance(node, YSeq):
        return "[" + ", ".join(render_flow(n) for n in node.items) + "]"
    return "{" + ", ".join(f"{k.value}: {render_flow(v)}" for k, v in node.items) + "}"


def _join(words) -> str:
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _is_small_int(node) -> bool:
    return isinstance(node, YScalar) and isinstance(node.value, int) \
        and not isinstance(node.value, bool) and 0 <= node.value <= 0xFFFFFFFF


def _a(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def _norm_text(v) -> str:
    if v is None:
        return "null"
    if isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], str) \
            and v[0] in ("buf", "owner", "kernel", "event", "callback", "host"):
        return f"{v[0]}:{v[1]}"
    return str(v)


def _carries_owners(ftype) -> bool:
    """Listed in `owners:`: owner fields, types with an owner member, argument lists."""
    return bool(ftype.owner_members) or ftype.role == ROLE_ARGS


class SpecValidator:
    def __init__(self, root: YNode, spec_file: str, enums: dict, diags: Diagnostics) -> None:
        self.root = root
        self.spec_file = spec_file
        self.diags = diags
        self.checker = Checker(enums, diags)

    def err(self, mark, message: str) -> None:
        self.diags.error(mark, message)

    # ---- entry ---------------------------------------------------------------------------

    def run(self) -> Optional[Node]:
        before = self.diags.count()
        self.checker.check(SPEC, self.root)
        if not isinstance(self.root, YMap):
            return None
        ok = self.checker.ok
        self.updatable = self._updatable()
        fields = self._fields() if ok("fields") else None
        if fields is not None:
            owners = self._owners(fields) if ok("owners") else None
            rules = self._rules(fields)
            exec_rules = self._exec_rules(fields)
            host_extents = self._host_extents(fields)
            cases = self._cases(fields) if isinstance(self.root.get("cases"), YSeq) else None
        cuda = self.root.get("cuda")
        fixed = ()
        context_when = None
        if ok("cuda") and isinstance(cuda, YMap):
            if self._cuda_members(cuda, fields):
                fixed = self._fixed(cuda, fields)
                context_when = self._context_when(cuda, fields)
        if self.diags.count() != before or fields is None:
            return None
        r = self.root
        cuda = r.get("cuda")
        ctx = cuda.get("context_field")
        check = cuda.get("update_check")
        diffs = r.get("differences")
        enode = r.get("exec")
        enable = enode.get("enable") if isinstance(enode, YMap) else None
        return Node(
            spec_file=self.spec_file,
            node=r.get("node").value,
            type_enum=r.get("type_enum").value,
            summary=one_line(r.get("summary").value),
            cu_node_type=cuda.get("node_type").value,
            member=cuda.get("member").value,
            context_field=ctx.value if ctx is not None else None,
            context_current=bool(cuda.get("context_current").value)
            if cuda.get("context_current") is not None else False,
            add=self._driver_call(cuda.get("add")),
            get=self._driver_call(cuda.get("get")),
            set=self._driver_call(cuda.get("set")),
            exec_set=self._driver_call(cuda.get("exec_set")),
            context_free_from=cuda.get("context_free_from").value
            if cuda.get("context_free_from") is not None else 0,
            context_when=context_when,
            update_gate=r.get("gates").get("update").value if self.updatable else 0,
            reference=one_line(r.get("reference").value),
            fields=tuple(fields.values()),
            rules=tuple(rules),
            owners=tuple(owners),
            cases=tuple(cases),
            fixed=fixed,
            update_check=NODE_CHECKS[check.value] if check is not None else None,
            differences=tuple(one_line(d.value) for d in diffs.items) if diffs is not None
            else (),
            exec_enable=bool(enable.value) if enable is not None else False,
            exec_rules=tuple(exec_rules),
            driver_rules=tuple(self._driver_rules(fields)),
            host_extents=tuple(host_extents),
            updatable=self.updatable,
            test_model=not (isinstance(r.get("test_model"), YScalar)
                            and r.get("test_model").value is False),
        )

    def _updatable(self) -> bool:
        """`updatable` (default true), and the keys that go with it: `gates` and the
        executable-level update keys for updatable node types only."""
        r = self.root
        unode = r.get("updatable")
        updatable = not (isinstance(unode, YScalar) and unode.value is False)
        gates, enode = r.get("gates"), r.get("exec")
        if updatable:
            if gates is None:
                self.err(r.mark, "spec: missing required key 'gates' (only a node type with "
                                 "`updatable: false` goes without)")
            return True
        if gates is not None:
            self.err(r.key_node("gates").mark, "gates: a node type with `updatable: false` has "
                                               "no updates to gate; leave it out")
        if isinstance(enode, YMap):
            for key in ("rules", "driver_rules"):
                if enode.get(key) is not None:
                    self.err(enode.key_node(key).mark, f"exec.{key}: a node type with "
                                                       f"`updatable: false` has no "
                                                       f"executable-level updates")
            en = enode.get("enable")
            if isinstance(en, YScalar) and en.value is True:
                self.err(en.mark, "exec.enable: a node type with `updatable: false` cannot be "
                                  "enabled or disabled in an executable (CUDA: kernel, memset "
                                  "and memcpy nodes only)")
        return False

    def _fixed(self, cuda: YMap, fields: Optional[dict]) -> tuple:
        """cuda.fixed: CUDA members of the node's params with a constant value."""
        fnode = cuda.get("fixed")
        if fnode is None:
            return ()
        known = CU_PARAMS_MEMBERS[cuda.get("member").value]
        written = {}
        for f in (fields or {}).values():
            for member in f.type.cuda_written(f.cuda) if f.cuda is not None else ():
                written[member] = f.name
        out = []
        for key, value in fnode.items:
            if key.value not in known:
                self.err(key.mark, f"cuda.fixed: '{key.value}' is not a member of the "
                                   f"{cuda.get('member').value} params (expected one of: "
                                   f"{', '.join(known)})")
            elif key.value in written:
                self.err(key.mark, f"cuda.fixed: '{key.value}' is already set by field "
                                   f"'{written[key.value]}'")
            elif not _is_small_int(value):
                self.err(value.mark, f"cuda.fixed.{key.value}: expected an integer in "
                                     f"[0, 4294967295], got {value.kind()}"
                                     + (f" {value.text}" if isinstance(value, YScalar) else ""))
            else:
                out.append((key.value, value.value))
        return tuple(out)

    def _cuda_members(self, cuda: YMap, fields: Optional[dict]) -> bool:
        """cuda.member matches cuda.node_type; every CUDA member named exists in its struct."""
        member = cuda.get("member").value
        want = CU_NODE_TYPES[cuda.get("node_type").value]
        if member != want:
            self.err(cuda.get("member").mark,
                     f"cuda.member of {cuda.get('node_type').value} is '{want}', not '{member}'")
            return False
        known = CU_PARAMS_MEMBERS[member]
        ctx = cuda.get("context_field")
        if ctx is not None and ctx.value not in known:
            self.err(ctx.mark, f"cuda.context_field: '{ctx.value}' is not a member of the "
                               f"{member} params (expected one of: {', '.join(known)})")
        ok = True
        for key in ("add", "get", "set", "exec_set"):
            if cuda.get(key) is not None:
                ok = self._check_driver_call(cuda.get(key), key, member, known) and ok
        for key in ("set", "exec_set"):
            if cuda.get(key) is not None and not self.updatable:
                self.err(cuda.get(key).mark, f"cuda.{key}: a node type with `updatable: false` "
                                             f"has no updates to set")
                ok = False
        free = cuda.get("context_free_from")
        cur = cuda.get("context_current")
        if free is not None and (cur is None or cur.value is not True):
            self.err(free.mark, "cuda.context_free_from: only with `context_current: true` (it "
                                "says from which driver version the context is not needed)")
            ok = False
        if cuda.get("get") is None and self.updatable:
            self.err(cuda.mark, "cuda: missing required key 'get' (only a node type with "
                                "`updatable: false` goes without: adoption records it as "
                                "CGN_NODE_OTHER)")
            ok = False
        if fields is None:
            return ok
        for fnode in self.root.get("fields").items:
            cnode = fnode.get("cuda")
            f = fields.get(fnode.get("name").value)
            if cnode is None or f is None or f.cuda != cnode.value:
                continue
            missing = [m for m in f.type.cuda_written(cnode.value) if m not in known]
            if missing:
                self.err(cnode.mark, f"field '{f.name}': {_join(missing)} "
                                     f"{'is not a member' if len(missing) == 1 else 'are not members'}"
                                     f" of the {member} params (expected one of: "
                                     f"{', '.join(known)})")
        return ok

    def _check_driver_call(self, call: YMap, key: str, member: str, known: tuple) -> bool:
        """cuda.add / cuda.get: one of params and value; members named exist in the params."""
        params, value = call.get("params"), call.get("value")
        if (params is None) == (value is None):
            self.err(call.mark, f"cuda.{key}: give exactly one of 'params' (a struct the call "
                                f"takes a pointer to) and 'value' (a member it takes)")
            return False
        ok = True
        if params is not None and params.value == "CUgraphNodeParams" and key != "add":
            self.err(params.mark, f"cuda.{key}.params: CUgraphNodeParams only for adders "
                                  f"(cuGraphAddNode)")
            ok = False
        if params is not None and params.value == "CUgraphNodeParams" and call.get("at"):
            self.err(call.get("at").mark, f"cuda.{key}.at: not with CUgraphNodeParams (the "
                                          f"call takes the whole params)")
            ok = False
        for sub in ("at", "value", "context"):
            node = call.get(sub)
            if node is None:
                continue
            if sub == "at" and params is None:
                self.err(node.mark, f"cuda.{key}.at: only with 'params'")
                ok = False
            elif sub == "context" and key == "get":
                self.err(node.mark, f"cuda.{key}.context: getters take no context")
                ok = False
            elif not any(m == node.value or m.startswith(node.value + ".") for m in known):
                self.err(node.mark, f"cuda.{key}.{sub}: '{node.value}' is not a member of the "
                                    f"{member} params (expected one of: {', '.join(known)})")
                ok = False
        return ok

    @staticmethod
    def _driver_call(call: Optional[YMap]) -> Optional[DriverCall]:
        if call is None:
            return None

        def text(k):
            n = call.get(k)
            return n.value if n is not None else None
        return DriverCall(entry=call.get("entry").value, params=text("params"), at=text("at"),
                          value=text("value"), context=text("context"))

    # ---- fields --------------------------------------------------------------------------

    def _fields(self) -> Optional[dict]:
        seq = self.root.get("fields")
        first = {}
        entries = []
        for i, fnode in enumerate(seq.items):
            name_node = fnode.get("name")
            name = name_node.value
            if name in first:
                self.err(name_node.mark, f"duplicate field '{name}' (first at line {first[name]})")
                continue
            first[name] = name_node.mark.line
            if name in RESERVED_FIELD_NAMES:
                self.err(name_node.mark, f"field name '{name}' is reserved in the generated C")
            entries.append(fnode)
        if len(seq.items) > MAX_FIELDS:
            self.err(seq.items[MAX_FIELDS].mark, f"a node type has at most {MAX_FIELDS} fields "
                                                 f"(one bit each in `set`)")
        names = {e.get("name").value: e for e in entries}

        # Per-field checks: cuda, default, requires, follows.
        defaults, followers = {}, {n: [] for n in names}
        role_seen = {}
        for name, fnode in names.items():
            ftype = FIELD_TYPES[fnode.get("type").value]
            cuda = fnode.get("cuda")
            if ftype.cuda == "required" and cuda is None:
                self.err(fnode.get("name").mark, f"field '{name}' of type {ftype.name} needs "
                                                 f"`cuda:` (its CUDA params member)")
            if ftype.cuda == "forbidden" and cuda is not None:
                self.err(fnode.key_node("cuda").mark, f"field '{name}' of type {ftype.name} "
                                                      f"takes no `cuda:` (it is not a driver "
                                                      f"parameter member)")
            if ftype.add_only and self.updatable:
                self.err(fnode.get("type").mark, f"field '{name}' of type {ftype.name}: only "
                                                 f"node types with `updatable: false` take it "
                                                 f"(it is staged when the node is added)")
            if ftype.role in (ROLE_ARGS, ROLE_KERNEL, ROLE_ARG_EDITS) and ftype.role in role_seen:
                self.err(fnode.get("type").mark, f"only one {ftype.role} field a node type "
                                                 f"(first: '{role_seen[ftype.role]}')")
            role_seen.setdefault(ftype.role, name)
            if ftype.storage and "storage" in role_seen:
                self.err(fnode.get("type").mark, f"only one field a node type may use cgn's "
                                                 f"storage block (args, mem_ops; first: "
                                                 f"'{role_seen['storage']}')")
            if ftype.storage:
                role_seen.setdefault("storage", name)
            for member in ftype.members[1:]:
                extra = member.name.format(name=name)
                if extra in names:
                    self.err(names[extra].get("name").mark,
                             f"field '{extra}' clashes with the member '{extra}' of field '{name}'")
            if ftype.update_only:
                for key in ("requires", "follows"):
                    if fnode.get(key) is not None:
                        self.err(fnode.key_node(key).mark, f"field '{name}' of type {ftype.name} "
                                                           f"is update-only: it takes no "
                                                           f"`{key}:`")
            if not self.updatable:
                for key in ("requires", "follows", "since"):
                    if fnode.get(key) is not None:
                        self.err(fnode.key_node(key).mark, f"field '{name}': `{key}:` is about "
                                                           f"updates, and the node type has "
                                                           f"`updatable: false`")
            onode = fnode.get("output")
            if isinstance(onode, YScalar) and onode.value is True:
                self._check_output(name, fnode, ftype)
            dnode = fnode.get("default")
            if dnode is not None:
                if ftype.default is None:
                    self.err(fnode.key_node("default").mark,
                             f"field '{name}': type {ftype.name} takes no default")
                else:
                    parsed = ftype.default(dnode, self.diags, f"default of '{name}'")
                    if parsed is not None:
                        defaults[name] = parsed
            req = fnode.get("requires")
            if req is not None:
                seen = set()
                for r in req.items:
                    if r.value == name:
                        self.err(r.mark, f"field '{name}' cannot require itself")
                    elif r.value not in names:
                        self.err(r.mark, f"field '{name}' requires unknown field '{r.value}'")
                    elif r.value in seen:
                        self.err(r.mark, f"field '{name}' requires '{r.value}' twice")
                    seen.add(r.value)
            fol = fnode.get("follows")
            if fol is not None:
                if fol.value == name:
                    self.err(fol.mark, f"field '{name}' cannot follow itself")
                elif fol.value not in names:
                    self.err(fol.mark, f"field '{name}' follows unknown field '{fol.value}'")
                else:
                    followers[fol.value].append(name)
        for name, fnode in names.items():
            fol = fnode.get("follows")
            if fol is None or fol.value not in names or fol.value == name:
                continue
            leader = names[fol.value]
            if leader.get("follows") is not None:
                self.err(fol.mark, f"field '{name}' follows '{fol.value}', which itself follows "
                                   f"'{leader.get('follows').value}'; follow the leader instead")
            req = fnode.get("requires")
            if req is None or fol.value not in [r.value for r in req.items]:
                self.err(fol.mark, f"field '{name}' follows '{fol.value}' so it must also list "
                                   f"it in `requires` (alone it would be ignored)")
        for name, fnode in names.items():
            ftype = FIELD_TYPES[fnode.get("type").value]
            for role in ftype.needs:
                if role not in role_seen:
                    self.err(fnode.get("type").mark, f"a {ftype.name} field needs {_a(role)} "
                                                     f"{role} field in the same node type")
        out = {}
        for i, (name, fnode) in enumerate(names.items()):
            update_only = FIELD_TYPES[fnode.get("type").value].update_only
            req = fnode.get("requires") if not update_only else None  # reported above
            fol = fnode.get("follows") if not update_only else None
            out[name] = Field(
                name=name,
                type=FIELD_TYPES[fnode.get("type").value],
                cuda=fnode.get("cuda").value if fnode.get("cuda") is not None else None,
                doc=one_line(fnode.get("doc").value),
                default=defaults[name][0] if name in defaults else None,
                requires=tuple(r.value for r in req.items) if req is not None else (),
                follows=fol.value if fol is not None else None,
                followers=tuple(followers[name]),
                index=i,
                since=self._since(name, fnode, update_only) if self.updatable else 0,
                output=bool(fnode.get("output").value)
                if isinstance(fnode.get("output"), YScalar) else False,
            )
        self._defaults = {n: v[1] for n, v in defaults.items()}
        return out

    def _check_output(self, name: str, fnode: YMap, ftype) -> None:
        """An output field: chosen by the driver at add, read back from the adder's params."""
        mark = fnode.key_node("output").mark
        if self.updatable:
            self.err(mark, f"field '{name}': output fields are for node types with "
                           f"`updatable: false` (an update could not set what the driver "
                           f"chooses)")
        if ftype.cuda != "required" or tuple(ftype.cuda_suffixes) != ("",) \
                or len(ftype.members) != 1 or ftype.owner_members or ftype.update_only:
            self.err(mark, f"field '{name}': an output field must be of a kind with one CUDA "
                           f"member (uint32_t, int32_t, uint64_t, size_t, CUdeviceptr...), "
                           f"not {ftype.name}")
        if fnode.get("default") is not None:
            self.err(fnode.key_node("default").mark, f"field '{name}': an output field takes no "
                                                     f"default (the driver chooses its value)")
        cuda = self.root.get("cuda")
        add = cuda.get("add") if isinstance(cuda, YMap) else None
        if isinstance(add, YMap) and add.get("params") is None:
            self.err(mark, f"field '{name}': an output field needs `cuda.add.params` (the "
                           f"driver writes its value into the struct the adder takes)")

    def _since(self, name: str, fnode: YMap, update_only: bool) -> int:
        """A field's `since`: newer than gates.update, on an update-only kind."""
        node = fnode.get("since")
        if node is None:
            return 0
        if not update_only:
            self.err(node.mark, f"field '{name}': since gates updates only, so it is for "
                                f"update-only kinds (an add would set a {fnode.get('type').value} "
                                f"field on any driver)")
            return 0
        gates = self.root.get("gates")
        gate = gates.get("update") if isinstance(gates, YMap) else None
        # gates.update has its own errors when it is not an integer: compare only with one.
        if isinstance(gate, YScalar) and type(gate.value) is int and node.value <= gate.value:
            self.err(node.mark, f"field '{name}': since {node.value} is not newer than "
                                f"gates.update ({gate.value}); leave it out")
        return node.value

    # ---- owners --------------------------------------------------------------------------

    def _owners(self, fields: dict) -> tuple:
        onode = self.root.get("owners")
        listed = []
        seen = set()
        items = onode.items if onode is not None else ()
        for item in items:
            f = fields.get(item.value)
            if f is None:
                self.err(item.mark, f"owners: unknown field '{item.value}'")
            elif not _carries_owners(f.type):
                self.err(item.mark, f"owners: field '{item.value}' is of type {f.type.name}; "
                                    f"only owner, bytes and args fields carry owners")
            elif item.value in seen:
                self.err(item.mark, f"owners: '{item.value}' is listed twice")
            else:
                seen.add(item.value)
                listed.append(f)
        for i, f in enumerate(listed):
            if f.type.role == ROLE_ARGS and i != len(listed) - 1:
                self.err(items[[x.value for x in items].index(f.name)].mark,
                         f"owners: the args field '{f.name}' must come last (argument owners "
                         f"are staged after the owner fields)")
        where = onode.mark if onode is not None else self.root.mark
        for f in fields.values():
            if _carries_owners(f.type) and f.name not in seen:
                self.err(where, f"owners: {f.type.name} field '{f.name}' is missing "
                                f"(its owners would not be retained)")
        return tuple(listed)

    # ---- rules ---------------------------------------------------------------------------

    def _rule_names(self, fields: dict) -> dict:
        out = {}
        for f in fields.values():
            if f.output:  # unknown when rules run (before the add)
                continue
            for pattern in f.type.rule_names:
                out[pattern.format(name=f.name)] = f
        return out

    def _arg_types(self, fields: dict) -> dict:
        """{name a rule may use: cexpr.CType} for the printf checks: the C type of the member
        behind each rule name. A name without a member, of a type cexpr does not know, or
        ambiguous (a duplicate field, a field clashing with another's member: reported
        already) is left out, and a message argument using it goes unchecked."""
        seq = self.root.get("fields")
        written = [f.get("name").value for f in seq.items if isinstance(f, YMap)
                   and isinstance(f.get("name"), YScalar)] if isinstance(seq, YSeq) else []
        out, seen = {}, {n for n in written if written.count(n) > 1}
        ambiguous = set(seen)
        for f in fields.values():
            members = {m.name: m.ctype for m in f.type.members}
            for pattern in f.type.rule_names:
                name = pattern.format(name=f.name)
                if name in seen:
                    ambiguous.add(name)
                seen.add(name)
                t = cexpr.ctype(members[pattern]) if pattern in members else None
                if t is not None:
                    out[name] = t
        return {n: t for n, t in out.items() if n not in ambiguous}

    def _message(self, msg: YScalar, args, types: dict, what: str) -> bool:
        """A rule's printf `message` against its `args`: no bad or %n conversion, one argument
        per conversion (and per `*`), and each argument's C type fits its conversion, as
        -Wformat would say, but at the spec line. An argument whose type the generator cannot
        derive (cexpr.expr_type gives None: a pointer dereference, indexing, a mix of types
        that differs between platforms) is not checked here; the C compiler still is."""
        convs, problem = cexpr.printf_conversions(msg.value)
        if problem is not None:
            self.err(msg.mark_at(problem.offset), f"{what}: {problem.message}")
            return False
        count = sum(1 + c.width_star + c.prec_star for c in convs)
        if count != len(args):
            self.err(msg.mark, f"{what} has {count} printf conversion"
                               f"{'' if count == 1 else 's'} but args gives {len(args)}")
            return False
        ok = True
        j = 0
        for n, conv in enumerate(convs, 1):
            slots = ["width"] * conv.width_star + ["precision"] * conv.prec_star + ["value"]
            for slot in slots:
                node = args[j]
                j += 1
                t = cexpr.expr_type(node.value, types)
                if t is None:
                    continue  # not derivable: left to the C compiler (see the docstring)
                shown = one_line(node.value)
                if slot != "value":
                    hint = cexpr.star_problem(t)
                    if hint is not None:
                        self.err(msg.mark_at(conv.offset),
                                 f"{what} conversion {n} '{conv.text}': the {slot} argument "
                                 f"'{shown}' ({t.name}) does not fit: {hint}")
                        ok = False
                    continue
                hint = cexpr.conversion_problem(conv, t, shown)
                if hint is not None:
                    self.err(msg.mark_at(conv.offset),
                             f"{what} conversion {n} '{conv.text}' does not fit argument "
                             f"'{shown}' ({t.name}): {hint}")
                    ok = False
        return ok

    def _expr(self, node: YScalar, known: dict, what: str, types: dict = None) -> bool:
        tokens, problems = cexpr.tokenize(node.value)
        for p in problems:
            self.err(node.mark_at(p.offset), f"{what}: {p.message}")
        ok = not problems
        if ok:
            bad = cexpr.syntax(tokens, len(node.value))
            if bad is not None:
                self.err(node.mark_at(bad.offset), f"{what}: {bad.message}")
                return False
        for t in cexpr.names(tokens):
            if t.text not in known and t.text not in cexpr.ALLOWED_NAMES:
                self.err(node.mark_at(t.offset), f"{what}: unknown field '{t.text}'")
                ok = False
        bad = cexpr.struct_operand(tokens, types) if ok and types else None
        if bad is not None:
            self.err(node.mark_at(bad.offset),
                     f"{what}: '{bad.text}' is a {types[bad.text].name}, which C cannot compare "
                     f"or compute with; use its members (e.g. {bad.text}.x)")
            ok = False
        return ok

    def _host_extents(self, fields: dict) -> list:
        """`host_extent` of address fields: both offsets parse as rule expressions."""
        out = []
        known = self._rule_names(fields)
        types = self._arg_types(fields)
        for i, fnode in enumerate(self.root.get("fields").items):
            if not isinstance(fnode, YMap) or fnode.get("host_extent") is None:
                continue
            if not self.checker.ok("fields", i):
                continue
            name = fnode.get("name").value
            enode = fnode.get("host_extent")
            if name not in fields or fields[name].type.name != "address":
                self.err(fnode.key_node("host_extent").mark,
                         f"field '{name}': `host_extent` is for `address` fields only (the "
                         f"bytes a host operand must have mapped)")
                continue
            ok = True
            for key in ("first", "last"):
                ok = self._expr(enode.get(key), known, f"fields[{i}].host_extent.{key}",
                                types) and ok
            if not ok:
                continue
            read = set()
            for key in ("first", "last"):
                tokens, _ = cexpr.tokenize(enode.get(key).value)
                read |= {known[t.text].name for t in cexpr.names(tokens) if t.text in known}
            out.append(HostExtent(
                field=name,
                first=cexpr.rewrite(enode.get("first").value, set(known)),
                last=cexpr.rewrite(enode.get("last").value, set(known)),
                fields=tuple(sorted(read)),
                writes=bool(enode.get("writes").value)
                if isinstance(enode.get("writes"), YScalar) else False,
            ))
        return out

    def _rules(self, fields: dict) -> list:
        rnode = self.root.get("rules")
        if rnode is None or not self.checker.ok("rules") and not isinstance(rnode, YSeq):
            return []
        known = self._rule_names(fields)
        types = self._arg_types(fields)
        out = []
        for i, r in enumerate(rnode.items):
            if not self.checker.ok("rules", i):
                continue
            ok = self._expr(r.get("when"), known, f"rules[{i}].when", types)
            args = r.get("args").items if r.get("args") is not None else ()
            for j, a in enumerate(args):
                ok = self._expr(a, known, f"rules[{i}].args[{j}]", types) and ok
            msg = r.get("message")
            ok = self._message(msg, args, types, f"rules[{i}].message") and ok
            if ok:
                tokens, _ = cexpr.tokenize(r.get("when").value)
                read = {known[t.text].name for t in cexpr.names(tokens) if t.text in known}
                out.append(Rule(
                    when=cexpr.rewrite(r.get("when").value, set(known)),
                    status=r.get("status").value,
                    message=msg.value,
                    args=tuple(cexpr.rewrite(a.value, set(known)) for a in args),
                    fields=tuple(sorted(read)),
                ))
        return out

    def _old_refs(self, node: YScalar, known: dict, what: str) -> bool:
        """`old.<field>` names a field the executable has."""
        tokens, _ = cexpr.tokenize(node.value)
        ok = True
        for i, t in enumerate(tokens):
            if t.text != "old" or t.kind != "ident":
                continue
            if i + 2 >= len(tokens) or tokens[i + 1].text != "." \
                    or tokens[i + 2].kind != "ident":
                self.err(node.mark_at(t.offset), f"{what}: 'old' must be followed by "
                                                 f"'.<field>'")
                ok = False
            elif tokens[i + 2].text not in known:
                self.err(node.mark_at(tokens[i + 2].offset),
                         f"{what}: unknown field '{tokens[i + 2].text}' after 'old.'")
                ok = False
        return ok

    def _context_when(self, cuda: YMap, fields: Optional[dict]) -> Optional[str]:
        """cuda.context_when: a condition like an executable rule's (merged fields, `old.`),
        as C over d and cur; only where context_free_from says from when it applies."""
        wnode = cuda.get("context_when")
        if wnode is None:
            return None
        if cuda.get("context_free_from") is None:
            self.err(wnode.mark, "cuda.context_when: only with `context_free_from` (it says "
                                 "which updates still need the context on those drivers)")
            return None
        if fields is None:
            return None
        known = self._rule_names(fields)
        ok = self._expr(wnode, dict(known, old=None), "cuda.context_when",
                        self._arg_types(fields))
        ok = self._old_refs(wnode, known, "cuda.context_when") and ok
        return self._rewrite_exec(wnode.value, set(known)) if ok else None

    @staticmethod
    def _rewrite_exec(expr: str, known: set) -> str:
        """Fields become d->field, `old.field` becomes cur->field."""
        tokens, _ = cexpr.tokenize(expr)
        out = expr
        for i in reversed(range(len(tokens))):
            t = tokens[i]
            if t.kind != "ident":
                continue
            prev = tokens[i - 1].text if i > 0 else None
            if t.text == "old" and i + 1 < len(tokens) and tokens[i + 1].text == "." \
                    and prev not in (".", "->"):
                out = out[:t.offset] + "cur->" + out[tokens[i + 1].offset + 1:]
                # re-tokenising is not needed: offsets before t are unchanged
            elif t.text in known and prev not in (".", "->"):
                out = out[:t.offset] + "d->" + out[t.offset:]
        return " ".join(out.split())

    def _driver_rules(self, fields: dict) -> list:
        enode = self.root.get("exec")
        rnode = enode.get("driver_rules") if isinstance(enode, YMap) else None
        if not isinstance(rnode, YSeq) or not self.checker.ok("exec", "driver_rules"):
            return []
        out, seen = [], set()
        for i, r in enumerate(rnode.items):
            fnode = r.get("field")
            if fnode.value not in fields:
                self.err(fnode.mark, f"exec.driver_rules[{i}].field: unknown field "
                                     f"'{fnode.value}'")
            elif fnode.value in seen:
                self.err(fnode.mark, f"exec.driver_rules[{i}].field: '{fnode.value}' has a "
                                     f"driver rule already")
            else:
                count, problem = cexpr.printf_arg_count(r.get("rule").value)
                if problem is not None or count:
                    self.err(r.get("rule").mark, f"exec.driver_rules[{i}].rule is plain text: "
                                                 f"no printf conversions")
                    continue
                seen.add(fnode.value)
                out.append((fnode.value, one_line(r.get("rule").value)))
        return out

    def _exec_rules(self, fields: dict) -> list:
        enode = self.root.get("exec")
        if not isinstance(enode, YMap) or not self.checker.ok("exec"):
            return []
        rnode = enode.get("rules")
        if not isinstance(rnode, YSeq):
            return []
        known = self._rule_names(fields)
        types = self._arg_types(fields)
        with_old = dict(known, old=None)
        out = []
        for i, r in enumerate(rnode.items):
            what = f"exec.rules[{i}]"
            if not self.checker.ok("exec", "rules", i):
                continue
            ok = self._expr(r.get("when"), with_old, f"{what}.when", types)
            ok = self._old_refs(r.get("when"), known, f"{what}.when") and ok
            args = r.get("args").items if r.get("args") is not None else ()
            for j, a in enumerate(args):
                ok = self._expr(a, with_old, f"{what}.args[{j}]", types) and ok
                ok = self._old_refs(a, known, f"{what}.args[{j}]") and ok
            fnode = r.get("field")
            if fnode.value not in fields:
                self.err(fnode.mark, f"{what}.field: unknown field '{fnode.value}'")
                ok = False
            ok = self._message(r.get("message"), args, types, f"{what}.message") and ok
            count, problem = cexpr.printf_arg_count(r.get("rule").value)
            if problem is not None:
                self.err(r.get("rule").mark_at(problem.offset), f"{what}.rule: "
                                                                f"{problem.message}")
                ok = False
            elif count:
                self.err(r.get("rule").mark, f"{what}.rule is plain text: no printf "
                                             f"conversions")
                ok = False
            if ok:
                status = r.get("status")
                out.append(ExecRule(
                    when=self._rewrite_exec(r.get("when").value, set(known)),
                    field=fnode.value,
                    rule=one_line(r.get("rule").value),
                    status=status.value if status is not None else "CGN_ERROR_INVALID_VALUE",
                    message=r.get("message").value,
                    args=tuple(self._rewrite_exec(a.value, set(known)) for a in args),
                ))
        return out

    # ---- cases ---------------------------------------------------------------------------

    def _values(self, mnode: YMap, fields: dict, what: str,
                update: bool = False) -> Optional[dict]:
        """{field name: CaseValue} for a case mapping, or None after reporting problems.
        Update-only fields (argument edits) may appear in updates alone."""
        out = {}
        ok = True
        for key, value in mnode.items:
            f = fields.get(key.value)
            if f is None:
                self.err(key.mark, f"{what}: unknown field '{key.value}'")
                ok = False
                continue
            if f.output:
                self.err(key.mark, f"{what}: '{key.value}' is an output field (the driver "
                                   f"chooses it at add); a case cannot give it")
                ok = False
                continue
            if f.type.update_only and not update:
                self.err(key.mark, f"{what}: '{key.value}' is update-only (a descriptor has no "
                                   f"{key.value}); give the {f.type.edits} it makes instead")
                ok = False
                continue
            v = f.type.case(value, f.name, self.diags, f"{what}.{f.name}")
            if v is None:
                ok = False
            else:
                out[f.name] = v
        return out if ok else None

    def _fill(self, values: dict, fields: dict) -> Fill:
        names = tuple(n for n in fields if n in values)
        lines = tuple(line for n in names for line in values[n].lines)
        return Fill(names, lines)

    def _full(self, values: dict, fields: dict) -> dict:
        """Normalised full desc: given values, else the default, else the type's zero."""
        return {n: values[n].norm if n in values
                else self._defaults.get(n, f.type.zero_norm) for n, f in fields.items()}

    def _check_requires(self, unode: YMap, values: dict, fields: dict, what: str) -> bool:
        ok = True
        for n in values:
            for r in fields[n].requires:
                if r not in values:
                    self.err(unode.mark, f"{what} sets '{n}' without '{r}', which it requires "
                                         f"(move it to `invalid` if that is the point)")
                    ok = False
        return ok

    def _cases(self, fields: dict) -> list:
        first = {}
        out = []
        for i, c in enumerate(self.root.get("cases").items):
            if not self.checker.ok("cases", i):
                continue
            id_node = c.get("id")
            cid = id_node.value
            if cid in first:
                self.err(id_node.mark, f"duplicate case id '{cid}' (first at line {first[cid]})")
                continue
            first[cid] = id_node.mark.line
            what = f"case {cid}"
            orig = self._values(c.get("original"), fields, f"{what}: original")
            if not self.updatable:
                refused = [k for k in ("update", "replacement", "invalid", "exec_refuses",
                                       "exec_invalid") if c.get(k) is not None]
                for k in refused:
                    self.err(c.key_node(k).mark, f"{what}: {k}: the node type has "
                                                 f"`updatable: false`; a case gives "
                                                 f"`original` only")
                if orig is not None and not refused:
                    out.append(Case(cid, self._fill(orig, fields), None, None, ()))
                continue
            missing = [k for k in ("update", "replacement") if c.get(k) is None]
            for k in missing:
                self.err(c.mark, f"{what}: missing required key '{k}'")
            if missing:
                continue
            upd_node = c.get("update")
            upd = self._values(upd_node, fields, f"{what}: update", update=True)
            repl = self._values(c.get("replacement"), fields, f"{what}: replacement")
            if upd is not None and not upd:
                self.err(upd_node.mark, f"{what}: update sets nothing")
                upd = None
            if upd is not None and not self._check_requires(upd_node, upd, fields,
                                                            f"{what}: update"):
                upd = None
            if orig is not None and upd is not None and repl is not None:
                self._check_replacement(c, fields, orig, upd, repl, what)
            invalid = []
            inode = c.get("invalid")
            for j, inv in enumerate(inode.items if inode is not None else ()):
                u_node = inv.get("update")
                u = self._values(u_node, fields, f"{what}: invalid[{j}].update", update=True)
                if u is not None and not u:
                    self.err(u_node.mark, f"{what}: invalid[{j}].update sets nothing")
                    u = None
                if u is not None:
                    invalid.append(Invalid(self._fill(u, fields), inv.get("status").value,
                                           render_flow(u_node)))
            exec_invalid = []
            enode = c.get("exec_invalid")
            for j, inv in enumerate(enode.items if enode is not None else ()):
                u_node = inv.get("update")
                u = self._values(u_node, fields, f"{what}: exec_invalid[{j}].update",
                                 update=True)
                fnode = inv.get("field")
                if fnode.value not in fields:
                    self.err(fnode.mark, f"{what}: exec_invalid[{j}].field: unknown field "
                                         f"'{fnode.value}'")
                    u = None
                if u is not None and not u:
                    self.err(u_node.mark, f"{what}: exec_invalid[{j}].update sets nothing")
                    u = None
                if u is not None:
                    exec_invalid.append(ExecInvalid(self._fill(u, fields),
                                                    inv.get("status").value, fnode.value,
                                                    render_flow(u_node)))
            if None in (orig, upd, repl):
                continue
            refuses = c.get("exec_refuses")
            if refuses is not None and refuses.value not in fields:
                self.err(refuses.mark, f"{what}: exec_refuses: unknown field '{refuses.value}'")
                continue
            out.append(Case(cid, self._fill(orig, fields), self._fill(upd, fields),
                            self._fill(repl, fields), tuple(invalid), tuple(exec_invalid),
                            refuses.value if refuses is not None else ""))
        return out

    def _check_replacement(self, c: YMap, fields: dict, orig: dict, upd: dict, repl: dict,
                           what: str) -> None:
        expect = self._full(orig, fields)
        for n, v in upd.items():
            if fields[n].type.update_only:
                continue
            expect[n] = v.norm
            for follower in fields[n].followers:
                if follower not in upd:
                    expect[follower] = fields[follower].type.zero_norm
        for n, v in upd.items():  # edits apply to what the rest of the update made
            t = fields[n].type
            if not t.update_only:
                continue
            target = next(f for f in fields.values() if f.type.role == t.edits)
            edited = t.case_apply(expect[target.name], v.norm)
            if isinstance(edited, str):
                self.err(c.get("update").get(n).mark, f"{what}: update {edited}")
                return
            expect[target.name] = edited
        got = self._full(repl, fields)
        rnode = c.get("replacement")
        for n in fields:
            if expect[n] != got[n]:
                vnode = rnode.get(n)
                self.err(vnode.mark if vnode is not None else rnode.mark,
                         f"{what}: replacement gives {n} = {_norm_text(got[n])} but original "
                         f"plus update give {_norm_text(expect[n])}")


def validate_all(specs: list, enums: dict, diags: Diagnostics) -> list:
    """specs: [(spec_file, root YNode)] sorted by file. Returns the Nodes (all valid or [])."""
    nodes, roots = [], {}
    seen_node, seen_enum = {}, {}
    for spec_file, root in specs:
        node = SpecValidator(root, spec_file, enums, diags).run()
        if isinstance(root, YMap):
            for key, seen in (("node", seen_node), ("type_enum", seen_enum)):
                v = root.get(key)
                if isinstance(v, YScalar) and isinstance(v.value, str):
                    if v.value in seen:
                        diags.error(v.mark, f"{key} '{v.value}' is also used by {seen[v.value]}")
                    else:
                        seen[v.value] = f"{v.mark.file}:{v.mark.line}"
        if node is not None:
            nodes.append(node)
            roots[node.node] = root
    _check_shared_cuda_types(nodes, roots, enums, diags)
    return nodes


def _check_shared_cuda_types(nodes: list, roots: dict, enums: dict, diags: Diagnostics) -> None:
    """Node types may share a CUDA node type (memcpy, memcpy_3d): adoption reads a node with the
    getter of the first of them (cgn_node_type order) and records it as the first whose
    cuda.update_check accepts the params, so all but the last need an adoption check, and all
    the same getter."""
    order = {t: i for i, t in enumerate(enums["node_type"])}
    groups = {}
    for n in nodes:
        groups.setdefault(n.cu_node_type, []).append(n)
    for group in groups.values():
        group.sort(key=lambda n: order.get(n.type_enum, len(order)))
        for n, later in zip(group, group[1:]):
            if n.update_check is None or not n.update_check.read:
                diags.error(roots[n.node].get("cuda").get("node_type").mark,
                            f"cuda.node_type: {n.cu_node_type} is also recorded by "
                            f"'{later.node}' ({later.type_enum} comes later); adoption tells "
                            f"them apart by cuda.update_check, so '{n.node}' needs one with an "
                            f"adoption check")
        for n in group[1:]:
            if n.get != group[0].get and roots[n.node].get("cuda").get("get") is not None:
                diags.error(roots[n.node].get("cuda").get("get").mark,
                            f"cuda.get: differs from that of '{group[0].node}', which records "
                            f"the same CUDA node type ({n.cu_node_type}): adoption reads such "
                            f"nodes with the getter of the first")
