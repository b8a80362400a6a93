"""pydantic's verdict on a request as an RFC 9457 problem: one {pointer, detail} per fault (a JSON pointer into the
body, or #/<where>/<name> for a parameter), and the code: VALIDATION_FAILED for a wrong type, a missing or unknown
member or a bound the schema always had, or the refusal code a field carries (Refuse, or a validator's own error
type named after a code) when every fault is of that kind, so a bound documented later keeps the code it had."""

from __future__ import annotations

import types
import typing
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from firebreak.api.rest.problems import Problem, problem
from firebreak.api.rest.requests import Refuse
from firebreak.matches.refusals import Refusal, registered

# pydantic error types of a value of the right type out of its bounds (the ones a field's Refuse code applies to)
BOUNDS = {"greater_than", "greater_than_equal", "less_than", "less_than_equal", "too_short", "too_long",
          "string_too_short", "string_too_long", "finite_number", "string_pattern_mismatch"}
TYPES = {"int_type": "integer", "int_from_float": "integer", "int_parsing": "integer", "float_type": "number",
         "string_type": "string", "bool_type": "boolean", "dict_type": "object", "model_type": "object",
         "model_attributes_type": "object", "list_type": "array", "none_required": "null"}


def detail(error: ErrorDetails) -> str:
    """Why, in the words the REST surface has always used."""
    kind, ctx = error["type"], error.get("ctx") or {}
    if kind == "missing":
        return "is required"
    if kind == "extra_forbidden":
        return "is not a known member"
    if kind in TYPES:
        return f"must be {TYPES[kind]}"
    if kind in ("greater_than_equal", "greater_than"):
        return f"must be {'at least' if kind == 'greater_than_equal' else 'above'} {ctx.get('ge', ctx.get('gt'))}"
    if kind in ("less_than_equal", "less_than"):
        return f"must be {'at most' if kind == 'less_than_equal' else 'below'} {ctx.get('le', ctx.get('lt'))}"
    if kind in ("string_too_short", "too_short"):
        return f"must have at least {ctx.get('min_length')} {'characters' if kind.startswith('string') else 'items'}"
    if kind in ("string_too_long", "too_long"):
        return f"must have at most {ctx.get('max_length')} {'characters' if kind.startswith('string') else 'items'}"
    if kind in ("literal_error", "enum"):
        return f"must be one of {ctx.get('expected', '')}".replace("'", "")
    return str(error["msg"])


def pointer(loc: tuple[int | str, ...]) -> str:
    """The JSON pointer of a body member."""
    return "".join(f"/{str(part).replace('~', '~0').replace('/', '~1')}" for part in loc) or "/"


def _field_code(model: type[BaseModel], loc: tuple[int | str, ...], kind: str) -> Refusal | None:
    """The Refuse code of the field at loc (through nested models and lists) for an error of this kind, if any."""
    annotation: Any = model
    code: Refusal | None = None
    for part in loc:
        annotation = _unwrap(annotation)
        if isinstance(part, int):
            args = typing.get_args(annotation)
            annotation = args[0] if args else Any
            continue
        if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)) or part not in \
                annotation.model_fields:
            return code
        field = annotation.model_fields[part]
        code = next((m.code for m in field.metadata if isinstance(m, Refuse) and (not m.only or kind in m.only)),
                    None)
        annotation = field.annotation
    return code


def _unwrap(annotation: Any) -> Any:
    """X from X | None."""
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        rest = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        return rest[0] if len(rest) == 1 else annotation
    return annotation


def code_of(model: type[BaseModel] | None, error: ErrorDetails) -> str:
    """The refusal code of one fault."""
    if error["type"].isupper():  # a validator's own error, named after its code (the service's or a title's)
        return error["type"]
    if model is not None and error["type"] in BOUNDS:
        found = _field_code(model, error["loc"], error["type"])
        if found is not None:
            return found.value
    return Refusal.VALIDATION_FAILED.value


def refusal(faults: list[tuple[str, dict[str, str]]], what: str) -> Problem:
    """The problem of these faults: VALIDATION_FAILED with every fault if any is of that code, else the first
    fault's code (with every fault too)."""
    codes = [code for code, _ in faults]
    code = Refusal.VALIDATION_FAILED.value if Refusal.VALIDATION_FAILED.value in codes else codes[0]
    first = faults[0][1]
    found = registered(code)
    where = "" if first["pointer"] == "/" else f"{first['pointer']}: "
    # a value the schema allows but the service refuses (BAD_OPTIONS...) says only why; a schema fault says so
    said = f"{what}: {where}{first['detail']}" if code == Refusal.VALIDATION_FAILED.value else where + first["detail"]
    return Problem(422 if found is None else found.status, code, said, {"errors": [fault for _, fault in faults]})


def body_refusal(model: type[BaseModel], error: ValidationError) -> Problem:
    """The problem of a body its model refused."""
    faults = [(code_of(model, e), {"pointer": pointer(e["loc"]), "detail": detail(e)})
              for e in error.errors(include_url=False)]
    return refusal(faults, f"the request body does not match its schema ({model.__name__})")


def adapter(annotation: Any) -> TypeAdapter[Any]:
    """The validator of a parameter's type."""
    return TypeAdapter(annotation)


def check_param(checker: TypeAdapter[Any], code: Refusal, where: str, name: str, value: Any,
                faults: list[tuple[str, dict[str, str]]]) -> Any:
    """The parameter's value checked strictly against its type, or the fault recorded (bounds refused with code)."""
    try:
        return checker.validate_python(value, strict=True)
    except ValidationError as error:
        for e in error.errors(include_url=False):
            got = e["type"] if e["type"].isupper() else code.value if e["type"] in BOUNDS else \
                Refusal.VALIDATION_FAILED.value
            faults.append((got, {"pointer": f"#/{where}/{name}", "detail": detail(e)}))
        return value


def unacceptable(faults: list[tuple[str, dict[str, str]]]) -> Problem:
    """The problem of refused parameters."""
    if all(code == Refusal.VALIDATION_FAILED.value for code, _ in faults):
        return problem(Refusal.VALIDATION_FAILED, "a parameter is not acceptable", errors=[f for _, f in faults])
    return refusal(faults, "a parameter is not acceptable")
