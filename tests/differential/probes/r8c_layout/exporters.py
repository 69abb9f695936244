"""Exporters: imported lazily, only when a report is exported."""
from r8c_layout.steps import export_pdf, render_chart

__all__ = ["export_pdf", "export_txt", "export_html"]


async def export_txt(text: str) -> str:
    return "txt:" + text


async def export_html(text: str) -> str:
    chart = await render_chart(text)
    return f"<p>{text}</p>{chart}"
