"""The client against a real server: every method, its dataclasses and its errors."""

from __future__ import annotations

import time
import unittest

from mnemo_client import Mnemo, MnemoError, ProblemError, Turn

from .server import Server

server: Server


def setUpModule() -> None:
    global server
    server = Server()


def tearDownModule() -> None:
    server.stop()


class ClientTest(unittest.TestCase):
    admin: Mnemo
    m: Mnemo

    @classmethod
    def setUpClass(cls) -> None:
        cls.admin = Mnemo(server.url, key=server.admin_key)
        cls.m = Mnemo(server.url, key=cls.admin.create_key("pytest", label="tests").key)

    def test_remember_then_recall_selectsIt_withTheTrace(self) -> None:
        r = self.m.remember("maya", "Maya is allergic to peanuts.", importance=0.9)
        self.assertTrue(r.id)
        self.assertEqual("maya", r.owner)
        self.assertTrue(r.current)
        got = self.m.recall("maya", "is Maya allergic to peanuts", explain=True)
        self.assertIn(r.id, [x.record.id for x in got.records])
        self.assertIn("peanuts", got.block)
        self.assertGreater(got.block_tokens, 0)
        self.assertIsNotNone(got.trace)
        self.assertIsNotNone(got.gate)
        self.assertIsNone(self.m.recall("maya", "is Maya allergic to peanuts").trace)

    def test_factKey_supersedes_andHistoryKeepsEveryVersion(self) -> None:
        first = self.m.remember("ana", "Ana lives in Porto.", fact_key="city", valid_from="2025-01-01")
        second = self.m.remember("ana", "Ana lives in Lisbon.", fact_key="city", valid_from="2026-01-01")
        versions = self.m.history("ana", "city")
        self.assertEqual("Ana lives in Porto.", versions[0].text)
        self.assertFalse(versions[0].current)
        self.assertEqual(second.id, versions[-1].id)
        self.assertTrue(versions[-1].current)
        # the superseded version's still-true part is kept, clipped to end where Lisbon begins
        clipped = [v for v in versions if v.origin == first.id]
        self.assertEqual(["2026-01-01T00:00:00Z"], [v.valid_to for v in clipped])
        self.assertEqual("Ana lives in Lisbon.", self.m.get("ana", second.id).text)
        current = self.m.memories("ana", current_only=True)
        self.assertEqual({second.id, clipped[0].id}, {x.id for x in current})
        self.assertEqual(len(versions), len(self.m.memories("ana")))
        self.assertIsNotNone(self.m.get("ana", first.id))

    def test_rememberAll_isAtomic_andAnInvalidOneIsAProblemNamingIt(self) -> None:
        with self.assertRaises(ProblemError) as c:
            self.m.remember_all([{"owner": "bo", "text": "Bo likes tea."}, {"owner": "bo", "text": ""}])
        e = c.exception
        self.assertEqual(422, e.status)
        self.assertEqual("invalid-request", e.slug)
        self.assertTrue(e.type.startswith("urn:mnemo:problem:"))
        self.assertTrue(e.detail)
        self.assertFalse(e.retriable)
        self.assertTrue(any("records[1]" in v.field for v in e.errors), e.errors)
        self.assertEqual([], self.m.memories("bo"))  # nothing of the batch was written
        stored = self.m.remember_all([{"owner": "bo", "text": "Bo likes tea."}])
        self.assertEqual(["Bo likes tea."], [r.text for r in stored])

    def test_forget_oneRecord_thenTheOwner(self) -> None:
        a = self.m.remember("cy", "Cy plays chess.")
        self.m.remember("cy", "Cy plays the cello.")
        self.assertEqual(1, self.m.forget("cy", a.id))
        self.assertIsNone(self.m.get("cy", a.id))
        self.assertEqual(1, self.m.forget("cy"))
        self.assertEqual([], self.m.memories("cy"))

    def test_ingest_extractsInTheBackground_andProgressSaysSo(self) -> None:
        turns = [
            Turn(id="t1", owner="dee", episode="s1", role="user", speaker="Dee",
                 text="I moved to Berlin last month.", at="2026-05-03T10:00:00Z"),
            {"id": "t2", "owner": "dee", "episode": "s1", "role": "assistant",
             "text": "Nice, how do you like it?", "at": "2026-05-03T10:00:05Z"},
        ]
        receipt = self.m.ingest(turns)
        self.assertEqual(["t1", "t2"], receipt.accepted)
        self.assertEqual(["t1", "t2"], self.m.ingest(turns).duplicates)  # idempotent by turn id
        self.assertTrue(self.m.await_ingested(timeout=60))
        p = self.m.ingest_progress()
        self.assertEqual(0, p.waiting)
        self.assertEqual(0, p.pending)
        self.assertGreaterEqual(p.extracted, 2)
        self.assertGreaterEqual(p.records_written, 1)
        self.assertEqual(p.extracted, p.raw["extracted"])  # the deprecated flat names stay
        self.assertIn("Berlin", " ".join(r.text for r in self.m.memories("dee")))

    def test_retrievalLog_listsGetsReplaysAndCounts(self) -> None:
        r = self.m.remember("eve", "Eve's sister is called Zoe.")
        self.m.recall("eve", "what is the name of Eve's sister")
        page = self.m.recalls(owner="eve")
        deadline = time.monotonic() + 30
        while page.total == 0 and time.monotonic() < deadline:  # the log is written asynchronously
            time.sleep(0.05)
            page = self.m.recalls(owner="eve")
        self.assertGreaterEqual(page.total, 1)
        logged = page.recalls[0]
        self.assertEqual("eve", logged.owner)
        self.assertIn(r.id, logged.selected)
        full = self.m.logged_recall(logged.id)
        self.assertIsNotNone(full.trace)
        self.assertEqual("what is the name of Eve's sister", full.request.get("query"))
        self.assertTrue(self.m.replay(logged.id).identical)
        self.assertEqual([r.id], self.m.mark_used("eve", [r.id]))
        stats = self.m.recall_stats(owner="eve")
        while stats.used == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
            stats = self.m.recall_stats(owner="eve")
        self.assertGreaterEqual(stats.recalls, 1)
        self.assertGreaterEqual(stats.used, 1)

    def test_keys_createListRevoke_andARevokedKeyIsRefused(self) -> None:
        k = self.admin.create_key("pytest-keys", label="short-lived")
        self.assertTrue(k.key.startswith("mnemo_"))
        self.assertIn(k.key_id, [x.key_id for x in self.admin.keys("pytest-keys")])
        self.assertTrue(all(x.key is None for x in self.admin.keys("pytest-keys")))
        client = Mnemo(server.url, key=k.key)
        client.remember("fay", "Fay drinks oat milk.")
        self.admin.revoke_key("pytest-keys", k.key_id)
        with self.assertRaises(ProblemError) as c:
            client.remember("fay", "Fay drinks soy milk.")
        self.assertEqual(401, c.exception.status)
        self.assertEqual("unauthorized", c.exception.slug)

    def test_aTenantKeyCannotManageKeys_andNoKeyIsUnauthorized(self) -> None:
        with self.assertRaises(ProblemError) as c:
            self.m.keys("pytest")
        self.assertEqual(403, c.exception.status)
        with self.assertRaises(ProblemError) as c:
            Mnemo(server.url).recall("maya", "x")
        self.assertEqual(401, c.exception.status)

    def test_anUnreachableServer_isARetriableMnemoError(self) -> None:
        with self.assertRaises(MnemoError) as c:
            Mnemo("http://127.0.0.1:9", key="k", timeout=5).recall("maya", "x")
        self.assertNotIsInstance(c.exception, ProblemError)
        self.assertTrue(c.exception.retriable)
        self.assertIn("cannot reach", str(c.exception))

    def test_badSettings_areRefusedAtOnce(self) -> None:
        with self.assertRaises(ValueError):
            Mnemo("127.0.0.1:8080")
        with self.assertRaises(ValueError):
            Mnemo("http://127.0.0.1:8080", timeout=0)


class ExampleTest(unittest.TestCase):
    def test_agentLoopExample_runsAgainstTheServer_andAnswersFromMemory(self) -> None:
        import os
        import subprocess
        import sys
        from pathlib import Path

        here = Path(__file__).resolve().parents[1]
        key = Mnemo(server.url, key=server.admin_key).create_key("pytest-example").key
        env = dict(os.environ, MNEMO_URL=server.url, MNEMO_KEY=key, PYTHONPATH=str(here))
        out = subprocess.run(
            [sys.executable, str(here / "examples" / "agent_loop.py")],
            env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
        )
        self.assertEqual(0, out.returncode, out.stderr)
        self.assertIn("Helix", out.stdout)


if __name__ == "__main__":
    unittest.main()
