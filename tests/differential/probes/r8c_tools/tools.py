"""The tools exposed to the model: some are steps, some wrap steps, some are plain."""
from r8c_tools import steps
from r8c_tools.toolbox import tool, with_retries


# A step registered as a tool as it is.
tool("lookup", description="Look up a customer record")(steps.lookup_record)
tool("translate", description="Translate a text")(steps.translate_text)
tool("fetch_page")(with_retries(steps.fetch_page))


@tool(description="Search the web")
async def search(query: str) -> str:
    hits = await steps.web_search(query)
    return hits[:80]


@tool(description="Evaluate an arithmetic expression")
async def calculator(expression: str) -> str:
    left, _, right = expression.partition("+")
    return str(int(left) + int(right))


@tool(description="Current weather for a city")
def weather(city: str) -> str:
    return f"sunny in {city}"


@tool(description="Fetch a document by id")
async def fetch_document(doc_id: str) -> str:
    """A plain tool, despite its name."""
    return "doc:" + doc_id


tool("echo", description="Repeat the text")(lambda text: text)
