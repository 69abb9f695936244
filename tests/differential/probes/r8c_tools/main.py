"""LLM-agent tools around steps: a hand-written @tool decorator registers functions with JSON-schema-ish metadata
into a toolbox (a step registered as it is, a step wrapped by a plain retry wrapper, a plain tool whose body awaits
a step, plain sync/async/lambda tools, a plain tool named like a step); an agent loop asks a scripted fake model
and dispatches its tool calls by name (sequentially, and concurrently through asyncio.gather); a tool picked by a
name read with json.loads from a constant string; a model script chosen by the mode; a tool defined as a closure
in the outer step's body and put into a local toolbox that the agent loop dispatches to. Near misses: plain tools
called directly and through the loop, a json-selected plain tool, a script whose final answer comes before the
step tool call, a step tool only described (schema built, never called)."""
import json

from agent_framework import step, workflow

from r8c_tools import steps, tools  # noqa: F401 - importing tools fills the toolbox
from r8c_tools.agent import run_agent, run_parallel
from r8c_tools.fake_model import FakeModel
from r8c_tools.toolbox import TOOLS, Toolbox, tool

CALL_TRANSLATE = '{"tool": "translate", "args": {"text": "bonjour", "target": "de"}}'
CALL_DOCUMENT = '{"tool": "fetch_document", "args": {"doc_id": "42"}}'


@step
async def by_step_tool_direct(text: str) -> str:
    return await TOOLS["lookup"].fn(query=text)  # expect: STP001


@step
async def near_miss_plain_tool_direct(text: str) -> str:
    return await TOOLS["calculator"].fn(expression="2+3")


@step
async def by_agent_loop_step_tool(text: str) -> str:
    return await run_agent(FakeModel.scripted("support"), text)  # expect: STP002


@step
async def near_miss_agent_loop_plain_tools(text: str) -> str:
    return await run_agent(FakeModel.scripted("maths"), text)


@step
async def by_agent_loop_wrapping_tool(text: str) -> str:
    answer = await run_agent(FakeModel.scripted("research"), text)  # expect: STP002
    return answer


@step
async def by_json_selected_tool(text: str) -> str:
    call = json.loads(CALL_TRANSLATE)
    spec = TOOLS.get_tool(call["tool"])
    return await spec.fn(**call["args"])  # expect: STP001


@step
async def near_miss_json_selected_plain_tool(text: str) -> str:
    call = json.loads(CALL_DOCUMENT)
    return await TOOLS[call["tool"]].fn(**call["args"])


@step
async def by_script_for_mode(mode: str) -> str:
    return await run_agent(FakeModel.for_mode(mode), "who is acme?")  # expect: STP002


@step
async def near_miss_final_answer_first(text: str) -> str:
    return await run_agent(FakeModel.scripted("answer_first"), text)  # imprecise: STP002


@step
async def by_parallel_tool_calls(text: str) -> str:
    results = await run_parallel(FakeModel.scripted("parallel"), text)  # expect: STP002
    return ",".join(results)


@step
async def by_retry_wrapped_tool(text: str) -> str:
    return await TOOLS["fetch_page"].fn(url="/docs/" + text)  # expect: STP002


@step
async def near_miss_tools_only_described(text: str) -> str:
    schema = TOOLS.describe()
    names = [entry["function"]["name"] for entry in schema]
    return text + ":" + ",".join(sorted(names))


@step
async def near_miss_lambda_and_sync_tools(text: str) -> str:
    echoed = TOOLS["echo"].fn(text=text)
    sunny = TOOLS.get_tool("weather").fn(city=echoed)
    return sunny


@step
async def by_local_closure_tool(text: str) -> str:
    local = Toolbox()

    @tool("lookup", box=local)
    async def cached_lookup(query: str) -> str:
        return await steps.lookup_record(query.lower())  # expect: STP001

    return await run_agent(FakeModel.scripted("support"), text, toolbox=local)


@step
async def near_miss_step_tool_mailed_later(text: str) -> str:
    pending = [(TOOLS["lookup"].fn, {"query": text}), (steps.send_email, {"to": "ops", "body": text})]
    return ";".join(f"{fn.__name__}({sorted(args)})" for fn, args in pending)


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_step_tool_direct(mode), await near_miss_plain_tool_direct(mode),
        await by_agent_loop_step_tool(mode), await near_miss_agent_loop_plain_tools(mode),
        await by_agent_loop_wrapping_tool(mode), await by_json_selected_tool(mode),
        await near_miss_json_selected_plain_tool(mode), await by_script_for_mode(mode),
        await near_miss_final_answer_first(mode), await by_parallel_tool_calls(mode),
        await by_retry_wrapped_tool(mode), await near_miss_tools_only_described(mode),
        await near_miss_lambda_and_sync_tools(mode), await by_local_closure_tool(mode),
        await near_miss_step_tool_mailed_later(mode),
    ]
    return "|".join(parts)
