"""Tennō in words: the table's prompts, and a seat's header, panel and menu labels.

Every function here reads a view (or public events), never the state, so a
screen cannot show what its seat may not know.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...game import Prompt, waiting_line
from ...i18n import N_, _, ngettext
from .cards import CARDS


def card_name(card: int) -> str:
    c = CARDS.cards[card]
    return _(c.name) if c.ability == "geisha" else f"{_(c.name)} {card}"


def card_short(card: Any) -> str:
    if card is None:
        return "--"
    if card == "?":
        return "??"
    return CARDS.cards[card].short


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
    hand = sorted(me["hand"], key=lambda c: (CARDS.cards[c].ability == "geisha", c))
    line = _("Prisoners {n}").format(n=me["captives"])
    if me["peeks"]:
        peek = me["peeks"][-1]
        line = _("Pris {n} saw {name}{slot}:{card}{mark}").format(
            n=me["captives"], name=names[peek["target"]][:3], slot=peek["slot"] + 1,
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
        return _("You won: swap?")
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
    return kind


def fight_line(f: dict[str, Any], names: Sequence[str]) -> str:
    a, d = names[f["attacker"]], names[f["defender"]]
    if CARDS.cards[f["attack_card"]].ability == CARDS.cards[f["defend_card"]].ability == "geisha":
        return _("{a}'s Geisha vs {d}'s Geisha: both leave the game").format(a=a, d=d)
    head = _("{a}'s {ac} ({astr}) vs {d}'s {dc} ({dstr})").format(
        a=a, ac=card_name(f["attack_card"]), astr=f["attack_strength"],
        d=d, dc=card_name(f["defend_card"]), dstr=f["defend_strength"])
    if f["outcome"] == "attacker":
        return head + ": " + _("{a} wins").format(a=a)
    if f["outcome"] == "defender":
        return head + ": " + _("{d} wins").format(d=d)
    return head + ": " + _("tie")


def fight_steps(f: dict[str, Any], names: Sequence[str]) -> list[str]:
    """The physical moves after a revealed fight."""
    d = names[f["defender"]]
    steps = [fight_line(f, names)]
    for seat, slot, card, lost in ((f["attacker"], f["slot"], f["attack_card"], f["attacker_lost"]),
                                   (f["defender"], f["target_slot"], f["defend_card"], f["defender_lost"])):
        owner = names[seat]
        if not lost:
            steps.append(_("{owner}: turn {card} face down again in {slot}").format(
                owner=owner, card=card_name(card), slot=slot_name(slot)))
        elif f["captor"] >= 0 and seat != f["captor"]:
            steps.append(_("{owner}'s {card} goes face down onto {captor}'s prisoner pile").format(
                owner=owner, card=card_name(card), captor=names[f["captor"]]))
        else:
            steps.append(_("{owner}'s {card} leaves the game (discard)").format(owner=owner, card=card_name(card)))
    if f["monk_slot"] >= 0:
        steps.append(_("{d}: turn the Monk face down again").format(d=d))
    return steps


def prompt(view: dict[str, Any], names: Sequence[str]) -> Prompt:
    """The public line and the physical steps, from the public view."""
    phase = view["phase"]
    active = names[view["active"]]
    done = [s for f in view["fights"] for s in fight_steps(f, names)]
    if view["over"]:
        over = view["over"]
        steps = [_("{name} cannot refill a gap: the game is over").format(name=names[over["ender"]])] if over["ender"] >= 0 else []
        steps += [ngettext("{name}: {n} in prisoners ({c} card)", "{name}: {n} in prisoners ({c} cards)",
                           over["breakdown"][s]["captives"]).format(
            name=names[int(s)], n=v, c=over["breakdown"][s]["captives"]) for s, v in over["scores"].items()]
        steps.append(_("Turn every prisoner pile face up and check the totals"))
        winners = ", ".join(names[w] for w in over["winners"])
        return Prompt(_("Game over. Winner: {names}").format(names=winners), tuple(done + steps))
    if phase == "setup":
        return Prompt(_("Everyone: choose the order of your peasants on your screen"), (
            _("Lay peasants 1, 2 and 3 face down in a row, in the order your screen shows"),
            _("Slot 1 is at each owner's left, slot 3 at the right"),
            _("Keep your other eight cards as your hand"),
        ))
    if phase == "attack":
        return Prompt(_("{name} attacks: choose a card and a target").format(name=active), tuple(done))
    if phase == "defend":
        f = view["fight"]
        line = _("{a}'s {card} attacks {d}'s {slot}").format(
            a=names[f["attacker"]], card=card_name(f["attack_card"]), d=names[f["defender"]],
            slot=slot_name(f["target_slot"]))
        return Prompt(line, tuple(done + [
            _("{a}: turn your {slot} face up").format(a=names[f["attacker"]], slot=slot_name(f["slot"])),
            _("{d}: answer on your screen, then turn your {slot} face up").format(
                d=names[f["defender"]], slot=slot_name(f["target_slot"])),
        ]))
    if phase == "ronin":
        return Prompt(_("{name}'s Ronin may attack once more").format(name=active), tuple(done))
    if phase == "refill":
        who = ", ".join(names[s] for s in view["pending"])
        return Prompt(_("Refill the gaps: {names}").format(names=who), tuple(done + [
            _("Fill each gap face down with the hand card your screen names; do not reorder the row"),
        ]))
    if phase == "reward":
        reward = view["reward"]
        who = names[reward["seat"]]
        if reward["kind"] == "peek":
            line = _("{who} peeks at one of {target}'s cards").format(who=who, target=names[reward["target"]])
            step = _("{target}: show the card {who} names to {who} alone").format(
                who=who, target=names[reward["target"]])
        elif view["players"][reward["seat"]]["hand"] == 0:
            line = _("{who} may swap two row cards").format(who=who)
            step = _("{who}: take two row cards out of sight and lay them back swapped, or as they were").format(
                who=who)
        else:
            line = _("{who} may swap a row card with a hand card").format(who=who)
            step = _("{who}: take the row card back and lay the chosen one, out of sight").format(who=who)
        return Prompt(line, tuple(done + [step]))
    return Prompt(phase)


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
