"""Middleware classes: each wraps the next application and dispatches a request through it."""
from __future__ import annotations

from r8a_middleware.http import Endpoint, Request, Response
from r8a_middleware.steps import audit_request, verify_token


class BaseHTTPMiddleware:
    def __init__(self, app: Endpoint) -> None:
        self.app = app

    async def __call__(self, request: Request) -> Response:
        return await self.dispatch(request, self.app)

    async def dispatch(self, request: Request, call_next: Endpoint) -> Response:
        return await call_next(request)


class TimingMiddleware(BaseHTTPMiddleware):
    async def dispatch(self, request: Request, call_next: Endpoint) -> Response:
        response = await call_next(request)
        response.headers["X-Process-Time"] = "0.001"
        return response


class CorsMiddleware(BaseHTTPMiddleware):
    async def dispatch(self, request: Request, call_next: Endpoint) -> Response:
        response = await call_next(request)
        response.headers["Access-Control-Allow-Origin"] = "*"
        return response


class AuditMiddleware(BaseHTTPMiddleware):
    async def dispatch(self, request: Request, call_next: Endpoint) -> Response:
        note = await audit_request(request.path)
        response = await call_next(request)
        response.headers["X-Audit"] = note
        return response


class AuthMiddleware(BaseHTTPMiddleware):
    public_paths = ("/health", "/docs")

    async def dispatch(self, request: Request, call_next: Endpoint) -> Response:
        if request.path in self.public_paths:
            return await call_next(request)
        token = request.headers.get("Authorization", "")
        if not token:
            return Response("unauthorized", status=401)
        request.headers["X-Identity"] = await verify_token(token)
        return await call_next(request)
