"""Keyword intent classification."""
from __future__ import annotations

KEYWORDS: dict[str, tuple[str, ...]] = {
    "refund": ("refund", "money back", "chargeback"),
    "order_status": ("where is", "tracking", "shipped"),
    "greeting": ("hello", "good morning"),
}


def classify(text: str, keywords: dict[str, tuple[str, ...]] = KEYWORDS) -> str:
    lowered = text.lower()
    for intent, words in keywords.items():
        if any(word in lowered for word in words):
            return intent
    return "unknown"


def message_for_mode(mode: str) -> str:
    return "I want my money back" if mode == "a" else "hello again"
