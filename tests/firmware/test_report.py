"""The post-game report, from a journal alone: scores and breakdowns, charts, timeline, and nothing
hidden before the end."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from engine.games import all_games
from engine.match import Match
from firmware.bots import RandomBot
from firmware.cli import main
from firmware.public import history
from firmware.public.report import build_report, report_html, report_text
from firmware.table.journal import Journal

EXPECTED_CHARTS = {"tenno": {"prisoners", "fights"}, "quovadis": {"progress", "laurels"},
                   "shadow": {"vp", "thalers"}}


def _journal(tmp_path: Path, game: str, players: int, seed: int, stop: int | None = None) -> tuple[Path, Match]:
    match = Match.new(game, players, seed=seed)
    path = tmp_path / f"{game}.jsonl"
    journal = Journal.create(path, match.header)
    bots = [RandomBot(seed * 10 + seat) for seat in range(players)]
    while not match.is_over and (stop is None or len(match.actions) < stop):
        seat = match.pending()[0]
        action = bots[seat].choose(match.legal_actions(seat), match.game.free_actions)
        match.apply(action)
        journal.append(action)
    journal.close()
    return path, match


@pytest.mark.parametrize("game", [g.name for g in all_games()])
def test_the_text_report_of_a_finished_journal_has_every_score_and_breakdown(tmp_path, capsys, game):
    path, match = _journal(tmp_path, game, 3, seed=4)
    assert main(["report", str(path)]) == 0
    text = capsys.readouterr().out
    result = match.result()
    names = match.names
    assert f"Winner: {', '.join(names[w] for w in result.winners)}" in text
    for seat, score in result.scores.items():
        cells = [re.escape(names[seat]), str(score)] + [str(v) for v in result.breakdown[seat].values()]
        assert re.search("^  " + r"\s+".join(cells) + r"\b", text, re.M), names[seat]
    assert "Timeline" in text


@pytest.mark.parametrize("game", [g.name for g in all_games()])
def test_the_html_report_is_one_self_contained_page_with_its_charts(tmp_path, game):
    path, match = _journal(tmp_path, game, 3, seed=5)
    out = tmp_path / "report.html"
    assert main(["report", str(path), "--html", str(out)]) == 0
    html = out.read_text(encoding="utf-8")
    assert not re.search(r'(src|href)="(?!#)', html)  # nothing to load: every script and style is inside
    assert "Chart.js v4" in html and "new Chart(" in html
    data = re.search(r'<script type="application/json" id="charts-data">(.*?)</script>', html, re.S).group(1)
    charts = {c["id"]: c for c in json.loads(data)}
    assert EXPECTED_CHARTS[game] <= set(charts)
    for chart in charts.values():
        assert chart["datasets"] and all(len(d["data"]) == len(chart["labels"]) for d in chart["datasets"])


def test_the_scores_chart_and_fights_follow_the_game(tmp_path):
    path, match = _journal(tmp_path, "tenno", 3, seed=6)
    report = build_report(match.header, match.actions)
    prisoners = next(c for c in report.charts if c.id == "prisoners")
    final = [d["data"][-1] for d in prisoners.datasets]
    assert final == [p["captives"] for p in match.public_view()["players"]]
    fights = next(c for c in report.charts if c.id == "fights")
    assert len(fights.labels) == sum(1 for e in report.revealed[1].rows)


def test_before_the_end_the_report_reads_no_seat_view(tmp_path, monkeypatch):
    """An unfinished game's report is built from public views alone: hidden figures cannot leak."""
    path, match = _journal(tmp_path, "quovadis", 3, seed=2, stop=60)
    assert not match.is_over

    def refuse(self, seat):
        raise AssertionError("a seat's view was read before the end")

    monkeypatch.setattr(Match, "view", refuse)
    report = build_report(match.header, match.actions)
    assert report.scores is None and report.revealed == [] and not report.over
    laurels = next(c for c in report.charts if c.id == "laurels")
    assert [d["data"][-1] for d in laurels.datasets] == [p["laurels"] for p in match.public_view()["players"]]
    text = report_text(report).splitlines()
    notice = "The game is not over: this report shows only what the whole table may know."
    assert text[1:3] == [match.prompt().line, notice] and notice in report_html(report)  # where it stands, and why so little


def _public_story(match: Match) -> list:
    """Every public view of a match's game, from its start to now."""
    again = Match.new(match.game.name, match.header.players, match.header.seed, match.header.options)
    story = [again.public_view()]
    for action in match.actions:
        again.apply(action)
        story.append(again.public_view())
    return story


@pytest.mark.parametrize("game", ["tenno", "shadow"])
def test_an_unfinished_games_report_shows_no_seed_and_reads_as_a_re_dealt_twins(tmp_path, game):
    """The seed replays every hidden deal: before the end the report must neither show it nor differ
    from the report of the same public story dealt from another seed."""
    seed = 918273645
    path, match = _journal(tmp_path, game, 3, seed=seed, stop=40)
    assert not match.is_over
    story = _public_story(match)
    twins = []
    for other in range(1, 60):
        try:
            twin = Match.replay(replace(match.header, seed=other), match.actions)
        except Exception:
            continue  # these actions are not legal over that deal
        if twin.state != match.state and _public_story(twin) == story:
            twins.append(twin)
    assert twins, "no re-dealt twin found"
    report = build_report(match.header, match.actions)
    text, html = report_text(report), report_html(report)
    assert str(seed) not in text and str(seed) not in html
    assert "not over" in html and "40 actions" in text
    for twin in twins[:2]:
        other = build_report(twin.header, twin.actions)
        assert (report_text(other), report_html(other)) == (text, html)


def test_a_finished_games_report_names_its_seed(tmp_path):
    path, match = _journal(tmp_path, "tenno", 3, seed=918273645)
    assert "seed 918273645" in report_text(build_report(match.header, match.actions))


def test_a_shadow_game_hides_victory_points_until_the_end(tmp_path):
    path, match = _journal(tmp_path, "shadow", 3, seed=3, stop=80)
    early = history.replay(match.header, match.actions)
    assert all(v is None for point in early.figures["vp"] for v in point)
    assert [c.id for c in build_report(match.header, match.actions).charts] == ["thalers"]


def test_a_shadow_game_with_open_victory_points_charts_them_before_the_end():
    match = Match.new("shadow", 3, seed=3, options={"vp_open": True})
    bots = [RandomBot(30 + seat) for seat in range(3)]
    while len(match.actions) < 80:
        seat = match.pending()[0]
        match.apply(bots[seat].choose(match.legal_actions(seat), match.game.free_actions))
    assert not match.is_over
    report = build_report(match.header, match.actions)
    assert [c.id for c in report.charts] == ["vp", "thalers"]
    vp = report.charts[0]
    assert [d["data"][-1] for d in vp.datasets] == [p["vp"] for p in match.public_view()["players"]]


@pytest.mark.parametrize("game", [g.name for g in all_games()])
def test_the_timeline_headers_name_the_seats_in_the_tables_language(tmp_path, game):
    from engine import i18n

    path, match = _journal(tmp_path, game, 3, seed=4, stop=30)
    i18n.set_language("zh_Hans")
    report = build_report(match.header, match.actions)
    headers = [entry.header for entry in report.timeline]
    english = set(match.names)
    assert headers and not any(word in english for header in headers for word in re.findall(r"[A-Za-z]+", header))
    assert any(name in header for header in headers for name in report.names)


def test_a_bad_journal_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n", encoding="utf-8")
    assert main(["report", str(bad)]) == 2
    assert "line 1" in capsys.readouterr().err
