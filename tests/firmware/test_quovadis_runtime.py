"""A Quo Vadis vote driven by mock buttons on three seats, each screen showing only its own."""

from __future__ import annotations

import pytest

from engine.testing import quovadis_position
from firmware.table.runtime import Runtime
from firmware.testing import press, screen_text
from hardware.events import InputEvent
from hardware.factory import open_table
from hardware.table import emulator_table

RED, BLUE, YELLOW = 0, 1, 2


@pytest.fixture
def table():
    with open_table(emulator_table(3, ["Red", "Blue", "Yellow"]), "mock") as opened:
        yield opened


screen = screen_text


def hold(runtime: Runtime, seat: int) -> None:
    """A held ok, as the seat's button reports it once the hold time is up."""
    runtime.post(InputEvent(seat, "ok", "hold"))
    runtime.drain()


def test_buttons_drive_a_vote_with_private_answers_and_paid_supporters(table):
    match = quovadis_position(3, {"E2": [RED, BLUE, YELLOW]}, laurels={YELLOW: ["V"]})
    runtime = Runtime(match, [seat.screen for seat in table.seats])
    table.on_event = runtime.post
    token = match.state.diamonds["p02"]

    assert "Your turn:" in screen(table, runtime, RED) and "> Place senator" in screen(table, runtime, RED)
    press(table, runtime, RED, "next")
    assert "> Advance" in screen(table, runtime, RED)
    press(table, runtime, RED, "ok")
    assert "> E2>A1" in screen(table, runtime, RED)  # the only committee is chosen for Red
    press(table, runtime, RED, "ok")
    assert match.state.phase == "vote"

    # Blue and Yellow are asked on their own screens; Red waits.
    for seat in (BLUE, YELLOW):
        assert "Red: leave E2>A1?" in screen(table, runtime, seat)
        assert "> Yes, let it pass" in screen(table, runtime, seat)
    assert "Waiting: Blue, Yellow" in screen(table, runtime, RED)

    press(table, runtime, BLUE, "ok")  # yes
    assert "You said yes; waiting" in screen(table, runtime, BLUE)
    assert "yes" not in screen(table, runtime, YELLOW).lower().replace("yes, let it pass", "")
    assert "Waiting for Yellow" in screen(table, runtime, RED)
    assert "Laurels 5: V" in screen(table, runtime, YELLOW)
    assert "Laurels 5" not in screen(table, runtime, RED) + screen(table, runtime, BLUE)

    press(table, runtime, YELLOW, "ok")  # yes: 3 of 5 seats
    state = match.state
    assert state.committees["A1"] == [RED] and state.seats[RED].laurels == [token]
    assert state.seats[BLUE].laurels == ["I"] and sorted(state.seats[YELLOW].laurels) == ["I", "V"]
    assert state.active == BLUE
    assert f"Laurels {match.game.view(state, RED)['me']['total']}" in screen(table, runtime, RED)
    assert "Your turn:" in screen(table, runtime, BLUE)


def test_a_waiting_seat_can_give_a_laurel_from_its_screen(table):
    match = quovadis_position(3, {}, laurels={BLUE: ["III"]})
    runtime = Runtime(match, [seat.screen for seat in table.seats])
    table.on_event = runtime.post
    assert "Waiting for Red" in screen(table, runtime, BLUE)
    assert "> Give: Red" in screen(table, runtime, BLUE)
    press(table, runtime, BLUE, "next")
    press(table, runtime, BLUE, "ok")  # to Yellow; the only token is chosen at once
    assert "Sure? Give: Yellow III (3)" in screen(table, runtime, BLUE)
    assert match.state.seats[BLUE].laurels == ["III"]  # nothing is handed over before the yes
    press(table, runtime, BLUE, "ok")
    assert match.state.seats[YELLOW].laurels == ["III"] and match.state.seats[BLUE].laurels == []
    assert "Laurels 3: III" in screen(table, runtime, YELLOW)
    assert match.state.active == RED


def test_a_payment_asked_again_can_be_called_off_with_a_held_ok(table):
    from hardware.events import InputEvent

    match = quovadis_position(3, {}, laurels={BLUE: ["III"]})
    runtime = Runtime(match, [seat.screen for seat in table.seats])
    table.on_event = runtime.post
    press(table, runtime, BLUE, "ok")
    assert "Sure?" in screen(table, runtime, BLUE)
    runtime.post(InputEvent(BLUE, "ok", "hold"))
    runtime.drain()
    assert "Sure?" not in screen(table, runtime, BLUE) and match.state.seats[BLUE].laurels == ["III"]


def test_the_reveal_variant_is_a_demand_from_any_seats_table_menu_never_its_game_menu(table):
    """Seed: any player *may demand* the laurels when the 1st, 2nd and 3rd player reach the Senate."""
    match = quovadis_position(3, {"C1": [RED]}, laurels={RED: ["V"], BLUE: ["II"]}, reveal_laurels=True)
    runtime = Runtime(match, [seat.screen for seat in table.seats])
    table.on_event = runtime.post
    match.apply({"seat": RED, "do": "advance", "committee": "C1", "path": "p15"})
    runtime.refresh()
    for _ in range(12):  # Blue's whole game menu: the demand is not in it
        assert "Demand" not in screen(table, runtime, BLUE)
        press(table, runtime, BLUE, "next")
    hold(runtime, YELLOW)  # Yellow, not the player on turn, opens the table menu
    assert "> Demand the laurels" in screen(table, runtime, YELLOW)
    press(table, runtime, YELLOW, "ok")
    assert match.state.revealed == [{"entered": 1, "totals": {"0": 5, "1": 2, "2": 0}}]
    assert runtime.seats[YELLOW].mode == "" and match.pending() == [BLUE]
    hold(runtime, YELLOW)
    assert "Demand" not in screen(table, runtime, YELLOW)  # asked once: the table menu is as before
    assert "> Undo last action" in screen(table, runtime, YELLOW)
