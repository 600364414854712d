"""Reference figure for BENCHMARKS.md: the typical tool call validated by Python's
jsonschema (Draft 2020-12, an offline referencing.Registry over the same schema
directory), parse included, as `cargo bench --bench validation typical` does it.
Prints the median calls/s over nine rounds."""

import importlib.metadata
import json
import pathlib
import statistics
import sys
import time

import jsonschema
import referencing
from referencing.jsonschema import DRAFT202012

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "fixtures/validation")
resources = []
for path in sorted((root / "mcp").glob("*.json")):
    contents = json.loads(path.read_text())
    resources.append((contents["$id"], DRAFT202012.create_resource(contents)))
registry = referencing.Registry().with_resources(resources)
schema = registry.contents("https://recount.example/mcp/knowledge-search-input.schema.json")
validator = jsonschema.Draft202012Validator(schema, registry=registry)
body = (root / "typical-call.json").read_bytes()

validator.validate(json.loads(body))  # accepted, or this raises
per_round = 20_000
rates = []
for _ in range(9):
    start = time.perf_counter()
    for _ in range(per_round):
        validator.validate(json.loads(body))
    rates.append(per_round / (time.perf_counter() - start))
print(f"python jsonschema {importlib.metadata.version('jsonschema')}: "
      f"median {statistics.median(rates):.0f} calls/s over 9 rounds of {per_round}")
