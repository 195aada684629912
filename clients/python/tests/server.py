"""Starts a real ``./mnemo serve`` on loopback (port 0, a temporary store) for the tests."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


class Server:
    """A ``./mnemo serve --port 0`` of the repository around this client, with a known admin key."""

    def __init__(self) -> None:
        self.data = tempfile.mkdtemp(prefix="mnemo-py-")
        self.admin_key = "admin-" + secrets.token_urlsafe(24)
        env = dict(os.environ, MNEMO_ADMIN_KEY=self.admin_key)
        self.log = open(os.path.join(self.data, "serve.out"), "w+")
        self.proc = subprocess.Popen(
            [str(ROOT / "mnemo"), "serve", "--port", "0", "--host", "127.0.0.1",
             "--data", os.path.join(self.data, "store"), "--embedder", "none"],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT, env=env,
        )
        self.url = self._await_url(timeout=240)

    def _await_url(self, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.log.seek(0)
            out = self.log.read()
            m = re.search(r"serving on (http://127\.0\.0\.1:\d+)", out)
            if m:
                return m.group(1)
            if self.proc.poll() is not None:
                raise RuntimeError("mnemo serve exited with " + str(self.proc.returncode) + ":\n" + out)
            time.sleep(0.2)
        self.stop()
        raise RuntimeError("mnemo serve did not start in %ss" % timeout)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        shutil.rmtree(self.data, ignore_errors=True)
