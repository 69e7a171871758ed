"""Helpers for game tests: random legal play, the real table kept by its steps, and positions built by hand.

Public so that a new game's tests can be written the way the engine's are.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Iterator

from .match import Match
from .physical import Drift, Move, Table, event_moves, inverse, public
from .physical import bare as bare  # a game's tests compare events without their steps


def act(match: Match, seat: int, do: str, **fields: Any) -> list[dict[str, Any]]:
    """Apply the action `do` of `seat` with its `fields`, as a test spells it; return the public events."""
    return match.apply({"seat": seat, "do": do, **fields})


def actions(match: Match, seat: int, do: str | None = None) -> list[dict[str, Any]]:
    """The actions `seat` may take now, only those of the kind `do` when it is given."""
    return [a for a in match.legal_actions(seat) if do is None or a["do"] == do]


def broken_invariant(match: Match, change: Callable[[Any], Any]) -> str:
    """Make `change` to the match's state and return the message of the invariant it breaks.

    The whole-game tests rely on `check_invariants` to notice a lost or doubled
    piece, so each invariant is shown to fail, with its message, on purpose.
    An empty message is a failed bare ``assert``; a change that breaks nothing
    fails the test.
    """
    change(match.state)
    try:
        match.game.check_invariants(match.state)
    except AssertionError as failed:
        return str(failed)
    raise AssertionError(f"the change broke no invariant of {match.game.name}")


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


def reachable_matches(game: str, players: int, seed: int, every: int = 1,
                      options: dict[str, Any] | None = None) -> Iterator[Match]:
    """Yield a random game's match at every `every`-th action, from the start to the end (under `options`)."""
    rng = random.Random(seed)
    match = Match.new(game, players, seed=seed, options=options)
    count = 0
    yield match
    while not match.is_over:
        match.apply(random_action(match, rng))
        count += 1
        if count % every == 0 or match.is_over:
            yield match


def play_on_table(game: str, players: int, seed: int, options: dict[str, Any] | None = None,
                  undo: float = 0.1, moves_of: Callable[[Match], list[Move]] | None = None) -> Match:
    """Play a seeded random game, taking an action back now and then (`undo`), and keep a model of
    the real table by its steps alone: the setup's, every action's, and the inverse of an action
    taken back (which the undo must tell). After every action the model must equal the game's own projection of the state
    (`Game.physical`), and the public events must carry exactly the public form of the steps;
    raise AssertionError naming the action and the places that differ.

    `moves_of` reads an action's steps from the match (the game's own, by default): a test may
    pass one that loses a step, to see this check fail.
    """
    moves_of = moves_of or (lambda m: m.game.last_moves(m.state))
    match = Match.new(game, players, seed=seed, options=options)
    rng = random.Random(seed)
    table = Table()
    _lay(match, table, moves_of(match), "the setup")
    made: list[tuple[list[Move], list[Move]]] = []  # each action's steps: the game's, and those laid
    for _ in range(match.game.max_actions):
        if match.is_over:
            break
        if match.actions and rng.random() < undo:
            what = f"taking back action {len(match.actions)} {match.actions[-1]}"
            whole, laid = made.pop()
            event = match.undo()
            assert match.game.last_moves(match.state) == inverse(whole), \
                f"{what}: the undo does not tell the action's steps turned around"
            assert event["moves"] == [public(s) for s in inverse(whole)], \
                f"{what}: the undo's event does not carry the public form of its steps"
            _lay(match, table, inverse(laid), what)
        else:
            action = random_action(match, rng)
            what = f"action {len(match.actions) + 1} {action}"
            events = match.apply(action)
            whole = match.game.last_moves(match.state)
            assert event_moves(events) == [public(s) for s in whole], \
                f"{what}: the public events do not carry the public form of its steps"
            made.append((whole, moves_of(match)))
            _lay(match, table, made[-1][1], what)
    return match


def _lay(match: Match, table: Table, steps: list[Move], what: str) -> None:
    """Make `steps` on the model table and compare it with the game's own projection."""
    for s in steps:
        try:
            table.apply(s)
        except Drift as err:
            raise AssertionError(f"{what}: {err}") from err
    real = match.game.physical(match.state)
    assert table == real, f"{what}: the table drifted from the game:\n" + "\n".join(table.diff(real))


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
