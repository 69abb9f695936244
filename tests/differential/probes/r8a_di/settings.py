"""Application settings read once from the environment (a cached provider, as in FastAPI's docs)."""
import dataclasses
import functools
import os


@dataclasses.dataclass(frozen=True)
class Settings:
    billing_mode: str = "live"
    mail_backend: str = "smtp"
    audit_enabled: bool = True


@functools.lru_cache
def get_settings() -> Settings:
    return Settings(
        billing_mode=os.environ.get("R8A_DI_BILLING_MODE", "live"),
        mail_backend=os.environ.get("R8A_DI_MAIL_BACKEND", "smtp"),
    )


@functools.lru_cache
def get_test_settings() -> Settings:
    return Settings(billing_mode="sandbox", mail_backend="console", audit_enabled=False)
