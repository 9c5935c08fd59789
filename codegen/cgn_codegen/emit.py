"""Renders the model through the Jinja2 templates. Every string the templates print is made
here; the templates only loop and branch."""
from __future__ import annotations

import re

import jinja2

from .cfmt import (Call, INDENT, WIDTH, c_string, comment_block, render_lines, version_text,
                   wrap_call)
from .fieldtypes import ROLE_ARGS, ROLE_ARG_EDITS, ROLE_KERNEL
from .model import Field, Fill, Node

AGGREGATE_ORIGIN = "spec/"  # not "spec/*.yaml": "/*" inside a C comment trips -Wcomment


def _env(template_dir: str) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(template_dir),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )


def _join_words(words) -> str:
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _bits(prefix: str, fields) -> str:
    return " | ".join(f"{prefix}_SET_{f.name.upper()}" for f in fields)


def _uses(lines, name: str) -> bool:
    pat = re.compile(r"\b%s\b" % re.escape(name))
    return any(pat.search(line) for line in lines)


def _wrap_bits(head: str, bits, end: str) -> list:
    """`head A | B | ... end` (e.g. `if (set & (A | B)) {`), wrapped at WIDTH with continuation
    lines at three indents."""
    lines, cur = [], head
    for i, b in enumerate(bits):
        piece = b + (" |" if i < len(bits) - 1 else end)
        if len(cur) + len(piece) > WIDTH and i > 0:
            lines.append(cur.rstrip())
            cur = INDENT * 3
        cur += piece + " "
    lines.append(cur.rstrip())
    return lines


def _when_set(indent: str, bit: str, stmts) -> list:
    """`if (set & bit)` at indent, then stmts one indent deeper (in braces when several)."""
    many = len(stmts) > 1
    return ([indent + f"if (set & {bit})" + (" {" if many else "")]
            + _split_assignments(indent + INDENT, stmts) + ([indent + "}"] if many else []))


def _context_free(n, ctx: str, cur: str, d: str):
    """The C condition under which an update of node type n (from version `cur` to `d`, the node
    in context `ctx`) needs no context made current: a driver past the spec's context_free_from
    and, where the spec has context_when, an update it does not name; None where the node type
    never needs one. (Callers take only node types that need one before some version.)"""
    if not n.context_current:
        return None
    cond = f"cgn__driver->version >= {n.context_free_from}"
    if n.context_when:
        cond += f" && !{n.node}_needs_context({ctx}, {cur}, {d})"
    return cond


def _direct_forms(n) -> list:
    """The one-call forms of node type n: (field, name of the node-level function, of the
    executable-level one, the setter's C parameters, their names) for each field whose type has
    a setter and says `direct` (an updatable node type only)."""
    if not n.updatable:
        return []
    return [(f, f"cgn_{n.node}_node_set_{f.name}", f"cgn_{n.node}_exec_set_{f.name}",
             tuple(f.type.setter[0]), tuple(p.split()[-1].lstrip("*") for p in f.type.setter[0]))
            for f in n.fields if f.type.setter is not None and f.type.direct]


def _split_assignments(indent: str, stmts) -> list:
    """Statements at indent; an assignment too long for one line continues after its `=`."""
    out = []
    for stmt in stmts:
        if len(indent + stmt) <= WIDTH or " = " not in stmt:
            out.append(indent + stmt)
        else:
            lhs, rhs = stmt.split(" = ", 1)
            out += [indent + lhs + " =", indent + INDENT + rhs]
    return out


# The update's checks and staging steps: always inlined into the update functions (each was an
# out-of-line call with its register spills, per update).
INLINE_STEP = "CGN__ALWAYS_INLINE static inline cgn_status"


def _size_expr(expr: str) -> str:
    """A C expression as a size_t argument (a plain number as it is)."""
    return expr if expr.isdigit() else f"(size_t)({expr})"


def _or_lines(expr: str, indent: str, width: int = 96) -> list:
    """A condition's top-level ` || ` alternatives, as few per line as fit `width` columns
    (continuation lines at `indent`); the first line gets no indent."""
    parts, lines, line = expr.split(" || "), [], ""
    for i, part in enumerate(parts):
        piece = part + (" ||" if i + 1 < len(parts) else "")
        if line and len(indent) + len(line) + 1 + len(piece) > width:
            lines.append(line)
            line = piece
        else:
            line = f"{line} {piece}" if line else piece
    lines.append(line)
    return [lines[0]] + [indent + l for l in lines[1:]]


def _voids(lines, params) -> list:
    return [f"(void){p};" for p in params if not _uses(lines, p)]


class NodeView:
    """Everything the per-node templates print, for one node type."""

    def __init__(self, n: Node) -> None:
        self.n = n
        self.node = n.node
        self.NODE = n.node.upper()
        self.P = f"CGN_{self.NODE}"
        self.desc = f"cgn_{n.node}_desc"
        self.update = f"cgn_{n.node}_update"
        self.origin = f"spec/{n.spec_file}"
        self.guard = f"CGN_CGN_{self.NODE}_H"
        self.type_enum = n.type_enum
        self.cu_node_type = n.cu_node_type
        self.gate = n.update_gate
        self.gate_text = version_text(n.update_gate)
        self.needs_context = 1 if n.context_field else 0
        args, kernel = n.role(ROLE_ARGS), n.role(ROLE_KERNEL)
        edits = n.role(ROLE_ARG_EDITS)
        self.snip = dict(member=n.member,
                         args=args.name if args else "", args_bit=self.bit(args) if args else "",
                         args_cuda=(args.cuda or "") if args else "",
                         kernel=kernel.name if kernel else "",
                         kernel_bit=self.bit(kernel) if kernel else "",
                         keep_if=f" if (!(changed & {self.bit(edits)}))" if edits else "")
        # Bits of the fields a desc has (update-only fields have none there): what an add
        # stages, and what a full replacement from a desc sets.
        only = [self.bit(f) for f in n.fields if f.type.update_only]
        self.add_bits = (f"({self.P}_SET_ALL & ~" + (only[0] if len(only) == 1 else
                                                     "(" + " | ".join(only) + ")") + ")"
                         if only else f"{self.P}_SET_ALL")

    def _changed_bits(self, names, by_name: dict) -> set:
        """The `set` bits of an update that changes one of the fields `names`: each field's own,
        and its leader's for a follower (which changes with its leader, reset when set alone)."""
        bits = set()
        for name in names:
            f = by_name[name]
            bits.add(self.bit(f))
            if f.follows:
                bits.add(self.bit(by_name[f.follows]))
        return bits

    def _host_extent(self, e, by_name: dict) -> list:
        """The check of a host operand's first and last bytes (spec `host_extent`), when its
        address or a field the offsets read changes."""
        if e is None:
            return []
        f = by_name[e.field]
        bits = self._changed_bits((e.field,) + e.fields, by_name)
        # The memory type first: for a device operand (the common case) one test.
        return [f"if (d->{f.name}_memory_type == CU_MEMORYTYPE_HOST && d->{f.name} != 0 &&",
                Call("    (changed & (", tuple(sorted(bits)), "))) {", " | "),
                Call("    cgn_status st = cgn__check_host_extent(",
                     (f"d->{f.name}", _size_expr(e.first), _size_expr(e.last),
                      "1" if e.writes else "0", c_string(f.name), "where"), ");"),
                "    if (st != CGN_OK)",
                "        return st;",
                "}"]

    def bit(self, f: Field) -> str:
        return f"{self.P}_SET_{f.name.upper()}"

    def _kw(self, f: Field) -> dict:
        parent = (f.cuda or "").rpartition(".")[0]
        return dict(self.snip, name=f.name, cuda=f.cuda or "", bit=self.bit(f),
                    cuda_dir=parent + "." if parent else "",
                    replaced=self.bit(self.n.field(f.leader)), same=self._same(f))

    def _same(self, f: Field) -> str:
        """C: the fields f requires or follows are unchanged between prev and d (read)."""
        related = [r for r in f.requires if r != f.name]
        if f.follows and f.follows not in related:
            related.append(f.follows)
        terms = []
        for name in related:
            g = self.n.field(name)
            if g.type.test_helper:  # compared through a test-only helper: never equal here
                return "0"
            term = g.type.equal.format(**dict(self.snip, name=g.name))
            terms.append(term.replace("a->", "d->").replace("b->", "prev->"))
        return " && ".join(terms) if terms else "1"

    def _snippet(self, f: Field, items) -> list:
        kw = self._kw(f)
        return [i.format(**kw) for i in items]

    # ---- header --------------------------------------------------------------------------

    def _copies_note(self, until: str) -> str:
        """For a get's doc: how long the pointers into cgn's copies (staged fields) stay valid."""
        copied = [f"`{f.name}`" for f in self.n.fields if f.type.storage or f.type.copied]
        if not copied:
            return ""
        return (f" {_join_words(copied)} point{'s' if len(copied) == 1 else ''} into cgn's "
                f"copies, valid until {until}: copy what you keep longer.")

    def header(self) -> dict:
        n = self.n
        title = n.node.replace("_", " ").capitalize() + " node"
        members = []  # (decl, doc)
        for f in n.fields:
            for m in f.type.members:
                if m.update_only:
                    continue
                doc = m.doc.format(name=f.name, doc=f.doc)
                if m.internal:
                    doc = "Set by cgn, ignored on input. " + doc
                if f.output:
                    doc = "Output: chosen by the driver at add, ignored on input. " + doc
                members.append((m.decl(f.name) + ";", doc))
        width = max(len(d) for d, _ in members)
        desc_members = [f"{d.ljust(width)} /* {doc} */" for d, doc in members]
        defaults = [f".{f.name} = {f.default}" for f in n.fields if f.default is not None]
        bits = [(self.bit(f), f"UINT64_C({hex(f.bit_value)})") for f in n.fields]
        all_mask = hex((1 << len(n.fields)) - 1)
        coupled = []
        for f in n.fields:
            if not f.requires:
                continue
            text = f"{f.name} requires {_join_words(f.requires)}"
            if f.follows:
                zero = f.type.members[0].zero
                text += f" ({f.follows} without {f.name} resets {f.name} to {zero})"
            coupled.append(text)
        update_doc = "A partial update: fields whose bit is not in `set` keep their current value."
        if coupled:
            update_doc += "\nCoupled: " + "; ".join(coupled) + "."
        for f in n.fields:
            if f.type.update_only:
                update_doc += (f"\n{f.name}: edits of {f.type.edits} by index, applied after "
                               f"{f.type.edits} (when set too); {f.type.edits} not edited keep "
                               "their value. Not part of the desc.")
        add_doc = f"Adds a {title[0].lower() + title[1:]} after `deps`." + (
            " The current context becomes the node's context." if n.context_field else "")
        if n.outputs:
            names = _join_words(f"`{f.name}`" for f in n.outputs)
            add_doc += (f" The driver chooses {names} (the desc's value is ignored): read it "
                        f"with cgn_{n.node}_node_get.")
        if not n.updatable:
            add_doc += (f"\nNot updatable: CUDA cannot change a {n.node.replace('_', ' ')} node "
                        f"once added, so there is no update struct or update function "
                        f"(cgn_node_check_updatable: CGN_ERROR_NOT_SUPPORTED).")
        directs = []
        for f, def_fn, exec_fn, params, names in _direct_forms(n):
            kw = self._kw(f)
            same = (f"cgn_{n.node}_update_set_{f.name}(&u, {', '.join(names)}) alone, without an "
                    "update to build (one struct fewer to fill in a loop): the same checks, "
                    "errors and guarantees.")
            directs.append(dict(
                def_doc=comment_block(
                    f.type.direct.format(**dict(kw, level="node")) +
                    f"\nThe same as cgn_{n.node}_node_update with an update made by {same}"),
                def_proto=wrap_call("", Call(f"CGN_API cgn_status {def_fn}(",
                                             ("cgn_node *node",) + params, ");")),
                exec_doc=comment_block(
                    f.type.direct.format(**dict(kw, level="executable")) +
                    f"\nThe same as cgn_{n.node}_exec_update with an update made by {same}"),
                exec_proto=wrap_call("", Call(f"CGN_API cgn_status {exec_fn}(",
                                              ("cgn_exec *exec", "cgn_node *node") + params,
                                              ");"))))
        return dict(
            directs=directs,
            origin=self.origin, guard=self.guard, updatable=n.updatable,
            add_doc=comment_block(add_doc),
            intro=comment_block(f"{title}: {n.summary}\nReference: {n.reference}"),
            desc=self.desc, update=self.update, P=self.P,
            desc_members=desc_members,
            desc_init="{" + ", ".join(defaults) + "}" if defaults else "{0}",
            bits=bits, all_mask=f"UINT64_C({all_mask})",
            update_doc=comment_block(update_doc),
            update_members=[m.decl(f.name) + ";" for f in n.fields for m in self._inputs(f)],
            setters=self._setters(),
            reset_fn=f"cgn_{n.node}_update_reset",
            reset_lines=[INDENT + line.format(name=f.name) for f in n.fields
                         for line in f.type.reset],
            add_proto=wrap_call("", Call(f"CGN_API cgn_status cgn_graph_add_{n.node}(",
                                         ("cgn_graph *graph", "cgn_node *const *deps",
                                          "size_t num_deps", f"const {self.desc} *desc",
                                          "cgn_node **node_out"), ");")),
            update_proto=wrap_call("", Call(f"CGN_API cgn_status cgn_{n.node}_node_update(",
                                            ("cgn_node *node",
                                             f"const {self.update} *update"), ");")),
            get_doc=comment_block("The node's current parameters." + self._copies_note(
                "the node's next update or its destroy")),
            exec_get_doc=comment_block(
                "The node's parameters as that executable has them (its own copy)." +
                self._copies_note("that executable's next update of the node or its destroy")),
            get_proto=wrap_call("", Call(f"CGN_API cgn_status cgn_{n.node}_node_get(",
                                         ("const cgn_node *node", f"{self.desc} *desc_out"),
                                         ");")),
            exec_proto=wrap_call("", Call(f"CGN_API cgn_status cgn_{n.node}_exec_update(",
                                          ("cgn_exec *exec", "cgn_node *node",
                                           f"const {self.update} *update"), ");")),
            exec_get_proto=wrap_call("", Call(f"CGN_API cgn_status cgn_{n.node}_exec_get(",
                                              ("const cgn_exec *exec", "const cgn_node *node",
                                               f"{self.desc} *desc_out"), ");")),
            exec_fn_doc=comment_block(self._exec_doc()),
            from_desc=self._from_desc(),
            update_fn_doc=comment_block(
                "Applies a partial update with one cuGraphNodeSetParams, all or nothing; future "
                "instantiations see it, existing executables keep their parameters and owners. "
                f"Needs driver {self.gate_text}.\nAn update with nothing set returns CGN_OK "
                "without touching the driver."
                + (f"\n{n.update_check.status} when {n.update_check.doc}."
                   if n.update_check is not None else "")),
        )

    def _exec_doc(self) -> str:
        n = self.n
        text = ("Applies a partial update to the node in one executable, with one "
                "cuGraphExecNodeSetParams, all or nothing: unset fields keep what *that "
                "executable* has (its own copy, taken at instantiation; the definition is never "
                "read), with the same coupling rules as the definition. The definition and "
                "other executables are not touched. Owners of the new version are held until "
                "no launch of the executable can read that version any more (docs/ownership.md)."
                f" Needs driver {self.gate_text}.")
        if n.exec_rules:
            rules = [f"{r.field}: {r.rule}" for r in n.exec_rules]
            text += ("\nRefused before any mutation (the driver's executable-update rules): "
                     + "; ".join(rules) + ".")
        if n.driver_rules:
            text += ("\nChecked by the driver only (cgn cannot see what they depend on), "
                     "CGN_ERROR_INVALID_VALUE naming the rule when refused: "
                     + "; ".join(f"{f}: {r}" for f, r in n.driver_rules) + ".")
        text += ("\nAnother change the driver refuses is CGN_ERROR_DRIVER naming the fields set;"
                 " nothing changes.")
        return text

    def _from_desc(self) -> dict:
        body = []
        for f in self.n.fields:
            for m in self._inputs(f):
                if m.update_only:
                    continue
                name = m.name.format(name=f.name)
                body.append(f"update->{name} = desc->{name};")
        body += render_lines("", [Call("update->set = ", (self.add_bits,), ";")])
        sig = wrap_call("", Call(f"static inline void cgn_{self.node}_update_from_desc(",
                                 (f"{self.update} *update", f"const {self.desc} *desc"),
                                 ") {"))
        return dict(doc=comment_block("Sets every field from a complete desc (a full "
                                      "replacement, e.g. at executable level)."),
                    sig=sig, body=[INDENT + b for b in body])

    def groups(self) -> list:
        """Setter groups: a non-follower, its followers and what it requires, transitively;
        groups equal as sets appear once, named after their first field."""
        n = self.n
        by_name = {f.name: f for f in n.fields}
        out, seen = [], set()
        for f in n.fields:
            if f.follows:
                continue
            group = {f.name}
            todo = [f.name]
            while todo:
                g = by_name[todo.pop()]
                for other in g.followers + g.requires:
                    if other not in group:
                        group.add(other)
                        todo.append(other)
            key = frozenset(group)
            if key in seen:
                continue
            seen.add(key)
            out.append((f, [g for g in n.fields if g.name in group]))
        return out

    def _custom_setter(self, f: Field) -> dict:
        params, body, doc = f.type.setter
        kw = self._kw(f)
        sig = wrap_call("", Call(f"static inline void cgn_{self.node}_update_set_{f.name}(",
                                 (f"{self.update} *update",) + tuple(params), ") {"))
        lines = [b.format(**kw) for b in body]
        lines += render_lines("", [Call("update->set |= ", (self.bit(f),), ";")])
        return dict(doc=comment_block(doc.format(**kw)), sig=sig,
                    body=[INDENT + b if b else b for b in lines])

    def _setters(self) -> list:
        setters = []
        for first, fields in self.groups():
            if first.type.setter is not None:
                setters.append(self._custom_setter(first))
                continue
            names = [g.name for g in fields]
            doc = f"Sets {_join_words(names)}{' together' if len(names) > 1 else ''}."
            params = [f"{self.update} *update"] + [m.decl(g.name) for g in fields
                                                     for m in self._inputs(g)]
            sig = wrap_call("", Call(f"static inline void cgn_{self.node}_update_set_"
                                     f"{first.name}(", tuple(params), ") {"))
            body = [f"update->{m.name.format(name=g.name)} = {m.name.format(name=g.name)};"
                    for g in fields for m in self._inputs(g)]
            body += render_lines("", [Call("update->set |= ",
                                           tuple(self.bit(g) for g in fields), ";", " | ")])
            setters.append(dict(doc=comment_block(doc), sig=sig,
                                body=[INDENT + b if b else b for b in body]))
        return setters

    # ---- source --------------------------------------------------------------------------

    def source(self) -> dict:
        n = self.n
        rules = []
        by_name = {f.name: f for f in n.fields}
        for r in n.rules:
            # Checked when the update changes a field the rule reads: the version it replaces
            # passed it already.
            bits = self._changed_bits(r.fields, by_name)
            if bits:
                line = INDENT + f"if ((changed & ({' | '.join(sorted(bits))})) && ({r.when}))"
                if len(line) <= 100:
                    rules.append(line)
                else:
                    rules += wrap_call(INDENT, Call("if ((changed & (", tuple(sorted(bits)),
                                                    ")) &&", " | "))
                    rules.append(INDENT + f"    ({r.when}))")
            else:
                rules.append(INDENT + f"if ({r.when})")
            fmt = c_string("%s: " + r.message)
            rules += wrap_call(INDENT * 2, Call("return cgn__fail(",
                                                (r.status, fmt, "where") + r.args, ");"))
        rules_voids = _voids(rules, ("d", "changed", "where"))

        checks = [line for f in n.fields for line in self._snippet(f, f.type.check)]
        checks = render_lines(INDENT, checks)
        check_voids = _voids(checks, ("d", "changed", "where"))

        extents = {e.field: e for e in n.host_extents}
        stage = render_lines(INDENT, [l for f in n.fields
                                      for l in self._snippet(f, f.type.stage)
                                      + self._host_extent(extents.get(f.name), by_name)])
        stage_voids = _voids(stage, ("txn", "d", "u", "changed", "p", "where"))

        owner_exprs = tuple(f"d->{m.format(name=f.name)}" for f in n.owners
                            if f.type.role != ROLE_ARGS for m in f.type.owner_members)
        args = next((f for f in n.owners if f.type.role == ROLE_ARGS), None)
        arg_pair = (f"d->{args.name}", f"d->num_{args.name}") if args else ("NULL", "0")
        owners = []
        if owner_exprs:
            owners += render_lines(INDENT, [Call("cgn_owner *const owners[] = {", owner_exprs,
                                                 "};")])
            owners += render_lines(INDENT, [Call("return cgn__txn_stage_owners(",
                                                 ("txn", "owners",
                                                  "sizeof owners / sizeof owners[0]")
                                                 + arg_pair, ");")])
        else:
            owners += render_lines(INDENT, [Call("return cgn__txn_stage_owners(",
                                                 ("txn", "NULL", "0") + arg_pair, ");")])
        owners = _voids(owners, ("d",)) + owners
        # The bits whose change can change the owner list: the owner fields (or the fields they
        # follow) and the args field. An update setting none of them keeps the current
        # attachment without even comparing owner lists.
        owner_bits = sorted({self.bit(n.field(f.leader)) for f in n.owners}
                            | {self.bit(f) for f in n.fields if f.type.changes_owners})
        self.owner_bits = " | ".join(owner_bits) if owner_bits else "0"

        settle = render_lines(INDENT, [l for f in n.fields
                                       for l in self._snippet(f, f.type.settle)])

        build = [f"p->type = {n.cu_node_type};"]
        build += [l for f in n.fields for l in self._snippet(f, f.type.build)]
        build += [f"p->{n.member}.{m} = {v};" for m, v in n.fixed]
        if n.context_field:
            build.append(f"p->{n.member}.{n.context_field} = ctx;")
        build = render_lines(INDENT, build)
        build_voids = _voids(build, ("d", "ctx"))

        # Per-field driver gates (`since`), before anything else an update checks.
        field_gates = []
        for f in n.fields:
            if not f.since:
                continue
            field_gates.append(INDENT + f"if ((set & {self.bit(f)}) && cgn__driver->version < "
                                        f"{f.since})")
            field_gates += wrap_call(INDENT * 2, Call("return cgn__require_driver(", (
                str(f.since), "1", c_string(f"{n.node.replace('_', ' ')} updates that set "
                                            f"{f.name}")), ");"))

        requires = []
        requirers = [f for f in n.fields if f.requires]
        # With several checks, one test of every requiring field's bit skips them all in the
        # common update (a new grid or scalar sets no field that requires another).
        guarded = sum(len(f.requires) for f in requirers) > 1
        ind = INDENT * 2 if guarded else INDENT
        for f in requirers:
            for r in f.requires:
                cond = ind + f"if ((set & {self.bit(f)}) && !(set & {self.bit(n.field(r))}))"
                if len(cond) <= WIDTH:
                    requires.append(cond)
                else:
                    requires += [ind + f"if ((set & {self.bit(f)}) &&",
                                 ind + f"    !(set & {self.bit(n.field(r))}))"]
                requires += wrap_call(ind + INDENT, Call("return cgn__fail(", (
                    "CGN_ERROR_MISSING_FIELD", c_string(f"%s: {f.name} requires {r}"), "where"),
                    ");"))
        if guarded:
            head = _wrap_bits(INDENT + "if (set & (", [self.bit(f) for f in requirers], ")) {")
            requires = head + requires + [INDENT + "}"]

        merge = []
        for f in n.fields:
            if f.follows or f.type.update_only:  # update-only fields are staged from `update`
                continue
            merge += _when_set(INDENT, self.bit(f), self._merge_stmts(f))

        add_resets = render_lines(INDENT, [f"d.{m} = {zero};"
                                           for m, zero in self._internals(n.fields)]
                                  + [f"d.{f.name} = 0; /* output: the driver chooses it */"
                                     for f in n.outputs])
        add_outputs = render_lines(INDENT, [f"d.{f.name} = p.{n.member}.{f.cuda};"
                                            for f in n.outputs])
        # Fields cgn keeps exactly as given (no staging, check, owners, followers or members of
        # its own, no host operand): an update setting only such fields commits by writing them
        # back one by one. Copying the whole descriptor instead reads, in 8-byte words, bytes the
        # merge just wrote in narrower stores (a dim3's members, a 4-byte value): the loads
        # cannot be forwarded from those stores and stall (a new grid: 18 -> 14.5 ns per update
        # on the fake with the setter stubbed).
        extent_fields = {e.field for e in n.host_extents}
        owner_leaders = {f.leader for f in n.owners}
        plain = [f for f in n.fields
                 if f.type.role == "value" and not f.type.stage and not f.type.check
                 and not f.type.exec_check and not f.type.storage and not f.type.copied
                 and not f.type.settle and not f.type.changes_owners and not f.type.owner_members
                 and not f.type.update_only and not f.follows and not f.followers
                 and not self._internals([f]) and f.name not in extent_fields
                 and f.name not in owner_leaders and not f.output]
        # Those set, from the update (the merge copied them as they are): reading them back from
        # the merged copy would again read across its narrower stores.
        plain_commit = []
        for f in plain:
            plain_commit += _when_set(INDENT * 2, self.bit(f), [
                f"cur->{m.name.format(name=f.name)} = update->{m.name.format(name=f.name)};"
                for m in self._inputs(f)])
        plain_cond = (_wrap_bits(INDENT + "if (!(set & ~(", [self.bit(f) for f in plain],
                                 ")) &&")
                      + [INDENT * 2 + "cgn__txn_no_context_to_restore(&txn)) {"])
        # The lean path of an update of such fields alone (no gate or requirement of their own),
        # without a transaction: only where every other field's type says what it does then
        # (lean_keep), the setters are typed (the params are the member alone), and nothing
        # checks or settles the update as a whole.
        names = {f.name for f in plain}
        lean_fields = [f for f in plain if not f.since and not f.requires]
        lean_plain = None
        # The context question is asked of the current version before anything else: such
        # fields must not be among what it reads (spec: context_when).
        if (lean_fields and n.set is not None and n.exec_set is not None
                and n.update_check is None and not settle
                and (not n.context_current or n.context_free_from)
                and not any(re.search(rf"\bd->{f.name}\b", n.context_when or "")
                            for f in lean_fields)
                and all(f.name in names or not f.type.stage or f.type.lean_keep is not None
                        for f in n.fields)):
            node = n.node
            lean_plain = dict(
                mask=[self.bit(f) for f in lean_fields],
                ctx_free=_context_free(n, "lean.ctx", "lean.state", "lean.state"),
                merge=[line for f in lean_fields for line in _when_set(INDENT * 2, self.bit(f), [
                    f"d.{m.name.format(name=f.name)} = update->{m.name.format(name=f.name)};"
                    for m in self._inputs(f)])],
                keep=render_lines(INDENT * 3, [line for f in n.fields if f.name not in names
                                               for line in self._snippet(f, f.type.lean_keep or ())]),
                commit=[line for f in lean_fields for line in _when_set(INDENT * 4, self.bit(f), [
                    f"cur->{m.name.format(name=f.name)} = update->{m.name.format(name=f.name)};"
                    for m in self._inputs(f)])],
                dispatch=_wrap_bits(INDENT + "if (update != NULL && update->set != 0 && "
                                    "!(update->set & ~(", [self.bit(f) for f in lean_fields],
                                    ")))"),
                name="plain", with_owners=1, checks=[], commit_all=False, incomplete=None,
                doc="for updates of fields kept as given alone",
                exec_check=[])  # below, once the executable-update rules are known
        lean_lead = self._lean_lead()
        update_check = []
        if n.update_check is not None:
            update_check = [INDENT + f"st = {n.update_check.call}(&txn, where);",
                            INDENT + "if (st != CGN_OK)",
                            INDENT * 2 + "return cgn__txn_fail(&txn, st);"]

        exec_checks = []
        for r in n.exec_rules:
            exec_checks.append(INDENT + f"if ({r.when})")
            fmt = c_string(f"%s: field {r.field}: {r.message}; rule: {r.rule}")
            exec_checks += wrap_call(INDENT * 2, Call("return cgn__fail(",
                                                      (r.status, fmt, "where") + r.args, ");"))
        exec_checks += render_lines(INDENT, [l for f in n.fields
                                             for l in self._snippet(f, f.type.exec_check)])
        lean_fieldwise = [lp for lp in (lean_plain, lean_lead) if lp is not None]
        for lp in lean_fieldwise:
            lp["comment"] = {level: comment_block(f"cgn_{n.node}_{fn}'s lean path {lp['doc']}.")
                             for level, fn in ((False, "node_update"), (True, "exec_update"))}
        if exec_checks:
            # The executable-update rules, where the spec has any.
            for lp in lean_fieldwise:
                lp["exec_check"] = wrap_call(INDENT * 3, Call(
                    f"if (lean_ok && cgn__{n.node}_exec_check(", (
                        "lean.state", "&d", "lean.ctx", "where"), ") != CGN_OK)")) + [
                    INDENT * 4 + "lean_ok = 0;"]
        exec_check_voids = _voids(exec_checks, ("cur", "d", "ctx", "where"))
        field_names = wrap_call(INDENT, Call("", tuple(c_string(f.name) for f in n.fields),
                                             ""))
        drules = dict(n.driver_rules)
        driver_rules = [INDENT + (c_string(drules[f.name]) if f.name in drules else "NULL") + ","
                        for f in n.fields]

        node = n.node
        # The calling thread's context around an update: always (kernel: the driver crashes on
        # a CUfunction update with no context current), before the spec's context_free_from
        # driver version, or never.
        if not n.context_current:
            ctx_enter = None
        elif n.context_free_from and n.context_when:
            ctx_enter = (f"st == CGN_OK &&\n        (cgn__driver->version < "
                         f"{n.context_free_from} || "
                         f"{node}_needs_context(txn.cur_ctx, txn.cur_state, &d))")
        elif n.context_free_from:
            ctx_enter = f"st == CGN_OK && cgn__driver->version < {n.context_free_from}"
        else:
            ctx_enter = "st == CGN_OK"
        # The update loop's common cases, an update of every argument alone and argument-level
        # edits alone, none with an owner (cgn__stage_kernel_args_unowned, cgn__stage_arg_edits):
        # paths of their own, taken only where nothing the general path does for such an update
        # is left out. No rule, kind check, executable rule or update check reads the arguments,
        # nothing is settled, and no context has to be made current (a node type that always
        # needs one has no such path). Emitted after the field gates and `requires`.
        fast_paths = []
        args_f, kernel_f = n.role(ROLE_ARGS), n.role(ROLE_KERNEL)
        edits_f = n.role(ROLE_ARG_EDITS)
        arg_rules = any(args_f is not None and args_f.name in r.fields for r in n.rules)
        # Each has a lean path first (runtime.h, cgn__lean): the steady state, arguments
        # written into the current block in place, with no transaction, through the typed
        # setters (whose params are the member alone, zeroed word by word); then a path in
        # the transaction for the rest (a second block taken: the first is shared or an
        # argument is not small).
        if (args_f is not None and kernel_f is not None and not arg_rules
                and not args_f.type.check and not kernel_f.type.check
                and not args_f.type.exec_check and not n.exec_rules
                and n.update_check is None and not settle
                and n.set is not None and n.exec_set is not None
                and (not n.context_current or n.context_free_from)):
            ctx_free = _context_free(n, "txn.cur_ctx", "cur", "cur")
            lean_ctx_free = _context_free(n, "lean.ctx", "cur", "cur")
            ind = INDENT * (3 if ctx_free else 2)
            lean_ind = INDENT * (4 if lean_ctx_free else 3)
            # Before the field gates and `requires` when neither concerns the field alone.
            early = not args_f.since and not args_f.requires
            # At definition level a version with owners takes a path of its own where the
            # arguments are owners of the version (spec `owners`): written in place too, when the
            # version's attachment is the graph's alone (cgn__args_in_place_owned), its owners
            # replaced after the driver call; the node type's other owner fields are unchanged.
            owned = None
            if any(f.name == args_f.name for f in n.owners):
                fixed = [f"cur->{m.format(name=f.name)}" for f in n.owners
                         if f.type.role != ROLE_ARGS for m in f.type.owner_members]
                # At two indents after the template strips the first eight columns.
                owned = ([INDENT * 4 + "cgn_owner *const fixed[] = {" + ", ".join(fixed)
                          + "};"] if fixed else []) + wrap_call(INDENT * 4, Call(
                    "params = cgn__args_in_place_owned(", (
                        "lean", f"cur->{kernel_f.name}", f"update->{args_f.name}",
                        f"update->num_{args_f.name}", "fixed" if fixed else "NULL",
                        str(len(fixed)), "&undo", "&swap"), ");"))
            fast_paths.append(dict(owned=owned,
                bit=self.bit(args_f), extra=[], ctx_free=ctx_free, args=args_f.name, early=early,
                lean_ctx_free=lean_ctx_free, since=args_f.since, requires=args_f.requires,
                cuda=args_f.cuda, num=f"update->num_{args_f.name}",
                doc="new values for every argument of the same kernel",
                lean_in_place=wrap_call(lean_ind, Call("params = cgn__args_in_place(", (
                    "lean.storage", f"cur->{kernel_f.name}", f"update->{args_f.name}",
                    f"update->num_{args_f.name}", "&undo"), ");")),
                take=wrap_call(ind, Call("params = cgn__stage_kernel_args_unowned(", (
                    "&txn", f"cur->{kernel_f.name}", f"update->{args_f.name}",
                    f"update->num_{args_f.name}", "&copies"), ");"))))
            if edits_f is not None and not edits_f.type.check and not edits_f.type.exec_check:
                edits = f"update->{edits_f.name}_edits"
                take = wrap_call(ind, Call("st = cgn__stage_arg_edits(", (
                    "&txn", "&" + edits, "&copies", "&params", "where"), ");"))
                fast_paths.append(dict(
                    owned=None, bit=self.bit(edits_f), ctx_free=ctx_free, args=args_f.name,
                    lean_ctx_free=lean_ctx_free, since=edits_f.since,
                    requires=edits_f.requires, field=edits_f.name,
                    early=not edits_f.since and not edits_f.requires,
                    extra=[f"{edits}.count > 0", f"cgn__arg_edits_unowned(&{edits})"],
                    cuda=args_f.cuda, num=None,
                    doc="arguments replaced by index, the others kept",
                    lean_in_place=wrap_call(lean_ind, Call("params = cgn__arg_edits_in_place(", (
                        "lean.storage", "&" + edits, "&undo"), ");")),
                    # The one-call form's single edit, as its parameters give it.
                    lean_in_place_direct=lambda names, i=lean_ind: wrap_call(i, Call(
                        "params = cgn__arg_in_place(", ("lean.storage",) + tuple(names) +
                        ("&undo",), ");")),
                    take=take + [ind + "if (st != CGN_OK)",
                                 ind + INDENT + "return cgn__txn_fail(&txn, st);"]))

        def apply(call, fn, raw, indent=INDENT):
            if call is None:
                return [indent + "st = cgn__txn_apply(&txn, &p, where);"]
            return wrap_call(indent, Call("st = cgn__txn_applied(", (
                "&txn", f"{fn}({raw}, &p)", c_string(call.entry), "where"), ");"))
        def_raw, exec_raw = "txn.node->raw", "txn.exec->raw, txn.shadow->raw"
        setters = dict(
            def_set=_setter_fn(n, False), exec_set=_setter_fn(n, True),
            def_entry=n.set.entry if n.set else None,
            exec_entry=n.exec_set.entry if n.exec_set else None,
            def_apply=apply(n.set, f"{node}_set_raw", def_raw),
            exec_apply=apply(n.exec_set, f"{node}_exec_set_raw", exec_raw),
            def_apply_fast=apply(n.set, f"{node}_set_raw", def_raw, INDENT * 3),
            exec_apply_fast=apply(n.exec_set, f"{node}_exec_set_raw", exec_raw, INDENT * 3))
        if fast_paths or lean_fieldwise:  # the lean paths' one call (typed setters: checked above)
            setters.update(
                def_lean_set=f"CUresult r = {node}_set_raw(lean.raw, &p);",
                exec_lean_set=f"CUresult r = {node}_exec_set_raw(lean.exec, lean.raw, &p);",
                def_lean_fail=lambda bit: wrap_call(INDENT * 5, Call(
                    "return cgn__lean_apply_failed(", ("r", "where", c_string(n.set.entry)),
                    ");")),
                exec_lean_fail=lambda bit: wrap_call(INDENT * 5, Call(
                    "cgn_status st = cgn__lean_apply_failed(", (
                        "r", "where", c_string(n.exec_set.entry)), ");")) + wrap_call(
                    INDENT * 5, Call("return cgn__exec_refused(", (
                        "st", bit, f"{node}_field_names", f"{node}_driver_rules",
                        str(len(n.fields))), ");")))
        return dict(
            plain_commit=plain_commit, plain_cond=plain_cond if plain else [],
            lean_fieldwise=lean_fieldwise,
            word_copy=any(f.type.narrow_members for f in n.fields),
            fast_paths=fast_paths,
            ctx_enter=ctx_enter, context_when=_or_lines(n.context_when, " " * 12)
            if n.context_when else None, member=n.member, **setters,
            origin=self.origin, node=node, desc=self.desc, update=self.update, P=self.P,
            type_enum=n.type_enum, gate=n.update_gate, needs_context=self.needs_context,
            updatable=n.updatable, add_outputs=add_outputs,
            bits=[(self.bit(f), f"UINT64_C({hex(f.bit_value)})") for f in n.fields],
            all_mask=f"UINT64_C({hex((1 << len(n.fields)) - 1)})",
            settle=settle, add_bits=self.add_bits,
            # Without a getter nothing reads the node (the registry's read entry is NULL).
            read=self._read() if n.get is not None else None,
            settle_doc=comment_block(f"Drops the references {node}_stage created, once the "
                                     "owners are staged or staging failed: the staged "
                                     "attachment, if any, holds its own, and a rollback "
                                     "releases that one."),
            settle_sig=wrap_call("", Call(f"static void {node}_settle(", (
                f"const {self.desc} *d", "uint64_t changed"), ") {")),
            add_resets=add_resets, update_check=update_check,
            rules=rules, rules_voids=rules_voids,
            checks=checks, check_voids=check_voids,
            check_sig=wrap_call("", Call(f"{INLINE_STEP} {node}_check_kinds(", (
                f"const {self.desc} *d", "uint64_t changed", "const char *where"), ") {")),
            rules_sig=wrap_call("", Call(f"{INLINE_STEP} {node}_check_rules(", (
                f"const {self.desc} *d", "uint64_t changed", "const char *where"), ") {")),
            stage=stage, stage_voids=stage_voids,
            stage_sig=wrap_call("", Call(f"{INLINE_STEP} {node}_stage(", (
                "cgn__txn *txn", f"{self.desc} *d",
                f"const {self.update} *u" if n.updatable else "const void *u",
                "uint64_t changed", "CUgraphNodeParams *p", "const char *where"), ") {")),
            owners=owners, owner_bits=self.owner_bits,
            owner_cond=wrap_call(INDENT, Call("if (st == CGN_OK && (set & (",
                                              tuple(self.owner_bits.split(" | ")), ")))",
                                              " | ")),
            owners_sig=wrap_call("", Call(f"{INLINE_STEP} {node}_stage_owners(", (
                "cgn__txn *txn", f"const {self.desc} *d"), ") {")),
            build=build, build_voids=build_voids,
            build_sig=wrap_call("", Call(f"CGN__ALWAYS_INLINE static inline void {node}_build(", (
                f"const {self.desc} *d", "CUcontext ctx", "CUgraphNodeParams *p"), ") {")),
            add_sig=wrap_call("", Call(f"cgn_status cgn_graph_add_{node}(", (
                "cgn_graph *graph", "cgn_node *const *deps", "size_t num_deps",
                f"const {self.desc} *desc", "cgn_node **node_out"), ") {")),
            add_begin=wrap_call(INDENT, Call("st = cgn__add_begin(", (
                "&txn", "graph", "deps", "num_deps", n.type_enum, "sizeof d",
                str(self.needs_context), "where"), ");")),
            update_sig=wrap_call("", Call(f"cgn_status cgn_{node}_node_update(", (
                "cgn_node *node", f"const {self.update} *update"), ") {")),
            update_begin=wrap_call(INDENT * 2, Call("st = cgn__update_begin(", (
                "&txn", "node", n.type_enum, str(n.update_gate), "where"), ");")),
            exec_check_sig=[f"/* The executable-update rules: may an executable's version `cur` "
                            f"become `d`? */"]
            + wrap_call("", Call(f"cgn_status cgn__{node}_exec_check(", (
                "const void *cur_", "const void *d_", "CUcontext ctx", "const char *where"),
                ") {")),
            exec_checks=exec_checks,
            exec_check_voids=[f"const {self.desc} *cur = cur_;", f"const {self.desc} *d = d_;"]
            + exec_check_voids,
            exec_check_call=wrap_call(INDENT * 2, Call(f"st = cgn__{node}_exec_check(", (
                "cgn__txn_current_state(&txn)", "&d", "cgn__txn_context(&txn)", "where"),
                ");")),
            field_names=field_names, driver_rules=driver_rules, num_fields=len(n.fields),
            exec_get_sig=wrap_call("", Call(f"cgn_status cgn_{node}_exec_get(", (
                "const cgn_exec *exec", "const cgn_node *node", f"{self.desc} *desc_out"),
                ") {")),
            exec_get_begin=wrap_call(INDENT, Call("cgn_status st = cgn__exec_update_begin(", (
                "&txn", "(cgn_exec *)(uintptr_t)exec", "(cgn_node *)(uintptr_t)node",
                n.type_enum, "0", "where"), ");")),
            requires=requires, merge=merge, field_gates=field_gates,
            get_sig=wrap_call("", Call(f"cgn_status cgn_{node}_node_get(", (
                "const cgn_node *node", f"{self.desc} *desc_out"), ") {")),
            exec_sig=wrap_call("", Call(f"cgn_status cgn_{node}_exec_update(", (
                "cgn_exec *exec", "cgn_node *node", f"const {self.update} *update"), ") {")),
            exec_begin=wrap_call(INDENT * 2, Call("st = cgn__exec_update_begin(", (
                "&txn", "exec", "node", n.type_enum, str(n.update_gate), "where"), ");")),
            directs=self._direct_setters(),
            # The attribute on a line of its own, as runtime.h does: long node names stay in
            # the width.
            update_body_sig=["CGN__ALWAYS_INLINE"] + wrap_call("", Call(
                f"static inline cgn_status {node}_node_update_body(", (
                    "cgn_node *node", f"const {self.update} *update", "uint64_t known_set",
                    "const cgn__lean *resolved", "const char *where"), ") {")),
            update_sigs={name: self._out_of_line_sig(name, False) for name in ("plain", "lead")},
            exec_sigs={name: self._out_of_line_sig(name, True) for name in ("plain", "lead")},
            update_lean_sig=self._out_of_line_sig("lean", False),
            update_owned_sig=wrap_call("", Call(
                f"static CGN__NOINLINE cgn_status {node}_node_update_owned(", (
                    "cgn_node *node", f"const {self.update} *update", "cgn__lean *lean",
                    "const char *where"), ") {")),
            update_owned_doc=comment_block(
                f"cgn_{node}_node_update's lean path for every argument when the version has "
                "owners (runtime.h, cgn__args_in_place_owned): written in place too where the "
                "version's attachment is the graph's alone, its owners replaced after the driver "
                "call; anything else, and every error, takes the transaction's path, from the "
                "lookups made."),
            exec_lean_sig=self._out_of_line_sig("lean", True),
            update_txn_sig=self._out_of_line_sig("txn", False, resolved=True),
            exec_txn_sig=self._out_of_line_sig("txn", True, resolved=True),
            exec_body_sig=["CGN__ALWAYS_INLINE"] + wrap_call("", Call(
                f"static inline cgn_status {node}_exec_update_body(", (
                    "cgn_exec *exec", "cgn_node *node", f"const {self.update} *update",
                    "uint64_t known_set", "const cgn__lean *resolved", "const char *where"),
                ") {")),
        )

    def _merge_stmts(self, f: Field) -> list:
        """What an update setting field f (not a follower) merges into the copy `d`: f, and each
        field that follows it, from the update where set, else zero."""
        n = self.n
        stmts = [f"d.{m.name.format(name=f.name)} = update->{m.name.format(name=f.name)};"
                 for m in self._inputs(f)]
        for fol_name in f.followers:
            fol = n.field(fol_name)
            for mem in self._inputs(fol):
                m = mem.name.format(name=fol.name)
                stmts.append(f"d.{m} = (set & {self.bit(fol)}) ? update->{m} : {mem.zero};")
        return stmts + [f"d.{m} = {zero}; /* set by cgn */"
                        for m, zero in self._internals([f] + [n.field(x) for x in f.followers])]

    def _lean_checks_only(self, f: Field) -> bool:
        """Whether what the transaction does for field f, when set, is checks alone: a value
        kept as given or whose stage only checks it (FieldType.lean_stage)."""
        t = f.type
        extent_fields = {e.field for e in self.n.host_extents}
        return (t.role == "value" and (not t.stage or t.lean_stage) and not t.storage
                and not t.copied and not t.settle and not t.changes_owners
                and not t.owner_members and not t.update_only and not f.output and not f.since
                and not self._internals([f]) and f.name not in extent_fields)

    def _lean_lead(self) -> dict | None:
        """The lean path of an update of a field and the fields that follow it (a host function
        and its argument, an event) where neither the update nor the current version has an
        owner: the followers that may hold owners or copies must be empty (FieldType.lean_empty),
        so there is no attachment to make or drop and nothing to copy, and what the transaction
        does reduces to the merge, the checks, one typed setter call and the descriptor written
        back. As for the plain path, every other field's type says what an update that leaves
        it alone does (lean_keep); the setters are typed at both levels, and no update check or
        context question reads the field. The first such field in spec order, if any."""
        n = self.n
        if (n.set is None or n.exec_set is None or n.update_check is not None
                or (n.context_current and not n.context_free_from)):
            return None
        for lead in n.fields:
            if (lead.follows or not lead.followers or lead.requires
                    or not self._lean_checks_only(lead)
                    or re.search(rf"\bd->{lead.name}\b", n.context_when or "")):
                continue
            followers = [n.field(x) for x in lead.followers]
            checked = [f for f in followers if self._lean_checks_only(f)]
            emptied = [f for f in followers if f not in checked]
            group = {lead.name} | set(lead.followers)
            if (any(f.since for f in followers)
                    or any(f.type.lean_empty is None for f in emptied)
                    or not all(f.name in group or not f.type.stage
                               or f.type.lean_keep is not None for f in n.fields)):
                continue
            # A follower set without what it requires besides the leader: the transaction's.
            incomplete = [[f"if ((set & {self.bit(f)}) &&",
                           f"    !(set & {self.bit(n.field(r))}))"]
                          for f in followers for r in f.requires if r != lead.name]
            empty = [f.type.lean_empty.format(name=f.name) for f in emptied]
            keep = []
            if empty:
                keep += [f"if (!({' && '.join(empty)}))",
                         INDENT + "lean_ok = 0; /* owners or copies: the transaction's */"]
            keep += [line.format(name=f.name) for f in emptied for line in f.type.lean_empty_stage]
            keep += [line for f in n.fields if f.name not in group
                     for line in self._snippet(f, f.type.lean_keep or ())]
            mask = [self.bit(lead)] + [self.bit(f) for f in followers]
            return dict(
                name="lead", with_owners=0, commit_all=True,
                checks=render_lines(INDENT, [line for f in [lead] + checked
                                             for line in self._snippet(f, f.type.stage)]),
                doc=f"for updates of {lead.name} (and what follows it) with no owners",
                ctx_free=_context_free(n, "lean.ctx", "lean.state", "lean.state"),
                incomplete=incomplete,
                merge=_split_assignments(INDENT * 2, self._merge_stmts(lead)),
                keep=render_lines(INDENT * 3, keep), commit=[],
                dispatch=[INDENT + f"if (update != NULL && (update->set & {self.bit(lead)}) &&"]
                + _wrap_bits(INDENT * 3 + "!(update->set & ~(", mask, ")))"),
                checks_sig=wrap_call("", Call(
                    f"CGN__ALWAYS_INLINE static inline cgn_status {n.node}_lean_checks(", (
                        f"const {self.desc} *d", "uint64_t changed", "const char *where"),
                    ") {")),
                exec_check=[])
        return None

    def _out_of_line_sig(self, suffix: str, exec_level: bool, resolved: bool = False) -> list:
        """The signature of <node>_node_update_<suffix> / <node>_exec_update_<suffix>: the
        update function's lean paths (lean, plain) and transaction's path (txn), each a function
        of its own (noinline: the update function dispatches to them)."""
        level = "exec" if exec_level else "node"
        params = ((("cgn_exec *exec",) if exec_level else ()) +
                  ("cgn_node *node", f"const {self.update} *update") +
                  (("const cgn__lean *resolved",) if resolved else ()) + ("const char *where",))
        return wrap_call("", Call(
            f"static CGN__NOINLINE cgn_status {self.n.node}_{level}_update_{suffix}(", params,
            ") {"))

    def _direct_setters(self) -> list:
        """cgn_<node>_node_set_<name> / _exec_set_<name> of fields whose type says `direct`: an
        update on the stack with that one setter applied, then the update function's body with
        `set` a constant, so the compiler keeps only the paths an update of that field takes."""
        n = self.n
        out = []
        for f, def_fn, exec_fn, params, names in _direct_forms(n):
            # The public reset and setter, inlined: only what they write is read.
            fill = [f"{self.update} direct; /* this field alone: the others are never read */",
                    f"cgn_{n.node}_update_reset(&direct);"]
            fill += wrap_call("", Call(f"cgn_{n.node}_update_set_{f.name}(",
                                       ("&direct",) + names, ");"))
            out.append(dict(
                bit=self.bit(f), names=names,
                fill=[INDENT + line if line else line for line in fill],
                def_where=f'"{def_fn}"', exec_where=f'"{exec_fn}"',
                def_call=wrap_call(INDENT, Call(f"return {n.node}_node_update_body(", (
                    "node", "&direct", self.bit(f), "resolved", "where"), ");")),
                exec_call=wrap_call(INDENT, Call(f"return {n.node}_exec_update_body(", (
                    "exec", "node", "&direct", self.bit(f), "resolved", "where"), ");")),
                # Behind a lean path: the transaction's path in a function of its own.
                def_txn_sig=wrap_call("", Call(
                    f"static CGN__NOINLINE cgn_status {n.node}_node_set_{f.name}_txn(",
                    ("cgn_node *node",) + params + ("const cgn__lean *resolved",
                                                    "const char *where"), ") {")),
                exec_txn_sig=wrap_call("", Call(
                    f"static CGN__NOINLINE cgn_status {n.node}_exec_set_{f.name}_txn(",
                    ("cgn_exec *exec", "cgn_node *node") + params + (
                        "const cgn__lean *resolved", "const char *where"), ") {")),
                def_txn_call=wrap_call(INDENT, Call(f"return {n.node}_node_set_{f.name}_txn(",
                                                    ("node",) + names + ("resolved", "where"),
                                                    ");")),
                exec_txn_call=wrap_call(INDENT, Call(
                    f"return {n.node}_exec_set_{f.name}_txn(",
                    ("exec", "node") + names + ("resolved", "where"), ");")),
                def_sig=wrap_call("", Call(f"cgn_status {def_fn}(",
                                           ("cgn_node *node",) + params, ") {")),
                exec_sig=wrap_call("", Call(f"cgn_status {exec_fn}(",
                                            ("cgn_exec *exec", "cgn_node *node") + params,
                                            ") {"))))
        return out

    def _read(self) -> dict:
        """cgn__<node>_read: the driver's params (typed getter) into a desc, the inverse of
        build, for adoption and refresh. Owners come last: they compare what they guard."""
        n = self.n
        body = []
        if n.update_check is not None and n.update_check.read:
            body += [f"rd->unsupported = {n.update_check.read}(p);",
                     "if (rd->unsupported != NULL)",
                     INDENT + "return CGN_OK; /* recorded as a node cgn does not update */"]
        ordered = ([f for f in n.fields if not f.type.owner_members] +
                   [f for f in n.fields if f.type.owner_members])
        body += [l for f in ordered for l in self._snippet(f, f.type.read)]
        lines = render_lines(INDENT, body)
        voids = _voids(lines, ("rd", "p", "prev", "where"))
        sig = wrap_call("", Call(f"cgn_status cgn__{n.node}_read(", (
            "cgn__reader *rd", "const CUgraphNodeParams *p", "void *desc_", "const void *prev_",
            "const char *where"), ") {"))
        return dict(
            doc=comment_block(f"Reads an adopted (or refreshed) node's params into its desc: the "
                              f"inverse of {n.node}_build. Owners are never read (what the "
                              f"node points at is the caller's), except that a refresh keeps "
                              f"those of unchanged values (prev)."),
            sig=sig,
            head=[f"{self.desc} *d = desc_;", f"const {self.desc} *prev = prev_;"] + voids,
            body=lines)

    @staticmethod
    def _inputs(f: Field) -> list:
        """The members a caller sets (everything but those set by cgn)."""
        return [m for m in f.type.members if not m.internal]

    @staticmethod
    def _internals(fields) -> list:
        """(member name, zero) of the members set by cgn."""
        return [(m.name.format(name=f.name), m.zero) for f in fields for m in f.type.members
                if m.internal]

    # ---- test cases ----------------------------------------------------------------------

    def _fill_fn(self, name: str, fill: Fill, is_update: bool) -> dict:
        t = "u" if is_update else "d"
        ctype = self.update if is_update else self.desc
        init = f"{self.P}_UPDATE_INIT" if is_update else f"{self.P}_DESC_INIT"
        body = [f"{ctype} *{t} = out;", f"*{t} = ({ctype}){init};"]
        if is_update:
            bits = [self.bit(self.n.field(f)) for f in fill.fields]
            body += [line[len(INDENT):] for line in
                     render_lines(INDENT, [Call(f"{t}->set = ", tuple(bits), ";", " | ")])]
        body += [line.replace("$t", t) for line in fill.lines]
        body = _voids(body, ("env",)) + body
        return dict(sig=f"static void {name}(cgn_test_env *env, void *out) {{",
                    body=[INDENT + b for b in body])

    def cases(self) -> dict:
        n = self.n
        fills, invalid_tables, exec_invalid_tables, case_rows = [], [], [], []
        for c in n.cases:
            base = "case_" + c.id.replace("-", "_")
            fills.append(self._fill_fn(f"{base}_original", c.original, False))
            if c.update is not None:
                fills.append(self._fill_fn(f"{base}_update", c.update, True))
                fills.append(self._fill_fn(f"{base}_replacement", c.replacement, False))
            rows = []
            for i, inv in enumerate(c.invalid):
                fills.append(self._fill_fn(f"{base}_invalid_{i}", inv.update, True))
                rows += wrap_call(INDENT, Call("{", (f"{base}_invalid_{i}", inv.status,
                                                     c_string(inv.text)), "},"))
            if rows:
                invalid_tables.append(dict(
                    head=f"static const cgn_test_invalid {base}_invalid[] = {{", rows=rows))
            erows = []
            for i, inv in enumerate(c.exec_invalid):
                fills.append(self._fill_fn(f"{base}_exec_invalid_{i}", inv.update, True))
                erows += wrap_call(INDENT, Call("{", (f"{base}_exec_invalid_{i}", inv.status,
                                                      c_string(inv.text), c_string(inv.field)),
                                                "},"))
            if erows:
                exec_invalid_tables.append(dict(
                    head=f"static const cgn_test_exec_invalid {base}_exec_invalid[] = {{",
                    rows=erows))
            case_rows += wrap_call(INDENT, Call("{", (
                c_string(c.id), f"{base}_original",
                f"{base}_update" if c.update is not None else "NULL",
                f"{base}_replacement" if c.update is not None else "NULL",
                f"{base}_invalid" if rows else "NULL", str(len(c.invalid)),
                f"{base}_exec_invalid" if erows else "NULL", str(len(c.exec_invalid)),
                c_string(c.exec_refuses) if c.exec_refuses else "NULL"), "},"))
        equal_terms, output_terms = [], []
        helpers = []
        for f in n.fields:
            if f.type.update_only:
                continue
            if f.output:  # the driver's, never the case's: compared by desc_same only
                output_terms.append(f.type.equal.format(**self._kw(f)))
                continue
            equal_terms.append(f.type.equal.format(**self._kw(f)))
            if f.type.test_helper and f.type.test_helper not in helpers:
                helpers.append(f.type.test_helper)
        node = n.node
        return dict(
            origin=self.origin, node=node, desc=self.desc, update=self.update,
            type_enum=n.type_enum, helpers=helpers, fills=fills,
            invalid_tables=invalid_tables, exec_invalid_tables=exec_invalid_tables,
            case_rows=case_rows, num_cases=len(n.cases), updatable=n.updatable,
            equal=wrap_call(INDENT, Call("return ", tuple(equal_terms), ";", " && ")),
            same=wrap_call(INDENT, Call("return ", (f"type_{node}_desc_equal(a_, b_)",)
                                        + tuple(output_terms), ";", " && ")),
            same_casts=bool(output_terms),
            type_row=wrap_call(INDENT, Call("", (
                c_string(node), n.type_enum, f"sizeof({self.desc})",
                f"sizeof({self.update})" if n.updatable else "0",
                f"type_{node}_add", f"type_{node}_update" if n.updatable else "NULL",
                f"type_{node}_get",
                f"type_{node}_exec_update" if n.updatable else "NULL", f"type_{node}_exec_get",
                f"type_{node}_update_from_desc" if n.updatable else "NULL",
                f"type_{node}_desc_equal", f"type_{node}_desc_same",
                f"cgn_test_cases_{node}", str(len(n.cases))), "")),
        )


def _adopt_size(n, nodes: list) -> str:
    """The state an adopted node of n's CUDA type needs: adoption tells the node types sharing
    a CUDA type apart only after reading the params (their form checks), so the largest of
    their descs; 1 (one zero byte) for a type adoption does not read (no cuda.get)."""
    if n.get is None:
        return "1"
    sizes = [f"sizeof(cgn_{m.node}_desc)" for m in sorted(nodes, key=lambda m: m.type_enum)
             if m.cu_node_type == n.cu_node_type and m.get is not None]
    expr = sizes[0]
    for size in sizes[1:]:
        expr = f"CGN__MAX_SIZE({expr}, {size})"
    return expr


def _fake_rows(nodes: list) -> dict:
    """The fake driver's per-type rows (generated/tests/cgn_fake_nodes.h): typed adders and
    getters that take a whole params-member prefix (no `at`, `context` or output field, not the
    generic adder, a getter given: the fake implements them generically), once per entry point; and the copied arrays of
    copied_arrays fields (offsets in CUgraphNodeParams, element sizes, the count member)."""
    typed, seen, layouts = [], set(), []
    for n in sorted(nodes, key=lambda n: n.type_enum):
        a, g = n.add, n.get
        if g is not None and a.params and g.params and a.params != "CUgraphNodeParams" \
                and not (a.at or g.at or a.context or n.outputs) and a.entry not in seen:
            seen.add(a.entry)
            typed.append(dict(adder=a.entry, getter=g.entry, cu=n.cu_node_type, member=n.member,
                              params=a.params, get_params=g.params))
        for f in n.fields:
            if not f.type.arrays:
                continue
            parent = (f.cuda or "").rpartition(".")[0]
            kw = dict(cuda=f.cuda, cuda_dir=parent + "." if parent else "")
            layouts.append(dict(
                cu=n.cu_node_type, node=n.node, field=f.name,
                count=f"{n.member}.{f.type.array_count.format(**kw)}",
                parts=[(f"{n.member}.{c.format(**kw)}", t) for c, t in f.type.arrays]))
    cu_types = sorted({n.cu_node_type for n in nodes})
    return dict(origin=AGGREGATE_ORIGIN, typed=typed, layouts=layouts, cu_types=cu_types,
                setters=_fake_setter_rows(nodes))


def _fake_setter_rows(nodes: list) -> list:
    """The typed setters the specs name (cuda.set, cuda.exec_set), once per entry point, as
    the fake driver implements them: its parameter list (checked by the compiler against
    runtime/driver_entries.h), the level, and where in CUgraphNodeParams the argument and the
    context argument go."""
    rows, seen = [], set()
    for n in sorted(nodes, key=lambda n: n.type_enum):
        for exec_level, call in ((False, n.set), (True, n.exec_set)):
            if call is None or call.entry in seen:
                continue
            seen.add(call.entry)
            params = ["CUgraphExec e", "CUgraphNode n"] if exec_level else ["CUgraphNode n"]
            if call.params is not None:
                at = f"{n.member}.{call.at}" if call.at else n.member
                params.append(f"const {call.params} *in")
                src, size = "in", "sizeof *in"
            else:
                field = next(f for f in n.fields if f.cuda == call.value)
                at = f"{n.member}.{call.value}"
                params.append(field.type.members[0].decl("in"))
                src, size = "&in", "sizeof in"
            ctx_at, ctx = "0", "NULL"
            if call.context is not None:
                params.append("CUcontext c")
                ctx_at, ctx = f"offsetof(CUgraphNodeParams, {n.member}.{call.context})", "c"
            rows.append(dict(entry=call.entry, params=", ".join(params), exec=int(exec_level),
                             exec_arg="e" if exec_level else "NULL",
                             cu=n.cu_node_type, at=f"offsetof(CUgraphNodeParams, {at})",
                             src=src, size=size, ctx_at=ctx_at, ctx=ctx))
    return rows


class Emitter:
    def __init__(self, template_dir: str) -> None:
        self.env = _env(template_dir)

    def _render(self, template: str, **ctx) -> str:
        return self.env.get_template(template).render(**ctx)

    def outputs(self, nodes: list) -> dict:
        """{path relative to the output dir: content} for every generated file."""
        nodes = sorted(nodes, key=lambda n: n.node)
        out = {}
        for n in nodes:
            v = NodeView(n)
            out[f"include/cgn/cgn_{n.node}.h"] = self._render("node.h.j2", **v.header())
            out[f"src/cgn_{n.node}.c"] = self._render("node.c.j2", **v.source())
            out[f"tests/cgn_cases_{n.node}.c"] = self._render("cases.c.j2", **v.cases())
        names = [n.node for n in nodes]
        out["include/cgn/cgn_nodes.h"] = self._render("nodes.h.j2", origin=AGGREGATE_ORIGIN,
                                                      nodes=names)
        out["tests/cgn_cases_all.c"] = self._render(
            "cases_all.c.j2", origin=AGGREGATE_ORIGIN, nodes=names, count=len(names),
            models=[dict(node=n.node, type_enum=n.type_enum, own=n.test_model,
                         pad=" " * len(f"void cgn_test_model_{n.node}("))
                    for n in sorted(nodes, key=lambda n: n.node)])
        out["tests/cgn_fake_nodes.h"] = self._render("fake_nodes.h.j2", **_fake_rows(nodes))
        out["src/cgn_registry.c"] = self._render("registry.c.j2", origin=AGGREGATE_ORIGIN, nodes=[
            dict(node=n.node, type_enum=n.type_enum, name=n.node.replace("_", " "),
                 enable=int(n.exec_enable),
                 pad=" " * len(f"cgn_status cgn__{n.node}_exec_check("),
                 read_pad=" " * len(f"cgn_status cgn__{n.node}_read("),
                 has_read=n.get is not None,
                 row=wrap_call(INDENT, Call(f"[{n.type_enum}] = {{", (
                     c_string(n.node.replace("_", " ")), str(int(n.exec_enable)),
                     f"cgn__{n.node}_exec_check", n.cu_node_type, f"sizeof(cgn_{n.node}_desc)",
                     f"cgn__{n.node}_read" if n.get is not None else "NULL",
                     f"offsetof(CUgraphNodeParams, {n.member}.{n.context_field})"
                     if n.context_field else "0",
                     f"cgn__{n.node}_add_raw", c_string(n.add.entry),
                     f"cgn__{n.node}_get_raw" if n.get is not None else "NULL",
                     c_string(n.get.entry) if n.get is not None else "NULL",
                     str(int(n.updatable)),
                     n.update_check.read if n.update_check is not None and n.update_check.read
                     else "NULL", _adopt_size(n, nodes), c_string(n.cu_node_type)), "},")),
                 calls=_driver_call_fns(n))
            for n in nodes])
        out["docs/nodes.md"] = self._render("docs.md.j2", **DocsView(nodes).render_ctx())
        return dict(sorted(out.items()))


def _prefix_copy(call, m: str):
    """(declaration lines, the member the prefix starts at) for a call's `params` struct."""
    at = f"{m}.{call.at}" if call.at else m
    null_at = at.replace("p->", "((CUgraphNodeParams *)0)->")  # a member of no object, for sizeof
    return [f"    {call.params} a;",
            f"    _Static_assert(sizeof a <= sizeof {null_at},",
            f'                   "{call.params} is a prefix of the params");'], at


def _prefix_in_place(call, m: str, qualifier: str = "") -> list:
    """Declaration of `a`, a pointer to the params member a typed setter or getter takes as
    its struct prefix, in place: no copy of the struct (a setter's copy would read back
    stores just made field by field, which the CPU cannot forward; a getter's would be a
    second pass per node read). The prefix is statically asserted to fit the member."""
    at = f"{m}.{call.at}" if call.at else m
    return [f"    {qualifier}{call.params} *a = ({qualifier}void *)&{at};",
            f"    _Static_assert(sizeof *a <= sizeof {at},",
            f'                   "{call.params} is a prefix of the params");']


def _struct_or_value_args(call, m: str):
    """(declaration lines, arguments, prefix member) passing CUgraphNodeParams member `m` the
    way an adder or setter takes it: a copy of the struct prefix (`params`) or one member
    (`value`), then the `context` member if the call takes one."""
    decl, args, at = [], [], None
    if call.params is not None:
        decl, at = _prefix_copy(call, m)
        decl = decl + [f"    memcpy(&a, &{at}, sizeof a);"]
        args.append("&a")
    else:
        args.append(f"{m}.{call.value}")
    if call.context is not None:
        args.append(f"{m}.{call.context}")
    return decl, args, at


def _setter_fn(n, exec_level: bool) -> list:
    """<node>_set_raw / <node>_exec_set_raw: the spec's typed setter (cuda.set, cuda.exec_set)
    with CUgraphNodeParams mapped onto its arguments; [] when the node type uses the generic
    setter at that level."""
    call = n.exec_set if exec_level else n.set
    if call is None:
        return []
    m = f"p->{n.member}"
    name = f"{n.node}_exec_set_raw" if exec_level else f"{n.node}_set_raw"
    what = "executable-level" if exec_level else "definition-level"
    lines = ["", f"/* The {what} mutation through the typed setter (spec: cuda."
             f"{'exec_set' if exec_level else 'set'}). */"]
    lines += wrap_call("", Call(f"CGN__ALWAYS_INLINE static inline CUresult {name}(", (
        ("CUgraphExec exec", "CUgraphNode node") if exec_level else ("CUgraphNode node",)) +
        ("const CUgraphNodeParams *p",), ") {"))
    if call.params is not None:
        # cgn never reads the prefix through the typed pointer; the driver does.
        decl, args = _prefix_in_place(call, m, "const "), ["a"]
        if call.context is not None:
            args.append(f"{m}.{call.context}")
    else:
        decl, args, _ = _struct_or_value_args(call, m)
    lines += decl
    args = (["exec", "node"] if exec_level else ["node"]) + args
    lines += wrap_call("    ", Call(f"return cgn__driver->{call.entry}(", tuple(args), ");"))
    lines.append("}")
    return lines


def _driver_call_fns(n) -> list:
    """cgn__<node>_add_raw and cgn__<node>_get_raw: the spec's typed adder and getter, with
    CUgraphNodeParams mapped onto their arguments (a struct prefix copied, or one member)."""
    m = f"p->{n.member}"
    lines = []
    add, get = n.add, n.get
    lines += wrap_call("", Call(f"static CUresult cgn__{n.node}_add_raw(", (
        "const cgn_driver_table *drv", "CUgraphNode *out", "CUgraph g", "const CUgraphNode *deps",
        "size_t num_deps", "CUgraphNodeParams *p"), ") {"))
    args = ["out", "g", "deps", "num_deps"]
    if add.params == "CUgraphNodeParams":  # the generic adder: outputs are written in place
        lines += wrap_call("    ", Call(f"return drv->{add.entry}(", tuple(args + ["p"]), ");"))
    else:
        decl, more, at = _struct_or_value_args(add, m)
        lines += decl
        args += more
        if n.outputs:  # the driver writes its choices (spec: output fields) into the struct
            lines += wrap_call("    ", Call(f"CUresult r = drv->{add.entry}(", tuple(args),
                                            ");"))
            lines += ["    if (r == CUDA_SUCCESS)", f"        memcpy(&{at}, &a, sizeof a);",
                      "    return r;"]
        else:
            lines += wrap_call("    ", Call(f"return drv->{add.entry}(", tuple(args), ");"))
    lines.append("}")
    lines.append("")
    if get is None:
        return lines[:-1]
    lines += wrap_call("", Call(f"static CUresult cgn__{n.node}_get_raw(", (
        "const cgn_driver_table *drv", "CUgraphNode raw", "CUgraphNodeParams *p"), ") {"))
    if get.params is not None:
        # Zeroed first: the driver may leave bytes alone.
        lines += _prefix_in_place(get, m) + ["    memset(a, 0, sizeof *a);",
                                             f"    return drv->{get.entry}(raw, a);"]
    else:
        lines.append(f"    return drv->{get.entry}(raw, &{m}.{get.value});")
    lines.append("}")
    return lines


# ---- docs ------------------------------------------------------------------------------------

def _md_cell(text: str) -> str:
    """Text for a Markdown table cell: pipes escaped, one line."""
    return " ".join(str(text).split()).replace("|", "\\|")


def _code(text: str) -> str:
    return f"`{text}`"


# Statuses every node type's functions can return, after the node type's own.
_COMMON_ERRORS = (
    ("CGN_ERROR_DRIVER_TOO_OLD", "update on a driver older than the update gate; checked "
                                 "before anything is touched"),
    ("CGN_ERROR_DESTROYED", "the node (or a dependency given to add) has been destroyed"),
    ("CGN_ERROR_WRONG_NODE_TYPE", "update or get of a node of another type"),
    ("CGN_ERROR_INVALID_ARGUMENT", "a NULL graph, node, desc, update or out pointer; unknown "
                                   "bits in `set`; a dependency that is NULL or of another "
                                   "graph"),
    ("CGN_ERROR_DRIVER", "a driver call failed (the message names it and its CUresult); the "
                         "node, its owners and every executable are as before"),
    ("CGN_ERROR_OUT_OF_MEMORY", "host memory for cgn's records ran out"),
)


class DocsView:
    """generated/docs/nodes.md: one section per node type, from the validated model."""

    def __init__(self, nodes: list) -> None:
        self.nodes = nodes

    def render_ctx(self) -> dict:
        return dict(origin=AGGREGATE_ORIGIN, nodes=[self._node(n) for n in self.nodes])

    def _node(self, n: Node) -> dict:
        v = NodeView(n)
        title = n.node.replace("_", " ").capitalize() + " node"
        return dict(
            anchor=n.node, title=title, summary=n.summary, reference=n.reference,
            facts=self._facts(n, v), fields=self._fields(n, v), internal=self._internal(n),
            updates=self._updates(n), retains=self._retains(n), errors=self._errors(n),
            adopted=self._adopted(n), exec_level=self._exec_level(n),
            differences=list(n.differences),
        )

    def _facts(self, n: Node, v: NodeView) -> list:
        setters = []
        for first, fields in v.groups():
            if first.type.setter is not None:
                names = [p.split()[-1].lstrip("*") for p in first.type.setter[0]]
            else:
                names = [m.name.format(name=g.name) for g in fields for m in NodeView._inputs(g)]
            params = ", ".join(["update"] + names)
            setters.append(_code(f"cgn_{n.node}_update_set_{first.name}({params})"))
        context = "none (the node type has no context field)"
        if n.context_field:
            context = (f"the one current at add, recorded in `{n.member}.{n.context_field}`; "
                       "adding without a current context is CGN_ERROR_NO_CONTEXT")
            if n.context_current:
                context += "; made current around each update when another one is current"
        if not n.updatable:
            update_facts = [
                ("Update", "none: not updatable (CUDA cannot change the node's parameters once "
                           "it is added); `cgn_node_check_updatable` is CGN_ERROR_NOT_SUPPORTED "
                           "naming the node type"),
                ("Functions", ", ".join(_code(f) for f in (
                    f"cgn_graph_add_{n.node}", f"cgn_{n.node}_node_get",
                    f"cgn_{n.node}_exec_get")))]
        else:
            update_facts = [
                ("Update", f"{_code(v.update)}, {_code(v.P + '_UPDATE_INIT')} (reuse one "
                           f"with {_code(f'cgn_{n.node}_update_reset')}), one bit per "
                           f"field ({_code(v.P + '_SET_<FIELD>')}, {_code(v.P + '_SET_ALL')})"),
                ("Setters", ", ".join(setters)),
                ("Functions", ", ".join(_code(f) for f in (
                    f"cgn_graph_add_{n.node}", f"cgn_{n.node}_node_update",
                    f"cgn_{n.node}_node_get", f"cgn_{n.node}_exec_update"))),
                *([("One-call forms", ", ".join(
                    f"{_code(def_fn)} / {_code(exec_fn)}: the update with "
                    f"{_code(f'cgn_{n.node}_update_set_{f.name}')} alone, no struct to build"
                    for f, def_fn, exec_fn, _, _ in _direct_forms(n)))]
                  if _direct_forms(n) else [])]
        facts = [
            ("Descriptor", f"{_code(v.desc)}, {_code(v.P + '_DESC_INIT')}"),
            *update_facts,
            ("CUDA node", f"{_code(n.cu_node_type)}, params member {_code(n.member)}"
                          + "".join(f", {_code(m)} always {val}" for m, val in n.fixed)),
            ("Context", context),
            ("Driver gates", ("add: the generic `cuGraphAddNode` (12.2+), gated by a field "
                              "kind (see Errors); update: "
                              if n.add.params == "CUgraphNodeParams" else
                              "add: every driver cgn loads (12.0+, typed adder); update: ")
                             + (f"{version_text(n.update_gate)} "
                                f"({_code('cuGraphNodeSetParams')})" if n.updatable
                                else "none (not updatable)")
                             + "".join(f"; an update setting {_code(f.name)}: "
                                       f"{version_text(f.since)}"
                                       for f in n.fields if f.since)),
        ]
        return [(k, _md_cell(val)) for k, val in facts]

    def _fields(self, n: Node, v: NodeView) -> list:
        rows = []
        for f in n.fields:
            ctype = f.type.doc_type or f.type.name
            cuda = "—"
            if f.cuda:
                sfx = f.type.cuda_suffixes
                cuda = f.cuda + ("{" + ",".join(sfx) + "}" if sfx != ("",) else "")
            rows.append(dict(name=_code(f.name), ctype=_md_cell(_code(ctype)),
                             default=_md_cell(_code(f.default)) if f.default else "—",
                             cuda=_md_cell(_code(cuda)) if f.cuda else cuda,
                             doc=_md_cell(f.doc)))
        return rows

    @staticmethod
    def _internal(n: Node) -> list:
        out = []
        for f in n.fields:
            for m in f.type.members:
                if m.internal:
                    out.append(f"{_code(m.name.format(name=f.name))}: "
                               + m.doc.format(name=f.name, doc=f.doc))
        return out

    def _updates(self, n: Node) -> list:
        outputs = [f"{_code(f.name)}: an output, chosen by the driver when the node is added "
                   f"(the desc's value is ignored); get and exec_get report it."
                   for f in n.outputs]
        if not n.updatable:
            return ["Not updatable: CUDA cannot change the parameters of this node type once "
                    "a node is added, so there is no update struct or update function; "
                    "`cgn_node_check_updatable` returns CGN_ERROR_NOT_SUPPORTED naming the "
                    "node type. Add a new node instead."] + outputs
        out = ["Any field may be updated; a field whose bit is not in `set` keeps its value, "
               "and an update with nothing set returns CGN_OK without a driver call."]
        for f in n.fields:
            if not f.requires:
                continue
            text = f"{_code(f.name)} requires " + _join_words([_code(r) for r in f.requires])
            if f.follows:
                text += (f"; {_code(f.follows)} set without it resets it to "
                         f"{_code(f.type.members[0].zero)}")
            out.append(text + ".")
        if n.update_check is not None:
            out.append(f"Before each update cgn checks the node's current form "
                       f"({_code(n.update_check.call)}): CGN_ERROR_NOT_SUPPORTED when "
                       f"{n.update_check.doc}.")
        inter = [f for f in n.fields if any(m.internal for m in f.type.members)]
        if inter:
            out.append("Members set by cgn (" + ", ".join(
                _code(m.name.format(name=f.name)) for f in inter for m in f.type.members
                if m.internal) + ") are recomputed when their field is replaced and kept "
                "otherwise; they are ignored on input.")
        return out

    @staticmethod
    def _exec_level(n: Node) -> list:
        if not n.updatable:
            return [f"{_code(f'cgn_{n.node}_exec_get(exec, node, &desc)')} reads the node as "
                    f"the executable has it; there is no executable-level update.",
                    "Enable/disable (`cgn_exec_node_set_enabled`): not supported by CUDA for "
                    "this node type (CGN_ERROR_NOT_SUPPORTED)."]
        out = [f"{_code(f'cgn_{n.node}_exec_update(exec, node, &update)')}: the same partial "
               f"update as the definition level, against that executable's own copy "
               f"({_code(f'cgn_{n.node}_exec_get')} reads it); one "
               f"{_code('cuGraphExecNodeSetParams')}, all or nothing."]
        out.append("Enable/disable (`cgn_exec_node_set_enabled`): "
                   + ("supported." if n.exec_enable else
                      "not supported by CUDA for this node type (CGN_ERROR_NOT_SUPPORTED)."))
        for r in n.exec_rules:
            out.append(f"Rule, checked before any mutation ({r.status}, naming `{r.field}`): "
                       f"{_md_cell(r.rule)} "
                       f"(`{_md_cell(r.when.replace('cur->', 'old.').replace('d->', ''))}`).")
        for field, rule in n.driver_rules:
            out.append(f"Rule only the driver checks (CGN_ERROR_INVALID_VALUE naming `{field}` "
                       f"when it refuses): {_md_cell(rule)}.")
        if not n.exec_rules and not n.driver_rules:
            out.append("No executable-update rules beyond the definition's.")
        return out

    @staticmethod
    def _adopted(n: Node) -> list:
        """What cgn_graph_adopt and cgn_node_refresh read into each field."""
        if n.get is None:
            return [f"Nothing: no getter of cuda.h 13.0 reads a {_code(n.cu_node_type)} node "
                    f"(the spec has no `cuda.get`), so cgn_graph_adopt records such a node as "
                    f"CGN_NODE_OTHER (not updatable) and cgn_node_refresh leaves a node cgn "
                    f"added as it is."]
        out = []
        if n.update_check is not None and n.update_check.read:
            doc = n.update_check.read_doc
            out.append(doc[0].upper() + doc[1:] + ".")
        for f in n.fields:
            if f.type.update_only:
                continue
            out.append(f"{_code(f.name)}: " + f.type.doc_read.format(cuda=f.cuda or ""))
        if n.context_field:
            out.append(f"The node's context: `{n.member}.{n.context_field}` when the getter "
                       f"reports one, else the context current at adoption (none current is "
                       f"CGN_ERROR_NO_CONTEXT).")
        return out

    @staticmethod
    def _retains(n: Node) -> list:
        out = []
        for f in n.owners:
            what = f.type.doc_retains or "retained with the version"
            out.append(f"{_code(f.name)}: {what}.")
        if out:
            out.append("Each version's owners form one attachment, held by a CUDA user object "
                       "on the graph: executables made earlier keep theirs; an update with "
                       "unchanged owners makes no user object (docs/ownership.md).")
        else:
            out.append("Nothing.")
        return out

    @staticmethod
    def _errors(n: Node) -> list:
        rows = []
        for r in n.rules:
            rows.append((r.status, f"`{r.when.replace('d->', '')}`: " + r.message))
        for f in n.fields:
            for req in f.requires:
                rows.append(("CGN_ERROR_MISSING_FIELD", f"`{f.name}` set without `{req}`"))
        if n.update_check is not None:
            rows.append((n.update_check.status, n.update_check.doc))
        by_error = {}  # (status, cause) -> field names, in field order
        for f in n.fields:
            for status, cause in f.type.doc_errors:
                by_error.setdefault((status, cause), []).append(_code(f.name))
        for (status, cause), names in by_error.items():
            rows.append((status, f"{', '.join(names)}: {cause}"))
        if n.context_field:
            rows.append(("CGN_ERROR_NO_CONTEXT", "add with no current CUDA context"))
        if n.updatable:
            rows += list(_COMMON_ERRORS)
        else:
            rows.append(("CGN_ERROR_NOT_SUPPORTED", "`cgn_node_check_updatable`: the node type "
                                                    "is not updatable"))
            rows += [(s, c.replace("update or get", "get").replace(
                "desc, update or out pointer; unknown bits in `set`;", "desc or out pointer;"))
                     for s, c in _COMMON_ERRORS if s != "CGN_ERROR_DRIVER_TOO_OLD"]
        return [(_code(s), _md_cell(c)) for s, c in rows]
