"""Shadow in words: the table's prompts, and a seat's header, panel, question and menu labels.

Every function reads a view (or a public event), never the state, so a screen
cannot show what its seat may not know. Menu labels fit one 19-character line
where the names allow; a screen cuts what does not fit.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...game import Prompt, taken_back_line, waiting_line
from ...i18n import N_, _, ngettext
from ...physical import event_moves
from .data import BOARD, CARDS, PRIVILEGES

ROMAN = {"setup": "Setup", "income": "I", "aging": "II", "descendants": "III", "actions": "IV",
         "electors": "V", "election": "VI", "emperor": "VII", "advance": "VIII", "over": ""}


def phase_title(phase: str) -> str:
    return {
        "setup": _("Setup"), "income": _("Income"), "aging": _("Aging"), "descendants": _("Descendants"),
        "actions": _("Actions"), "electors": _("New electors"), "election": _("Election"),
        "emperor": _("Emperor's rights"), "advance": _("Round marker"), "over": _("Game over"),
    }.get(phase, phase)


def area_name(area: str) -> str:
    if area == "throne":
        return _("the throne")
    if area == "supply":
        return _("supply")
    return _(BOARD.electorate(area).name)


def kind_name(kind: str) -> str:
    return {"baron": _("Baron"), "couple": _("Couple"), "knight": _("knight")}.get(kind, kind)


def tile(p: dict[str, Any] | None, names: Sequence[str], owner: bool = True) -> str:
    """'Red B45', 'Blue C35', 'Red knight' (without the owner: 'B45')."""
    if p is None:
        return _("empty")
    short = _("knight") if p["kind"] == "knight" else f"{'C' if p['kind'] == 'couple' else 'B'}{p['age']}"
    return f"{names[p['owner']]} {short}" if owner else short


def tile_long(kind: str, age: int) -> str:
    return kind_name(kind) if kind == "knight" else f"{kind_name(kind)} {age}"


def place_name(area: str, spot: str) -> str:
    """'Mainz elector', 'Mainz space 2', 'Mainz castle', 'Mainz city 1', 'the throne'."""
    if area in ("throne", "supply") or not spot:
        return area_name(area)
    where = area_name(area)
    if spot == "elector":
        return _("{area} elector").format(area=where)
    number = int(spot[1:]) + 1
    if spot[0] == "a":
        return _("{area} space {n}").format(area=where, n=number)
    if spot[0] == "k":
        return _("{area} castle").format(area=where)
    return _("{area} city {n}").format(area=where, n=number)


def card_name(card: str) -> str:
    return _(CARDS[card].name)


def card_short(card: str) -> str:
    return _(CARDS[card].short)


def piece_at(view: dict[str, Any], area: str, spot: str) -> dict[str, Any] | None:
    if area == "throne":
        return view["throne"]
    for e in view["electorates"]:
        if e["id"] == area:
            if spot == "elector":
                return e["elector"]
            return (e["spaces"] if spot[0] == "a" else e["castles"])[int(spot[1:])]
    return None


def who(names: Sequence[str], seat: int) -> str:
    return _("the empire") if seat < 0 else names[seat]


# --- the seat's screen ---------------------------------------------------------------

def header(view: dict[str, Any], names: Sequence[str]) -> str:
    """Round, phase and whose decision it is; short enough to follow the seat's name."""
    if view["over"]:
        return _("Game over")
    pending = view["pending"]
    turn = names[pending[0]] if len(pending) == 1 else (_("ballot") if pending else "")
    if view["phase"] == "setup":
        return f"{_('Setup')} {turn}".rstrip()
    return f"R{view['round']} {ROMAN[view['phase']]} {turn}".rstrip()


def panel(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    seat, me = view["seat"], view["me"]
    player = view["players"][seat]
    if view["over"]:
        return final_panel(view, names)
    first = _("{t} thalers  {v} VP").format(t=player["thalers"], v=me["vp"])
    if view["emperor"] == seat:
        first += " " + _("Emp")
    held = player["cards"] + player["copies"]
    counted = {c: held.count(c) for c in dict.fromkeys(held)}
    listed = " ".join(f"{_(CARDS[c].abbr)}{n if n > 1 else ''}" for c, n in counted.items())
    cards = _("Cards {cards}").format(cards=listed or "-")
    if len(cards) > 21:  # the seat's own card list matters more than the word
        cards = listed
    lines = [first, cards]
    if seat in view["pending"]:
        return lines  # the question needs the room
    election = view["election"]
    if view["phase"] == "election" and election is not None:
        ballot = me["ballot"] or election["revealed"].get(seat, election["revealed"].get(str(seat)))
        mine = _("Votes {n}").format(n=election["votes"].get(seat, election["votes"].get(str(seat), 0)))
        if ballot:
            mine += " " + _("for {name}").format(name=names[election[ballot]])
        lines.append(mine)
    else:
        lines.append(_("Supply B{a} K{k} C{c}").format(a=player["aristocrats"], k=player["knights"],
                                                      c=player["cities"]))
    return lines


# Where VP came from, as the final screen writes it short, and in words.
VP_SHORT = {"emperor": (N_("Em"), N_("the throne")), "electors": (N_("El"), N_("electors")),
            "votes": (N_("Vo"), N_("votes")), "cities": (N_("Ci"), N_("cities")),
            "marriages": (N_("Wd"), N_("weddings")), "mainz": (N_("Mz"), N_("Mainz")),
            "indulgence": (N_("In"), N_("indulgences"))}


def vp_short(source: str) -> str:
    """A VP source on the final screen: its short word, or a card's abbreviation (a card the data gives VP)."""
    if source in VP_SHORT:
        return _(VP_SHORT[source][0])
    return _(CARDS[source].abbr) if source in CARDS else source[:2]


def final_panel(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    """Every seat's score, two to a line, then where this seat's points came from."""
    over = view["over"]
    cells = [f"{names[int(s)][:3]} {v}" for s, v in over["scores"].items()]
    lines = ["  ".join(cells[i:i + 2]) for i in range(0, len(cells), 2)]
    parts = over["breakdown"][str(view["seat"])]
    mine = " ".join(f"{vp_short(k)}{v}" for k, v in parts.items() if k != "thalers" and v)
    return lines + [mine or _("no VP")]


def ask(view: dict[str, Any], names: Sequence[str], choosing: str = "") -> str:
    """What the seat must decide now, or whom it waits for."""
    seat = view["seat"]
    if view["over"]:
        return _("Winner: {names}").format(names=", ".join(names[w] for w in view["over"]["winners"]))
    if seat not in view["pending"]:
        if view["me"]["ballot"]:
            return _("Your vote is in. Waiting")
        return waiting_line(view["pending"], names)
    task = view["task"]
    kind = task["kind"]
    if kind == "vote":
        election = view["election"]
        return _("Secret vote: {e} or {r}?").format(e=names[election["emperor"]], r=names[election["rival"]])
    if kind == "setup":
        what = task["piece"]
        if what == "city":
            return _("Place the first empire city")
        if what == "elector":
            return _("Your Baron 45 as elector:")
        if what == "knight":
            return _("Place your knight")
        return _("Place your {tile}").format(tile=tile_long(what, task["age"]))
    if kind == "answer":
        groom = piece_at(view, task["area"], task["spot"])
        return _("Marry {name}'s daughter to your {tile}?").format(
            name=names[task["other"]], tile=tile(groom, names, owner=False))
    if kind == "tie":
        return _("Tie in {area}: who wins?").format(area=area_name(task["area"]))
    if kind == "elect":
        return _("Your elector in {area}?").format(area=area_name(task["area"]))
    if kind in FIRST_WHAT and choosing and choosing != "do":
        # a step past what to do asks its own question (never _(""): a catalog answers that with its header)
        return _(FIELD_ASKS[choosing]) if choosing in FIELD_ASKS else _("Choose:")
    return {
        "confirm": _("Board updated? Press Done"),
        "crown": _("Who takes the throne?"),
        "son": _("A son! Place a Baron 15"),
        "daughter": _("A daughter: whom to marry?"),
        "turn": _("Your turn: act or pass"),
        "gray": _("Gray eminence: +1 where?"),
        "return": _("Old elector: push a knight?"),
        "church": _("Church influence: where?"),
        "excommunicate": _("Excommunicate where?"),
        "retire": _("Place your old emperor"),
        "rights": (_("Emperor: move a city?") if BOARD.rounds[view["round"] - 1].empire_city == "move"
                   else _("Emperor: empire city?")),
    }.get(kind, kind)


# Decisions whose menu first asks what to do; each later step asks its own question.
FIRST_WHAT = ("turn", "son", "retire", "return", "crown", "rights", "daughter")
FIELD_ASKS = {"card": N_("Which card?"), "privilege": N_("Which privilege?"), "area": N_("Which electorate?"),
              "spot": N_("Which space?"), "from_area": N_("From which electorate?"),
              "from_spot": N_("From which space?")}


def label(view: dict[str, Any], key: str, value: Any, names: Sequence[str], chosen: dict[str, Any]) -> str:
    """Name one menu choice; `chosen` holds the fields picked above it."""
    if key == "do" and value in ("accept", "refuse") and view["task"]:
        where = area_name(view["task"]["area"])
        return _("Yes ({area})").format(area=where[:9]) if value == "accept" else _("No (nunnery)")
    if key == "do" and value == "keep":
        return _("Keep him back") if view["task"] and view["task"]["kind"] == "son" else _("Take him back")
    if key == "do":
        return {
            "leave_empty": _("Leave it empty"), "place": _("Place"), "done": _("Done"), "crown": _("Crown"), "son": _("Place the son"),
            "propose": _("Propose marriage"), "nunnery": _("Nunnery (+1)"), "accept": _("Accept"),
            "refuse": _("Refuse"), "buy": _("Buy a card"), "privilege": _("Use a privilege"),
            "knight": _("Knight (1)"), "pass": _("Pass"), "gray": _("Choose"), "church": _("Choose"),
            "excommunicate": _("Choose"), "tie": _("Choose"), "elect": _("Seat elector"),
            "return": _("Push knight"), "vote": _("Vote"), "retire": _("Place"),
            "empire_city": _("Empire city"), "move_city": _("Move a city"),
        }.get(value, str(value))
    if key == "card":
        card = CARDS[value]
        cost = card.cost
        if card.costs:  # a Permit costs more for each city already built
            built = BOARD.pieces["cities"] - view["players"][view["seat"]]["cities"]
            cost = card.costs[min(built, len(card.costs) - 1)]
        return f"{card_short(value)} ({cost})"
    if key == "privilege":
        return _(PRIVILEGES[value].name)
    if key == "from_area":
        return _("from supply") if value == "supply" else _("from {area}").format(area=area_name(value))
    if key == "area":
        if value == "supply":
            return _("from supply")
        name = area_name(value)
        if value == "throne":
            return _("The throne")
        return _("to {area}").format(area=name) if "from_area" in chosen else name
    if key in ("spot", "from_spot"):
        area = chosen.get("area" if key == "spot" else "from_area", view["task"]["area"] if view["task"] else "")
        return spot_label(view, area, value, names, chosen)
    if key == "winner":
        return names[value]
    if key == "for":
        election = view["election"]
        return _("{name} (emperor)").format(name=names[election["emperor"]]) if value == "emperor" else \
            _("{name} (rival)").format(name=names[election["rival"]])
    return f"{key}={value}"


def spot_label(view: dict[str, Any], area: str, spot: str, names: Sequence[str], chosen: dict[str, Any]) -> str:
    if spot == "":
        return area_name(area)
    if spot[0] == "c":
        return _("city space {n}").format(n=int(spot[1:]) + 1)
    there = piece_at(view, area, spot)
    if spot == "elector":
        return _("El. {tile}").format(tile=tile(there, names)) if there else _("elector space")
    if spot[0] == "k":
        return _("castle: {who}").format(who=_("you") if there["owner"] == view.get("seat") else names[there["owner"]][:3]) if there else _("castle")
    if there is None:
        return _("free space")
    card = chosen.get("card")
    target_itself = key_is_from(chosen, area) or (card is not None and CARDS[card].effect == "promotion")
    if there["kind"] == "knight" and not target_itself:  # numbered: two spaces may hold one player's knights
        return _("{n}: push {name} kn.").format(n=int(spot[1:]) + 1, name=names[there["owner"]][:3])
    return _("{n}: {tile}").format(n=int(spot[1:]) + 1, tile=mine_or(there, view, names))


def mine_or(p: dict[str, Any], view: dict[str, Any], names: Sequence[str]) -> str:
    """'your B25' for the seat's own piece, else 'Blue B25'."""
    if p["owner"] == view.get("seat"):
        return _("your {tile}").format(tile=tile(p, names, owner=False))
    return tile(p, names)


def key_is_from(chosen: dict[str, Any], area: str) -> bool:
    """True while the menu asks for the piece that moves (its destination comes after)."""
    return "from_area" in chosen and "area" not in chosen


# --- public events ---------------------------------------------------------------------

def describe_event(event: dict[str, Any], names: Sequence[str]) -> str:
    """One public event in words, on one line; an event that changes the real table says its steps."""
    return "; ".join(event_parts(event, names))


def event_parts(event: dict[str, Any], names: Sequence[str]) -> list[str]:
    """One public event in words, a line each: its sentence, or what it is and then its steps
    (the setup as a table lays it out)."""
    kind = event["type"]
    seat = event.get("seat", 0)
    name = who(names, seat) if isinstance(seat, int) else ""
    if kind == "setup":
        return setup_lines(event["moves"], names)
    if kind in SAID:
        return [SAID[kind](event, names, name)]
    if event.get("moves"):
        head = headline(event, names, name)
        return ([head] if head else []) + move_lines(event["moves"], names)
    return [sentence(event, names, name)]


def sentence(event: dict[str, Any], names: Sequence[str], name: str) -> str:
    """An event that changes nothing on the real table, in a sentence."""
    kind = event["type"]
    if kind == "phase":
        return _("Round {r}, Phase {n}: {title}").format(r=event["round"], n=ROMAN[event["phase"]],
                                                         title=phase_title(event["phase"]))
    if kind == "pushed":
        return _("{who}'s knight on {place} goes back to supply").format(
            who=name, place=place_name(event["area"], event["spot"]))
    if kind == "proposal":
        return _("{who} offers a daughter to {to}'s Baron {age} on {place}").format(
            who=name, to=names[event["to"]], age=event["age"], place=place_name(event["area"], event["spot"]))
    if kind == "refused":
        return _("{who} refuses {bride}'s daughter").format(who=name, bride=names[event["bride"]])
    if kind == "nunnery":
        return _("{who}'s daughter enters a nunnery").format(who=name)
    if kind == "no_child":
        if event["reason"] == "no_room":
            return _("{who}: a son, but no Baron or space for him").format(who=name)
        return _("{who}: no blue or red card, no child").format(who=name)
    if kind == "rival":
        return _("{who} is the Rival: an election follows; {who} is done for Phase IV").format(who=name)
    if kind == "passed":
        return _("{who} passes").format(who=name)
    if kind == "pick":
        if event["kind"] == "gray":
            return _("{who}'s Gray eminence: +1 influence in {area}").format(who=name, area=area_name(event["area"]))
        if event["kind"] == "church":
            return _("{who}'s Church influence: {area}").format(who=name, area=area_name(event["area"]))
        return _("{who} excommunicates {area}'s elector").format(who=name, area=area_name(event["area"]))
    if kind == "influence":
        scores = ", ".join(f"{names[int(s)]} {v}" for s, v in event["scores"].items() if v)
        return _("{area} influence: {scores}").format(area=area_name(event["area"]), scores=scores or _("none"))
    if kind == "tie":
        return _("{area}: tie between {seats}; {breaker} decides").format(
            area=area_name(event["area"]), seats=", ".join(names[s] for s in event["seats"]),
            breaker=names[event["breaker"]])
    if kind == "tie_broken":
        return _("{who} gives {area} to {winner}").format(who=name, area=area_name(event["area"]),
                                                          winner=names[event["winner"]])
    if kind == "holds":
        return _("{area}: {who} keeps the elector").format(area=area_name(event["area"]), who=name)
    if kind == "no_candidate":
        return _("{area}: {who} has no tile that may sit; the elector space is empty").format(
            area=area_name(event["area"]), who=name)
    if kind == "votes":
        counts = ", ".join(f"{names[int(s)]} {v}" for s, v in event["votes"].items())
        return _("Votes: {counts}. {r} challenges {e}").format(counts=counts, r=names[event["rival"]],
                                                               e=names[event["emperor"]])
    if kind == "voted":
        return _("{who} has voted").format(who=name)
    if kind == "ballots":
        chosen = ", ".join(f"{names[int(s)]}: {names[event[c]]}" for s, c in event["choices"].items())
        return _("Ballots turned up ({chosen}): {e} {et}, {r} {rt}. {winner} is Emperor").format(
            chosen=chosen or _("none"), e=names[event["emperor"]], et=event["emperor_total"],
            r=names[event["rival"]], rt=event["rival_total"], winner=names[event["winner"]])
    if kind == "throne_empty":
        if event.get("chosen"):
            return _("{who} leaves the throne empty").format(who=name)
        return _("{who} has no tile for the throne: it stays empty").format(who=name)
    if kind == "son_kept":
        return _("{who} keeps the son back: no Baron is placed").format(who=name)
    if kind == "rights":
        return _("Emperor {who}'s rights for round {r}").format(who=name, r=event["round"])
    if kind == "no_rights":
        return _("Emperor {who}'s throne is empty: no rights in round {r}").format(who=name, r=event["round"])
    if kind == "game_over":
        return _("The game ends after round {r}").format(r=event["round"])
    if kind == "undo":
        return taken_back_line(event, names, ACTIONS)
    if kind == "done":
        return _("{who}: done").format(who=name)
    return kind


def headline(event: dict[str, Any], names: Sequence[str], name: str) -> str:
    """What an event that changes the table is, told before its steps (empty when the steps say it all)."""
    kind = event["type"]
    if kind == "bought":
        return _("{who} buys {card} for {cost}").format(who=name, card=card_name(event["card"]), cost=event["cost"])
    if kind == "copied":
        return _("{who} uses {card} (sold out) for {cost}").format(who=name, card=card_name(event["card"]),
                                                                   cost=event["cost"])
    if kind == "taken":
        return _("{who} takes the {card} card").format(who=name, card=card_name(event["card"]))
    if kind == "privilege":
        return _("{who} uses the {area} privilege").format(who=name, area=area_name(event["area"]))
    if kind == "placed" and event["reason"] == "son":
        return _("{who}'s son").format(who=name)
    if kind == "placed" and event["reason"] == "old_emperor":
        return _("{who}'s old emperor").format(who=name)
    if kind == "round":
        return _("Round {r} begins").format(r=event["round"])
    if kind == "game_over":
        return _("The game ends after round {r}").format(r=event["round"])
    if kind == "undo":
        return taken_back_line(event, names, ACTIONS)
    return ""


ACTIONS = {"place": N_("placement"), "done": N_("Done"), "crown": N_("choice for the throne"),
           "son": N_("son's placement"), "propose": N_("marriage offer"), "nunnery": N_("nunnery"),
           "accept": N_("yes to the marriage"), "refuse": N_("refusal"), "buy": N_("purchase"),
           "privilege": N_("privilege"), "knight": N_("knight action"), "pass": N_("pass"),
           "gray": N_("Gray eminence choice"), "church": N_("Church influence choice"),
           "excommunicate": N_("excommunication"), "tie": N_("tie-break"), "elect": N_("elector choice"),
           "return": N_("knight push"), "vote": N_("vote"), "retire": N_("old emperor's placement"),
           "empire_city": N_("empire city"), "move_city": N_("empire city move"),
           "leave_empty": N_("choice to leave the throne empty"), "keep": N_("choice not to place")}


def _thalers(event: dict[str, Any], names: Sequence[str], name: str) -> str:
    if not event["amount"]:
        return _("{who}: thalers stay at {total}").format(who=name, total=event["total"])
    text = _("{who}: move your thaler marker up {n} to {total}").format(who=name, n=event["amount"],
                                                                       total=event["total"])
    if event["reason"] == "income":
        text = _("{who}: income {income}: move your thaler marker to {total}").format(
            who=name, income=event["income"], total=event["total"])
    if event["lost"]:
        text += " " + _("({n} over 12 lost)").format(n=event["lost"])
    return text


def _vp(event: dict[str, Any], names: Sequence[str], name: str) -> str:
    why = vp_reason(event["reason"])
    if "amount" in event:  # VP played open
        return _("{who} takes {n} VP ({why})").format(who=name, n=event["amount"], why=why)
    return _("{who} takes VP cards ({why}), face down: {who}'s screen shows the new total").format(who=name, why=why)


def _aging(event: dict[str, Any], names: Sequence[str], name: str) -> str:
    return ngettext("Turn the {n} tile left on the board a quarter turn clockwise: one age step older",
                    "Turn each of the {n} tiles left on the board a quarter turn clockwise: one age step older",
                    len(event.get("moves", ()))).format(n=len(event.get("moves", ())))


def _emperor_chosen(event: dict[str, Any], names: Sequence[str], name: str) -> str:
    return _("{who} is the first Emperor: take the emperor marker").format(who=name)


# Events told in a sentence of their own, which says their steps.
SAID = {"thalers": _thalers, "vp": _vp, "aging": _aging, "emperor_chosen": _emperor_chosen}


def setup_lines(moves: Sequence[dict[str, Any]], names: Sequence[str]) -> list[str]:
    """What comes out of the box, told as a table lays it out."""
    stacks = [m for m in moves if m["dst"][0] == "stack"]
    markers = [m for m in moves if m["what"] == "thaler marker"]
    lines = [_("Put the round marker on round 1"),
             _("Put every thaler marker on {n}, each coloured chip beside it").format(
                 n=markers[0]["value"][1] if markers else 0),
             _("Sort the victory point cards into their three piles"),
             _("Action cards: {cards}; the rest stay in the box").format(
                 cards=", ".join(f"{card_name(m['value'][1])} x{m['count']}" for m in stacks)),
             _("Put the {n} empire cities beside the board").format(
                 n=sum(m["count"] for m in moves if m["what"] == "city" and m["owner"] < 0))]
    supplies = {}
    for m in moves:
        if m["dst"][0] == "supply":
            supplies.setdefault(m["owner"], {})[m["what"]] = m["count"]
    for seat, held in supplies.items():
        lines.append(_("{who}: take your {a} tiles, {k} knights and {c} cities").format(
            who=names[seat], a=held.get("tile", 0), k=held.get("knight", 0), c=held.get("city", 0)))
    return lines


# --- the real table's steps, in words ----------------------------------------------

def where_name(place: Sequence[Any], names: Sequence[str]) -> str:
    """A place on the real table: 'Mainz space 2', 'the Mainz privilege space', 'Red's supply'."""
    kind = place[0]
    if kind == "throne":
        return _("the throne")
    if kind == "aside":
        return _("aside")
    if kind == "supply":
        return _("{who}'s supply").format(who=names[place[1]])
    if kind == "empire supply":
        return _("the empire city supply")
    if kind == "front":
        return _("in front of {who}").format(who=names[place[1]])
    if kind == "stack":
        return _("the {card} stack").format(card=card_name(place[1]))
    if kind == "vp":
        return _("{who}'s VP cards").format(who=names[place[1]])
    if kind in BOARD.ids:
        if place[1] == "privilege":
            return _("the {area} privilege space").format(area=area_name(kind))
        if place[1] == "elector":
            return _("the {area} elector space").format(area=area_name(kind))
        return place_name(kind, place[1])
    return _("the box")


def thing_name(m: dict[str, Any], names: Sequence[str], side: int = 0) -> str:
    """The component a step moves, as it shows before (`side` 0) or after (1) the step."""
    what, owner = m["what"], m["owner"]
    if what == "tile":
        face, age = m["face"][side], m["value"][side]
        kind = _("Couple") if face == "couple" else _("Baron")
        return _("{who}'s {kind} {age}").format(who=names[owner], kind=kind, age=age) if age is not None else \
            _("{who}'s tile").format(who=names[owner])
    if what == "knight":
        return _("{who}'s knight").format(who=names[owner])
    if what == "city":
        return _("an empire city") if owner < 0 else _("{who}'s city").format(who=names[owner])
    if what == "card":
        return _("a {card} card").format(card=card_name(m["value"][1]))
    return what


def move_line(m: dict[str, Any], names: Sequence[str]) -> str:
    """One physical step in words, whichever way it goes (an undo turns every step around)."""
    what, owner, src, dst = m["what"], m["owner"], m["src"], m["dst"]
    before, after = m["value"]
    back = m.get("back", False)
    if src[0] == "box" or dst[0] == "box":
        return box_line(m, names)
    if what == "thaler marker":
        return _("Move {who}'s thaler marker from {a} to {b}").format(who=names[owner], a=before, b=after)
    if what == "chip":
        return _("Put {who}'s coloured chip beside {n} on the thaler track").format(who=names[owner], n=after)
    if what == "round marker":
        return _("Move the round marker to round {r}").format(r=after)
    if what == "emperor marker":
        return _("{who} takes the emperor marker from {old}").format(who=names[dst[1]], old=names[src[1]])
    if what == "vp cards":
        if src == dst and m["face"][0] != m["face"][1]:
            return _("{who}: turn your VP cards face {face}").format(
                who=names[owner], face=_("up") if m["face"][1] == "up" else _("down"))
        if before is None:
            return _("{who}: take VP cards, face down; your screen shows your VP").format(who=names[owner]) \
                if not back else _("{who}: give back the VP cards just taken; your screen shows your VP").format(
                    who=names[owner])
        return _("{who}: VP cards from {a} to {b}").format(who=names[owner], a=before, b=after)
    if what == "card":
        if dst[0] == "front":
            return _("Lay a card from the {card} stack face up in front of {who}").format(
                card=card_name(after), who=names[dst[1]])
        return _("Put {who}'s {card} card back on its stack").format(who=names[src[1]], card=card_name(before))
    thing = thing_name(m, names)
    if src == dst:
        if m["face"][0] != m["face"][1]:
            if m["face"][1] == "couple":
                return _("Flip {tile} on {place} to its Couple side").format(tile=thing, place=where_name(src, names))
            return _("Flip {who}'s Couple {age} on {place} back to its Baron side").format(
                who=names[owner], age=before, place=where_name(src, names))
        return _("Turn {tile} on {place} to {age}").format(tile=thing, place=where_name(src, names), age=after)
    if src[0] == "supply" or src[0] == "empire supply":
        return _("Put {thing} on {place}").format(thing=thing_name(m, names, 1), place=where_name(dst, names))
    if dst[0] == "supply":
        return _("Take {thing} off {place}, back to supply").format(thing=thing, place=where_name(src, names))
    if dst[0] == "aside":
        return _("Take {thing} off {place} and set it aside").format(thing=thing, place=where_name(src, names))
    if src[0] == "aside":
        return _("Put {thing} from aside on {place}").format(thing=thing, place=where_name(dst, names))
    return _("Move {thing} from {src} to {dst}").format(thing=thing, src=where_name(src, names),
                                                       dst=where_name(dst, names))


def box_line(m: dict[str, Any], names: Sequence[str]) -> str:
    """A component taken out of the box when the table is laid out, or put back."""
    what, owner, n = m["what"], m["owner"], m["count"]
    whose = names[owner] if owner >= 0 else ""
    if m["dst"][0] != "box":
        place = m["dst"]
        if what == "thaler marker":
            return _("Put {who}'s thaler marker on {n}").format(who=whose, n=m["value"][1])
        if what == "chip":
            return _("Put {who}'s coloured chip beside {n} on the thaler track").format(who=whose, n=m["value"][1])
        if what == "round marker":
            return _("Put the round marker on round {r}").format(r=m["value"][1])
        if what == "emperor marker":
            return _("{who} takes the emperor marker").format(who=names[place[1]])
        if what == "card":
            return _("Lay out the {card} stack: {n}").format(card=card_name(m["value"][1]), n=n)
        if what == "vp cards":
            return _("{who}'s VP cards will lie {face} in front of {who}").format(
                who=whose, face=_("face up") if m["face"][1] == "up" else _("face down"))
        if owner < 0:
            return _("Put the {n} empire cities beside the board").format(n=n)
        return _("{who}: take your {n} {things}").format(who=whose, n=n, things={
            "tile": _("tiles"), "knight": _("knights"), "city": _("cities")}.get(what, what))
    return _("Put {what} back in the box").format(what={
        "thaler marker": _("the thaler markers"), "chip": _("the coloured chips"), "round marker": _("the round marker"),
        "emperor marker": _("the emperor marker"), "card": _("the action cards"), "vp cards": _("the VP cards"),
    }.get(what, _("the pieces")))


def move_lines(moves: Sequence[dict[str, Any]], names: Sequence[str]) -> list[str]:
    """The physical steps in words, in order; a row of alike steps (aging, cards returned) shares a line."""
    lines: list[str] = []
    i = 0
    while i < len(moves):
        m = moves[i]
        key = group_key(m)
        j = i + 1
        while key is not None and j < len(moves) and group_key(moves[j]) == key:
            j += 1
        lines.append(group_line(list(moves[i:j]), names) if j - i > 1 else move_line(m, names))
        i = j
    return lines


def group_key(m: dict[str, Any]) -> tuple[Any, ...] | None:
    if m["what"] == "tile" and m["src"] == m["dst"] and m["face"][0] == m["face"][1]:
        return ("age", m["value"][1] > m["value"][0])
    if m["what"] == "card" and m["dst"][0] == "stack":
        return ("return",)
    if m["what"] == "chip":
        return ("chip",)
    if m["what"] == "vp cards" and m["src"] == m["dst"] and m["face"][0] != m["face"][1]:
        return ("vp", m["face"][1])
    return None


def group_line(group: list[dict[str, Any]], names: Sequence[str]) -> str:
    kind = group_key(group[0])[0]  # type: ignore[index]
    if kind == "age":
        tiles = ", ".join(_("{tile} on {place}").format(tile=thing_name(m, names), place=where_name(m["src"], names))
                          for m in group)
        if group[0]["value"][1] > group[0]["value"][0]:
            return _("One age step older, a quarter turn clockwise: {tiles}").format(tiles=tiles)
        return _("One age step younger, a quarter turn anticlockwise: {tiles}").format(tiles=tiles)
    if kind == "return":
        return _("Put the cards in front of the players back on their stacks")
    if kind == "chip":
        return _("Put each coloured chip beside its thaler marker")
    return _("Every player: turn your VP cards face {face}").format(
        face=_("up") if group[0]["face"][1] == "up" else _("down"))


def event_lines(events: Sequence[dict[str, Any]], names: Sequence[str]) -> list[str]:
    """The last action's events in words: a line per event, or its headline and its steps."""
    skip = ("phase", "done", "pushed")  # a pushed knight is a step of the tile's placing
    return [line for event in events if event["type"] not in skip for line in event_parts(event, names)]


def vp_reason(reason: str) -> str:
    return {"emperor": _("emperor"), "electors": _("new elector"), "votes": _("backed the winner"),
            "cities": _("city"), "marriages": _("marriage"), "mainz": _("Mainz"),
            "indulgence": _("Indulgence")}.get(reason) or (card_name(reason) if reason in CARDS else reason)


# --- the table's prompt --------------------------------------------------------------------

def prompt(view: dict[str, Any], names: Sequence[str]) -> Prompt:
    """The public line, then the board changes of the last action, then what to do now."""
    done = event_lines(view["changes"], names)
    moves = tuple(event_moves(view["changes"]))
    if view["over"]:
        over = view["over"]
        lines = []
        for s, score in over["scores"].items():
            parts = over["breakdown"][s]
            detail = ", ".join(f"{vp_reason(k)} {v}" for k, v in parts.items() if k != "thalers" and v)
            lines.append(_("{who}: {n} VP ({detail}); {t} thalers").format(
                who=names[int(s)], n=score, detail=detail or "-", t=parts["thalers"]))
        winners = ", ".join(names[w] for w in over["winners"])
        return Prompt(_("Game over. Winner: {names}").format(names=winners), tuple(done + lines), moves)
    phase, task = view["phase"], view["task"]
    title = _("Round {r}, Phase {n}: {title}").format(r=view["round"], n=ROMAN[phase], title=phase_title(phase))
    steps = list(done)
    if phase == "setup":
        title = _("Setup")
    if task is not None:
        steps.append(instruction(view, task, names))
    return Prompt(title, tuple(steps), moves)


def instruction(view: dict[str, Any], task: dict[str, Any], names: Sequence[str]) -> str:
    """What the table does now, for the task at the head of the queue."""
    seat = names[task["seat"]]
    kind = task["kind"]
    if kind == "vote":
        waiting = [names[s] for s in view["pending"]]
        return ngettext("Secret ballot: {names} chooses on their own screen",
                        "Secret ballot: {names} choose on their own screens",
                        len(waiting)).format(names=", ".join(waiting))
    if kind == "confirm":
        return _("{who}: press Done when the board shows these changes").format(who=seat)
    if kind == "setup":
        return _("{who}: {what}").format(who=seat, what={
            "city": _("place the first empire city"), "elector": _("place a Baron 45 on an empty elector space"),
            "knight": _("place a knight on an empty space or castle"),
        }.get(task["piece"], _("place a {tile} on an empty aristocrat space").format(
            tile=tile_long(task["piece"], task["age"]))))
    if kind == "answer":
        return _("{who}: accept or refuse {bride}'s daughter on your screen").format(who=seat,
                                                                                   bride=names[task["other"]])
    return {
        "crown": (_("{who}: choose the tile for the throne") if task.get("area") == "election"
                  else _("{who}: choose the tile for the throne, or leave it empty")),
        "son": _("{who}: place the son, a Baron 15, or keep him back"),
        "daughter": _("{who}: propose a marriage or send the daughter to a nunnery"),
        "turn": _("{who}: buy a card, use a privilege, place or move a knight, or pass"),
        "gray": _("{who}: choose where the Gray eminence adds 1"),
        "tie": _("{who}: break the tie"),
        "elect": _("{who}: choose the tile that becomes elector"),
        "return": _("{who}: push a knight for the old elector, or take the tile back"),
        "church": _("{who}: name an archdiocese for Church influence"),
        "excommunicate": _("{who}: name a secular electorate to excommunicate"),
        "retire": _("{who}: place the old emperor in any electorate, or take the tile back"),
        "rights": (_("{who}: move an empire city, or Done")
                   if BOARD.rounds[view["round"] - 1].empire_city == "move"
                   else _("{who}: place or move an empire city, or Done")),
    }.get(kind, kind).format(who=seat)


def standings(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    """Thalers are on the open track; victory points only when the table plays them open."""
    if view["over"]:
        return [f"{names[int(s)]}: {v} VP" for s, v in view["over"]["scores"].items()]
    lines = []
    for i, player in enumerate(view["players"]):
        vp = _(" {v} VP").format(v=player["vp"]) if player["vp"] is not None else ""
        crown = " *" if view["emperor"] == i else ""
        lines.append(_("{name}: {t} th{vp}{crown}").format(name=names[i], t=player["thalers"], vp=vp, crown=crown))
    return lines


HELP = {
    "setup": (N_("Lay out the start position as the table prompt says."),),
    "income": (N_("Income: 6 + your cities + others' cities where you hold the elector + Saxony; at most 12."),),
    "aging": (N_("Every aristocrat ages 10 years; 45s leave the board."),
              N_("The emperor's family may refill an empty throne, or leave it empty.")),
    "descendants": (N_("More blue than red cards bought last round: a son (Baron 15), placed or kept back."),
                    N_("Otherwise, with any blue or red card: a daughter to marry, or the nunnery."),),
    "actions": (N_("Buy a card, use a privilege, place or move a knight for 1 thaler, or pass."),
                N_("Rival ends your phase and calls an election; the emperor cannot take it.")),
    "electors": (N_("Most influence in an electorate seats its elector: 2 VP."), N_("The emperor breaks ties.")),
    "election": (N_("When Rival was bought: the candidates vote for themselves; everyone else with votes "
                    "chooses in secret."), N_("A tie keeps the emperor."),
                 N_("Non-candidates who backed the winner score 1 VP.")),
    "emperor": (N_("The emperor takes the round's VP, thalers and empire cities."),),
    "advance": (N_("The round marker moves on; the game ends after round five."),),
    "over": (N_("Most VP wins; a tie is shared."),),
}

def legend() -> list[str]:
    """What the short words on a seat's screen mean, after every phase's help."""
    cards = ", ".join(f"{_(c.abbr)} {_(c.name)}" for c in CARDS.values())
    sources = ", ".join(f"{_(short)} {_(words)}" for short, words in VP_SHORT.values())
    return [_("On your screen: R2 IV is round 2, phase IV; Emp: you hold the throne."),
            _("Supply B7 K3 C3: the Barons, knights and cities beside your board."),
            _("3: push Gre kn.: space 3, pushing Green's knight (a name cut to its first letters)."),
            _("Your cards, by their first letters, a number after one for how many (a line of them "
              "alone when the word Cards does not fit): {cards}.").format(cards=cards),
            _("At the end, VP from: {sources}.").format(sources=sources)]
