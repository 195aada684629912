"""Runs every ```python block of README.md, docs/*.md and clients/python/README.md against a real
server, as DocsBlocksTest keeps the Java ones true: a block that stops working fails CI. Each block
runs in a fresh namespace holding MNEMO_URL and MNEMO_ADMIN_KEY (and print, silenced)."""

from __future__ import annotations

import re
import unittest
from pathlib import Path

from .server import ROOT, Server

FENCE = re.compile(r"^```python([^\n]*)\n(.*?)^```", re.S | re.M)


def python_blocks():
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "clients/python/README.md"]
    for f in files:
        text = f.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            yield f"{f.relative_to(ROOT)}:{line}", m.group(1), m.group(2)


class DocsTest(unittest.TestCase):
    def test_everyPythonBlockOfTheDocs_runs(self) -> None:
        blocks = list(python_blocks())
        self.assertGreaterEqual(len(blocks), 2, "README.md and clients/python/README.md have Python blocks")
        server = Server()
        try:
            for where, info, code in blocks:
                with self.subTest(block=where):
                    self.assertIn("tested-by=clients/python/tests/test_docs.py", info,
                                  where + ": a Python block names this test (it is run, never illustrative)")
                    env = {"MNEMO_URL": server.url, "MNEMO_ADMIN_KEY": server.admin_key,
                           "print": lambda *a, **k: None, "__name__": "docs_block"}
                    exec(compile(code, where, "exec"), env)
        finally:
            server.stop()


if __name__ == "__main__":
    unittest.main()
