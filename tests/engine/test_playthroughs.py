"""Playthroughs: a seeded game of each game, every step written out in the words the table reads.

Each file under playthroughs/ records one game, action by action: the action,
the public events in words, the public prompt and its physical steps, and what
each seat's screen says (header, private figures, the question, and the first
menu's choices for the seats that decide), with the standings and rules help
at the end. Any change to a rule, a view or a word shows up as a readable
difference here. The actions are drawn from the sorted legal actions, so a
faster way of listing them in another order changes nothing.

After a deliberate change, write the files anew and read the diff:
    COURTIER_PLAYTHROUGHS=write .venv/bin/python -m pytest tests/engine/test_playthroughs.py
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from engine.match import Match

HERE = Path(__file__).with_name("playthroughs")
GAMES = [("tenno", 3, 7), ("quovadis", 4, 3), ("shadow", 3, 5)]


def _choices(match: Match, seat: int, view: dict) -> str:
    """The first menu level's choices, as the seat's screen labels them."""
    actions = match.legal_actions(seat)
    fields = [k for k in actions[0] if k != "seat"]
    for key in fields:
        values = []
        for action in actions:
            if action.get(key) not in values:
                values.append(action.get(key))
        if len(values) > 1:
            labels = [match.game.label(view, key, v, match.names, {}) for v in values]
            return f"{match.game.ask(view, match.names, key)} [{key}] " + " | ".join(labels)
    return match.game.ask(view, match.names, "do") + " [do] " + match.game.label(view, "do", actions[0]["do"],
                                                                                match.names, {})


def _screens(match: Match, full: bool) -> list[str]:
    lines = []
    prompt = match.prompt()
    lines.append(f"  table: {prompt.line}")
    lines += [f"    - {step}" for step in prompt.steps]
    pending = match.pending()
    for seat in range(match.header.players):
        view = match.view(seat)
        name = match.names[seat]
        if full:
            lines.append(f"  {name} | {match.game.header(view, match.names)}")
            lines += [f"  {name} |   {line}" for line in match.game.panel(view, match.names)]
        if seat in pending and match.legal_actions(seat):
            lines.append(f"  {name} > {_choices(match, seat, view)}")
        else:
            lines.append(f"  {name} : {match.game.ask(view, match.names)}")
    return lines


def playthrough(game: str, players: int, seed: int) -> str:
    match = Match.new(game, players, seed=seed, options={"start_seat": 0})
    rng = random.Random(seed)
    lines = [f"# {game}, {players} players, seed {seed}, actions drawn from the sorted legal actions",
             *_screens(match, full=True)]
    step = 0
    while not match.is_over:
        step += 1
        seat = rng.choice(match.pending())
        action = rng.choice(sorted(match.legal_actions(seat), key=lambda a: json.dumps(a, sort_keys=True)))
        events = match.apply(action)
        lines.append(f"{step}. {json.dumps(action, sort_keys=True, ensure_ascii=False)}")
        lines += [f"  * {match.game.describe_event(e, match.names)}" for e in events]
        lines += _screens(match, full=step % 5 == 0 or match.is_over)
    view = match.public_view()
    lines.append(f"result: {json.dumps(match.result().to_data(), sort_keys=True)}")
    lines += [f"  standings: {line}" for line in match.game.standings(view, match.names)]
    lines += [f"  help: {line}" for line in match.game.rules_help(view, match.names)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("game, players, seed", GAMES)
def test_a_seeded_game_reads_as_its_playthrough(game, players, seed):
    path = HERE / f"{game}-{players}p-seed{seed}.txt"
    text = playthrough(game, players, seed)
    if os.environ.get("COURTIER_PLAYTHROUGHS") == "write":
        path.write_text(text, encoding="utf-8")
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        got, want = text.splitlines(), expected.splitlines()
        first = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
        pytest.fail(f"{path.name} differs from line {first + 1}:\n  now:    "
                    f"{got[first] if first < len(got) else '(end)'}\n  before: "
                    f"{want[first] if first < len(want) else '(end)'}\n"
                    "(COURTIER_PLAYTHROUGHS=write rewrites the files after a deliberate change)")
