"""A rendering layer: templates registered by name with filters, string.Template / str.format rendering, a
renderer picked by pathlib.PurePath(name).suffix (with a default for unknown suffixes, and a getattr dispatch to
`render_<suffix>` methods), filters from a dict applied in sequence from an "a|b|c" spec (one of them awaits a
step), extra filters given as lambdas, and template context values produced by awaiting resolver functions."""
from agent_framework import step, workflow

from r10a_templates import filters, renderers, steps, templates


async def count_items(user: str) -> str:
    return str(len(user) + 2)


async def display_name(user: str) -> str:
    return user.title()


@step
async def by_filter_chain_translate(text: str) -> str:
    return await filters.apply_filters(f"  {text}  ", "upper|trim|translate")  # expect: STP002


@step
async def near_miss_filter_chain_title(text: str) -> str:
    return await filters.apply_filters(f"  {text}  ", "upper|trim|title")


@step
async def by_registered_invoice(user: str) -> str:
    return await templates.render("invoice.txt", {"number": 17, "name": user})  # expect: STP002


@step
async def near_miss_registered_welcome(user: str) -> str:
    return await templates.render("welcome.txt", {"site": "shop", "name": user})  # imprecise: STP002


@step
async def by_markdown_suffix(version: str) -> str:
    rendered = templates.render("release.en.md", {"version": version})
    return await rendered  # expect: STP002


@step
async def near_miss_markdown_inside_name(version: str) -> str:
    rendered = templates.render("release.md.txt", {"version": version})
    return await rendered  # imprecise: STP002


@step
async def by_awaited_context_resolvers(user: str) -> str:
    resolvers = {"name": steps.lookup_name, "count": count_items}
    context = {key: await resolve(user) for key, resolve in resolvers.items()}  # expect: STP001
    return await templates.render("digest.fmt", context)  # imprecise: STP002


@step
async def near_miss_plain_context_resolvers(user: str) -> str:
    resolvers = {"name": display_name, "count": count_items}
    context = {key: await resolve(user) for key, resolve in resolvers.items()}
    return await templates.render("digest.fmt", context)  # imprecise: STP002


@step
async def by_extra_lambda_filter(url: str) -> str:
    extra = {"shorten": lambda value: steps.shorten_url(value)}  # expect: STP001
    return await filters.apply_filters(f" https://example.org/{url} ", "trim|shorten", extra)


@step
async def near_miss_extra_lambda_filter_unused(url: str) -> str:
    extra = {"shorten": lambda value: steps.shorten_url(value)}  # imprecise: STP001
    return await filters.apply_filters(f" https://example.org/{url} ", "trim|lower", extra)


@step
async def by_suffix_method_dispatch(name: str) -> str:
    dispatcher = renderers.SuffixDispatcher()
    return await dispatcher.render("page.htm", "<b>$name</b>", {"name": name})  # unknown: STP002


@step
async def near_miss_suffix_method_fallback(name: str) -> str:
    dispatcher = renderers.SuffixDispatcher()
    return await dispatcher.render("page.xhtml", "<b>$name</b>", {"name": name})


@step
async def by_unknown_suffix_default(name: str) -> str:
    render = renderers.renderer_for("notes.rst", default=renderers.render_markdown)
    return await render("Notes by $name", {"name": name})  # expect: STP002


@step
async def near_miss_known_suffix_over_default(name: str) -> str:
    render = renderers.renderer_for("notes.HTML", default=renderers.render_markdown)
    return await render("Notes by $name", {"name": name})  # imprecise: STP002


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_filter_chain_translate(mode), await near_miss_filter_chain_title(mode),
        await by_registered_invoice(mode), await near_miss_registered_welcome(mode),
        await by_markdown_suffix(mode), await near_miss_markdown_inside_name(mode),
        await by_awaited_context_resolvers(mode), await near_miss_plain_context_resolvers(mode),
        await by_extra_lambda_filter(mode), await near_miss_extra_lambda_filter_unused(mode),
        await by_suffix_method_dispatch(mode), await near_miss_suffix_method_fallback(mode),
        await by_unknown_suffix_default(mode), await near_miss_known_suffix_over_default(mode),
    ]
    return "|".join(parts)
