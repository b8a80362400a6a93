"""OpenSpiel Python games for every title that provides the encoded contract (`pip install firebreak[rl]`).

    from firebreak.integrations.openspiel import register_all
    register_all()                                   # registers "python_firebreak_<title id>"
    game = pyspiel.load_game(short_name(title_id), {"players": 3})

What the games declare, and why:
- sequential moves: the acting seat is the lowest of Match.to_act() (seats owing a decision at once are asked one
  after the other, as the service applies their actions; every shipped title has one seat to act at a time);
- imperfect information;
- EXPLICIT_STOCHASTIC chance with a single chance node, the first move: it draws the match seed (uniform over
  SEEDS outcomes; outcome k plays the match the service sets up from seed k). All later randomness (shuffles,
  draws) comes from the seeded generator kept in the match, so after that node the game is deterministic given
  the actions, which is what clone and random_sim_test check, and the OpenSpiel run's own random generator
  decides which match is played. The service's automated steps (system_due()) run inside apply: they are not
  OpenSpiel moves;
- constant-sum utility (sum 1): the winners share 1 (a true tie splits it), the others get 0, at the end only;
- observation tensor: Match.observation(seat) (zeros at the chance node); observation and information-state
  strings: the seat's view as JSON (not perfect recall: the view is the public record the title keeps, not every
  past event);
- resample_from_infostate(player) goes through Match.resample(seat, rng) (the title's hook), so ISMCTS works;
- the game parameters are "players" and the title's options (bool, choice, and int options; a nullable int
  option takes -1 for null).
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from firebreak.domain.contract import EncodedMatch, EncodedTitle, OptionKind
from firebreak.integrations.common import acting_seat, encoded_title, encoded_title_ids, run_system_steps, win_shares

MAX_GAME_LENGTH = 10_000  # moves; the shipped titles' matches take a few hundred
SEEDS = 1 << 16  # chance outcomes of the first move: the match seeds 0..SEEDS-1


def short_name(title_id: str) -> str:
    """The OpenSpiel short name of a title's game."""
    return f"python_firebreak_{title_id}"


def _parameters(title: EncodedTitle) -> dict[str, Any]:
    """The game parameters with their defaults: players, then the title's options."""
    params: dict[str, Any] = {"players": max(title.min_seats, min(title.max_seats, 3))}
    for spec in title.option_specs():
        if spec.kind is OptionKind.BOOL:
            params[spec.name] = bool(spec.default)
        elif spec.kind is OptionKind.CHOICE:
            params[spec.name] = str(spec.default)
        elif spec.nullable and (spec.minimum is None or spec.minimum < 0):
            continue  # -1 could not stand for null
        else:
            params[spec.name] = -1 if spec.default is None else int(spec.default)
    return params


def game_type(title: EncodedTitle) -> pyspiel.GameType:
    """The OpenSpiel record of what the title's game is."""
    return pyspiel.GameType(
        short_name=short_name(title.id),
        long_name=f"Firebreak {title.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=title.max_seats,
        min_num_players=title.min_seats,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(title),
    )


class FirebreakGame(pyspiel.Game):
    """An encoded title as an OpenSpiel game (one class serves every title; the title id is bound at
    registration)."""

    title_id = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.title = encoded_title(self.title_id)
        given = dict(params or {})
        defaults = _parameters(self.title)
        self.seats = int(given.get("players", defaults["players"]))
        self.options = self._options(given)
        self.action_names = [json.dumps(action, sort_keys=True) for action in self.title.action_space()]
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.action_names),
            max_chance_outcomes=SEEDS,
            num_players=self.seats,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(game_type(self.title), info, {**defaults, **given})

    def _options(self, given: dict[str, Any]) -> dict[str, Any]:
        """The title's options from the parameters, only those that apply to the seat count."""
        out: dict[str, Any] = {}
        for spec in self.title.option_specs():
            if spec.name not in given or (spec.seats and self.seats not in spec.seats):
                continue
            value = given[spec.name]
            out[spec.name] = None if spec.kind is OptionKind.INT and spec.nullable and value == -1 else value
        return self.title.check_options(self.seats, out)

    def new_initial_state(self) -> FirebreakState:
        """A new state at the chance node that draws the match seed."""
        return FirebreakState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> FirebreakObserver:
        """The observer of a seat's own observation (tensor) and view (string)."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params!r}")
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER if iig_obs_type is None else iig_obs_type.private_info
        if private != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("only a seat's own observation is provided (private_info SINGLE_PLAYER)")
        return FirebreakObserver(self.title.observation_size(self.seats))


class _Cell:
    """Holds a state's match (None at the chance node); OpenSpiel clones a Python state by deep-copying its
    attributes, and this makes that copy a Match.clone() (sharing the board and components)."""

    def __init__(self, match: EncodedMatch | None) -> None:
        self.match = match
        self.views: dict[tuple[int, int], str] = {}  # (version, seat) -> the view as JSON

    def view_text(self, seat: int) -> str:
        """The seat's view as JSON ("" at the chance node), computed once per version (both OpenSpiel strings
        are this text)."""
        match = self.match
        if match is None:
            return ""
        key = (match.version, seat)
        text = self.views.get(key)
        if text is None:
            if any(version != match.version for version, _ in self.views):
                self.views.clear()
            text = self.views[key] = json.dumps(match.view(seat), sort_keys=True)
        return text

    def __deepcopy__(self, memo: dict[int, Any]) -> _Cell:
        return _Cell(None if self.match is None else self.match.clone())


class FirebreakState(pyspiel.State):
    """A match of the title, at the decision of its acting seat (or, first, the chance node of its seed)."""

    def __init__(self, game: FirebreakGame) -> None:
        super().__init__(game)
        self._cell = _Cell(None)  # the only attribute: OpenSpiel's clone deep-copies every one

    @property
    def _game(self) -> FirebreakGame:
        game: FirebreakGame = self.get_game()
        return game

    @property
    def match(self) -> EncodedMatch | None:
        """The match; None before the chance node has drawn its seed."""
        return self._cell.match

    def view_text(self, seat: int) -> str:
        """The seat's view as JSON ("" at the chance node)."""
        return self._cell.view_text(seat)

    def current_player(self) -> int:
        """The acting seat, CHANCE before the seed is drawn, or TERMINAL."""
        match = self._cell.match
        if match is None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = acting_seat(match)
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The match seeds, uniformly."""
        return [(seed, 1.0 / SEEDS) for seed in range(SEEDS)]

    def _legal_actions(self, player: int) -> list[int]:
        """The player's legal action ids, ascending."""
        match = self._cell.match
        if match is None or player != acting_seat(match):
            return []
        return match.legal_action_ids(player)

    def _apply_action(self, action: int) -> None:
        """Set the match up from the drawn seed, or apply the acting seat's action id; then run the service's
        automated steps."""
        match = self._cell.match
        if match is None:
            game = self._game
            match = self._cell.match = game.title.new_match(game.seats, int(action), game.options)
        else:
            seat = acting_seat(match)
            assert seat is not None
            match.apply_id(seat, int(action))
        run_system_steps(match)

    def _action_to_string(self, player: int, action: int) -> str:
        """The action as the title's JSON (the chance node's: the seed)."""
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}"
        return str(self._game.action_names[action])

    def is_terminal(self) -> bool:
        """True once the match is over."""
        match = self._cell.match
        return match is not None and match.is_over()

    def returns(self) -> list[float]:
        """The winners share 1 at the end; zeros before."""
        match = self._cell.match
        return [0.0] * self._game.seats if match is None else win_shares(match)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> FirebreakState:
        """A state in which everything hidden from the player is redrawn through the title's resample hook
        (the match's resample, with a generator seeded from Python's random module)."""
        other = FirebreakState(self._game)
        match = self._cell.match
        if match is not None:
            other._cell = _Cell(match.resample(player_id, random.Random(random.getrandbits(64))))
        return other

    def __str__(self) -> str:
        """The whole match as JSON (secrets included: for debugging, never for a player)."""
        match = self._cell.match
        return "seed not drawn" if match is None else json.dumps(match.to_dict(), sort_keys=True)


class FirebreakObserver:
    """A seat's observation tensor (Match.observation) and string (its view as JSON)."""

    def __init__(self, size: int) -> None:
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: FirebreakState, player: int) -> None:
        """Fill the tensor from the state, as the player sees it (zeros at the chance node)."""
        match = state.match
        if match is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = match.observation(player)

    def string_from(self, state: FirebreakState, player: int) -> str:
        """The player's view as JSON ("" at the chance node)."""
        return state.view_text(player)


def register(title_id: str) -> str:
    """Register the title's game with OpenSpiel (once) and return its short name."""
    name = short_name(title_id)
    if name in pyspiel.registered_names():
        return name
    title = encoded_title(title_id)
    game_class = type(f"FirebreakGame_{title_id}", (FirebreakGame,), {"title_id": title_id})
    pyspiel.register_game(game_type(title), game_class)
    return name


def register_all() -> list[str]:
    """Register every encoded title's game; return their short names."""
    return [register(title_id) for title_id in encoded_title_ids()]
