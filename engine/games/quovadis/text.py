"""Quo Vadis in words: the table's prompts, a seat's header, panel and menu labels, from views only."""

from __future__ import annotations

from typing import Any, Sequence

from ...game import Prompt, waiting_line
from ...i18n import N_, _, ngettext
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
    return LAURELS.kinds[token].name.replace("IIC", "II-Caesar") if token else _("empty")


def header(view: dict[str, Any], names: Sequence[str]) -> str:
    if view["over"]:
        return _("Game over")
    senate = len(view["senate"])
    return _("T{turn} {name} S{n}").format(turn=view["turn"], name=names[view["active"]], n=senate)


def final_lines(over: dict[str, Any], names: Sequence[str], mark_out: Sequence[int] = ()) -> list[str]:
    """Every seat's final score, two to a line (the end screen shows them all)."""
    cells = [f"{names[int(s)][:3]} {v}{' out' if int(s) in mark_out else ''}" for s, v in over["scores"].items()]
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
        _("Sen: {left} left, {board} out").format(left=me["reserve"], board=on_board),
        _("Caesar {path}  I x{n}").format(path=path_name(view["caesar"]), n=view["supply"]),
    ]


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
    if phase == "turn":
        failed = [e for e in view["recent"] if e["type"] == "votes" and not e["passed"] and e["seat"] == seat]
        return _("Vote failed; again:") if failed else _("Your turn:")
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
                "pay": _("Give a laurel")}.get(value, str(value))
    if key == "committee":
        owners = view["committees"][value]
        return f"{value} {len(owners)}/{BOARD.committees[value].seats}"
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
        return _("{who} gives {to} a laurel").format(who=who, to=names[event["to"]])
    if kind == "reveal":
        totals = ", ".join(f"{names[int(s)]} {t}" for s, t in event["totals"].items())
        return _("Player {n} in the Senate: laurels shown: {totals}").format(n=event["entered"], totals=totals)
    if kind == "end":
        return _("The Senate is full")
    return kind


def steps_for(event: dict[str, Any], names: Sequence[str]) -> list[str]:
    """The physical moves one public event asks of the table."""
    kind = event["type"]
    who = names[event["seat"]] if "seat" in event else ""
    if kind == "place":
        return [_("{who}: put a senator on a free seat of {c}").format(who=who, c=committee_name(event["committee"]))]
    if kind == "advance":
        if event["dest"] == SENATE_ID:
            return [_("{who}: move a senator from {a} to the leftmost free Senate seat").format(
                who=who, a=committee_name(event["committee"]))]
        return [_("{who}: move a senator from {a} up to {b}").format(
            who=who, a=committee_name(event["committee"]), b=committee_name(event["dest"]))]
    if kind == "collect":
        steps = [_("{who}: take the {token} laurel from the path {p}, face down").format(
            who=who, token=token_name(event["token"]), p=path_name(event["path"]))]
        if event["refill"]:
            steps.append(_("Lay a {token} laurel face up on that diamond").format(token=token_name(event["refill"])))
        else:
            steps.append(_("The bag is empty: that diamond stays empty"))
        return steps
    if kind == "reward":
        return [_("{who}: take an I laurel from the supply, face down").format(who=who)]
    if kind == "caesar":
        return [_("Put Caesar on the diamond of path {p}").format(p=path_name(event["path"]))]
    if kind == "pay":
        return [_("{who}: hand {to} the laurel your screen names, face down").format(who=who, to=names[event["to"]])]
    return [describe_event(event, names)]


def setup_steps(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    steps = [_("Each player takes the 8 senators of their colour"),
             _("Put {n} I laurels face up beside the board").format(n=view["supply"])]
    for pid, token in view["diamonds"].items():
        if pid == view["caesar"]:
            steps.append(_("Lay a {token} laurel on the diamond of {p} and put Caesar on it").format(
                token=token_name(token), p=path_name(pid)))
        else:
            steps.append(_("Lay a {token} laurel face up on the diamond of {p}").format(
                token=token_name(token), p=path_name(pid)))
    steps.append(_("The other laurels stay in the bag"))
    steps.append(_("Screens name committees by code: {legend}").format(
        legend="; ".join(f"{c.id} {_(c.name)}" for c in BOARD.committees.values() if not c.senate)))
    return steps


def prompt(view: dict[str, Any], names: Sequence[str]) -> Prompt:
    phase = view["phase"]
    active = names[view["active"]]
    done = [s for e in view["recent"] for s in steps_for(e, names)]
    if view["over"]:
        over = view["over"]
        senate = view["senate"]
        steps = [_("{name}: {total} laurels{out}").format(
            name=names[int(s)], total=t, out="" if int(s) in senate else _(" (no senator in the Senate: out)"))
            for s, t in over["scores"].items()]
        winners = ", ".join(names[w] for w in over["winners"])
        return Prompt(_("The Senate is full. Winner: {names}").format(names=winners),
                      tuple(done + steps + [_("Turn every laurel face up and check the totals")]))
    if phase == "turn":
        line = _("{name}: place a senator, advance one, or move Caesar").format(name=active)
        if view["moves"] == 0 and not view["recent"]:
            return Prompt(line, tuple(setup_steps(view, names)))
        return Prompt(line, tuple(done))
    if phase == "vote":
        vote = view["vote"]
        waiting = ", ".join(names[s] for s in view["pending"])
        return Prompt(_("{name} asks {c} to let a senator leave by {p}").format(
            name=names[vote["mover"]], c=vote["committee"], p=path_name(vote["path"])),
            tuple(done + [_("Answer yes or no on your screen: {names}").format(names=waiting)]))
    if phase == "reward":
        return Prompt(_("{name} chooses which supporters are paid").format(name=active), tuple(done))
    if phase == "bonus":
        return Prompt(_("{name} took a II-Caesar laurel and may move Caesar").format(name=active), tuple(done))
    return Prompt(phase)


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
