"""A PEP 517 build backend of the standard library alone, so that ``pip install ./clients/python``
works offline: setuptools' backend needs setuptools and wheel fetched from PyPI into pip's build
environment, which a machine without PyPI access cannot do. This package is pure Python, one
directory, no build step: a wheel is a zip of it with three metadata files (PEP 427, PEP 566), which
is all this writes.
"""

from __future__ import annotations

import base64
import hashlib
import os
import tarfile
import zipfile
from pathlib import Path

NAME = "mnemo_client"
DIST = "mnemo_client"
VERSION = "0.1.0"
ROOT = Path(__file__).resolve().parents[1]
TAG = "py3-none-any"


def _metadata() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return (
        "Metadata-Version: 2.1\n"
        f"Name: mnemo-client\nVersion: {VERSION}\n"
        "Summary: Python client for the Mnemo REST API (long-term memory for LLM agents)\n"
        "License: Apache-2.0\nRequires-Python: >=3.9\n"
        "Description-Content-Type: text/markdown\n\n" + readme
    )


def _files():
    for p in sorted((ROOT / NAME).rglob("*")):
        if p.is_file() and "__pycache__" not in p.parts:
            yield p.relative_to(ROOT).as_posix(), p.read_bytes()


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _dist_info() -> dict:
    info = f"{DIST}-{VERSION}.dist-info"
    return {
        f"{info}/METADATA": _metadata().encode(),
        f"{info}/WHEEL": (
            "Wheel-Version: 1.0\nGenerator: mnemo_build\nRoot-Is-Purelib: true\n"
            f"Tag: {TAG}\n"
        ).encode(),
    }


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    for name, data in _dist_info().items():
        target = Path(metadata_directory) / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return f"{DIST}-{VERSION}.dist-info"


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    wheel = f"{DIST}-{VERSION}-{TAG}.whl"
    entries = list(_files()) + list(_dist_info().items())
    record = f"{DIST}-{VERSION}.dist-info/RECORD"
    lines = [_record_line(n, d) for n, d in entries] + [f"{record},,"]
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel), "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries:
            z.writestr(name, data)
        z.writestr(record, "\n".join(lines) + "\n")
    return wheel


def build_sdist(sdist_directory, config_settings=None):
    base = f"{DIST}-{VERSION}"
    sdist = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, sdist), "w:gz") as t:
        for rel in ["pyproject.toml", "README.md", "_build/mnemo_build.py"]:
            t.add(ROOT / rel, arcname=f"{base}/{rel}")
        for rel, _ in _files():
            t.add(ROOT / rel, arcname=f"{base}/{rel}")
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        data = _metadata().encode()
        info.size = len(data)
        import io

        t.addfile(info, io.BytesIO(data))
    return sdist
