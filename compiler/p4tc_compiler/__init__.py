"""p4tc-compile: P4-16 (PNA) programs to P4TC template scripts.

The stages, one module each: source (the C preprocessor, locations),
lexer, parser (to the syntax tree of syntax.py), check (names and types),
lower (P4TC templates and the introspection file).
"""
