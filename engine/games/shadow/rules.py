"""In the Shadow of the Emperor's rules as pure functions over `ShadowState` (rules/shadow.md, seeds 000/001).

Five rounds of eight phases: I income, II aging, III descendants, IV actions,
V new electors, VI the election (only when Rival was bought), VII the
emperor's rights, VIII the round marker. Round 1 starts at Phase IV, straight
after the start position is laid. The phases are the `FLOW`; the work inside
each is `phases.PHASE_STEPS`; the decisions are `decisions`.
"""

from __future__ import annotations

from typing import Any

from ...clone import clone
from ...errors import IllegalAction
from ...flow import Flow, Step
from ...game import Action, Result
from ...i18n import N_
from ...options import RuleOption, start_seat
from ...physical import BOX, step, tell, turn
from ...rng import Rng
from . import decisions
from .board import (ELECTOR, EMPIRE_SUPPLY, ROUND_TRACK, THALERS, aristocrats, carry, cities, front, knights,
                    on_board, stack, supply_of, vp_pile)
from .effects import vp_face
from .data import BOARD, CARDS
from .phases import PHASE_STEPS, rival_bought
from .state import EMPIRE, Electorate, Player, ShadowState

RULES = BOARD.rules

OPTIONS = (
    RuleOption("start_seat", -1, N_("The seat of the first Emperor (the start player); -1 draws it at random."),
               source='[HIGH] docs/rules/shadow.md §3 "Choose a start player": the start player, chosen at random, '
                      'is the Emperor'),
    RuleOption("vp_open", False, N_("Everyone sees every player's victory points (hidden by default)."),
               choices=(True, False), source='[LOW] docs/rules/shadow.md §7 "suggests VP cards are normally hidden"'),
    RuleOption("setup_city", "first", N_("When the Emperor places the first empire city: before or after the "
                                         "aristocrats and knights."), choices=("first", "last"),
               source='[MED] docs/rules/shadow.md §3 "The Emperor places 1 empire city" (UBG-R, MILLER)'),
    RuleOption("setup_couple", True, N_("The start position's 35-year-old tile is a Couple (false: a single "
                                        "Baron)."),
               choices=(True, False),
               source='[MED] docs/rules/shadow.md §3 "MILLER is the English source, so use a Couple"; '
                      '§10 "Couple vs Baron at 35"'),
    RuleOption("setup_young_baron", True, N_("The start position includes a 15-year-old Baron per player."),
               choices=(True, False),
               source='[MED] docs/rules/shadow.md §3 "Each player places a 15-year-old Baron"; '
                      '§10 "whether a 15-year-old Baron is also placed"'),
    RuleOption("setup_elector_vp", 0, N_("VP for each starting elector."),
               source='[ASSUMPTION] docs/rules/shadow.md §3 "no VP for these starting electors"'),
    RuleOption("setup_spread", False, N_("Each player's start-position tiles and knight go to electorates where "
                                         "that player has no piece yet (by default anywhere)."),
               choices=(True, False),
               source='[ASSUMPTION] docs/rules/shadow.md §3 "no restriction on which electorates are used"'),
    RuleOption("privilege_tile_votes", True, N_("An elector whose privilege was used this round still votes in "
                                                "the election (false: while its tile lies on the privilege space "
                                                "the seat counts as empty)."),
               choices=(True, False),
               source='[ASSUMPTION] docs/rules/shadow.md §2.3 "The tile still counts as that electorate\'s elector"; '
                      "the seed: an empty seat's vote is not counted"),
    RuleOption("empty_throne_rights", True, N_("An Emperor whose throne is empty keeps the round's rights and "
                                               "the empire cities' influence (false: an empty throne gives "
                                               "neither)."),
               choices=(True, False), source='[ASSUMPTION] docs/rules/shadow.md §5.2 "the throne stays empty"'),
    RuleOption("unborn_son_thaler", False, N_("A son who cannot be placed (no Baron in supply, no space) brings "
                                              "the nunnery's thaler, as a refused daughter does."),
               choices=(True, False),
               source='[ASSUMPTION] docs/rules/shadow.md §5.3 "you get no son and no compensation"'),
    RuleOption("repeat_proposals", False, N_("A refused daughter may be offered to another player's Baron "
                                             "(each player refuses her once at most) before the nunnery."),
               choices=(True, False),
               source='[ASSUMPTION] docs/rules/shadow.md §5.3 "only one marriage per daughter"'),
    RuleOption("repeat_cards", True, N_("A player may buy several cards of one type in a round."),
               choices=(True, False),
               source='[ASSUMPTION] docs/rules/shadow.md §5.5 "several cards of the same type"'),
    RuleOption("elector_counts", True, N_("The elector tile counts toward its owner's influence in its "
                                          "electorate."),
               choices=(True, False),
               source='[ASSUMPTION] docs/rules/shadow.md §5.6 "The current elector tile also counts"'),
    RuleOption("gray_eminence", "influence", N_("influence: the holder adds 1 influence in one electorate in "
                                                "Phase V; tiebreak: the holder breaks Phase V ties instead of the "
                                                "Emperor."),
               choices=("influence", "tiebreak"),
               source='[ASSUMPTION] docs/rules/shadow.md §6.2 "in Phase V the holder adds"; '
                      '§5.6 "A Gray eminence bonus"'),
    # Only a seated elector that does not count (elector_counts = false) leaves its electorate at 0 with a
    # seat to lose; an empty seat stays empty either way (phases.next_contest).
    RuleOption("no_influence", "keep", N_("Nobody has influence in an electorate (only possible with "
                                          "elector_counts = false): keep = nothing changes; tie = everyone "
                                          "ties at 0 and the Emperor chooses, so a seated elector stays only "
                                          "if its owner is chosen."),
               choices=("keep", "tie"),
               source='[ASSUMPTION] docs/rules/shadow.md §5.6 "If every player has 0 influence"; the seed: '
                      "the most influence wins, the Emperor breaks ties"),
    RuleOption("displaced_first", False, N_("The displaced elector finds its space before the new elector leaves "
                                            "its own (by default the new elector's freed space can take it)."),
               choices=(True, False),
               source='[ASSUMPTION] docs/rules/shadow.md §5.6 "the new elector leaves its aristocrat space first"'),
    RuleOption("mainz_after_changes", True, N_("Mainz's VP goes to its elector after Phase V's changes "
                                               "(false: before them)."), choices=(True, False),
               source='[ASSUMPTION] docs/rules/shadow.md §2.3 "MAINZ"'),
    RuleOption("church_count", "pieces", N_("What Church influence adds: pieces = 1 per aristocrat tile and "
                                            "knight of the elector's colour in the archdiocese; influence = that "
                                            "colour's Phase V influence there."),
               choices=("pieces", "influence"),
               source='[ASSUMPTION] docs/rules/shadow.md §5.7 "count that colour\'s aristocrats"'),
    RuleOption("church_count_elector", False, N_("Church influence also counts the elector tile itself."),
               choices=(True, False),
               source='[ASSUMPTION] docs/rules/shadow.md §5.7 "the elector tile itself is excluded"'),
    RuleOption("rival_needs_heir", False, N_("Rival may only be taken by a player who could fill the throne "
                                             "(by default anyone but the Emperor may take it; a Rival elected "
                                             "with no tile to put there leaves the throne empty)."),
               choices=(True, False),
               source='[ASSUMPTION] docs/rules/shadow.md §5.7 "The seed does not limit who may take Rival"'),
    RuleOption("trier_copy_counts", False, N_("A card copied with Trier's privilege counts for descendants."),
               choices=(True, False), source='[ASSUMPTION] docs/rules/shadow.md §2.3 "TRIER"'),
    RuleOption("doctor_targets", "any", N_("Whom the Doctor and Cologne's privilege may turn: any = every "
                                           "aristocrat on the board, electors and the Emperor included; spaces = "
                                           "only tiles on aristocrat spaces."),
               choices=("any", "spaces"),
               source='[ASSUMPTION] docs/rules/shadow.md §6.2 "Any aristocrat on the board is a legal target"'),
    RuleOption("permit_where", "any", N_("Where a Permit builds: any = any empty city space; present = only in "
                                         "an electorate where the builder has an aristocrat."),
               choices=("any", "present"),
               source='[ASSUMPTION] docs/rules/shadow.md §6.2 "any empty city space on the board"'),
    RuleOption("kings_daughter", "flip", N_("What the Foreign king's daughter does: flip = one of your single "
                                           "Barons becomes a Couple; new_couple = a new Couple from your supply "
                                           "goes on an aristocrat space."),
               choices=("flip", "new_couple"),
               source='[ASSUMPTION] docs/rules/shadow.md §6.2 "place a new Couple from supply"'),
    RuleOption("promotion_side", "baron", N_("What Promotion puts in place of your knight: baron = a single Baron; "
                                            "couple = a Couple."),
               choices=("baron", "couple"),
               source='[ASSUMPTION] docs/rules/shadow.md §6.2 "a Couple in the knight\'s place"'),
    RuleOption("knight_card_pushes", False, N_("The Knight card may also put your knight on an aristocrat space "
                                              "holding another player's knight, who goes back to supply."),
               choices=(True, False),
               source='[ASSUMPTION] docs/rules/shadow.md §6.2 "may displace an opponent\'s knight"'),
    RuleOption("empire_city_optional", True, N_("The Emperor may decline the empire-city action of Phase VII."),
               choices=(True, False),
               source='[MED] docs/rules/shadow.md §5.8 "The seed phrases the city actions as optional"; '
                      "BGG-E disputes it"),
    RuleOption("tiebreak", "shared", N_("Tied on VP: shared = the tied players share the win; thalers = most "
                                        "thalers left wins, then a shared win."), choices=("shared", "thalers"),
               source='[HIGH] docs/rules/shadow.md §8 "Tie-break: none": the seed says only '
                      "'分數最高者獲勝' (the highest score wins), so a tie is shared"),
)


# --- setup ---------------------------------------------------------------------------

def setup(players: int, rng: Rng, options: dict[str, Any]) -> ShadowState:
    start = start_seat(options["start_seat"], players, rng)
    pieces = BOARD.pieces
    state = ShadowState(
        phase="setup", players=players, options=dict(options), rng=rng, round=1, emperor=start, throne=None,
        electorates=[Electorate(e.id, None, [None] * e.aristocrat_spaces, [None] * e.castle_spaces,
                                [None] * e.city_spaces) for e in BOARD.electorates],
        seats=[Player(thalers=RULES["start_thalers"], aristocrats=pieces["aristocrats"], knights=pieces["knights"],
                      cities=pieces["cities"], chip=RULES["start_thalers"]) for _ in range(players)],
        stacks={c.id: c.copies[players] for c in CARDS.values()},
        empire_supply=pieces["empire_cities"],
    )
    state.news.append(tell(state, {"type": "setup"}, *setup_moves(state)))
    state.news.append(tell(state, {"type": "emperor_chosen", "seat": start}, step("emperor marker", -1, BOX, front(start))))
    run(state)
    state.changes, state.news = state.news, []
    return state


def setup_moves(state: ShadowState) -> list[dict[str, Any]]:
    """What comes out of the box before the start position is laid."""
    pieces = BOARD.pieces
    moves = [step("round marker", -1, BOX, ROUND_TRACK, value=(None, state.round))]
    for seat, player in enumerate(state.seats):
        moves += [step("thaler marker", seat, BOX, THALERS, value=(None, player.thalers)),
                  step("chip", seat, BOX, THALERS, value=(None, player.chip))]
    moves += [step("card", -1, BOX, stack(card), ("", "up"), (card, card), count=n)
              for card, n in state.stacks.items() if n]
    moves.append(step("city", -1, BOX, EMPIRE_SUPPLY, count=pieces["empire_cities"]))
    for seat in range(state.players):
        moves += [step("tile", seat, BOX, supply_of(seat), count=pieces["aristocrats"]),
                  step("knight", seat, BOX, supply_of(seat), count=pieces["knights"]),
                  step("city", seat, BOX, supply_of(seat), count=pieces["cities"])]
        face = vp_face(state)
        moves.append(step("vp cards", seat, BOX, vp_pile(seat), ("", face), (None, 0)))
    return moves


# --- who decides, and what ---------------------------------------------------------------

def pending(state: ShadowState) -> list[int]:
    return decisions.pending(state)


def legal_actions(state: ShadowState, seat: int) -> list[Action]:
    task = decisions.task_of(state, seat)
    return decisions.choices(state, task) if task is not None else []


def perform(state: ShadowState, action: Action) -> list[dict[str, Any]]:
    """Apply the action, then let the phases run until the next decision; return every public event."""
    if action["do"] not in decisions._HANDLERS:
        raise IllegalAction(f"Shadow has no action {action['do']!r}")
    state.news = []
    state.moves = []
    state.news.extend(decisions.carry_out(state, action))
    run(state)
    FLOW.settle(state)
    events, state.news = state.news, []
    state.changes = list(events)
    return events


def keep_events(state: ShadowState, events: list[dict[str, Any]]) -> None:
    """Keep `events` as the last action's public events (an undo's, which tell its reversal)."""
    state.changes = events


def phase_done(state: ShadowState) -> bool:
    return not state.tasks and state.cursor >= len(PHASE_STEPS[state.phase])


def run(state: ShadowState) -> None:
    """Work through the current phase's steps until a seat must decide or the phase is done.

    A forced decision with a single legal action (the only space for a son, the
    only tile that can take the throne) is taken at once, without a button press.
    """
    steps = PHASE_STEPS[state.phase]
    while True:
        if state.tasks:
            task = state.tasks[0]
            if task.kind in decisions.FORCED:
                only = decisions.choices(state, task)
                assert only, f"a {task.kind} decision with no legal action"
                if len(only) == 1:
                    state.news.extend(decisions.carry_out(state, only[0]))
                    continue
            return
        if state.cursor >= len(steps):
            return
        if not steps[state.cursor](state):
            state.cursor += 1
            state.index = 0


# --- the flow ------------------------------------------------------------------------

def _enter(state: ShadowState) -> None:
    state.cursor = state.index = 0
    state.news.append({"type": "phase", "phase": state.phase, "round": state.round})
    run(state)


def _new_round(state: ShadowState) -> None:
    """Phase VIII: the round marker moves on; privilege tiles go back onto their elector spaces."""
    back = [carry(e.elector, [e.id, "privilege"], [e.id, ELECTOR]) for e in state.electorates
            if e.used and e.elector is not None]
    state.round += 1
    for e in state.electorates:
        e.used = False
    state.picks = []
    state.election = None
    moves = [turn("round marker", -1, ROUND_TRACK, value=(state.round - 1, state.round))] + back
    state.news.append(tell(state, {"type": "round", "round": state.round}, *moves))
    _enter(state)


def _game_over(state: ShadowState) -> None:
    """The game ends: hidden VP cards are turned up and counted."""
    shown = [] if state.options["vp_open"] else [
        turn("vp cards", seat, vp_pile(seat), ("down", "up"), (p.vp, p.vp)) for seat, p in enumerate(state.seats)]
    state.news.append(tell(state, {"type": "game_over", "round": state.round}, *shown))


def _last_round(state: ShadowState) -> bool:
    return state.round >= RULES["rounds"]


PHASES = ("setup", "income", "aging", "descendants", "actions", "electors", "election", "emperor", "advance",
          "over")
FLOW = Flow(
    phases=PHASES,
    initial="setup",
    steps=(
        Step("setup", "actions", when=(phase_done,), after=_enter,
             doc="start position laid: round 1 begins at Phase IV"),
        Step("income", "aging", when=(phase_done,), after=_enter, doc="I income -> II aging"),
        Step("aging", "descendants", when=(phase_done,), after=_enter, doc="II aging -> III descendants"),
        Step("descendants", "actions", when=(phase_done,), after=_enter, doc="III descendants -> IV actions"),
        Step("actions", "electors", when=(phase_done,), after=_enter, doc="everyone passed: V new electors"),
        Step("electors", "election", when=(phase_done, rival_bought), after=_enter,
             doc="Rival was bought: VI the election"),
        Step("electors", "emperor", when=(phase_done,), after=_enter, doc="no Rival: VI is skipped"),
        Step("election", "emperor", when=(phase_done,), after=_enter, doc="VI -> VII the emperor's rights"),
        Step("emperor", "advance", when=(phase_done,), after=_enter, doc="VII -> VIII the round marker"),
        Step("advance", "over", when=(phase_done, _last_round), after=_game_over, doc="after round five"),
        Step("advance", "income", when=(phase_done,), after=_new_round, doc="the next round begins"),
    ),
)


# --- the end ---------------------------------------------------------------------------

REDEAL_SPREAD = 6  # how far from its own VP a seat imagines another's
VP_SOURCES = ("emperor", "electors", "votes", "cities", "marriages", "mainz", "indulgence")


def result(state: ShadowState) -> Result | None:
    if state.phase != "over":
        return None
    scores = {s: p.vp for s, p in enumerate(state.seats)}
    breakdown = {}
    for seat, player in enumerate(state.seats):
        parts = {source: player.vp_from.get(source, 0) for source in VP_SOURCES}
        parts.update({k: v for k, v in player.vp_from.items() if k not in parts})
        parts["thalers"] = player.thalers
        breakdown[seat] = parts
    best = max(scores.values())
    tied = [s for s, v in scores.items() if v == best]
    reason = "most VP"
    if len(tied) > 1 and state.options["tiebreak"] == "thalers":
        most = max(state.seats[s].thalers for s in tied)
        tied = [s for s in tied if state.seats[s].thalers == most]
        reason = "most VP, then most thalers"
    return Result(scores=scores, winners=tuple(tied), breakdown=breakdown, reason=reason)


# --- for tests: re-draw what a seat cannot know, check conservation -----------------------

def redeal(state: ShadowState, seat: int, rng: Rng) -> ShadowState:
    """Re-draw other players' hidden VP (and where it came from) and their ballots not yet revealed.

    A seat that cannot see another's VP knows only its own: each other total
    is drawn within a few points of it. The draws depend on what `seat` knows
    alone, so two states it cannot tell apart give the same re-drawn state.
    """
    new = clone(state)
    own = new.seats[seat].vp
    for other, player in enumerate(new.seats):
        if other == seat:
            continue
        if not new.options["vp_open"]:
            total = max(0, own - REDEAL_SPREAD + rng.below(2 * REDEAL_SPREAD + 1))
            keys = list(VP_SOURCES)
            split = {k: 0 for k in keys}
            for _ in range(total):
                split[rng.choice(keys)] += 1
            player.vp, player.vp_from = total, {k: v for k, v in split.items() if v}
        if other in new.ballots:
            new.ballots[other] = rng.choice(["emperor", "rival"])
    new.rng.state = rng.next64()
    return new


def check_invariants(state: ShadowState) -> None:
    pieces = BOARD.pieces
    cap = RULES["thaler_cap"]
    for seat, player in enumerate(state.seats):
        placed = on_board(state, seat)
        for kind in ("aristocrats", "knights", "cities"):
            supply = getattr(player, kind)
            assert supply >= 0, f"seat {seat} has {supply} {kind} in supply"
            assert placed[kind] + supply == pieces[kind], f"seat {seat}'s {kind} are not all accounted for"
        assert 0 <= player.thalers <= cap, f"seat {seat} has {player.thalers} thalers"
        assert player.vp == sum(player.vp_from.values()) and player.vp >= 0, f"seat {seat}'s VP do not add up"
    empire = sum(1 for _, _, owner in cities(state) if owner == EMPIRE)
    assert empire + state.empire_supply == pieces["empire_cities"], "the empire cities are not all accounted for"
    for card in CARDS.values():
        held = sum(p.cards.count(card.id) for p in state.seats)
        assert state.stacks[card.id] >= 0, f"the {card.id} stack is negative"
        assert state.stacks[card.id] + held == card.copies[state.players], f"the {card.id} cards do not add up"
    ages = RULES["ages"]
    for area, spot, tile in aristocrats(state):
        assert tile.kind in ("baron", "couple") and tile.age in ages, f"bad tile at {area} {spot}"
    for e in state.electorates:
        if e.elector is not None and BOARD.electorate(e.id).single_elector:
            assert e.elector.kind == "baron", f"{e.id}'s elector must be a single Baron"
        assert all(p is None or p.kind == "knight" for p in e.castles), f"only knights stand in {e.id}'s castles"
    assert all(p.kind == "knight" and p.age == 0 for _, _, p in knights(state))
