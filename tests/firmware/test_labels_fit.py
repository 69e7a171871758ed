"""Every menu choice of every game fits its screen line beside the position counter, uncut, in every language."""

from __future__ import annotations

import pytest

from engine.games import all_games
from engine.i18n import LANGUAGES, reader_names, reading
from engine.testing import reachable_matches
from firmware.table.menu import Menu
from firmware.table.render import WIDTH, font


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("game, players", [(g.name, n) for g in all_games()
                                           for n in sorted({g.min_players, g.max_players})])
def test_menu_labels_fit_the_choice_line(game, players, lang):
    f = font()
    cut = set()
    with reading(lang):
        for seed in range(2):
            for match in reachable_matches(game, players, seed=seed, every=2):
                names = reader_names(match.names)
                for seat in range(players):
                    view = match.view(seat)
                    actions = match.legal_actions(seat)
                    menu = Menu()
                    level = menu.level(actions)
                    for _ in range(4):  # walk down the first choice at each level
                        if level is None or level.complete is not None:
                            break
                        for i, value in enumerate(level.values):
                            label = match.game.label(view, level.key, value, names, level.chosen)
                            counter = f"{i + 1}/{len(level.values)}" if len(level.values) > 1 else ""
                            room = WIDTH - 10 - (int(f.getlength(counter)) + 2 if counter else 0)  # as render_face
                            if f.getlength(label) > room:
                                cut.add(label)
                        menu.choose(actions)
                        level = menu.level(actions)
    assert not cut, f"labels cut on the screen in {lang}: {sorted(cut)[:10]}"


@pytest.mark.parametrize("game, players", [(g.name, n) for g in all_games() for n in (g.min_players, g.min_players + 1)])
def test_a_question_whole_on_an_english_screen_is_whole_in_every_language(game, players):
    """A Chinese screen has five rows of 12 pixels where an English one has six of 10: a question
    that fits beside the panel in English must fit in Chinese too, never cut to '~'."""
    from firmware.table.faces import seat_face
    from firmware.table.render import layout

    def whole(match, seat, lang):
        with reading(lang):
            face = seat_face(match.game, reader_names(match.names), seat, match.view(seat),
                             match.legal_actions(seat), Menu())
            shown = "".join(layout(face).body).replace(" ", "")
            return face.ask.replace(" ", "") in shown, face.ask

    cut = []
    for match in reachable_matches(game, players, seed=1, every=3):
        for seat in range(players):
            if not whole(match, seat, "en")[0]:
                continue
            for lang in LANGUAGES:
                fits, ask = whole(match, seat, lang)
                if not fits:
                    cut.append((lang, ask))
    assert not cut, f"questions cut on the screen: {sorted(set(cut))[:10]}"
