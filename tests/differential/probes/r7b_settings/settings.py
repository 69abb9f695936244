"""A settings object with nested feature flags, made once at import time."""
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Features:
    new_billing: bool = True
    legacy_audit: bool = False
    beta_storage: bool = False


@dataclass
class Settings:
    env: str = "prod"
    features: Features = field(default_factory=Features)
    timeout: float = 3.0

    @property
    def is_prod(self) -> bool:
        return self.env == "prod"


settings = Settings()
staging = Settings(env="staging", features=Features(new_billing=False, beta_storage=True))


OVERRIDES = {"new_billing": False, "legacy_audit": True}
overridden = Features(**OVERRIDES)


class BaseConfig:
    USE_REMOTE_STORE = False
    AUDIT = False


class ProductionConfig(BaseConfig):
    USE_REMOTE_STORE = True


class TestingConfig(BaseConfig):
    AUDIT = False


CONFIGS = {"production": ProductionConfig, "testing": TestingConfig}
ACTIVE = CONFIGS["testing"]
