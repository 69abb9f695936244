"""Plugin components: steps, strategy tables, registries, an event bus, middleware and dispatch helpers."""
import enum
import functools
from abc import ABC, abstractmethod
from collections import defaultdict

from agent_framework import step


@step
async def send_email(text: str) -> str:
    return "email:" + text


@step
async def render_csv(text: str) -> str:
    return "csv:" + text


@step
async def charge(text: str) -> str:
    return "charge:" + text


async def send_sms(text: str) -> str:
    return "sms:" + text


async def render_json(text: str) -> str:
    return "json:" + text


class Channel(enum.Enum):
    EMAIL = "email"
    SMS = "sms"
    PUSH = "push"
    FAX = "fax"


STRATEGIES = {Channel.EMAIL: send_email, Channel.SMS: send_sms}
ROUTES: dict = {}


def route(channel: Channel):  # noqa: ANN201
    def register(handler):  # noqa: ANN001, ANN202
        ROUTES[channel] = handler
        return handler
    return register


@route(Channel.PUSH)
async def push(text: str) -> str:
    return await send_email("push:" + text)


@route(Channel.FAX)
async def fax(text: str) -> str:
    return await send_sms("fax:" + text)


class Exporter:
    formats: dict = {}

    def __init_subclass__(cls, *, fmt: str, **kwargs) -> None:  # noqa: ANN003
        super().__init_subclass__(**kwargs)
        Exporter.formats[fmt] = cls

    @classmethod
    def for_format(cls, fmt: str) -> "Exporter":
        return cls.formats[fmt]()

    async def export(self, text: str) -> str:
        raise NotImplementedError


class CsvExporter(Exporter, fmt="csv"):
    async def export(self, text: str) -> str:
        return await render_csv(text)


class JsonExporter(Exporter, fmt="json"):
    async def export(self, text: str) -> str:
        return await render_json(text)


class Handler(ABC):
    async def handle(self, text: str) -> str:
        cleaned = text.strip()
        return await self.process(cleaned)

    @abstractmethod
    async def process(self, text: str) -> str: ...


class ChargeHandler(Handler):
    async def process(self, text: str) -> str:
        return await charge(text)


class LogHandler(Handler):
    async def process(self, text: str) -> str:
        return "log:" + text


class EventBus:
    def __init__(self) -> None:
        self._subscribers: defaultdict = defaultdict(list)

    def on(self, event: str):  # noqa: ANN201
        def subscribe(callback):  # noqa: ANN001, ANN202
            self._subscribers[event].append(callback)
            return callback
        return subscribe

    async def emit(self, event: str, payload: str) -> list:
        return [await callback(payload) for callback in self._subscribers[event]]


bus = EventBus()
bus.on("paid")(send_email)


@bus.on("refunded")
async def log_refund(text: str) -> str:
    return "refund:" + text


LISTENERS: list = []
LISTENERS.append(send_email)


class Notifier:
    def __init__(self) -> None:
        self.listeners: list = []

    def subscribe(self, callback) -> None:  # noqa: ANN001
        self.listeners.append(callback)

    async def notify(self, text: str) -> list:
        return [await callback(text) for callback in self.listeners]


class Webhooks:
    async def on_paid(self, text: str) -> str:
        return await charge(text)

    async def on_other(self, text: str) -> str:
        return "other:" + text

    async def handle(self, event: str, text: str) -> str:
        handler = getattr(self, f"on_{event}", self.on_other)
        return await handler(text)


PLUGINS = {"sms": send_sms}
PLUGINS.update({"email": send_email, "json": render_json})


def middleware(handler):  # noqa: ANN001, ANN201
    @functools.wraps(handler)
    async def wrapped(text: str) -> str:
        return await handler(text.upper())
    return wrapped


def build_chain(endpoint, layers):  # noqa: ANN001, ANN201
    return functools.reduce(lambda inner, layer: layer(inner), layers, endpoint)


def dispatch(kind: str):  # noqa: ANN201
    match kind:
        case "bill":
            return charge
        case "text":
            return send_sms
        case _:
            return render_json
