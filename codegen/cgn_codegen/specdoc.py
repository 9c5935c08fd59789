"""docs/spec.md, the spec language reference, rendered from what the generator validates with:
the schema tables and their Key docs (schema.py), the field-kind table (fieldtypes.py), what
rule expressions may contain (cexpr.py), the enum sets read from include/cgn/cgn.h, and a real
spec (spec/memset.yaml) quoted verbatim as the worked example.

    python3 codegen/generate.py --spec-doc docs/spec.md [--check]

The prose around the tables is codegen/templates/spec.md.j2. Nothing here changes generated/.
"""
from __future__ import annotations

import re

from . import cexpr
from .emit import _env
from .fieldtypes import FIELD_TYPES, NODE_CHECKS
from .schema import (CASE, CU_NODE_TYPES, CU_PARAMS_MEMBERS, ENUM_DOCS, EXEC_RULE, FIELD, RULE,
                     SPEC, Any, Bool, Int, List, Map, MapOf, Str)

EXAMPLE_SPEC = "memset.yaml"

# Maps documented in tables of their own: a key holding one links there instead of expanding.
_OWN_TABLES = ((FIELD, "fields[]", "field-entries"), (RULE, "rules[]", "rules"),
               (EXEC_RULE, "exec.rules[]", "executable-rules"), (CASE, "cases[]", "cases"))

# The worked example: (first top-level key, last top-level key) of each verbatim excerpt.
# "cases" is cut after its first case.
EXAMPLE_PARTS = (("node", "reference"), ("fields", "fields"), ("rules", "rules"),
                 ("exec", "exec"), ("owners", "differences"), ("cases", "cases"))


class SpecDocError(Exception):
    pass


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _code(text: str) -> str:
    """text as a Markdown code span (backticks inside get a longer fence)."""
    ticks = "``" if "`" in text else "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def _own_table(schema):
    for m, _, anchor in _OWN_TABLES:
        if schema is m:
            return anchor
    return None


def _kind(schema) -> str:
    """How a value of `schema` reads in the key tables."""
    if isinstance(schema, Str):
        if schema.enum is not None:
            return f"one of [{schema.enum}](#enum-{schema.enum.replace('_', '-')})"
        if schema.pattern is not None:
            return f"string: {schema.what} ({_code(schema.pattern)})"
        return "string"
    if isinstance(schema, Int):
        return f"integer in [{schema.min}, {schema.max}]"
    if isinstance(schema, Bool):
        return "true or false"
    if isinstance(schema, List):
        text = f"list of {_kind(schema.item)}"
        if schema.min_items:
            text += f", at least {schema.min_items}"
        return text
    if isinstance(schema, Map):
        anchor = _own_table(schema)
        return f"[mapping](#{anchor})" if anchor else "mapping (keys below)"
    if isinstance(schema, MapOf):
        return "mapping"
    if isinstance(schema, Any):
        return "the field kind's default syntax"
    raise TypeError(schema)  # pragma: no cover - a schema kind without docs


def key_rows(schema: Map, prefix: str = "") -> list:
    """[(path, kind, required, doc)] for every key of `schema`, nested maps expanded (except
    the maps that have tables of their own), in schema order."""
    rows = []
    for name, key in schema.keys.items():
        path = prefix + name
        rows.append((path, _kind(key.schema), "yes" if key.required else "no", key.doc))
        inner = key.schema.item if isinstance(key.schema, List) else key.schema
        if isinstance(inner, Map) and _own_table(inner) is None:
            rows += key_rows(inner, path + ("[]." if isinstance(key.schema, List) else "."))
    return rows


def all_keys() -> list:
    """Every (path, Key) the schema has, the tables of their own included (for tests)."""
    out = []

    def walk(schema, prefix):
        for name, key in schema.keys.items():
            out.append((prefix + name, key))
            inner = key.schema.item if isinstance(key.schema, List) else key.schema
            if isinstance(inner, Map):
                walk(inner, prefix + name + ("[]." if isinstance(key.schema, List) else "."))
    walk(SPEC, "")
    return out


def _table(rows) -> list:
    return [(_code(path), _cell(kind), req, _cell(doc)) for path, kind, req, doc in rows]


def _field_kinds() -> list:
    out = []
    for t in FIELD_TYPES.values():
        decls = []
        for m in t.members:
            where = " (desc only, set by cgn)" if m.internal else \
                " (update only)" if m.update_only else ""
            decls.append(_code(m.decl("<name>")) + where)
        if t.cuda == "required":
            written = t.cuda_written("<cuda>")
            cuda = "required" + ("" if written == ["<cuda>"] else
                                 "; writes " + ", ".join(_code(w) for w in written))
        else:
            cuda = "refused"
        notes = []
        if t.needs:
            notes.append("needs " + " and ".join(f"{_a(r)} `{r}` field" for r in t.needs))
        if t.role in ("args", "kernel", "arg_edits"):
            notes.append("at most one a node type")
        if t.storage:
            notes.append("uses cgn's storage block (one such field a node type)")
        if t.owner_members or t.role == "args":
            notes.append("listed in `owners:`")
        if t.update_only:
            notes.append("update-only")
        out.append(dict(
            name=t.name, doc=_cell(t.doc), members=", ".join(decls), cuda=cuda,
            default=_cell(t.default_doc) if t.default is not None else "no default",
            case=_cell(t.case_doc),
            rule_names="none (no desc member)" if t.update_only else
            ", ".join(_code(r.replace("{name}", "<name>")) for r in t.rule_names),
            notes="; ".join(notes),
        ))
    return out


def _a(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def _enums(enums: dict) -> list:
    out = []
    for name in ("status", "failure_status", "node_type", "field_type", "cu_node_type",
                 "cu_member", "node_check", "driver_entry"):
        values = enums[name]
        if name == "field_type":
            shown = ", ".join(f"[{_code(v)}](#kind-{v.lower().replace('_', '-')})"
                              for v in values)
        else:
            shown = ", ".join(_code(v) for v in values)
        doc = ENUM_DOCS[name]
        out.append(dict(name=name, anchor="enum-" + name.replace("_", "-"),
                        doc=doc[:1].upper() + doc[1:], shown=shown))
    return out


def _cuda_types() -> list:
    return [dict(node_type=t, member=m,
                 members=", ".join(_code(x) for x in CU_PARAMS_MEMBERS[m]))
            for t, m in sorted(CU_NODE_TYPES.items())]


def _node_checks() -> list:
    return [dict(name=c.name, call=c.call, status=c.status, doc=_cell(c.doc),
                 read=_cell(c.read_doc) if c.read else "")
            for c in NODE_CHECKS.values()]


def _top_blocks(lines: list) -> dict:
    """{top-level key: (first line, end line)} of a spec's text: a block starts at its key,
    or at the comment lines right above it, and ends where the next block starts (trailing
    blank lines dropped)."""
    starts = []
    for i, line in enumerate(lines):
        m = re.match(r"^([a-z_]+):", line)
        if m:
            j = i
            while j > 0 and lines[j - 1].startswith("#"):
                j -= 1
            starts.append((m.group(1), j))
    out = {}
    for k, (name, start) in enumerate(starts):
        end = starts[k + 1][1] if k + 1 < len(starts) else len(lines)
        while end > start and not lines[end - 1].strip():
            end -= 1
        out[name] = (start, end)
    return out


def example_parts(text: str, origin: str) -> dict:
    """{first key: verbatim excerpt} for EXAMPLE_PARTS; SpecDocError when one is missing."""
    lines = text.splitlines()
    blocks = _top_blocks(lines)
    out = {}
    for first, last in EXAMPLE_PARTS:
        if first not in blocks or last not in blocks:
            missing = first if first not in blocks else last
            raise SpecDocError(f"{origin} has no top-level `{missing}:` for the worked example")
        start, end = blocks[first][0], blocks[last][1]
        if first == "cases":
            items = [i for i in range(start, end) if re.match(r"^  - ", lines[i])]
            if len(items) > 1:
                end = items[1]
                while end > start and not lines[end - 1].strip():
                    end -= 1
        out[first] = "\n".join(lines[start:end])
    return out


class SpecDoc:
    def __init__(self, template_dir: str) -> None:
        self.env = _env(template_dir)

    def render(self, enums: dict, example_origin: str, example_text: str) -> str:
        parts = example_parts(example_text, example_origin)
        return self.env.get_template("spec.md.j2").render(
            spec_keys=_table(key_rows(SPEC)),
            field_keys=_table(key_rows(FIELD, "fields[].")),
            rule_keys=_table(key_rows(RULE, "rules[].")),
            exec_rule_keys=_table(key_rows(EXEC_RULE, "exec.rules[].")),
            case_keys=_table(key_rows(CASE, "cases[].")),
            kinds=_field_kinds(),
            enums=_enums(enums),
            cuda_types=_cuda_types(),
            node_checks=_node_checks(),
            binary=", ".join(_code(o) for o in cexpr.BINARY_OPERATORS),
            unary=", ".join(_code(o) for o in cexpr.UNARY_OPERATORS),
            forbidden=", ".join(_code(o) for o in cexpr.FORBIDDEN_OPERATORS),
            type_words=", ".join(_code(w) for w in sorted(cexpr.TYPE_WORDS)),
            callable=", ".join(_code(w + "(...)") for w in sorted(cexpr.CALLABLE)),
            names=", ".join(_code(w) for w in sorted(cexpr.ALLOWED_NAMES - cexpr.TYPE_WORDS
                                                     - cexpr.CALLABLE - {"sizeof"}
                                                     - set(cexpr.RULE_FUNCTIONS))),
            functions=[(_code(f"{name}({', '.join(r.params)})"), _code(r.returns),
                        _cell(r.doc)) for name, r in sorted(cexpr.RULE_FUNCTIONS.items())],
            str_max=Str().max_len,
            str_forbid=", ".join(_code(f) for f in Str().forbid),
            example_origin=example_origin,
            example=parts,
        )
