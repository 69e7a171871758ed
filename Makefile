# Quick start: `make demo` plays a seeded Tennō game on the emulated table;
# `make test` runs the whole suite. Both create .venv when it is missing.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.courtier-installed

.PHONY: demo test play clean picture chaos install uninstall bench mutants screenshots font i18n

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[emulator,web,dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/courtier demo tenno --players 4 --seed 7

play: $(STAMP)
	$(BIN)/courtier play tenno --players 3

test: $(STAMP)
	$(BIN)/python -m pytest -q

# Engine speed, press-to-light on the real wiring beside luma's stock drivers, cold start, memory: one table.
bench: $(STAMP)
	$(BIN)/python -m bench

# Mutation score: mutmut changes the rules, journal, runtime, menus and table
# loader one mutant at a time; prints each module's score and the survivors.
# One group alone: make mutants GROUPS=tenno (groups: tests/mutation.toml);
# after adding tests, make mutants GROUPS=tenno AGAIN=--survivors tries only the survivors;
# AGAIN=--resume goes on with a stopped run (only the mutants not judged yet);
# one module: make mutants GROUPS=core ONLY='engine.game.*' (mutant-name globs, all tried again).
MUTANTS_STAMP := $(VENV)/.courtier-mutants
GROUPS ?=
AGAIN ?=
ONLY ?=
$(MUTANTS_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[emulator,dev,mutants]'
	touch $(MUTANTS_STAMP)

mutants: $(MUTANTS_STAMP)
	nice -n 10 $(BIN)/python tests/mutation.py run $(AGAIN) $(foreach glob,$(ONLY),--only '$(glob)') $(GROUPS)
	$(BIN)/python tests/mutation.py report

# Power cuts and the other faults of a real Pi, harder than the test suite's run:
# 200 SIGKILLs per game, and 30 faults of each class (tests/test_faults.py) per game;
# the property tests draw fresh examples (`make test` repeats the same ones).
chaos: $(STAMP)
	COURTIER_CHAOS_KILLS=200 COURTIER_CHAOS_FAULTS=30 HYPOTHESIS_PROFILE=explore $(BIN)/python -m pytest -q -s -m "chaos or hypothesis"

# On the Raspberry Pi: sudo make install (DESTDIR for a staged root, PREFIX for another place).
PREFIX ?= /opt/courtier
DESTDIR ?=

install:
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" PYTHON="$(PYTHON)" sh systemd/install.sh install

uninstall:
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" sh systemd/install.sh uninstall

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mutation

# The README's pictures, frames of real demo runs: the emulated table (Red to refill a gap after
# Blue's attack) and its 256x64 public screen; the same moment on a 128x64 public OLED
# (emulator-7.toml); a colour TFT (pi-4-tft.toml) in round 1 of a Shadow game, new electors.
picture: $(STAMP)
	rm -rf .picture && $(BIN)/courtier demo tenno --players 3 --seed 4 --journal .picture/game.jsonl --record .picture/frames/ > /dev/null
	cp .picture/frames/table_000018.png docs/emulated-table.png
	cp .picture/frames/public_000018.png docs/public-ssd1322.png
	$(BIN)/courtier demo tenno --players 3 --seed 4 --journal .picture/oled.jsonl --table hardware/tables/emulator-7.toml --record .picture/oled/ > /dev/null
	cp .picture/oled/public_000018.png docs/public-oled.png
	$(BIN)/courtier demo shadow --players 3 --seed 3 --journal .picture/tft.jsonl --table hardware/tables/pi-4-tft.toml --record .picture/tft/ > /dev/null
	cp .picture/tft/public_000040.png docs/public-tft.png && rm -rf .picture
	$(BIN)/courtier demo tenno --players 3 --seed 4 --lang zh_Hant --journal .picture/game.jsonl --record .picture/frames/ > /dev/null
	cp .picture/frames/table_000017.png docs/emulated-table-zh_Hant.png && rm -rf .picture

# The README's pictures of the table page and its report, from a real run in Debian's Chromium.
screenshots: $(STAMP)
	$(BIN)/python docs/screenshots.py docs

# The seat screens' CJK font: a glyph subset of WenQuanYi Bitmap Song 12 px, made from the font
# Debian ships (sudo apt-get install xfonts-wqy) into firmware/table/fonts/. Run it after adding
# a translation that uses a character the subset lacks (the catalog tests say so).
font: $(STAMP)
	$(BIN)/python tools/make_font.py

# The gettext catalogs (engine/locale/LANG/LC_MESSAGES/courtier.po, compiled to .mo and shipped):
# extract every message of the code and the games' data (babel.cfg) into courtier.pot (made
# here, not kept), add the new ones to each language's .po, and compile. After adding a
# message: make i18n, write its msgstr in each .po (game terms: engine/games/GAME/glossary.toml),
# make i18n again.
LANGS := zh_Hant zh_Hans
LOCALES := engine/locale
i18n: $(STAMP)
	mkdir -p $(LOCALES)
	$(BIN)/pybabel extract -F babel.cfg --no-location --sort-output --project courtier --version 0.1 \
	    --copyright-holder "the courtier authors" -o $(LOCALES)/courtier.pot .
	for lang in $(LANGS); do \
	    test -f $(LOCALES)/$$lang/LC_MESSAGES/courtier.po || \
	    $(BIN)/pybabel init -D courtier -i $(LOCALES)/courtier.pot -d $(LOCALES) -l $$lang; \
	done
	$(BIN)/pybabel update -D courtier -i $(LOCALES)/courtier.pot -d $(LOCALES) --ignore-obsolete --no-fuzzy-matching \
	    --ignore-pot-creation-date --width 100
	$(BIN)/pybabel compile -D courtier -d $(LOCALES) --statistics
