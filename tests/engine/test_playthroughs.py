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
GAMES = [("tenno", 3, 7, {}), ("tenno", 6, 21, {}), ("quovadis", 4, 3, {}), ("shadow", 3, 5, {}),
         ("tenno", 3, 0, {"attack_mandatory": False, "discard_public": False, "ronin_swap": "per_fight",
                          "ronin_reward_order": "second_fight_first", "monk_on_itself": True,
                          "final_tie": "turn_order", "geisha_tiebreak": 11, "geisha_pair": "defender",
                          "turn_direction": "anticlockwise"}),
         ("quovadis", 3, 8, {"limited_rewards": True, "reveal_laurels": True, "caesar_waives_quorum": True,
                             "caesar_frees_committee": True,
                             "caesar_stay_is_move": True, "open_answers": True, "finish_last_move": False,
                             "short_supply": "turn_order", "empty_bag": "reward_token"}),
         ("shadow", 4, 2, {"vp_open": True, "setup_city": "last", "setup_couple": False, "setup_young_baron": False,
                           "setup_elector_vp": 1, "repeat_cards": False, "elector_counts": False,
                           "gray_eminence": "tiebreak", "mainz_after_changes": False, "church_count_elector": True,
                           "rival_needs_heir": True, "trier_copy_counts": True, "empire_city_optional": False,
                           "tiebreak": "thalers", "setup_spread": True, "privilege_tile_votes": False,
                           "empty_throne_rights": False, "unborn_son_thaler": True, "repeat_proposals": True,
                           "no_influence": "tie", "displaced_first": True, "church_count": "influence",
                           "doctor_targets": "spaces", "permit_where": "present", "kings_daughter": "new_couple",
                           "promotion_side": "couple", "knight_card_pushes": True})]


def test_each_game_has_a_playthrough_with_every_rule_option_turned():
    """Each option's other reading is played through whole (start_seat only picks who begins)."""
    from engine.games import all_games

    for game in all_games():
        turned = [options for name, _players, _seed, options in GAMES if name == game.name and options]
        defaults = {o.name: o.default for o in game.options if o.name != "start_seat"}
        assert any(set(options) == set(defaults) and all(options[k] != defaults[k] for k in defaults)
                   for options in turned), (game.name, "an option is not turned in its playthrough")


def _choices(match: Match, seat: int, view: dict, every_field: bool) -> str:
    """The seat's menu as its screen labels it: the first level's question, then (on `every_field`
    steps) each field's labels, the first eight of each."""
    actions = match.legal_actions(seat)
    fields = [k for k in actions[0] if k != "seat"]
    fields += [k for a in actions for k in a if k != "seat" and k not in fields]
    first = next((k for k in fields if len({repr(a.get(k)) for a in actions}) > 1), "do")
    parts = [f"{match.game.ask(view, match.names, first)} [{first}]"]
    for key in fields if every_field else [first]:
        labels: list[str] = []
        for action in actions:
            if key not in action:
                continue
            keys = [k for k in action if k != "seat"]
            chosen = {k: action[k] for k in keys[:keys.index(key)]}
            label = match.game.label(view, key, action[key], match.names, chosen)
            if label not in labels:
                labels.append(label)
        more = f" (+{len(labels) - 8})" if len(labels) > 8 else ""
        parts.append(f"{key}: " + " | ".join(labels[:8]) + more)
    return " ".join(parts[:1]) + " " + "; ".join(parts[1:])


def _screens(match: Match, full: bool) -> dict[str, list[str]]:
    """What the table and each seat read now, block by block (private figures on `full` steps)."""
    prompt = match.prompt()
    blocks = {"table": [f"  table: {prompt.line}", *[f"    - {step}" for step in prompt.steps]]}
    pending = match.pending()
    for seat in range(match.header.players):
        view = match.view(seat)
        name = match.names[seat]
        lines = [f"  {name} | {match.game.header(view, match.names)}"]
        if full:
            lines += [f"  {name} |   {line}" for line in match.game.panel(view, match.names)]
        if seat in pending and match.legal_actions(seat):
            lines.append(f"  {name} > {_choices(match, seat, view, full)}")
        else:
            lines.append(f"  {name} : {match.game.ask(view, match.names)}")
        blocks[name] = lines
    return blocks


def _changed(blocks: dict[str, list[str]], before: dict[str, list[str]]) -> list[str]:
    """The blocks that differ from the step before (all of them at the start)."""
    return [line for key, lines in blocks.items() if lines != before.get(key) for line in lines]


def playthrough(game: str, players: int, seed: int, options: dict) -> str:
    """The game step by step; after each action, only what changed on the table and the screens."""
    match = Match.new(game, players, seed=seed, options={"start_seat": 0, **options})
    rng = random.Random(seed)
    lines = [f"# {game}, {players} players, seed {seed}, options {json.dumps(options, sort_keys=True)}, "
             "actions drawn from the sorted legal actions; after each, what changed"]
    shown = _screens(match, full=True)
    lines += _changed(shown, {})
    step = 0
    while not match.is_over:
        step += 1
        seat = rng.choice(match.pending())
        action = rng.choice(sorted(match.legal_actions(seat), key=lambda a: json.dumps(a, sort_keys=True)))
        events = match.apply(action)
        lines.append(f"{step}. {json.dumps(action, sort_keys=True, ensure_ascii=False)}")
        lines += [f"  * {match.game.describe_event(e, match.names)}" for e in events]
        now = _screens(match, full=step % 10 == 0 or match.is_over)
        lines += _changed(now, shown)
        shown = now
    view = match.public_view()
    lines.append(f"result: {json.dumps(match.result().to_data(), sort_keys=True)}")
    lines += [f"  standings: {line}" for line in match.game.standings(view, match.names)]
    lines += [f"  help: {line}" for line in match.game.rules_help(view, match.names)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("game, players, seed, options", GAMES)
def test_a_seeded_game_reads_as_its_playthrough(game, players, seed, options):
    path = HERE / f"{game}-{players}p-seed{seed}{'-options' if options else ''}.txt"
    text = playthrough(game, players, seed, options)
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
