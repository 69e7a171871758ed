"""Tennō in words: the table's prompts, and a seat's header, panel and menu labels.

Every function here reads a view (or public events), never the state, so a
screen cannot show what its seat may not know.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...game import Prompt, taken_back_line, waiting_line
from ...i18n import N_, _, ngettext
from ...physical import event_moves
from .cards import CARDS


def card_name(card: int) -> str:
    """The card's one name: its kind and its printed value (Ninja 4, Geisha X); the row shows it
    short (Nj4, GsX), the hand by its value alone (4, X)."""
    return f"{_(CARDS.cards[card].name)} {card_value(card)}"


def card_short(card: Any) -> str:
    if card is None:
        return "--"
    if card == "?":
        return "??"
    return _(CARDS.cards[card].short)


def slot_name(slot: int) -> str:
    return _("slot {n}").format(n=slot + 1)


def header(view: dict[str, Any], names: Sequence[str]) -> str:
    """Short enough to follow the seat's own name on a 21-character line."""
    phase, turn = view["phase"], view["turn"]
    if view["over"]:
        return _("Game over")
    if phase == "setup":
        return _("Setup")
    if phase == "refill":
        return _("T{turn} refill").format(turn=turn)
    if phase == "reward":
        return _("T{turn} reward").format(turn=turn)
    return _("T{turn} {name}").format(turn=turn, name=names[view["active"]])


def card_value(card: int) -> str:
    """The printed value: 1 to 10, or X for the Geisha."""
    return "X" if CARDS.cards[card].ability == "geisha" else str(card)


def panel(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    if view["over"]:
        cells = [f"{names[int(s)][:3]} {v}" for s, v in view["over"]["scores"].items()]
        return ["  ".join(cells[i:i + 2]) for i in range(0, len(cells), 2)]
    me = view["me"]
    hand = CARDS.in_order(me["hand"])
    line = _("Prisoners {n}").format(n=me["captives"])
    if me["peeks"]:
        # What the seat knows of another's row has this line to itself; its prisoner pile lies on
        # the table, counted on the scores page.
        peek = me["peeks"][-1]
        line = _("Saw {name} s{n}: {card}{mark}").format(
            name=names[peek["target"]], n=peek["slot"] + 1,
            card=card_short(peek["card"]), mark="?" if peek["stale"] else "")
    return [
        _("Row {cards}").format(cards=" ".join(card_short(c) for c in me["row"])),
        _("Hand {cards}").format(cards=" ".join(card_value(c) for c in hand) or "-"),
        line,
    ]


def ask(view: dict[str, Any], names: Sequence[str], choosing: str = "") -> str:
    """Tell the seat what it must decide now (`choosing`: the menu's current field), or what it waits for."""
    seat, phase = view["seat"], view["phase"]
    if view["over"]:
        winners = view["over"]["winners"]
        return _("Winner: {names}").format(names=", ".join(names[w] for w in winners))
    if seat not in view["pending"]:
        return waiting_line(view["pending"], names)
    if phase == "setup":
        return _("Order your peasants:")
    if phase in ("attack", "ronin"):
        if choosing == "target":
            return _("Attack whom?")
        if choosing == "target_slot":
            return _("Which of their cards?")
        return _("Attack with:") if phase == "attack" else _("Ronin strikes again?")
    if phase == "defend":
        fight = view["fight"]
        return _("{card} hits your {slot}").format(card=card_short(fight["attack_card"]),
                                                    slot=slot_name(fight["target_slot"]))
    if phase == "refill":
        slot = view["me"]["row"].index(None)
        return _("Refill your {slot}").format(slot=slot_name(slot))
    if phase == "reward":
        reward = view["reward"]
        if reward["kind"] == "peek":
            return _("Peek at {name}:").format(name=names[reward["target"]])
        return {"slot": _("Swap which row card?"), "card": _("For which hand card?"),
                "first": _("Swap which row card?"), "second": _("With which row card?"),
                "fake": _("Really, or pretend?")}.get(choosing, _("You won: swap?"))
    return ""


def label(view: dict[str, Any], key: str, value: Any, names: Sequence[str], chosen: dict[str, Any]) -> str:
    """Name one choice of a menu level; `chosen` holds the fields picked at earlier levels."""
    me = view["me"]
    if key == "do":
        return {
            "arrange": _("Arrange"), "attack": _("Attack"), "pass": _("Pass"), "defend": _("Reveal"),
            "decline": _("No second attack"), "refill": _("Refill"), "swap": _("Swap a card"),
            "reorder": _("Swap 2 row cards"), "peek": _("Peek"), "skip": _("Skip"),
        }.get(value, str(value))
    if key == "order":
        return "-".join(card_short(c) for c in value)
    if key == "slot" and chosen.get("do") == "peek":
        target = view["reward"]["target"]
        return _("{name} {slot}").format(name=names[target], slot=slot_name(value))
    if key in ("slot", "first", "second"):
        return f"{slot_name(value)}: {card_short(me['row'][value])}"
    if key == "target":
        return names[value]
    if key == "target_slot":
        target = chosen["target"]
        shown = view["players"][target]["row"][value]
        seen = [p for p in me["peeks"] if p["target"] == target and p["slot"] == value]
        if shown not in ("?", None):
            return f"{slot_name(value)} ({card_short(shown)})"
        if seen:
            return _("s{n} saw {card}{mark}").format(n=value + 1, card=card_short(seen[-1]["card"]),
                                                   mark="?" if seen[-1]["stale"] else "")
        return slot_name(value)
    if key == "card":
        if chosen.get("do") == "swap" and me["row"][chosen["slot"]] == value:
            return _("Keep (fake swap)")
        return card_name(value)
    if key == "monk":
        return _("With Monk (+2)") if value else _("Reveal, no Monk")
    if key == "fake":
        return _("Pretend only") if value else _("Really swap")
    return f"{key}={value}"


def describe_event(event: dict[str, Any], names: Sequence[str]) -> str:
    kind = event["type"]
    who = names[event["seat"]] if "seat" in event else ""
    if kind == "arranged":
        return _("{who} laid a row").format(who=who)
    if kind == "attack":
        text = _("{who} attacks {target}'s {slot} with {card}") if not event["second"] else \
            _("{who} attacks again: {target}'s {slot} with {card}")
        return text.format(who=who, target=names[event["target"]], slot=slot_name(event["target_slot"]),
                           card=card_name(event["card"]))
    if kind == "monk":
        return _("{who} reveals the Monk in {slot}: +2").format(who=who, slot=slot_name(event["slot"]))
    if kind == "fight":
        return fight_line(event, names)
    if kind == "decline":
        return _("{who} makes no second attack").format(who=who)
    if kind == "pass":
        return _("{who} passes").format(who=who)
    if kind == "refill":
        return _("{who} refills {slot}").format(who=who, slot=slot_name(event["slot"]))
    if kind == "swap":
        return _("{who} swaps {slot} (or pretends to)").format(who=who, slot=slot_name(event["slot"]))
    if kind == "reorder":
        a, b = event["slots"]
        return _("{who} swaps {a} and {b} (or pretends to)").format(who=who, a=slot_name(a), b=slot_name(b))
    if kind == "peek":
        return _("{who} peeks at {target}'s {slot}").format(who=who, target=names[event["target"]],
                                                            slot=slot_name(event["slot"]))
    if kind == "skip":
        return _("{who} skips the reward").format(who=who)
    if kind == "end":
        return _("{who} cannot refill: the game ends").format(who=who)
    if kind == "undo":
        return taken_back_line(event, names, ACTIONS)
    return kind


ACTIONS = {"arrange": N_("row arrangement"), "attack": N_("attack"), "defend": N_("defence"),
           "decline": N_("no second attack"), "pass": N_("pass"), "refill": N_("refill"), "swap": N_("swap"),
           "reorder": N_("row swap"), "peek": N_("peek"), "skip": N_("skipped reward")}


def fight_line(f: dict[str, Any], names: Sequence[str]) -> str:
    a, d = names[f["attacker"]], names[f["defender"]]
    if CARDS.cards[f["attack_card"]].ability == CARDS.cards[f["defend_card"]].ability == "geisha":
        if f["outcome"] == "defender":  # option geisha_pair=defender
            return _("{a}'s Geisha vs {d}'s Geisha: both leave the game, {d} wins").format(a=a, d=d)
        return _("{a}'s Geisha vs {d}'s Geisha: both leave the game").format(a=a, d=d)
    head = _("{a}'s {ac} ({astr}) vs {d}'s {dc} ({dstr})").format(
        a=a, ac=card_name(f["attack_card"]), astr=f["attack_strength"],
        d=d, dc=card_name(f["defend_card"]), dstr=f["defend_strength"])
    if f["outcome"] == "attacker":
        outcome = _("{a} wins").format(a=a)
    elif f["outcome"] == "defender":
        outcome = _("{d} wins").format(d=d)
    else:
        outcome = _("tie")
    return _("{fight}: {outcome}").format(fight=head, outcome=outcome)


# --- the real table's steps, in words --------------------------------------------

def place_name(place: Sequence[Any], names: Sequence[str]) -> str:
    kind = place[0]
    if kind == "hand":
        return _("{name}'s hand").format(name=names[place[1]])
    if kind == "row":
        return _("{name}'s {slot}").format(name=names[place[1]], slot=slot_name(place[2]))
    if kind == "prisoners":
        return _("{name}'s prisoner pile").format(name=names[place[1]])
    if kind == "discard":
        return _("the discard")
    if kind == "aside":
        return _("{name}'s hands, out of sight").format(name=names[place[1]])
    return _("the box")


def face_word(face: str) -> str:
    return _("face up") if face == "up" else _("face down") if face == "down" else ""


def move_line(m: dict[str, Any], names: Sequence[str]) -> str:
    """One physical step in words, whichever way it goes (an undo turns every step around)."""
    owner, (src, dst) = names[m["owner"]], (m["src"], m["dst"])
    value = m["value"][1]
    card = card_name(value) if value is not None else None
    if src == dst:  # a card turned where it lies
        if src[0] == "row":
            if m["face"][1] == "up":
                return _("{owner}: turn your {slot} face up: {card}").format(
                    owner=owner, slot=slot_name(src[2]), card=card)
            return _("{owner}: turn {card} face down again in {slot}").format(
                owner=owner, card=card, slot=slot_name(src[2]))
        return _("Turn {owner}'s {card} {face} on {place}").format(
            owner=owner, card=card, face=face_word(m["face"][1]), place=place_name(src, names))
    back = m.get("back", False)
    if src[0] == "hand" and dst[0] == "row":
        if back:
            return _("{owner}: lay back face down in {slot} the card your screen shows there").format(
                owner=owner, slot=slot_name(dst[2]))
        if card is None:
            return _("{owner}: lay the hand card your screen names face down in {slot}").format(
                owner=owner, slot=slot_name(dst[2]))
        return _("{owner}: lay {card} face down in {slot}").format(owner=owner, card=card, slot=slot_name(dst[2]))
    if src[0] == "row" and dst[0] in ("hand", "aside"):
        if back:
            return _("{owner}: take the card in {slot} back into your hand, out of sight").format(
                owner=owner, slot=slot_name(src[2]))
        return _("{owner}: take the card in {slot} into your hand, out of sight").format(
            owner=owner, slot=slot_name(src[2]))
    if src[0] == "aside" and dst[0] == "row":
        return _("{owner}: lay the card your screen names face down in {slot}").format(
            owner=owner, slot=slot_name(dst[2]))
    if src[0] == "row" and dst[0] == "prisoners":
        return _("{owner}'s {card} goes face down onto {captor}'s prisoner pile").format(
            owner=owner, card=card, captor=names[dst[1]])
    if src[0] == "row" and dst[0] == "discard":
        return _("{owner}'s {card} leaves the game (discard)").format(owner=owner, card=card)
    if dst[0] == "box":
        return _("{owner}: put your cards back in the box").format(owner=owner)
    if src[0] == "box":
        return ngettext("{owner}: take the {n} card of your colour in hand",
                        "{owner}: take the {n} cards of your colour in hand", m["count"]).format(
            owner=owner, n=m["count"])
    return _("Move {owner}'s {card} from {src} to {dst}, {face}").format(
        owner=owner, card=card or _("card"), src=place_name(src, names), dst=place_name(dst, names),
        face=face_word(m["face"][1]) or _("out of sight"))


def group_key(m: dict[str, Any]) -> tuple[Any, ...] | None:
    """Steps with the same key, one after another, are told on one line; None: on a line of its own."""
    src, dst = m["src"], m["dst"]
    if src[0] == "hand" and dst[0] == "row" and m["value"][1] is None:
        return ("lay", m["owner"])
    if src == dst and src[0] == "prisoners":
        return ("pile", src[1], m["face"][1])
    return None


def group_line(group: list[dict[str, Any]], names: Sequence[str]) -> str:
    first = group[0]
    owner = names[first["owner"]]
    src = first["src"]
    if src[0] == "hand":
        return _("{owner}: lay the cards your screen names face down in {slots}, in that order").format(
            owner=owner, slots=", ".join(slot_name(m["dst"][2]) for m in group))
    if first["face"][1] == "up":
        return ngettext("Turn {name}'s prisoner pile face up ({n} card)",
                        "Turn {name}'s prisoner pile face up ({n} cards)", len(group)).format(
            name=names[src[1]], n=len(group))
    return _("Turn {name}'s prisoner pile face down again").format(name=names[src[1]])


def move_lines(moves: Sequence[dict[str, Any]], names: Sequence[str]) -> list[str]:
    """The physical steps in words, in order; a row rearranged out of sight is told as one step."""
    lines: list[str] = []
    i = 0
    while i < len(moves):
        m = moves[i]
        four = list(moves[i:i + 4])
        if [x["src"][0] for x in four] == ["row", "row", "aside", "aside"]:
            lines.append(_("{owner}: take the cards in {a} and {b} out of sight and lay them back, "
                           "swapped or as they were").format(owner=names[m["owner"]], a=slot_name(four[0]["src"][2]),
                                                             b=slot_name(four[1]["src"][2])))
            i += 4
            continue
        key, j = group_key(m), i + 1
        while key is not None and j < len(moves) and group_key(moves[j]) == key:
            j += 1
        lines.append(group_line(list(moves[i:j]), names) if j - i > 1 else move_line(m, names))
        i = j
    return lines


def told(events: Sequence[dict[str, Any]], names: Sequence[str]) -> list[str]:
    """The last action's fights and physical steps, in words."""
    lines: list[str] = []
    for event in events:
        if event["type"] in ("fight", "undo"):
            lines.append(describe_event(event, names))
        lines += move_lines(event.get("moves", ()), names)
    return lines


def prompt(view: dict[str, Any], names: Sequence[str]) -> Prompt:
    """The public line, the physical steps of the last action, then what the table does now."""
    phase = view["phase"]
    active = names[view["active"]]
    done = told(view["recent"], names)
    moves = tuple(event_moves(view["recent"]))
    if view["over"]:
        over = view["over"]
        steps = [_("{who} cannot refill: the game ends").format(who=names[over["ender"]])] if over["ender"] >= 0 else []
        steps += [ngettext("{name}: {n} in prisoners ({c} card)", "{name}: {n} in prisoners ({c} cards)",
                           over["breakdown"][s]["captives"]).format(
            name=names[int(s)], n=v, c=over["breakdown"][s]["captives"]) for s, v in over["scores"].items()]
        steps.append(_("Check the totals on the prisoner piles"))
        winners = ", ".join(names[w] for w in over["winners"])
        return Prompt(_("Game over. Winner: {names}").format(names=winners), tuple(done + steps), moves)
    if phase == "setup":
        return Prompt(_("Everyone: choose the order of your peasants on your screen"), tuple(done + [
            _("Lay peasants 1, 2 and 3 face down in a row, in the order your screen shows"),
            _("Slot 1 is at each owner's left, slot 3 at the right"),
            _("Keep your other eight cards as your hand"),
        ]), moves)
    if phase == "attack":
        return Prompt(_("{name} attacks: choose a card and a target").format(name=active), tuple(done), moves)
    if phase == "defend":
        f = view["fight"]
        line = _("{a}'s {card} attacks {d}'s {slot}").format(
            a=names[f["attacker"]], card=card_name(f["attack_card"]), d=names[f["defender"]],
            slot=slot_name(f["target_slot"]))
        return Prompt(line, tuple(done + [_("{d}: answer on your screen").format(d=names[f["defender"]])]), moves)
    if phase == "ronin":
        return Prompt(_("{name}'s Ronin may attack once more").format(name=active), tuple(done), moves)
    if phase == "refill":
        who = ", ".join(names[s] for s in view["pending"])
        return Prompt(_("Refill the gaps: {names}").format(names=who), tuple(done + [
            _("Fill each gap face down with the hand card your screen names; do not reorder the row"),
        ]), moves)
    if phase == "reward":
        reward = view["reward"]
        who = names[reward["seat"]]
        if reward["kind"] == "peek":
            line = _("{who} peeks at one of {target}'s cards").format(who=who, target=names[reward["target"]])
            step = _("{target}: show the card {who} names to {who} alone").format(
                who=who, target=names[reward["target"]])
        elif view["players"][reward["seat"]]["hand"] == 0:
            line = _("{who} may swap two row cards").format(who=who)
            step = _("{who}: choose on your screen whether to swap two row cards").format(who=who)
        else:
            line = _("{who} may swap a row card with a hand card").format(who=who)
            step = _("{who}: choose on your screen which row card to swap, if any").format(who=who)
        return Prompt(line, tuple(done + [step]), moves)
    return Prompt(phase, tuple(done), moves)


def standings(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    """What the table may know of the race: piles are face down, so their sizes, not their values."""
    if view["over"]:
        return [f"{names[int(s)]}: {v}" for s, v in view["over"]["scores"].items()]
    return [_("{name}: {p} pris, {h} hand").format(name=names[i], p=p["captives"], h=p["hand"])
            for i, p in enumerate(view["players"])]


HELP = {
    "setup": (N_("Lay peasants 1, 2, 3 face down in any order."), N_("The other 8 cards are your hand."),
              N_("Never reorder your row.")),
    "attack": (N_("Turn a row card up (never the Shogun) and name a card in another row."),
               N_("Ninja attacks at 8. Geisha: always 1 more than her foe, then leaves."),
               N_("Higher wins; a tie discards both.")),
    "defend": (N_("The defender may reveal a Monk in the row: +2 to the attacked card, not to itself."),
               N_("A winning Shogun captures the attacker."), N_("Higher wins; a tie discards both.")),
    "ronin": (N_("A Ronin that attacked may attack once more with another row card."),
              N_("Gaps are refilled only after both fights."),),
    "refill": (N_("Fill each gap from your hand, face down."), N_("Never reorder the row."),
               N_("A gap nobody can fill ends the game.")),
    "reward": (N_("Attacker who won and lost nothing: swap a row card with a hand card, or pretend."),
               N_("Defender who won: peek secretly at one of the attacker's row cards."),),
    "over": (N_("Prisoner values score (Ninja 4)."), N_("Ties: add hand and row; the Geisha counts 0.")),
}

# What the short words on a seat's screen mean, after every phase's help.
LEGEND = (
    N_("On your screen: T3 is turn 3; s2 is slot 2 of a row."),
    N_("Cards by kind and value: P Peasant, Nj Ninja, Mk Monk, Rn Ronin, Sa Samurai, Dm Daimyo, "
       "Sh Shogun, Gs Geisha (X); the hand shows the values alone."),
    N_("-- is a gap in a row, ?? a card face down; Saw Green s2: Nj4 is what you peeked at, "
       "with ? once it may have moved."),
)
