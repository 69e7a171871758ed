"""The game protocol's shared pieces: results, waiting lines, seat names, the registry, the words' catalog."""

from __future__ import annotations

import gettext

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from engine import i18n
from engine.errors import BadJournal, EngineError, IllegalAction, UnknownGame
from engine.game import MENU_HELP, Game, ModularGame, Result, waiting_line
from engine.games import all_games, get_game, register
from engine.rng import Rng

NAMES = ("Red", "Blue", "Yellow", "Green")


def test_a_result_is_json_data_with_string_seat_keys():
    result = Result(scores={0: 3, 1: 5}, winners=(1,), breakdown={0: {"x": 1}, 1: {"x": 2}}, reason="refill")
    assert result.to_data() == {"scores": {"0": 3, "1": 5}, "winners": [1],
                                "breakdown": {"0": {"x": 1}, "1": {"x": 2}}, "reason": "refill"}
    assert Result(scores={}, winners=()).to_data() == {"scores": {}, "winners": [], "breakdown": {}, "reason": ""}


def test_the_waiting_line_names_one_or_two_seats_and_counts_more():
    assert waiting_line([2], NAMES) == "Waiting for Yellow"
    assert waiting_line([0, 3], NAMES) == "Waiting: Red, Green"
    assert waiting_line([0, 1, 3], NAMES) == "Waiting for 3 seats"


def test_seat_names_are_the_games_colours_or_numbered_when_there_are_too_few():
    class Plain(ModularGame):
        colours = ("Red", "Blue")

    assert Plain().seat_names(2) == ["Red", "Blue"]
    assert Plain().seat_names(3) == ["Seat 1", "Seat 2", "Seat 3"]
    assert Game().seat_names(2) == ["Seat 1", "Seat 2"]


def test_the_base_game_names_what_a_game_must_provide():
    game = Game()
    for call in (lambda: game.setup(2, Rng(), {}), lambda: game.pending(None), lambda: game.legal_actions(None, 0),
                 lambda: game.perform(None, {}), lambda: game.result(None), lambda: game.view(None, 0),
                 lambda: game.public_view(None), lambda: game.public_prompt({}, NAMES),
                 lambda: game.header({}, NAMES), lambda: game.panel({}, NAMES), lambda: game.ask({}, NAMES),
                 lambda: game.label({}, "k", 1, NAMES, {}), lambda: game.describe_event({}, NAMES),
                 lambda: game.redeal(None, 0, Rng())):
        with pytest.raises(NotImplementedError):
            call()
    assert game.standings({}, NAMES) == [] and game.rules_help({}, NAMES) == []
    assert game.check_invariants(None) is None


def test_rules_help_is_the_phases_lines_and_the_end_has_its_own():
    tenno = get_game("tenno")
    text = tenno.text
    after = [*text.LEGEND, MENU_HELP]  # what the screen's short words mean, after every phase's rules
    assert tenno.rules_help({"phase": "attack"}, NAMES) == [*text.HELP["attack"], *after]
    assert tenno.rules_help({"phase": "attack", "over": {"winners": [0]}}, NAMES) == [*text.HELP["over"], *after]
    assert tenno.rules_help({"phase": "nowhere"}, NAMES) == after


@pytest.mark.parametrize("name", ["tenno", "quovadis"])
def test_a_games_legend_lines_are_told_in_the_readers_language(name):
    """A game whose text keeps its LEGEND as data gets it translated after every phase's help."""
    game = get_game(name)
    with i18n.reading("zh_Hant"):
        help_lines = game.rules_help({"phase": "nowhere"}, NAMES)
        assert help_lines == [i18n._(line) for line in game.text.LEGEND] + [i18n._(MENU_HELP)]
    assert not set(help_lines) & set(game.text.LEGEND)


def test_the_registry_knows_every_game_and_names_them_when_asked_for_another():
    assert [g.name for g in all_games()] == ["quovadis", "shadow", "tenno"]
    assert get_game("tenno") is next(g for g in all_games() if g.name == "tenno")
    with pytest.raises(UnknownGame) as refused:
        get_game("chess")
    assert str(refused.value) == "no game called 'chess' (known games: quovadis, shadow, tenno)"
    assert str(UnknownGame()) == "unknown game"
    game = get_game("tenno")
    assert register(game) is game


def test_every_refusal_is_an_engine_error_and_a_value_error():
    for error in (IllegalAction, BadJournal):
        assert issubclass(error, EngineError) and issubclass(error, ValueError)
    assert issubclass(UnknownGame, KeyError)


def test_english_is_the_source_text_and_a_missing_catalog_falls_back_to_it():
    try:
        i18n.set_language("xx_NOWHERE")
        assert i18n._("Waiting for {name}") == "Waiting for {name}"
        assert i18n.ngettext("one seat", "{n} seats", 1) == "one seat"
        assert i18n.ngettext("one seat", "{n} seats", 2) == "{n} seats"
        i18n.set_language(None)
        assert isinstance(i18n._current, gettext.NullTranslations) and i18n._("x") == "x"
        assert i18n.N_("marked") == "marked"
    finally:
        i18n.set_language(None)


def test_a_catalog_is_looked_up_in_the_courtier_domain_under_the_locale_folder(tmp_path, monkeypatch):
    """A language with a catalog speaks it at once; `_` asks the current catalog on every call."""
    folder = tmp_path / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    _write_mo(folder / "courtier.mo", {"Waiting for {name}": "On attend {name}"})
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    monkeypatch.setattr(i18n, "_catalogs", {})  # catalogs loaded from the shipped folder are not this one's
    try:
        i18n.set_language("fr")
        assert waiting_line([1], NAMES) == "On attend Blue"
    finally:
        i18n.set_language(None)
    assert waiting_line([1], NAMES) == "Waiting for Blue"


def _write_mo(path, messages: dict[str, str]) -> None:
    """A GNU .mo catalog (the format gettext reads) of ``messages``, written by Babel, for one test."""
    catalog = Catalog(locale="fr")
    for message, translation in messages.items():
        catalog.add(message, translation)
    with open(path, "wb") as out:
        write_mo(out, catalog)


def test_a_modular_game_binds_its_rules_functions_and_keeps_its_own_overrides():
    """Each of the rules' hot functions becomes the game's own, unless the class defines it itself."""
    from types import SimpleNamespace

    calls = []

    def make(name):
        return lambda *args: calls.append((name, args)) or name

    rules = SimpleNamespace(**{name: make(name) for name in ModularGame._HOT})

    class Tiny(ModularGame):
        def pending(self, state):
            return ["own"]

    Tiny.rules = rules  # set after the class: nothing is bound, every call goes through the delegates

    bound = type("Bound2", (ModularGame,), {"rules": rules, "pending": lambda self, state: ["own"]})()
    tiny = Tiny()
    for game in (tiny, bound):
        calls.clear()
        assert game.pending("s") == ["own"]
        for name in ModularGame._HOT:
            if name == "pending":
                continue
            args = {"legal_actions": ("s", 1), "perform": ("s", {"do": "x"})}.get(name, ("s",))
            assert getattr(game, name)(*args) == name and calls[-1] == (name, args), name
    assert type(bound).__dict__["legal_actions"].__func__ is rules.legal_actions  # bound straight, no delegate
    assert "legal_actions" not in Tiny.__dict__


def test_a_modular_game_serves_every_method_from_its_modules_passing_every_argument():
    """Rules, views, the real table and the words are modules of functions: each method hands its arguments on."""
    from types import SimpleNamespace

    calls = []

    def module(*names):
        def serve(name):
            return lambda *args: calls.append((name, args)) or (name, args)
        return SimpleNamespace(**{name: serve(name) for name in names})

    class Made(ModularGame):
        rules = module("setup", "pending", "legal_actions", "perform", "result", "redeal", "check_invariants")
        views = module("view", "public_view")
        tabletop = module("physical")
        text = module("prompt", "header", "panel", "ask", "label", "describe_event", "move_lines", "standings")

    game, view, rng = Made(), {"phase": "x"}, Rng()
    assert game.setup(3, rng, {"o": 1}) == ("setup", (3, rng, {"o": 1}))
    assert game.redeal("s", 2, rng) == ("redeal", ("s", 2, rng))
    assert game.view("s", 2) == ("view", ("s", 2)) and game.public_view("s") == ("public_view", ("s",))
    assert game.physical("s") == ("physical", ("s",))
    assert game.public_prompt(view, NAMES) == ("prompt", (view, NAMES))
    assert game.header(view, NAMES) == ("header", (view, NAMES))
    assert game.panel(view, NAMES) == ("panel", (view, NAMES))
    assert game.ask(view, NAMES) == ("ask", (view, NAMES, "")) and game.ask(view, NAMES, "to")[1][2] == "to"
    assert game.label(view, "k", 5, NAMES, {"do": "x"}) == ("label", (view, "k", 5, NAMES, {"do": "x"}))
    assert game.describe_event({"type": "e"}, NAMES) == ("describe_event", ({"type": "e"}, NAMES))
    assert game.describe_moves([{"what": "m"}], NAMES) == ("move_lines", ([{"what": "m"}], NAMES))
    assert game.standings(view, NAMES) == ("standings", (view, NAMES))
    assert game.check_invariants("s") is None and calls[-1] == ("check_invariants", ("s",))
    assert game.rules_help(view, NAMES) == [MENU_HELP]  # its words have no HELP and no legend
    assert Game().last_moves(SimpleNamespace(moves=({"a": 1},))) == [{"a": 1}]



def test_a_name_that_is_no_game_package_is_refused_without_importing_anything():
    """Only a package of engine/games is imported by name: no other type, path or spelling reaches importlib."""
    for name in (None, 7, "../tenno", "Tenno", ""):
        with pytest.raises(UnknownGame):
            get_game(name)


# Where each game's rules keep the table of what each action kind does.
HANDLERS = {"tenno": "engine.games.tenno.rules", "quovadis": "engine.games.quovadis.rules",
            "shadow": "engine.games.shadow.decisions"}


@pytest.mark.parametrize("game", sorted(HANDLERS))
def test_every_action_kind_the_rules_handle_has_a_title_for_undo(game):
    """An undo asks "Undo Red's row arrangement?" and tells "Red's ... is taken back": never the raw id."""
    import importlib

    assert {g.name for g in all_games()} == set(HANDLERS), "a new game: name its handlers table here"
    kinds = set(importlib.import_module(HANDLERS[game])._HANDLERS)
    titles = get_game(game).text.ACTIONS
    assert not kinds - set(titles), f"{game} actions without a title: {sorted(kinds - set(titles))}"
    names = ["Red", "Blue", "Green"]
    for kind in kinds:
        line = get_game(game).describe_event({"type": "undo", "seat": 0, "do": kind}, names)
        assert line == f"Red's {titles[kind]} is taken back"
        with i18n.reading("zh_Hant"):
            assert get_game(game).action_title({"seat": 0, "do": kind}) == i18n._(titles[kind]) != titles[kind]


def test_an_undo_tells_whose_action_is_taken_back_with_its_reversing_steps_public():
    """The undo event names the seat and the kind of action, carries the reversing steps as the
    table may see them (a hidden one without its value), and becomes the state's last events."""
    from types import SimpleNamespace

    kept = []

    class Undone(ModularGame):
        pass

    Undone.rules = SimpleNamespace(keep_events=lambda state, events: kept.append((state, events)))

    state = SimpleNamespace(moves=[{"old": "step"}])
    open_step = {"what": "card", "hidden": False, "value": [3, 3]}
    hidden_step = {"what": "card", "hidden": True, "value": [5, None]}
    event = Undone().taken_back(state, {"seat": 2, "do": "attack", "card": 4}, [open_step, hidden_step])
    assert event == {"type": "undo", "seat": 2, "do": "attack",
                     "moves": [open_step, {**hidden_step, "value": [None, None]}]}
    assert state.moves == [open_step, hidden_step]  # the whole steps, the earlier action's gone
    assert kept == [(state, [event])]


def test_an_actions_title_is_its_kinds_name_or_its_id_when_the_game_names_none():
    from types import SimpleNamespace

    class Named(ModularGame):
        text = SimpleNamespace(ACTIONS={"attack": "attack"})

    class Unnamed(ModularGame):
        text = SimpleNamespace()

    assert Named().action_title({"do": "attack"}) == "attack"
    assert Named().action_title({"do": "pass"}) == "pass" and Named().action_title({}) == ""
    assert Unnamed().action_title({"do": "pass"}) == "pass" and Unnamed().action_title({}) == ""
    assert Game().action_title({"do": "pass", "seat": 1}) == "pass" and Game().action_title({}) == ""
    with i18n.reading("zh_Hant"):
        assert Named().action_title({"do": "attack"}) == i18n._("attack") != "attack"
        assert Named().action_title({"do": 7}) == "7"


def test_a_table_gives_its_names_to_a_game_only_as_colours_the_game_has_one_per_seat():
    """A game with coloured pieces names seats by colour, so each player takes their pieces:
    a table's names are kept only when each seat's is one of the colours and no two match."""
    class Coloured(ModularGame):
        colours = ("Red", "Blue", "Green")

    class Plain(ModularGame):
        pass

    game = Coloured()
    assert game.table_names(["Blue", "Red", "Ann"], 2) == ["Blue", "Red"]  # only the seats that play
    assert game.table_names(["Blue", "Ann"], 2) is None  # not a colour of the game
    assert game.table_names(["Blue", "Blue"], 2) is None  # two seats, one colour
    assert game.table_names(["Blue"], 2) is None  # too few names
    assert game.table_names(["Green", "Red", "Blue"], 3) == ["Green", "Red", "Blue"]  # every colour taken
    assert game.table_names(["Ann", "Bob", "Cy"], 3) is None  # as many seats as colours: colours still
    assert game.table_names(None, 2) is None and game.table_names([], 3) is None
    assert game.table_names(["Ann", "Bob", "Cy", "Di"], 4) == ["Ann", "Bob", "Cy", "Di"]  # more seats than colours
    assert game.table_names(None, 4) is None
    assert Plain().table_names(["Ann", "Bob", "Cy"], 2) == ["Ann", "Bob"] and Plain().table_names(None, 2) is None
    assert Plain().table_names([], 2) is None
    assert Game().table_names(["Ann", "Bob", "Cy"], 2) == ["Ann", "Bob"]
    assert Game().table_names(None, 2) is None and Game().table_names([], 2) is None


def test_a_modular_game_whose_rules_come_after_its_class_asks_them_on_every_call():
    from types import SimpleNamespace

    class Late(ModularGame):
        pass

    Late.rules = SimpleNamespace(pending=lambda state: [state])
    assert Late().pending(3) == [3]


def test_asking_for_a_game_not_loaded_yet_imports_and_registers_its_package_alone(monkeypatch):
    """A table starts faster for loading only its own game: the package is imported by name when
    first asked for, and its import registers it."""
    import sys

    import engine.games as games

    monkeypatch.setattr(games, "_GAMES", {})
    monkeypatch.delitem(sys.modules, "engine.games.tenno")
    monkeypatch.setattr(games, "tenno", games.tenno)  # the import sets it anew; put the first one back after
    game = get_game("tenno")
    assert isinstance(game, ModularGame) and game.name == "tenno"
    assert games._GAMES == {"tenno": game} and get_game("tenno") is game


@pytest.mark.parametrize("name, players", [("tenno", 3), ("quovadis", 3), ("shadow", 2)])
def test_a_seat_s_view_is_the_public_view_and_its_private_part(name, players):
    """What the runtime words every seat from: the public view, made once, and each seat's own part beside it."""
    from engine.testing import reachable_matches

    for match in reachable_matches(name, players, seed=2, every=7):
        game, state = match.game, match.state
        for seat in range(players):
            private = game.private_view(state, seat)
            assert set(private) == {"seat", "me"} and private["seat"] == seat
            assert {**game.public_view(state), **private} == game.view(state, seat) == match.view(seat)
