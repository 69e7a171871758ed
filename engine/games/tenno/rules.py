"""Tennō's rules as pure functions over `TennoState` (rules/tenno.md, seed 003).

A turn: the active seat attacks one card in another seat's row with one of
its own row cards; the defender reveals it (and may reveal a Monk for +2);
the stronger card wins. A Ronin may strike a second time. Then every gap is
refilled from hand, and the winners take their rewards: a swap for an
attacker who lost nothing, a secret peek for a defender. The game ends when
a gap cannot be refilled; prisoner values score.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

from ...clone import clone
from ...errors import IllegalAction
from ...flow import Flow, Step
from ...game import Action, Result
from ...i18n import N_
from ...options import RuleOption, start_seat
from ...physical import BOX, Move, step, tell, turn
from ...rng import Rng
from .cards import CARDS
from .state import Fight, Peek, Player, Reward, TennoState, Taken

NINJA = CARDS.with_ability("ninja")
MONK = CARDS.with_ability("monk")
RONIN = CARDS.with_ability("ronin")
SHOGUN = CARDS.with_ability("shogun")
GEISHA = CARDS.with_ability("geisha")
ROW = CARDS.row_size
MAX_SEATS = 7

# Each option's source cites the rules file's section and the words of the item it settles
# (and the same item in B.9's table): tests/engine/test_tenno_assumptions.py holds them to it.
OPTIONS = (
    RuleOption("start_seat", -1, N_("Seat that takes the first turn; -1 draws it at random."),
               source='[MED] docs/rules/tenno.md B.3 "eldest player starts"; B.9 "start player"'),
    RuleOption("turn_direction", "clockwise",
               N_("clockwise: the turn passes to the next seat of the table; "
                  "anticlockwise: to the seat before."),
               choices=("clockwise", "anticlockwise"),
               source='[ASSUMPTION] docs/rules/tenno.md B.3 "Turn order is clockwise"; B.9 "turn order"'),
    RuleOption("attack_mandatory", True, N_("A turn must be an attack; when false the active seat may pass."),
               choices=(True, False),
               source='[ASSUMPTION] docs/rules/tenno.md B.4 "The attack is mandatory"; B.9 "attack mandatory"'),
    RuleOption("discard_public", True, N_("Everyone may see the discarded cards."), choices=(True, False),
               source='[ASSUMPTION] docs/rules/tenno.md B.4 "treat the discard pile as public"; '
                      'B.9 "discard pile public"'),
    RuleOption("ronin_swap", "strict",
               N_("strict: a swap for each fight the attacker won, only if he lost no card in either fight; "
                  "per_fight: a swap for each won fight in which he lost no card."),
               choices=("strict", "per_fight"),
               source='[ASSUMPTION] docs/rules/tenno.md B.5 "Swap eligibility"; B.9 "swap eligibility"'),
    RuleOption("ronin_reward_order", "first_fight_first",
               N_("After a Ronin's two fights, whose rewards come first (the refill always comes before both)."),
               choices=("first_fight_first", "second_fight_first"),
               source='[ASSUMPTION] docs/rules/tenno.md B.5 "Proposed reward timing"; B.9 "Ronin reward timing"'),
    RuleOption("monk_on_itself", False, N_("The Monk may boost itself when it is the attacked card."),
               choices=(True, False),
               source='[MED] docs/rules/tenno.md B.5 "cannot boost itself"; B.9 "Monk on itself"'),
    RuleOption("geisha_pair", "tie",
               N_("Geisha against Geisha, both leave the game: tie = nobody is rewarded; "
                  "defender = the defender wins and peeks."),
               choices=("tie", "defender"),
               source='[ASSUMPTION] docs/rules/tenno.md B.5 "Geisha vs Geisha"; B.9 "Geisha vs Geisha"'),
    RuleOption("geisha_tiebreak", 0, N_("What the Geisha counts in the tie-break sum."),
               source='[ASSUMPTION] docs/rules/tenno.md B.7 "The Geisha counts"; B.9 "Geisha value in the tie-break"'),
    RuleOption("final_tie", "shared",
               N_("After the tie-break: shared = the tied seats share the win; "
                  "turn_order = the tied seat earliest in turn order from the start seat wins."),
               choices=("shared", "turn_order"),
               source='[ASSUMPTION] docs/rules/tenno.md B.7 "If still tied"; B.9 "tie after the tie-break"'),
)


# --- setup ---------------------------------------------------------------

def setup(players: int, rng: Rng, options: dict[str, Any]) -> TennoState:
    start = start_seat(options["start_seat"], players, rng)
    starters = set(CARDS.starting_row)
    seats = [
        Player(row=[None] * ROW, hand=sorted(c for c in CARDS.cards if c not in starters), known=[None] * ROW)
        for _ in range(players)
    ]
    state = TennoState(phase="setup", players=players, options=dict(options), rng=rng,
                       seats=seats, start=start, active=start)
    deal: dict[str, Any] = {"type": "deal"}
    for seat in range(players):  # every player takes the eleven cards of their colour
        tell(state, deal, step("card", seat, BOX, hand(seat), count=len(CARDS.cards)))
    state.recent = [deal]
    return state


# --- where the cards lie on the real table (engine.physical) -------------------

def hand(seat: int) -> list[Any]:
    """A player's hand: the table sees how many cards, never which (nor does the model of it)."""
    return ["hand", seat]


def row(seat: int, slot: int) -> list[Any]:
    return ["row", seat, slot]


def prisoners(seat: int) -> list[Any]:
    return ["prisoners", seat]


DISCARD = ["discard"]


def aside(seat: int) -> list[Any]:
    """A seat's hands while it rearranges its row out of sight."""
    return ["aside", seat]


def discard_face(state: TennoState) -> str:
    return "up" if state.options["discard_public"] else "down"


def laid(seat: int, card: int, src: list[Any], dst: list[Any]) -> Move:
    """A card the table does not see go from `src` to `dst` (a hand, a row slot, out of sight);
    in a hand it is one of the owner's cards, whichever."""
    face = ("down" if src[0] == "row" else "", "down" if dst[0] == "row" else "")
    value = (None if src[0] == "hand" else card, None if dst[0] == "hand" else card)
    return step("card", seat, src, dst, face, value, hidden=True)


# --- who decides what ------------------------------------------------------

def current_fight(state: TennoState) -> Fight | None:
    return state.fights[-1] if state.fights and not state.fights[-1].resolved else None


def pending(state: TennoState) -> list[int]:
    phase = state.phase
    if phase == "setup":
        return [i for i, p in enumerate(state.seats) if not p.arranged]
    if phase in ("attack", "ronin"):
        return [state.active]
    if phase == "defend":
        fight = current_fight(state)
        return [fight.defender] if fight else []
    if phase == "refill":
        return [i for i, p in enumerate(state.seats) if None in p.row]
    if phase == "reward":
        return [state.rewards[0].seat] if state.rewards else []
    return []


def attacks(state: TennoState, seat: int, exclude_slot: int = -1) -> list[Action]:
    """Every attack: each own row card but the Shogun, on each card of another seat's row."""
    targets = [(target, target_slot) for target, player in enumerate(state.seats) if target != seat
               for target_slot, other in enumerate(player.row) if other is not None]
    found: list[Action] = []
    for slot, card in enumerate(state.seats[seat].row):
        if card is None or card == SHOGUN or slot == exclude_slot:
            continue
        records = _attack_records(seat, slot)
        found += [records[target] for target in targets]
    return found


@functools.lru_cache(maxsize=None)
def _attack_records(seat: int, slot: int) -> dict[tuple[int, int], Action]:
    """Every attack of one row card, by (target seat, target slot): the records are made once and
    handed out by every attack list (an attack list runs to 54 records at seven seats, made anew
    after nearly every action otherwise); never change one."""
    return {(target, target_slot): {"seat": seat, "do": "attack", "slot": slot, "target": target,
                                    "target_slot": target_slot}
            for target in range(MAX_SEATS) for target_slot in range(ROW)}


def can_attack(state: TennoState, seat: int, exclude_slot: int = -1) -> bool:
    """Whether `attacks` would offer anything, without building the list."""
    if not any(card is not None and card != SHOGUN and slot != exclude_slot
               for slot, card in enumerate(state.seats[seat].row)):
        return False
    return any(card is not None for target, player in enumerate(state.seats) if target != seat
               for card in player.row)


def monk_slot(state: TennoState, seat: int, attacked_slot: int) -> int:
    """Return the slot of a Monk that may help the card in `attacked_slot`, or -1."""
    row = state.seats[seat].row
    for slot, card in enumerate(row):
        if card == MONK and (slot != attacked_slot or state.options["monk_on_itself"]):
            return slot
    return -1


def ronin_second_attacks(state: TennoState) -> list[Action]:
    if not ronin_may_strike(state):
        return []
    first = state.fights[0]
    return attacks(state, first.attacker, exclude_slot=first.slot)


def ronin_may_strike(state: TennoState) -> bool:
    """Whether a Ronin that fought once this turn has a second attack on offer."""
    if len(state.fights) != 1 or state.ronin_declined:
        return False
    first = state.fights[0]
    if not first.resolved or first.attack_card != RONIN:
        return False
    return can_attack(state, first.attacker, exclude_slot=first.slot)


def legal_actions(state: TennoState, seat: int) -> list[Action]:
    """The seat's choices if it is pending (each phase asks what `pending` asks of that seat alone)."""
    phase = state.phase
    if phase == "attack":
        if seat != state.active:
            return []
        found = attacks(state, seat)
        if not state.options["attack_mandatory"] or not found:
            found.append(_records(seat).passing)
        return found
    if phase == "defend":
        fight = current_fight(state)
        if fight is None or seat != fight.defender:
            return []
        defend = _records(seat).defend
        return list(defend) if monk_slot(state, seat, fight.target_slot) >= 0 else [defend[0]]
    if phase == "refill":
        player = state.seats[seat]
        if None not in player.row:
            return []
        refill = _records(seat).refill
        slot = player.row.index(None)
        return [refill[slot, card] for card in _in_order(frozenset(player.hand))]
    if phase == "reward":
        if not state.rewards or state.rewards[0].seat != seat:
            return []
        found = reward_actions(state, state.rewards[0])
        found.append(_records(seat).skip)
        return found
    if phase == "ronin":
        if seat != state.active:
            return []
        found = ronin_second_attacks(state)
        found.append(_records(seat).decline)
        return found
    if phase == "setup":
        if state.seats[seat].arranged:
            return []
        return [{"seat": seat, "do": "arrange", "order": list(order)}
                for order in itertools.permutations(CARDS.starting_row)]
    return []


def reward_actions(state: TennoState, reward: Reward) -> list[Action]:
    seat = reward.seat
    player = state.seats[seat]
    records = _records(seat)
    if reward.kind == "peek":
        peek = records.peek
        return [peek[slot] for slot, card in enumerate(state.seats[reward.target].row) if card is not None]
    if player.hand:
        # Putting back the card just taken is the fake swap: observers cannot tell it apart.
        hand = frozenset(player.hand)
        swap = records.swap
        return [swap[slot, card] for slot, row_card in enumerate(player.row) if row_card is not None
                for card in _in_order(hand | {row_card})]
    return list(records.reorder)


class _Records:
    """One seat's action records but its attacks (`_attack_records`) and its row arrangements,
    each made once and handed out by every list that offers it, as the attacks are; never change one."""

    def __init__(self, seat: int) -> None:
        cards = sorted(CARDS.cards)
        self.passing = {"seat": seat, "do": "pass"}
        self.decline = {"seat": seat, "do": "decline"}
        self.skip = {"seat": seat, "do": "skip"}
        self.defend = ({"seat": seat, "do": "defend", "monk": False}, {"seat": seat, "do": "defend", "monk": True})
        self.refill = {(slot, card): {"seat": seat, "do": "refill", "slot": slot, "card": card}
                       for slot in range(ROW) for card in cards}
        self.swap = {(slot, card): {"seat": seat, "do": "swap", "slot": slot, "card": card}
                     for slot in range(ROW) for card in cards}
        self.peek = {slot: {"seat": seat, "do": "peek", "slot": slot} for slot in range(ROW)}
        self.reorder = tuple({"seat": seat, "do": "reorder", "first": a, "second": b, "fake": fake}
                             for a, b in itertools.combinations(range(ROW), 2) for fake in (False, True))


@functools.lru_cache(maxsize=None)
def _records(seat: int) -> _Records:
    return _Records(seat)


@functools.lru_cache(maxsize=None)
def _in_order(cards: frozenset[int]) -> tuple[int, ...]:
    """`CARDS.in_order` of a set of cards, worked out once per set (a hand holds a few of eleven)."""
    return tuple(CARDS.in_order(cards))


# --- applying actions --------------------------------------------------------

def perform(state: TennoState, action: Action) -> list[dict[str, Any]]:
    do = action["do"]
    handler = _HANDLERS.get(do)
    if handler is None:
        raise IllegalAction(f"Tennō has no action {do!r}")
    state.moves = []
    state.recent = handler(state, action)
    return state.recent


def keep_events(state: TennoState, events: list[dict[str, Any]]) -> None:
    """Keep `events` as the last action's public events (an undo's, which tell its reversal)."""
    state.recent = events


def _arrange(state: TennoState, action: Action) -> list[dict[str, Any]]:
    seat = action["seat"]
    player = state.seats[seat]
    player.row = list(action["order"])
    player.arranged = True
    event: dict[str, Any] = {"type": "arranged", "seat": seat}
    return [tell(state, event, *(laid(seat, card, hand(seat), row(seat, slot)) for slot, card in enumerate(player.row)))]


def _attack(state: TennoState, action: Action) -> list[dict[str, Any]]:
    seat, slot = action["seat"], action["slot"]
    card = state.seats[seat].row[slot]
    assert card is not None
    state.seats[seat].known[slot] = card  # the attacking card is turned face up
    state.fights.append(Fight(attacker=seat, slot=slot, attack_card=card,
                              defender=action["target"], target_slot=action["target_slot"]))
    event = {"type": "attack", "seat": seat, "slot": slot, "card": card,
             "target": action["target"], "target_slot": action["target_slot"], "second": len(state.fights) == 2}
    return [tell(state, event, turn("card", seat, row(seat, slot), ("down", "up"), (card, card)))]


def _defend(state: TennoState, action: Action) -> list[dict[str, Any]]:
    fight = current_fight(state)
    assert fight is not None
    events: list[dict[str, Any]] = []
    if action["monk"]:
        fight.monk_slot = monk_slot(state, fight.defender, fight.target_slot)
        state.seats[fight.defender].known[fight.monk_slot] = MONK
        events.append(tell(state, {"type": "monk", "seat": fight.defender, "slot": fight.monk_slot},
                           turn("card", fight.defender, row(fight.defender, fight.monk_slot), ("down", "up"),
                                (MONK, MONK))))
    moves = resolve_fight(state, fight)
    events.append(tell(state, {"type": "fight", **_fight_record(fight)}, *moves))
    if turn_fights_done(state):
        events.extend(close_fights(state))
    return events


def _decline(state: TennoState, action: Action) -> list[dict[str, Any]]:
    state.ronin_declined = True
    return [{"type": "decline", "seat": action["seat"]}] + close_fights(state)


def _pass(state: TennoState, action: Action) -> list[dict[str, Any]]:
    state.passed = True
    return [{"type": "pass", "seat": action["seat"]}]


def _refill(state: TennoState, action: Action) -> list[dict[str, Any]]:
    seat, slot, card = action["seat"], action["slot"], action["card"]
    player = state.seats[seat]
    player.hand.remove(card)
    player.row[slot] = card
    return [tell(state, {"type": "refill", "seat": seat, "slot": slot}, laid(seat, card, hand(seat), row(seat, slot)))]


def _swap(state: TennoState, action: Action) -> list[dict[str, Any]]:
    seat, slot, card = action["seat"], action["slot"], action["card"]
    player = state.seats[seat]
    old = player.row[slot]
    assert old is not None
    if card != old:
        player.hand.remove(card)
        player.hand.append(old)
        player.hand.sort()
        player.row[slot] = card
    state.rewards.pop(0)
    _forget_slots(state, seat, [slot])
    # A fake swap takes the card back and lays the same one: the table sees the same two steps.
    return [tell(state, {"type": "swap", "seat": seat, "slot": slot},
                 laid(seat, old, row(seat, slot), hand(seat)), laid(seat, card, hand(seat), row(seat, slot)))]


def _reorder(state: TennoState, action: Action) -> list[dict[str, Any]]:
    seat, first, second = action["seat"], action["first"], action["second"]
    cards = state.seats[seat].row
    before = cards[first], cards[second]
    if not action["fake"]:
        cards[first], cards[second] = cards[second], cards[first]
    state.rewards.pop(0)
    _forget_slots(state, seat, [first, second])
    a, b = before
    assert a is not None and b is not None
    return [tell(state, {"type": "reorder", "seat": seat, "slots": [first, second]},
                 laid(seat, a, row(seat, first), aside(seat)), laid(seat, b, row(seat, second), aside(seat)),
                 laid(seat, cards[first], aside(seat), row(seat, first)),  # type: ignore[arg-type]
                 laid(seat, cards[second], aside(seat), row(seat, second)))]  # type: ignore[arg-type]


def _peek(state: TennoState, action: Action) -> list[dict[str, Any]]:
    seat, slot = action["seat"], action["slot"]
    reward = state.rewards.pop(0)
    card = state.seats[reward.target].row[slot]
    assert card is not None
    peeks = state.seats[seat].peeks
    peeks[:] = [p for p in peeks if not (p.target == reward.target and p.slot == slot)]
    peeks.append(Peek(target=reward.target, slot=slot, card=card, turn=state.turn))
    return [{"type": "peek", "seat": seat, "target": reward.target, "slot": slot}]


def _skip(state: TennoState, action: Action) -> list[dict[str, Any]]:
    reward = state.rewards.pop(0)
    return [{"type": "skip", "seat": action["seat"], "reward": reward.kind}]


_HANDLERS = {
    "arrange": _arrange, "attack": _attack, "defend": _defend, "decline": _decline, "pass": _pass,
    "refill": _refill, "swap": _swap, "reorder": _reorder, "peek": _peek, "skip": _skip,
}


# --- the fight -------------------------------------------------------------

def strengths(attack_card: int, defend_card: int, monk: bool, geisha_pair: str = "tie") -> tuple[int, int]:
    """Return (attacking, defending) strength: Ninja and Monk first, the Geisha last.

    Geisha against Geisha (option `geisha_pair`): a tie at 0, or the defender's Geisha, turned
    up last, one above the attacker's, so the defender wins (and peeks).
    """
    a = CARDS.cards[attack_card].attack
    d = CARDS.cards[defend_card].defend + (CARDS.monk_bonus if monk else 0)
    if attack_card == GEISHA and defend_card == GEISHA:
        return (0, CARDS.geisha_margin) if geisha_pair == "defender" else (0, 0)
    if attack_card == GEISHA:
        a = d + CARDS.geisha_margin
    elif defend_card == GEISHA:
        d = a + CARDS.geisha_margin
    return a, d


def resolve_fight(state: TennoState, fight: Fight) -> list[Move]:
    """Turn the defending card up, compare, and send the losers away; return the physical steps."""
    attacker, defender = state.seats[fight.attacker], state.seats[fight.defender]
    defend_card = defender.row[fight.target_slot]
    assert defend_card is not None
    fight.defend_card = defend_card
    defender.known[fight.target_slot] = defend_card
    a, d = strengths(fight.attack_card, defend_card, fight.monk_slot >= 0, state.options["geisha_pair"])
    fight.attack_strength, fight.defend_strength = a, d
    fight.outcome = "attacker" if a > d else "defender" if d > a else "tie"

    lose_attacker = fight.outcome in ("defender", "tie") or fight.attack_card == GEISHA
    lose_defender = fight.outcome in ("attacker", "tie") or defend_card == GEISHA
    attacked = row(fight.defender, fight.target_slot)
    striking = row(fight.attacker, fight.slot)
    moves = [] if fight.monk_slot == fight.target_slot else [  # a Monk defending itself is up already
        turn("card", fight.defender, attacked, ("down", "up"), (defend_card, defend_card))]
    if lose_defender:
        _take(state, fight.defender, fight.target_slot)
        if fight.outcome == "attacker" and defend_card != GEISHA:
            attacker.captives.append(Taken(fight.defender, defend_card))
            fight.captor = fight.attacker
            moves.append(step("card", fight.defender, attacked, prisoners(fight.attacker), ("up", "down"),
                              (defend_card, defend_card)))
        else:
            state.discard.append(Taken(fight.defender, defend_card))
            moves.append(step("card", fight.defender, attacked, DISCARD, ("up", discard_face(state)),
                              (defend_card, defend_card)))
    if lose_attacker:
        _take(state, fight.attacker, fight.slot)
        if fight.outcome == "defender" and defend_card == SHOGUN:
            defender.captives.append(Taken(fight.attacker, fight.attack_card))
            fight.captor = fight.defender
            moves.append(step("card", fight.attacker, striking, prisoners(fight.defender), ("up", "down"),
                              (fight.attack_card, fight.attack_card)))
        else:
            state.discard.append(Taken(fight.attacker, fight.attack_card))
            moves.append(step("card", fight.attacker, striking, DISCARD, ("up", discard_face(state)),
                              (fight.attack_card, fight.attack_card)))
    fight.attacker_lost, fight.defender_lost = lose_attacker, lose_defender
    # What is left of the fight goes face down again.
    if not lose_attacker:
        moves.append(turn("card", fight.attacker, striking, ("up", "down"), (fight.attack_card, fight.attack_card)))
    if not lose_defender:
        moves.append(turn("card", fight.defender, attacked, ("up", "down"), (defend_card, defend_card)))
    if fight.monk_slot >= 0 and fight.monk_slot != fight.target_slot:
        moves.append(turn("card", fight.defender, row(fight.defender, fight.monk_slot), ("up", "down"), (MONK, MONK)))
    return moves


def _take(state: TennoState, seat: int, slot: int) -> None:
    """Empty a row slot: the card left the row, so what was known of that slot is gone."""
    state.seats[seat].row[slot] = None
    state.seats[seat].known[slot] = None
    for player in state.seats:
        for peek in player.peeks:
            if peek.target == seat and peek.slot == slot:  # most have no peek of it: leave their lists be
                player.peeks[:] = [p for p in player.peeks if not (p.target == seat and p.slot == slot)]
                break


def _forget_slots(state: TennoState, seat: int, slots: list[int]) -> None:
    """After a (possibly fake) swap, nobody can be sure what those slots hold."""
    for slot in slots:
        state.seats[seat].known[slot] = None
        for player in state.seats:
            for peek in player.peeks:
                if peek.target == seat and peek.slot == slot:
                    peek.stale = True


def _fight_record(fight: Fight) -> dict[str, Any]:
    return {
        "attacker": fight.attacker, "slot": fight.slot, "attack_card": fight.attack_card,
        "defender": fight.defender, "target_slot": fight.target_slot, "defend_card": fight.defend_card,
        "monk_slot": fight.monk_slot, "attack_strength": fight.attack_strength,
        "defend_strength": fight.defend_strength, "outcome": fight.outcome,
        "attacker_lost": fight.attacker_lost, "defender_lost": fight.defender_lost, "captor": fight.captor,
    }


def turn_fights_done(state: TennoState) -> bool:
    """True when this turn's fights are over: resolved, and no Ronin strike is still on offer."""
    if not state.fights or current_fight(state) is not None:
        return False
    return not ronin_may_strike(state)


def close_fights(state: TennoState) -> list[dict[str, Any]]:
    """End the fighting of a turn: check the refill, and queue the rewards."""
    for seat, player in enumerate(state.seats):
        if player.row.count(None) > len(player.hand):
            state.over = "refill"
            state.ender = seat
            # The prisoners score: every pile is turned face up.
            return [tell(state, {"type": "end", "seat": seat},
                         *(turn("card", t.owner, prisoners(s), ("down", "up"), (t.card, t.card))
                           for s, p in enumerate(state.seats) for t in p.captives))]
    lost = [f.attacker_lost for f in state.fights]
    rewards = []
    for number, fight in enumerate(state.fights):
        if fight.outcome == "attacker":
            clean = not any(lost) if state.options["ronin_swap"] == "strict" else not fight.attacker_lost
            if clean:
                rewards.append(Reward("swap", fight.attacker, fight=number))
        elif fight.outcome == "defender":
            rewards.append(Reward("peek", fight.defender, target=fight.attacker, fight=number))
    if state.options["ronin_reward_order"] == "second_fight_first":
        rewards.sort(key=lambda r: -r.fight)
    state.rewards = rewards
    return []


# --- the flow --------------------------------------------------------------

def _all_arranged(state: TennoState) -> bool:
    return all(p.arranged for p in state.seats)


def _fight_declared(state: TennoState) -> bool:
    return current_fight(state) is not None


def _ronin_offered(state: TennoState) -> bool:
    return ronin_may_strike(state) and current_fight(state) is None


def _fights_closed(state: TennoState) -> bool:
    return turn_fights_done(state) or (state.ronin_declined and current_fight(state) is None)


def _game_over(state: TennoState) -> bool:
    return state.over != ""


def _gaps(state: TennoState) -> bool:
    return any(None in p.row for p in state.seats)


def _no_gaps(state: TennoState) -> bool:
    return not _gaps(state)


def _rewards_left(state: TennoState) -> bool:
    return bool(state.rewards)


def _no_rewards(state: TennoState) -> bool:
    return not state.rewards


def _passed(state: TennoState) -> bool:
    return state.passed


def next_turn(state: TennoState) -> None:
    state.last_fights = state.fights
    state.fights = []
    state.rewards = []
    state.ronin_declined = False
    state.passed = False
    state.active = seat_after(state.active, state.players, state.options["turn_direction"])
    state.turn += 1


def seat_after(seat: int, players: int, direction: str) -> int:
    """The seat whose turn follows `seat`'s: the next one of the table clockwise, the one before anticlockwise."""
    return (seat + (1 if direction == "clockwise" else -1)) % players


def turns_after(start: int, seat: int, players: int, direction: str) -> int:
    """How many turns after `start`'s the turn of `seat` comes (0 for `start` itself)."""
    return (seat - start) * (1 if direction == "clockwise" else -1) % players


PHASES = ("setup", "attack", "defend", "ronin", "refill", "reward", "over")
FLOW = Flow(
    phases=PHASES,
    initial="setup",
    steps=(
        Step("setup", "attack", when=(_all_arranged,), doc="every row is laid"),
        Step("attack", "defend", when=(_fight_declared,), doc="an attack is declared"),
        Step("attack", "attack", when=(_passed,), after=next_turn, doc="the active seat passed"),
        Step("defend", "ronin", when=(_ronin_offered,), doc="a Ronin attacked: a second attack is offered"),
        Step("ronin", "defend", when=(_fight_declared,), doc="the Ronin's second attack"),
        Step(("defend", "ronin"), "over", when=(_fights_closed, _game_over), doc="a gap cannot be refilled"),
        Step(("defend", "ronin"), "refill", when=(_fights_closed, _gaps), doc="gaps to refill"),
        Step(("defend", "ronin"), "reward", when=(_fights_closed, _rewards_left), doc="rewards to take"),
        Step(("defend", "ronin"), "attack", when=(_fights_closed,), after=next_turn, doc="nothing to do: next turn"),
        Step("refill", "reward", when=(_no_gaps, _rewards_left), doc="refilled; rewards to take"),
        Step("refill", "attack", when=(_no_gaps,), after=next_turn, doc="refilled: next turn"),
        Step("reward", "attack", when=(_no_rewards,), after=next_turn, doc="rewards taken: next turn"),
    ),
)


# --- the end ------------------------------------------------------------------

def result(state: TennoState) -> Result | None:
    if not state.over:
        return None
    options = state.options
    geisha_value = options["geisha_tiebreak"]

    def value(card: int) -> int:
        return geisha_value if card == GEISHA else CARDS.cards[card].score

    scores, breakdown = {}, {}
    for seat, player in enumerate(state.seats):
        prisoners = sum(value(t.card) for t in player.captives)
        kept = sum(value(c) for c in player.hand) + sum(value(c) for c in player.row if c is not None)
        scores[seat] = prisoners
        breakdown[seat] = {"prisoners": prisoners, "captives": len(player.captives), "kept": kept,
                           "tiebreak": prisoners + kept}
    best = max(scores.values())
    tied = [s for s in scores if scores[s] == best]
    if len(tied) > 1:
        best_tb = max(breakdown[s]["tiebreak"] for s in tied)
        tied = [s for s in tied if breakdown[s]["tiebreak"] == best_tb]
    if len(tied) > 1 and options["final_tie"] == "turn_order":
        direction = options["turn_direction"]
        tied = [min(tied, key=lambda s: turns_after(state.start, s, state.players, direction))]
    return Result(scores=scores, winners=tuple(tied), breakdown=breakdown, reason=state.over)


# --- for tests: re-draw what a seat cannot know, check conservation ------------

def redeal(state: TennoState, seat: int, rng: Rng) -> TennoState:
    """Re-draw what `seat` cannot know, from what it knows alone.

    Every pile is sorted before it is shuffled, so two states the seat cannot
    tell apart give the same re-drawn state for the same `rng` (a bot's
    worlds depend on its knowledge, never on the truth). A peek gone stale
    (the slot may have been swapped since) no longer pins the slot's card.
    """
    new = clone(state)
    mine = new.seats[seat]
    guesses = Rng(rng.next64())  # for what others saw: one draw, however many peeks they made
    for other, player in enumerate(new.seats):
        if other == seat:
            continue
        seen = {p.slot for p in mine.peeks if p.target == other and not p.stale}
        slots = [s for s, c in enumerate(player.row)
                 if c is not None and player.known[s] is None and s not in seen]
        cards = sorted([player.row[s] for s in slots] + player.hand)  # type: ignore[misc]
        rng.shuffle(cards)
        for s in slots:
            player.row[s] = cards.pop()
        player.hand = sorted(cards)
        for peek in player.peeks:
            peek.card = guesses.choice(sorted(CARDS.cards))
    # Prisoner piles are face down for everyone, their owners included.
    pile = sorted((t for p in new.seats for t in p.captives), key=lambda t: (t.owner, t.card))
    rng.shuffle(pile)
    for player in new.seats:
        count = len(player.captives)
        player.captives, pile = pile[:count], pile[count:]
    if not new.options["discard_public"]:
        new.discard.sort(key=lambda t: (t.owner, t.card))
        rng.shuffle(new.discard)
    new.rng.state = rng.next64()
    return new


def check_invariants(state: TennoState) -> None:
    owned: dict[int, list[int]] = {s: [] for s in range(state.players)}
    for seat, player in enumerate(state.seats):
        if player.arranged:
            owned[seat] += [c for c in player.row if c is not None] + player.hand
        else:
            owned[seat] += list(CARDS.starting_row) + player.hand
        for taken in player.captives:
            owned[taken.owner].append(taken.card)
        assert len(player.row) == ROW, "a row has three slots"
    for taken in state.discard:
        owned[taken.owner].append(taken.card)
    for seat, cards in owned.items():
        assert sorted(cards) == sorted(CARDS.cards), f"seat {seat}'s eleven cards are not all accounted for"
    for player in state.seats:
        assert GEISHA not in [t.card for t in player.captives], "a Geisha is never captured"
