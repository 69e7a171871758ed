"""HTML for the LAN page and the report: Jinja2 templates and the assets shipped beside them.

Templates live in `templates/`, scripts and styles in `static/` (Chart.js is
vendored there, with its licence); nothing is ever loaded from the internet.
Every word goes through the table's gettext catalog, and every value is
escaped by Jinja2's autoescaping.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from .colours import page_colour

HERE = Path(__file__).parent
STATIC = HERE / "static"
TEMPLATES = HERE / "templates"

@functools.lru_cache(maxsize=None)
def environment() -> Any:
    import jinja2

    from engine.i18n import _, ngettext

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES),
                             autoescape=jinja2.select_autoescape(default=True, default_for_string=True),
                             extensions=["jinja2.ext.i18n"], trim_blocks=True, lstrip_blocks=True)
    # `_` looks the message up in the table's language at each call, so a change of language shows at once.
    env.install_gettext_callables(gettext=_, ngettext=ngettext, newstyle=True)  # type: ignore[attr-defined]
    env.globals.update(asset=asset, page_colour=page_colour)  # a seat's colour: page_colour(colours, seat)
    return env


@functools.lru_cache(maxsize=None)
def asset(name: str) -> str:
    """A shipped asset's text, to put inside a self-contained page (source-map comments dropped)."""
    text = (STATIC / name).read_text(encoding="utf-8")
    return "\n".join(line for line in text.splitlines() if not line.startswith("//# sourceMappingURL="))


def render(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)
