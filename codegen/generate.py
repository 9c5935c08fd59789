#!/usr/bin/env python3
"""Generate cgn's node-type C code from spec/*.yaml.

    python3 codegen/generate.py [--spec-dir spec] [--out generated]
        [--check | --print-deps | --print-outputs]
    python3 codegen/generate.py --spec-doc docs/spec.md [--check]

The second form writes the spec language reference (from the schema, the field kinds and
spec/memset.yaml) instead of generated/.

Spec mistakes are printed as `FILE:LINE:COL: error: MESSAGE` (exit 1); see cgn_codegen/.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # keep codegen/ free of __pycache__ (it is a build input)

from cgn_codegen.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(root=os.path.dirname(HERE)))
