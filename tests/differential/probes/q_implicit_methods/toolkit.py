"""A module whose attributes are answered by a module-level __getattr__ (PEP 562): any public name it does not
define is the fetch step."""
from agent_framework import step


@step
async def lookup(label: str) -> str:
    return "lookup:" + label


async def quiet(label: str) -> str:
    return "quiet:" + label


def __getattr__(name: str):  # noqa: ANN202
    if name.startswith("_"):
        raise AttributeError(name)
    return lookup
