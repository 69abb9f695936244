"""Output formats keyed by file extension, string templating and a CSV writer with a per-row hook."""
import csv
import io
import os
import string
from typing import Awaitable, Callable

from r9a_reports.steps import lookup_owner, render_chart


async def export_txt(name: str, body: str) -> str:
    return f"{name}\n{body}"


async def export_html(name: str, body: str) -> str:
    chart = await render_chart(name)
    return f"<h1>{name}</h1>{chart}<pre>{body}</pre>"


async def export_md(name: str, body: str) -> str:
    return f"# {name}\n\n{body}"


FORMATS: dict[str, Callable[[str, str], Awaitable[str]]] = {
    ".txt": export_txt,
    ".html": export_html,
    ".md": export_md,
}


async def export(path: str, body: str) -> str:
    stem, ext = os.path.splitext(os.path.basename(path))
    exporter = FORMATS.get(ext, export_txt)
    return await exporter(stem, body)


async def static_team(team: str) -> str:
    return team.title()


RESOLVERS: dict[str, Callable[[str], Awaitable[str]]] = {
    "owner": lookup_owner,
    "team": static_team,
}


async def fill_template(template: str, team: str) -> str:
    fields = {name for _, name, _, _ in string.Formatter().parse(template) if name}
    values = {}
    for name in sorted(fields):
        values[name] = await RESOLVERS[name](team)
    return template.format_map(values)


async def keep_row(row: list) -> list:
    return row


class CsvReportWriter:
    def __init__(self, row_hook: Callable[[list], Awaitable[list]] = keep_row) -> None:
        self.buffer = io.StringIO()
        self.writer = csv.writer(self.buffer, lineterminator="\n")
        self.row_hook = row_hook

    async def write_rows(self, header: list, rows: list[list]) -> str:
        self.writer.writerow(header)
        for row in rows:
            self.writer.writerow(await self.row_hook(row))
        return self.buffer.getvalue()
