"""A Quo Vadis vote driven by mock buttons on three seats, each screen showing only its own."""

from __future__ import annotations

from engine.testing import quovadis_position
from firmware.table.runtime import Runtime
from firmware.testing import post, press, screen_text

RED, BLUE, YELLOW = 0, 1, 2


screen = screen_text


def test_buttons_drive_a_vote_with_private_answers_and_paid_supporters(mock_table):
    match = quovadis_position(3, {"E2": [RED, BLUE, YELLOW]}, laurels={YELLOW: ["V"]})
    runtime = Runtime(match, [seat.screen for seat in mock_table.seats])
    mock_table.on_event = runtime.post
    token = match.state.diamonds["p02"]

    assert "Your turn:" in screen(mock_table, runtime, RED) and "> Place senator" in screen(mock_table, runtime, RED)
    press(mock_table, runtime, RED, "next")
    assert "> Advance" in screen(mock_table, runtime, RED)
    press(mock_table, runtime, RED, "ok")
    assert "> E2>A1" in screen(mock_table, runtime, RED)  # the only committee is chosen for Red
    press(mock_table, runtime, RED, "ok")
    assert match.state.phase == "vote"

    # Blue and Yellow are asked on their own screens; Red waits.
    for seat in (BLUE, YELLOW):
        assert "Red: leave E2>A1?" in screen(mock_table, runtime, seat)
        assert "> Yes, let it pass" in screen(mock_table, runtime, seat)
    assert "Waiting: Blue, Yellow" in screen(mock_table, runtime, RED)

    press(mock_table, runtime, BLUE, "ok")  # yes
    assert "You said yes; waiting" in screen(mock_table, runtime, BLUE)
    assert "yes" not in screen(mock_table, runtime, YELLOW).lower().replace("yes, let it pass", "")
    assert "Waiting for Yellow" in screen(mock_table, runtime, RED)
    assert "Laurels 5: V" in screen(mock_table, runtime, YELLOW)
    assert "Laurels 5" not in screen(mock_table, runtime, RED) + screen(mock_table, runtime, BLUE)

    press(mock_table, runtime, YELLOW, "ok")  # yes: 3 of 5 seats
    state = match.state
    assert state.committees["A1"] == [RED] and state.seats[RED].laurels == [token]
    assert state.seats[BLUE].laurels == ["I"] and sorted(state.seats[YELLOW].laurels) == ["I", "V"]
    assert state.active == BLUE
    assert f"Laurels {match.game.view(state, RED)['me']['total']}" in screen(mock_table, runtime, RED)
    assert "Your turn:" in screen(mock_table, runtime, BLUE)


def test_a_waiting_seat_can_give_a_laurel_from_its_screen(mock_table):
    match = quovadis_position(3, {}, laurels={BLUE: ["III"]})
    runtime = Runtime(match, [seat.screen for seat in mock_table.seats])
    mock_table.on_event = runtime.post
    assert "Waiting for Red" in screen(mock_table, runtime, BLUE)
    assert "> Give: Red" in screen(mock_table, runtime, BLUE)
    press(mock_table, runtime, BLUE, "next")
    press(mock_table, runtime, BLUE, "ok")  # to Yellow; the only token is chosen at once
    assert "Sure? Give: Yellow III (3)" in screen(mock_table, runtime, BLUE)
    assert match.state.seats[BLUE].laurels == ["III"]  # nothing is handed over before the yes
    press(mock_table, runtime, BLUE, "ok")
    assert match.state.seats[YELLOW].laurels == ["III"] and match.state.seats[BLUE].laurels == []
    assert "Laurels 3: III" in screen(mock_table, runtime, YELLOW)
    assert match.state.active == RED


def test_a_payment_asked_again_can_be_called_off_with_a_held_ok(mock_table):
    match = quovadis_position(3, {}, laurels={BLUE: ["III"]})
    runtime = Runtime(match, [seat.screen for seat in mock_table.seats])
    mock_table.on_event = runtime.post
    press(mock_table, runtime, BLUE, "ok")
    assert "Sure?" in screen(mock_table, runtime, BLUE)
    post(runtime, BLUE, "ok", "hold")
    assert "Sure?" not in screen(mock_table, runtime, BLUE) and match.state.seats[BLUE].laurels == ["III"]


def test_the_reveal_variant_is_a_demand_from_any_seats_table_menu_never_its_game_menu(mock_table):
    """Seed: any player *may demand* the laurels when the 1st, 2nd and 3rd player reach the Senate."""
    match = quovadis_position(3, {"C1": [RED]}, laurels={RED: ["V"], BLUE: ["II"]}, reveal_laurels=True)
    runtime = Runtime(match, [seat.screen for seat in mock_table.seats])
    mock_table.on_event = runtime.post
    match.apply({"seat": RED, "do": "advance", "committee": "C1", "path": "p15"})
    runtime.refresh()
    for _ in range(12):  # Blue's whole game menu: the demand is not in it
        assert "Demand" not in screen(mock_table, runtime, BLUE)
        press(mock_table, runtime, BLUE, "next")
    post(runtime, YELLOW, "ok", "hold")  # Yellow, not the player on turn, opens the table menu
    assert "> Demand the laurels" in screen(mock_table, runtime, YELLOW)
    press(mock_table, runtime, YELLOW, "ok")
    assert match.state.revealed == [{"entered": 1, "totals": {"0": 5, "1": 2, "2": 0}}]
    assert runtime.seats[YELLOW].mode == "" and match.pending() == [BLUE]
    post(runtime, YELLOW, "ok", "hold")
    assert "Demand" not in screen(mock_table, runtime, YELLOW)  # asked once: the table menu is as before
    assert "> Undo last action" in screen(mock_table, runtime, YELLOW)
