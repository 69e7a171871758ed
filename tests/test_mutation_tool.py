"""`make mutants`' own bookkeeping: which mutants a run after new tests tries again, and which
verdicts it keeps (mutmut judges a whole group afresh when the group's test list changes)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

_SPEC = importlib.util.spec_from_file_location("mutation_tool", Path(__file__).with_name("mutation.py"))
mutation = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(mutation)


def _meta(path: Path, codes: dict, hashes: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"exit_code_by_key": codes, "hash_by_function_name": hashes}), encoding="utf-8")


def test_a_mutant_is_keyed_by_the_function_it_changes():
    assert mutation.function_of("engine.game.xǁGameǁask__mutmut_1") == "xǁGameǁask"
    assert mutation.function_of("engine.games.x_register__mutmut_12") == "x_register"


def test_only_the_survivors_are_tried_again_and_the_listed_equivalents_are_not(tmp_path):
    _meta(tmp_path / "engine" / "a.py.meta",
          {"engine.a.x_f__mutmut_1": 1, "engine.a.x_f__mutmut_2": 0, "engine.a.x_f__mutmut_3": 33,
           "engine.a.x_f__mutmut_4": 0, "engine.a.x_f__mutmut_5": None}, {"x_f": "h"})
    _meta(tmp_path / "engine" / "b.py.meta", {"engine.b.x_g__mutmut_1": 0}, {"x_g": "h"})
    before = mutation.snapshot(tmp_path)
    equivalent = frozenset({"engine.a.x_f__mutmut_4"})
    assert mutation.survivors_of(before, equivalent, None) == [
        "engine.a.x_f__mutmut_2", "engine.a.x_f__mutmut_3", "engine.b.x_g__mutmut_1"]
    assert mutation.survivors_of(before, equivalent, ["engine.b.*"]) == ["engine.b.x_g__mutmut_1"]
    assert mutation.survivors_of(before, equivalent, None, mutation.NOT_RUN) == ["engine.a.x_f__mutmut_5"]
    assert mutation.survivors_of(before, equivalent, ["engine.b.*"], mutation.NOT_RUN) == []


def test_after_a_run_the_dropped_verdicts_of_unchanged_functions_come_back(tmp_path):
    meta = tmp_path / "engine" / "a.py.meta"
    _meta(meta, {"engine.a.x_f__mutmut_1": 1, "engine.a.x_f__mutmut_2": 0, "engine.a.x_f__mutmut_3": -24,
                 "engine.a.x_g__mutmut_1": 1}, {"x_f": "same", "x_g": "old"})
    before = mutation.snapshot(tmp_path)
    # mutmut dropped every verdict (the test list changed), tried x_f's survivor again, and x_g changed
    _meta(meta, {"engine.a.x_f__mutmut_1": None, "engine.a.x_f__mutmut_2": 1, "engine.a.x_f__mutmut_3": None,
                 "engine.a.x_g__mutmut_1": None}, {"x_f": "same", "x_g": "new"})
    assert mutation.keep_verdicts(before) == 1
    after = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
    assert after == {"engine.a.x_f__mutmut_1": 1, "engine.a.x_f__mutmut_2": 1, "engine.a.x_f__mutmut_3": None,
                     "engine.a.x_g__mutmut_1": None}, "a timeout is judged again"


def test_a_groups_copy_of_every_file_mutmut_does_not_mutate_is_brought_up_to_date(tmp_path, monkeypatch):
    """mutmut copies the packages once: a data file or an unmutated module changed since must not be
    tested in its old form, and a module it mutates is left to it."""
    monkeypatch.chdir(tmp_path)
    for path, text in (("engine/games/g/data.toml", "new"), ("engine/games/g/rules.py", "new"),
                       ("engine/match.py", "new"), ("engine/same.py", "same")):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
        copy = tmp_path / "place" / "mutants" / path
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text("same" if text == "same" else "old", encoding="utf-8")
    assert mutation.refresh_copies(Path("place"), ["engine/games/g/*"]) == 2
    mutants = tmp_path / "place" / "mutants"
    assert (mutants / "engine/games/g/data.toml").read_text(encoding="utf-8") == "new"
    assert (mutants / "engine/match.py").read_text(encoding="utf-8") == "new"
    assert (mutants / "engine/games/g/rules.py").read_text(encoding="utf-8") == "old"


def test_a_group_may_leave_out_a_test_that_cannot_run_against_the_mutants():
    """The deselected test is left out of every pytest run mutmut makes (its clean run, its map of
    which tests reach which function, each mutant's), beside the plugins every run leaves out."""
    import tomllib

    group = {"modules": ["firmware/table/journal.py"], "tests": ["tests/firmware/test_session.py"],
             "deselect": ["tests/firmware/test_session.py::test_x"]}
    mutmut = tomllib.loads(mutation.group_pyproject(group))["tool"]["mutmut"]
    assert mutmut["pytest_add_cli_args"] == [*mutation.LEAN, "--deselect", "tests/firmware/test_session.py::test_x"]
    assert mutmut["pytest_add_cli_args_test_selection"] == ["tests/firmware/test_session.py"]
    assert tomllib.loads(mutation.group_pyproject(dict(group, deselect=[])))["tool"]["mutmut"][
        "pytest_add_cli_args"] == mutation.LEAN
