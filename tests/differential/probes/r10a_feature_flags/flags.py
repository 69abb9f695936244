"""Feature flags: defaults, environment-style overrides merged over them, a frozen dataclass built with **, and
deterministic bucketing of users (zlib.crc32)."""
import zlib
from dataclasses import dataclass, fields
from typing import Any, Mapping, Sequence

ENV_PREFIX = "APP_FLAG_"


@dataclass(frozen=True)
class Flags:
    new_checkout: bool = False
    recommendations: bool = False
    beta_banner: bool = False
    receipts: bool = False
    kill_switch_payments: bool = False
    recommend_rollout: int = 0
    search_experiment: str = "search"


DEFAULTS: dict[str, Any] = {
    "new_checkout": False,
    "recommendations": False,
    "beta_banner": False,
    "receipts": True,
    "kill_switch_payments": False,
    "recommend_rollout": 0,
}

# What the process environment would hold in production and during an incident.
PRODUCTION_ENV = {
    "APP_FLAG_NEW_CHECKOUT": "true",
    "APP_FLAG_RECOMMENDATIONS": "on",
    "APP_FLAG_BETA_BANNER": "off",
    "APP_FLAG_RECOMMEND_ROLLOUT": "40",
    "HOME": "/srv/shop",
}
INCIDENT_ENV = {**PRODUCTION_ENV, "APP_FLAG_KILL_SWITCH_PAYMENTS": "1", "APP_FLAG_RECEIPTS": "no"}

_TRUE = {"1", "true", "on", "yes"}


def _convert(kind: Any, raw: str) -> Any:
    if kind in (bool, "bool"):
        return raw.strip().lower() in _TRUE
    if kind in (int, "int"):
        return int(raw)
    return raw


def from_env(env: Mapping[str, str]) -> dict[str, Any]:
    kinds = {f.name: f.type for f in fields(Flags)}
    parsed = {}
    for key, raw in env.items():
        if not key.startswith(ENV_PREFIX):
            continue
        name = key[len(ENV_PREFIX):].lower()
        if name in kinds:
            parsed[name] = _convert(kinds[name], raw)
    return parsed


def load(env: Mapping[str, str] = PRODUCTION_ENV, overrides: Mapping[str, Any] | None = None) -> Flags:
    merged = {**DEFAULTS, **from_env(env), **(overrides or {})}
    return Flags(**merged)


def bucket(user_id: str, buckets: int = 100) -> int:
    return zlib.crc32(user_id.encode()) % buckets


def variant(experiment: str, user_id: str, variants: Sequence[str]) -> str:
    return variants[zlib.crc32(f"{experiment}:{user_id}".encode()) % len(variants)]
