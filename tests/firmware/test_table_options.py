"""Rule options in the table file: `[options.GAME]` blocks, read by `courtier play --table FILE --ui none`
through the CLI's own `main`, as the service runs it.

The table's devices are gpiozero's mock pins and luma's dummy screens
(``COURTIER_HARDWARE=mock``); the service's loop is stopped as soon as it
starts, and the options in force are read back from the saved game's header.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.match import Match
from firmware import cli, exits, play
from firmware.table import journal as journals
from firmware.table.paths import CURRENT
from firmware.testing import pi_table_text

@pytest.fixture
def start(monkeypatch, tmp_path):
    """Run the service's command line on a table file ending in `options`; return (status, saved header)."""
    state = tmp_path / "state"
    monkeypatch.setenv("COURTIER_HARDWARE", "mock")
    monkeypatch.setenv("STATE_DIRECTORY", str(state))
    monkeypatch.delenv("COURTIER_STATE_DIR", raising=False)
    monkeypatch.setattr(play, "serve", lambda runtime, **_: None)  # the table starts, then stops at once

    def run(options: str, *extra: str) -> tuple[int, object]:
        table = tmp_path / "table.toml"
        table.write_text(pi_table_text(extra=options), encoding="utf-8")
        status = cli.main(["play", "--table", str(table), "--ui", "none", "--lang", "en", *extra])
        saved = state / CURRENT
        return status, journals.load(saved).header if saved.exists() else None

    return run


def test_a_table_files_options_start_its_game_and_another_games_block_is_left_for_that_game(start):
    status, header = start('[options.quovadis]\nreveal_laurels = true\nshort_supply = "turn_order"\n\n'
                           "[options.shadow]\nelector_counts = false\n", "quovadis")
    assert status == 0
    assert header.game == "quovadis"
    assert header.options["reveal_laurels"] is True and header.options["short_supply"] == "turn_order"


def test_the_command_line_wins_over_the_table_file_for_the_same_option(start):
    status, header = start("[options.quovadis]\nreveal_laurels = true\nlimited_rewards = true\n",
                           "quovadis", "--option", "reveal_laurels=false")
    assert status == 0
    assert header.options["reveal_laurels"] is False and header.options["limited_rewards"] is True


@pytest.mark.parametrize(("block", "said"), [
    ("[options.quovadis]\nreveal_laurel = true\n", "quovadis has no option 'reveal_laurel' (its options: "),
    ("[options.quovadis]\nreveal_laurels = 1\n", "option 'reveal_laurels' takes a bool, not 1"),
    ('[options.tenno]\nronin_swap = "never"\n', "option 'ronin_swap' must be one of "),
    ("[options.chess]\ncastling = true\n", "no game called 'chess' (known games: "),
])
def test_a_bad_option_name_value_or_game_in_the_file_is_refused_naming_the_file_and_the_key(start, block, said,
                                                                                              capsys, tmp_path):
    status, header = start(block, "tenno")
    assert status == exits.CONFIG  # the service is not restarted: only the file can mend it
    assert header is None  # nothing started, nothing saved
    error = capsys.readouterr().err
    game = block.split("]")[0].removeprefix("[options.")
    assert error.startswith(f"courtier: {tmp_path / 'table.toml'}: [options.{game}]: {said}")
    assert error.rstrip().endswith("(fix the table file, then start again)")


def test_the_refusal_is_told_in_the_tables_language(start, capsys):
    status, _header = start("[options.quovadis]\nreveal_laurels = 1\n", "quovadis", "--lang", "zh_Hant")
    assert status == exits.CONFIG
    error = capsys.readouterr().err
    assert "[options.quovadis]" in error and "reveal_laurels" in error
    assert "takes a" not in error and "fix the table file" not in error


def test_a_block_that_is_no_table_is_refused_by_the_table_file_check(start, capsys):
    status, header = start("[options]\nquovadis = true\n", "quovadis")
    assert status == exits.CONFIG and header is None
    assert "[options.quovadis]: must be a table of rule options, not a boolean" in capsys.readouterr().err


def test_a_resumed_game_keeps_its_own_options_and_says_the_files_were_not_used(start, capsys):
    status, first = start("", "quovadis")
    assert status == 0 and first.options["reveal_laurels"] is False
    capsys.readouterr()
    status, again = start("[options.quovadis]\nreveal_laurels = true\nlimited_rewards = false\n")
    assert status == 0 and again == first  # the saved game's header, untouched
    out = capsys.readouterr().out
    assert "Resumed Quo Vadis" in out
    # One line names what differs (limited_rewards is the game's own value already), and how to get it.
    line = next(line for line in out.splitlines() if line.startswith("Not used"))
    assert "[options.quovadis] reveal_laurels = true" in line and "limited_rewards" not in line
    assert "--new" in line
    status, new = start("[options.quovadis]\nreveal_laurels = true\n", "--new", "quovadis")
    assert status == 0 and new.options["reveal_laurels"] is True


def test_a_new_game_started_from_the_table_menu_keeps_the_command_lines_options(start, monkeypatch):
    """`--option` is asked of the game the table plays, as the file's block is: a game ended at the table
    and begun anew keeps both, and a new game of another game takes neither."""
    from firmware.table.runtime import Command
    from firmware.testing import post

    started = []

    def end_at_the_table(runtime: Any, **_: Any) -> None:
        started.append(runtime.match.header)
        post(runtime, 0, "ok", "hold")  # Red opens the table menu
        post(runtime, 0, "prev", times=2)
        post(runtime, 0)  # End the game
        post(runtime, 1)  # Blue agrees: the same game begins anew
        started.append(runtime.match.header)
        runtime.run_command(Command("new_game", {"game": "tenno"}))  # the console starts another game
        started.append(runtime.match.header)

    monkeypatch.setattr(play, "serve", end_at_the_table)
    status, _saved = start("[options.quovadis]\nlimited_rewards = true\n", "quovadis", "--players", "3",
                           "--option", "reveal_laurels=true")
    assert status == 0
    first, again, tenno = started
    assert first.options["reveal_laurels"] is True and first.options["limited_rewards"] is True
    assert again.game == "quovadis" and again.seed != first.seed  # a new game, not the one the table began with
    assert again.options == first.options
    assert tenno.game == "tenno" and tenno.options == Match.new("tenno", 3, seed=1).header.options
