#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Writes the seed corpus of every fuzz target into OUT/<target>/ from the test data: dumps as
# written, the same dumps as JSON, the queue files found in them, and the quantity and time
# lists in fuzz/seeds/. Usage: make_seeds.py REPO_ROOT OUT
import hashlib
import json
import pathlib
import sys

import yaml

MAX_SEED = 64 * 1024  # large seeds slow every mutation down


def write(out, target, data):
    if isinstance(data, str):
        data = data.encode()
    if not data or len(data) > MAX_SEED:
        return
    d = out / target
    d.mkdir(parents=True, exist_ok=True)
    (d / hashlib.sha1(data).hexdigest()).write_bytes(data)


def queue_files(docs):
    for doc in docs:
        if not isinstance(doc, dict):
            continue
        if "partitions" in doc:
            yield yaml.safe_dump(doc)
        data = doc.get("data")
        if doc.get("kind") == "ConfigMap" and isinstance(data, dict):
            for key, value in data.items():
                if key.endswith("queues.yaml") and isinstance(value, str):
                    yield value


def main():
    root, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    testdata = root / "testdata"
    for path in sorted(testdata.rglob("*")):
        if not path.is_file() or path.parent.name == "fuzz":
            continue
        raw = path.read_bytes()
        if path.suffix in (".yaml", ".yml"):
            write(out, "load_yaml", raw)
            write(out, "scan", raw)
            write(out, "kubectl_yaml", raw)
            if "bad" in path.relative_to(testdata).parts:
                continue  # hostile on purpose: an alias bomb would blow PyYAML up
            try:
                docs = list(yaml.safe_load_all(raw))
            except yaml.YAMLError:
                continue  # a malformed-input file: a YAML seed only
            for q in queue_files(docs):
                write(out, "queues_yaml", q)
            try:
                write(out, "load_json", "\n".join(json.dumps(d, default=str) for d in docs))
            except (TypeError, ValueError):
                pass
        elif path.suffix == ".json":
            write(out, "load_json", raw)
            write(out, "scan", raw)
    # Findings of the parser targets, kept as regressions: fuzz/<target>-<what>.
    for path in sorted((testdata / "bad" / "fuzz").glob("*")):
        write(out, path.name.split("-")[0], path.read_bytes())
    for target in ("quantity", "time", "go_parse"):
        for line in (root / "fuzz" / "seeds" / f"{target}.txt").read_text().splitlines():
            write(out, target, line)


if __name__ == "__main__":
    main()
