#!/usr/bin/env python3
"""tests/validate_json.py SCHEMA FILE: validates the JSON document FILE against the JSON
Schema SCHEMA (draft 2020-12, python3-jsonschema from Debian).  Prints every error with
its JSON pointer and exits 1 when there is one; exits 2 when the schema itself is not a
valid schema or a file cannot be read."""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("validate_json.py: python3-jsonschema is not installed (./setup.sh installs it)")
    sys.exit(77)


def main():
    schema_file, doc_file = sys.argv[1], sys.argv[2]
    try:
        with open(schema_file) as f:
            schema = json.load(f)
        with open(doc_file) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print(f"validate_json.py: {e}")
        return 2
    cls = jsonschema.validators.validator_for(schema)
    try:
        cls.check_schema(schema)
    except jsonschema.exceptions.SchemaError as e:
        print(f"{schema_file}: not a valid JSON Schema: {e.message}")
        return 2
    errors = sorted(cls(schema).iter_errors(doc), key=lambda e: list(e.absolute_path))
    for e in errors:
        pointer = "/" + "/".join(str(p) for p in e.absolute_path)
        print(f"{doc_file}: {pointer}: {e.message} (schema {schema_file}, "
              f"{'/'.join(str(p) for p in e.absolute_schema_path)})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
