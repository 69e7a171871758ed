"""The courtier command: demo, replay, games, and clear errors for bad input."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from firmware import exits
from firmware.cli import main
from hardware.factory import on_raspberry_pi

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def state_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("COURTIER_STATE_DIR", str(tmp_path / "state"))
    return tmp_path / "state"


def _scores(text):
    block = text.split("Final scores:")[1]
    return re.findall(r"^\s+(\w+)\s+(\d+)\s", block, re.M)


@pytest.mark.parametrize("argv", [["-v", "games"], ["games", "-v"], ["games", "--verbose"]])
def test_games_lists_every_option_as_typed_on_the_command_line(argv, capsys):
    """`courtier games -v` (as the README shows it) and `courtier -v games` both list the options."""
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "tenno" in out and "2-7 players" in out
    assert "--option ronin_swap=strict " in out and "--option attack_mandatory=true " in out
    assert "'" not in out.split("--option ronin_swap")[1].split("\n")[0]  # no Python quoting
    assert "True" not in out and "False" not in out


def test_games_without_v_lists_no_options(capsys):
    assert main(["games"]) == 0
    assert "--option" not in capsys.readouterr().out


def test_every_option_source_cites_a_rules_document_shipped_here_with_one_tag_style():
    """A user can open what an option cites: docs/rules/<file> in this repository, and the section exists."""
    from pathlib import Path

    from engine.games import all_games

    root = Path(__file__).resolve().parents[2]
    for game in all_games():
        for option in game.options:
            found = re.match(r"\[(HIGH|MED|LOW|ASSUMPTION)\] (docs/rules/\w+\.md) (§?[\w.]+)", option.source)
            assert found, (game.name, option.name, option.source)
            doc = (root / found.group(2)).read_text(encoding="utf-8")
            section = found.group(3).lstrip("§").rstrip(":,").split("-")[0]
            top = section.split(".")[0] if found.group(3).startswith("§") else section
            assert re.search(rf"^#+ (§)?{re.escape(top)}\b", doc, re.M), (option.name, section)


@pytest.mark.parametrize("game", ["tenno", "quovadis", "shadow"])
def test_demo_plays_a_whole_game_and_replay_of_its_journal_agrees(game, tmp_path, capsys):
    journal = tmp_path / "demo.jsonl"
    assert main(["demo", game, "--players", "4", "--seed", "7", "--journal", str(journal)]) == 0
    demo = capsys.readouterr().out
    assert "Winner:" in demo
    assert main(["replay", str(journal)]) == 0
    replay = capsys.readouterr().out
    assert _scores(demo) == _scores(replay) and _scores(demo)
    assert main(["replay", "--json", str(journal)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["over"] is True
    names = data["header"]["names"]
    assert data["result"]["scores"] == {str(names.index(name)): int(score) for name, score in _scores(demo)}


def test_demo_is_the_same_game_for_the_same_seed(tmp_path, capsys):
    main(["demo", "tenno", "--seed", "3", "--journal", str(tmp_path / "a.jsonl")])
    first = capsys.readouterr().out
    main(["demo", "tenno", "--seed", "3", "--journal", str(tmp_path / "b.jsonl")])
    second = capsys.readouterr().out
    assert first.split("Journal:")[0] == second.split("Journal:")[0]


def test_demo_without_a_journal_path_saves_under_the_state_directory(state_dir, capsys):
    main(["demo", "tenno", "--seed", "2"])
    main(["demo", "tenno", "--seed", "2"])
    assert len(list((state_dir / "games").glob("demo-tenno-seed2-*.jsonl"))) == 2


def test_replay_of_a_broken_journal_says_which_line(tmp_path, capsys):
    journal = tmp_path / "demo.jsonl"
    main(["demo", "tenno", "--seed", "1", "--journal", str(journal)])
    capsys.readouterr()
    lines = journal.read_text().splitlines()
    lines[4] = lines[4][:10]
    journal.write_text("\n".join(lines) + "\n")
    assert main(["replay", str(journal)]) == 2
    err = capsys.readouterr().err
    assert "line 5 is not valid JSON" in err


def test_replay_of_a_missing_file_is_a_clear_error(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nope.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_unknown_game_and_bad_options_are_clear_errors(capsys):
    assert main(["demo", "chess"]) == 2
    assert "no game called 'chess'" in capsys.readouterr().err
    assert main(["demo", "tenno", "--option", "ronin_swap=sometimes"]) == 2
    assert "ronin_swap" in capsys.readouterr().err
    assert main(["demo", "tenno", "--players", "9"]) == 2
    assert "2 to 7 players" in capsys.readouterr().err


def test_play_with_a_bad_table_file_names_the_problem(tmp_path, capsys):
    table = tmp_path / "table.toml"
    table.write_text('[table]\nbackend = "mock"\n[[seat]]\nname = "A"\nbuttons = { prev = 5, next = 6, ok = 5 }\n'
                     'screen = { driver = "ssd1306", bus = "i2c" }\n')
    assert main(["play", "tenno", "--table", str(table), "--ui", "none"]) == exits.CONFIG  # systemd does not retry
    err = capsys.readouterr().err
    assert "table.toml:3" in err and "pin 5" in err and "fix the table file" in err
    assert len(err.strip().splitlines()) == 1


def test_a_second_table_on_one_state_directory_exits_at_once_naming_the_first(state_dir, capsys):
    from firmware.exits import TEMPFAIL
    from firmware.table.lock import TableLock

    state_dir.mkdir()
    with TableLock.acquire(state_dir):  # a table already runs here
        assert main(["play", "tenno", "--ui", "bots"]) == TEMPFAIL
        err = capsys.readouterr().err
        assert f"another courtier is running the table in {state_dir} (pid {os.getpid()}: " in err
        assert not (state_dir / "current.jsonl").exists()
    assert main(["play", "tenno", "--ui", "bots", "--seed", "3"]) == 0  # released: the table starts


@pytest.mark.parametrize("ui", ["none", "bots"])
def test_play_refuses_a_recording_no_front_end_would_draw(ui, state_dir, tmp_path, capsys):
    record = tmp_path / "table.gif"
    assert main(["play", "tenno", "--ui", ui, "--record", str(record)]) == exits.CONFIG
    err = capsys.readouterr().err
    assert f"which --ui {ui} does not draw: use --ui terminal, braille, window" in err
    assert len(err.strip().splitlines()) == 1
    assert not record.exists() and not (state_dir / "current.jsonl").exists()  # refused before anything began
    assert main(["play", "tenno", "--ui", ui, "--record", str(record), "--lang", "zh_Hans"]) == exits.CONFIG
    assert "--ui terminal, braille, window" in (err := capsys.readouterr().err) and "--record" in err
    assert "which --ui" not in err  # in the reader's language


@pytest.mark.parametrize("bot, words", [
    ("9=normal", "--bot 9=normal：请给 1 到 3 的座位，接着 = 与一种机器人（"),
    ("2=genius", "--bot 2=genius：没有叫 'genius' 的机器人（机器人："),
    ("", "每个座位都会是机器人：请至少留一个给真人"),
], ids=["seat out of range", "unknown bot", "every seat a bot"])
def test_a_bad_bot_seat_is_refused_in_the_language_asked_for(bot, words, capsys):
    bots = ["--bot", bot] if bot else ["--bot", "1=easy", "--bot", "2=easy", "--bot", "3=easy"]
    assert main(["play", "tenno", "--players", "3", "--ui", "bots", *bots, "--lang", "zh_Hans"]) == 2
    assert words in capsys.readouterr().err


def test_demo_and_play_refuse_too_many_players_for_a_table_file_in_the_same_words(tmp_path, capsys):
    table = tmp_path / "two.toml"
    table.write_text('[table]\nbackend = "mock"\n' + "".join(
        f'[[seat]]\nname = "{name}"\nbuttons = {{ prev = {pin}, next = {pin + 1}, ok = {pin + 2} }}\n'
        f'screen = {{ driver = "ssd1306", bus = "i2c", port = 1, address = {address} }}\n'
        for name, pin, address in (("A", 5, "0x3C"), ("B", 17, "0x3D"))))
    said = []
    for command in (["demo"], ["play", "--ui", "none"]):
        main([*command, "tenno", "--players", "3", "--table", str(table), "--lang", "zh_Hant"])
        said.append(capsys.readouterr().err.strip().splitlines()[-1])
    assert said[0] == said[1] == "courtier：3人需要3個座位；這張桌子只有2個"


def test_play_names_an_unusable_state_directory_and_what_to_do(state_dir, capsys):
    state_dir.write_text("a file where the directory should be")
    assert main(["play", "tenno", "--ui", "bots"]) == exits.CONFIG
    err = capsys.readouterr().err
    assert "is not a directory: move that file away" in err and len(err.strip().splitlines()) == 1


@pytest.mark.skipif(importlib.util.find_spec("lgpio") is None,
                    reason="lgpio is not installed (courtier[dev] on Linux brings it)")
@pytest.mark.skipif(on_raspberry_pi(), reason="this machine is a Raspberry Pi")
def test_the_service_command_off_a_pi_exits_78_with_one_line(tmp_path):
    """The unit's command on a machine gpiozero finds no Pi on: one line, and the status systemd does not restart."""
    command = [sys.executable, "-m", "firmware", "play", "--table", str(ROOT / "hardware" / "tables" / "pi-4.toml"),
               "--ui", "none", "--state-dir", str(tmp_path / "state")]
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120,
                            env={**os.environ, "PYTHONPATH": str(ROOT), "COURTIER_HARDWARE": "pi"})
    assert result.returncode == exits.CONFIG == 78
    [line] = result.stderr.splitlines()
    assert line.startswith("courtier: unable to locate Pi revision in /proc/device-tree or /proc/cpuinfo: "
                           "this is not a Raspberry Pi")


def test_play_without_a_terminal_says_which_ui_to_use_instead(capsys, state_dir):
    """No curses traceback: the terminal UI needs a terminal, and the message names --ui none and --ui window."""
    assert main(["play", "tenno", "--players", "3"]) == 2
    err = capsys.readouterr().err
    assert "needs a terminal" in err and "--ui none" in err and "--ui window" in err
    assert "Traceback" not in err and not (state_dir / "current.jsonl").exists()


def test_starting_play_loads_neither_the_bots_nor_the_serial_links():
    """A cold start imports only what a table uses: the bots, pyserial and the host console load when asked for."""
    code = ("import sys\n"
            "from firmware.cli import build_parser\n"
            "from firmware.play import bot_seats\n"
            "build_parser().parse_args(['play', 'tenno'])\n"
            "assert bot_seats([], None, 3) == {}\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'serial'\n"
            "             or m.startswith(('engine.bots', 'firmware.links'))))\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


# The service's start (the `courtier` command's entry), stopped once it is READY (every face drawn): what it had
# imported by then, and whether Python's collector runs again.
AT_READY = """
import gc, sys
from firmware import play
serve = play.serve
def at_ready(runtime, stop=None, watchdog=None):
    print("loaded:", sorted(m for m in sys.modules if m.split(".")[0] in ("email", "zipfile", "csv", "multiprocessing",
                                                                          "statistics", "colorzero")
                            or m.startswith(("importlib.metadata", "importlib.resources")) or m == "importlib_metadata"
                            or m.endswith("ImagePlugin") or m in ("firmware.selftest", "pickle")))
    print("collecting:", gc.isenabled(), "frozen:", gc.get_freeze_count() > 0)
    serve(runtime, stop=lambda: True, watchdog=watchdog)
play.serve = at_ready
from firmware.__main__ import main
sys.exit(main())
"""


def test_a_headless_start_is_ready_without_package_metadata_or_image_plugins(tmp_path):
    """Cold start: gpiozero's entry-point look-up, averages, colours and fonts, Pillow's image plugins (its font's
    PNG), luma's multiprocessing and the self-test stay unloaded; the collector held while the program loaded runs
    again, the start frozen."""
    command = [sys.executable, "-c", AT_READY, "play", "tenno", "--players", "7", "--table",
               str(ROOT / "hardware" / "tables" / "pi-7.toml"), "--ui", "none", "--state-dir", str(tmp_path), "--new"]
    env = {key: value for key, value in os.environ.items() if key != "NOTIFY_SOCKET"}
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120,
                            env={**env, "PYTHONPATH": str(ROOT), "COURTIER_HARDWARE": "mock"})
    assert result.returncode == 0, result.stderr
    assert "loaded: []" in result.stdout.splitlines(), result.stdout
    assert "collecting: True frozen: True" in result.stdout.splitlines(), result.stdout


# A command without a table, started as the `courtier` command starts: the collector runs while it does.
WITHOUT_TABLE = """
import gc, sys
from firmware import cli
seen = []
cli.cmd_games = lambda args: seen.append(gc.isenabled()) or 0
from firmware.__main__ import main
print(main(), seen, gc.isenabled())
"""


def test_a_command_without_a_table_runs_with_the_collector_on():
    result = subprocess.run([sys.executable, "-c", WITHOUT_TABLE, "games"], cwd=ROOT, capture_output=True,
                            text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["0", "[True]", "True"]


def test_the_console_subcommand_still_reaches_the_console(capsys):
    """The console's parser lives in the cli; asking for it loads the console and opens its port."""
    assert main(["console", "not-a-port://"]) != 0
    assert "not-a-port" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["play", "demo"])
@pytest.mark.parametrize("players", ["0", "-2", "three"])
def test_a_player_count_below_one_or_not_a_number_is_refused(command, players, capsys, state_dir):
    with pytest.raises(SystemExit) as refused:
        main([command, "tenno", "--players", players, "--ui" if command == "play" else "--seed",
              "none" if command == "play" else "1"])
    assert refused.value.code == 2
    err = capsys.readouterr().err
    assert "argument --players:" in err and ("at least one player" in err or "a number of players" in err)
    assert not state_dir.exists()  # nothing started, nothing saved


@pytest.mark.parametrize("game, last", [("tenno", "Turn Red's prisoner pile face up ("),
                                        ("quovadis", "Red: turn your laurels face up"),
                                        ("shadow", "Every player: turn your VP cards face up")])
def test_a_demo_says_each_line_of_the_end_once(game, last, tmp_path, capsys):
    """The last action's events and the table's closing steps are one story: nothing is told twice."""
    assert main(["demo", game, "--seed", "3", "--journal", str(tmp_path / "demo.jsonl")]) == 0
    out = capsys.readouterr().out
    end = out.split("\n-- ")[-1].split("Final scores:")[0].splitlines()[1:]
    assert end and len(end) == len(set(end)), end
    assert sum(last in line for line in end) == 1, end  # said once, as its event's step or as a step alone
    said = [line.strip() for line in end]
    assert not [line for line in said if any(line != other and line in other.split("; ") for other in said)]


def test_a_reader_that_stops_reading_ends_the_command_quietly(tmp_path):
    """`courtier play --ui bots | head -1`: when the reader closes the pipe, courtier stops without a word
    on stderr (no traceback, no "Broken pipe")."""
    env = {**os.environ, "COURTIER_STATE_DIR": str(tmp_path / "state")}
    command = [sys.executable, "-m", "firmware.cli", "play", "tenno", "--players", "3", "--ui", "bots", "--seed", "2"]
    with subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        assert proc.stdout.readline()  # it has begun to play
        proc.stdout.close()
        _, err = proc.communicate(timeout=120)
    assert err == b""
    assert proc.returncode == 1
