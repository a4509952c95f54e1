#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes a seed corpus for fuzz-schema from the JSON-Schema-Test-Suite:
one file per test, the schema, a NUL byte, then the instance.

usage: make-corpus.py SUITE_TESTS_FOLDER... OUTPUT_FOLDER"""
import hashlib
import json
import os
import sys

out = sys.argv[-1]
os.makedirs(out, exist_ok=True)
for folder in sys.argv[1:-1]:
    for root, _, files in os.walk(folder):
        for name in files:
            if not name.endswith('.json'):
                continue
            with open(os.path.join(root, name), encoding='utf-8') as f:
                groups = json.load(f)
            for group in groups:
                schema = json.dumps(group['schema']).encode()
                for test in group['tests']:
                    data = schema + b'\0' + json.dumps(test['data']).encode()
                    digest = hashlib.sha1(data).hexdigest()
                    with open(os.path.join(out, digest), 'wb') as f:
                        f.write(data)
