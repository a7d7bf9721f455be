"""Hashes as AYON makes them: SHA-256 over compact JSON, so the same data hashes alike on both servers."""

import hashlib
import random
import time
import uuid
from typing import Any

from .json import json_dumps


def hash_data(data: Any) -> str:
    """SHA-256 hex digest of `data` (a string as it is, anything else as compact JSON)."""
    text = data if isinstance(data, str) else json_dumps(data)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def create_hash() -> str:
    """A fresh, unguessable-enough token (AYON uses it for event hashes and launcher tokens)."""
    return hash_data([time.time(), random.random(), uuid.uuid4().hex])


def create_uuid() -> str:
    """A UUID1 as 32 hex digits, AYON's entity id form."""
    return uuid.uuid1().hex
