"""Helpers for game tests: random legal play, and Tennō positions built by hand.

Public so that a new game's tests can be written the way the engine's are.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Iterator

from .match import Match


def random_action(match: Match, rng: random.Random, free: float = 0.05) -> dict[str, Any]:
    """Pick a legal action at random: a pending seat's, or now and then (`free`) one open to a waiting seat."""
    pending = match.pending()
    if rng.random() < free:
        others = [s for s in range(match.header.players) if s not in pending and match.legal_actions(s)]
        if others:
            return rng.choice(match.legal_actions(rng.choice(others)))
    return rng.choice(match.legal_actions(rng.choice(pending)))


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


def quovadis_position(players: int, committees: dict[str, list[int]], active: int = 0,
                      laurels: dict[int, list[str]] | None = None, caesar: str | None = None,
                      **options: Any) -> Match:
    """A Quo Vadis match with senators placed by hand (committee -> owners), `active` to move.

    Each seat's unplaced senators are 8 less those on the board. `laurels`
    gives seats their tokens (taken from the bag, or a diamond when the bag
    has none left of that kind, or from the reward supply for "I"). Caesar stays on his start diamond unless `caesar` names another.
    """
    from .games.quovadis.rules import REWARD, SENATORS

    match = Match.new("quovadis", players, seed=0, options={"start_seat": active, **options})
    state = match.state
    for committee, owners in committees.items():
        state.committees[committee] = list(owners)
    for seat, player in enumerate(state.seats):
        player.reserve = SENATORS - sum(o.count(seat) for o in state.committees.values())
    for seat, tokens in (laurels or {}).items():
        for token in tokens:
            if token == REWARD:
                state.supply -= 1
            elif token in state.bag:
                state.bag.remove(token)
            else:  # all of that kind lie on diamonds: take one and lay a bag token there
                path = next(p for p, t in state.diamonds.items() if t == token)
                state.diamonds[path] = state.bag.pop()
            state.seats[seat].laurels.append(token)
    if caesar is not None:
        state.caesar = caesar
    return match
