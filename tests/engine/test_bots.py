"""Bots: they see only what their seat may see, replay from a seed, and always answer legally."""

from __future__ import annotations

import random

import pytest

from engine.bots import LEVELS, KINDS, Level, SearchBot, UnknownBot, make_bot
from engine.bots.choices import action_key, decisions
from engine.bots.games import knowledge_for
from engine.bots.search import Budget, Search
from engine.clone import clone
from engine.codec import to_data
from engine.games import all_games
from engine.match import Match
from engine.rng import Rng
from engine.testing import random_action

TABLES = [(g.name, n) for g in all_games() for n in sorted({g.min_players, g.max_players})]
TINY = Level("tiny", iterations=12, seconds=0.0)


def decision_points(game: str, players: int, seed: int, count: int) -> list[tuple[Match, int]]:
    """Matches along a seeded random game where a seat has at least two choices, copied as they stood."""
    rng = random.Random(seed)
    match = Match.new(game, players, seed=seed)
    found = []
    while not match.is_over and len(found) < count:
        for seat in match.pending():
            if len(decisions(match.game, match.state, seat)) > 1 and rng.random() < 0.2:
                found.append((Match.from_data(match.to_data()), seat))
                break
        match.apply(random_action(match, rng, free=0))
    return found


@pytest.mark.parametrize("game, players", TABLES)
def test_redeal_depends_only_on_what_the_seat_knows(game, players):
    """Re-dealing a state the seat cannot tell from the true one gives the very same worlds."""
    for match, seat in decision_points(game, players, seed=players, count=6):
        for k in range(2):
            other = match.game.redeal(match.state, seat, Rng.seeded(100 + k))
            for draw in (1, 2):
                assert to_data(match.game.redeal(other, seat, Rng.seeded(draw))) == \
                    to_data(match.game.redeal(match.state, seat, Rng.seeded(draw)))


@pytest.mark.parametrize("game, players", TABLES)
def test_the_search_chooses_the_same_on_states_that_differ_only_in_what_it_may_not_know(game, players):
    """The fairness test: the true state's secrets re-drawn, the bot's choice (fixed seed) does not move."""
    differed = 0
    for match, seat in decision_points(game, players, seed=players + 1, count=5):
        bot = SearchBot(TINY, seed=7)
        chosen = bot.choose(match.game, match.state, seat, turn=len(match.actions))
        assert chosen in match.legal_actions(seat)
        for k in range(2):
            other = match.game.redeal(match.state, seat, Rng.seeded(50 + k))
            differed += to_data(other) != to_data(match.state)
            assert SearchBot(TINY, seed=7).choose(match.game, other, seat, turn=len(match.actions)) == chosen
    assert differed, "the secrets were re-drawn, so the test can fail"


@pytest.mark.parametrize("game, players", TABLES)
def test_the_rule_based_player_chooses_from_the_view_alone(game, players):
    for match, seat in decision_points(game, players, seed=players + 2, count=8):
        bot = make_bot("rules", seed=3)
        chosen = bot.choose(match.game, match.state, seat, turn=len(match.actions))
        assert chosen in match.legal_actions(seat)
        other = match.game.redeal(match.state, seat, Rng.seeded(9))
        assert make_bot("rules", seed=3).choose(match.game, other, seat, turn=len(match.actions)) == chosen


@pytest.mark.parametrize("game, players", TABLES)
def test_a_search_replays_from_its_seed(game, players):
    match, seat = decision_points(game, players, seed=players + 3, count=1)[0]
    first, second = SearchBot(TINY, seed=11), SearchBot(TINY, seed=11)
    a = first.choose(match.game, match.state, seat, turn=5)
    b = second.choose(match.game, match.state, seat, turn=5)
    assert a == b
    assert first.last is not None and second.last is not None
    assert first.last.iterations == second.last.iterations > 0
    visits = lambda bot: {k: (e.visits, e.total, e.available) for k, e in bot.last.root.items()}  # noqa: E731
    assert visits(first) == visits(second)


def test_the_search_never_changes_the_state_it_is_asked_about():
    match, seat = decision_points("quovadis", 4, seed=3, count=3)[-1]
    before = to_data(match.state)
    SearchBot(TINY, seed=1).choose(match.game, match.state, seat)
    assert to_data(match.state) == before


def test_should_stop_ends_the_search_between_iterations():
    match, seat = decision_points("tenno", 3, seed=4, count=1)[0]
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 3

    bot = SearchBot(LEVELS["strong"], seed=1)
    action = bot.choose(match.game, match.state, seat, should_stop=stop)
    assert action in match.legal_actions(seat)
    assert bot.last is not None and bot.last.iterations == 3


def test_a_search_stopped_before_it_began_still_answers_legally():
    match, seat = decision_points("shadow", 3, seed=2, count=1)[0]
    action = SearchBot(LEVELS["strong"], seed=1).choose(match.game, match.state, seat, should_stop=lambda: True)
    assert action in match.legal_actions(seat)


def test_a_single_legal_action_is_taken_without_a_search():
    match = Match.new("tenno", 2, seed=1)
    for seat in range(2):
        match.apply({"seat": seat, "do": "arrange", "order": [1, 2, 3]})
    attacker = match.pending()[0]
    match.apply(next(a for a in match.legal_actions(attacker) if a["do"] == "attack"))
    defender = match.pending()[0]
    assert len(match.legal_actions(defender)) == 1  # no Monk in a row of peasants
    bot = SearchBot(LEVELS["strong"], seed=1)
    assert bot.choose(match.game, match.state, defender) == match.legal_actions(defender)[0]
    assert bot.last is not None and bot.last.iterations == 0


def test_a_bot_never_pays_unasked():
    """Quo Vadis payments are open to every seat at any time; a bot leaves them to the people."""
    match = Match.new("quovadis", 3, seed=2, options={"start_seat": 0})
    match.state.seats[0].laurels.append("V")
    kinds = {a["do"] for a in match.legal_actions(0)}
    assert "pay" in kinds
    for kind in KINDS:
        assert make_bot(kind, seed=1).choose(match.game, match.state, 0)["do"] != "pay"


def test_the_search_finds_the_capture_worth_most():
    """Tennō: with seat 1's row shown (Shogun 10, Peasant 1, Samurai 8), the Daimyo 9 takes the Samurai."""
    from engine.testing import tenno_position

    match = tenno_position(2, rows={0: [9, 1, 2], 1: [10, 1, 8]}, active=0)
    match.state.seats[1].known = [10, 1, 8]  # every card of seat 1's row was shown
    search = Search(match.game, knowledge_for("tenno"), 0, Budget(200, depth=4), Rng.seeded(1))
    action, report = search.run(match.state)
    assert (action["slot"], action["target_slot"]) == (0, 2)
    assert report.iterations == 200


def test_a_face_down_card_of_a_seat_that_refilled_nothing_is_one_of_its_peasants():
    """Tennō B.3: a row starts as the three peasants face down, the other eight cards in hand; only a refill
    brings a hand card into the row. Seat 1 has refilled nothing, so its face-down cards are peasants."""
    from engine.bots.games.tenno import _unknown_slot
    from engine.testing import tenno_position

    match = tenno_position(3, rows={0: [9, 4, 8]}, active=0)
    view = match.game.view(match.state, 0)
    assert view["players"][1]["hand"] == 8
    assert sorted(_unknown_slot(view, 1)) == [(1, 1 / 3), (2, 1 / 3), (3, 1 / 3)]


def test_a_seat_that_refilled_may_hold_any_card_it_has_not_shown():
    """Tennō B.4: a refill lays a hand card face down. Seat 1 lost its peasant 2 and refilled from hand:
    its face-down cards are its peasants 1 and 3 or one of the eight others (none of them shown), and the
    discarded 2 is none of them."""
    from engine.bots.games.tenno import HIGHS, _unknown_slot
    from engine.testing import tenno_position

    match = tenno_position(3, rows={1: [1, 7, 3]}, hands={1: [c for c in HIGHS if c != 7]}, active=0)
    view = match.game.view(match.state, 0)
    assert view["discard"] == [[1, 2]]
    chances = dict(_unknown_slot(view, 1))
    assert set(chances) == {1, 3} | set(HIGHS)  # the 7 is face down, not shown: it may be any of them
    assert chances[1] == chances[3] == pytest.approx(1 / 3)
    assert sum(chances[c] for c in HIGHS) == pytest.approx(1 / 3)
    match.state.seats[1].known = [None, 7, None]  # the 7 shown in a fight: it is no longer a candidate
    view = match.game.view(match.state, 0)
    assert dict(_unknown_slot(view, 1)) == pytest.approx({1: 0.5, 3: 0.5})


def test_the_search_s_rules_of_thumb_take_a_sure_peasant_with_the_cheapest_sure_winner():
    """Tennō: against rows that are surely peasants (even a Monk's +2 makes at most 5), the Ninja's 8 wins as
    surely as the Daimyo's 9 and risks less: the search's rules of thumb attack with it. The yardstick
    (the `rules` bot) still plays as first written: its strongest card at any face-down one."""
    from engine.testing import tenno_position

    match = tenno_position(3, rows={0: [9, 4, 2]}, active=0)
    view = match.game.view(match.state, 0)
    actions = decisions(match.game, match.state, 0)
    knowledge = knowledge_for("tenno")
    choice = knowledge.rule_choice(view, actions, Rng.seeded(3))
    assert choice["do"] == "attack" and view["me"]["row"][choice["slot"]] == 4
    first = make_bot("rules", seed=3).choose(match.game, match.state, 0, turn=len(match.actions))
    assert first["do"] == "attack" and view["me"]["row"][first["slot"]] == 9


def test_the_search_s_rules_of_thumb_refill_the_shogun_then_the_geisha():
    """A refill keeps the strongest defenders in the row: the Shogun (only a Geisha beats it), then the Geisha
    (she wins every fight but another Geisha's), before the Daimyo. The yardstick keeps her back."""
    from engine.games.tenno.rules import GEISHA, SHOGUN

    def refill(cards):
        actions = [{"seat": 0, "do": "refill", "slot": 1, "card": c} for c in cards]
        return knowledge_for("tenno").rule_choice({"phase": "refill"}, actions, Rng.seeded(0))["card"]

    assert refill((9, GEISHA, 8)) == GEISHA
    assert refill((GEISHA, 9, SHOGUN)) == SHOGUN
    first = [{"seat": 0, "do": "refill", "slot": 1, "card": c} for c in (9, GEISHA, 8)]
    assert knowledge_for("tenno").baseline_choice({"phase": "refill"}, first, Rng.seeded(0))["card"] == 9


def test_clone_copies_every_mutable_part():
    match = Match.new("shadow", 3, seed=5)
    rng = random.Random(5)
    for _ in range(40):
        match.apply(random_action(match, rng, free=0))
    copied = clone(match.state)
    assert copied == match.state and to_data(copied) == to_data(match.state)
    before = to_data(match.state)
    other = Match(match.game, match.header, copied)
    for _ in range(40):
        if other.is_over:
            break
        other.apply(random_action(other, rng, free=0))
    assert to_data(match.state) == before


def test_an_unknown_bot_is_refused_by_name():
    with pytest.raises(UnknownBot, match="bots: easy, normal, strong, rules, random"):
        make_bot("grandmaster")


def test_a_bot_is_made_with_its_own_seed_and_zero_by_default():
    for kind in KINDS:
        assert make_bot(kind, seed=7).seed == 7 and make_bot(kind).seed == 0
    assert make_bot("normal", 3).level is LEVELS["normal"]


def test_a_game_s_knowledge_is_made_when_first_asked_for_and_kept(monkeypatch):
    import engine.bots.games as games
    from engine.bots.knowledge import Knowledge

    monkeypatch.setattr(games, "_KNOWLEDGE", {})  # as at start: nothing asked for yet
    kinds = {"tenno": "TennoKnowledge", "quovadis": "QuoVadisKnowledge", "shadow": "ShadowKnowledge"}
    for game, kind in kinds.items():
        made = knowledge_for(game)
        assert type(made).__name__ == kind and knowledge_for(game) is made
    assert type(knowledge_for("chess")) is Knowledge and "chess" not in games._KNOWLEDGE


def test_a_bot_asks_no_second_vote_in_a_turn_once_a_committee_said_no():
    """Quo Vadis: a refused vote leaves the turn open; people would talk, a bot moves on (else it asks forever)."""
    from engine.testing import quovadis_position

    match = quovadis_position(3, {"B1": [0, 1, 2]}, active=0)
    votes = [a for a in match.legal_actions(0) if a["do"] == "advance"]
    assert votes
    match.apply(votes[0])
    match.apply({"seat": 1, "do": "refuse"})
    match.apply({"seat": 2, "do": "refuse"})
    assert match.pending() == [0] and match.state.phase == "turn"
    for kind in ("rules", "easy"):
        action = make_bot(kind, seed=1).choose(match.game, match.state, 0, len(match.actions))
        assert action["do"] != "advance" or action["committee"] != "B1", kind


def test_a_wide_decision_weighs_only_the_actions_the_rules_of_thumb_rank_best():
    """Shadow: two dozen iterations cannot tell forty actions apart, so the search weighs the best three."""
    knowledge = knowledge_for("shadow")
    match, seat = next((m, s) for m, s in decision_points("shadow", 4, seed=3, count=40)
                       if len(decisions(m.game, m.state, s)) > 12)
    view = match.game.view(match.state, seat)
    actions = knowledge.prune(view, decisions(match.game, match.state, seat))
    ranks = knowledge.rank(view, actions)
    assert ranks is not None and len(ranks) == len(actions)
    action, report = Search(match.game, knowledge, seat, Budget(24, depth=2), Rng.seeded(1)).run(match.state)
    keys = [action_key(a) for a in actions]
    weighed = set(report.root)
    third = sorted(ranks, reverse=True)[2]
    assert 3 <= len(weighed) <= 4  # the best three, and the rule-based player's choice if it is not among them
    assert keys[ranks.index(max(ranks))] in weighed
    assert sum(1 for k, r in zip(keys, ranks) if k in weighed and r < third) <= 1
    assert action_key(action) in weighed


def _shadow_ranks(options: dict, board: dict, card: str) -> dict[tuple[str, str], float]:
    """How the rules of thumb rank buying `card` to each place, for seat 0 of a two-seat Shadow position."""
    from engine.games.shadow.position import position

    match = position(2, phase="actions", emperor=0, thalers={0: 10}, options=options, board=board)
    actions = decisions(match.game, match.state, 0)
    ranks = knowledge_for("shadow").rank(match.game.view(match.state, 0), actions)
    return {(a["area"], a["spot"]): r for a, r in zip(actions, ranks) if a.get("card") == card}


def test_the_shadow_rules_of_thumb_count_the_kings_daughter_as_the_option_plays_her():
    """Blue leads Saxony 2 to 1: flipping Red's single Baron only ties it; a new Couple (option
    `kings_daughter` = new_couple) brings two influence and takes the lead, so it must rank higher."""
    board = {"SAXONY": {"spaces": ["B1/25", "B1/25", "B0/15"]}}
    flip = _shadow_ranks({"kings_daughter": "flip"}, board, "kings_daughter")
    new = _shadow_ranks({"kings_daughter": "new_couple"}, board, "kings_daughter")
    assert set(flip) == {("SAXONY", "a2")} and ("SAXONY", "a3") in new
    assert new[("SAXONY", "a3")] > flip[("SAXONY", "a2")] + 1
    assert new[("SAXONY", "a3")] == max(new.values())  # nowhere else does a Couple win an electorate


def test_the_shadow_rules_of_thumb_count_the_knight_a_knight_card_pushes_off():
    """Blue leads Saxony 2 to 1 with a knight among its pieces: by option `knight_card_pushes` Red's
    knight can take that knight's space, which wins Saxony, where an empty space only ties it."""
    board = {"SAXONY": {"spaces": ["B1/25", "K1", "B0/25"]}}
    plain = _shadow_ranks({"knight_card_pushes": False}, board, "knight")
    pushes = _shadow_ranks({"knight_card_pushes": True}, board, "knight")
    assert ("SAXONY", "a1") not in plain
    assert pushes[("SAXONY", "a1")] > pushes[("SAXONY", "a3")] + 1
    assert pushes[("SAXONY", "a3")] == plain[("SAXONY", "a3")]
    from engine.games.shadow.position import position

    match = position(2, phase="actions", emperor=0, thalers={0: 10}, options={"knight_card_pushes": True},
                     board=board)
    chosen = make_bot("rules", seed=1).choose(match.game, match.state, 0)
    assert (chosen["do"], chosen.get("card"), chosen["area"], chosen["spot"]) == ("buy", "knight", "SAXONY", "a1")


def test_a_world_is_judged_by_what_changed_in_it_not_by_the_draw_of_its_hidden_score():
    """Tennō's prisoners are face down for everyone: each world re-deals them among the seats, and a
    world's points start from the mean of the worlds drawn so far, not from its own lucky draw."""
    match, seat = next((m, s) for m, s in decision_points("tenno", 5, seed=8, count=40)
                       if sum(len(p.captives) for p in m.state.seats) >= 4)
    knowledge = knowledge_for("tenno")
    search = Search(match.game, knowledge, seat, Budget(8, depth=2), Rng.seeded(1))
    worlds = [match.game.redeal(match.state, seat, Rng.seeded(k)) for k in range(5)]
    drawn = [list(knowledge.points(w)) for w in worlds]
    assert len({tuple(d) for d in drawn}) > 1, "the draws differ, so the test can fail"
    for n, (world, points) in enumerate(zip(worlds, drawn), start=1):
        shift = search._shift(world)
        mean = [sum(column) / n for column in zip(*drawn[:n])]
        assert [p + d for p, d in zip(points, shift)] == pytest.approx(mean)


def test_a_bot_made_directly_is_named_by_its_level_or_kind_seeded_zero_and_has_searched_nothing_yet():
    from engine.bots import RuleBot, UniformBot

    search = SearchBot(LEVELS["easy"])
    assert (search.name, search.seed, search.last) == ("easy", 0, None)
    assert (RuleBot().name, RuleBot().seed, UniformBot().name, UniformBot().seed) == ("rules", 0, "random", 0)


def test_a_choice_asked_without_a_turn_is_the_one_at_turn_zero():
    """A bot's randomness comes from its seed and the match's length: no turn given means the first."""
    from engine.bots import RuleBot, UniformBot

    def at(bot, match, seat, turn):
        return action_key(bot.choose(match.game, match.state, seat, turn=turn))

    points = decision_points("shadow", 3, seed=5, count=8)
    for bot in (UniformBot(seed=2), RuleBot(seed=2), SearchBot(TINY, seed=2)):
        # a decision the turn moves, so the test can fail
        match, seat = next((m, s) for m, s in points if at(bot, m, s, 0) != at(bot, m, s, 1))
        assert action_key(bot.choose(match.game, match.state, seat)) == at(bot, match, seat, 0)


def test_a_search_for_a_seat_with_nothing_to_decide_says_so():
    match = Match.new("tenno", 2, seed=1)
    match.apply({"seat": 0, "do": "arrange", "order": [1, 2, 3]})
    assert match.pending() == [1]
    search = Search(match.game, knowledge_for("tenno"), 0, Budget(4, depth=2), Rng.seeded(1))
    with pytest.raises(ValueError, match="seat 0 has nothing to decide"):
        search.run(match.state)


def test_the_search_answers_its_most_visited_action_then_the_better_mean_then_the_earliest():
    from engine.bots.search import Edge

    a, b, c = ({"seat": 0, "do": "place", "at": n} for n in range(3))
    best = Search._best
    assert best([a, b, c], {}) == a  # stopped before it began
    assert best([a, b], {action_key(b): Edge(visits=0, available=1)}) == b
    assert best([a, b, c], {action_key(b): Edge(1, 1.0), action_key(c): Edge(3, 0.5)}) == c
    assert best([a, b, c], {action_key(a): Edge(2, 0.4), action_key(b): Edge(2, 1.2), action_key(c): Edge(2, 1.2)}) == b
