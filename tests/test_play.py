"""The terminal player (domain/play.py) plays any title to its end and prints the title's score columns."""

from __future__ import annotations

import pytest

from firebreak.domain import titles
from firebreak.domain.play import main


@pytest.mark.parametrize("title_id", [t.id for t in titles.all_titles()])
def test_it_plays_every_title_to_its_end(title_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    title = titles.get(title_id)
    assert main(["--title", title_id, "--seats", str(title.min_seats), "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Winner(s): seat" in out
    assert all(column.label in out for column in title.score_columns())
