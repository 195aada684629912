"""Python client for Mnemo's REST API: remember, recall (with the trace), history, forget, ingest,
the retrieval log and API keys. Standard library only (urllib, json, dataclasses).

    from mnemo_client import Mnemo
    m = Mnemo("http://127.0.0.1:8080", key="mnemo_...")
    m.remember("maya", "Maya moved to Lisbon.", fact_key="city")
    print(m.recall("maya", "Where does Maya live?").block)
"""

from ._client import Mnemo
from ._errors import MnemoError, ProblemError, Violation
from ._types import (
    ApiKey,
    IngestProgress,
    IngestReceipt,
    LoggedRecall,
    LoggedRecallPage,
    Record,
    RecallResult,
    Recalled,
    RecallStats,
    Replay,
    Turn,
)

__all__ = [
    "Mnemo",
    "MnemoError",
    "ProblemError",
    "Violation",
    "ApiKey",
    "IngestProgress",
    "IngestReceipt",
    "LoggedRecall",
    "LoggedRecallPage",
    "Record",
    "RecallResult",
    "Recalled",
    "RecallStats",
    "Replay",
    "Turn",
]
__version__ = "0.1.0"
