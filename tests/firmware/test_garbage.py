"""The start holds Python's collector and hands it back; a collector switched off by someone else stays off."""

import gc

from firmware.table import garbage


def test_a_collector_switched_off_elsewhere_is_not_switched_on_by_the_release():
    gc.disable()
    try:
        garbage.hold()
        garbage.release()
        garbage.take_over()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_release_without_a_hold_changes_nothing():
    frozen = gc.get_freeze_count()
    garbage.release()
    assert gc.isenabled() and gc.get_freeze_count() == frozen
