"""Plain handlers, plugins and the records they work on."""
from dataclasses import dataclass

from r8b_data import steps


async def trim(text: str) -> str:
    return text.strip()


async def lower(text: str) -> str:
    return text.lower()


async def format_plain(text: str) -> str:
    return "plain:" + text


async def offline_geocode(text: str) -> str:
    return "offline-geo:" + text


async def publish_stage(text: str) -> str:
    return await steps.publish(text)


async def write_log(text: str) -> str:
    return "log:" + text


async def do_resize(text: str) -> str:
    return "resize:" + text


async def do_tag(text: str) -> str:
    return await steps.tag_document(text.strip())


async def join_text(text: str) -> str:
    return "text:" + text


async def join_csv(text: str) -> str:
    return "csv:" + text


async def small_batch(text: str) -> str:
    return "small:" + text


async def medium_batch(text: str) -> str:
    return "medium:" + text


async def notify_later(text: str) -> str:
    return "later:" + text


async def index_stage(text: str) -> str:
    return await steps.index_document(text)


def is_numeric(text: str) -> bool:
    return text.isdigit()


def always(text: str) -> bool:
    return True


async def passthrough(text: str) -> str:
    return text


async def refund(text: str) -> str:
    return "refund:" + text


class SpellPlugin:
    async def handle(self, text: str) -> str:
        return "spell:" + text


class TagPlugin:
    async def handle(self, text: str) -> str:
        return await steps.tag_document(text)


class Router:
    async def dispatch(self, kind: str, text: str) -> str:
        return await getattr(self, f"handle_{kind}")(text)

    async def handle_image(self, text: str) -> str:
        return await steps.render_image(text)

    async def handle_text(self, text: str) -> str:
        return "text:" + text


@dataclass(frozen=True)
class Order:
    id: str
    status: str
    items: tuple[str, ...] = ()
