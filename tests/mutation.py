"""make mutants: mutate the rules, journal, runtime, menus and table loader, and score the tests.

`run [--survivors] [--resume] [--only GLOB ...] [GROUP ...]` runs mutmut once per group of
tests/mutation.toml, each in its own directory under .mutation/ (the packages linked in, and
a copy of pyproject.toml whose [tool.mutmut] names the group's modules and test files), so
every module is tried against the test files written for it. `--only` passes mutant-name
globs to mutmut (`engine.game.*` is one module of the core group): only those mutants are
tried, all of them again, and the group's other results are kept. `--resume` tries only the
mutants no run has judged yet, so a run stopped halfway goes on where it stopped.

`report` prints each module's score and every surviving mutant. A mutant is
killed when a test failed (or timed out) with it in place; it survives when
the tests that reach its function all passed, or when no test reaches it.
Mutants listed as equivalent in tests/mutation.toml cannot change what the
program does: they are left out of the score, each with its reason. The
exit status is 1 when a module scores under the target.

Run from the repository root: python tests/mutation.py run [GROUP ...]; python tests/mutation.py report
"""

from __future__ import annotations

import argparse
import filecmp
import fnmatch
import json
import os
import shutil
import subprocess
import sys
import time
import tomllib
from collections import Counter
from pathlib import Path

CONFIG = Path(__file__).with_name("mutation.toml")
WORK = Path(".mutation")
PACKAGES = ("engine", "hardware", "firmware", "tests")
KILLED = {1, 3, 24, -24, 36, 152, 255}  # a failing test, pytest's internal error, or a timeout
TIMED_OUT = {24, -24, 36, 152, 255}
SURVIVED = {0, 33}  # the tests passed, or no test reaches the function
NOT_RUN = {None, 2, 5, 34}  # not checked yet, interrupted, skipped
# pytest starts afresh for every mutant: plugins a mutant's run never uses are left out, as their
# start-up costs more than most tests (no cache, no fault handler, no unraisable-exception sweep).
LEAN = ["-p", "no:cacheprovider", "-p", "no:unraisableexception", "-p", "no:threadexception",
        "-p", "no:faulthandler", "-p", "no:pastebin", "-p", "no:junitxml", "-p", "no:doctest",
        "-p", "no:legacypath", "-p", "no:stepwise", "-p", "no:setuponly", "-p", "no:setupplan",
        "-p", "no:debugging", "-p", "no:platformdirs"]
# A mutant that loops (a contest that never ends) is stopped after this many times the time its
# tests took in mutmut's clean run (that much wall time, twice that much CPU). That run traces every
# line, so its times are already several times a plain run's; mutmut's default of 15 let one looping
# mutant cost a quarter of an hour. The wall-time limit must still hold a whole run of the tests on a
# loaded machine: at 1 a surviving mutant of Shadow's phases was stopped as if it looped.
TIMEOUT_MULTIPLIER = 3.0


def load_config(path: Path = CONFIG) -> dict:
    config = tomllib.loads(path.read_text(encoding="utf-8"))
    missing = sorted(f"{module}: {name}" for module, names in config.get("equivalent", {}).items()
                     for name, why in names.items() if not str(why).strip())
    if missing:
        raise SystemExit(f"{path.name}: give a reason for {', '.join(missing)}")
    return config


def group_pyproject(group: dict) -> str:
    """The repository's pyproject.toml (pytest's settings) with the group's [tool.mutmut].

    A group may name `also_copy`: files at the repository's root its tests read (babel.cfg), linked
    into the group's directory and copied by mutmut beside the mutants.

    A group may set its own `timeout_multiplier`: mutmut also stops a mutant after that many times
    the clean run's time on the wall clock, so on a loaded machine a group whose survivors run whole
    files of quick tests (the table file's, the runtime's) needs a larger one to tell a slow mutant
    from a looping one.

    A group may `deselect` tests of its files that cannot run against the mutants: a test whose child
    process imports the mutated copy outside mutmut's own processes fails there whatever the mutant."""
    def strings(items: list[str]) -> str:
        return "[" + ", ".join(json.dumps(item) for item in items) + "]"

    deselect = [arg for test in group.get("deselect", []) for arg in ("--deselect", test)]

    return Path("pyproject.toml").read_text(encoding="utf-8") + (
        "\n[tool.mutmut]\n"
        f"source_paths = {strings(list(PACKAGES[:3]))}\n"
        f"only_mutate = {strings(group['modules'])}\n"
        f"pytest_add_cli_args_test_selection = {strings(group['tests'])}\n"
        f"pytest_add_cli_args = {strings(LEAN + deselect)}\n"
        f"timeout_multiplier = {group.get('timeout_multiplier', TIMEOUT_MULTIPLIER)}\n"
        f"also_copy = {strings(group.get('also_copy', []))}\n"
    )


def refresh_copies(place: Path, modules: list[str]) -> int:
    """Bring the group's copy of every file mutmut does not mutate up to date: mutmut copies the
    packages into mutants/ once and never again, so a data file or an unmutated module changed
    since would be tested in its old form. Returns how many files were copied anew."""
    copied = 0
    for package in PACKAGES[:3]:
        for source in Path(package).rglob("*"):
            if not source.is_file() or "__pycache__" in source.parts:
                continue
            if source.suffix == ".py" and any(fnmatch.fnmatch(str(source), m) for m in modules):
                continue  # mutmut makes these anew from the source when it changes
            copy = place / "mutants" / source
            if copy.exists() and not filecmp.cmp(source, copy, shallow=False):
                shutil.copy2(source, copy)
                copied += 1
    return copied


def function_of(name: str) -> str:
    """The function a mutant changes, as mutmut keys its hash: 'engine.game.x_f__mutmut_3' -> 'x_f'."""
    return name.rsplit("__mutmut_", 1)[0].rsplit(".", 1)[1]


def snapshot(root: Path) -> dict[Path, dict]:
    """Every module's verdicts and function hashes under `root`, as mutmut left them."""
    return {meta: json.loads(meta.read_text(encoding="utf-8")) for meta in root.rglob("*.py.meta")}


def survivors_of(before: dict[Path, dict], equivalent: frozenset[str], only: list[str] | None,
                 verdicts: set | frozenset = SURVIVED) -> list[str]:
    """The surviving mutants (the listed equivalents left out), of the modules `only` names if given;
    with `verdicts=NOT_RUN`, those not judged yet."""
    return sorted(name for data in before.values() for name, code in data["exit_code_by_key"].items()
                  if code in verdicts and name not in equivalent
                  and (not only or any(fnmatch.fnmatch(name, glob) for glob in only)))


def keep_verdicts(before: dict[Path, dict]) -> int:
    """Put back the verdicts mutmut dropped without trying the mutant again, where the function it
    changes is the same as when it was judged. (mutmut judges a whole group afresh when the group's
    test list changes; after tests are added, a mutant they killed stays killed.) A timeout is left
    to be judged again: mutmut drops those when the time limit changes, and on a loaded machine
    a slow survivor can look like a loop."""
    kept = 0
    for meta, old in before.items():
        if not meta.exists():
            continue
        data = json.loads(meta.read_text(encoding="utf-8"))
        codes, hashes = data["exit_code_by_key"], data["hash_by_function_name"]
        back = {name: code for name, code in old["exit_code_by_key"].items()
                if code is not None and code not in TIMED_OUT and codes.get(name, 0) is None
                and hashes.get(function_of(name)) == old["hash_by_function_name"].get(function_of(name))}
        if back:
            codes.update(back)
            meta.write_text(json.dumps(data), encoding="utf-8")
            kept += len(back)
    return kept


def run(names: list[str], children: int, survivors: bool = False, only: list[str] | None = None,
        resume: bool = False) -> int:
    config = load_config()
    groups = config["group"]
    equivalent = frozenset(name for names in config.get("equivalent", {}).values() for name in names)
    unknown = [n for n in names if n not in groups]
    if unknown:
        print(f"no group {', '.join(unknown)}; the groups are {', '.join(groups)}", file=sys.stderr)
        return 2
    for name in names or list(groups):
        place = WORK / name
        place.mkdir(parents=True, exist_ok=True)
        for package in (*PACKAGES, *groups[name].get("also_copy", [])):
            link = place / package
            if not link.is_symlink():
                link.symlink_to(Path("..", "..", package))
        (place / "pyproject.toml").write_text(group_pyproject(groups[name]), encoding="utf-8")
        chosen, before = list(only or []), {}
        if (survivors or resume) and (place / "mutants").is_dir():
            before = snapshot(place / "mutants")
            chosen = survivors_of(before, equivalent, only) if survivors else []
            chosen += survivors_of(before, equivalent, only, NOT_RUN) if resume else []
            which = " and ".join(w for w, on in (("the survivors again", survivors), ("those not judged yet", resume)) if on)
            print(f"== {name}: trying {len(chosen)} mutants, {which}", flush=True)
            if not chosen:
                continue
        print(f"== {name}: {', '.join(groups[name]['modules'])}", flush=True)
        if (place / "mutants").is_dir():
            print(f"== {name}: {refresh_copies(place, groups[name]['modules'])} files copied anew", flush=True)
        start = time.monotonic()
        mutmut = Path(sys.executable).with_name("mutmut")
        done = subprocess.run([str(mutmut), "run", "--max-children", str(children), *chosen], cwd=place)
        if before:
            print(f"== {name}: {keep_verdicts(before)} verdicts kept from the last run", flush=True)
        print(f"== {name}: {time.monotonic() - start:.0f} s, mutmut exit {done.returncode}", flush=True)
    return 0


def load_results(root: Path) -> dict[str, dict[str, int | None]]:
    """Module path -> {mutant name: mutmut's exit code}, from the .meta files of `mutmut run`."""
    results = {}
    for meta in sorted(root.rglob("*.py.meta")):
        codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        if codes:
            results[str(meta.relative_to(root))[: -len(".meta")]] = codes
    return results


def diff(name: str, module: str, place: Path) -> str:
    """The lines a mutant changed, read with mutmut's own reader from the group's directory."""
    here = Path.cwd()
    try:
        from mutmut.mutation.diff_apply import get_diff_for_mutant

        os.chdir(place)
        lines = get_diff_for_mutant(name, path=module).splitlines()
    except Exception:  # another mutmut version: its own command still shows the change
        return f"      (cd {place} && mutmut show {name})"
    finally:
        os.chdir(here)
    changed = [line for line in lines if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    return "\n".join(f"      {line}" for line in changed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    running = commands.add_parser("run", help="run mutmut over the named groups (all when none)")
    running.add_argument("groups", nargs="*")
    running.add_argument("--children", type=int, default=os.cpu_count() or 2, help="mutants tried at once")
    running.add_argument("--survivors", action="store_true",
                         help="try only the mutants that survived the last run (after adding tests); "
                              "the others keep their verdicts")
    running.add_argument("--resume", action="store_true",
                         help="try only the mutants no run has judged yet (a stopped run goes on where it stopped)")
    running.add_argument("--only", action="append", metavar="GLOB",
                         help="try only the mutants whose names match (e.g. 'engine.game.*'), all of them again")
    reporting = commands.add_parser("report", help="scores per module, and the surviving mutants")
    reporting.add_argument("--target", type=float, default=90.0, help="lowest score a module may have (per cent)")
    reporting.add_argument("--quiet", action="store_true", help="scores only, no survivors")
    args = parser.parse_args(argv)
    if args.command == "run":
        return run(args.groups, args.children, args.survivors, args.only, args.resume)
    return report(args.target, args.quiet)


def report(target: float, quiet: bool) -> int:
    config = load_config()
    equivalent = {name: why for names in config.get("equivalent", {}).values() for name, why in names.items()}
    results: dict[str, dict[str, int | None]] = {}
    places: dict[str, Path] = {}
    for name in config["group"]:
        root = WORK / name / "mutants"
        if root.is_dir():
            for module, codes in load_results(root).items():
                results[module], places[module] = codes, WORK / name
    if not results:
        print("no results under .mutation/: run `make mutants` first", file=sys.stderr)
        return 2
    survivors: dict[str, list[str]] = {}
    below = []
    totals = Counter()
    print(f"{'module':<40} {'killed':>9} {'equiv.':>6} {'left':>5} {'not run':>7} {'score':>7}")
    for module, codes in results.items():
        count = Counter()
        for name, code in codes.items():
            if name in equivalent:
                count["equivalent"] += 1
            elif code in KILLED:
                count["killed"] += 1
            elif code in SURVIVED:
                count["survived"] += 1
                survivors.setdefault(module, []).append(name)
            else:
                count["not run" if code in NOT_RUN else "survived"] += 1
                if code not in NOT_RUN:
                    survivors.setdefault(module, []).append(name)
        judged = count["killed"] + count["survived"]
        score = 100.0 * count["killed"] / judged if judged else 100.0
        totals.update(count)
        if score < target:
            below.append(module)
        print(f"{module:<40} {count['killed']:>4}/{judged:<4} {count['equivalent']:>6} {count['survived']:>5} "
              f"{count['not run']:>7} {score:>6.1f}%")
    judged = totals["killed"] + totals["survived"]
    print(f"{'all':<40} {totals['killed']:>4}/{judged:<4} {totals['equivalent']:>6} {totals['survived']:>5} "
          f"{totals['not run']:>7} {100.0 * totals['killed'] / max(judged, 1):>6.1f}%")
    stale = sorted(name for name in equivalent
                   if not any(name in codes for codes in results.values()))
    killed = sorted(name for name in equivalent
                    if any(codes.get(name) in KILLED for codes in results.values()))
    if killed:
        print(f"\n{CONFIG.name} calls equivalent mutants a test kills (renumbered?): {', '.join(killed)}")
    if stale:
        print(f"\n{CONFIG.name} calls equivalent mutants no run has (the code moved?): {', '.join(stale)}")
    if survivors and not quiet:
        print("\nSurviving mutants (mutmut show NAME for the whole function):")
        for module, names in survivors.items():
            print(f"  {module}")
            for name in names:
                print(f"    {name}")
                print(diff(name, module, places[module]))
    if below:
        print(f"\nUnder {target:.0f} %: {', '.join(below)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
