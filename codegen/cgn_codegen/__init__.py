"""cgn code generator: validates spec/*.yaml and emits the node-type C code into generated/.

Modules: load (YAML with positions), schema (the spec schema as data), fieldtypes (one table
entry per field type), validate (schema and semantic checks), model (frozen dataclasses built
from a valid spec), emit (renders the Jinja2 templates), cli (the command line).
"""
