"""Shadow on a mock table: a marriage proposal, an elector tie and a secret ballot driven by buttons."""

from __future__ import annotations

from engine.games.shadow.position import position
from firmware.table.render import render_face
from firmware.testing import press, run_on, screen_text
from hardware.factory import open_table
from hardware.table import emulator_table

NAMES = ["Red", "Blue", "Green", "Yellow"]


run, screen = run_on, screen_text


def image(runtime, seat):
    return render_face(runtime.seats[seat].face).tobytes()


def test_a_marriage_offer_is_asked_on_the_grooms_seat_only(mock_table):
    match = position(3, phase="descendants", emperor=0, cards={0: ["pope"]}, thalers={0: 4, 1: 5, 2: 6},
                     board={"SAXONY": {"spaces": ["B1/25"]}, "MAINZ": {"elector": "B2/25"}})
    runtime = run(mock_table, match)
    red = screen(mock_table, runtime, 0)
    assert "A daughter: whom to marry?" in red and "> Propose marriage" in red
    assert "Waiting for Red" in screen(mock_table, runtime, 1)

    press(mock_table, runtime, 0, "next")
    assert "> Nunnery (+1)" in screen(mock_table, runtime, 0)
    press(mock_table, runtime, 0, "prev")
    press(mock_table, runtime, 0, "ok")  # the only groom: Blue's Baron 25 in Saxony
    assert match.pending() == [1]

    blue = screen(mock_table, runtime, 1)
    assert "Marry Red's daughter to your B25?" in blue and "> Yes (Saxony)" in blue
    assert "Marry" not in screen(mock_table, runtime, 2) and "Waiting for Blue" in screen(mock_table, runtime, 2)
    assert "Waiting for Blue" in screen(mock_table, runtime, 0)
    press(mock_table, runtime, 2, "ok")  # Green has nothing to answer: nothing happens
    assert match.pending() == [1]

    press(mock_table, runtime, 1, "ok")
    saxony = next(e for e in match.state.electorates if e.id == "SAXONY")
    assert saxony.spaces[0].kind == "couple"
    assert "4 thalers  1 VP" in screen(mock_table, runtime, 0)  # Red's own panel shows the marriage VP
    assert "1 VP" not in screen(mock_table, runtime, 1) and "1 VP" not in screen(mock_table, runtime, 2)
    assert match.state.phase == "actions" and "Your turn" in screen(mock_table, runtime, 0)


def test_the_emperor_breaks_an_elector_tie_on_his_own_seat(mock_table):
    match = position(3, phase="electors", emperor=0, board={"SAXONY": {"spaces": ["B1/25", "B2/15"]}})
    runtime = run(mock_table, match)
    red = screen(mock_table, runtime, 0)
    assert "Tie in Saxony: who wins?" in red and "> Blue" in red
    assert "Tie" not in screen(mock_table, runtime, 1) and "Waiting for Red" in screen(mock_table, runtime, 1)
    press(mock_table, runtime, 0, "next")
    assert "> Green" in screen(mock_table, runtime, 0)
    press(mock_table, runtime, 0, "ok")
    assert next(e for e in match.state.electorates if e.id == "SAXONY").elector.owner == 2


def election():
    """Red emperor, Blue rival; Green holds Bohemia (2 votes), Yellow Mainz (1)."""
    return position(4, phase="election", emperor=0, throne="B0/35", cards={1: ["rival"]},
                    board={"BOHEMIA": {"elector": "B2/25"}, "MAINZ": {"elector": "B3/25"},
                           "SAXONY": {"spaces": ["B1/25"]}})


def green_votes(choice_presses: int):
    """Play the ballot up to Green's vote on a fresh table; return what every seat's screen shows."""
    with open_table(emulator_table(4, NAMES), "mock") as table:
        match = election()
        runtime = run(table, match)
        assert match.pending() == [2, 3]
        green = screen(table, runtime, 2)
        assert "Secret vote: Red or Blue?" in green and "> Red (emperor)" in green
        assert "Secret vote" in screen(table, runtime, 3)
        assert "Secret vote" not in screen(table, runtime, 0) and "Waiting: Green, Yellow" in screen(table, runtime, 0)
        press(table, runtime, 2, "next", choice_presses)
        press(table, runtime, 2, "ok")
        assert match.pending() == [3]
        return match, [screen(table, runtime, s) for s in range(4)], [image(runtime, s) for s in range(4)]


def test_a_ballot_reaches_no_other_screen_before_all_are_in_then_all_are_revealed_together():
    for_emperor, texts_e, images_e = green_votes(0)
    for_rival, texts_r, images_r = green_votes(1)
    assert for_emperor.state.ballots == {2: "emperor"} and for_rival.state.ballots == {2: "rival"}
    assert "Votes 2 for Red" in texts_e[2] and "Votes 2 for Blue" in texts_r[2]  # Green sees its own vote
    for seat in (0, 1, 3):  # every other screen is the same, byte for byte, whichever way Green voted
        assert images_e[seat] == images_r[seat] and texts_e[seat] == texts_r[seat]
    assert "Secret vote: Red or Blue?" in texts_r[3]

    with open_table(emulator_table(4, NAMES), "mock") as table:
        match = election()
        runtime = run(table, match)
        press(table, runtime, 2, "next")
        press(table, runtime, 2, "ok")  # Green: Blue
        press(table, runtime, 3, "ok")  # Yellow: Red
        assert match.state.election.revealed == {2: "rival", 3: "emperor"}
        assert match.state.emperor == 1 and match.state.throne.owner == 1  # Blue 0 + Green 2 beats Red 0 + Yellow 1
        assert "Place your old emperor" in screen(table, runtime, 0)
        assert "Votes 2 for Blue" not in screen(table, runtime, 3)
        prompt = match.prompt()
        assert any("Green: Blue, Yellow: Red" in step for step in prompt.steps)
        assert match.state.seats[2].vp == 1 and match.state.seats[3].vp == 0
