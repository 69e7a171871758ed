"""The decisions seats take: the legal actions of each kind of task, and what each action does.

An action is a flat record; its fields are ordered as a player thinks (what,
then whose or from where, then where to), because the seat's menu asks for
them in that order. `choices` lists them; `carry_out` applies one and
removes its task. Handlers may assume the action came from `choices`.
"""

from __future__ import annotations

from typing import Any, Callable

from ...physical import step, tell
from .board import (ASIDE, ELECTOR, EMPIRE_SUPPLY, SUPPLY, Scan, aristocrat_places, aristocrats, carry,
                    city_places, electorate, front, knight_places, piece_at, place, spec, stack, where)
from .data import BOARD, CARDS, PRIVILEGES
from .effects import (TARGETS, apply_card, baron_places, card_cost, city_move, crown, doctor, doctor_targets,
                      gain_thalers, gain_vp, knight_targets, marriageable, marry, move_knight, new_baron, spend,
                      throne_choices)
from .phases import displace_places, elector_candidates, seat_elector, to_supply
from .state import EMPIRE, Pick, ShadowState, Task

Action = dict[str, Any]
Events = list[dict[str, Any]]
RULES = BOARD.rules

# Decisions with no way out: when only one action is legal the game takes it itself.
FORCED = ("setup", "crown", "son", "elect", "return", "retire")


def task_of(state: ShadowState, seat: int) -> Task | None:
    """The task `seat` must decide now (several seats at once only during a ballot)."""
    if not state.tasks:
        return None
    first = state.tasks[0]
    if first.kind == "vote":
        return next((t for t in state.tasks if t.kind == "vote" and t.seat == seat), None)
    return first if first.seat == seat else None


def pending(state: ShadowState) -> list[int]:
    if not state.tasks:
        return []
    first = state.tasks[0]
    if first.kind == "vote":
        return sorted(t.seat for t in state.tasks if t.kind == "vote")
    return [first.seat]


# --- what a seat may do ---------------------------------------------------------------

def choices(state: ShadowState, task: Task) -> list[Action]:
    """The task's legal actions, each "seat" then "do" first, as its seat's menu asks."""
    return _CHOICES[task.kind](state, task)


def _setup(state: ShadowState, task: Task) -> list[Action]:
    seat = task.seat
    if task.piece == "city":
        return [{"seat": seat, "do": "place", "area": a, "spot": s} for a, s in city_places(state)]
    if task.piece == "elector":
        return [{"seat": seat, "do": "place", "area": e.id, "spot": ELECTOR}
                for e in state.electorates if e.elector is None]
    places = knight_places(state) if task.piece == "knight" else aristocrat_places(state)
    return [{"seat": seat, "do": "place", "area": a, "spot": s} for a, s in spread(state, seat, places)]


def spread(state: ShadowState, seat: int, places: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """With the option `setup_spread` (§3.6 b-e), a start-position piece goes to an electorate where its
    owner has none yet, while one has room; by default anywhere."""
    if not state.options["setup_spread"]:
        return places
    mine = {e.id for e in state.electorates
            if any(p is not None and p.owner == seat for p in [e.elector, *e.spaces, *e.castles])}
    return [(a, s) for a, s in places if a not in mine] or places


def _confirm(state: ShadowState, task: Task) -> list[Action]:
    seat = task.seat
    return [{"seat": seat, "do": "done"}]


def _crown(state: ShadowState, task: Task) -> list[Action]:
    """The throne emptied by age: the seed's "原擁有帝位的玩家，可將 1 名權貴位置上的己方貴族放到王座上"
    (the Emperor *may* put one of his tiles there), so he may also leave it empty. A Rival who
    won the election must take the throne."""
    seat = task.seat
    found = [{"seat": seat, "do": "crown", "area": a, "spot": s} for a, s in throne_choices(state, seat)]
    return found + ([{"seat": seat, "do": "leave_empty"}] if task.area != "election" else [])


def _son(state: ShadowState, task: Task) -> list[Action]:
    """"玩家可將1名15歲的獨身貴族放到任何選帝侯領內": the player *may* place the son, or keep him back."""
    seat = task.seat
    return baron_places(state, seat, {"seat": seat, "do": "son"}) + [{"seat": seat, "do": "keep"}]


def _daughter(state: ShadowState, task: Task) -> list[Action]:
    """Another player's single Baron, or the nunnery; `task.seats` are the players who refused her
    already (only with the option `repeat_proposals`, §5.3)."""
    seat = task.seat
    grooms = [{"seat": seat, "do": "propose", "area": a, "spot": s} for a, s, p in aristocrats(state)
              if p.owner != seat and p.owner not in task.seats and marriageable(state, p, a, s)]
    return grooms + [{"seat": seat, "do": "nunnery"}]


def _answer(state: ShadowState, task: Task) -> list[Action]:
    seat = task.seat
    return [{"seat": seat, "do": "accept"}, {"seat": seat, "do": "refuse"}]


def _turn(state: ShadowState, task: Task) -> list[Action]:
    """Phase IV: buy a card, use a privilege, place or move a knight, or pass (§5.5)."""
    seat = task.seat
    player = state.seats[seat]
    scan = Scan(state)  # the cards' targets read the same lists of the board
    found: list[Action] = []
    for card in CARDS.values():
        if state.stacks[card.id] <= 0:
            continue
        if not state.options["repeat_cards"] and card.id in player.cards:
            continue
        cost = card_cost(state, seat, card)
        if cost is None or cost > player.thalers:
            continue
        found += TARGETS[card.effect](state, seat, {"seat": seat, "do": "buy", "card": card.id}, scan)
    found += _privileges(state, seat, scan)
    if player.thalers >= RULES["knight_action_cost"]:
        found += knight_targets(state, seat, {"seat": seat, "do": "knight"}, scan)
    found.append({"seat": seat, "do": "pass"})
    return found


def _privileges(state: ShadowState, seat: int, scan: Scan) -> list[Action]:
    player = state.seats[seat]
    found: list[Action] = []
    for e in state.electorates:
        privilege = PRIVILEGES[e.id]
        if e.elector is None or e.elector.owner != seat or e.used or privilege.phase != "IV":
            continue
        head = {"seat": seat, "do": "privilege", "privilege": e.id}
        if privilege.effect == "copy_sold_out":
            for card in CARDS.values():
                if state.stacks[card.id] > 0 or card.id in privilege.exclude:
                    continue
                cost = card_cost(state, seat, card)
                if cost is None or cost > player.thalers:
                    continue
                found += TARGETS[card.effect](state, seat, dict(head, card=card.id), scan)
        elif privilege.effect == "doctor":
            found += doctor_targets(state, seat, head, scan)
        elif privilege.effect == "place_baron":
            found += baron_places(state, seat, head, scan)
        elif privilege.effect == "take_card":
            if state.stacks[privilege.card] > 0 and privilege.cost <= player.thalers:
                found.append(head)
    return found


def _gray(state: ShadowState, task: Task) -> list[Action]:
    seat = task.seat
    return [{"seat": seat, "do": "gray", "area": e.id} for e in state.electorates]


def _tie(state: ShadowState, task: Task) -> list[Action]:
    seat = task.seat
    return [{"seat": seat, "do": "tie", "winner": s} for s in task.seats]


def _elect(state: ShadowState, task: Task) -> list[Action]:
    seat = task.seat
    return [{"seat": seat, "do": "elect", "spot": s} for s in elector_candidates(state, task.area, seat)]


def _return(state: ShadowState, task: Task) -> list[Action]:
    """A displaced elector finds no empty space: "可移走 1 名在權貴位置上的騎士來讓出空位" (its owner *may*
    push a knight), or takes the tile back into supply."""
    seat = task.seat
    found = [{"seat": seat, "do": "return", "spot": s}
             for _, s in displace_places(state, electorate(state, task.area))]
    return found + [{"seat": seat, "do": "keep"}]


def _church(state: ShadowState, task: Task) -> list[Action]:
    """Church influence names an archdiocese, Excommunication a secular electorate; never one named already."""
    seat = task.seat
    taken = {p.area for p in state.picks}
    wanted = "spiritual" if task.kind == "church" else "secular"
    return [{"seat": seat, "do": task.kind, "area": e.id} for e in state.electorates
            if spec(e.id).kind == wanted and e.id not in taken]


def _vote(state: ShadowState, task: Task) -> list[Action]:
    seat = task.seat
    return [{"seat": seat, "do": "vote", "for": "emperor"}, {"seat": seat, "do": "vote", "for": "rival"}]


def _retire(state: ShadowState, task: Task) -> list[Action]:
    """"退下皇位的貴族可放到任何選帝侯領內": the old emperor *may* go to any electorate, or back to supply."""
    seat = task.seat
    found = [{"seat": seat, "do": "retire", "area": a, "spot": s} for a, s in aristocrat_places(state)]
    return found + [{"seat": seat, "do": "keep"}]


def _rights(state: ShadowState, task: Task) -> list[Action]:
    """Phase VII: place an empire city, or instead move one; optional unless the option says so."""
    seat = task.seat
    kind = BOARD.rounds[state.round - 1].empire_city
    found: list[Action] = []
    if kind == "place_or_move" and state.empire_supply > 0:
        found += [{"seat": seat, "do": "empire_city", "area": a, "spot": s} for a, s in city_places(state)]
    if kind in ("place_or_move", "move"):
        on_board = [(e.id, f"c{i}") for e in state.electorates for i, o in enumerate(e.cities) if o == EMPIRE]
        for from_area, from_spot in on_board:
            found += [{"seat": seat, "do": "move_city", "from_area": from_area, "from_spot": from_spot,
                       "area": a, "spot": s} for a, s in city_places(state) if a != from_area]
    if state.options["empire_city_optional"] or not found:
        found.append({"seat": seat, "do": "done"})
    return found


_CHOICES: dict[str, Callable[[ShadowState, Task], list[Action]]] = {
    "setup": _setup, "confirm": _confirm, "crown": _crown, "son": _son, "daughter": _daughter,
    "answer": _answer, "turn": _turn, "gray": _gray, "tie": _tie, "elect": _elect, "return": _return,
    "church": _church, "excommunicate": _church, "vote": _vote, "retire": _retire, "rights": _rights,
}


# --- what an action does ---------------------------------------------------------------

def carry_out(state: ShadowState, action: Action) -> Events:
    seat = action["seat"]
    task = task_of(state, seat)
    assert task is not None
    state.tasks.remove(task)
    return _HANDLERS[action["do"]](state, task, action)


def _place(state: ShadowState, task: Task, a: Action) -> Events:
    seat, area, spot = task.seat, a["area"], a["spot"]
    if task.piece == "city":
        return empire_city(state, area, spot, "setup")
    if task.piece == "knight":
        return move_knight(state, seat, {"from_area": SUPPLY, "from_spot": "", "area": area, "spot": spot}, "setup")
    kind = "couple" if task.piece == "couple" else "baron"
    events = new_baron(state, seat, task.age, area, spot, "setup", kind=kind)
    if task.piece == "elector" and state.options["setup_elector_vp"]:
        events += gain_vp(state, seat, state.options["setup_elector_vp"], "electors")
    return events


def _done(state: ShadowState, task: Task, a: Action) -> Events:
    return [{"type": "done", "seat": task.seat, "phase": state.phase}]


def _crowned(state: ShadowState, task: Task, a: Action) -> Events:
    return crown(state, task.seat, a["area"], a["spot"], RULES["throne_age"])



def _son_born(state: ShadowState, task: Task, a: Action) -> Events:
    return new_baron(state, task.seat, RULES["son_age"], a["area"], a["spot"], "son")


def _left_empty(state: ShadowState, task: Task, a: Action) -> Events:
    return [{"type": "throne_empty", "seat": task.seat, "chosen": True}]


def _kept(state: ShadowState, task: Task, a: Action) -> Events:
    """The son stays unborn on the board (nothing moves), or the tile set aside goes back to supply."""
    if task.kind == "son":
        return [{"type": "son_kept", "seat": task.seat}]
    if task.kind == "return":
        assert state.contest is not None
        state.contest.stage = "done"
    to_supply(state, task.area or "throne")  # its events go straight into the news
    return []


def _propose(state: ShadowState, task: Task, a: Action) -> Events:
    groom = piece_at(state, a["area"], a["spot"])
    assert groom is not None
    state.tasks.insert(0, Task("answer", groom.owner, area=a["area"], spot=a["spot"], other=task.seat,
                               seats=list(task.seats)))
    return [{"type": "proposal", "seat": task.seat, "to": groom.owner, "area": a["area"], "spot": a["spot"],
             "age": groom.age}]


def _nunnery(state: ShadowState, task: Task, a: Action) -> Events:
    return [{"type": "nunnery", "seat": task.seat}] + gain_thalers(state, task.seat, RULES["nunnery_thalers"], "nunnery")


def _accept(state: ShadowState, task: Task, a: Action) -> Events:
    events = marry(state, task.area, task.spot, {"reason": "daughter", "bride": task.other})
    return events + gain_vp(state, task.other, RULES["marriage_vp"], "marriages")


def _refuse(state: ShadowState, task: Task, a: Action) -> Events:
    """The daughter goes to the nunnery; with the option `repeat_proposals` she may first be offered
    to a player who has not refused her yet (§5.3)."""
    events: Events = [{"type": "refused", "seat": task.seat, "bride": task.other}]
    if state.options["repeat_proposals"]:
        again = Task("daughter", task.other, seats=[*task.seats, task.seat])
        if len(_daughter(state, again)) > 1:  # a groom besides the nunnery
            state.tasks.insert(0, again)
            return events
    events.append({"type": "nunnery", "seat": task.other})
    return events + gain_thalers(state, task.other, RULES["nunnery_thalers"], "nunnery")


def _fields(a: Action, *skip: str) -> dict[str, Any]:
    return {k: v for k, v in a.items() if k not in ("seat", "do", "card", "privilege") + skip}


def _buy(state: ShadowState, task: Task, a: Action) -> Events:
    seat, card = task.seat, CARDS[a["card"]]
    cost = card_cost(state, seat, card)
    assert cost is not None
    events: Events = [take_card(state, seat, card.id, cost, {"type": "bought", "seat": seat, "card": card.id,
                                                             "cost": cost})]
    return events + apply_card(state, seat, card, _fields(a))


def take_card(state: ShadowState, seat: int, card: str, cost: int, event: dict[str, Any]) -> dict[str, Any]:
    """Pay for a card and lay it face up in front of the seat, from its stack."""
    paid = spend(state, seat, cost)
    state.stacks[card] -= 1
    state.seats[seat].cards.append(card)
    return tell(state, event, *paid, step("card", -1, stack(card), front(seat), ("up", "up"), (card, card)))


def _privilege(state: ShadowState, task: Task, a: Action) -> Events:
    seat, eid = task.seat, a["privilege"]
    privilege = PRIVILEGES[eid]
    e = electorate(state, eid)
    assert e.elector is not None
    # The elector tile moves onto the privilege space until the round ends: the privilege is used.
    marker = carry(e.elector, where(state, eid, ELECTOR), [eid, "privilege"])
    e.used = True
    events: Events = [tell(state, {"type": "privilege", "seat": seat, "area": eid, "effect": privilege.effect},
                           marker)]
    if privilege.effect == "copy_sold_out":
        card = CARDS[a["card"]]
        cost = card_cost(state, seat, card)
        assert cost is not None
        paid = spend(state, seat, cost)
        state.seats[seat].copies.append(card.id)  # no card is taken: the stack is empty
        events.append(tell(state, {"type": "copied", "seat": seat, "card": card.id, "cost": cost}, *paid))
        return events + apply_card(state, seat, card, _fields(a))
    if privilege.effect == "doctor":
        return events + doctor(state, seat, _fields(a), reason="privilege")
    if privilege.effect == "place_baron":
        return events + new_baron(state, seat, privilege.age, a["area"], a["spot"], "privilege")
    if privilege.effect == "take_card":
        return events + [take_card(state, seat, privilege.card, privilege.cost,
                                   {"type": "taken", "seat": seat, "card": privilege.card})]
    raise AssertionError(f"privilege {eid} is not used in Phase IV")


def _knight(state: ShadowState, task: Task, a: Action) -> Events:
    cost = RULES["knight_action_cost"]
    paid = spend(state, task.seat, cost)
    events = move_knight(state, task.seat, _fields(a), "action")
    events[0]["cost"] = cost
    tell(state, events[0], *paid)
    return events


def _pass(state: ShadowState, task: Task, a: Action) -> Events:
    state.seats[task.seat].passed = True
    return [{"type": "passed", "seat": task.seat}]


def _pick(state: ShadowState, task: Task, a: Action) -> Events:
    state.picks.append(Pick(a["do"], task.seat, a["area"]))
    return [{"type": "pick", "kind": a["do"], "seat": task.seat, "area": a["area"]}]


def _tie_broken(state: ShadowState, task: Task, a: Action) -> Events:
    assert state.contest is not None
    state.contest.winner = a["winner"]
    return [{"type": "tie_broken", "seat": task.seat, "area": task.area, "winner": a["winner"]}]


def _elected(state: ShadowState, task: Task, a: Action) -> Events:
    assert state.contest is not None
    seat_elector(state, task.area, a["spot"])  # its events go straight into the news
    state.contest.stage = "displace"
    return []


def _returned(state: ShadowState, task: Task, a: Action) -> Events:
    tile = state.limbo
    assert tile is not None and state.contest is not None
    state.limbo = None
    state.contest.stage = "done"
    return place(state, tile, task.area, a["spot"], "displaced", ASIDE)


def _voted(state: ShadowState, task: Task, a: Action) -> Events:
    state.ballots[task.seat] = a["for"]
    return [{"type": "voted", "seat": task.seat}]  # never the choice: it stays hidden until all are in


def _retired(state: ShadowState, task: Task, a: Action) -> Events:
    tile = state.limbo
    assert tile is not None
    state.limbo = None
    return place(state, tile, a["area"], a["spot"], "old_emperor", ASIDE)


def empire_city(state: ShadowState, area: str, spot: str, reason: str) -> Events:
    state.empire_supply -= 1
    electorate(state, area).cities[int(spot[1:])] = EMPIRE
    return [tell(state, {"type": "city", "seat": EMPIRE, "area": area, "spot": spot, "reason": reason},
                 city_move(EMPIRE, EMPIRE_SUPPLY, [area, spot]))]


def _empire_city(state: ShadowState, task: Task, a: Action) -> Events:
    return empire_city(state, a["area"], a["spot"], "emperor")


def _move_city(state: ShadowState, task: Task, a: Action) -> Events:
    electorate(state, a["from_area"]).cities[int(a["from_spot"][1:])] = None
    electorate(state, a["area"]).cities[int(a["spot"][1:])] = EMPIRE
    return [tell(state, {"type": "city_moved", "from_area": a["from_area"], "from_spot": a["from_spot"],
                         "area": a["area"], "spot": a["spot"]},
                 city_move(EMPIRE, [a["from_area"], a["from_spot"]], [a["area"], a["spot"]]))]


_HANDLERS: dict[str, Callable[[ShadowState, Task, Action], Events]] = {
    "place": _place, "done": _done, "crown": _crowned, "son": _son_born, "propose": _propose,
    "nunnery": _nunnery, "accept": _accept, "refuse": _refuse, "buy": _buy, "privilege": _privilege,
    "knight": _knight, "pass": _pass, "gray": _pick, "church": _pick, "excommunicate": _pick,
    "tie": _tie_broken, "elect": _elected, "return": _returned, "vote": _voted, "retire": _retired,
    "empire_city": _empire_city, "move_city": _move_city, "leave_empty": _left_empty, "keep": _kept,
}
