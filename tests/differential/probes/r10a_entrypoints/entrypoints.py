"""Entry-point style plugin discovery: "group" -> ["name = module:attr", ...]."""
from importlib import import_module
from typing import Any

ENTRY_POINTS: dict[str, list[str]] = {
    "app.exporters": [
        "csv = r10a_entrypoints.plugins.exporters:CsvExporter",
        "cloud = r10a_entrypoints.plugins.exporters:make_cloud_exporter",
        "logged = r10a_entrypoints.plugins.wrappers:logging_wrapper",
    ],
    "app.auth": [
        "token = r10a_entrypoints.plugins.auth:TokenAuth.from_settings",
    ],
    "app.hooks": [
        "notify = r10a_entrypoints.steps:notify",
        "echo = r10a_entrypoints.plugins.hooks:echo_hook",
    ],
    "app.audit": [
        "local_file = r10a_entrypoints.plugins.hooks:file_audit",
        "remote = r10a_entrypoints.plugins.metrics:remote_audit",
        "local_memory = r10a_entrypoints.plugins.hooks:memory_audit",
    ],
    "app.metrics": [
        "default = r10a_entrypoints.plugins.metrics",
        "noop = r10a_entrypoints.plugins.metrics:noop_plugin",
    ],
    "app.validators": [
        "strict = r10a_entrypoints.plugins.validators:make_validator",
    ],
}


def load(spec: str) -> Any:
    module_name, _, attr = spec.strip().partition(":")
    target: Any = import_module(module_name.strip())
    if not attr:
        return getattr(target, "plugin")
    for part in attr.strip().split("."):
        target = getattr(target, part)
    return target


def group(name: str) -> dict[str, str]:
    found = {}
    for line in ENTRY_POINTS.get(name, []):
        key, _, spec = line.partition("=")
        found[key.strip()] = spec.strip()
    return found


def create(group_name: str, name: str, settings: dict[str, Any] | None = None) -> Any:
    factory = load(group(group_name)[name])
    return factory(settings or {})
