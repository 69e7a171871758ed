"""The work of each phase, as an ordered list of steps (rules/shadow.md §3, §5).

A step does the phase's automatic work (income, aging, influence, the vote
count) and queues the decisions seats must take. It returns True to be
called again once those decisions are made (a step that walks the seats or
the electorates), False when it is finished. `rules.run` drives the steps;
the events they cause are appended to `state.news`.
"""

from __future__ import annotations

from typing import Any, Callable

from ...physical import step, tell, turn
from .board import (ASIDE, ELECTOR, SUPPLY, THALERS, THRONE, aristocrat_places, aristocrats, carry, electorate, front,
                    influence, looks, older, piece_at, place, places_in, remove, spec, stack, supply_of, where)
from .data import BOARD, CARDS, PRIVILEGES, privilege_with
from .effects import crown, gain_thalers, gain_vp, holders, queue_throne
from .state import EMPIRE, Contest, Election, Electorate, Piece, ShadowState, Task

RULES = BOARD.rules
Step = Callable[[ShadowState], bool]


def order(state: ShadowState) -> list[int]:
    """Turn order: the emperor first, then clockwise."""
    return [(state.emperor + i) % state.players for i in range(state.players)]


def news(state: ShadowState, *events: dict) -> None:
    state.news.extend(events)


def keyed(by_seat: dict[int, Any]) -> dict[str, Any]:
    """Events are JSON as they stand: a per-seat table is keyed by the seat's number as text."""
    return {str(seat): value for seat, value in by_seat.items()}


def confirm(state: ShadowState) -> bool:
    """The emperor says the table has made the phase's changes on the board."""
    state.tasks.append(Task("confirm", state.emperor))
    return False


# --- setup (§3) ------------------------------------------------------------------

def setup_sequence(state: ShadowState) -> list[Task]:
    """The start-position card's placements, one at a time clockwise from the emperor."""
    seats = order(state)
    emperor = state.emperor
    steps: list[Task] = []
    city = Task("setup", emperor, piece="city")
    if state.options["setup_city"] == "first":
        steps.append(city)
    steps.append(Task("setup", emperor, piece="throne", age=45))
    steps += [Task("setup", s, piece="elector", age=45) for s in seats[1:]]
    second = "couple" if state.options["setup_couple"] else "baron"
    steps += [Task("setup", s, piece=second, age=35) for s in seats]
    steps += [Task("setup", s, piece="baron", age=25) for s in seats]
    if state.options["setup_young_baron"]:
        steps += [Task("setup", s, piece="baron", age=15) for s in seats]
    steps += [Task("setup", s, piece="knight") for s in seats]
    if state.options["setup_city"] == "last":
        steps.append(city)
    return steps


def setup_next(state: ShadowState) -> bool:
    sequence = setup_sequence(state)
    if state.index >= len(sequence):
        return False
    task = sequence[state.index]
    state.index += 1
    if task.piece == "throne":
        news(state, *crown(state, task.seat, SUPPLY, "", task.age))
    else:
        state.tasks.append(task)
    return True


# --- I income (§5.1) ------------------------------------------------------------------

def income_of(state: ShadowState, seat: int) -> int:
    """6 + own cities + others' cities where the seat holds the elector + Saxony's 2."""
    amount = RULES["base_income"]
    for e in state.electorates:
        mine = e.elector is not None and e.elector.owner == seat
        for owner in e.cities:
            if owner == seat or (mine and owner not in (None, EMPIRE)):
                amount += 1
        privilege = PRIVILEGES[e.id]
        if mine and privilege.effect == "income":
            amount += privilege.amount
    return amount


def pay_income(state: ShadowState) -> bool:
    for seat in range(state.players):
        for event in gain_thalers(state, seat, income_of(state, seat), "income"):
            event["income"] = income_of(state, seat)
            news(state, event)
    return False


# --- II aging (§5.2) -------------------------------------------------------------------

def age_all(state: ShadowState) -> bool:
    """Every 45 leaves the board (electors and the emperor too); every other tile ages a step."""
    old = [(a, s) for a, s, p in board_tiles(state) if older(p.age) is None]
    for area, spot in old:
        news(state, *remove(state, area, spot, "aging"))
    turned = []
    for area, spot, p in board_tiles(state):
        what, side, age = looks(p)
        p.age = older(p.age)  # type: ignore[assignment]
        turned.append(turn(what, p.owner, where(state, area, spot), (side, side), (age, p.age)))
    news(state, tell(state, {"type": "aging", "died": len(old)}, *turned))
    return False


def board_tiles(state: ShadowState) -> list[tuple[str, str, Piece]]:
    return list(aristocrats(state))


def refill_throne(state: ShadowState) -> bool:
    if state.throne is None:
        news(state, *queue_throne(state, state.emperor, "aging", front=False))
    return False


# --- III descendants (§5.3) ---------------------------------------------------------------

def colours(state: ShadowState, seat: int) -> tuple[int, int]:
    """(blue, red) among the cards a seat bought last round (Trier copies by option)."""
    player = state.seats[seat]
    held = player.cards + (player.copies if state.options["trier_copy_counts"] else [])
    blue = sum(1 for c in held if CARDS[c].colour == "blue")
    red = sum(1 for c in held if CARDS[c].colour == "red")
    return blue, red


def next_child(state: ShadowState) -> bool:
    if state.index >= state.players:
        return False
    seat = order(state)[state.index]
    state.index += 1
    blue, red = colours(state, seat)
    if blue == red == 0:
        news(state, {"type": "no_child", "seat": seat, "reason": "no_cards"})
    elif blue > red:
        if state.seats[seat].aristocrats > 0 and aristocrat_places(state):
            state.tasks.append(Task("son", seat))
        else:  # §5.3: no son and, unless the option `unborn_son_thaler` says so, nothing for him
            news(state, {"type": "no_child", "seat": seat, "reason": "no_room"})
            if state.options["unborn_son_thaler"]:
                news(state, *gain_thalers(state, seat, RULES["nunnery_thalers"], "nunnery"))
    else:
        state.tasks.append(Task("daughter", seat))
    return True


def return_cards(state: ShadowState) -> bool:
    count = 0
    back = []
    for seat, player in enumerate(state.seats):
        for card in player.cards:
            state.stacks[card] += 1
            count += 1
            back.append(step("card", -1, front(seat), stack(card), ("up", "up"), (card, card)))
        player.cards.clear()
        player.copies.clear()
    news(state, tell(state, {"type": "cards_returned", "count": count}, *back))
    return False


# --- IV actions (§5.5) ---------------------------------------------------------------------

def start_actions(state: ShadowState) -> bool:
    chips = []
    for seat, player in enumerate(state.seats):
        player.passed = False
        if player.chip != player.thalers:
            chips.append(turn("chip", seat, THALERS, value=(player.chip, player.thalers)))
        player.chip = player.thalers
    if chips:  # the chip keeps the thalers a player had when Phase IV began
        news(state, tell(state, {"type": "chips"}, *chips))
    state.turn = (state.emperor - 1) % state.players
    return False


def next_turn(state: ShadowState) -> bool:
    if all(p.passed for p in state.seats):
        return False
    seat = (state.turn + 1) % state.players
    while state.seats[seat].passed:
        seat = (seat + 1) % state.players
    state.turn = seat
    state.tasks.append(Task("turn", seat))
    return True


# --- V new electors (§5.6) ---------------------------------------------------------------------

def gray_picks(state: ShadowState) -> bool:
    if state.options["gray_eminence"] == "influence":
        state.tasks.extend(Task("gray", seat) for seat in holders(state, "gray"))
    return False


def tie_breaker(state: ShadowState) -> int:
    if state.options["gray_eminence"] == "tiebreak":
        found = holders(state, "gray")
        if found:
            return found[0]
    return state.emperor


def mainz(state: ShadowState) -> None:
    privilege = privilege_with("vp")
    if privilege is None:
        return
    e = electorate(state, privilege.electorate)
    if e.elector is not None:
        news(state, *gain_vp(state, e.elector.owner, privilege.amount, "mainz"))


def mainz_before(state: ShadowState) -> bool:
    if not state.options["mainz_after_changes"]:
        mainz(state)
    return False


def mainz_after(state: ShadowState) -> bool:
    if state.options["mainz_after_changes"]:
        mainz(state)
    return False


def elector_candidates(state: ShadowState, eid: str, seat: int) -> list[str]:
    """The winner's tiles on this electorate's aristocrat spaces that may sit as its elector."""
    e = electorate(state, eid)
    single = spec(eid).single_elector
    return [f"a{i}" for i, p in enumerate(e.spaces)
            if p is not None and p.aristocrat and p.owner == seat and (p.kind == "baron" or not single)]


def next_contest(state: ShadowState) -> bool:
    if state.index >= len(state.electorates):
        return False
    e = state.electorates[state.index]
    contest = state.contest
    if contest is None or contest.area != e.id:
        contest = state.contest = Contest(e.id)
    if contest.stage == "influence":
        bonus: dict[int, int] = {}
        for pick in state.picks:
            if pick.kind == "gray" and pick.area == e.id:
                bonus[pick.seat] = bonus.get(pick.seat, 0) + 1
        contest.scores = influence(state, e, state.options["elector_counts"], bonus)
        news(state, {"type": "influence", "area": e.id, "scores": keyed(contest.scores)})
        top = max(contest.scores.values())
        tied = [s for s, v in contest.scores.items() if v == top]
        if top == 0 and not (state.options["no_influence"] == "tie" and e.elector is not None):
            contest.stage = "done"  # §5.6.2: nobody has influence, nothing changes (an empty seat stays so)
        else:
            contest.stage = "winner"
            if len(tied) == 1:
                contest.winner = tied[0]
            else:
                breaker = tie_breaker(state)
                state.tasks.append(Task("tie", breaker, area=e.id, seats=tied))
                news(state, {"type": "tie", "area": e.id, "seats": tied, "breaker": breaker})
                return True
    if contest.stage == "winner":
        winner = contest.winner
        if e.elector is not None and e.elector.owner == winner:
            news(state, {"type": "holds", "area": e.id, "seat": winner})
            contest.stage = "done"
        elif elector_candidates(state, e.id, winner):
            state.tasks.append(Task("elect", winner, area=e.id))
            return True  # the elect decision moves the contest on to "displace"
        else:
            news(state, {"type": "no_candidate", "area": e.id, "seat": winner})
            unseat(state, e.id)
            contest.stage = "displace"
    if contest.stage == "displace":
        if state.limbo is not None and not displace(state, e.id):
            return True  # its owner chooses which knight to push
        contest.stage = "done"
    if contest.stage == "done":
        state.contest = None
        state.index += 1
    return True


def unseat(state: ShadowState, eid: str) -> None:
    """The sitting elector steps down into limbo, on its way back into the electorate."""
    e = electorate(state, eid)
    if e.elector is not None:
        tile = e.elector
        src = where(state, eid, ELECTOR)
        state.limbo = tile
        e.elector = None
        e.used = False  # the privilege marker goes with the tile
        news(state, tell(state, {"type": "unseated", "area": eid, "seat": tile.owner, "kind": tile.kind,
                                 "age": tile.age}, carry(tile, src, ASIDE)))


def seat_elector(state: ShadowState, eid: str, spot: str) -> None:
    e = electorate(state, eid)
    unseat(state, eid)
    tile = piece_at(state, eid, spot)
    assert tile is not None
    e.spaces[int(spot[1:])] = None
    e.elector = tile
    if state.contest is not None:
        state.contest.freed = spot
    news(state, tell(state, {"type": "elector", "area": eid, "seat": tile.owner, "from_spot": spot, "kind": tile.kind,
                             "age": tile.age}, carry(tile, [eid, spot], where(state, eid, ELECTOR))))
    news(state, *gain_vp(state, tile.owner, RULES["elector_vp"], "electors"))


def displace_places(state: ShadowState, e: Electorate) -> list[tuple[str, str]]:
    """Where the displaced elector may go back: the new elector's freed space too, unless the option
    `displaced_first` has the old elector step down before the new one leaves it (§5.6.4)."""
    contest = state.contest
    freed = contest.freed if contest is not None and state.options["displaced_first"] else ""
    return places_in(e, skip=freed)


def displace(state: ShadowState, eid: str) -> bool:
    """Put the displaced elector back in its electorate; False while its owner must pick a knight."""
    tile = state.limbo
    assert tile is not None
    e = electorate(state, eid)
    places = displace_places(state, e)
    if not places:
        to_supply(state, eid)
        return True
    first = places[0][1]
    if e.spaces[int(first[1:])] is None:  # "必須放回該領地內之權貴位置上": an empty space takes it, no choice
        state.limbo = None
        news(state, *place(state, tile, eid, first, "displaced", ASIDE))
        return True
    state.tasks.append(Task("return", tile.owner, area=eid))  # it may push a knight, or go back to supply
    return False


# --- VI the election (§5.7) ------------------------------------------------------------------

def rival_bought(state: ShadowState) -> bool:
    return any(CARDS[c].effect == "rival" for p in state.seats for c in p.cards)


def church_picks(state: ShadowState) -> bool:
    found = []
    for kind in ("church", "excommunicate"):
        found += [(order(state).index(seat), seat, kind) for seat in holders(state, kind)]
    state.tasks.extend(Task(kind, seat) for _, seat, kind in sorted(found, key=lambda x: x[0]))
    return False


def voting_elector(state: ShadowState, e: Electorate) -> Piece | None:
    """The elector whose seat votes: none for an empty seat ("若選帝侯位置懸空，則該領地之選帝侯票…將不獲計算"),
    nor, by the option `privilege_tile_votes`, for a tile lying on its privilege space (§2.3)."""
    if e.used and not state.options["privilege_tile_votes"]:
        return None
    return e.elector


def church_bonus(state: ShadowState, e: Electorate, owner: int) -> int:
    """Church influence for the archdiocese's elector owner (§5.7.1): 1 per own tile and knight there,
    or (option `church_count`) the owner's Phase V influence there; the elector tile by option."""
    counts_elector = state.options["church_count_elector"]
    if state.options["church_count"] == "influence":
        return influence(state, e, counts_elector)[owner]
    bonus = sum(1 for p in e.spaces + e.castles if p is not None and p.owner == owner)
    return bonus + (1 if counts_elector else 0)


def votes_of(state: ShadowState) -> dict[int, int]:
    """Each seat's votes: its electors (Bohemia 2), unless excommunicated; Pope +1; Church influence."""
    votes = {s: 0 for s in range(state.players)}
    banned = {p.area for p in state.picks if p.kind == "excommunicate"}
    for e in state.electorates:
        seated = voting_elector(state, e)
        if seated is None or e.id in banned:
            continue
        privilege = PRIVILEGES[e.id]
        votes[seated.owner] += privilege.amount if privilege.effect == "votes" else 1
    for seat in holders(state, "pope"):
        votes[seat] += 1
    for pick in state.picks:
        if pick.kind == "church":
            e = electorate(state, pick.area)
            seated = voting_elector(state, e)
            if seated is not None:
                votes[seated.owner] += church_bonus(state, e, seated.owner)
    return votes


def count_votes(state: ShadowState) -> bool:
    rival = next(s for s, p in enumerate(state.seats) for c in p.cards if CARDS[c].effect == "rival")
    election = Election(emperor=state.emperor, rival=rival, votes=votes_of(state))
    state.election = election
    news(state, {"type": "votes", "emperor": state.emperor, "rival": rival,
                 "votes": keyed(election.votes)})
    return False


def voters(state: ShadowState) -> list[int]:
    election = state.election
    assert election is not None
    return [s for s in order(state) if s not in (election.emperor, election.rival) and election.votes[s] > 0]


def open_ballot(state: ShadowState) -> bool:
    state.ballots = {}
    state.tasks.extend(Task("vote", seat) for seat in voters(state))
    return False


def reveal(state: ShadowState) -> bool:
    """All ballots are in: turn them over together, count, and reward those who backed the winner."""
    election = state.election
    assert election is not None
    election.revealed = dict(state.ballots)
    state.ballots = {}
    election.emperor_total = election.votes[election.emperor]
    election.rival_total = election.votes[election.rival]
    for seat, choice in election.revealed.items():
        if choice == "emperor":
            election.emperor_total += election.votes[seat]
        else:
            election.rival_total += election.votes[seat]
    rival_wins = election.rival_total > election.emperor_total  # a tie keeps the emperor
    election.winner = election.rival if rival_wins else election.emperor
    news(state, {"type": "ballots", "choices": keyed(election.revealed), "emperor": election.emperor,
                 "rival": election.rival, "emperor_total": election.emperor_total,
                 "rival_total": election.rival_total, "winner": election.winner})
    backed = "rival" if rival_wins else "emperor"
    for seat, choice in sorted(election.revealed.items()):
        if choice == backed:
            news(state, *gain_vp(state, seat, RULES["vote_vp"], "votes"))
    return False


def crown_rival(state: ShadowState) -> bool:
    election = state.election
    assert election is not None
    if election.winner != election.rival:
        return False
    state.limbo, state.throne = state.throne, None
    state.emperor = election.rival
    news(state, tell(state, {"type": "new_emperor", "seat": election.rival, "old": election.emperor},
                     step("emperor marker", -1, front(election.emperor), front(election.rival))))
    if state.limbo is not None:
        old = state.limbo
        news(state, tell(state, {"type": "off_throne", "seat": old.owner, "kind": old.kind, "age": old.age},
                         carry(old, [THRONE], ASIDE)))
    news(state, *queue_throne(state, election.rival, "election", front=False))
    return False


def retire(state: ShadowState) -> bool:
    """The old emperor's tile goes to any electorate (pushing a knight), else to its supply."""
    tile = state.limbo
    if tile is None:
        return False
    if aristocrat_places(state):
        state.tasks.append(Task("retire", tile.owner))
    else:
        to_supply(state, "throne")
    return False


def to_supply(state: ShadowState, area: str) -> None:
    """The tile set aside finds no space: it goes back to its owner's supply."""
    tile = state.limbo
    assert tile is not None
    state.limbo = None
    state.seats[tile.owner].aristocrats += 1
    news(state, tell(state, {"type": "to_supply", "seat": tile.owner, "kind": tile.kind, "age": tile.age, "area": area},
                     carry(tile, ASIDE, supply_of(tile.owner))))


# --- VII the emperor's rights (§5.8) --------------------------------

def emperor_rights(state: ShadowState) -> bool:
    spec_ = BOARD.rounds[state.round - 1]
    seat = state.emperor
    if state.throne is None and not state.options["empty_throne_rights"]:
        news(state, {"type": "no_rights", "seat": seat, "round": state.round})  # §5.2, by option: nobody sits
        state.tasks.append(Task("confirm", seat))
        return False
    rights = {"type": "rights", "seat": seat, "round": state.round, "thalers": spec_.thalers}
    if state.options["vp_open"]:
        rights["vp"] = spec_.vp
    news(state, rights)
    if spec_.vp:
        news(state, *gain_vp(state, seat, spec_.vp, "emperor"))
    if spec_.thalers:
        news(state, *gain_thalers(state, seat, spec_.thalers, "emperor"))
    # Only rounds whose track gives an empire city ask the emperor about one; the others wait for Done.
    state.tasks.append(Task("rights" if spec_.empire_city != "none" else "confirm", seat))
    return False


PHASE_STEPS: dict[str, tuple[Step, ...]] = {
    "setup": (setup_next,),
    "income": (pay_income, confirm),
    "aging": (age_all, refill_throne, confirm),
    "descendants": (next_child, return_cards),
    "actions": (start_actions, next_turn),
    "electors": (gray_picks, mainz_before, next_contest, mainz_after, confirm),
    "election": (church_picks, count_votes, open_ballot, reveal, crown_rival, retire, confirm),
    "emperor": (emperor_rights,),
    "advance": (),  # VIII: the flow moves the round marker (rules._new_round)
    "over": (),
}
