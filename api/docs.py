"""``/api/v1/docs/``: the OpenAPI schema as a plain HTML page, rendered on the server. No script and no CDN
(the site's Content-Security-Policy allows our own origin only): every address, its answers and every
component's fields, from the same schema ``/api/v1/schema/`` serves."""

from __future__ import annotations

import functools
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from drf_spectacular.generators import SchemaGenerator

REF = "#/components/schemas/"


@functools.cache
def api_schema() -> dict[str, Any]:
    """The OpenAPI 3 schema of the API (built once per process: it changes only with the code)."""
    schema: dict[str, Any] = SchemaGenerator().get_schema(request=None, public=True)
    return schema


def _type(spec: dict[str, Any]) -> dict[str, str]:
    """A field's type in words, with the component it refers to (a link on the page)."""
    if "$ref" in spec:
        name = spec["$ref"].removeprefix(REF)
        return {"text": name, "ref": name}
    if spec.get("type") == "array":
        inner = _type(spec.get("items", {}))
        return {"text": f"array of {inner['text']}", "ref": inner.get("ref", "")}
    if "allOf" in spec:
        return _type(spec["allOf"][0])
    text = str(spec.get("type", "any"))
    if spec.get("format"):
        text += f" ({spec['format']})"
    if spec.get("enum"):
        text += ": " + ", ".join(str(value) for value in spec["enum"] if value is not None)
    if spec.get("nullable"):
        text += ", or null"
    return {"text": text, "ref": ""}


def _operations(schema: dict[str, Any]) -> list[dict[str, Any]]:
    operations = []
    for address, methods in schema.get("paths", {}).items():
        for method, operation in methods.items():
            answers = []
            for status, answer in operation.get("responses", {}).items():
                content: dict[str, Any] = answer.get("content", {})
                first: dict[str, Any] = next(iter(content.values()), {})
                body = first.get("schema")
                answers.append(
                    {
                        "status": status,
                        "description": answer.get("description", ""),
                        "type": _type(body) if body else None,
                    }
                )
            operations.append(
                {
                    "method": method.upper(),
                    "address": address,
                    "summary": operation.get("summary", ""),
                    "description": operation.get("description", ""),
                    "parameters": [
                        {"name": p["name"], "where": p["in"], "type": _type(p.get("schema", {}))}
                        for p in operation.get("parameters", [])
                    ],
                    "answers": answers,
                }
            )
    return operations


def _components(schema: dict[str, Any]) -> list[dict[str, Any]]:
    components = []
    for name, spec in sorted(schema.get("components", {}).get("schemas", {}).items()):
        required = set(spec.get("required", []))
        fields = [
            {
                "name": field,
                "type": _type(field_spec),
                "required": field in required,
                "description": field_spec.get("description", ""),
            }
            for field, field_spec in spec.get("properties", {}).items()
        ]
        components.append({"name": name, "type": _type(spec) if not fields else None, "fields": fields})
    return components


def schema_page(request: HttpRequest) -> HttpResponse:
    """The schema, readable: each address with its answers, then each component's fields."""
    schema = api_schema()
    return render(
        request,
        "api/docs.html",
        {
            "info": schema.get("info", {}),
            "operations": _operations(schema),
            "components": _components(schema),
        },
    )
