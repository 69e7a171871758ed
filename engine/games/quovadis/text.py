"""Quo Vadis in words: the table's prompts, a seat's header, panel and menu labels, from views only."""

from __future__ import annotations

from typing import Any, Sequence

from ...game import Prompt, taken_back_line, waiting_line
from ...i18n import N_, _, ngettext
from ...physical import event_moves
from .board import BOARD, LAURELS

SENATE_ID = BOARD.senate.id


def committee_name(cid: str) -> str:
    """The long name the table uses, e.g. "bottom centre-left (5 seats)"."""
    c = BOARD.committees[cid]
    if c.senate:
        return _("the Senate")
    return ngettext("{name} ({n} seat)", "{name} ({n} seats)", c.seats).format(name=_(c.name), n=c.seats)


def path_name(pid: str) -> str:
    p = BOARD.paths[pid]
    return f"{p.source}>{p.dest}"


def token_name(token: str) -> str:
    return LAURELS.kinds[token].name.replace("IIC", _("II-Caesar")) if token else _("empty")


def header(view: dict[str, Any], names: Sequence[str]) -> str:
    if view["over"]:
        return _("Game over")
    senate = len(view["senate"])
    return _("T{turn} {name} S{n}").format(turn=view["turn"], name=names[view["active"]], n=senate)


def final_lines(over: dict[str, Any], names: Sequence[str], mark_out: Sequence[int] = ()) -> list[str]:
    """Every seat's final score, two to a line (the end screen shows them all)."""
    cells = [(_("{name} {score} out") if int(s) in mark_out else "{name} {score}").format(name=names[int(s)][:3], score=v)
             for s, v in over["scores"].items()]
    return ["  ".join(cells[i:i + 2]) for i in range(0, len(cells), 2)]


def panel(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    if view["over"]:
        out = [s for s in range(len(names)) if s not in view["senate"]]
        return final_lines(view["over"], names, out)
    me = view["me"]
    tokens = " ".join(LAURELS.kinds[t].name for t in me["laurels"]) or "-"
    on_board = sum(owners.count(view["seat"]) for owners in view["committees"].values())
    return [
        _("Laurels {total}: {tokens}").format(total=me["total"], tokens=tokens),
        _("In hand {left}, on board {board}").format(left=me["reserve"], board=on_board),
        _("Caesar {path}  I x{n}").format(path=path_name(view["caesar"]), n=view["supply"]),
    ]


FIELD_ASKS = {"committee": N_("Which committee?"), "path": N_("Which path?"),
              "to": N_("Give a laurel to whom?"), "token": N_("Which laurel?")}


def ask(view: dict[str, Any], names: Sequence[str], choosing: str = "") -> str:
    seat, phase = view["seat"], view["phase"]
    if view["over"]:
        winners = view["over"]["winners"]
        return _("Winner: {names}").format(names=", ".join(names[w] for w in winners))
    if seat not in view["pending"]:
        vote = view["vote"]
        if vote is not None and seat in vote["voters"] and view["me"]["answer"] is not None:
            answer = _("yes") if view["me"]["answer"] else _("no")
            return _("You said {answer}; waiting").format(answer=answer)
        return waiting_line(view["pending"], names)
    if choosing in FIELD_ASKS and phase != "reward":  # a step past what to do asks its own question
        return _(FIELD_ASKS[choosing])
    if phase == "turn":
        return _("Vote failed; again:") if view["retry"] else _("Your turn:")
    if phase == "vote":
        vote = view["vote"]
        return _("{name}: leave {path}?").format(name=names[vote["mover"]], path=path_name(vote["path"]))
    if phase == "reward":
        return _("Pay an I laurel to:")
    if phase == "bonus":
        return _("Caesar bonus: move?")
    return ""


def label(view: dict[str, Any], key: str, value: Any, names: Sequence[str], chosen: dict[str, Any]) -> str:
    if key == "do":
        return {"place": _("Place senator"), "advance": _("Advance"), "caesar": _("Move Caesar"),
                "support": _("Yes, let it pass"), "refuse": _("No"),
                "reward": _("Pay a supporter"), "keep": _("Leave Caesar"),
                "pay": _("Give a laurel"), "demand_reveal": _("Demand the laurels")}.get(value, str(value))
    if key == "committee":
        owners = view["committees"][value]
        return _("{c} {n} of {seats}").format(c=value, n=len(owners), seats=BOARD.committees[value].seats)
    if key == "path":
        token = view["diamonds"].get(value, "")
        caesar = " C" if view["caesar"] == value else ""
        laurel = f" {LAURELS.kinds[token].name}" if token else ""
        return f"{path_name(value)}{laurel}{caesar}"
    if key == "to" and chosen.get("do") == "pay":
        return _("Give: {name}").format(name=names[value])
    if key == "to":
        return _("Pay I to {name}").format(name=names[value])
    if key == "token":
        return _("{token} ({value})").format(token=token_name(value), value=LAURELS.kinds[value].value)
    return f"{key}={value}"


def describe_event(event: dict[str, Any], names: Sequence[str]) -> str:
    kind = event["type"]
    who = names[event["seat"]] if "seat" in event else ""
    if kind == "place":
        return _("{who} places a senator in {c}").format(who=who, c=event["committee"])
    if kind == "ask":
        return _("{who} asks {c} to leave by {p}: {voters} answer").format(
            who=who, c=event["committee"], p=path_name(event["path"]),
            voters=", ".join(names[v] for v in event["voters"]))
    if kind == "voted":
        if "yes" in event:
            return _("{who} says yes").format(who=who) if event["yes"] else _("{who} says no").format(who=who)
        return _("{who} has answered").format(who=who)
    if kind == "votes":
        yes = [names[int(s)] for s, a in event["answers"].items() if a]
        no = [names[int(s)] for s, a in event["answers"].items() if not a]
        verdict = _("passed") if event["passed"] else _("failed")
        return _("Vote {verdict}: yes {yes}; no {no}").format(verdict=verdict, yes=", ".join(yes) or "-",
                                                              no=", ".join(no) or "-")
    if kind == "advance":
        how = _(" (Caesar)") if event["caesar"] else ""
        return _("{who} advances {a} > {b}{how}").format(who=who, a=event["committee"], b=event["dest"], how=how)
    if kind == "collect":
        return _("{who} takes the {token} laurel from {p}").format(who=who, token=token_name(event["token"]),
                                                                   p=path_name(event["path"]))
    if kind == "reward":
        return _("{who} takes an I laurel from the supply").format(who=who)
    if kind == "caesar":
        return _("{who} moves Caesar to {p}").format(who=who, p=path_name(event["path"]))
    if kind == "keep":
        return _("{who} leaves Caesar where he is").format(who=who)
    if kind == "pay":
        return _("{who} hands {to} a laurel, face down").format(who=who, to=names[event["to"]])
    if kind == "setup":
        return _("The board is laid out")
    if kind == "reveal_open":
        return _("Player {n} in the Senate: any player may demand the laurels from the table menu").format(
            n=event["entered"])
    if kind == "reveal":
        totals = ", ".join(f"{names[int(s)]} {t}" for s, t in event["totals"].items())
        if "seat" in event:
            return _("{who} demands the laurels: every player shows them, says the total and hides them again: "
                     "{totals}").format(who=who, totals=totals)
        return _("Player {n} in the Senate: laurels shown: {totals}").format(n=event["entered"], totals=totals)
    if kind == "end":
        return _("The Senate is full")
    if kind == "undo":
        return taken_back_line(event, names, ACTIONS)
    return kind


ACTIONS = {"place": N_("senator placement"), "advance": N_("advance"), "support": N_("answer"),
           "refuse": N_("answer"), "reward": N_("I-laurel payment"), "caesar": N_("Caesar move"),
           "keep": N_("choice to leave Caesar"), "pay": N_("laurel gift"),
           "demand_reveal": N_("demand for the laurels")}


# --- the real board's steps, in words ----------------------------------------------

def place_name(place: Sequence[Any], names: Sequence[str]) -> str:
    kind = place[0]
    if kind == "reserve":
        return _("{name}'s reserve").format(name=names[place[1]])
    if kind == "committee":
        return committee_name(place[1])
    if kind == "senate":
        return _("Senate seat {n}").format(n=place[1] + 1)
    if kind == "diamond":
        return _("diamond {p}").format(p=path_name(place[1]))
    if kind == "laurels":
        return _("{name}'s laurels").format(name=names[place[1]])
    if kind == "bag":
        return _("the bag")
    if kind == "supply":
        return _("the I supply")
    return _("the box")


def move_line(m: dict[str, Any], names: Sequence[str]) -> str:
    """One physical step in words, whichever way it goes (an undo turns every step around)."""
    src, dst, back = m["src"], m["dst"], m.get("back", False)
    what, count = m["what"], m["count"]
    if dst[0] == "box":
        return _("Put the {what} from {place} back in the box").format(
            what={"senator": _("senators"), "caesar": _("Caesar"), "laurel": _("laurels")}.get(what, what),
            place=place_name(src, names))
    token = m["value"][1]
    if what == "senator":
        who = names[m["owner"]]
        if src[0] == "box":
            return ngettext("{who}: take the {n} senator of your colour", "{who}: take the {n} senators of your colour",
                            count).format(who=who, n=count)
        if src[0] == "reserve":
            return _("{who}: put a senator on a free seat of {c}").format(who=who, c=place_name(dst, names))
        if dst[0] == "reserve":
            return _("{who}: take your senator from {c} back to your reserve").format(who=who, c=place_name(src, names))
        if dst[0] == "senate" and not back:
            return _("{who}: move a senator from {a} to the leftmost free Senate seat").format(
                who=who, a=place_name(src, names))
        if back:
            return _("{who}: move your senator from {a} back down to {b}").format(
                who=who, a=place_name(src, names), b=place_name(dst, names))
        return _("{who}: move a senator from {a} up to {b}").format(
            who=who, a=place_name(src, names), b=place_name(dst, names))
    if what == "caesar":
        if src[0] == "box":
            return _("Put Caesar on {place}").format(place=place_name(dst, names))
        return _("Move Caesar from {a} to {b}").format(a=place_name(src, names), b=place_name(dst, names))
    # a laurel
    name = token_name(token) if token else ""
    if src[0] == "box" and dst[0] == "supply":
        return _("Put {n} I laurels face up beside the board").format(n=count)
    if src[0] == "box" and dst[0] == "bag":
        return ngettext("Put the {n} {token} laurel in the bag", "Put the {n} {token} laurels in the bag",
                        count).format(n=count, token=name)
    if src[0] == "bag" and dst[0] == "diamond":
        return _("Draw a {token} laurel from the bag and lay it face up on {place}").format(
            token=name, place=place_name(dst, names))
    if src[0] == "diamond" and dst[0] == "bag":
        return _("Put the {token} laurel from {place} back into the bag").format(token=name, place=place_name(src, names))
    if src[0] == "diamond" and dst[0] == "laurels":
        return _("{who}: take the {token} laurel from path {p}, face down").format(
            who=names[dst[1]], token=name, p=path_name(src[1]))
    if src[0] == "laurels" and dst[0] == "diamond":
        return _("{who}: lay the {token} laurel back face up on {place}").format(
            who=names[src[1]], token=name, place=place_name(dst, names))
    if src[0] == "supply" and dst[0] == "diamond":  # the bag is empty (option empty_bag=reward_token)
        return _("The bag is empty: lay an I laurel from the supply face up on {place}").format(
            place=place_name(dst, names))
    if src[0] == "diamond" and dst[0] == "supply":
        return _("Put the I laurel from {place} back in the supply").format(place=place_name(src, names))
    if src[0] == "supply" and dst[0] == "laurels":
        return _("{who}: take an I laurel from the supply, face down").format(who=names[dst[1]])
    if src[0] == "laurels" and dst[0] == "supply":
        return _("{who}: put an I laurel back in the supply").format(who=names[src[1]])
    if src == dst and src[0] == "laurels":
        return _("{who}: turn your laurels {face}").format(who=names[src[1]], face=_("face up") if m["face"][1] == "up"
                                                           else _("face down"))
    if src[0] == "laurels" and dst[0] == "laurels":
        if back:
            return _("{who}: hand {to} back, face down, the laurel {to} gave you").format(
                who=names[src[1]], to=names[dst[1]])
        return _("{who}: hand {to}, face down, the laurel you chose on your screen").format(
            who=names[src[1]], to=names[dst[1]])
    return _("Move a laurel from {a} to {b}").format(a=place_name(src, names), b=place_name(dst, names))


def move_lines(moves: Sequence[dict[str, Any]], names: Sequence[str]) -> list[str]:
    """The physical steps in words, in order; a pile of laurels turned over is told once."""
    lines: list[str] = []
    for i, m in enumerate(moves):
        if m["src"] == m["dst"] and i and moves[i - 1]["src"] == m["src"] and moves[i - 1]["face"] == m["face"]:
            continue  # the rest of the same pile
        lines.append(move_line(m, names))
    return lines


def told(events: Sequence[dict[str, Any]], names: Sequence[str]) -> list[str]:
    """The last action's physical steps in words, and what else the table must hear of it."""
    lines: list[str] = []
    for event in events:
        if event["type"] == "undo":
            lines.append(describe_event(event, names))
            lines += move_lines(event.get("moves", ()), names)
        elif event.get("moves"):
            lines += move_lines(event["moves"], names)
            if event["type"] == "collect" and not event["refill"]:
                lines.append(_("The bag is empty: that diamond stays empty"))
        elif event["type"] not in ("setup", "end"):
            lines.append(describe_event(event, names))
    return lines


def prompt(view: dict[str, Any], names: Sequence[str]) -> Prompt:
    phase = view["phase"]
    active = names[view["active"]]
    done = told(view["recent"], names)
    moves = tuple(event_moves(view["recent"]))
    if view["over"]:
        over = view["over"]
        senate = view["senate"]
        steps = [_("{name}: {total} laurels{out}").format(
            name=names[int(s)], total=t, out="" if int(s) in senate else _(" (no senator in the Senate: out)"))
            for s, t in over["scores"].items()]
        winners = ", ".join(names[w] for w in over["winners"])
        return Prompt(_("The Senate is full. Winner: {names}").format(names=winners),
                      tuple(done + steps + [_("Check the laurel totals")]), moves)
    if phase == "turn":
        line = _("{name}: place a senator, advance one, or move Caesar").format(name=active)
        if view["played"] == 0:
            done.append(_("Screens name committees by code: {legend}").format(
                legend="; ".join(f"{c.id} {_(c.name)}" for c in BOARD.committees.values() if not c.senate)))
        return Prompt(line, tuple(done), moves)
    if phase == "vote":
        vote = view["vote"]
        waiting = ", ".join(names[s] for s in view["pending"])
        return Prompt(_("{name} asks {c} to let a senator leave by {p}").format(
            name=names[vote["mover"]], c=vote["committee"], p=path_name(vote["path"])),
            tuple(done + [_("Answer yes or no on your screen: {names}").format(names=waiting)]), moves)
    if phase == "reward":
        return Prompt(_("{name} chooses which supporters are paid").format(name=active), tuple(done), moves)
    if phase == "bonus":
        return Prompt(_("{name} took a II-Caesar laurel and may move Caesar").format(name=active), tuple(done), moves)
    return Prompt(phase, tuple(done), moves)


def standings(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    """Senators in the Senate and the number of laurels each holds (their values are secret)."""
    if view["over"]:
        return [f"{names[int(s)]}: {v}" for s, v in view["over"]["scores"].items()]
    return [_("{name}: S{s} L{n}").format(name=names[i], s=view["senate"].count(i), n=p["laurels"])
            for i, p in enumerate(view["players"])]


HELP = {
    "turn": (N_("Place a senator in a bottom committee, advance one along a path, or move Caesar."),
             N_("Leaving a 3- or 5-seat committee needs 2 or 3 votes of its seats, that many present."),
             N_("Caesar on a path: pass without a vote, but his laurel stays.")),
    "vote": (N_("Answer yes or no on your screen."), N_("Supporters the mover needed get an I laurel each.")),
    "reward": (N_("Choose which supporters get an I laurel."),),
    "bonus": (N_("A II-Caesar laurel lets you move Caesar now, or leave him."),),
    "over": (N_("Only players with a senator in the Senate count."), N_("Most laurels wins; ties: first in the Senate.")),
}

# What the short words on a seat's screen mean, after every phase's help.
LEGEND = (
    N_("On your screen: T3 Red S2 is turn 3, Red's turn, 2 senators in the Senate."),
    N_("In hand 3, on board 2: your senators not yet placed, and those on the board."),
    N_("E3 2 of 3: committee E3 holds 2 senators of its 3 seats; E3>D2 is the path from E3 to D2, "
       "C after it when Caesar stands there."),
    N_("Caesar E3>D2 I x14: where Caesar stands, and the I laurels left in the supply."),
)
