"""Endpoints of the API."""
from r8a_middleware.http import Request, Response
from r8a_middleware.steps import load_orders, render


async def orders_endpoint(request: Request) -> Response:
    return Response(render(await load_orders(request.user)))


async def health_endpoint(request: Request) -> Response:
    return Response(render("healthy " + request.user))
