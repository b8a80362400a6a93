"""REST titles: the playable games, with their options, score columns and bot levels."""

from __future__ import annotations

from firebreak.api.rest.convert import title_json
from firebreak.api.rest.problems import problem
from firebreak.api.rest.requests import title_param
from firebreak.api.rest.table import Call, Operation, Param, Reply
from firebreak.domain import titles
from firebreak.domain.errors import UnknownTitle
from firebreak.matches.refusals import Refusal


async def list_titles(_: Call) -> Reply:
    """Every playable title."""
    return Reply({"items": [title_json(t) for t in titles.all_titles()]})


async def get_title(call: Call) -> Reply:
    """One title, with its schemas and board data."""
    try:
        title = titles.get(call.params["id"])
    except UnknownTitle:
        raise problem(Refusal.TITLE_NOT_FOUND, f"no title {call.params['id']!r}") from None
    return Reply(title_json(title, detail=True))


OPERATIONS = [
    Operation("GET", "/v1/titles", "listTitles", "titles", "List the playable titles",
              "Every title with its seat range, typed options (what createMatch's options take), score columns "
              "and bot levels; GET /v1/titles/{id} adds the board data and the JSON Schemas of views, actions, "
              "events and results.", list_titles, response="TitleList"),
    Operation("GET", "/v1/titles/{id}", "getTitle", "titles", "Read one title",
              "A title as in the list, plus the JSON Schemas (2020-12) of its view, actions, events and result, "
              "and the static board data its client draws.", get_title,
              response="TitleDetail", params=(Param("id", "path", title_param(), "The title id.", True,
                                                           code=Refusal.TITLE_NOT_FOUND),),
              codes=(Refusal.TITLE_NOT_FOUND,)),
]
