"""Generic support for the optional encoded contract (integer action ids, observations): whether a title
provides it, the action index a title builds once from its action space, and observation layouts declared as
named pieces (OpenSpiel's observation tensors), so an observation's size is the sum of its pieces' sizes."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeGuard, TypeVar

from firebreak.domain.contract import OBSERVATION_HIGH, Action, EncodedTitle, Title
from firebreak.domain.errors import IllegalAction, UnknownActionId

ActionKey = tuple[tuple[str, Hashable], ...]
S = TypeVar("S")  # the state an observation is computed from


def action_key(action: Action) -> ActionKey:
    """A hashable key equal for equal actions (field order does not matter; a bool is not the int 1)."""
    key = tuple(sorted(action.items()))
    if any(type(v) is bool for v in action.values()):
        return tuple((k, (v, "bool") if type(v) is bool else v) for k, v in key)
    return key


class ActionIndex:
    """An action space with its reverse lookup: action -> id and id -> action."""

    def __init__(self, space: Sequence[Action]) -> None:
        self.space: tuple[Action, ...] = tuple(dict(a) for a in space)
        self._ids: dict[ActionKey, int] = {}
        for i, action in enumerate(self.space):
            key = action_key(action)
            if key in self._ids:
                raise ValueError(f"action {action!r} is listed twice in the action space")
            self._ids[key] = i

    def __len__(self) -> int:
        return len(self.space)

    def id_of(self, action: Action) -> int:
        """Return the id of an action; raise IllegalAction for an action outside the space."""
        try:
            return self._ids[action_key(action)]
        except KeyError:
            raise IllegalAction(f"{action!r} is not in the title's action space") from None

    def ids_of(self, actions: Sequence[Action]) -> list[int]:
        """Return the ids of the actions, ascending."""
        return sorted(self.id_of(a) for a in actions)

    def action(self, action_id: object) -> Action:
        """Return a copy of the action with this id; raise UnknownActionId for anything else."""
        if not isinstance(action_id, int) or isinstance(action_id, bool) or not 0 <= action_id < len(self.space):
            raise UnknownActionId(f"{action_id!r} is not an action id (0-{len(self.space) - 1})")
        return dict(self.space[action_id])


def is_encoded(title: Title) -> TypeGuard[EncodedTitle]:
    """Return True when the title provides the encoded contract (action_space and observation_size)."""
    return callable(getattr(title, "action_space", None)) and callable(getattr(title, "observation_size", None))


@dataclass(frozen=True)
class Piece(Generic[S]):
    """One named part of an observation: its length for a seat count, and what fills it (state, observer seat)."""

    name: str
    size: Callable[[int], int]
    fill: Callable[[S, int], list[int]]


class ObservationLayout(Generic[S]):
    """An observation as named pieces in order: its size is their sum, and observing fills them in turn.

    Observing clips each number to 0-OBSERVATION_HIGH unless clip is False: a layout whose pieces never fill a
    number outside that range (its title's tests show it) skips the pass over every number."""

    def __init__(self, pieces: Iterable[Piece[S]], clip: bool = True) -> None:
        self.pieces: tuple[Piece[S], ...] = tuple(pieces)
        self.clip = clip

    def size(self, seats: int) -> int:
        """The length of an observation in a match of this many seats."""
        return sum(piece.size(seats) for piece in self.pieces)

    def observe(self, state: S, seat: int) -> list[int]:
        """The seat's observation: every piece filled in order, each number clipped to 0-OBSERVATION_HIGH (when
        the layout clips)."""
        out: list[int] = []
        for piece in self.pieces:
            out += piece.fill(state, seat)
        if not self.clip:
            return out
        return [x if 0 <= x <= OBSERVATION_HIGH else (0 if x < 0 else OBSERVATION_HIGH) for x in out]
