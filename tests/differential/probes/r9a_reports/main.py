"""Report builders: a Report whose `sections` property returns (title, renderer) pairs, looped over in the step
body (a subclass extends the list with a bound method that awaits a step; another filters it down to plain
renderers); a renderer chosen by `getattr(self, f"render_{kind}")`; an export format registry keyed by the
extension from os.path.splitext; a `sorted(..., key=attrgetter("priority"))` pipeline whose top part may await a
step; templating where string.Formatter fields select resolvers (a step resolver for {owner}) before
str.format_map; a csv.writer over io.StringIO whose per-row hook is a step; an f-string with an await of a step in
the step body. Near misses: the base/filtered sections, the plain renderer kind, the markdown extension, a live
part sorted past the limit, a template without {owner}, the default row hook and an untaken conditional
f-string await."""
from agent_framework import step, workflow

from r9a_reports.builders import AuditReport, Part, SalesReport, top_parts
from r9a_reports.formats import CsvReportWriter, export, fill_template, keep_row
from r9a_reports.steps import annotate_row, translate

DATA = {"north": 12, "south": 7, "east": 3}
ROWS = [["north", "12"], ["south", "7"]]


@step
async def by_sections_with_chart(mode: str) -> str:
    report = SalesReport(DATA)
    parts = []
    for title, renderer in report.sections:
        parts.append(await renderer(title))  # expect: STP002
    return "\n".join(parts)


@step
async def near_miss_filtered_sections(mode: str) -> str:
    report = AuditReport(DATA)
    parts = []
    for title, renderer in report.sections:
        parts.append(await renderer(title))
    return "\n".join(parts)


@step
async def by_getattr_renderer(mode: str) -> str:
    report = SalesReport(DATA)
    kind = "chart" if mode == "a" else "table"
    renderer = getattr(report, f"render_{kind}")
    return await renderer(kind)  # expect: STP002


@step
async def near_miss_getattr_table_renderer(mode: str) -> str:
    report = SalesReport(DATA)
    return await report.render("table")


@step
async def by_extension_registry(mode: str) -> str:
    return await export("out/q3-sales.html", "body")  # expect: STP002


@step
async def near_miss_extension_markdown(mode: str) -> str:
    return await export("out/q3-sales.md", "body")  # imprecise: STP002


@step
async def by_priority_pipeline(mode: str) -> str:
    parts = [Part("footer", 9), Part("kpis", 1, live=True), Part("intro", 2)]
    return ";".join(await top_parts(parts, 2))  # expect: STP002


@step
async def near_miss_priority_past_limit(mode: str) -> str:
    parts = [Part("footer", 9, live=True), Part("kpis", 1), Part("intro", 2)]
    return ";".join(await top_parts(parts, 2))  # imprecise: STP002


@step
async def by_template_owner_field(mode: str) -> str:
    return await fill_template("{team} is run by {owner}", "ops")  # expect: STP002


@step
async def near_miss_template_without_owner(mode: str) -> str:
    return await fill_template("Weekly report for {team}", "ops")  # imprecise: STP002


@step
async def by_csv_row_hook(mode: str) -> str:
    writer = CsvReportWriter(row_hook=annotate_row)
    return await writer.write_rows(["region", "total", "status"], ROWS)  # expect: STP002


@step
async def near_miss_csv_default_hook(mode: str) -> str:
    strict = mode == "strict"
    writer = CsvReportWriter(row_hook=annotate_row if strict else keep_row)
    return await writer.write_rows(["region", "total"], ROWS)  # imprecise: STP002


@step
async def by_fstring_await(mode: str) -> str:
    title = "quarterly"
    return f"{title} / {await translate(title)}"  # expect: STP001


@step
async def near_miss_fstring_conditional_await(mode: str) -> str:
    title, lang = "quarterly", "en"
    return f"{title} / {await translate(title) if lang != 'en' else title}"


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_sections_with_chart(mode), await near_miss_filtered_sections(mode),
        await by_getattr_renderer(mode), await near_miss_getattr_table_renderer(mode),
        await by_extension_registry(mode), await near_miss_extension_markdown(mode),
        await by_priority_pipeline(mode), await near_miss_priority_past_limit(mode),
        await by_template_owner_field(mode), await near_miss_template_without_owner(mode),
        await by_csv_row_hook(mode), await near_miss_csv_default_hook(mode),
        await by_fstring_await(mode), await near_miss_fstring_conditional_await(mode),
    ]
    return "|".join(parts)
