"""Client code using the API client: lazily built sessions, a transport chosen from constructor arguments
or settings, `async with` clients that connect on entry (and one that disconnects on exit), and a retrying
transport wrapper. Near misses use the same shapes with a fake transport, a canned session, a session built
before the mode changed, or retries that give up before reaching the real transport."""
from agent_framework import step, workflow

from r10b_clients.client import ApiClient, CannedSession, ClosingClient, client_from_settings, with_retry
from r10b_clients.steps import record_metric, send_request
from r10b_clients.transport import FakeTransport, FlakyTransport, HttpTransport, RetryingTransport, TransientError


@step
async def by_lazy_session(path: str) -> str:
    client = ApiClient()
    return await client.get("/users/" + path)  # expect: STP002


@step
async def near_miss_fake_mode(path: str) -> str:
    client = ApiClient(mode="fake")
    return await client.get("/users/" + path)


@step
async def by_injected_transport(path: str) -> str:
    client = ApiClient("https://billing.local", transport=HttpTransport("billing.local"))
    body = await client.post("/invoices/" + path)  # expect: STP002
    return body.upper()


@step
async def near_miss_canned_session(path: str) -> str:
    client = ApiClient().use_session(CannedSession({"GET /status": "ok"}))
    return await client.get("/status")  # imprecise: STP002


@step
async def near_miss_session_built_before_mode_change(path: str) -> str:
    client = ApiClient(mode="fake")
    warm = await client.get("/ping")  # imprecise: STP002
    client.mode = "http"
    return warm + await client.get("/orders/" + path)  # imprecise: STP002


@step
async def by_connect_on_enter(path: str) -> str:
    async with ApiClient() as client:  # expect: STP002
        return f"{client.connection}{path}"


@step
async def near_miss_test_client_enter(path: str) -> str:
    async with ApiClient.for_tests() as client:  # imprecise: STP002
        return await client.get("/health") + (client.connection or "")  # imprecise: STP002


@step
async def by_close_on_exit(path: str) -> str:
    async with ClosingClient(transport=HttpTransport("edge.local")) as client:  # expect: STP002
        result = client.connection or "lazy"
    return result + path


@step
async def near_miss_close_on_exit_fake(path: str) -> str:
    async with ClosingClient(transport=FakeTransport("edge.local")) as client:  # imprecise: STP002
        result = await client.get("/edge/" + path)  # imprecise: STP002
    return result


@step
async def by_retry_after_flaky_failure(path: str) -> str:
    transport = RetryingTransport(FlakyTransport(HttpTransport(), failures=1), attempts=3)
    client = ApiClient(transport=transport)
    return await client.get("/reports/" + path)  # expect: STP002


@step
async def near_miss_retries_exhausted(path: str) -> str:
    transport = RetryingTransport(FlakyTransport(HttpTransport(), failures=5), attempts=2)
    client = ApiClient(transport=transport)
    try:
        return await client.get("/reports/" + path)  # imprecise: STP002
    except TransientError:
        return "gave up"


@step
async def by_settings_factory(path: str) -> str:
    client = client_from_settings({"transport": "http", "retries": "2"})
    return await client.get("/search?q=" + path)  # expect: STP002


@step
async def near_miss_settings_factory_fake(path: str) -> str:
    client = client_from_settings({"transport": "fake", "retries": "2"})
    return await client.get("/search?q=" + path)  # imprecise: STP002


@step
async def by_metric_after_fake_call(path: str) -> str:
    async with ApiClient(transport=FakeTransport()) as client:  # imprecise: STP002
        body = await client.get("/items/" + path)  # imprecise: STP002
        await record_metric("items.get")  # expect: STP001
    return body


@step
async def by_retry_of_lambda(path: str) -> str:
    return await with_retry(lambda: send_request("GET /legacy/" + path))  # expect: STP001


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_lazy_session(mode), await near_miss_fake_mode(mode), await by_injected_transport(mode),
        await near_miss_canned_session(mode), await near_miss_session_built_before_mode_change(mode),
        await by_connect_on_enter(mode), await near_miss_test_client_enter(mode), await by_close_on_exit(mode),
        await near_miss_close_on_exit_fake(mode),
        await by_retry_after_flaky_failure(mode), await near_miss_retries_exhausted(mode),
        await by_settings_factory(mode), await near_miss_settings_factory_fake(mode),
        await by_metric_after_fake_call(mode), await by_retry_of_lambda(mode),
    ]
    return "|".join(parts)
