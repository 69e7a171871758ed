"""Helpers for game tests: random legal play, and Tennō positions built by hand.

Public so that a new game's tests can be written the way the engine's are.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Iterator

from .match import Match


def random_action(match: Match, rng: random.Random) -> dict[str, Any]:
    """Pick a pending seat and one of its legal actions at random."""
    seat = rng.choice(match.pending())
    return rng.choice(match.legal_actions(seat))


def play_random(match: Match, rng: random.Random, limit: int | None = None,
                each: Callable[[Match], None] | None = None) -> Match:
    """Play random legal actions until the game ends (or `limit` actions); call `each` after every one."""
    limit = limit if limit is not None else match.game.max_actions
    for _ in range(limit):
        if match.is_over:
            break
        match.apply(random_action(match, rng))
        if each is not None:
            each(match)
    return match


def reachable_matches(game: str, players: int, seed: int, every: int = 1) -> Iterator[Match]:
    """Yield a random game's match at every `every`-th action, from the start to the end."""
    rng = random.Random(seed)
    match = Match.new(game, players, seed=seed)
    count = 0
    yield match
    while not match.is_over:
        match.apply(random_action(match, rng))
        count += 1
        if count % every == 0 or match.is_over:
            yield match


def tenno_position(players: int, rows: dict[int, list[int]], active: int = 0,
                   hands: dict[int, list[int]] | None = None, **options: Any) -> Match:
    """A Tennō match past setup with the given rows (card ids by seat), `active` to attack.

    Seats not named keep peasants 1, 2, 3. A row's cards leave that seat's hand;
    `hands` replaces a hand outright (cards in neither go to the discard).
    """
    from .games.tenno.cards import CARDS
    from .games.tenno.state import Taken

    match = Match.new("tenno", players, seed=0, options={"start_seat": active, **options})
    for seat in range(players):
        match.apply({"seat": seat, "do": "arrange", "order": [1, 2, 3]})
    state = match.state
    for seat in range(players):
        row = rows.get(seat, [1, 2, 3])
        player = state.seats[seat]
        player.row = list(row)
        everything = sorted(CARDS.cards)
        hand = hands[seat] if hands and seat in hands else [c for c in everything if c not in row]
        player.hand = sorted(hand)
        for card in everything:
            if card not in row and card not in hand:
                state.discard.append(Taken(seat, card))
    match.actions.clear()  # a hand-built position does not replay
    return match
