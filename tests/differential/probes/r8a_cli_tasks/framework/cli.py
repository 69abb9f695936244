"""A Click/Typer-like command registry: groups hold commands by name (plus aliases) and subgroups."""
from __future__ import annotations

from typing import Any, Awaitable, Callable

Command = Callable[..., Awaitable[Any]]


class UsageError(Exception):
    pass


class Group:
    def __init__(self, name: str, help: str = "") -> None:
        self.name = name
        self.help = help
        self.commands: dict[str, Command] = {}
        self.aliases: dict[str, str] = {}
        self.groups: dict[str, Group] = {}

    def command(self, name: str | None = None, *, aliases: tuple[str, ...] = ()) -> Callable[[Command], Command]:
        def decorator(func: Command) -> Command:
            command_name = name or func.__name__.replace("_", "-")
            self.commands[command_name] = func
            for alias in aliases:
                self.aliases[alias] = command_name
            return func
        return decorator

    def group(self, name: str, help: str = "") -> "Group":
        sub = Group(name, help)
        self.groups[name] = sub
        return sub

    def get_command(self, name: str) -> Command:
        name = self.aliases.get(name, name)
        if name not in self.commands:
            raise UsageError(f"No such command {name!r} in {self.name!r}")
        return self.commands[name]

    async def invoke(self, argv: list[str]) -> Any:
        if not argv:
            raise UsageError(f"{self.name}: missing command")
        head, *rest = argv
        if head in self.groups:
            return await self.groups[head].invoke(rest)
        command = self.get_command(head)
        args, options = parse_args(rest)
        return await command(*args, **options)


def parse_args(tokens: list[str]) -> tuple[list[str], dict[str, Any]]:
    args: list[str] = []
    options: dict[str, Any] = {}
    for token in tokens:
        if token.startswith("--"):
            key, _, value = token[2:].partition("=")
            options[key.replace("-", "_")] = value or True
        else:
            args.append(token)
    return args, options
