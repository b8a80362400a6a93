"""The core of the service suite, run against a 3-master Redis Cluster and a plain queue Redis (issue 14):
a full match with bot seats, the concurrency races over two API processes, idempotency, subscription resume.

The tests are the plain suite's own functions; this folder's conftest points their fixtures at the cluster."""

from __future__ import annotations

from typing import Any

import pytest
from redis import Redis

from tests.service import test_play_over_http as play
from tests.service.test_concurrency import (
    test_a_second_api_process_serves_the_same_matches,
    test_fifty_concurrent_different_actions_at_one_version_apply_once,
    test_fifty_concurrent_identical_submissions_apply_once,
    test_fifty_concurrent_submissions_sharing_a_key_all_get_the_one_accepted_outcome,
    test_fifty_concurrent_submissions_with_distinct_keys_apply_once,
    test_two_api_processes_apply_concurrent_submissions_once,
    test_two_api_processes_share_idempotency_keys,
)
from tests.service.test_idempotency import (
    test_a_resubmitted_key_returns_the_first_accepted_outcome,
    test_a_resubmitted_key_returns_the_first_refused_outcome,
    test_an_accepted_action_answers_with_the_match_as_it_now_stands,
    test_different_keys_are_independent,
    test_keys_are_scoped_to_the_seat_and_the_match,
)
from tests.service.test_my_matches import (
    test_a_bots_reply_brings_my_turn_back_with_my_clock_deadline,
    test_a_finished_matchs_row_carries_its_result,
    test_my_turn_first_oldest_waiting_first_then_the_rest_by_last_activity,
    test_paging_spans_both_parts_with_no_gap_or_duplicate_while_matches_change,
)
from tests.service.test_play_over_http import test_all_bots_match_finishes_by_itself
from tests.service.test_players_api import (
    test_a_player_plays_a_whole_match_from_two_devices,
    test_one_seat_per_player_even_when_joins_race,
    test_refresh_rotates_and_a_reused_refresh_token_revokes_the_session,
)
from tests.service.test_subscription import (
    test_a_finished_match_replays_and_completes,
    test_a_reconnecting_subscriber_resumes_without_gaps,
    test_an_idle_subscription_stays_open_and_delivers_the_next_step,
)

__all__ = [
    "test_a_bots_reply_brings_my_turn_back_with_my_clock_deadline",
    "test_a_finished_match_replays_and_completes",
    "test_a_finished_matchs_row_carries_its_result",
    "test_a_player_plays_a_whole_match_from_two_devices",
    "test_a_reconnecting_subscriber_resumes_without_gaps",
    "test_a_resubmitted_key_returns_the_first_accepted_outcome",
    "test_a_resubmitted_key_returns_the_first_refused_outcome",
    "test_a_second_api_process_serves_the_same_matches",
    "test_all_bots_match_finishes_by_itself",
    "test_an_accepted_action_answers_with_the_match_as_it_now_stands",
    "test_an_idle_subscription_stays_open_and_delivers_the_next_step",
    "test_different_keys_are_independent",
    "test_fifty_concurrent_different_actions_at_one_version_apply_once",
    "test_fifty_concurrent_identical_submissions_apply_once",
    "test_fifty_concurrent_submissions_sharing_a_key_all_get_the_one_accepted_outcome",
    "test_fifty_concurrent_submissions_with_distinct_keys_apply_once",
    "test_keys_are_scoped_to_the_seat_and_the_match",
    "test_my_turn_first_oldest_waiting_first_then_the_rest_by_last_activity",
    "test_one_seat_per_player_even_when_joins_race",
    "test_paging_spans_both_parts_with_no_gap_or_duplicate_while_matches_change",
    "test_refresh_rotates_and_a_reused_refresh_token_revokes_the_session",
    "test_two_api_processes_apply_concurrent_submissions_once",
    "test_two_api_processes_share_idempotency_keys",
]

# Two of the plain suite's full matches: bots of two kinds, people, and the service's own (non-player) turns.
MATCHES = [param for param in play.MATCHES if param.id in ("4p-2humans-2greedy", "2p-1human-1search")]


@pytest.mark.parametrize(("seats", "bots", "humans", "options"), MATCHES)
def test_people_and_bots_play_a_match_to_the_end(server: str, redis: Redis, seats: int, bots: list[str],
                                                 humans: int, options: dict[str, Any] | None) -> None:
    """The plain suite's full match, over the cluster."""
    play.test_people_and_bots_play_a_match_to_the_end(server, redis, seats, bots, humans, options)
