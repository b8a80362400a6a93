"""The REST document types each title's views, actions and events (api/rest/titled.py): the served document's
View, Action and GameEvent components, and each title's own (LondonView, GreatfireAction...), accept what the
engine sends over REST in a seeded game of each title played to its end, and what it sends in seeded playouts;
they refuse an action of no type the title has and a view with a wrong field. The components come from the title
registry: a title registered for the test has its own."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate as validate_openapi
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from firebreak.api.rest import routes, titled
from firebreak.domain import titles
from tests.conformance.support import Case, take, trace
from tests.service import support as h
from tests.titles.tictactoe import TITLE as TIC_TAC_TOE

URI = "urn:firebreak:openapi"
TITLES = ("greatfire", "london")


class Document:
    """Validators of the document's component schemas, every reference resolved within the document."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self.registry: Registry[Any] = Registry().with_resource(
            URI, Resource.from_contents(document, default_specification=DRAFT202012))
        self.validators: dict[str, Draft202012Validator] = {}

    def check(self, name: str) -> Draft202012Validator:
        """The validator of the component `name`."""
        if name not in self.validators:
            self.validators[name] = Draft202012Validator({"$ref": f"{URI}#/components/schemas/{name}"},
                                                         registry=self.registry)
        return self.validators[name]

    def valid(self, name: str, instance: Any, where: str) -> None:
        """The instance is valid against the component (the first error otherwise)."""
        errors = list(self.check(name).iter_errors(instance))
        assert not errors, f"{where}: not a {name}: {errors[0].message} at {list(errors[0].absolute_path)}"


@pytest.fixture(scope="module")
def http(server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server, timeout=60.0) as client:
        yield client


@pytest.fixture(scope="module")
def served(http: httpx.Client) -> Document:
    response = http.get("/v1/openapi.json")
    assert response.status_code == 200
    return Document(response.json())


def test_the_document_has_each_titles_components_with_their_discriminators(served: Document) -> None:
    """Valid OpenAPI 3.1; per title a view, an action and an event component, the latter two told apart by `type`
    (each mapping names every variant, each variant's constant type); View told apart by `title`; no reference
    left pointing at a title schema's own $defs."""
    document = served.document
    validate_openapi(document)
    schemas = document["components"]["schemas"]
    assert "#/$defs/" not in json.dumps(document)
    for title_id in TITLES:
        pre = titled.prefix(title_id)
        view = schemas[f"{pre}View"]
        assert view["properties"]["title"] == {"const": title_id}
        assert schemas["View"]["discriminator"]["mapping"][title_id] == f"#/components/schemas/{pre}View"
        for part in ("Action", "Event"):
            union = schemas[f"{pre}{part}"]
            mapping = union["discriminator"]["mapping"]
            assert union["discriminator"]["propertyName"] == "type"
            assert sorted(mapping.values()) == sorted(v["$ref"] for v in union["oneOf"])
            for kind, target in mapping.items():
                assert schemas[target.rsplit("/", 1)[-1]]["properties"]["type"] == {"const": kind}
        assert {"$ref": f"#/components/schemas/{pre}Action"} in schemas["Action"]["anyOf"]
        assert {"$ref": f"#/components/schemas/{pre}Event"} in schemas["GameEvent"]["anyOf"]
    match = schemas["Match"]["properties"]
    assert match["view"]["$ref"] == "#/components/schemas/View"
    assert match["legalActions"]["items"] == {"$ref": "#/components/schemas/Action"}
    assert schemas["Act"]["properties"]["action"]["$ref"] == "#/components/schemas/Action"
    assert schemas["MatchEvent"]["properties"]["events"]["items"] == {"$ref": "#/components/schemas/GameEvent"}


def test_they_refuse_an_unknown_action_and_a_view_with_a_wrong_field(served: Document, http: httpx.Client) -> None:
    """An action of no type of the title, or of the other title's only, is refused by the title's action; a view
    with a member of the wrong type, one it does not have, or another title's id is refused by View."""
    london = served.check("LondonAction")
    assert london.is_valid({"type": "develop"})
    assert not london.is_valid({"type": "noSuchAction"})
    assert not served.check("Action").is_valid({"type": "noSuchAction"})
    assert not served.check("Act").is_valid({"action": {"type": "noSuchAction"}, "expectedVersion": 1})
    assert not london.is_valid({"type": "keepHand"})  # a Great Fire action
    assert served.check("Action").is_valid({"type": "keepHand"})
    created = http.post("/v1/matches", json={"title": "london", "seats": 2, "seed": 5})
    assert created.status_code == 201, created.text
    view = created.json()["match"]["view"]
    served.valid("View", view, "a waiting London match's view")
    served.valid("LondonView", view, "a waiting London match's view")
    for wrong in ({**view, "seats": "two"}, {**view, "noSuchField": 1}, {**view, "title": "greatfire"},
                  {key: value for key, value in view.items() if key != "phase"}):
        assert not served.check("View").is_valid(wrong), wrong
    assert not served.check("GreatfireView").is_valid(view)


def _play(http: httpx.Client, served: Document, title_id: str, seed: int) -> set[str]:
    """A 2-seat match of the title played to its end over REST by people picking seeded random legal actions;
    every view, legal action, action sent and event answered is checked against the document. The event types
    seen."""
    rng = random.Random(seed)
    pre = titled.prefix(title_id)
    created = http.post("/v1/matches", json={"title": title_id, "seats": 2, "seed": seed})
    assert created.status_code == 201, created.text
    match_id = created.json()["matchId"]
    tokens: dict[int, str] = {}
    for n in range(2):
        joined = http.post(f"/v1/matches/{match_id}/seats", json={"name": f"p{n}"})
        assert joined.status_code == 201, joined.text
        tokens[joined.json()["seat"]] = joined.json()["token"]
    seen: set[str] = set()
    end = time.monotonic() + h.DEADLINE
    over = False
    while not over:
        assert time.monotonic() < end, f"{title_id} match {match_id} did not finish"
        acted = False
        for seat, token in tokens.items():
            read = http.get(f"/v1/matches/{match_id}", headers={"authorization": f"Bearer {token}"})
            assert read.status_code == 200, read.text
            m = read.json()
            where = f"{title_id} v{m['version']} seat {seat}"
            served.valid("View", m["view"], where)
            for action in m["legalActions"]:
                served.valid(f"{pre}Action", action, f"{where} legal action")
            if m["status"] == "OVER":
                over = True
                break
            if not m["legalActions"]:
                continue
            body = {"action": rng.choice(m["legalActions"]), "expectedVersion": m["version"]}
            served.valid("Act", body, f"{where} act")
            answer = http.post(f"/v1/matches/{match_id}/actions", json=body,
                               headers={"authorization": f"Bearer {token}", "prefer": "return=minimal"})
            assert answer.status_code == 200, answer.text
            served.valid("ActionAccepted", answer.json(), f"{where} accepted")
            for event in answer.json()["events"]:
                served.valid(f"{pre}Event", event, f"{where} event")
            acted = True
        if not over and not acted:
            time.sleep(0.01)  # the service's step (a non-player turn) is the workers'
    for token in (None, *tokens.values()):
        headers = {} if token is None else {"authorization": f"Bearer {token}"}
        page = http.get(f"/v1/matches/{match_id}/events", headers=headers, params={"afterVersion": 0, "limit": 10_000})
        assert page.status_code == 200, page.text
        served.valid("EventPage", page.json(), f"{title_id} events")
        for step in page.json()["items"]:
            for event in step["events"]:
                served.valid(f"{pre}Event", event, f"{title_id} v{step['version']} event")
                seen.add(event["type"])
    return seen


@pytest.mark.parametrize("title_id", TITLES)
def test_a_seeded_rest_game_validates_against_the_document(served: Document, http: httpx.Client,
                                                           title_id: str) -> None:
    seen = _play(http, served, title_id, 5150)
    assert len(seen) >= 8, seen  # a whole game: many kinds of event were checked


@pytest.mark.parametrize("title_id", TITLES)
def test_a_seeded_playouts_views_actions_and_events_validate_against_the_document(title_id: str) -> None:
    """The engine's own seeded playout (as the conformance suite plays it), every step: each event against the
    title's Event and GameEvent, each legal action against Action, each seat's view and the spectator's against
    View."""
    doc = Document(json.loads(json.dumps(routes.document())))
    case = Case(titles.get(title_id), 3 if title_id == "greatfire" else 2, 0)
    t = trace(case)
    match = t.new_match()
    pre = titled.prefix(title_id)
    for k, step in enumerate(t.log):
        if k % 10 == 0:
            for seat in match.to_act():
                for action in match.legal_actions(seat):
                    doc.valid("Action", action, f"{case} step {k}")
            for viewer in (None, *range(case.seats)):
                doc.valid("View", json.loads(json.dumps(match.view(viewer))), f"{case} step {k} view of {viewer}")
        for event in take(match, step):
            doc.valid(f"{pre}Event", event, f"{case} step {k}")
    for viewer in (None, *range(case.seats)):
        doc.valid("View", json.loads(json.dumps(match.view(viewer))), f"{case} final view of {viewer}")


def test_a_title_registered_has_its_components_and_gone_has_none() -> None:
    """The components come from the registry, not from a list in api/: a title registered has its own (and joins
    View, Action and GameEvent); unregistered, the document is the shipped titles' again."""
    pre = titled.prefix(TIC_TAC_TOE.id)
    titles.register(TIC_TAC_TOE)
    try:
        with_it = routes.document()
        validate_openapi(json.loads(json.dumps(with_it)))
        schemas = with_it["components"]["schemas"]
        assert {f"{pre}View", f"{pre}Action", f"{pre}Event"} <= set(schemas)
        assert {"$ref": f"#/components/schemas/{pre}Action"} in schemas["Action"]["anyOf"]
        assert {"$ref": f"#/components/schemas/{pre}View"} in schemas["View"]["oneOf"]
    finally:
        titles.unregister(TIC_TAC_TOE.id)
    assert f"{pre}View" not in routes.document()["components"]["schemas"]
