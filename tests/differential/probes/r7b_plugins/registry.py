"""Registries filled by decorators when plugin modules are imported."""
CHANNELS: dict = {}
EXPORTERS: dict = {}
PLUGIN_CLASSES: list = []


def channel(name: str):  # noqa: ANN201
    def register(fn):  # noqa: ANN001, ANN202
        CHANNELS[name] = fn
        return fn
    return register


def exporter(fn):  # noqa: ANN001, ANN201
    EXPORTERS[fn.__name__] = fn
    return fn


def plugin_class(cls):  # noqa: ANN001, ANN201
    PLUGIN_CLASSES.append(cls)
    return cls


async def fallback(text: str) -> str:
    return "fallback:" + text
