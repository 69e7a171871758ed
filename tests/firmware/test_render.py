"""The screen renderer's kept bands give exactly the pixels Pillow draws."""

from __future__ import annotations

import pytest

from engine.testing import reachable_matches
from firmware.table.faces import seat_face
from firmware.table.menu import Menu
from firmware.table.render import HEIGHT, WIDTH, draw_face, render_face


def faces_of_play():
    for game in ("tenno", "quovadis", "shadow"):
        for match in reachable_matches(game, 3, seed=6, every=15):
            for seat in range(3):
                yield seat_face(match.game, match.names, seat, match.view(seat), match.legal_actions(seat),
                                Menu(), notice="Blue: screen fault" if seat == 2 else "")


@pytest.mark.parametrize("size", [(WIDTH, HEIGHT), (128, 32), (100, 64)])
def test_kept_bands_give_the_pixels_pillow_draws(size):
    """Each face twice: drawn and kept the first time, joined from kept bands the second; both as Pillow draws it."""
    from firmware.table.faces import Face

    faces = list(faces_of_play())
    faces.append(Face("Red", "Élan", ("Ñandú row", "plain"), "Ask?", "Yes", "1/2"))  # glyphs reach above their band
    faces.append(Face("Red", "Turn\n2", ("two\nrows",), "Ask?", "Yes", ""))
    faces.append(Face("紅", "第二輪", ("稻米 3", "plain"), "出兵？", "是", "1/2"))  # 12-pixel lines, drawn whole
    for _ in range(2):
        for face in faces:
            assert render_face(face, size).tobytes() == draw_face(face, size).tobytes(), face
