"""Quo Vadis rules as pure functions over `QuoVadisState` (rules/quovadis.md A; seed 002).

On a turn a player places a senator in an entry committee, advances one along
an upward path, or moves Caesar. Leaving a 3- or 5-seat committee needs a
majority of its seats; the other owners there answer yes or no on their own
screens, and the supporters actually needed are paid an "I" laurel each.
Caesar on a path lets a senator through without a vote but keeps that path's
laurel out of reach. The game ends when the Senate's fifth seat fills;
only players with a senator there can win, on laurels, ties to the earliest
Senate entrant. Laurels are secret; a payment between players is an action.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...clone import clone
from ...flow import Flow, Step
from ...game import Action, Result
from ...i18n import N_
from ...options import RuleOption, start_seat
from ...physical import BOX, made, step, tell, tell_made
from ...rng import Rng
from .board import BOARD, LAURELS
from .state import Player, QuoVadisState, Vote

SENATORS = 8
REWARD = LAURELS.reward
SENATE = BOARD.senate.id

# Each option that settles an [ASSUMPTION] of the rule file cites its items: the section and a phrase
# of the item's line in double quotes (tests/engine/test_quovadis_assumptions.py).
OPTIONS = (
    RuleOption("start_seat", -1, N_("Seat that takes the first turn; -1 draws it at random."),
               source="[HIGH] docs/rules/quovadis.md A.4: any agreed player starts; the engine draws at random"),
    RuleOption("limited_rewards", False, N_("Variant: only 10/14/18 'I' tokens for 3/4/5 players."),
               choices=(True, False), source="[HIGH] docs/rules/quovadis.md A.10-1 variant"),
    RuleOption("reveal_laurels", False,
               N_("Variant: when the 1st, 2nd and 3rd player reach the Senate, any player may demand (from the "
                  "table menu) that every laurel total is shown."),
               choices=(True, False), source="[HIGH] docs/rules/quovadis.md A.10-2 variant: '任一玩家可以要求所有人翻開"
               "自己的月桂' (any player may demand it)"),
    RuleOption("caesar_waives_quorum", False,
               N_("Caesar on the path also lets a senator leave a committee that is not half full (by default "
                  "he waives only the vote)."), choices=(True, False),
               source="[HIGH] docs/rules/quovadis.md A.6, A.7: the seed asks a majority of seats occupied before "
               "any senator leaves ('在一個元老前進之前，該委員會必須多數位置已占據') and lets Caesar waive only "
               "the majority's support"),
    RuleOption("caesar_frees_committee", False,
               N_("Caesar frees every path out of the committee below him (by default only the path he stands on)."),
               choices=(True, False),
               source="[MED] docs/rules/quovadis.md A.7: the seed's '凱撒出現在一個委會員的正上方，表示該委員會的元老"
               "可以不用獲得多數支持就可以前進' (Caesar directly above a committee), read committee-wide"),
    RuleOption("caesar_stay_is_move", False, N_("Moving Caesar onto the diamond he stands on counts as a move."),
               choices=(True, False),
               source='[ASSUMPTION] docs/rules/quovadis.md A.5 "Moving him onto the diamond he already occupies", '
               'A.12 "Caesar moved onto the diamond he already occupies"'),
    RuleOption("open_answers", False,
               N_("Each answer to a vote is shown as it is given; by default the answers stay secret until all "
                  "are in, then are shown together."),
               choices=(True, False),
               source='[ASSUMPTION] docs/rules/quovadis.md A.12 "whether votes are simultaneous or sequential"'),
    RuleOption("finish_last_move", True,
               N_("The move that fills the Senate still collects its laurel and pays its supporters."),
               choices=(True, False),
               source='[ASSUMPTION] docs/rules/quovadis.md A.9 "The move that fills the 5th seat still completes", '
               'A.12 "the move that fills the Senate"'),
    RuleOption("short_supply", "mover_chooses",
               N_("When the I supply cannot pay every supporter needed: mover_chooses = the mover picks who gets "
                  "the tokens left; turn_order = they go in turn order from the mover's left."),
               choices=("mover_chooses", "turn_order"),
               source='[ASSUMPTION] docs/rules/quovadis.md A.6 "If the supply runs out partway through a payout", '
               'A.12 "I supply runs out partway through a payout"; the seed lets the mover choose who is paid '
               "('離開的元老有權決定哪些元老獲得“I”月桂標記')"),
    RuleOption("empty_bag", "stays_empty",
               N_("When the bag is empty, a diamond whose laurel was taken: stays_empty = stays empty; "
                  "reward_token = gets an I laurel from the supply, face up, while the supply lasts."),
               choices=("stays_empty", "reward_token"),
               source='[ASSUMPTION] docs/rules/quovadis.md A.6 "If the bag is empty, the diamond stays empty", '
               'A.12 "bag empty when refilling"'),
)


# --- setup -----------------------------------------------------------------------

def setup(players: int, rng: Rng, options: dict[str, Any]) -> QuoVadisState:
    start = start_seat(options["start_seat"], players, rng)
    rewards = LAURELS.kinds[REWARD].count
    supply = LAURELS.limited_supply.get(players, rewards) if options["limited_rewards"] else rewards
    bag = LAURELS.bag()
    rng.shuffle(bag)
    state = QuoVadisState(
        phase="turn", players=players, options=dict(options), rng=rng,
        seats=[Player(reserve=SENATORS) for _ in range(players)],
        committees={c: [] for c in BOARD.committees}, diamonds={}, caesar=BOARD.caesar_start,
        bag=bag, supply=supply, unused=rewards - supply, start=start, active=start,
    )
    event: dict[str, Any] = {"type": "setup"}
    tell(state, event, *(step("senator", seat, BOX, reserve(seat), count=SENATORS) for seat in range(players)))
    tell(state, event, step("laurel", -1, BOX, SUPPLY, ("", "up"), (REWARD, REWARD), count=supply))
    kinds = LAURELS.bag()
    tell(state, event, *(step("laurel", -1, BOX, BAG, value=(k, k), count=kinds.count(k)) for k in dict.fromkeys(kinds)))
    for path in BOARD.diamonds:  # drawn in board order and laid face up
        token = state.bag.pop()
        state.diamonds[path] = token
        tell(state, event, step("laurel", -1, BAG, diamond(path), ("", "up"), (token, token)))
    tell(state, event, step("caesar", -1, BOX, diamond(state.caesar)))
    state.recent = [event]
    return state


# --- where the pieces lie on the real board (engine.physical) ---------------------

BAG = ["bag"]
SUPPLY = ["supply"]


def reserve(seat: int) -> list[Any]:
    return ["reserve", seat]


def seat_of(committee: str, index: int) -> list[Any]:
    """A senator's place: its committee, or its seat in the Senate (they are filled from the left)."""
    return ["senate", index] if committee == SENATE else ["committee", committee]


def diamond(path: str) -> list[Any]:
    return ["diamond", path]


def laurels(seat: int) -> list[Any]:
    """A player's laurels: face down in front of them."""
    return ["laurels", seat]


# --- what may be done --------------------------------------------------------------

def free_seats(state: QuoVadisState, committee: str) -> int:
    return BOARD.committees[committee].seats - len(state.committees[committee])


def advance_kind(state: QuoVadisState, seat: int, committee: str, path: str) -> str:
    """How a senator of `seat` may leave `committee` by `path`: "free", "own", "vote" or "" (not at all)."""
    c = BOARD.committees[committee]
    p = BOARD.paths[path]
    if seat not in state.committees[committee] or free_seats(state, p.dest) <= 0:
        return ""
    if c.seats == 1:
        return "free"
    present = state.committees[committee]
    if caesar_frees(state, committee, path) and (state.options["caesar_waives_quorum"] or len(present) >= c.need):
        return "free"
    if len(present) < c.need:
        return ""  # not enough senators present for any majority
    own = present.count(seat)
    if own >= c.need:
        return "own"
    return "vote"  # the others present can make up the majority (len(present) >= need)


def caesar_frees(state: QuoVadisState, committee: str, path: str) -> bool:
    """Whether Caesar lets a senator leave `committee` by `path` without a vote: he stands on that
    path, or (by option) on any path out of that committee."""
    if state.caesar == path:
        return True
    return state.options["caesar_frees_committee"] and BOARD.paths[state.caesar].source == committee


def pending(state: QuoVadisState) -> list[int]:
    if state.over:
        return []
    if state.phase == "vote" and state.vote is not None:
        return [s for s in state.vote.voters if s not in state.vote.answers]
    if state.phase in ("turn", "reward", "bonus"):
        return [state.active]
    return []


# Every action a seat can take is a record made once (`_Records`) and handed out by every list
# that offers it: the random games of the engine's speed figure list a seat's actions after
# nearly every action, and making the same few dozen dicts anew each time was most of the cost.
# Menus, bots and `Match.apply` only read them (the match keeps a copy of each action applied);
# never change one.


class _Records:
    """One seat's action records, each made once, keyed by what tells them apart."""

    def __init__(self, seat: int) -> None:
        self.place = {c: {"seat": seat, "do": "place", "committee": c} for c in BOARD.entries}
        # Per committee: its seats, the majority needed, and each exit as (path, destination, the
        # destination's seats, the record of advancing by it): what `advance_kind` reads of the board.
        self.leaving = {
            c.id: (c.seats, c.need, tuple((p.id, p.dest, BOARD.committees[p.dest].seats,
                                           {"seat": seat, "do": "advance", "committee": c.id, "path": p.id})
                                          for p in BOARD.exits(c.id)))
            for c in BOARD.committees.values() if not c.senate}
        caesar = {p: {"seat": seat, "do": "caesar", "path": p} for p in BOARD.diamonds}
        # Moving Caesar, by where he stands (None: onto any diamond, his own included).
        self.caesar = {here: tuple(caesar[p] for p in BOARD.diamonds if p != here)
                       for here in (None, *BOARD.diamonds)}
        self.answers = ({"seat": seat, "do": "support"}, {"seat": seat, "do": "refuse"})
        self.keep = {"seat": seat, "do": "keep"}
        self.demand_reveal = {"seat": seat, "do": "demand_reveal"}
        self.reward = {to: {"seat": seat, "do": "reward", "to": to} for to in range(MAX_PLAYERS)}
        self.pay = {(to, token): {"seat": seat, "do": "pay", "to": to, "token": token}
                    for to in range(MAX_PLAYERS) for token in LAURELS.kinds}
        self.payments: dict[tuple[int, frozenset[str]], tuple[Action, ...]] = {}  # filled as met
        # The steps of a payment and of a placement, which depend on nothing else (a step is never
        # changed once told): half the actions of a random game are payments.
        self.handed = {(to, token): made(step("laurel", -1, laurels(seat), laurels(to), ("down", "down"),
                                              (token, token), hidden=True))
                       for to in range(MAX_PLAYERS) for token in LAURELS.kinds}
        self.placed = {c: made(step("senator", seat, reserve(seat), seat_of(c, 0))) for c in BOARD.entries}


MAX_PLAYERS = 5
_RECORDS = tuple(_Records(seat) for seat in range(MAX_PLAYERS))
_ENTRIES = tuple((c, BOARD.committees[c].seats) for c in BOARD.entries)


def caesar_moves(state: QuoVadisState, seat: int) -> tuple[Action, ...]:
    """Moving Caesar onto each diamond (his own only if `caesar_stay_is_move`), in board order."""
    return _RECORDS[seat].caesar[None if state.options["caesar_stay_is_move"] else state.caesar]


def turn_actions(state: QuoVadisState, seat: int) -> list[Action]:
    """Place, advance (each way `advance_kind` allows) and move Caesar, in that order.

    The board facts it needs are looked up once (`_Records.leaving`) rather than
    through `advance_kind`; a test holds the two equal.
    """
    committees = state.committees
    records = _RECORDS[seat]
    found: list[Action] = []
    if state.seats[seat].reserve > 0:
        place = records.place
        found = [place[c] for c, seats in _ENTRIES if len(committees[c]) < seats]
    waived = state.options["caesar_waives_quorum"]
    leaving = records.leaving
    for committee, present in committees.items():
        if seat not in present or committee == SENATE:
            continue
        seats, need, exits = leaving[committee]
        quorum = seats == 1 or len(present) >= need
        for path, dest, room, record in exits:
            if len(committees[dest]) < room and (quorum or (waived and caesar_frees(state, committee, path))):
                found.append(record)
    found += caesar_moves(state, seat)
    return found


# Laurel kinds in the order a payment menu lists them: by value, then name.
_PAY_ORDER = {k: (LAURELS.kinds[k].value, k) for k in LAURELS.kinds}


def payments(state: QuoVadisState, seat: int) -> tuple[Action, ...]:
    """A laurel handed to another player (a bribe, or change back): open to any seat at any time.

    The list depends only on the table's size and the kinds of laurel the seat holds, so each
    such list is made once."""
    laurels = state.seats[seat].laurels
    if not laurels:
        return ()
    records = _RECORDS[seat]
    key = (state.players, frozenset(laurels))
    found = records.payments.get(key)
    if found is None:
        tokens = sorted(key[1], key=_PAY_ORDER.__getitem__)
        found = records.payments[key] = tuple(records.pay[to, token] for to in range(state.players)
                                              if to != seat for token in tokens)
    return found


def legal_actions(state: QuoVadisState, seat: int) -> list[Action]:
    return [*decisions(state, seat), *open_actions(state, seat)]


def decisions(state: QuoVadisState, seat: int) -> list[Action]:
    """What a pending seat may do about its turn, vote, reward or bonus (a payment changes none of it)."""
    if state.over:
        return []
    phase = state.phase
    if phase == "vote":
        vote = state.vote
        if vote is None or seat not in vote.voters or seat in vote.answers:
            return []
        # Two kinds, not one kind with a yes field: the seat's menu then offers
        # yes and no at its first level, beside any payment it may make.
        return list(_RECORDS[seat].answers)
    if seat != state.active:  # the turn, the reward and the bonus are the active seat's (`pending`)
        return []
    if phase == "turn":
        return turn_actions(state, seat)
    if phase == "reward":
        reward = _RECORDS[seat].reward
        return [reward[to] for to, left in sorted(state.payout.items()) if left > 0]
    if phase == "bonus":
        return [*caesar_moves(state, seat), _RECORDS[seat].keep]
    return []


def open_actions(state: QuoVadisState, seat: int) -> Sequence[Action]:
    """What any seat may do at any time (`FREE`): demand the reveal while it is open, hand a laurel over."""
    if state.over:
        return []
    if state.reveal_open:
        return [_RECORDS[seat].demand_reveal, *payments(state, seat)]
    return payments(state, seat)


# --- applying actions ------------------------------------------------------------

def perform(state: QuoVadisState, action: Action) -> list[dict[str, Any]]:
    state.moves = []
    do = action["do"]
    if do not in FREE:
        state.reveal_open = 0  # the game moved on: the moment to demand the reveal has passed
        state.retry = False  # set again by a vote that fails
    events = _HANDLERS[do](state, action)
    state.recent = events
    return events


def keep_events(state: QuoVadisState, events: list[dict[str, Any]]) -> None:
    """Keep `events` as the last action's public events (an undo's, which tell its reversal)."""
    state.recent = events


def _place(state: QuoVadisState, action: Action) -> list[dict[str, Any]]:
    seat, committee = action["seat"], action["committee"]
    state.seats[seat].reserve -= 1
    state.committees[committee].append(seat)
    state.turn_done = True
    return [tell_made(state, {"type": "place", "seat": seat, "committee": committee},
                      _RECORDS[seat].placed[committee])]  # an entry committee's senators share one place


def _advance(state: QuoVadisState, action: Action) -> list[dict[str, Any]]:
    seat, committee, path = action["seat"], action["committee"], action["path"]
    kind = advance_kind(state, seat, committee, path)
    if kind == "vote":
        voters = sorted(set(o for o in state.committees[committee] if o != seat))
        state.vote = Vote(mover=seat, committee=committee, path=path, voters=voters)
        return [{"type": "ask", "seat": seat, "committee": committee, "path": path, "voters": voters}]
    events = _move(state, seat, committee, path, free=kind == "free")
    return events if state.over else events + _end_move(state)


def _vote(state: QuoVadisState, action: Action) -> list[dict[str, Any]]:
    vote = state.vote
    assert vote is not None
    vote.answers[action["seat"]] = action["do"] == "support"
    if len(vote.answers) < len(vote.voters):
        if state.options["open_answers"]:
            return [{"type": "voted", "seat": action["seat"], "yes": vote.answers[action["seat"]]}]
        return [{"type": "voted", "seat": action["seat"]}]  # that it answered, not how
    # Every answer is in: reveal them together and count seats' worth of senators.
    state.vote = None
    present = state.committees[vote.committee]
    need = BOARD.committees[vote.committee].need
    own = present.count(vote.mover)
    backers = {s: present.count(s) for s in vote.voters if vote.answers[s]}
    passed = own + sum(backers.values()) >= need
    events: list[dict[str, Any]] = [{"type": "votes", "seat": vote.mover, "committee": vote.committee,
                                     "path": vote.path, "answers": {str(s): vote.answers[s] for s in vote.voters},
                                     "passed": passed}]
    if not passed:
        state.retry = True
        return events  # the turn goes on: the mover may try something else
    events += _move(state, vote.mover, vote.committee, vote.path, free=False)
    if state.over:
        return events
    needed = max(0, need - own)
    tokens = min(needed, state.supply)
    share = unchosen_rewards(state, vote.mover, backers, tokens, short=tokens < needed)
    if share is None:
        state.payout = dict(backers)
        state.payout_left = tokens
        return events  # the mover chooses who is paid; the move ends after that
    for s, count in share.items():
        events += _pay_reward(state, s, count)
    return events + _end_move(state)


def unchosen_rewards(state: QuoVadisState, mover: int, backers: dict[int, int], tokens: int,
                     short: bool) -> dict[int, int] | None:
    """Who takes the `tokens` "I" laurels of a passed vote when the mover has nothing to choose
    (backer -> tokens), or None when the mover chooses (A.6; seed 002: '離開的元老有權決定哪些元老
    獲得“I”月桂標記').

    Nothing to choose when no token is left, or when every backing senator was needed and the supply
    covers them all. A `short` supply (fewer tokens than supporters needed) is the mover's to share
    out unless `short_supply` is turn_order: then each backer from the mover's left takes one for
    each of its backing senators until the supply is empty (A.6, A.12).
    """
    if not tokens:
        return {}
    if sum(backers.values()) == tokens:
        return dict(backers)
    if not (short and state.options["short_supply"] == "turn_order"):
        return None
    share = {}
    for offset in range(1, state.players):
        seat = (mover + offset) % state.players
        take = min(backers.get(seat, 0), tokens)
        if take:
            share[seat] = take
            tokens -= take
    return share


def _pay_reward(state: QuoVadisState, seat: int, count: int) -> list[dict[str, Any]]:
    events = []
    for _ in range(count):
        if state.supply <= 0:
            break
        state.supply -= 1
        state.seats[seat].laurels.append(REWARD)
        events.append(tell(state, {"type": "reward", "seat": seat, "token": REWARD},
                           step("laurel", -1, SUPPLY, laurels(seat), ("up", "down"), (REWARD, REWARD))))
    return events


def _reward(state: QuoVadisState, action: Action) -> list[dict[str, Any]]:
    to = action["to"]
    state.payout[to] -= 1
    state.payout_left -= 1
    events = _pay_reward(state, to, 1)
    if state.payout_left <= 0 or state.supply <= 0:
        state.payout, state.payout_left = {}, 0
        events += _end_move(state)
    return events


def _move(state: QuoVadisState, seat: int, committee: str, path: str, free: bool) -> list[dict[str, Any]]:
    """Move the senator, collect the uncovered laurel and refill its diamond."""
    dest = BOARD.paths[path].dest
    state.committees[committee].remove(seat)
    state.committees[dest].append(seat)
    state.turn_done = True
    events: list[dict[str, Any]] = [tell(
        state, {"type": "advance", "seat": seat, "committee": committee, "path": path, "dest": dest, "free": free,
                "caesar": free and BOARD.committees[committee].seats > 1},
        step("senator", seat, seat_of(committee, 0), seat_of(dest, len(state.committees[dest]) - 1)))]
    full = len(state.committees[SENATE]) >= BOARD.senate.seats
    if full and not state.options["finish_last_move"]:
        state.over = "senate"
        return events + [game_over(state)]
    token = state.diamonds.get(path, "")
    if token and state.caesar != path:
        state.seats[seat].laurels.append(token)
        refill, source = draw_refill(state)
        state.diamonds[path] = refill
        moves = [step("laurel", -1, diamond(path), laurels(seat), ("up", "down"), (token, token))]
        if refill:
            moves.append(step("laurel", -1, source, diamond(path), ("up" if source == SUPPLY else "", "up"),
                              (refill, refill)))
        events.append(tell(state, {"type": "collect", "seat": seat, "path": path, "token": token, "refill": refill},
                           *moves))
        if LAURELS.kinds[token].caesar and not full:
            state.bonus = True
    senate = state.committees[SENATE]
    if dest == SENATE and senate.count(seat) == 1 and state.options["reveal_laurels"]:
        players = len(set(senate))  # this player's first senator: the n-th player in the Senate
        if players <= 3:
            state.reveal_due = players
    return events


def draw_refill(state: QuoVadisState) -> tuple[str, list[Any]]:
    """The laurel that refills an emptied diamond, taken from where it lies: the bag's next token;
    once the bag is empty none (the diamond stays empty), or under `empty_bag=reward_token` an "I"
    from the open supply while it lasts (A.6, A.12)."""
    if state.bag:
        return state.bag.pop(), BAG
    if state.options["empty_bag"] == "reward_token" and state.supply > 0:
        state.supply -= 1
        return REWARD, SUPPLY
    return "", BAG


def _end_move(state: QuoVadisState) -> list[dict[str, Any]]:
    """Once a move is paid for: open the reveal to a demand if the variant asks, and end the game if
    the Senate is full."""
    events: list[dict[str, Any]] = []
    if len(state.committees[SENATE]) >= BOARD.senate.seats:
        state.over = "senate"
        state.reveal_due = 0
        return [game_over(state)]
    if state.reveal_due:
        state.reveal_open, state.reveal_due = state.reveal_due, 0
        events.append({"type": "reveal_open", "entered": state.reveal_open})
    return events


def _demand_reveal(state: QuoVadisState, action: Action) -> list[dict[str, Any]]:
    """Every player turns their laurels face up, says the total, and turns them face down again."""
    totals = {str(s): laurel_total(p.laurels) for s, p in enumerate(state.seats)}
    state.revealed.append({"entered": state.reveal_open, "totals": totals})
    event = {"type": "reveal", "seat": action["seat"], "entered": state.reveal_open, "totals": totals}
    state.reveal_open = 0
    laurel_steps = [(s, t) for s, p in enumerate(state.seats) for t in p.laurels]
    return [tell(state, event, *(step("laurel", -1, laurels(s), laurels(s), ("down", "up"), (t, t)) for s, t in laurel_steps),
                 *(step("laurel", -1, laurels(s), laurels(s), ("up", "down"), (t, t)) for s, t in laurel_steps))]


def game_over(state: QuoVadisState) -> dict[str, Any]:
    """The Senate is full: every player's laurels are turned face up to be counted."""
    return tell(state, {"type": "end"}, *(step("laurel", -1, laurels(s), laurels(s), ("down", "up"), (t, t))
                                          for s, p in enumerate(state.seats) for t in p.laurels))


def _caesar(state: QuoVadisState, action: Action) -> list[dict[str, Any]]:
    was = state.caesar
    state.caesar = action["path"]
    if state.phase == "bonus":
        state.bonus = False
    state.turn_done = True
    return [tell_made(state, {"type": "caesar", "seat": action["seat"], "path": action["path"],
                              "bonus": state.phase == "bonus"}, _CAESAR_STEPS[was, state.caesar])]


def _keep(state: QuoVadisState, action: Action) -> list[dict[str, Any]]:
    state.bonus = False
    return [{"type": "keep", "seat": action["seat"]}]


def _pay(state: QuoVadisState, action: Action) -> list[dict[str, Any]]:
    seat, to, token = action["seat"], action["to"], action["token"]
    state.seats[seat].laurels.remove(token)
    state.seats[to].laurels.append(token)
    # Handed over face down: the value stays secret (the payer's screen named it).
    return [tell_made(state, {"type": "pay", "seat": seat, "to": to}, _RECORDS[seat].handed[to, token])]


# Caesar's move from one diamond to another (to his own, where that counts as a move), made once.
_CAESAR_STEPS = {(was, to): made(step("caesar", -1, diamond(was), diamond(to)))
                 for was in BOARD.diamonds for to in BOARD.diamonds}

_HANDLERS = {"place": _place, "advance": _advance, "support": _vote, "refuse": _vote, "reward": _reward,
             "caesar": _caesar, "keep": _keep, "pay": _pay, "demand_reveal": _demand_reveal}
FREE = ("pay", "demand_reveal")  # open to any seat at any time: no move of the game


def laurel_total(tokens: list[str]) -> int:
    return sum(LAURELS.kinds[t].value for t in tokens)


# --- the flow --------------------------------------------------------------------

def _over(state: QuoVadisState) -> bool:
    return state.over != ""


def _asking(state: QuoVadisState) -> bool:
    return state.vote is not None


def _vote_failed(state: QuoVadisState) -> bool:
    return state.vote is None and not state.turn_done


def _paying(state: QuoVadisState) -> bool:
    return state.payout_left > 0


def _bonus(state: QuoVadisState) -> bool:
    return state.bonus and state.payout_left == 0


def _turn_over(state: QuoVadisState) -> bool:
    return state.turn_done and state.payout_left == 0 and not state.bonus


def next_turn(state: QuoVadisState) -> None:
    state.turn_done = False
    state.played += 1
    state.active = (state.active + 1) % state.players
    state.turn += 1


ALL = ("turn", "vote", "reward", "bonus")
PHASES = ALL + ("over",)
FLOW = Flow(
    phases=PHASES,
    initial="turn",
    steps=(
        Step(ALL, "over", when=(_over,), doc="the Senate's fifth seat is filled"),
        Step("turn", "vote", when=(_asking,), doc="a senator asks its committee to let it leave"),
        Step("vote", "turn", when=(_vote_failed,), doc="the vote failed: the turn goes on"),
        Step(("turn", "vote"), "reward", when=(_paying,), doc="the mover picks which supporters are paid"),
        Step(("turn", "vote", "reward"), "bonus", when=(_bonus,), doc="a II-Caesar laurel: an extra Caesar move"),
        Step(ALL, "turn", when=(_turn_over,), after=next_turn, doc="the next player's turn"),
    ),
)


# --- the end ------------------------------------------------------------------------

def result(state: QuoVadisState) -> Result | None:
    if not state.over:
        return None
    senate = state.committees[SENATE]
    scores, breakdown = {}, {}
    for seat, player in enumerate(state.seats):
        total = laurel_total(player.laurels)
        scores[seat] = total
        breakdown[seat] = {"laurels": total, "tokens": len(player.laurels), "senators": senate.count(seat),
                           "eligible": int(seat in senate)}
    eligible = [s for s in scores if s in senate]
    best = max(scores[s] for s in eligible)
    tied = [s for s in eligible if scores[s] == best]
    winner = min(tied, key=senate.index)  # the earliest Senate entrant
    return Result(scores=scores, winners=(winner,), breakdown=breakdown, reason=state.over)


# --- for tests ---------------------------------------------------------------------------

def redeal(state: QuoVadisState, seat: int, rng: Rng) -> QuoVadisState:
    """Re-draw what `seat` cannot know: the bag's order, other players' laurels, unrevealed answers.

    The pool is sorted before it is shuffled, so two states the seat cannot
    tell apart give the same re-drawn state for the same `rng`.
    """
    new = clone(state)
    others = [s for s in range(new.players) if s != seat]
    pool = sorted(list(new.bag) + [t for s in others for t in new.seats[s].laurels])
    rng.shuffle(pool)
    for s in others:
        count = len(new.seats[s].laurels)
        new.seats[s].laurels, pool = pool[:count], pool[count:]
    new.bag = pool
    vote = new.vote
    if vote is not None and not new.options["open_answers"]:
        vote.answers = {s: vote.answers[s] if s == seat else rng.below(2) == 1 for s in sorted(vote.answers)}
    new.rng.state = rng.next64()
    return new


def check_invariants(state: QuoVadisState) -> None:
    tokens = (len(state.bag) + sum(1 for t in state.diamonds.values() if t) + state.supply + state.unused
              + sum(len(p.laurels) for p in state.seats))
    assert tokens == LAURELS.total, f"{tokens} laurels, not {LAURELS.total}"
    counted: dict[str, int] = {}
    for pile in [state.bag, list(state.diamonds.values())] + [p.laurels for p in state.seats]:
        for t in pile:
            if t:
                counted[t] = counted.get(t, 0) + 1
    counted[REWARD] = counted.get(REWARD, 0) + state.supply + state.unused
    assert counted == {k.name: k.count for k in LAURELS.kinds.values()}, "every kind of laurel is conserved"
    for seat, player in enumerate(state.seats):
        on_board = sum(owners.count(seat) for owners in state.committees.values())
        assert player.reserve + on_board == SENATORS, f"seat {seat} has {SENATORS} senators"
    for committee, owners in state.committees.items():
        assert len(owners) <= BOARD.committees[committee].seats, f"{committee} is over-full"
    assert state.caesar in BOARD.diamonds
