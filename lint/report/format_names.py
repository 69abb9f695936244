"""The names ``--format`` takes, apart from the renderers (``steplint.report.formats``), so that the command line's
help loads no renderer (SARIF's lists every rule)."""

TEXT, CONCISE, FULL = "text", "concise", "full"
JSON, JSON_LINES = "json", "json-lines"
PYLINT, GITHUB, SARIF = "pylint", "github", "sarif"
GROUPED, JUNIT, GITLAB, RDJSON, AZURE = "grouped", "junit", "gitlab", "rdjson", "azure"

#: The layouts for a person (``steplint.report.text_format``): the CLI adds colour and the closing summary.
TEXT_FORMATS = (TEXT, CONCISE, FULL, GROUPED)
#: The layouts ``--statistics`` and ``--show-settings`` print as JSON.
JSON_FORMATS = (JSON, JSON_LINES)
FORMAT_NAMES = (*TEXT_FORMATS, *JSON_FORMATS, JUNIT, PYLINT, GITHUB, GITLAB, RDJSON, AZURE, SARIF)
