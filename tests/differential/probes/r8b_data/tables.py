"""Dispatch tables: a ChainMap of defaults, an ordered read-only pipeline, an Enum of partials, phases, kinds,
priority rules and size tiers."""
from collections import ChainMap, OrderedDict
from enum import Enum
from functools import partial
from types import MappingProxyType

from r8b_data import actions, steps

DEFAULTS = {"geo": steps.geocode, "fmt": actions.format_plain}
TEST_OVERRIDES = {"geo": actions.offline_geocode}


def handlers(*overrides: dict) -> ChainMap:
    return ChainMap(*overrides, DEFAULTS)


STAGES = MappingProxyType(
    OrderedDict([("trim", actions.trim), ("publish", actions.publish_stage), ("lower", actions.lower)])
)


class Channel(Enum):
    EMAIL = partial(steps.send_email)
    LOG = partial(actions.write_log)

    def __call__(self, text: str):  # noqa: ANN204
        return self.value(text)


PHASES = {"pre": [actions.trim, actions.lower], "post": [steps.publish]}
PREVIEW_PHASES = ("pre",)

KIND_HANDLERS = {"text": actions.join_text, "csv": actions.join_csv, "image": steps.render_image}

RULES = [(20, actions.is_numeric, steps.normalize_number), (10, actions.always, actions.passthrough)]

TIERS = [(10, actions.small_batch), (100, actions.medium_batch), (1000, steps.bulk_import)]
